"""numba for the simulator's compiled kernels: the decorators every kernel module compiles with
(:func:`jit`, :func:`inline`, :func:`borrow`), and where the compiled code is kept.

The kernels live beside the algorithms they serve (``descent_kernels``, ``random_round_kernels``,
``step_decay_kernels``, ``adaptive_kernels``, ``gated_sgd_kernels``, with the random numbers they all
draw in ``draws``); numba functions call compiled functions of other modules as they call their own
(an ``inline`` one is inlined into its caller, a ``jit`` one linked), so a kernel module imports what
it calls.

Compiled kernels are kept by content
------------------------------------
numba compiles a kernel on its first call and caches it under :func:`cache_dir`.  numba's own
locators name a source file's folder there after the file's absolute path, so every fresh clone,
copy or virtual environment compiled everything again (about 70 s of CPU); :class:`ContentKeyedLocator`
names one folder for all the kernels after :func:`source_key`: the SHA-256 of every file numba compiles
(:data:`KERNEL_SOURCES`), the numba and NumPy versions and the package's import name.  A kernel's
cached code includes the code of the functions of other modules it calls, so the key covers every
kernel source: an edit of any of them compiles afresh, in a folder of its own.

Without numba
-------------
If numba cannot be imported, :data:`numba` is ``None``, the kernel modules define nothing, and
:func:`dpverify.sim.draws.fused_enabled` is ``False``: every simulator runs its NumPy path.
"""

from __future__ import annotations

import os

import numpy as np

__all__ = ["KERNEL_SOURCES", "cache_dir", "chunk_width", "numba", "source_key"]

#: The files (relative to ``dpverify/sim``) whose functions numba compiles, and :mod:`.rng` (whose
#: ``BLOCK`` the kernels freeze as a constant): what :func:`source_key` hashes.  A module that
#: compiles with this module's decorators, or whose functions a kernel compiles, must be listed
#: (``tests/engine/test_sim_kernel_cache.py`` checks it).
KERNEL_SOURCES = ("jit.py", "rng.py", "draws.py", "descent_kernels.py", "random_round_kernels.py",
                  "step_decay_kernels.py", "adaptive_kernels.py", "gated_sgd_kernels.py", "updates/compiled.py",
                  "updates/plain.py", "updates/momentum.py", "updates/heavy_ball.py")


def chunk_width(dim: int) -> int:
    """Values per chunk of the quadratic kernels: whole rows, about 512 values."""
    return dim * max(1, 512 // dim)


try:  # pragma: no cover - exercised by the environment, not by a test branch
    import numba
    import numba.extending
    from numba.np.random._constants import fi_double  # noqa: F401  (the ziggurat tables draws needs)
except Exception:  # noqa: BLE001 - any failure means: no fused path
    numba = None


def cache_dir() -> str:
    """Where numba caches the compiled kernels (outside the source tree).

    ``DPVERIFY_NUMBA_CACHE`` if set, else ``$XDG_CACHE_HOME/dpverify/numba``
    (``~/.cache/dpverify/numba``).  A ``NUMBA_CACHE_DIR`` set by the user takes
    precedence (numba's own setting).  If the directory cannot be written,
    numba falls back to its default locations.  Inside it the kernels live in a
    folder named by the content of their sources (:func:`source_key`), not by
    the checkout's path: see :class:`ContentKeyedLocator`.
    """
    env = os.environ.get("DPVERIFY_NUMBA_CACHE", "").strip()
    if env:
        return env
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "dpverify", "numba")


_SOURCE_KEY: str | None = None


def source_key() -> str:
    """A name for the compiled kernels made of what they are compiled from: the SHA-256 of every file of
    :data:`KERNEL_SOURCES`, the numba and NumPy versions, and the package's import name.  Two checkouts
    with the same sources share one compiled copy; a change to any of those files, or another numba or
    NumPy, compiles afresh.

    The import name is part of it because numba's cached code names the module whose globals it
    uses and imports it by that name when loaded: a copy of the package imported under another
    name (vendored, or copied for an A/B timing) would otherwise load the other's kernels and fail
    with ``ModuleNotFoundError``, or silently run the other copy's module."""
    global _SOURCE_KEY
    if _SOURCE_KEY is None:
        import hashlib

        h = hashlib.sha256()
        here = os.path.dirname(os.path.abspath(__file__))
        for name in KERNEL_SOURCES:
            with open(os.path.join(here, name), "rb") as f:
                h.update(name.encode() + b"\0" + f.read())
        package = __name__.rsplit(".", 1)[0]
        h.update(f"numba {numba.__version__} numpy {np.__version__} package {package}".encode())
        _SOURCE_KEY = "kernels_" + h.hexdigest()[:40]
    return _SOURCE_KEY


if numba is not None:
    from numba.core import caching as _caching

    # numba's locator for a user-given folder: public under this name in the releases that let a
    # locator be named (``CACHE_LOCATOR_CLASSES``; 0.68 here); older ones call it
    # ``_UserProvidedCacheLocator`` and keep their path-keyed folders (``_compiled`` names no locator).
    _LOCATOR_BASE = getattr(_caching, "UserProvidedCacheLocator", None) or getattr(
        _caching, "_UserProvidedCacheLocator", object)

    class ContentKeyedLocator(_LOCATOR_BASE):
        """numba's cache locator for a user-given cache folder, with the kernels' subfolder named by
        :func:`source_key` instead of by the hash of the source file's path.

        numba's own locators put a file's compiled functions in a folder named after the file's
        absolute path, so every fresh clone, copy or virtual environment of dpverify compiled every
        kernel again (about 70 s of CPU for all of them) although the code was the same. Inside the
        folder numba's index still checks its own version, the function's signature, the machine's
        CPU and the source file's stamp; the stamp here is the content key (numba 0.68's is a hash of
        the file; a modification time, which a clone does not keep, would not do)."""

        def __init__(self, py_func, py_file):
            super().__init__(py_func, py_file)
            self._cache_path = os.path.join(numba.config.CACHE_DIR, source_key())

        def get_source_stamp(self):
            return source_key()

    def _compiled(**options):
        """``numba.njit(cache=True, **options)`` caching under :func:`cache_dir`, in the folder of
        :class:`ContentKeyedLocator` where this numba lets a locator be named
        (``numba.config.CACHE_LOCATOR_CLASSES``) and the user named none; numba's path-keyed folders
        otherwise."""
        def decorate(fn):
            saved = numba.config.CACHE_DIR
            saved_loc = getattr(numba.config, "CACHE_LOCATOR_CLASSES", None)
            if not saved:
                numba.config.CACHE_DIR = cache_dir()
            if saved_loc == "" and hasattr(_caching, "UserProvidedCacheLocator"):
                numba.config.CACHE_LOCATOR_CLASSES = f"{__name__}.ContentKeyedLocator"
            try:
                return numba.njit(cache=True, **options)(fn)
            finally:
                numba.config.CACHE_DIR = saved
                if saved_loc is not None:
                    numba.config.CACHE_LOCATOR_CLASSES = saved_loc
        return decorate

    #: a kernel or a function kept out of line: compiled on its own, releasing the GIL
    jit = _compiled(nogil=True)
    #: a small function inlined into every caller (numba IR), in any module
    inline = _compiled(inline="always")
    #: hot loops that only read and write arrays given to them: no reference counting
    borrow = _compiled(nogil=True, _nrt=False)
    #: numba's own extension points (e.g. an LLVM intrinsic), for the kernel modules
    intrinsic = numba.extending.intrinsic
