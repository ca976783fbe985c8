"""The worst case of a first-order method over a whole function class (performance estimation).

``worst_case(method=..., function_class=..., statistic=..., smooth=..., curvature=..., step=...,
momentum=..., horizon=..., init_dist=... or init_gap=...)`` measures, at each point of a claim, the
largest value of ``statistic`` after ``horizon`` noise-free steps of ``method`` over *every* function
of ``function_class`` and every start within the initial condition, by a performance-estimation SDP
(:mod:`dpverify.sim.pep`: PEPit, solved by Clarabel through CVXPY). Quadratics are only a few members
of a class: a bound every quadratic satisfies can still fail on the class, and only this scenario
sees it.

* methods: ``gd``, ``heavy_ball`` (Polyak), ``nesterov``, ``bias_corrected`` (an EMA of gradients
  ``m_t = beta m_{t-1} + (1 - beta) g_t`` and ``x_{t+1} = x_t - eta m_t/(1 - beta^t)``);
* classes: ``smooth_strongly_convex``, ``smooth_convex`` (interpolation conditions: the SDP's value
  is the worst case, returned as an exact :class:`~dpverify.measured.Measured` whose interval holds
  the solver's error, so it can refute and confirm), ``smooth`` (nonconvex L-smooth, with
  ``init_gap`` and ``statistic="grad_norm_sq"``, the min over the iterates) and ``pl`` (necessary
  conditions only: an upper bound, :meth:`~dpverify.measured.Measured.upper_bound`, which can only
  confirm);
* statistics: ``excess`` (``f(x_T) - f*``), ``dist_sq`` (``||x_T - x*||^2``), ``grad_norm_sq``
  (``||grad f(x_T)||^2``; for ``smooth`` the min over ``t = 0..T``); averages over the iterates:
  ``random_round_excess`` and ``random_round_grad_norm_sq`` (the expectation over a random output round
  ``R`` in ``0..T-1``, ``P(R = k)`` proportional to ``2 eta_k - L eta_k^2``: Ghadimi & Lan's rule, steps
  in ``(0, 2/L)``; the gradient one also on ``smooth``) and ``mean_excess`` (the mean of ``f(x_t) - f*``
  over ``t = 1..T``: an output drawn uniformly from a run's iterates).

Every parameter is an expression in the claim's symbols; ``step`` may depend on the step index
``t`` (1..T). The instance is the claim's point; the same normalised SDP is solved once per run (a
cache), so the search's repeated points cost nothing, and the result is deterministic. The
evidence (``describe``) names the solver, the primal and dual values, the residuals and the worst
function's iterates (``f(x_t) - f*``, ``||x_t - x*||``, ``||g_t||``). Horizons are meant to be
small (``max_horizon``, default ``MAX_HORIZON`` = 10): a PEP of T steps is an SDP of size about T + 3.
Where the horizon is an integer parameter ``S`` of the claim, or an expression in one (``2 S``), the search
draws the ``S`` whose horizon is at most ``max_horizon`` (the rest of the point from the claim's domain); a
point beyond it is not measured.

A measurement is an interval; ``checks/pepproof.py`` then turns it into a proof where it can (exact rational
certificates horizon by horizon up to ``proof_horizons``, for every horizon by a potential or multipliers in closed
form, or symbolic in one parameter on its whole interval), certifies a violation by an exact worst function, and
decides ``SupBound(..., tight=True)`` ("attained"); :meth:`WorstCase.normal_form` and :meth:`WorstCase.exact_spec`
give it the normalised problem.

Example (the tight bound of Drori & Teboulle for GD with step 1/L on L-smooth convex functions)::

    import sympy as sp
    from dpverify import Claim, Domain, Int, Real, Source, SupBound
    from dpverify.scenarios import worst_case

    L, R, T = sp.symbols("L R T", positive=True)
    CLAIM = Claim(id="me/gd-convex", source=Source("my notes", "GD on smooth convex functions"),
                  domain=Domain(L=Real(gt=0, search=(0.1, 10.0), log=True),
                                R=Real(gt=0, search=(0.1, 10.0), log=True), T=Int(ge=1, search=(1, 8))),
                  statements=(SupBound("f(x_T) - f* <= L R^2/(4T + 2)", bound=L * R**2 / (4 * T + 2),
                                       kind="performance", scenario=worst_case(
                                           method="gd", function_class="smooth_convex", statistic="excess",
                                           smooth=L, step=1 / L, horizon=T, init_dist=R)),))
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

import sympy as sp

from ..measured import Measured
from ..search import EvaluationError
from ..sim import pep
from .base import MappedScenario
from .params import T_INDEX

#: the largest horizon measured by default (a PEP of T steps is an SDP of size ~T + 3; option ``max_horizon``)
MAX_HORIZON = 10
_METHOD_NAMES = {"gd": "gradient descent", "heavy_ball": "heavy-ball (Polyak) momentum",
                 "nesterov": "Nesterov's accelerated gradient", "bias_corrected": "bias-corrected (EMA) momentum"}
_CLASS_NAMES = {"smooth_strongly_convex": "L-smooth mu-strongly convex functions",
                "smooth_convex": "L-smooth convex functions",
                "smooth": "L-smooth functions with f(x_0) - inf f <= Delta (necessary conditions: an upper bound)",
                "pl": "L-smooth mu-PL functions (necessary conditions: an upper bound)"}


class WorstCase(MappedScenario):
    """The worst case of a noise-free first-order method over a function class (module docstring)."""

    REQUIRED = ("smooth", "step", "horizon")
    OPTIONAL = ("curvature", "momentum", "init_dist", "init_gap")
    STEPWISE = ("step",)
    optimise = 0
    #: points a search draws (each is an SDP solve; the worst case is smooth in the parameters)
    search_samples = 40
    #: the evidence's basis: the worst case over the whole class, not a search over instances
    basis_kind = "worst-over-class"

    def __init__(self, params: Mapping[str, Any], *, method: str, function_class: str, statistic: str,
                 optimise: int = 0, samples: int = 40, max_horizon: int = MAX_HORIZON,
                 proof_horizons: int | None = None, index: sp.Symbol = T_INDEX):
        params = dict(params)
        super().__init__(params, index)
        if ("init_dist" in params) == ("init_gap" in params):
            raise TypeError("worst_case: give exactly one of init_dist= (||x_0 - x*||) and init_gap= (f(x_0) - f*)")
        init = "dist" if "init_dist" in params else "gap"
        pep.validate(method, function_class, statistic, init)
        if function_class in ("smooth_strongly_convex", "pl") and "curvature" not in params:
            raise TypeError(f"worst_case: function_class={function_class!r} needs curvature=")
        if method != "gd" and "momentum" not in params:
            raise TypeError(f"worst_case: method={method!r} needs momentum=")
        self.method, self.function_class, self.statistic, self.init = method, function_class, statistic, init
        self.optimise, self.search_samples, self.max_horizon = int(optimise), int(samples), int(max_horizon)
        self.proof_horizons = self.max_horizon if proof_horizons is None else int(proof_horizons)
        if self.proof_horizons < 0:
            raise TypeError(f"worst_case: proof_horizons must be >= 0, got {proof_horizons!r}")
        self.algorithm = f"noise-free {_METHOD_NAMES[method]}"
        self.name = f"the class of {_CLASS_NAMES[function_class]} (performance estimation SDP)"
        self._results: dict = {}

    def strategy(self):
        """The claim's points (the horizon drawn in ``1..max_horizon`` where it is an integer parameter
        of the claim) that the scenario measures, or ``None`` where these are the claim's own points."""
        from hypothesis import strategies as st

        from ..claims import Int

        self._require_bound()
        h = self.claim.expand(sp.sympify(self.params.exprs["horizon"]))
        dom = self.claim.domain
        free = sorted(h.free_symbols, key=str)
        p = dom.params.get(str(free[0])) if len(free) == 1 else None
        if isinstance(p, Int) and p.box()[1] > self.max_horizon:
            # the horizon is an integer parameter S of the claim or an expression in S (2 S): draw the S it admits
            lo, hi = p.box()
            ok = [k for k in range(lo, min(hi, lo + 10 * self.max_horizon) + 1)
                  if 0 <= float(h.subs(free[0], k)) <= self.max_horizon]
            name = str(free[0])

            inner: dict = {}   # the domain's strategy for each S, built once (building one is costly)

            @st.composite
            def points(draw):
                k = draw(st.sampled_from(ok or [lo]))
                if k not in inner:
                    inner[k] = dom.strategy(fixed={name: k})
                return draw(inner[k])

            strategy = points().map(self.instance_at).filter(lambda inst: inst is not None)
            # the same instances drawn by NumPy (dpverify.search.sample_points): S from the admitted
            # list, then the rest of the point
            strategy._dpverify_build = (dom, lambda pt, draw: self.instance_at(pt))
            choices = ok or [lo]
            strategy._dpverify_fixed = lambda rng: {name: choices[int(rng.integers(len(choices)))]}
            return strategy
        if self.function_class not in ("smooth_strongly_convex", "pl"):
            return None
        # the claim's points, without the degenerate class curvature = smooth (an instance of None: no
        # instance there, which the search's NumPy draws skip as the filter does)
        built = self.instances_from(lambda pt, draw: self.instance_at(pt))
        strategy = built.filter(lambda inst: inst is not None)
        strategy._dpverify_build = built._dpverify_build
        return strategy

    def _horizon(self, inst):
        T = self.map.scalar("horizon", inst)
        return int(round(T)) if T == T and abs(T - round(T)) < 1e-9 and 0 <= round(T) <= self.max_horizon else None

    def make_instance(self, point):
        """The point itself, or ``None`` when its horizon is beyond ``max_horizon`` or its class is
        degenerate (``curvature = smooth``): not measured."""
        if self._horizon(point) is None:
            return None
        m = self.map
        if m.has("curvature") and pep.degenerate(self.function_class, m.scalar("smooth", point),
                                                 m.scalar("curvature", point)):
            return None
        return dict(point)

    def _solve(self, inst) -> pep.PEPResult:
        m = self.map
        T = self._horizon(inst)
        if T is None:
            raise EvaluationError(f"worst_case: the horizon must be an integer in 0..{self.max_horizon}")
        kw = {"smooth": m.scalar("smooth", inst), "steps": [float(h) for h in m.steps("step", inst, T)],
              "init_value": m.scalar("init_dist" if self.init == "dist" else "init_gap", inst)}
        for key in ("curvature", "momentum"):
            if m.has(key):
                kw[key] = m.scalar(key, inst)
        try:
            res = pep.worst_case(self.method, self.function_class, self.statistic, self.init, **kw)
        except pep.PEPError as exc:
            raise EvaluationError(f"worst_case: {exc}") from exc
        self._results[_key(inst)] = res
        return res

    def measure(self, inst, runs, seed):
        res = self._solve(inst)
        if res.exact:
            return Measured("exact", res.value, res.lower, res.upper)
        return Measured.upper_bound(res.upper)

    def describe(self, inst):
        res = self._results.get(_key(inst))
        head = f"{self.algorithm} on {self.name}, statistic {self.statistic}"
        return head if res is None else f"{head}; {res.describe()}"


    # ------------------------------------------------------------------ proofs (checks/pepproof.py)
    def normal_form(self) -> "NormalForm":
        """The problem in the normalised units of :mod:`dpverify.sim.pep` (``L = 1``, ``R = 1`` or ``Delta = 1``)
        as SymPy expressions in the claim's symbols: the step ``h L`` (may use the index ``t``), ``mu/L``,
        the momentum, the statistic's scale (the bound's units), the horizon."""
        m = self.params.exprs
        ex = self.claim.expand
        L = ex(sp.sympify(m["smooth"]))
        r = ex(sp.sympify(m["init_dist" if self.init == "dist" else "init_gap"]))
        step = sp.simplify(ex(sp.sympify(m["step"])) * L)
        q = sp.simplify(ex(sp.sympify(m["curvature"])) / L) if "curvature" in m and \
            self.function_class in ("smooth_strongly_convex", "pl") else sp.Integer(0)
        beta = sp.simplify(ex(sp.sympify(m["momentum"]))) if "momentum" in m and self.method != "gd" else sp.Integer(0)
        stat = pep.AVERAGED.get(self.statistic, self.statistic)
        scale = ({"excess": L * r**2, "dist_sq": r**2, "grad_norm_sq": L**2 * r**2} if self.init == "dist" else
                 {"excess": r, "dist_sq": r / L, "grad_norm_sq": L * r})[stat]
        return NormalForm(step, q, beta, scale, ex(sp.sympify(m["horizon"])), self.params.index)

    def exact_spec(self, point: Mapping, steps=None):
        """The normalised problem at ``point`` (a dict of the claim's values) with exact rationals:
        ``(spec, scale)`` (``scale`` an exact SymPy number), or ``None`` where a normalised step, curvature or
        momentum is not rational there (a certificate needs rationals)."""
        nf = self.normal_form()
        subs = {s: exact_value(point[str(s)]) for s in nf.symbols() if str(s) in point}
        T = nf.horizon.subs(subs)
        if not (T.is_Integer and 0 <= int(T)):
            return None
        vals = []
        for k in range(1, int(T) + 1):
            h = nf.step.subs(subs).subs(nf.index, k)
            if not h.is_Rational:
                return None
            vals.append(Fraction(int(h.p), int(h.q)))
        q, beta = nf.q.subs(subs), nf.beta.subs(subs)
        if not (q.is_Rational and beta.is_Rational):
            return None
        spec = {"method": self.method, "function_class": self.function_class, "statistic": self.statistic,
                "init": self.init, "steps": vals, "q": Fraction(int(q.p), int(q.q)),
                "beta": Fraction(int(beta.p), int(beta.q))}
        return spec, nf.scale.subs(subs)


class NormalForm:
    """The normalised problem's parameters as SymPy expressions (:meth:`WorstCase.normal_form`)."""

    def __init__(self, step, q, beta, scale, horizon, index):
        self.step, self.q, self.beta, self.scale, self.horizon, self.index = step, q, beta, scale, horizon, index

    def symbols(self) -> set:
        out = set()
        for e in (self.step, self.q, self.beta, self.scale, self.horizon):
            out |= e.free_symbols
        return out - {self.index}


def exact_value(v):
    """A point's value as an exact SymPy number (a float's exact binary value)."""
    if isinstance(v, bool):
        raise TypeError("a boolean is not a parameter value")
    if isinstance(v, int):
        return sp.Integer(v)
    return sp.Rational(Fraction(float(v)))


def _key(inst) -> str:
    return repr(sorted((k, v) for k, v in dict(inst).items() if not isinstance(v, (list, dict))))


def worst_case(*, method: str = "gd", function_class: str, statistic: str, optimise: int = 0, samples: int = 40,
               max_horizon: int = MAX_HORIZON, proof_horizons: int | None = None, **params) -> WorstCase:
    """The worst case over a function class, in a claim's own symbols (module docstring). ``samples``:
    the points a search draws (each an SDP solve); ``optimise``: local optimiser starts after it;
    ``max_horizon``: the largest horizon measured; ``proof_horizons``: how many horizons, from the
    smallest, a proof certifies one by one (default ``max_horizon``; see ``checks/pepproof.py``)."""
    return WorstCase(params, method=method, function_class=function_class, statistic=statistic, optimise=optimise,
                     samples=samples, max_horizon=max_horizon, proof_horizons=proof_horizons)


__all__ = ["MAX_HORIZON", "NormalForm", "WorstCase", "exact_value", "worst_case"]
