"""The engine's layers (docs/design.md): every import of an engine module, module-level or inside a
function, goes to its own layer or a lower one, and the imports form no cycle."""
import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2] / "dpverify"

LAYERS = {
    1: ["errors", "lazy", "gc_threshold", "resources", "claims", "arb_source", "numeric", "search", "sampling", "jsonnum", "stats", "quantifiers", "constants", "tables", "measured",
        "files", "escape", "sealed", "shape", "config", "mathtex", "plots", "xinterval", "proofforms"],
    2: ["sim", "privacy"],
    3: ["scenarios"],
    4: ["checks", "verdict"],
    5: ["cache", "registry", "report", "report_html", "replay", "experiments", "distributed", "contract", "strategies", "certify",
        "runner"],
    6: ["cli", "options", "pytest_plugin", "testing", "__init__", "__main__"],
}
LAYER_OF = {name: layer for layer, names in LAYERS.items() for name in names}


def _module_name(path: pathlib.Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _top(module: str) -> str:
    """dpverify.sim.kernels -> sim; dpverify -> __init__."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _imports(path: pathlib.Path) -> set[str]:
    mod = _module_name(path)
    package = mod if path.name == "__init__.py" else mod.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
                names = [target] if node.module else [f"{target}.{a.name}" for a in node.names]
            else:
                names = [node.module or ""]
            out.update(n for n in names if n.startswith("dpverify"))
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("dpverify"))
    return out


FILES = sorted(ROOT.rglob("*.py"))
GRAPH = {_module_name(p): _imports(p) for p in FILES}


def test_every_engine_module_has_a_layer():
    assert {_top(m) for m in GRAPH} <= set(LAYER_OF), sorted({_top(m) for m in GRAPH} - set(LAYER_OF))


def test_no_import_runs_upwards():
    upwards = [f"{m} (layer {LAYER_OF[_top(m)]}) imports {t} (layer {LAYER_OF[_top(t)]})"
               for m, targets in GRAPH.items() for t in targets
               if _top(t) in LAYER_OF and LAYER_OF[_top(t)] > LAYER_OF[_top(m)]]
    assert not upwards, "\n".join(upwards)


def test_no_import_cycle_between_modules():
    def resolve(t):           # an import of a package counts as its __init__; of a name, its module
        while t and t not in GRAPH:
            t = t.rsplit(".", 1)[0] if "." in t else ""
        return t

    edges = {m: {resolve(t) for t in ts} - {m, ""} for m, ts in GRAPH.items()}
    # a package's __init__ re-exporting its own submodules is not a cycle through the package
    edges = {m: {t for t in ts if not (m.startswith(t + ".") and t in edges)} for m, ts in edges.items()}
    state, stack, cycles = {}, [], []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for t in edges.get(m, ()):
            if state.get(t) == 1:
                cycles.append(" -> ".join(stack[stack.index(t):] + [t]))
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(edges):
        if m not in state:
            visit(m)
    assert not cycles, "\n".join(cycles)


MAX_LINES = 600


def test_no_engine_module_is_over_600_lines():
    long = {str(p.relative_to(ROOT.parent)): n for p in FILES if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not long, long


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_imports(files) -> list[str]:
    """Every import in ``files`` of an engine module's ``_name``, or of an engine module named ``_x``."""
    found = []
    for p in files:
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("dpverify")):
                names = [a.name for a in node.names]
                if any(map(_private, (node.module or "").split("."))) or any(map(_private, names)):
                    found.append(f"{p.name}:{node.lineno}: from {'.' * node.level}{node.module or ''} import "
                                 f"{', '.join(names)}")
            elif isinstance(node, ast.Import):
                found += [f"{p.name}:{node.lineno}: import {a.name}" for a in node.names
                          if a.name.startswith("dpverify") and any(map(_private, a.name.split(".")))]
    return found


def test_no_private_name_crosses_a_module_boundary():
    """A name that starts with ``_`` stays in its module: no engine module imports another's (an alias
    ``import x as _x`` is the importer's own name, and allowed)."""
    assert not private_imports(FILES), "\n".join(private_imports(FILES))
