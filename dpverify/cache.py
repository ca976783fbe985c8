"""The verdict cache: an unchanged claim, checked with the same options by the same engine, replays
its stored verdict instead of being checked again.

Like pytest's ``.pytest_cache`` or Hypothesis's ``.hypothesis``, the cache is a folder of the working
directory, ``.dpverify_cache/`` (or ``$DPVERIFY_CACHE_DIR``), that can be deleted at any time;
``dpverify check --no-cache`` (or ``DPVERIFY_CACHE=0`` in the environment) neither reads nor writes it.

A verdict is stored under a key (SHA-256) made of

* the **claim's content** (:func:`claim_fingerprint`): every field of the claim, its statements and
  domain (SymPy expressions by ``srepr``), its scenarios (the arguments they were made with), the
  claims it builds on (an object with a ``_fingerprint_state()`` method by what that returns: its
  definition, not its caches), and the **code of every function it calls** -- a function is fingerprinted
  by its bytecode and constants, its defaults and closure, and, recursively, every function, class
  and value of the claims' own code it refers to by name; a module of the claims' own code it refers
  to counts with its whole source file. The engine's functions and classes count by name only: the
  engine is in the key as a whole;
* the **engine**: ``dpverify.__version__`` and a hash of every source file of the ``dpverify``
  package (:func:`engine_fingerprint`);
* the **versions** of Python and of the numeric dependencies (:data:`DEPENDENCIES`);
* the **options** of the check: every option of a run (:data:`dpverify.config.OPTIONS`: seed, runs,
  samples, confidence, ``--at``, chunk size, the symbolic time limit, digits, box proof, adversary, ...).

A change to any of them gives another key, so the claim is checked again (``tests/engine/
test_cache.py`` changes each part in turn). A verdict ``error`` is never stored.

The stored verdict is the verdict's JSON with every number exact (not the 10 digits of
``--json``), so a replayed verdict prints and serialises exactly as the computed one did; it is
marked ``cached`` (``"cached": true`` in ``--json``, a note under the table).

**Nothing read from the folder is trusted** (SECURITY.md): each entry is sealed with an HMAC-SHA256
under a key that lives outside the project, in the user's cache directory (:mod:`dpverify.sealed`),
and has an exact shape (:mod:`dpverify.shape`); before a stored verdict is replayed it must be sealed
by this user, of that shape, stored under the claim's key and hold the claim's own id -- else it is
ignored with a one-line warning and the claim checked again. What the claim says of itself (its
``expected`` verdict, its readings', its label and reason) always comes from the claim. Entries are
written atomically: a full disk leaves no partial entry, temporary file or empty ``.gitignore``.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import sys
import types
from dataclasses import fields, is_dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path

#: folder name of the cache in the working directory
DIRNAME = ".dpverify_cache"

#: distributions whose versions are part of every key (a missing one counts as "absent")
DEPENDENCIES = ("numpy", "scipy", "sympy", "mpmath", "numba", "llvmlite", "hypothesis", "dp-accounting",
                "python-flint", "pepit", "cvxpy", "clarabel", "scikit-learn")

_FORMAT = 2   # of the stored files; a change makes every old entry a miss (2: sealed, exact shape)


def enabled(no_cache: bool = False) -> bool:
    """Whether to use the cache: not with ``--no-cache`` (``no_cache``) nor with the environment
    variable ``DPVERIFY_CACHE=0`` (the test suite sets it, so that every test checks for real)."""
    return not no_cache and os.environ.get("DPVERIFY_CACHE", "").strip() != "0"


def cache_dir() -> Path:
    """The cache folder: ``$DPVERIFY_CACHE_DIR`` if set, else ``./.dpverify_cache``."""
    env = os.environ.get("DPVERIFY_CACHE_DIR", "").strip()
    return Path(env) if env else Path.cwd() / DIRNAME


# --------------------------------------------------------------------------- engine and dependencies

@lru_cache(maxsize=None)
def engine_fingerprint() -> str:
    """SHA-256 of ``dpverify.__version__`` and of every ``.py`` file of the ``dpverify`` package
    (path and content, in sorted order)."""
    root = Path(__file__).parent
    version = sys.modules["dpverify"].__version__
    h = hashlib.sha256(f"dpverify {version}\n".encode())
    for p in sorted(root.rglob("*.py")):
        h.update(str(p.relative_to(root)).encode() + b"\0")
        h.update(p.read_bytes() + b"\0")
    return h.hexdigest()


@lru_cache(maxsize=None)
def dependency_versions() -> dict[str, str]:
    """Python's version and each of :data:`DEPENDENCIES`' (``"absent"`` when not installed)."""
    out = {"python": sys.version.split()[0], "implementation": sys.implementation.name}
    for name in DEPENDENCIES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "absent"
    return out


# --------------------------------------------------------------------------- claim content

def _is_engine(module: str | None) -> bool:
    return bool(module) and (module == "dpverify" or module.startswith("dpverify."))


#: top-level modules of the dependencies whose versions are in the key (with the standard library,
#: the code taken as fixed); any other code a claim calls is fingerprinted by its content
_LIBRARIES = frozenset({"numpy", "scipy", "sympy", "mpmath", "numba", "llvmlite", "hypothesis", "dp_accounting",
                        "flint", "PEPit", "cvxpy", "clarabel", "sklearn", "tqdm", "lark", "builtins"})


def _is_library(module: str | None) -> bool:
    """A module of the standard library or of a dependency in :data:`DEPENDENCIES`."""
    if not module:
        return True
    top = module.split(".")[0]
    return top in _LIBRARIES or top in sys.stdlib_module_names


def _own(module: str | None) -> bool:
    """Code of the claims themselves (a paper's package, a user's claims file): fingerprinted by content."""
    return not _is_engine(module) and not _is_library(module)


class _Fingerprint:
    """A canonical, process-independent description of a value, fed into one SHA-256."""

    def __init__(self):
        self.h = hashlib.sha256()
        # id(obj) -> (order of first visit, obj): cycles and shared objects; holding obj keeps its id
        # from being reused by a temporary made later in the walk
        self._seen: dict[int, tuple[int, object]] = {}

    def add(self, obj) -> None:  # noqa: C901 - one dispatch over the kinds of values a claim holds
        if obj is None or isinstance(obj, (bool, int, str, bytes)):
            self.put(type(obj).__name__, repr(obj))
            return
        if isinstance(obj, float):
            self.put("float", "nan" if math.isnan(obj) else float.hex(obj))
            return
        if isinstance(obj, complex):
            self.put("complex", f"{obj.real.hex()},{obj.imag.hex()}")
            return
        key = id(obj)
        if key in self._seen:
            self.put("ref", str(self._seen[key][0]))
            return
        self._seen[key] = (len(self._seen), obj)
        if isinstance(obj, (list, tuple)):
            self.put(type(obj).__name__, str(len(obj)))
            for v in obj:
                self.add(v)
            return
        if isinstance(obj, (set, frozenset)):
            self.put("set", str(len(obj)))
            for d in sorted(_sub_digest(v) for v in obj):
                self.put("item", d)
            return
        if isinstance(obj, dict) or (hasattr(obj, "keys") and hasattr(obj, "__getitem__") and not _is_sympy(obj)):
            items = sorted(((_sub_digest(k), k) for k in obj.keys()), key=lambda t: t[0])
            self.put("dict", str(len(items)))
            for d, k in items:
                self.put("key", d)
                self.add(obj[k])
            return
        if _is_sympy(obj):
            self._sympy(obj)
            return
        if isinstance(obj, types.ModuleType):
            self._module(obj)
            return
        if isinstance(obj, (types.FunctionType, types.LambdaType)):
            self._function(obj)
            return
        if isinstance(obj, (types.MethodType,)):
            self.put("method")
            self.add(obj.__func__)
            self.add(obj.__self__)
            return
        if isinstance(obj, types.BuiltinFunctionType):
            self.put("builtin", f"{getattr(obj, '__module__', '')}.{obj.__qualname__}")
            return
        if isinstance(obj, type):
            self._class(obj)
            return
        if isinstance(obj, types.CodeType):
            self._code(obj)
            return
        tmod = type(obj).__module__ or ""
        if tmod == "numpy" or tmod.startswith("numpy."):
            self._numpy(obj)
            return
        if tmod.startswith("mpmath"):
            text = repr(obj)
            self.put("mpmath", f"{type(obj).__module__}.{type(obj).__qualname__}" if " at 0x" in text else text)
            return
        if isinstance(obj, (staticmethod, classmethod)):
            self.put(type(obj).__name__)
            self.add(obj.__func__)
            return
        if hasattr(obj, "__wrapped__") and callable(obj):       # functools.wraps / lru_cache
            self.put("wrapped", type(obj).__qualname__)
            self.add(obj.__wrapped__)
            return
        self._instance(obj)

    # -- kinds

    def _sympy(self, expr) -> None:
        import sympy as sp

        self.put("sympy", sp.srepr(expr))
        # functions of the claims' own code inside an expression: their implementation counts
        for f in sorted(getattr(expr, "atoms", lambda *_: set())(sp.Function), key=sp.srepr):
            cls = type(f)
            if _own(cls.__module__) or getattr(cls, "_imp_", None) is not None:
                self._class(cls)
                imp = getattr(cls, "_imp_", None)
                if imp is not None:
                    self.add(imp)

    def _numpy(self, obj) -> None:
        import numpy as np

        if isinstance(obj, np.ndarray):
            a = np.ascontiguousarray(obj)
            self.put("ndarray", f"{a.dtype.str}{a.shape}")
            if a.dtype.hasobject:
                self.add(a.tolist())
            else:
                self.put("data", hashlib.sha256(a.tobytes()).hexdigest())
        elif isinstance(obj, np.generic):
            self.add(obj.item())
        else:
            self.put("numpy", f"{type(obj).__qualname__}:{obj!r}")

    def _module(self, mod: types.ModuleType) -> None:
        name = mod.__name__
        if not _own(name):
            self.put("module", name)
            return
        path = getattr(mod, "__file__", None)
        self.put("own-module", _stable_name(name))
        if path and os.path.isfile(path):
            self.put("source", Path(path).read_bytes().decode("utf-8", "replace"))

    def _class(self, cls: type) -> None:
        self.put("class", f"{_stable_name(cls.__module__)}.{cls.__qualname__}")
        if not _own(cls.__module__):
            return
        for base in cls.__mro__[1:]:
            if _own(base.__module__):
                self.put("base", f"{_stable_name(base.__module__)}.{base.__qualname__}")
        for name in sorted(cls.__dict__):
            if name in ("__dict__", "__weakref__", "__module__", "__doc__", "__qualname__", "_abc_impl",
                        "__slotnames__", "__parameters__", "__orig_bases__"):
                continue
            self.put("attr", name)
            self.add(cls.__dict__[name])

    def _code(self, code: types.CodeType) -> None:
        self.put("code", code.co_code.hex())
        self.put("names", ",".join(code.co_names))
        self.put("vars", ",".join(code.co_varnames))
        for c in code.co_consts:
            self.add(c)

    def _function(self, fn: types.FunctionType) -> None:
        module = fn.__module__
        self.put("function", f"{_stable_name(module)}.{fn.__qualname__}")
        if _is_engine(module) or (_is_library(module) and module is not None):
            return      # engine: in the key as a whole; libraries: by version
        self._code(fn.__code__)
        self.add(fn.__defaults__)
        self.add(fn.__kwdefaults__)
        if fn.__closure__:
            for cell in fn.__closure__:
                try:
                    self.add(cell.cell_contents)
                except ValueError:      # an empty cell
                    self.put("empty-cell")
        g = fn.__globals__
        for name in sorted(_global_names(fn.__code__)):
            if name in g:
                self.put("global", name)
                self.add(g[name])

    def _instance(self, obj) -> None:
        cls = type(obj)
        self._class(cls)
        state_of = getattr(obj, "_fingerprint_state", None)
        if callable(state_of):                    # a class that says what defines it (not its caches)
            self.put("state")
            self.add(state_of())
            return
        made = getattr(obj, "_made_with", None)
        if made is not None:                      # a scenario: the arguments it was made with
            self.put("made-with")
            self.add(made)
            return
        if is_dataclass(obj):
            for f in fields(obj):
                self.put("field", f.name)
                self.add(getattr(obj, f.name))
            return
        state = getattr(obj, "__dict__", None)
        if state is None and hasattr(cls, "__slots__"):
            state = {s: getattr(obj, s) for s in cls.__slots__ if hasattr(obj, s)}
        if state is not None:
            self.add(dict(state))
            return
        text = repr(obj)
        if " at 0x" in text:
            raise TypeError(f"cannot fingerprint a {cls.__qualname__} (its repr names a memory address)")
        self.put("repr", text)

    def put(self, tag: str, payload: bytes | str = b"") -> None:
        if isinstance(payload, str):
            if " at 0x" in payload and tag != "source":
                raise TypeError(f"cannot fingerprint {payload[:80]!r} (it names a memory address)")
            payload = payload.encode("utf-8", "surrogatepass")
        self.h.update(tag.encode() + b"(" + str(len(payload)).encode() + b")" + payload)

    def hexdigest(self) -> str:
        return self.h.hexdigest()


def _stable_name(module: str | None) -> str:
    """A module's name as it enters the key: a claims file loaded with ``--module`` gets a name made
    from its path (``dpverify_user_<n>``), which its content, not its name, stands for."""
    module = module or ""
    return "<claims file>" if module.startswith("dpverify_user_") else module


def _is_sympy(obj) -> bool:
    """A SymPy object (SymPy is not imported for this: an object of it means it is loaded)."""
    return "sympy" in sys.modules and isinstance(obj, sys.modules["sympy"].Basic)


def _global_names(code: types.CodeType) -> set[str]:
    """Names a code object (and the code objects nested in it) may look up as globals."""
    out = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out |= _global_names(c)
    return out


def _sub_digest(obj) -> str:
    fp = _Fingerprint()
    fp.add(obj)
    return fp.hexdigest()


def claim_fingerprint(claim) -> str:
    """SHA-256 of everything a claim is made of, including the code of the functions it calls (see
    the module's docstring). Equal for the same claim built in two processes."""
    fp = _Fingerprint()
    fp.add(claim)
    return fp.hexdigest()


def verdict_key(claim, options: dict) -> str:
    """The cache key of ``claim``'s verdict under ``options`` (the check's configuration)."""
    h = hashlib.sha256()
    h.update(json.dumps({"format": _FORMAT, "claim": claim_fingerprint(claim), "engine": engine_fingerprint(),
                         "versions": dependency_versions(), "options": _canonical(options)},
                        sort_keys=True).encode())
    return h.hexdigest()


def _canonical(options: dict):
    return json.loads(json.dumps(options, sort_keys=True, default=repr))


# --------------------------------------------------------------------------- storage

_README = """# dpverify's verdict cache

Stored verdicts of `dpverify check`, one file per (claim, options, engine, dependencies) key, each
sealed with your key (~/.cache/dpverify/cache-key): an entry you did not write is never replayed.
Safe to delete at any time; `dpverify check --no-cache` neither reads nor writes it.
"""

_FILES = (("CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n# dpverify's verdict cache (see README.md)\n"),
          ("README.md", _README))
_GITIGNORE = "# created by dpverify\n*\n"


def warn(message: str) -> None:
    """One line on standard error: ``dpverify: warning: <message>``."""
    print(f"dpverify: warning: {message}", file=sys.stderr)


def verdict_shape(saved: bool = False):
    """The exact shape (:mod:`dpverify.shape`) of a verdict's JSON as ``Verdict.to_json`` writes it: in
    a cache entry, or (``saved``) in the output of ``dpverify check --json`` (which may say ``cached``)."""
    from .errors import VERDICTS
    from .shape import JSON, NUMBER, DictOf, ListOf, Optional, Record
    from .verdict import BASIS_KINDS, RESULTS

    evidence = Record({"kind": str, "statement": str, "verdict": RESULTS, "samples": int,
                       "confidence": Optional(NUMBER), "min_margin": Optional(NUMBER), "tightness": Optional(NUMBER),
                       "value": Optional(NUMBER), "bound": Optional(NUMBER), "worst_point": Optional(DictOf(JSON)),
                       "counterexample": Optional(DictOf(JSON)), "seconds": NUMBER, "detail": str,
                       "basis": Optional(Record({"kind": tuple(BASIS_KINDS), "on": str})),
                       "coverage": Optional(NUMBER), "data": DictOf(JSON)}, frozenset({"data"}))
    verdict = Record({"id": str, "label": str, "verdict": RESULTS, "expected": VERDICTS, "ok": bool, "reason": str,
                      "seed": int, "at": Optional(DictOf(JSON)), "about": Optional(str), "algebra_why": str,
                      "basis": ListOf(str), "scope": Optional(str), "coverage": Optional(NUMBER),
                      "flags": ListOf(str), "readings": DictOf(Record({"verdict": RESULTS, "expected": VERDICTS})),
                      "tightness": Optional(NUMBER), "seconds": NUMBER, "evidence": ListOf(evidence),
                      "quick": bool, **({"cached": bool} if saved else {})}, frozenset({"cached", "quick"}))
    return verdict


def _entry_shape():
    from .shape import Record

    return Record({"format": int, "key": str, "verdict": verdict_shape()})


class VerdictCache:
    """Verdicts stored under :func:`verdict_key` in :func:`cache_dir` (``folder`` to override).

    Every entry is sealed with the user's key (:mod:`dpverify.sealed`) and has an exact shape; one that
    is not sealed by this user, not of that shape, stored under another key or holding another claim's
    verdict is ignored with a one-line warning (the claim is checked again and the entry rewritten).
    Writes are atomic (:func:`dpverify.files.write_atomic`); a write that fails is a warning, once."""

    def __init__(self, folder: str | os.PathLike | None = None):
        self.folder = Path(folder) if folder is not None else cache_dir()
        self._off: str | None = None        # why the cache cannot be used (the key), once known
        self._write_warned = False

    def _path(self, key: str) -> Path:
        return self.folder / "verdicts" / key[:2] / f"{key}.json"

    def usable(self) -> bool:
        """Whether the user's key can be read or made (else one warning, and the cache is off)."""
        from .sealed import SealError, user_key

        if self._off is None:
            try:
                user_key()
                self._off = ""
            except SealError as exc:
                self._off = str(exc)
                warn(f"the verdict cache is off: {exc}")
        return not self._off

    def _ignored(self, path: Path, claim, why: str) -> None:
        what = f"of {claim.id}" if claim is not None else path.name
        warn(f"ignoring the verdict cache's entry {what} ({why}); checking it again")
        return None

    def get(self, key: str, claim=None):
        """The stored verdict (marked ``cached``), or None. With ``claim``, an entry holding another
        claim's verdict is refused, and the claim's own fields (``expected``, its readings' expected,
        label, reason) replace the stored ones."""
        from .sealed import SealError, read_sealed
        from .shape import problem
        from .verdict import Verdict

        path = self._path(key)
        if not path.exists() or not self.usable():
            return None
        try:
            data = json.loads(read_sealed(path, "verdict"))
        except SealError as exc:
            return self._ignored(path, claim, str(exc))
        except OSError as exc:
            return self._ignored(path, claim, f"cannot read it: {exc.strerror or exc}")
        except (ValueError, RecursionError):
            return self._ignored(path, claim, "not JSON")
        bad = problem(data, _entry_shape())
        if bad is None and (data["format"] != _FORMAT or data["key"] != key):
            bad = "stored under another key"
        if bad is None and claim is not None and data["verdict"]["id"] != claim.id:
            bad = f"it holds the verdict of {data['verdict']['id'][:60]!r}"
        if bad is None and claim is not None and set(data["verdict"]["readings"]) != {r.name for r in claim.readings}:
            bad = "its readings are not the claim's"
        if bad:
            return self._ignored(path, claim, bad)
        try:
            v = Verdict.from_json(data["verdict"])
        except Exception as exc:  # noqa: BLE001 - whatever an entry holds, it is only a miss
            return self._ignored(path, claim, f"{type(exc).__name__}: {exc}"[:80])
        if claim is not None:    # what the claim says of itself comes from the claim, never from the entry
            v.label, v.expected, v.reason = claim.label, claim.expected, claim.reason
            v.about, v.algebra_why = claim.about, claim.algebra_why
            for r in claim.readings:
                v.readings[r.name]["expected"] = r.expected
        v.cached = True
        return v

    def put(self, key: str, verdict) -> bool:
        """Store ``verdict`` (not an ``error``); False when it cannot be written (one warning; the run goes on)."""
        from .files import write_atomic
        from .sealed import seal
        from .verdict import ERROR, dumps

        if verdict.verdict == ERROR or not self.usable():
            return False
        path = self._path(key)
        try:
            self.prepare()
            path.parent.mkdir(parents=True, exist_ok=True)
            payload = dumps({"format": _FORMAT, "key": key, "verdict": verdict.to_json(exact=True)})
            write_atomic(path, seal("verdict", payload.encode("utf-8")))
        except OSError as exc:
            if not self._write_warned:
                self._write_warned = True
                warn(f"cannot write the verdict cache in {str(self.folder)!r} "
                     f"({getattr(exc, 'strerror', None) or exc}); the run goes on without storing verdicts")
            return False
        return True

    def prepare(self) -> None:
        """Create the folder with a ``.gitignore`` of everything, a CACHEDIR.TAG and a README (each
        written atomically, the ``.gitignore`` first: never an empty one)."""
        from .files import write_atomic

        gitignore = self.folder / ".gitignore"
        self.folder.mkdir(parents=True, exist_ok=True)
        try:
            ok = gitignore.read_text(encoding="utf-8") == _GITIGNORE
        except (OSError, ValueError):
            ok = False
        if not ok:
            write_atomic(gitignore, _GITIGNORE)
        for name, text in _FILES:
            if not (self.folder / name).is_file():
                write_atomic(self.folder / name, text)
