"""Calibration of the Monte Carlo check: the figures the README's "Statistics you can trust" quotes.

    python benchmarks/statistics.py [--reps 4000]

Noisy GD on a 1-d quadratic started at the optimum, statistic f(theta_{T+1}) - f* (a scaled
chi-square with one degree of freedom: the most skewed statistic the simulator produces). Each
repetition is one Monte Carlo decision with `dpverify check`'s defaults (20000 runs, confidence
0.99, one parameter point). Prints: the false-violation rate on the true and tight bound
"E <= exact", the detection rate of bounds planted 5%, 10% and 20% too small, and the rate of
`holds` on a bound 20% too large, each with a 95% Clopper-Pearson interval.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from scipy.stats import beta

from dpverify import sim
from dpverify.checks.base import Config
from dpverify.checks.monte_carlo import decide

EIGS, THETA1, ETA, T = np.array([1.0]), np.array([0.0]), 0.5, 5


def cp(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    a = (1 - level) / 2
    lo = 0.0 if k == 0 else beta.ppf(a, k, n - k + 1)
    hi = 1.0 if k == n else beta.ppf(1 - a, k + 1, n - k)
    return float(lo), float(hi)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=4000)
    ns = ap.parse_args()
    t0 = time.perf_counter()
    cfg = Config()
    problem = sim.Quadratic(EIGS)
    sig = np.full(T, 1.0)
    exact = float(sim.pgd_quadratic_moments(EIGS, THETA1, ETA, sig)[0])
    res = [sim.pgd(problem, THETA1, ETA, sig, cfg.runs, seed=10_000 + r) for r in range(ns.reps)]
    print(f"{ns.reps} Monte Carlo decisions, {cfg.runs} runs each, confidence {cfg.confidence}")
    rows = [("true, tight bound E <= exact: verdict violated (false violation)", 1.0, "violated"),
            ("bound 5% too small: violated (detected)", 0.95, "violated"),
            ("bound 10% too small: violated (detected)", 0.90, "violated"),
            ("bound 20% too small: violated (detected)", 0.80, "violated"),
            ("bound 20% too large: holds", 1.20, "holds")]
    for text, f, want in rows:
        k = sum(decide([(r.mean, r.var, f * exact)], cfg.runs, cfg.confidence)[0] == want for r in res)
        lo, hi = cp(k, ns.reps)
        print(f"  {text}: {k}/{ns.reps} = {100 * k / ns.reps:.2f}% (95% CI {100 * lo:.2f}-{100 * hi:.2f}%)")
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
