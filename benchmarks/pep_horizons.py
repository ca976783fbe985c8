"""Solve times of long-horizon worst cases: dpverify's direct SDP beside PEPit's, on the same problems, in one run.

Usage::

    python benchmarks/pep_horizons.py [--horizons 10,20,30,50] [--skip-pepit] [--certify]

For each horizon N: gradient descent with step 1/L (normalised: L = 1, ||x_0 - x*|| = 1) on

* L-smooth convex functions, f(x_N) - f* (Drori & Teboulle: 1/(4N + 2));
* L-smooth mu-strongly convex functions (mu/L = 1/10), ||x_N - x*||^2 ((1 - mu/L)^(2N)),

solved by PEPit (its own CVXPY wrapper, solver Clarabel: how PEPit is used with an open solver) and by
``dpverify.sim.pep_direct`` (the Gram-matrix SDP written directly for Clarabel, the interpolation conditions
between consecutive iterates and with x* first, more only where the primal point violates one). Prints one line
per (class, N) with both wall times, both values and the closed form. ``--certify`` adds the time of
``dpverify.sim.pep_proof.certify`` (solve, round, check the rational dual certificate and the worst function
exactly; a long contraction goes through the potential of ``sim/pep_potential.py`` instead, also timed).
Timings are of this run on this machine (other processes share it).
"""
from __future__ import annotations

import argparse
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

CASES = (("smooth_convex", "excess", Fraction(0)), ("smooth_strongly_convex", "dist_sq", Fraction(1, 10)))


def closed_form(cls, N, q):
    return 1 / (4 * N + 2) if cls == "smooth_convex" else float((1 - q) ** (2 * N))


def pepit(cls, stat, q, N):
    import warnings

    from PEPit import PEP
    from PEPit.functions import SmoothConvexFunction, SmoothStronglyConvexFunction

    problem = PEP()
    f = (problem.declare_function(SmoothConvexFunction, L=1.0) if cls == "smooth_convex" else
         problem.declare_function(SmoothStronglyConvexFunction, L=1.0, mu=float(q)))
    xs, fs = f.stationary_point(return_gradient_and_function_value=True)[0::2]
    x0 = problem.set_initial_point()
    problem.set_initial_condition((x0 - xs) ** 2 <= 1)
    x = x0
    for _ in range(N):
        x = x - f.gradient(x)
    problem.set_performance_metric(f(x) - fs if stat == "excess" else (x - xs) ** 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(problem.solve(wrapper="cvxpy", solver="CLARABEL", verbose=0))


def ours(cls, stat, q, N):
    from dpverify.sim import pep_direct

    spec = dict(method="gd", function_class=cls, statistic=stat, init="dist", steps=[Fraction(1)] * N, q=q)
    return pep_direct.Numeric(spec).solve().value


def certified(cls, stat, q, N):
    """``(upper, lower, how)`` exact, as floats: the certificate's value and the worst function's."""
    from dpverify.sim import pep_exact, pep_potential, pep_proof

    spec = dict(method="gd", function_class=cls, statistic=stat, init="dist", steps=[Fraction(1)] * N, q=q,
                beta=Fraction(0))
    if cls == "smooth_strongly_convex":
        r = pep_potential.rate(spec, "dist")
        up, _ = pep_exact.check_upper(spec, pep_potential.compose(r, N), field=pep_proof.fmpq_field)
        sym = pep_exact.Symbolic(True)
        pep_exact.constraints(spec, sym, only=set())
        lo = max(c.value for c in pep_proof.extreme_quadratics(spec, sym))
        return up, lo, "potential composed"
    proof = pep_proof.certify(spec, Fraction(1, 4 * N + 2))
    return proof.upper_bound, proof.lower_bound, "SDP dual rounded"


def _timed(fn, *args):
    """``(seconds, value or the exception)``: a solver that fails is reported, not fatal."""
    t0 = time.perf_counter()
    try:
        out = fn(*args)
    except Exception as exc:  # noqa: BLE001 - a failed solve is a result of the benchmark
        out = exc
    return time.perf_counter() - t0, out


def _value(v) -> str:
    return f"{v:.10g}" if isinstance(v, float) else f"failed({type(v).__name__})"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--horizons", default="10,20,30,50")
    ap.add_argument("--skip-pepit", action="store_true")
    ap.add_argument("--certify", action="store_true")
    args = ap.parse_args(argv)
    try:
        horizons = [int(h) for h in args.horizons.split(",")]
    except ValueError:
        ap.error(f"--horizons must be integers separated by commas, got {args.horizons!r}")
    if any(h < 1 for h in horizons):
        ap.error(f"--horizons must be at least 1, got {args.horizons!r}")
    import os

    os.environ.setdefault("DPVERIFY_CACHE", "0")      # the certificate store would time a file read
    ours("smooth_convex", "excess", Fraction(0), 1)      # imports and first-use costs outside the timings
    if not args.skip_pepit:
        pepit("smooth_convex", "excess", Fraction(0), 1)
    for cls, stat, q in CASES:
        for N in horizons:
            t_ours, v_ours = _timed(ours, cls, stat, q, N)
            line = f"{cls} N={N} dpverify_s={t_ours:.2f} dpverify_value={_value(v_ours)}"
            if not args.skip_pepit:
                t_pepit, v_pepit = _timed(pepit, cls, stat, q, N)
                line += f" pepit_s={t_pepit:.2f} pepit_value={_value(v_pepit)} pepit_over_dpverify={t_pepit / t_ours:.1f}"
            line += f" closed_form={closed_form(cls, N, q):.10g}"
            if args.certify:
                t0 = time.perf_counter()
                up, lo, how = certified(cls, stat, q, N)
                line += (f" certify_s={time.perf_counter() - t0:.2f} certified_upper={float(up):.10g} "
                         f"worst_function={float(lo):.10g} tight={up == lo} ({how})")
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
