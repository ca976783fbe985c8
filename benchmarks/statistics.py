"""Calibration of the Monte Carlo check: the figures of docs/measurements/statistics.md (``--page``).

    python benchmarks/statistics.py [--reps 4000] [--page PATH]

Noisy GD on a 1-d quadratic started at the optimum, statistic f(theta_{T+1}) - f* (a scaled
chi-square with one degree of freedom: the most skewed statistic the simulator produces). Each
repetition is one Monte Carlo decision with `dpverify check`'s defaults (20000 runs, confidence
0.99, one parameter point). Prints: the false-violation rate of the first test on the true and
tight bound "E <= exact", the detection rate of bounds planted 5%, 10% and 20% too small, and the
rate of `holds` on a bound 20% too large, each with a 95% Clopper-Pearson interval; then the rate at
which the re-test (4x the runs, a fresh seed) rejects the tight bound, the per-statement
false-violation rate of the whole check (first test and re-test both reject: their product, the
two being independent, and the direct count) and the per-run rate over the 35 Monte Carlo
statements of `dpverify check --all`, beside the bounds the module docstring of
dpverify/checks/monte_carlo.py states (a^2 per statement, 35 a^2 per run).
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from scipy.stats import beta

from dpverify import sim
from dpverify.checks.base import Config
from dpverify.checks.monte_carlo import RETEST_FACTOR, decide

STATEMENTS = 35  # Monte Carlo statements in `dpverify check --all`

EIGS, THETA1, ETA, T = np.array([1.0]), np.array([0.0]), 0.5, 5


def cp(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    a = (1 - level) / 2
    lo = 0.0 if k == 0 else beta.ppf(a, k, n - k + 1)
    hi = 1.0 if k == n else beta.ppf(1 - a, k + 1, n - k)
    return float(lo), float(hi)


# the page --page writes (benchmarks/mdpage.py)
PAGE = dict(
    title='Calibration of the Monte Carlo check',
    about=(
        "How often the Monte Carlo check's decision is wrong, on the most skewed statistic the "
        "simulator produces (a scaled chi-square), with `dpverify check`'s defaults (20000 runs, "
        'confidence 0.99): a false violation of a true and tight bound, the detection of bounds '
        'planted too small, and the re-test that a violation must also pass. See [statistics you '
        'can trust](../guide/statistics.md).'
    ),
    goals=[
    ('false_violation_per_run', '<=', 0.0035, 'a false violation per run of `check --all` at most 35 a^2'),
    ],
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=4000)
    ap.add_argument("--page", metavar="PATH", help="also write the result as a Markdown page (docs/measurements/statistics.md)")
    ns = ap.parse_args()
    from mdpage import recording          # benchmarks/ is the script's folder
    with recording(ns.page, **PAGE):
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
        # the re-test of the tight bound: 4x the runs at fresh seeds, the same level (one point: 1 - C)
        first = [decide([(r.mean, r.var, exact)], cfg.runs, cfg.confidence)[0] == "violated" for r in res]
        runs2 = RETEST_FACTOR * cfg.runs
        again = [decide([(r.mean, r.var, exact)], runs2, cfg.confidence)[0] == "violated"
                 for r in (sim.pgd(problem, THETA1, ETA, sig, runs2, seed=50_000 + r) for r in range(ns.reps))]
        k1, k2 = sum(first), sum(again)
        both = sum(a and b for a, b in zip(first, again))
        lo, hi = cp(k2, ns.reps)
        print(f"  re-test ({runs2} runs, fresh seed) rejects the tight bound: {k2}/{ns.reps} = {100 * k2 / ns.reps:.2f}% "
              f"(95% CI {100 * lo:.2f}-{100 * hi:.2f}%)")
        a = 1 - cfg.confidence
        per_stmt = (k1 / ns.reps) * (k2 / ns.reps)
        hi_stmt = cp(k1, ns.reps)[1] * hi
        print(f"  false violation per statement (first test and independent re-test): {per_stmt:.2e} "
              f"(95% upper {hi_stmt:.2e}; counted directly: {both}/{ns.reps}); bound a^2 = {a * a:.0e}")
        per_run = 1 - (1 - per_stmt) ** STATEMENTS
        hi_run = 1 - (1 - hi_stmt) ** STATEMENTS
        print(f"  false violation per run of {STATEMENTS} Monte Carlo statements: {per_run:.2e} (95% upper {hi_run:.2e}); "
              f"bound {STATEMENTS} a^2 = {STATEMENTS * a * a:.1e}")
        print(f"false_violation_first_test={k1 / ns.reps:.4f}")
        print(f"retest_rejects_tight_bound={k2 / ns.reps:.4f}")
        print(f"false_violation_per_statement={per_stmt:.2e}")
        print(f"false_violation_per_run={per_run:.2e}")
        print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
