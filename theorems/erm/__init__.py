"""[erm] "Efficient Private ERM for Smooth Objectives" (Zhang, Zheng, Mou, Wang), seed file
``002_83aa5496eb291d00.txt``.

* :mod:`.claims`: every claim, as printed (``CLAIMS``, in printed order), with ``-corrected``
  claims next to the wrong ones;
* :mod:`.proofs`: quantities its proofs define (the recursions of Lemmas 2-3, the radial Huber
  family's exact error, the martingale tail of Lemma 4, the amplification and composition measures
  of Lemmas 9-10) and the samplers of its privacy audits;
* :mod:`.experiments`: Table 3 (error and running time against eps), declared to
  :mod:`dpverify.experiments`.
"""
from .claims import *  # noqa: F401,F403
from .claims import CLAIMS  # noqa: F401


def __getattr__(name):  # FIGURES imported on first use: the experiments need the simulator, a claim list does not
    if name == "FIGURES":
        from .experiments import FIGURES
        return FIGURES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
