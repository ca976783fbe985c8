"""Where claims come from: papers registered through an entry-point group, and users' modules.

A *claims module* is any Python module with a ``CLAIMS`` sequence of :class:`~dpverify.claims.Claim`.
Installed packages register theirs in the ``dpverify.papers`` entry-point group (this project's
own papers do the same, in ``pyproject.toml``)::

    [project.entry-points."dpverify.papers"]
    mypaper = "mypackage.claims"

and a file anywhere on disk is loaded with ``--module path/to/claims.py`` (or :func:`load_module`).
"""
from __future__ import annotations

import importlib
import importlib.util
import sys
from functools import lru_cache
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:   # imported where used: listing the papers from the index needs no SymPy
    from .claims import Claim

GROUP = "dpverify.papers"


class RegistryError(KeyError):
    """An unknown paper or claim id, or a module that is not a claims module (message says which)."""

    def __str__(self) -> str:
        return self.args[0] if self.args else ""


def paper_entry_points() -> dict[str, object]:
    """Registered papers: key -> entry point (sorted by key).

    Read once per process (:func:`_entry_points`): scanning the installed distributions costs about
    9 ms, and a claims module asks for every claim it holds (:func:`_check_not_a_papers`); a paper's
    module is loaded once per process too (:func:`_paper_module`)."""
    return dict(_entry_points())


@lru_cache(maxsize=None)
def _entry_points() -> tuple[tuple[str, object], ...]:
    eps = entry_points(group=GROUP)
    return tuple((ep.name, ep) for ep in sorted(eps, key=lambda e: e.name))


@lru_cache(maxsize=None)
def _paper_module(key: str) -> ModuleType:
    eps = paper_entry_points()
    if key not in eps:
        raise RegistryError(f"unknown paper {key!r}; registered papers: {', '.join(eps) or 'none'}")
    mod = eps[key].load()
    _claims_of(mod, f"paper {key!r} ({eps[key].value})")
    return mod


def _claims_of(mod, what: str) -> tuple[Claim, ...]:
    from .claims import Claim

    claims = getattr(mod, "CLAIMS", None)
    if claims is None:
        raise RegistryError(f"{what} defines no CLAIMS (a sequence of dpverify Claim values)")
    if not isinstance(claims, (list, tuple)):   # a generator would be empty the second time it is read
        raise RegistryError(f"{what}: CLAIMS must be a list or tuple of dpverify Claim values, got "
                            f"{type(claims).__name__} {claims!r:.60}")
    claims = tuple(claims)
    for c in claims:
        if not isinstance(c, Claim):
            raise RegistryError(f"{what}: CLAIMS holds {c!r}, which is not a dpverify Claim")
    ids = [c.id for c in claims]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise RegistryError(f"{what}: claim id {dup[0]!r} appears twice in CLAIMS")
    _resolve(claims)
    return claims


_LOADING: set[str] = set()


def _resolve(claims: tuple[Claim, ...]) -> None:
    """Resolve every claim's ``builds_on`` among ``claims`` and, for an id of another registered
    paper, that paper's claims (an unknown id raises :class:`ClaimError` naming it)."""
    pool = {c.id: c for c in claims}
    own = {c.paper for c in claims}
    for c in claims:
        for ref in c.builds_on:
            key = ref.split("/")[0]
            if ref not in pool and key not in own and key not in _LOADING and key in paper_entry_points():
                _LOADING.add(key)
                try:
                    pool.update((o.id, o) for o in getattr(_paper_module(key), "CLAIMS", ()))
                finally:
                    _LOADING.discard(key)
        c.resolve(pool)


@lru_cache(maxsize=None)
def load_module(path_or_name: str) -> ModuleType:
    """Import a claims module from a file path (``.py``) or a dotted module name."""
    p = Path(path_or_name).expanduser()
    if p.suffix == ".py" or p.exists():
        if not p.is_file():
            raise RegistryError(f"--module {path_or_name!r}: no such file")
        name = f"dpverify_user_{abs(hash(str(p.resolve())))}"
        spec = importlib.util.spec_from_file_location(name, p)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        sys.path.insert(0, str(p.resolve().parent))
        from .claims import ClaimError

        try:
            spec.loader.exec_module(mod)
        except ClaimError:
            raise
        except SystemExit as exc:  # sys.exit() at import must not end dpverify with its code (a false pass)
            raise RegistryError(f"--module {path_or_name!r}: importing it called sys.exit({exc.code!r})") from None
        except Exception as exc:  # noqa: BLE001 - a user's module failing to import is a usage error
            raise RegistryError(f"--module {path_or_name!r}: importing it raised {type(exc).__name__}: {exc}") from None
        finally:
            sys.path.remove(str(p.resolve().parent))
    else:
        try:
            mod = importlib.import_module(path_or_name)
        except ImportError as exc:
            raise RegistryError(f"--module {path_or_name!r}: cannot import it ({exc})") from None
        except SystemExit as exc:
            raise RegistryError(f"--module {path_or_name!r}: importing it called sys.exit({exc.code!r})") from None
    where = str(p.resolve()) if p.suffix == ".py" or p.exists() else path_or_name
    for c in _claims_of(mod, f"module {path_or_name!r}"):
        _check_not_a_papers(c, path_or_name)
        _MODULE_OF[c.id] = where
        if c.expected == "violated" and c.witness is None:   # the guide: a violated claim gives its witness
            from .cache import warn

            warn(f"--module {path_or_name!r}: {c.id} is expected 'violated' but gives no witness (a point of the "
                 "domain where it fails, the errata's replay): the papers' test replays every witness "
                 "(docs/guide/encode-a-paper.md)")
    return mod


def resolve(claim: Claim) -> Claim:
    """``claim`` with its ``builds_on`` resolved among the registered papers (for a claim built
    outside a claims module; a claim loaded through the registry is resolved already)."""
    if not claim.resolved:
        pool: dict[str, Claim] = {}
        for key in {ref.split("/")[0] for ref in claim.builds_on}:
            if key in paper_entry_points():
                pool.update((c.id, c) for c in _claims_of(_paper_module(key), f"paper {key!r}"))
        claim.resolve(pool)
    return claim


#: claim id -> the ``--module`` it was loaded from (for replay commands that work from every front end)
_MODULE_OF: dict[str, str] = {}


def module_of(claim_id: str) -> str | None:
    """The ``--module`` argument a claim loaded from a claims module was loaded with (None for a
    registered paper's claim, or a claim not loaded from a module)."""
    return _MODULE_OF.get(claim_id)


def _check_not_a_papers(claim: Claim, where: str) -> None:
    """Refuse a module claim whose id is a registered paper's claim id (it would silently replace it)."""
    key = claim.id.split("/")[0]
    if key not in papers():
        return
    try:
        mod = _paper_module(key)
    except RegistryError:
        return
    if getattr(mod, "__name__", None) == where:  # the paper's own claims module, named as a module
        return
    if any(c.id == claim.id and c is not claim for c in _claims_of(mod, f"paper {key!r}")):
        raise RegistryError(f"--module {where!r}: claim id {claim.id!r} is a claim of the registered paper "
                            f"{key!r}; give your claim another id (e.g. mine/{claim.id.split('/', 1)[1]})")


def papers() -> list[str]:
    return list(paper_entry_points())


def paper_module(key: str) -> ModuleType:
    """The module of a registered paper (its CLAIMS, and FIGURES / experiments if it has them)."""
    return _paper_module(key)


def all_claims(paper: str | None = None, modules: Iterable[str] = (), include_papers: bool | None = None) -> list[Claim]:
    """Claims of the registered papers (or of one ``paper``) and of the given modules, in order.

    ``include_papers``: default True when no module is given, False otherwise (``--module`` checks
    the user's claims only, unless ``--paper`` is also given).
    """
    modules = tuple(modules)
    if include_papers is None:
        include_papers = not modules or paper is not None
    out: list[Claim] = []
    if include_papers:
        keys = papers()
        if paper is not None:
            if paper not in keys:
                raise RegistryError(f"unknown paper {paper!r}; registered papers: {', '.join(keys) or 'none'}")
            keys = [paper]
        for key in keys:
            out.extend(_claims_of(_paper_module(key), f"paper {key!r}"))
    for m in modules:
        out.extend(_claims_of(load_module(m), f"module {m!r}"))
    seen: dict[str, Claim] = {}
    for c in out:
        if c.id in seen and seen[c.id] is not c:
            raise RegistryError(f"claim id {c.id!r} is defined twice (a paper and a module, or two modules)")
        seen[c.id] = c
    return out


def get(claim_id: str, modules: Iterable[str] = ()) -> Claim:
    """The claim with this id, among the registered papers and the given modules."""
    modules = tuple(modules)
    key = claim_id.split("/")[0]
    pool: list[Claim] = []
    for m in modules:
        pool.extend(_claims_of(load_module(m), f"module {m!r}"))
    if key in papers():
        pool.extend(_claims_of(_paper_module(key), f"paper {key!r}"))
    hits = [c for c in pool if c.id == claim_id]
    if len({id(c) for c in hits}) > 1:
        raise RegistryError(f"claim id {claim_id!r} is defined twice (a paper and a module, or two modules)")
    if hits:
        return hits[0]
    if not pool:
        pool = all_claims(modules=modules, include_papers=True)
    raise RegistryError(f"unknown claim id {claim_id!r}.{_did_you_mean(claim_id, [c.id for c in pool])} "
                        f"{_see_list(claim_id, modules)}")


def _did_you_mean(claim_id: str, ids: list[str]) -> str:
    """`` Did you mean 'a', 'b'?``: the ids closest to a mistyped one (difflib: ``mine/thm4.2`` finds
    ``mine/thm-4.2``; the part after '/' alone too), or ""."""
    import difflib

    close = difflib.get_close_matches(claim_id, ids, n=3, cutoff=0.6)
    tail = claim_id.split("/")[-1]
    by_tail = {i.split("/")[-1]: i for i in ids}
    close += [by_tail[t] for t in difflib.get_close_matches(tail, list(by_tail), n=3, cutoff=0.75)
              if by_tail[t] not in close]
    close += [i for i in ids if tail and tail in i and i not in close]
    return f" Did you mean {', '.join(repr(c) for c in close[:3])}?" if close else ""


def _see_list(claim_id: str, modules: tuple) -> str:
    """Where the known ids are listed, with the ``--module`` options of the command (a user's claims are
    listed only with them); an id of no registered paper without ``--module`` says how to give its file."""
    if modules:
        return f"See `dpverify list {' '.join(f'--module {m}' for m in modules)}`."
    if claim_id.split("/")[0] not in papers():
        return ("See `dpverify list`; a claim of your own is found with its file: "
                "`dpverify check --module FILE ID` (`dpverify list --module FILE` lists its ids).")
    return "See `dpverify list`."


# --------------------------------------------------------------------------- the listing index

def _paper_sources(key: str) -> list[Path]:
    """The source files of a registered paper's package, found without importing it."""
    ep = paper_entry_points()[key]
    spec = importlib.util.find_spec(ep.value.split(":")[0])
    if spec is None:
        raise RegistryError(f"paper {key!r}: cannot find its module {ep.value!r}")
    roots = list(spec.submodule_search_locations or []) or [str(Path(spec.origin).parent)]
    return sorted(p for r in roots for p in Path(r).rglob("*.py"))


def paper_listing(key: str, use_cache: bool = True) -> list[dict]:
    """The claims of registered paper ``key`` as ``Claim.to_json()`` dicts, in order.

    Read from the listing index in the cache folder (:func:`dpverify.cache.cache_dir`) when the
    paper's source files and the engine are unchanged, so that ``dpverify list`` does not build the
    claims; built (and stored) otherwise."""
    import hashlib
    import json

    if key not in paper_entry_points():
        raise RegistryError(f"unknown paper {key!r}; registered papers: {', '.join(papers()) or 'none'}")
    if not use_cache:
        return [c.to_json() for c in _claims_of(_paper_module(key), f"paper {key!r}")]
    from .cache import cache_dir, dependency_versions, engine_fingerprint

    h = hashlib.sha256((engine_fingerprint() + json.dumps(dependency_versions(), sort_keys=True)).encode())
    for p in _paper_sources(key):
        h.update(str(p).encode() + b"\0" + p.read_bytes() + b"\0")
    path = cache_dir() / "listing" / f"{key}-{h.hexdigest()[:32]}.json"
    rows = _read_listing(path, key)
    if rows is not None:
        return rows
    rows = [c.to_json() for c in _claims_of(_paper_module(key), f"paper {key!r}")]
    try:
        from .cache import VerdictCache
        from .files import write_atomic
        from .sealed import SealError, seal
        from .verdict import dumps

        VerdictCache(path.parent.parent).prepare()
        path.parent.mkdir(parents=True, exist_ok=True)
        for old in path.parent.glob(f"{key}-*.json"):
            old.unlink(missing_ok=True)
        write_atomic(path, seal("listing", dumps(rows).encode("utf-8")))
    except (OSError, SealError):
        pass    # the listing index is only a shortcut: a listing not stored is built again next time
    return rows


def _listing_shape():
    from .errors import VERDICTS
    from .shape import JSON, DictOf, ListOf, Optional, Record

    survives = Optional(bool)
    reading = Record({"name": str, "expected": VERDICTS, "summary": str, "reason": str,
                      "witness": Optional(DictOf(JSON)), "replaces": ListOf(str), "error_in": Optional(str),
                      "statement_survives": survives})
    return ListOf(Record({
        "id": str, "label": str, "kind": str, "statements": ListOf(str), "hypotheses": ListOf(str),
        "source": Record({"document": str, "label": str, "eq": Optional(str), "text": str, "url": Optional(str)}),
        "expected": VERDICTS, "reason": str, "summary": str, "witness": Optional(DictOf(JSON)), "about": Optional(str),
        "algebra_why": str, "builds_on": ListOf(str), "error_in": Optional(str), "statement_survives": survives,
        "readings": ListOf(reading)}))


def _read_listing(path: Path, key: str) -> list[dict] | None:
    """The rows of the listing index ``path`` when it is sealed by this user, of the exact shape and of
    paper ``key``'s claims; None when absent (silently) or not to be trusted (one warning: rebuilt)."""
    import json

    import re

    from .errors import ID_PATTERN
    from .sealed import SealError, read_sealed
    from .shape import problem

    if not path.exists():
        return None
    try:
        rows = json.loads(read_sealed(path, "listing"))
        why = problem(rows, _listing_shape())
        if why is None and not all(re.fullmatch(ID_PATTERN, r["id"]) and r["id"].split("/")[0] == key for r in rows):
            why = f"a row is not a claim of paper {key!r}"
    except SealError as exc:
        why = str(exc)
    except (OSError, ValueError, RecursionError) as exc:
        why = f"cannot read it ({type(exc).__name__})"
    if why is None:
        return rows
    from .cache import warn

    warn(f"ignoring the listing index {path.name} ({why}); building it again")
    return None
