"""[stage] "Private Stochastic Non-convex Optimization with Improved Utility Rates" (Zhang, Ma, Lou, Xiong),
seed file ``003_5052799caee6efc5.txt``.

* :mod:`.claims`: every claim, as printed (``CLAIMS``, in printed order), with ``-corrected`` claims next to
  the wrong ones;
* :mod:`.proofs`: quantities its proofs and statements define (the privacy lower bounds of the
  counterexamples, the Definition 1.1 decomposition on a Gaussian location model, ...);
* :mod:`.experiments`: Figure 1 on a stand-in (a two-layer NumPy network on scikit-learn's digits).
"""
from .claims import *  # noqa: F401,F403
from .claims import CLAIMS  # noqa: F401


def __getattr__(name):  # FIGURES imported on first use: the experiments need the simulator, a claim list does not
    if name == "FIGURES":
        from .experiments import FIGURES
        return FIGURES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
