"""Shared test configuration: a derandomized Hypothesis profile for CI."""
import os
import sys

# The suite starts Python processes (command lines, pytest runs of the plugin, notebook kernels, Dask
# workers), and each xdist worker is one. Where PYTHONDONTWRITEBYTECODE is set (this project's
# containers set it), each of them compiled dpverify's 167 modules from source again, and each pytest
# process re-rewrote the asserts of Hypothesis's modules (a pytest plugin's package, ~0.9 s): the
# suite's processes keep compiled files. Nothing a test asserts depends on it.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

import gc  # noqa: E402

import numpy as np  # noqa: E402 - after the environment above
import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

from dpverify.gc_threshold import THRESHOLD  # noqa: E402
from dpverify.sim import LeastSquares, LinearLoss, LogisticRegression, Quadratic  # noqa: E402

# The suite's processes collect cycles as the command line does (dpverify.gc_threshold: CPython's generation-0
# threshold of 700 spends ~5% of a check's CPU collecting); tests/engine/test_gc.py shows results do not
# depend on it.
gc.set_threshold(*THRESHOLD)

# Every test checks for real: the verdict cache (dpverify.cache) is off in this process and in every
# command line a test starts; tests/engine/test_cache.py turns it on in its own folders.
os.environ["DPVERIFY_CACHE"] = "0"

settings.register_profile("ci", derandomize=True, deadline=None, database=None, max_examples=60,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, max_examples=60)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def _data(n=40, d=3, seed=0, scale=2.0):
    rng = np.random.default_rng(seed)
    X = scale * rng.normal(size=(n, d))
    w = rng.normal(size=d)
    y_reg = X @ w + 0.3 * rng.normal(size=n)
    y_cls = np.where(X @ w + 0.5 * rng.normal(size=n) > 0, 1.0, -1.0)
    return X, y_reg, y_cls


@pytest.fixture(scope="module")
def problems():
    """One problem of each simulator class, on fixed random data (shared by the simulator tests)."""
    X, y_reg, y_cls = _data()
    return {
        "quadratic": Quadratic([0.2, 0.5, 1.0], theta_star=[1.0, -2.0, 0.5], f_star=0.25),
        "least_squares": LeastSquares(X, y_reg, lam=0.05),
        "logistic": LogisticRegression(X, y_cls, lam=0.1),
        "linear": LinearLoss(X),
    }

pytest_plugins = ["pytester"]

# Tests that reuse one claim's verdict (dpverify.testing.verdict_of computes it once per process): under
# `-n 2 --dist loadgroup` each claim's tests run on one worker, which computes the verdict once instead
# of once per worker that meets the claim.
SHARED_VERDICTS = ("papers/test_registry.py", "textbook/test_textbook.py")


# The longest units of work (a notebook, the documentation site, a reproduced figure, a Dask cluster) are
# handed out first, so that under `-n 2` the last minute is not one of them running alone.
LONG_FIRST = ("papers/test_notebooks.py", "docs/test_docs.py", "papers/dni/test_dni_reproduce.py",
              "engine/test_distributed.py")


# The quick subset (`python -m pytest -m quick`) for a first run on a small machine: the claim language, the
# layers, numbers with a direction, verdicts, the mpmath decision, the privacy and noise building blocks,
# the options -- no command line started, no notebook, no documentation site, no paper's registry.
# tests/docs/test_quick_subset.py keeps it nonempty, free of the long units and small beside the suite.
QUICK = ("engine/test_layers.py", "engine/test_claims_language.py", "engine/test_measured.py", "engine/test_verdict.py",
         "engine/test_settle.py", "engine/test_privacy_composition.py", "engine/test_sim_noise.py",
         "engine/test_options.py", "engine/test_readings.py")


@pytest.hookimpl(tryfirst=True)          # before xdist reads the xdist_group marks
def pytest_collection_modifyitems(items):
    for item in items:
        if item.path.as_posix().endswith(QUICK):
            item.add_marker(pytest.mark.quick)
        claim = getattr(getattr(item, "callspec", None), "params", {}).get("claim")
        if claim is not None and item.path.as_posix().endswith(SHARED_VERDICTS):
            item.add_marker(pytest.mark.xdist_group(f"verdict-{claim.id}"))
    items.sort(key=lambda item: not item.path.as_posix().endswith(LONG_FIRST))   # stable: otherwise in order
