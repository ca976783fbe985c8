"""The compiled kernels are cached by the content of their sources, not by the checkout's path.

numba's own locators name a file's cache folder after its absolute path, so a fresh clone compiled
every kernel again; :class:`dpverify.sim.jit.ContentKeyedLocator` names it after
:func:`dpverify.sim.jit.source_key`, a hash of every kernel source file. Each process below is a real
interpreter with ``NUMBA_DEBUG_CACHE=1``, which prints numba's own ``data saved to`` / ``data loaded
from`` lines.
"""
import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dpverify.sim import draws, jit

pytestmark = pytest.mark.skipif(not draws.numba_available(), reason="numba not installed")

PACKAGE = Path(jit.__file__).resolve().parents[1]              # .../dpverify
SIM = PACKAGE / "sim"
PROGRAM = """
import numpy as np
from dpverify.sim import draws
from dpverify.sim.fused import block_states
out = np.empty((1, 8))
draws.fill_normal(block_states(3, 0, 1), out)
print("VALUES", out.tobytes().hex())
print("FILE", draws.__file__)
"""


def _run(root: Path, cache: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(root), "DPVERIFY_NUMBA_CACHE": str(cache), "NUMBA_DEBUG_CACHE": "1"}
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", PROGRAM], env=env, cwd=root, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def _copy(dest: Path) -> Path:
    shutil.copytree(PACKAGE, dest / "dpverify", ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def _fill_lines(text: str, what: str) -> list[str]:
    return [ln for ln in text.splitlines() if what in ln and "fill_normal" in ln]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    cache = tmp_path_factory.mktemp("numba-cache")
    first = _run(_copy(tmp_path_factory.mktemp("checkout-a")), cache)
    second = _run(_copy(tmp_path_factory.mktemp("checkout-b")), cache)
    edited = _copy(tmp_path_factory.mktemp("checkout-c"))
    # an edit of another kernel module than the one defining fill_normal: its compiled code may
    # call any kernel source's functions, so the key covers them all
    with open(edited / "dpverify" / "sim" / "gated_sgd_kernels.py", "a") as f:
        f.write("\n# an edit: other source, other compiled kernels\n")
    third = _run(edited, cache)
    return cache, first, second, third


def test_a_second_checkout_at_another_path_loads_the_compiled_kernel(runs):
    cache, first, second, _ = runs
    assert _fill_lines(first, "data saved to"), first          # the first checkout compiled it
    assert _fill_lines(second, "data loaded from"), second     # the second, elsewhere, did not
    assert not _fill_lines(second, "data saved to"), second
    assert first.split("FILE")[1] != second.split("FILE")[1]   # two paths indeed
    assert first.split("VALUES")[1].split()[0] == second.split("VALUES")[1].split()[0]


def test_an_edited_kernel_source_compiles_afresh_in_its_own_folder(runs):
    cache, first, _, third = runs
    assert _fill_lines(third, "data saved to"), third
    assert not _fill_lines(third, "data loaded from"), third
    folders = sorted(p.name for p in cache.iterdir() if p.is_dir())
    assert len(folders) == 2 and all(f.startswith("kernels_") for f in folders), folders
    assert first.split("VALUES")[1].split()[0] == third.split("VALUES")[1].split()[0]


def test_the_folder_name_is_the_sources_content_key():
    key = jit.source_key()
    assert key.startswith("kernels_") and len(key) == len("kernels_") + 40
    assert key == jit.source_key()
    # the kernels' values do not depend on where they were compiled: a draw equals NumPy's
    from dpverify.sim import block_rng
    from dpverify.sim.fused import block_states
    out = np.empty((1, 16))
    draws.fill_normal(block_states(11, 0, 1), out)
    assert np.array_equal(out[0], block_rng(11, 0).standard_normal(16))


def test_a_copy_imported_under_another_name_compiles_its_own_kernels(tmp_path):
    """numba's cached code imports the module whose globals it uses by name when it is loaded, so the
    key names the module too: without that, ``dpverify`` loaded the kernels a copy imported as
    ``dpcopy`` had compiled with the same sources, and failed with ``ModuleNotFoundError: dpcopy``
    (found when an A/B timing of two copies left such kernels in the user's cache)."""
    cache = tmp_path / "numba-cache"
    renamed = tmp_path / "renamed"
    shutil.copytree(PACKAGE, renamed / "dpcopy", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(renamed), "DPVERIFY_NUMBA_CACHE": str(cache), "NUMBA_DEBUG_CACHE": "1"}
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", PROGRAM.replace("dpverify", "dpcopy")], env=env, cwd=renamed,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert _fill_lines(out.stdout, "data saved to"), out.stdout
    original = _run(_copy(tmp_path / "checkout"), cache)       # the same sources, imported as dpverify
    assert _fill_lines(original, "data saved to"), original
    assert not _fill_lines(original, "data loaded from"), original
    assert len([p for p in cache.iterdir() if p.is_dir()]) == 2
    assert out.stdout.split("VALUES")[1].split()[0] == original.split("VALUES")[1].split()[0]


def _compiles(path: Path) -> bool:
    """Whether a module compiles with :mod:`dpverify.sim.jit`'s decorators (imports one of them)."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == "jit" and any(
                a.name in ("jit", "inline", "borrow", "intrinsic") for a in node.names):
            return True
    return False


def test_every_kernel_source_is_in_the_key():
    """A module whose functions numba compiles is hashed into the folder's name: an edit of it must
    compile afresh (a kernel's cached code holds the code of every function it calls)."""
    listed = set(jit.KERNEL_SOURCES)
    compiling = {str(p.relative_to(SIM)) for p in SIM.rglob("*.py") if _compiles(p)}
    assert compiling and compiling <= listed, sorted(compiling - listed)
    assert all((SIM / name).is_file() for name in listed), sorted(n for n in listed if not (SIM / n).is_file())
