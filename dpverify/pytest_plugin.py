"""pytest plugin: every claim of a claims file becomes a test item (see :mod:`dpverify.testing`).

Claims files are named with ``--dpverify-claims PATH`` (repeatable) or the ``dpverify_claims`` ini
option (glob patterns relative to the rootdir). An item passes when the claim's verdict meets its
``expected`` verdict (``holds`` is met by a proof too, see :func:`dpverify.verdict.as_expected`); it
fails with the evidence and the replay command otherwise.
"""
from __future__ import annotations

import fnmatch
from pathlib import Path

import pytest


def pytest_addoption(parser):
    group = parser.getgroup("dpverify")
    group.addoption("--dpverify-claims", action="append", default=[], metavar="PATH",
                    help="a dpverify claims file (a module with CLAIMS): one test per claim")
    group.addoption("--dpverify-seed", type=int, default=0, help="seed of the dpverify checks (default 0)")
    parser.addini("dpverify_claims", "glob patterns of dpverify claims files", type="linelist", default=[])


def pytest_configure(config):
    paths = [Path(p).expanduser().resolve() for p in config.getoption("dpverify_claims") or []]
    for p in paths:
        if not p.is_file():
            raise pytest.UsageError(f"--dpverify-claims {str(p)!r}: no such file")
    config._dpverify_paths = set(paths)
    config._dpverify_globs = list(config.getini("dpverify_claims"))
    # files outside the test paths are collected too; a node id (claims.py::paper/claim) given on the
    # command line already names its file, and selects that one claim
    named = [str(Path(a.split("::", 1)[0]).resolve()) for a in config.args]
    for p in paths:
        if not any(str(p) == n or str(p).startswith(n.rstrip("/") + "/") for n in named):
            config.args.append(str(p))


def _is_claims_file(config, path: Path) -> bool:
    if path.suffix != ".py":
        return False
    if path.resolve() in config._dpverify_paths:
        return True
    rel = str(path)
    try:
        rel = str(path.resolve().relative_to(Path(str(config.rootpath)).resolve()))
    except ValueError:
        pass
    return any(fnmatch.fnmatch(rel, g) or fnmatch.fnmatch(path.name, g) for g in config._dpverify_globs)


def pytest_collect_file(file_path, parent):
    if _is_claims_file(parent.config, Path(file_path)):
        return ClaimsFile.from_parent(parent, path=Path(file_path))
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(module_path, parent):
    """A claims file that is also named like a test module (``test_claims.py``) is collected as claims
    only: pytest does not import it a second time as a test module (where ``sys.exit()`` at import would
    end the session with an internal error)."""
    if _is_claims_file(parent.config, Path(module_path)):
        return _NoTests.from_parent(parent, path=Path(module_path))
    return None


class _NoTests(pytest.File):
    """The test-module side of a claims file: its claims are :class:`ClaimsFile`'s items."""

    def collect(self):
        return []


class ClaimsFile(pytest.File):
    def collect(self):
        from dpverify import registry
        from dpverify.errors import ClaimError

        try:
            mod = registry.load_module(str(self.path))
        except (registry.RegistryError, ClaimError) as exc:   # one line, naming the file: a collection error
            msg = str(exc).replace(f"--module {str(self.path)!r}", f"claims file {str(self.path)!r}")
            raise self.CollectError(msg) from None
        for claim in mod.CLAIMS:
            yield ClaimItem.from_parent(self, name=claim.id, claim=claim)


class ClaimItem(pytest.Item):
    def __init__(self, *, claim, **kwargs):
        super().__init__(**kwargs)
        self.claim = claim

    def runtest(self):
        from dpverify.testing import failure

        msg = failure(self.claim, self.config.getoption("dpverify_seed"), str(self.path))
        if msg:
            raise ClaimMismatch(msg)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, ClaimMismatch):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, f"claim {self.claim.id} ({self.claim.source.cite()})"


class ClaimMismatch(Exception):
    """A claim's verdict differs from its expected verdict."""
