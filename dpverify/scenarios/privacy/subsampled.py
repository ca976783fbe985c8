"""Amplification by subsampling in a claim's symbols.

``subsampled_dp(...)`` measures an (eps, delta)-DP algorithm behind a uniformly random subsample:
eps' at ``target_delta=`` or delta' at ``target_eps=``.
"""
from __future__ import annotations

from ... import privacy
from ...measured import Measured
from ..base import MappedScenario

__all__ = ["SubsampledDP", "subsampled_dp"]


class SubsampledDP(MappedScenario):
    """The tight privacy of an (eps, delta)-DP algorithm run on a uniformly random ``sampling`` (``a``)
    fraction of the data (replace-one neighbours), from the canonical (eps, delta) pair behind the
    subsample, ``((1 - a) P + a Q, P)`` (every (eps, delta)-DP algorithm is a post-processing of the
    canonical pair [Kairouz, Oh & Viswanath 2015], so this is the worst case over algorithms). The
    differing entry enters the subsample with probability ``a`` and, when absent, leaves the output
    distributed as on the neighbouring data set: the worst case both for a fixed-size subset drawn
    without replacement (``a = m/n``) under replace-one neighbours and for Poisson sampling at rate
    ``a`` under add/remove-one neighbours, whose amplification is the same [Balle, Barthe & Gaboardi
    2018, Thms. 8 and 9]; not for Poisson sampling under replace-one neighbours, nor sampling with
    replacement. The divergences are taken in both directions:

    * ``target_delta=``: the eps' at that delta (the smallest eps' with delta(eps') <= target);
    * ``target_eps=``: the delta' at that eps' (the pair's hockey-stick divergence, both directions).

    Each exactly in mpmath at 30 and 60 digits (``Measured.at_precision``): at sampling -> 1 the
    target cancels against the pair's leak atom. Give exactly one target."""
    REQUIRED = ("eps", "delta", "sampling")
    OPTIONAL = ("target_delta", "target_eps")
    optimise = 3

    def __init__(self, params):
        super().__init__(params)
        targets = [k for k in self.OPTIONAL if k in params]
        if len(targets) != 1:
            raise TypeError("subsampled_dp: give exactly one of target_delta= (eps' at that delta) or target_eps= "
                            f"(delta' at that eps'), got {targets or 'neither'}")
        self.target = targets[0]
        self.name = ("canonical (eps, delta)-DP pair behind a uniformly random subsample: exact "
                     + ("eps' at the target delta" if self.target == "target_delta" else "delta' at the target eps"))

    def measure(self, inst, runs, seed):
        comp = privacy.composition
        eps, delta, a = (float(self.map.scalar(k, inst)) for k in ("eps", "delta", "sampling"))

        def at(dps):   # the pair from the point's doubles, the target at dps digits (alpha delta exactly)
            x, y = comp.subsampled_pair(*comp.canonical_pair(eps, delta, dps=dps), a, dps=dps)
            target = self.map.scalar(self.target, inst, dps)
            if self.target == "target_eps":
                return comp.pair_delta_mp(x, y, target, dps=dps)
            return comp.pair_epsilon(x, y, target, dps=dps)
        return Measured.at_precision(at)

    def describe(self, inst):
        return self.name


def subsampled_dp(**params) -> SubsampledDP:
    """The tight eps' at ``target_delta`` (or the tight delta' at ``target_eps``) of an ``(eps,
    delta)``-DP algorithm on a uniformly random ``sampling`` fraction of the data, in a claim's own
    symbols (see :class:`SubsampledDP`).

    >>> import sympy as sp
    >>> e, d, q = sp.symbols("epsilon delta q")
    >>> eps_at = subsampled_dp(eps=e, delta=d, sampling=q, target_delta=q * d)
    >>> delta_at = subsampled_dp(eps=e, delta=d, sampling=q, target_eps=sp.log(1 + q * (sp.exp(e) - 1)))
    """
    return SubsampledDP(params)
