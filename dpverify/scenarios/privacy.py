"""Privacy scenarios: the Gaussian mechanism, and noisy gradient descent under a zCDP budget filter.

``gaussian_mechanism(sensitivity=..., noise_std=..., measure=...)`` measures, at each point of a
claim, one privacy quantity of ``M(x) = f(x) + N(0, s^2 I)`` with ``||f(x) - f(x')|| <= Delta``:

* ``measure="renyi_over_order"`` (needs ``order``): D_a(N(0, s^2) || N(Delta, s^2)) / a, by quadrature
  in mpmath (25 digits, its error measured against 50, more digits where that error is large), not by
  its closed form;
* ``measure="delta_at_eps"`` (needs ``eps``): the exact privacy profile delta(eps) [Balle & Wang 2018,
  Thm. 8];
* ``measure="eps_at_delta"`` (needs ``delta``): the smallest eps with ``delta(eps) <= delta``, the same
  profile solved in mpmath at 20 and 40 digits (the error is their gap plus what the rounding of
  ``mu = sensitivity / noise_std`` to a double moves).

``budget_filter_gd(...)`` measures the zCDP of noisy GD on clipped per-sample gradients whose
steps are admitted by a zCDP budget filter (step t requests ``1/sigma_t^2`` of the residual budget
and runs only if the request is strictly below it), with the sensitivity of the mean clipped
gradient *measured* on data under the scenario's adjacency (the replaced sample's features
negated, or the sample removed with the normaliser kept); with ``measure="delta_at_eps"`` /
``"eps_at_delta"`` the exact (eps, delta) profile of the admitted steps (composed Gaussian
mechanisms: one Gaussian mechanism with ``mu = sqrt(2 rho)``).

``subsampled_dp(...)`` measures an (eps, delta)-DP algorithm behind a uniformly random subsample:
eps' at ``target_delta=`` or delta' at ``target_eps=``.

``dp_audit(sampler=..., eps=..., delta=...)`` audits any algorithm empirically (a lower confidence
bound on delta at the claimed eps, :mod:`dpverify.privacy.audit`).
"""
from __future__ import annotations

import math

import mpmath
import numpy as np

from .. import privacy
from ..measured import Measured
from .base import MappedScenario
from .measuring import computed, gaussian_profile

#: the least relative error taken for the Renyi divergence by 25-digit quadrature, rounded to a double
#: (:func:`renyi_over_order_measured`)
QUADRATURE_REL_ERROR = 1e-12


class GaussianMechanism(MappedScenario):
    REQUIRED = ("sensitivity", "noise_std")
    OPTIONAL = ("order", "eps", "delta")
    MEASURES = ("renyi_over_order", "delta_at_eps", "eps_at_delta")
    optimise = 3

    def __init__(self, params, *, measure: str):
        super().__init__(params)
        if measure not in self.MEASURES:
            raise TypeError(f"gaussian_mechanism: measure must be one of {self.MEASURES}, got {measure!r}")
        need = {"renyi_over_order": "order", "delta_at_eps": "eps", "eps_at_delta": "delta"}[measure]
        if need not in params:
            raise TypeError(f"gaussian_mechanism: measure={measure!r} needs {need}=")
        self.measure_kind = measure
        self.optimise = 0 if measure == "renyi_over_order" else 3
        self.name = {"renyi_over_order": "Gaussian mechanism, Renyi divergence by quadrature (25 digits)",
                     "delta_at_eps": "Gaussian mechanism: exact privacy profile (Balle & Wang)",
                     "eps_at_delta": "Gaussian mechanism: eps at delta of the exact profile (mpmath)"}[measure]

    def measure(self, inst, runs, seed):
        m = self.map
        d, s = m.scalar("sensitivity", inst), m.scalar("noise_std", inst)
        if self.measure_kind == "renyi_over_order":
            return renyi_over_order_measured(d, s, m.scalar("order", inst))
        mu = float(d) / float(s)
        if self.measure_kind == "eps_at_delta":
            return gaussian_eps_at(float(m.scalar("delta", inst)), mu)
        eps = m.scalar("eps", inst)
        return gaussian_profile(float(eps), mu, mu_error=4 * abs(mu) * 2.0**-52)

    def describe(self, inst):
        return self.name


def renyi_over_order_measured(sensitivity, noise_std, order, dps: int = 25, max_dps: int = 200) -> Measured:
    """``D_a(N(0, s^2) || N(Delta, s^2)) / a`` by quadrature at ``dps`` digits, as an exact value whose error
    is its distance from the same quadrature at twice the digits, and never below
    :data:`QUADRATURE_REL_ERROR` relative. Where ``a Delta^2 / s^2`` is tiny the integral is ``1 + tiny`` and
    its logarithm keeps only the working digits beyond that (at ``sigma = s / Delta = 1e12`` about 10 of
    35); when that distance exceeds the floor, or a quadrature's own check fails (cancellation in its
    integrand: ``ArithmeticError``), the digits double (the value then the higher-precision quadrature's),
    up to ``max_dps``; with no two quadratures to compare by then, ``EvaluationError`` (no measurement here).
    """
    from ..search import EvaluationError

    def quad(digits, own_precision):
        try:
            if not own_precision:       # the first: rounded to the caller's precision, as it always was
                return privacy.renyi_divergence_gaussians(0.0, sensitivity, noise_std, order, dps=digits)
            with mpmath.workdps(digits):
                return privacy.renyi_divergence_gaussians(0.0, sensitivity, noise_std, order, dps=digits)
        except ArithmeticError:
            return None

    lo = quad(dps, False)
    while True:
        nxt = 2 * dps
        if nxt > max_dps:
            raise EvaluationError(f"the Renyi quadrature did not converge within {max_dps} digits "
                                  f"(sensitivity {sensitivity!r}, noise_std {noise_std!r}, order {order!r})")
        hi = quad(nxt, True)
        if lo is not None and hi is not None:
            v = float(lo) / order
            with mpmath.workdps(nxt):
                a = mpmath.mpf(order)
                gap = abs(hi - lo) / a + abs(hi / a - v) + abs(hi / a) * mpmath.mpf(10) ** (1 - nxt)
            floor = abs(v) * QUADRATURE_REL_ERROR
            error = math.nextafter(float(gap), math.inf)
            if error <= floor or 2 * nxt > max_dps:
                return Measured.exact(v, max(floor, error))
        lo, dps = hi, nxt


def gaussian_eps_at(delta: float, mu: float, mu_rel: float = 8 * 2.0**-52) -> Measured:
    """The Gaussian mechanism's exact eps at ``delta`` (``mu = sensitivity / noise_std``, a double that
    may be off by ``mu_rel`` relative, 8 ulps by default), as an interval that brackets the root: the
    double-precision root ``v`` (Brent) is confirmed by the sign of the 30-digit profile at ``v -+ w``
    (with ``mu`` moved by ``mu_rel`` down and up, since eps increases with mu), ``w = 1e-12 (1 + v)``; when that fails, the root is solved in
    mpmath at 20 and 40 digits with the same widening."""
    if mu == 0:
        return Measured.exact(0.0)
    v = privacy.gaussian_eps_exact(delta, mu)
    mu_lo, mu_hi = mu * (1 - mu_rel), mu * (1 + mu_rel)
    w = 1e-12 * (1 + v)
    with mpmath.workdps(30):
        def excess(e, m):     # delta(e) - delta at mu = m; decreasing in e, increasing in m
            return privacy.gaussian_delta_mp(e, m) - delta
        below = v - w <= 0 or excess(v - w, mu_lo) > 0
        above = excess(v + w, mu_hi) < 0
    if v > 0 and below and above:
        return Measured("exact", v, max(v - w, 0.0), v + w)
    at = Measured.at_precision(lambda dps: privacy.gaussian_eps_mp(delta, mu, dps), dps=20)
    moved = abs(float(privacy.gaussian_eps_mp(delta, mu_hi, 20)) - at.value)
    return Measured.exact(at.value, (at.upper - at.value) + moved)


def gaussian_mechanism(*, measure: str, **params) -> GaussianMechanism:
    """The Gaussian mechanism ``f(x) + N(0, noise_std^2 I)`` with ``||f(x) - f(x')|| <= sensitivity``,
    in a claim's own symbols; ``measure`` is ``"renyi_over_order"`` (needs ``order``),
    ``"delta_at_eps"`` (needs ``eps``) or ``"eps_at_delta"`` (needs ``delta``); see the module
    docstring. (The composed or subsampled mechanism is :func:`sampled_gaussian`.)

    >>> import sympy as sp
    >>> Delta, s, delta = sp.symbols("Delta s delta")
    >>> sc = gaussian_mechanism(measure="eps_at_delta", sensitivity=Delta, noise_std=s, delta=delta)
    """
    return GaussianMechanism(params, measure=measure)


class SubsampledDP(MappedScenario):
    """The tight privacy of an (eps, delta)-DP algorithm run on a uniformly random ``sampling``
    fraction of the data (replace-one neighbours), from the canonical (eps, delta) pair behind the
    subsample, ``((1 - a) P + a Q, P)`` (every (eps, delta)-DP algorithm is a post-processing of the
    canonical pair [Kairouz, Oh & Viswanath 2015], so this is the worst case over algorithms):

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


class BudgetFilterGD(MappedScenario):
    """Noisy GD under a zCDP budget filter (module docstring); ``measure`` is ``"zcdp"`` (its rho),
    ``"delta_at_eps"`` (needs ``eps``: the exact delta(eps) of the admitted steps, composed Gaussian
    mechanisms, i.e. one Gaussian mechanism with ``mu = sqrt(2 rho)``) or ``"eps_at_delta"`` (needs
    ``delta``: the exact eps at that delta of the same profile, bracketed in mpmath)."""
    REQUIRED = ("noise_multiplier", "budget", "clip", "n_samples", "horizon")
    OPTIONAL = ("eps", "delta")
    STEPWISE = ("noise_multiplier",)
    MEASURES = ("zcdp", "delta_at_eps", "eps_at_delta")

    def __init__(self, params, *, adjacency: str, measure: str = "zcdp"):
        super().__init__(params)
        if adjacency not in privacy.ADJACENCIES:
            raise TypeError(f"budget_filter_gd: adjacency must be one of {privacy.ADJACENCIES}, got {adjacency!r}")
        if measure not in self.MEASURES:
            raise TypeError(f"budget_filter_gd: measure must be one of {self.MEASURES}, got {measure!r}")
        need = {"delta_at_eps": "eps", "eps_at_delta": "delta"}.get(measure)
        if need is not None and need not in params:
            raise TypeError(f"budget_filter_gd: measure={measure!r} needs {need}=")
        self.adjacency, self.measure_kind = adjacency, measure
        self.name = f"noisy GD with a zCDP budget filter, {adjacency}-one neighbours" + (
            "" if measure == "zcdp" else f" ({measure.replace('_', ' ')}, exact Gaussian profile)")

    @staticmethod
    def measured_sensitivity(G: float, N: int, adjacency: str, seed: int = 0) -> float:
        """Sensitivity of the mean clipped logistic gradient (normaliser N), measured at random
        parameters on the worst neighbour by construction: the differing sample's features
        negated (replace), or the sample removed with the normaliser kept (remove). Only the
        differing sample's clipped gradient changes the mean, so it is computed on that sample."""
        rng = np.random.default_rng(seed)
        d = 3
        x = rng.normal(size=d)
        x *= (10.0 * max(G, 1.0)) / np.linalg.norm(x)  # its gradients saturate the clip
        y = 1.0 if rng.random() < 0.5 else -1.0
        thetas = rng.normal(scale=0.01, size=(8, d))

        def clipped(xv):
            g = -(y / (1.0 + np.exp(y * (thetas @ xv))))[:, None] * xv[None, :]
            nrm = np.linalg.norm(g, axis=1, keepdims=True)
            return g * np.minimum(1.0, G / np.maximum(nrm, 1e-300))

        diff = clipped(x) - (clipped(-x) if adjacency == "replace" else 0.0)
        return float(np.linalg.norm(diff / N, axis=1).max())

    def measure(self, inst, runs, seed):
        m = self.map
        T = int(round(m.scalar("horizon", inst)))
        sig = [float(x) for x in m.steps("noise_multiplier", inst, T)]
        G, N, R = m.scalar("clip", inst), int(round(m.scalar("n_samples", inst))), m.scalar("budget", inst)
        acc = privacy.budget_filter_privacy(sig, R, adjacency=self.adjacency, clip_or_G=G, N=N)
        delta = self.measured_sensitivity(G, N, self.adjacency)
        ops = 8 * len(sig) + 16
        rho = computed(sum(delta**2 / (2 * (G * s / N) ** 2) for s in sig[: acc.steps]), ops=ops)
        if self.measure_kind == "zcdp":
            return rho
        mu, mu_rel = math.sqrt(2 * rho.value), (ops / 2 + 2) * 2.0**-52   # the composed Gaussian mechanisms
        if self.measure_kind == "eps_at_delta":
            return gaussian_eps_at(float(m.scalar("delta", inst)), mu, mu_rel)
        return gaussian_profile(float(m.scalar("eps", inst)), mu, mu_error=mu * mu_rel)

    def describe(self, inst):
        T = int(round(self.map.scalar("horizon", inst)))
        return (f"noisy GD with a zCDP budget filter, {self.adjacency}-one neighbours, T={T}, "
                "sensitivity measured on clipped logistic gradients")


def budget_filter_gd(*, adjacency: str, measure: str = "zcdp", **params) -> BudgetFilterGD:
    """zCDP of noisy GD under a budget filter, in a claim's own symbols (module docstring); with
    ``measure="delta_at_eps"`` (and ``eps=``) or ``"eps_at_delta"`` (and ``delta=``) its exact
    (eps, delta) profile instead (see :class:`BudgetFilterGD`).

    >>> import sympy as sp
    >>> sigma, t, R, G, N, T, d = sp.IndexedBase("sigma"), sp.Symbol("t"), *sp.symbols("R G N T delta")
    >>> sc = budget_filter_gd(adjacency="replace", noise_multiplier=sigma[t], budget=R, clip=G, n_samples=N,
    ...                       horizon=T, measure="eps_at_delta", delta=d)
    """
    return BudgetFilterGD(params, adjacency=adjacency, measure=measure)


class DPAudit(MappedScenario):
    """An empirical audit of an (eps, delta)-DP claim (:func:`dpverify.privacy.audit.audit`).

    ``sampler(point, side, n, rng)`` returns ``n`` outputs of the algorithm at the claim's point on
    the data set ``side`` ("D" or "D'"), vectorised over runs. ``measure`` returns the audit's
    lower confidence bound on the delta achieved at the claimed eps (deterministic for a seed), so
    a ``SupBound(kind="audit", bound=<claimed delta>)`` is violated only when that lower bound
    exceeds the claim. An audit refutes; it never supports a claim on its own (a privacy claim
    needs an accounting check beside it). ``n`` outputs per side in the final audit is ``runs``.
    The measurement is a :meth:`~dpverify.measured.Measured.lower_bound`.
    """

    REQUIRED = ("eps", "delta")
    search_runs = 4000
    optimise = 0

    def __init__(self, params, *, sampler, what: str, confidence: float = 0.99, search_runs: int | None = None):
        super().__init__(params)
        if search_runs is not None:
            if not isinstance(search_runs, int) or search_runs < 10:
                raise TypeError(f"dp_audit: search_runs must be an integer >= 10, got {search_runs!r}")
            self.search_runs = search_runs
        if not callable(sampler):
            raise TypeError(f"dp_audit: sampler must be callable (point, side, n, rng) -> outputs, got {sampler!r}")
        self.sampler, self.what, self.confidence = sampler, what, confidence
        self.name = f"privacy audit of {what}"
        self._last: dict = {}

    def measure(self, inst, runs, seed):
        from ..privacy.audit import audit

        eps, delta = self.map.scalar("eps", inst), self.map.scalar("delta", inst)
        res = audit(lambda n, rng: self.sampler(inst, "D", n, rng), lambda n, rng: self.sampler(inst, "D'", n, rng),
                    eps=float(eps), delta=float(delta), n=max(10, int(runs)), seed=int(seed) % (2**63),
                    confidence=self.confidence)
        self._last[id(inst)] = res
        return Measured.lower_bound(float(res.delta_lower))

    def describe(self, inst):
        res = self._last.get(id(inst))
        return f"{self.what}; " + (res.describe() if res is not None else "audit")


def dp_audit(*, sampler, what: str, confidence: float = 0.99, search_runs: int | None = None, **params) -> DPAudit:
    """An empirical privacy audit of the algorithm ``sampler`` runs, in a claim's own symbols
    (``search_runs``: runs per side while searching, default 4000; the deciding audit uses the
    check's runs)."""
    return DPAudit(params, sampler=sampler, what=what, confidence=confidence, search_runs=search_runs)


__all__ = ["BudgetFilterGD", "DPAudit", "GaussianMechanism", "SubsampledDP", "budget_filter_gd", "dp_audit",
           "gaussian_mechanism", "subsampled_dp"]

