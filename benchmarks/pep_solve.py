"""Time of one performance-estimation SDP solve, through the direct Clarabel writer and through CVXPY.

Usage::

    python benchmarks/pep_solve.py [--horizons 2,5,10] [--repeats 5] [--page PATH]

For each horizon T, ``dpverify.sim.pep.worst_case`` on gradient descent over L-smooth mu-strongly convex
functions (the class most claims use), at five curvatures, solved through ``sim.pep.WRAPPER = "clarabel"``
(PEPit's constraints written into CVXPY's conic form directly) and ``"cvxpy"`` (PEPit's CVXPY wrapper),
taking turns, the cache of solves cleared before each; the median over ``--repeats`` of the per-solve
milliseconds, and the two results compared (equal values; the tests compare bits). Prints ``T=.. direct_ms=.. cvxpy_ms=..
direct_over_cvxpy=..`` lines, then ``same_results=True|False``. Timings are of this run on this machine.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from dpverify.sim import pep  # noqa: E402

CURVATURES = (0.01, 0.05, 0.1, 0.2, 0.4)


def _solve_all(wrapper: str, T: int) -> tuple[float, list]:
    pep.WRAPPER = wrapper
    pep._solve.cache_clear()
    t0 = time.perf_counter()
    out = [pep.worst_case("gd", "smooth_strongly_convex", "excess", "dist", smooth=1.0, steps=[1.0] * T,
                          init_value=1.0, curvature=mu) for mu in CURVATURES]
    return (time.perf_counter() - t0) / len(CURVATURES) * 1e3, out


# the page --page writes (benchmarks/mdpage.py)
PAGE = dict(
    title='One performance-estimation SDP solve: the direct Clarabel writer against CVXPY',
    about=(
        '`dpverify.sim.pep.worst_case` on gradient descent over smooth strongly convex functions at '
        "five curvatures, solved through the direct writer and through PEPit's CVXPY wrapper, "
        'taking turns; the median milliseconds a solve and whether the results are equal.'
    ),
)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--horizons", default="2,5,10")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--page", metavar="PATH", help="also write the result as a Markdown page (docs/measurements/pep-solve.md)")
    args = ap.parse_args(argv)
    from mdpage import recording          # benchmarks/ is the script's folder
    with recording(args.page, **PAGE):
        try:
            horizons = [int(h) for h in args.horizons.split(",")]
        except ValueError:
            ap.error(f"--horizons must be integers separated by commas, got {args.horizons!r}")
        if args.repeats < 1:
            ap.error(f"--repeats must be at least 1, got {args.repeats}")
        _solve_all("clarabel", 1)          # imports and first-use costs outside the timings
        _solve_all("cvxpy", 1)
        same = True
        for T in horizons:
            direct, via = [], []
            for _ in range(args.repeats):
                ms, ours = _solve_all("clarabel", T)
                direct.append(ms)
                ms, theirs = _solve_all("cvxpy", T)
                via.append(ms)
                same &= all((a.primal, a.dual, a.lower, a.upper, a.iterates) == (b.primal, b.dual, b.lower, b.upper, b.iterates)
                            for a, b in zip(ours, theirs))
            d, c = float(np.median(direct)), float(np.median(via))
            print(f"T={T} direct_ms={d:.1f} cvxpy_ms={c:.1f} direct_over_cvxpy={d / c:.3f}")
        print(f"same_results={same}")
        return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
