"""Privacy of noisy gradient descent run for T steps with a given noise schedule, in a claim's symbols.

``gd_schedule_privacy(noise_std=..., lipschitz=L, n_samples=N, horizon=T, adjacency=..., measure=...)``
measures, at each point of a claim, one privacy quantity of releasing the iterates of
``theta_{t+1} = theta_t - eta_t (grad F(theta_t) + s_t z_t)``, ``t = 1..T``, where ``F`` is the mean of
per-sample losses with gradients of norm at most ``L`` and ``s_t`` is ``noise_std`` (a per-step
expression in ``t``):

* ``measure="zcdp"``: ``sum_t Delta^2 / (2 s_t^2)`` with ``Delta`` the sensitivity of the mean
  gradient *measured* on a worst neighbouring pair built for the adjacency (linear per-sample losses
  ``<x_n, theta>`` with ``||x_n|| <= L``: one sample ``x`` of norm ``L`` replaced by ``-x``, or removed
  with the normaliser ``N`` kept), i.e. ``2L/N`` or ``L/N`` [Bun & Steinke 2016, Prop. 1.6, Lemma 2.3];
* ``measure="epsilon"`` (needs ``delta``): ``eps`` of the same composition from Google's
  ``dp_accounting`` RDP accountant (each step a ``GaussianDpEvent``), the independent cross-check;
* ``measure="delta_at_eps"`` (needs ``eps``): the exact ``delta(eps)`` of the composition (one
  Gaussian mechanism with ``mu^2 = sum_t (Delta/s_t)^2``).

``noisy_gd_audit(...)`` is the empirical audit (:func:`dpverify.scenarios.dp_audit`) of the same
algorithm: it runs noisy GD on the two neighbouring data sets above (with an optional ridge
``curvature``, which makes the loss strongly convex and changes nothing in the sensitivity), releases
the iterates, and post-processes them into the whitened innovations
``((theta_t - theta_{t+1})/eta_t - mu theta_t) / s_t`` (a bijection of the released iterates), on
which the audit's projection test is the likelihood-ratio test.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from ... import privacy, sim
from ...measured import Measured
from ..base import MappedScenario
from ..measuring import ULP, computed, gaussian_profile
from .audit import DPAudit

__all__ = ["GaussianRenyi", "MEASURES", "NoisyGDAudit", "ScheduleGDPrivacy", "gaussian_renyi", "gd_schedule_privacy", "measured_sensitivity", "noisy_gd_audit", "worst_neighbours"]


MEASURES = ("zcdp", "epsilon", "delta_at_eps")


MAX_AUDIT_EPS = 700.0


Z = 2.33    # binomial standard errors in NoisyGDAudit.refutability (one-sided 99%)


def worst_neighbours(lipschitz: float, n_samples: int, adjacency: str, dim: int = 2, seed: int = 0):
    """Two neighbouring data sets of linear per-sample losses ``<x_n, theta>`` with ``||x_n|| <= L`` whose mean
    gradients differ as much as the adjacency allows: ``x_1`` of norm ``L`` replaced by ``-x_1``, or removed
    (normaliser ``N`` kept). The other samples cancel in the difference of linear losses, so the data sets
    hold ``x_1`` and one other sample, with the normaliser ``N`` of the full data set."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(2, dim))
    X *= lipschitz * np.array([[1.0], [rng.uniform(0.1, 1.0)]]) / np.linalg.norm(X, axis=1, keepdims=True)
    d = sim.LinearLoss(X, normaliser=float(n_samples))
    if adjacency == "replace":
        return d, sim.make_neighbour(d, 0, -X[0])
    return d, sim.remove_sample(d, 0)


def measured_sensitivity(lipschitz: float, n_samples: int, adjacency: str) -> float:
    """``||grad F_D - grad F_D'||`` on :func:`worst_neighbours` (constant in theta for linear losses)."""
    return _measured_sensitivity(float(lipschitz), int(n_samples), adjacency)


@lru_cache(maxsize=4096)
def _measured_sensitivity(lipschitz: float, n_samples: int, adjacency: str) -> float:
    """:func:`measured_sensitivity`, memoised: a pure function of its (converted) arguments, which an audit's
    steering asks for at every trial point."""
    d, dp = worst_neighbours(lipschitz, n_samples, adjacency)
    th = np.zeros((1, d.dim))
    return float(np.linalg.norm(d.grad(th) - dp.grad(th)))


class ScheduleGDPrivacy(MappedScenario):
    """Privacy of noisy GD with a noise schedule (module docstring)."""

    REQUIRED = ("noise_std", "lipschitz", "n_samples", "horizon")
    OPTIONAL = ("delta", "eps")
    STEPWISE = ("noise_std",)
    optimise = 3

    def __init__(self, params, *, adjacency: str, measure: str):
        super().__init__(params)
        if adjacency not in privacy.ADJACENCIES:
            raise TypeError(f"gd_schedule_privacy: adjacency must be one of {privacy.ADJACENCIES}, got {adjacency!r}")
        if measure not in MEASURES:
            raise TypeError(f"gd_schedule_privacy: measure must be one of {MEASURES}, got {measure!r}")
        need = {"epsilon": "delta", "delta_at_eps": "eps"}.get(measure)
        if need and need not in params:
            raise TypeError(f"gd_schedule_privacy: measure={measure!r} needs {need}=")
        self.adjacency, self.measure_kind = adjacency, measure
        self.optimise = 0 if measure == "epsilon" else 3    # dp_accounting is slow: no local optimiser
        self.name = {"zcdp": "zCDP of noisy GD (sensitivity measured on a worst neighbour pair)",
                     "epsilon": "eps of noisy GD from dp_accounting's RDP accountant",
                     "delta_at_eps": "exact delta(eps) of noisy GD (composed Gaussian mechanisms)"}[measure]

    def schedule(self, inst):
        T = int(round(float(self.map.scalar("horizon", inst))))
        return [float(s) for s in self.map.steps("noise_std", inst, T)] if T > 0 else []

    def measure(self, inst, runs, seed):
        m = self.map
        L, N = float(m.scalar("lipschitz", inst)), int(round(float(m.scalar("n_samples", inst))))
        stds = self.schedule(inst)
        if not stds:
            return computed(0.0)
        delta_meas = measured_sensitivity(L, N, self.adjacency)
        rho = float(privacy.schedule_zcdp(stds, delta_meas)[-1])
        ops = 8 * len(stds) + 16
        if self.measure_kind == "zcdp":
            return computed(rho, ops)
        mu = math.sqrt(2 * rho)   # the composition is one Gaussian mechanism with mu^2 = sum_t (Delta/s_t)^2
        if self.measure_kind == "delta_at_eps":
            return gaussian_profile(float(m.scalar("eps", inst)), mu, mu_error=mu * ops * ULP)
        unit = L / N   # dp_accounting's multipliers are relative to the per-sample bound; "replace" doubles it
        event = privacy.noisy_gd_event([s / unit for s in stds], adjacency=self.adjacency)
        delta = float(m.scalar("delta", inst))
        upper = float(privacy.event_epsilon(event, delta, accountant="rdp"))
        # the RDP accountant's eps is an upper bound; the exact eps of the composed Gaussian a lower one
        lower = privacy.gaussian_eps_exact(delta, mu) * (1 - 1e-9) - 1e-12 if mu > 0 else -math.inf
        return Measured("upper", upper, min(lower, upper), upper)

    def describe(self, inst):
        T = int(round(float(self.map.scalar("horizon", inst))))
        return f"{self.name}, {self.adjacency}-one neighbours, T={T}"


def gd_schedule_privacy(*, adjacency: str = "replace", measure: str = "zcdp", **params) -> ScheduleGDPrivacy:
    """Privacy of T steps of noisy GD with a noise schedule, in a claim's own symbols (module docstring)."""
    return ScheduleGDPrivacy(params, adjacency=adjacency, measure=measure)


class GaussianRenyi(MappedScenario):
    """``D_a(N(0, s^2) || N(Delta, s^2)) / a`` of the Gaussian mechanism by adaptive quadrature in double
    precision (``scipy.integrate.quad`` of ``p^a q^(1-a)``, substituted around the integrand's peak and scaled
    by its maximum), an independent numeric route to the zCDP ``Delta^2/(2 s^2)`` [Bun & Steinke 2016,
    Prop. 1.6] that costs milliseconds (``gaussian_mechanism(measure="renyi_over_order")`` integrates in
    mpmath at 25 digits)."""

    REQUIRED = ("sensitivity", "noise_std", "order")
    optimise = 3
    name = "Gaussian mechanism, Renyi divergence by double-precision quadrature"
    #: relative error taken for the quadrature (requested to 1e-12 relative)
    REL_ERROR = 1e-11

    @staticmethod
    def renyi_over_order(Delta: float, s: float, a: float) -> float:
        """``log E_{y ~ N(0,1)} exp((1 - a) l(y)) / ((a - 1) a)`` with the log-likelihood ratio
        ``l(y) = u y - u^2/2``, ``u = Delta/s``, integrated numerically: as ``log1p`` of the integral of
        ``phi(y) expm1((1 - a) l(y))`` when the ratio stays close to 1 (no cancellation), else around the
        integrand's peak, scaled by its maximum."""
        import warnings

        from scipy.integrate import IntegrationWarning, quad

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", IntegrationWarning)   # relative accuracy ~1e-12 is what is used
            return GaussianRenyi._renyi(Delta, s, a, quad)

    @staticmethod
    def _renyi(Delta, s, a, quad):
        u, b = Delta / s, 1.0 - a
        phi = 1.0 / math.sqrt(2 * math.pi)
        if abs(b) * u * (u + 20.0) <= 1.0:
            J, _ = quad(lambda y: phi * math.exp(-y * y / 2) * math.expm1(b * (u * y - u * u / 2)), -math.inf, math.inf,
                        epsabs=0.0, epsrel=1e-12, limit=200)
            log_i = math.log1p(J)
        else:
            g = lambda y: -y * y / 2 + b * (u * y - u * u / 2)  # noqa: E731
            peak = b * u
            top = g(peak)
            val, _ = quad(lambda z: math.exp(g(peak + z) - top), -math.inf, math.inf, epsabs=0.0, epsrel=1e-12,
                          limit=200)
            log_i = top + math.log(phi * val)
        return log_i / (a - 1.0) / a

    def proof_form(self):
        """The closed form ``D_a / a = Delta^2 / (2 s^2)`` [Bun & Steinke 2016, Lemma 2.4] (what the quadrature
        checks numerically)."""
        e = self.params.exprs
        return {"kind": "closed", "expr": e["sensitivity"] ** 2 / (2 * e["noise_std"] ** 2),
                "source": "Bun & Steinke 2016, Lemma 2.4: D_a(N(0, s^2) || N(Delta, s^2)) = a Delta^2 / (2 s^2)"}

    def measure(self, inst, runs, seed):
        m = self.map
        v = self.renyi_over_order(float(m.scalar("sensitivity", inst)), float(m.scalar("noise_std", inst)),
                                  float(m.scalar("order", inst)))
        return Measured.exact(v, abs(v) * self.REL_ERROR)

    def describe(self, inst):
        return self.name


def gaussian_renyi(**params) -> GaussianRenyi:
    """Renyi divergence over order of the Gaussian mechanism (double-precision quadrature), in a claim's symbols."""
    return GaussianRenyi(params)


class NoisyGDAudit(DPAudit):
    """Empirical audit of noisy GD on the worst neighbouring pair (module docstring)."""

    REQUIRED = ("eps", "delta", "noise_std", "lipschitz", "n_samples", "horizon")
    OPTIONAL = ("step", "curvature")
    STEPWISE = ("noise_std", "step")
    search_runs = 1000     # the search only steers: the deciding audit uses the check's runs per side

    def __init__(self, params, *, adjacency: str, confidence: float = 0.99):
        if adjacency not in privacy.ADJACENCIES:
            raise TypeError(f"noisy_gd_audit: adjacency must be one of {privacy.ADJACENCIES}, got {adjacency!r}")
        self.adjacency = adjacency
        super().__init__(params, sampler=self._sample, what=f"noisy GD, {adjacency}-one neighbours (linear + ridge "
                                                             "losses), iterates released", confidence=confidence)

    def _on_bind(self):
        self.sampler = self._sample   # the bound copy's own map

    def refutability(self, pt, n: int | None = None) -> float:
        """How far an audit with ``n`` runs per side (default ``search_runs``) can expect to push its delta
        lower bound above the claimed delta at a point, from the exact profile of the composed steps
        (one Gaussian mechanism, ``mu^2 = sum_t (Delta/s_t)^2``, sensitivity measured on
        :func:`worst_neighbours`): the largest ``p - e^eps q - delta`` over half-spaces, ``p, q`` the
        half-space's probabilities on the two sides, each widened by ``Z`` binomial standard errors and
        ``q`` by ``3/n`` (a count of zero). Positive where a refutation is within reach."""
        from scipy.special import ndtr

        m = self.map
        n = int(n or self.search_runs)
        T = int(round(float(m.scalar("horizon", pt))))
        stds = [float(s) for s in m.steps("noise_std", pt, T)] if T > 0 else []
        eps, delta = float(m.scalar("eps", pt)), float(m.scalar("delta", pt))
        if not stds or not eps <= MAX_AUDIT_EPS:
            return -delta
        sens = measured_sensitivity(float(m.scalar("lipschitz", pt)), int(round(float(m.scalar("n_samples", pt)))),
                                    self.adjacency)
        mu = math.sqrt(2.0 * float(privacy.schedule_zcdp(stds, sens)[-1]))
        c = np.linspace(-4.0, mu + 4.0, 64)
        if math.isfinite(mu):   # scipy.stats.norm.sf(x) is ndtr(-x) at a finite x, bit for bit, and far cheaper
            p, q = ndtr(-(c - mu)), ndtr(-c)
        else:
            from scipy.stats import norm
            p, q = norm.sf(c - mu), norm.sf(c)
        p_lo = p - Z * np.sqrt(p * (1 - p) / n)
        q_hi = q + Z * np.sqrt(q * (1 - q) / n) + 3.0 / n
        return float(np.max(p_lo - math.exp(eps) * q_hi)) - delta

    def _score(self, pt) -> float:
        try:
            v = self.refutability(pt)
        except (ArithmeticError, ValueError, OverflowError, TypeError):
            return -math.inf
        return v if math.isfinite(v) else -math.inf

    def steer(self, pt, sweeps: int = 2) -> dict:
        """``pt`` moved, one scalar parameter at a time, towards the ends of its search box while
        :meth:`refutability` grows and the point stays in the claim's domain (a coordinate ascent
        over a few candidate values per parameter: the box ends and the geometric/arithmetic means
        between them and the current value)."""
        from ...claims import Int, Real

        dom = self.claim.domain
        best, score = dict(pt), self._score(pt)
        for _ in range(sweeps):
            moved = False
            for name, par in dom.params.items():
                if not isinstance(par, (Int, Real)) or name not in best:
                    continue
                lo, hi = par.box()
                v = best[name]
                cands = [lo, hi]
                if isinstance(par, Real) and getattr(par, "log", False) and lo > 0 and v > 0:
                    cands += [math.sqrt(lo * v), math.sqrt(hi * v)]
                else:
                    cands += [(lo + v) / 2, (hi + v) / 2]
                for c in cands:
                    c = int(round(c)) if isinstance(par, Int) else float(c)
                    if c == v:
                        continue
                    trial = {**best, name: c}
                    if not dom.contains(trial):
                        continue
                    sc = self._score(trial)
                    if sc > score:
                        best, score, moved = trial, sc, True
            if not moved:
                break
        return best

    def strategy(self):
        """Points of the claim's domain; one in four is :meth:`steer`-ed towards where the exact profile
        says a refutation is within reach (a noisy audit of ``search_runs`` runs rarely finds a thin
        region by chance); the verdict is still the fresh empirical audit's."""
        self._require_bound()
        from hypothesis import strategies as st

        def build(pt, draw):
            return self.steer(pt) if draw(st.integers(0, 3)) == 0 else pt

        return self.instances_from(build)

    @property
    def search_domain(self):
        return self.claim.domain if self.claim is not None else None

    def measure(self, inst, runs, seed):
        # e^eps beyond double precision: no finite sample refutes such a claim (its delta lower bound is < 0)
        if float(self.map.scalar("eps", inst)) > MAX_AUDIT_EPS:
            return Measured.lower_bound(-1.0)
        return super().measure(inst, runs, seed)

    def _sample(self, pt, side, n, rng):
        m = self.map
        T = int(round(float(m.scalar("horizon", pt))))
        stds = np.asarray(m.steps("noise_std", pt, T), dtype=float)
        etas = np.asarray(m.steps("step", pt, T), dtype=float) if m.has("step") else np.ones(T)
        mu = float(m.scalar("curvature", pt)) if m.has("curvature") else 0.0
        L, N = float(m.scalar("lipschitz", pt)), float(m.scalar("n_samples", pt))
        # 1-d data: D holds x_1 = L and N - 1 zeros; D' has x_1 = -L (replace) or no x_1 (remove).
        mean_grad = L / N if side == "D" else (-L / N if self.adjacency == "replace" else 0.0)
        theta = np.zeros(n)
        out = np.empty((n, max(T, 1)))
        for t in range(T):
            noisy = mean_grad + mu * theta + stds[t] * rng.standard_normal(n)
            out[:, t] = (noisy - mu * theta) / stds[t]
            theta = theta - etas[t] * noisy
        return out if T else np.zeros((n, 1))


def noisy_gd_audit(*, adjacency: str = "replace", confidence: float = 0.99, **params) -> NoisyGDAudit:
    """An empirical (eps, delta) audit of noisy GD with a noise schedule, in a claim's own symbols."""
    return NoisyGDAudit(params, adjacency=adjacency, confidence=confidence)
