"""[pur] "Adaptive Hyperparameter Selection for Differentially Private Gradient Descent" (under review),
seed file ``001_8c6e002b41f68e78.txt``.

* :mod:`.claims`: every claim, as printed (``CLAIMS``, in printed order), with ``-corrected`` claims
  next to the wrong ones;
* :mod:`.proofs`: quantities its proofs define (Lemma 2's worst sequence, the steps a budget allows,
  Section 4's constants measured on data, the audit of the data-dependent step);
* :mod:`.data`: Section 4's data sets (synthetic generator; Iris and Breast cancer shipped with
  scikit-learn; 8x8 digits as a labelled stand-in for MNIST);
* :mod:`.experiments`: Figure 1 and Table 3 (``pur/fig-1``, ``pur/table-3``), declared to
  :mod:`dpverify.experiments`.
"""
from .claims import *  # noqa: F401,F403
from .claims import CLAIMS  # noqa: F401


def __getattr__(name):  # FIGURES imported on first use: the experiments need the simulator, a claim list does not
    if name == "FIGURES":
        from .experiments import FIGURES
        return FIGURES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
