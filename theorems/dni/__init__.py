"""[dni] "On Dynamic Noise Influence in Differential Private Learning" (ICLR 2021 submission),
seed file ``000_155fea93f75f24eb.txt``.

* :mod:`.claims`: every claim, as printed (``CLAIMS``, in printed order), with ``-corrected``
  claims next to the wrong ones;
* :mod:`.proofs`: the quantities its proofs define (T_hat of Lemma B.7, the U3 ratios, Lemma B.5's
  gradient drift, the spurious zCDP root printed below Lemma B.3);
* :mod:`.experiments`: appendix D (figures 2 and 3), declared to :mod:`dpverify.experiments`.
"""
from .claims import *  # noqa: F401,F403
from .claims import CLAIMS  # noqa: F401


def __getattr__(name):  # FIGURES imported on first use: the experiments need the simulator, a claim list does not
    if name == "FIGURES":
        from .experiments import FIGURES
        return FIGURES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
