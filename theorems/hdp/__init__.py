"""[hdp] "Data Heterogeneity Differential Privacy: From Theory to Algorithm" (Kang, Li, Liu & Wang),
seed file ``004_9fced7ebb2318939.txt``.

* :mod:`.claims`: every claim, as printed (``CLAIMS``, in printed order), with ``-corrected`` claims
  next to the wrong ones;
* :mod:`.proofs`: the quantities its proofs and its Algorithm 1 define (the data families the
  claims are checked on, the contribution test of Algorithm 1, the leak of its noise-free branch);
* :mod:`.baselines`: the output-perturbation baseline of its section 7 ([44], bolt-on SGD);
* :mod:`.experiments`: section 7 (figures 1 and 2), declared to :mod:`dpverify.experiments`.
"""
from .claims import *  # noqa: F401,F403
from .claims import CLAIMS  # noqa: F401


def __getattr__(name):  # FIGURES imported on first use: the experiments need the simulator, a claim list does not
    if name == "FIGURES":
        from .experiments import FIGURES
        return FIGURES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
