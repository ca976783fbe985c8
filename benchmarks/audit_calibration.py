"""Calibration of the empirical privacy audit (:mod:`dpverify.privacy.audit`).

Usage::

    python benchmarks/audit_calibration.py [--reps 1000] [--n 20000] [--eps 1] [--delta 0.01] [--page PATH]

Audits the Gaussian mechanism (sensitivity 1) ``--reps`` times with independent seeds, ``--n`` runs
per side for choosing the rejection set and ``--n`` for evaluating it, at confidence 0.99:

* calibrated exactly for (eps, delta) (Balle & Wang's profile): every "violated" is a false one;
* calibrated for (2 eps, delta) and audited at (eps, delta): every "violated" is a true detection.

Prints ``false_violation_rate=`` and ``power=`` (and the counts). ``tests/engine/test_privacy_audit.py`` runs the
same function at a smaller size and asserts the rates with tolerances derived from ``reps``.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dpverify.privacy.audit import audit, gaussian_noise_for  # noqa: E402


def rates(reps: int, n: int, eps: float, delta: float, seed: int = 0) -> dict:
    """Violation counts of audits of a correctly and of a wrongly (2 eps) calibrated mechanism."""
    def gaussian(s, shift):
        return lambda m, rng: shift + s * rng.standard_normal(m)

    s_ok, s_bad = gaussian_noise_for(eps, delta), gaussian_noise_for(2 * eps, delta)
    false = sum(audit(gaussian(s_ok, 0.0), gaussian(s_ok, 1.0), eps=eps, delta=delta, n=n,
                      seed=seed * 1_000_003 + k).violated for k in range(reps))
    hits = sum(audit(gaussian(s_bad, 0.0), gaussian(s_bad, 1.0), eps=eps, delta=delta, n=n,
                     seed=seed * 1_000_003 + reps + k).violated for k in range(reps))
    return {"reps": reps, "n": n, "eps": eps, "delta": delta, "false_violations": false, "detections": hits,
            "false_violation_rate": false / reps, "power": hits / reps}


# the page --page writes (benchmarks/mdpage.py)
PAGE = dict(
    title='Calibration of the empirical privacy audit',
    about=(
        'The audit (`dpverify.privacy.audit`) of the Gaussian mechanism calibrated exactly for '
        '(eps, delta), where every `violated` is a false one, and calibrated for (2 eps, delta), '
        'where every `violated` is a detection.'
    ),
    goals=[
    ('false_violation_rate', '<=', 0.01, 'false violations at most 1 - confidence'),
    ],
)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--n", type=int, default=20000)
    ap.add_argument("--eps", type=float, default=1.0)
    ap.add_argument("--delta", type=float, default=0.01)
    ap.add_argument("--page", metavar="PATH", help="also write the result as a Markdown page (docs/measurements/audit-calibration.md)")
    a = ap.parse_args(argv)
    from mdpage import recording          # benchmarks/ is the script's folder
    with recording(a.page, **PAGE):
        r = rates(a.reps, a.n, a.eps, a.delta)
        for k, v in r.items():
            print(f"{k}={v}")
        return 0


if __name__ == "__main__":
    sys.exit(main())
