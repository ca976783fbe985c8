"""The verdict cache (dpverify.cache) and the lazy start-up (issue 21).

A stored verdict is replayed only under the same key; a change to any part of the key -- the claim's
statements, domain, scenario, the source of a function it calls, the engine's source or version, a
dependency's version, an option -- recomputes. The command-line tests write a claims file in a
temporary folder and run ``dpverify`` in a subprocess there, as a user does."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import sympy as sp

from dpverify import Claim, Domain, Inequality, Real, Source, SupBound
from dpverify import cache as C
from dpverify.config import OPTIONS as RUN_OPTIONS
from dpverify.scenarios import gaussian_mechanism

ROOT = Path(__file__).resolve().parents[2]
OPTIONS = {**{o.name: o.default for o in RUN_OPTIONS}, "runs": 2000, "samples": 20}
# another value of each option (every option of a run is in the key)
OTHER = {"seed": 1, "runs": 4000, "samples": 30, "confidence": 0.95, "at": {"x": 1.0}, "chunk_runs": 1024,
         "symbolic_timeout": 30.0, "dps": 60, "prove_box": True, "box_budget": 10, "box_seconds": 60.0,
         "adversary": 2.0, "deep_proofs": True, "quick": True}
x, s = sp.symbols("x s", positive=True)


def _claim(rhs=x + 1, upper=4, noise=2.0, fn=None):
    stmts = [Inequality("x <= rhs", lhs=x, rhs=rhs)]
    if noise is not None:
        stmts.append(SupBound("rdp", scenario=gaussian_mechanism(sensitivity=1, noise_std=noise, order=2,
                                                                  measure="renyi_over_order"),
                              bound=1 / (noise**2)))
    if fn is not None:
        f = sp.Function("f_impl")
        from sympy.utilities.lambdify import implemented_function

        stmts.append(Inequality("f(x) >= 0", lhs=0, rhs=implemented_function(f, fn)(x)))
    return Claim(id="mine/cached", source=Source.for_document("my notes")("Lemma 1"),
                 domain=Domain(x=Real(gt=0, le=upper)), statements=tuple(stmts))


def test_every_part_of_the_key_changes_it(monkeypatch):
    base = C.verdict_key(_claim(), OPTIONS)
    assert C.verdict_key(_claim(), OPTIONS) == base                      # the same claim built again
    assert C.verdict_key(_claim(rhs=x + 2), OPTIONS) != base             # a statement
    assert C.verdict_key(_claim(upper=5), OPTIONS) != base               # the domain
    assert C.verdict_key(_claim(noise=3.0), OPTIONS) != base             # a scenario parameter
    assert set(OTHER) == set(OPTIONS)
    for name, value in OTHER.items():
        assert C.verdict_key(_claim(), {**OPTIONS, name: value}) != base, name
    monkeypatch.setattr(C, "engine_fingerprint", lambda: "another engine")
    assert C.verdict_key(_claim(), OPTIONS) != base                      # the engine's source or version
    monkeypatch.undo()
    versions = dict(C.dependency_versions())
    monkeypatch.setattr(C, "dependency_versions", lambda: {**versions, "numpy": "0.0.1"})
    assert C.verdict_key(_claim(), OPTIONS) != base                      # a dependency's version


def test_the_code_a_claim_calls_is_in_the_key(tmp_path):
    """Two versions of a claims module that differ only inside a helper function the claim calls
    (through a SymPy implemented function) give different keys; a comment does not matter."""
    def load(src, name):
        from dpverify import registry

        p = tmp_path / name
        p.write_text(textwrap.dedent(src))
        return registry.load_module(str(p)).CLAIMS[0]

    body = '''
        import sympy as sp
        from sympy.utilities.lambdify import implemented_function
        from dpverify import Claim, Domain, Inequality, Real, Source
        SCALE = {scale}
        def helper(v):
            return SCALE * v  {comment}
        def g(v):
            return helper(v) + 1
        x = sp.Symbol("x", positive=True)
        G = implemented_function(sp.Function("G"), g)
        CLAIMS = [Claim(id="mine/calls", source=Source.for_document("notes")("L1"), domain=Domain(x=Real(gt=0, le=2)),
                        statements=(Inequality("G >= 1", lhs=1, rhs=G(x)),))]
    '''
    keys = [C.verdict_key(load(body.format(scale=s_, comment=c), f"m{i}.py"), OPTIONS)
            for i, (s_, c) in enumerate([(2, ""), (2, "# a comment"), (3, "")])]
    assert keys[0] == keys[1]
    assert keys[0] != keys[2]


def test_an_implemented_function_body_is_in_the_key():
    assert C.verdict_key(_claim(fn=lambda v: v), OPTIONS) != C.verdict_key(_claim(fn=lambda v: v + 1), OPTIONS)


def test_fingerprint_is_the_same_in_another_process(tmp_path):
    """Hash randomisation and memory addresses do not enter the key: the papers' claims get the same
    keys in two interpreters with different PYTHONHASHSEED."""
    script = tmp_path / "keys.py"
    script.write_text(textwrap.dedent(f'''
        import json, sys
        from dpverify import registry
        from dpverify.cache import verdict_key
        print(json.dumps({{c.id: verdict_key(c, {OPTIONS!r}) for c in registry.all_claims(paper="hdp")}}))
    '''))
    out = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=600)
        assert r.returncode == 0, r.stderr[-2000:]
        out.append(json.loads(r.stdout))
    assert out[0] == out[1]
    assert len(set(out[0].values())) == len(out[0])         # distinct claims, distinct keys


def test_a_stored_verdict_replays_exactly(tmp_path):
    """to_json(exact) -> stored -> read back: the same verdict, the same --json (10 digits) and table."""
    from dpverify import check
    from dpverify.tables import table

    v = check(_claim(), runs=2000, samples=20)
    cache = C.VerdictCache(tmp_path)
    assert cache.put("k" * 64, v)
    back = cache.get("k" * 64)
    assert back.cached and not v.cached
    got = back.to_json(timing=True)
    assert got.pop("cached") is True
    assert got == v.to_json(timing=True)
    assert [e.min_margin for e in back.evidence] == [e.min_margin for e in v.evidence]   # exact, not 10 digits
    assert "(cached)" in table([back]) and "(cached)" not in table([v])
    assert cache.get("j" * 64) is None


def test_an_error_is_never_stored(tmp_path):
    from dpverify.verdict import Verdict

    v = Verdict.errored("mine/x", RuntimeError("boom"))
    assert not C.VerdictCache(tmp_path).put("e" * 64, v)
    assert C.VerdictCache(tmp_path).get("e" * 64) is None


CLAIMS_FILE = '''
import sympy as sp
from dpverify import Claim, Domain, Inequality, Real, Source
x = sp.Symbol("x", positive=True)
_src = Source.for_document("my notes")
CLAIMS = [Claim(id="mine/a", source=_src("Lemma 1"), domain=Domain(x=Real(gt=0, le=4)),
                statements=(Inequality("x <= x + 1", lhs=x, rhs=x + 1),)),
          Claim(id="mine/b", source=_src("Lemma 2"), domain=Domain(x=Real(gt=0, le=4)),
                statements=(Inequality("x^2 <= {rhs}", lhs=x**2, rhs={rhs}),), {expected})]
'''


def _dpverify(cwd, *argv, cache=True):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DPVERIFY_CACHE": "1" if cache else "0"}
    env.pop("DPVERIFY_CACHE_DIR", None)
    return subprocess.run([sys.executable, "-m", "dpverify", *argv], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=600)


def _check(tmp_path, *extra):
    r = _dpverify(tmp_path, "check", "--all", "--module", "claims.py", "--json", "--no-timing", "--no-progress",
                  "--samples", "20", *extra)
    assert r.returncode in (0, 1), r.stderr[-2000:]
    return {d["id"]: d for d in json.loads(r.stdout)}


def test_cli_replays_unchanged_claims_and_rechecks_an_edited_one(tmp_path):
    (tmp_path / "claims.py").write_text(CLAIMS_FILE.format(rhs=16, expected='expected="holds"'))
    first = _check(tmp_path)
    assert not any(d.get("cached") for d in first.values())
    assert (tmp_path / ".dpverify_cache" / "verdicts").is_dir()
    assert (tmp_path / ".dpverify_cache" / ".gitignore").read_text().strip().endswith("*")
    second = _check(tmp_path)
    assert all(d.get("cached") for d in second.values())
    assert {k: {**d, "cached": None} for k, d in second.items()} == {k: {**d, "cached": None} for k, d in first.items()}
    # edit one claim: it alone is checked again (and now fails: x^2 <= 15 at x = 4)
    (tmp_path / "claims.py").write_text(CLAIMS_FILE.format(rhs=15, expected='expected="violated", reason="fails at x = 4", witness={"x": 4}'))
    third = _check(tmp_path)
    assert third["mine/a"].get("cached") and not third["mine/b"].get("cached")
    assert third["mine/b"]["verdict"] == "violated"
    # another option: checked again; --no-cache: checked, and nothing read
    assert not any(d.get("cached") for d in _check(tmp_path, "--seed", "1").values())
    assert not any(d.get("cached") for d in _check(tmp_path, "--no-cache").values())
    # the folder can be deleted at any time
    import shutil

    shutil.rmtree(tmp_path / ".dpverify_cache")
    assert not any(d.get("cached") for d in _check(tmp_path).values())


def test_cli_no_cache_writes_nothing(tmp_path):
    (tmp_path / "claims.py").write_text(CLAIMS_FILE.format(rhs=16, expected='expected="holds"'))
    _check(tmp_path, "--no-cache")
    assert not (tmp_path / ".dpverify_cache").exists()


def test_table_says_what_was_replayed(tmp_path):
    (tmp_path / "claims.py").write_text(CLAIMS_FILE.format(rhs=16, expected='expected="holds"'))
    args = ("check", "--all", "--module", "claims.py", "--no-progress", "--samples", "20")
    assert "replayed" not in _dpverify(tmp_path, *args).stdout
    out = _dpverify(tmp_path, *args).stdout
    assert "2 replayed from the verdict cache" in out and "(cached)" in out


# --------------------------------------------------------------------------- lazy start-up

def _imports_after(cwd, code: str) -> set:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DPVERIFY_CACHE": "1"}
    env.pop("DPVERIFY_CACHE_DIR", None)
    r = subprocess.run([sys.executable, "-c", code + "\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
                       capture_output=True, text=True, cwd=cwd, env=env, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    return set(json.loads(r.stdout.splitlines()[-1]))


def test_import_dpverify_loads_no_sympy_scipy_or_papers(tmp_path):
    mods = _imports_after(tmp_path, "import dpverify, dpverify.sim, dpverify.scenarios, dpverify.privacy")
    assert not {m for m in mods if m.split(".")[0] in ("sympy", "scipy", "numba", "theorems", "dp_accounting")}


def test_list_reads_the_index_without_building_claims(tmp_path):
    code = "import io, contextlib\nfrom dpverify.cli import main\nwith contextlib.redirect_stdout(io.StringIO()): main(['list'])"
    first = _imports_after(tmp_path, code)
    assert "theorems.dni.claims" in first            # the first listing builds the claims (and the index)
    assert list((tmp_path / ".dpverify_cache" / "listing").glob("dni-*.json"))
    second = _imports_after(tmp_path, code)
    assert not {m for m in second if m.startswith("theorems.") or m.split(".")[0] in ("sympy", "scipy")}
    listed = _dpverify(tmp_path, "list").stdout
    assert listed == _dpverify(tmp_path, "list", "--no-cache").stdout and "hdp/lemma-2" in listed


def test_a_paper_edit_rebuilds_its_listing(tmp_path, monkeypatch):
    """The listing index is keyed by the paper's source files: another content, another file."""
    from dpverify import registry

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DPVERIFY_CACHE", "1")
    rows = registry.paper_listing("stage")
    files = list((tmp_path / ".dpverify_cache" / "listing").glob("stage-*.json"))
    from dpverify.sealed import unseal

    assert len(files) == 1 and json.loads(unseal("listing", files[0].read_bytes())) == rows   # sealed (issue 36)
    src = registry._paper_sources("stage")
    assert src and all(p.suffix == ".py" for p in src)
    real = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda p: real(p) + (b"# edited" if p == src[0] else b""))
    assert registry.paper_listing("stage") == rows
    assert list((tmp_path / ".dpverify_cache" / "listing").glob("stage-*.json")) != files


@pytest.mark.parametrize("package,name,kind", [("dpverify.sim", "output_perturbation", "function"),
                                               ("dpverify.privacy", "audit", "function"),
                                               ("dpverify.scenarios", "worst_case", "function")])
def test_lazy_export_wins_over_its_submodule(tmp_path, package, name, kind):
    """``from dpverify.sim import output_perturbation`` is the function even when the submodule of that
    name was imported first (as the eager imports gave)."""
    code = (f"import importlib, types\nimportlib.import_module('{package}.{name}')\n"
            f"import {package} as P\nassert isinstance(P.{name}, types.FunctionType), P.{name}\n"
            f"from {package} import {name} as f\nassert isinstance(f, types.FunctionType)")
    _imports_after(tmp_path, code)


def test_checking_a_claim_does_not_change_its_key():
    """What a check compiles and caches on the claim's objects (a relation's lambdified sides, a
    scenario's bound state) is not part of the key: the key before and after a check is the same."""
    from dpverify import check, registry

    for cid in ("hdp/lemma-2", "dni/thm-4.4", "erm/lemma-1"):
        c = registry.get(cid)
        before = C.verdict_key(c, OPTIONS)
        check(c, samples=20, runs=2000)
        assert C.verdict_key(c, OPTIONS) == before, cid
