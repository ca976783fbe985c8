"""The interface the checks use (:class:`Scenario`) and the scenario mapped onto a claim's symbols
(:class:`MappedScenario`).

A scenario draws instances from the class a statement assumes (Hypothesis strategies), maps each
instance to a point of the claim's parameters, and measures what the statement bounds. It knows
the simulator and the accountant, never a paper. :class:`Scenario` declares every method a check
may call, with its contract; the checks call nothing else (no ``getattr``/``hasattr``).

A *parameter map* (:class:`~dpverify.scenarios.params.ParamMap`) says, in the user's own symbols, what
each of the scenario's parameters is: ``step=1/M``, ``noise_std=G*sigma[t]/N``, ``curvature=M/kappa``.
Per-step quantities may use the scenario's index symbol (``t``, from 1 to the horizon).

The rest of what every scenario shares has a module of its own: immutability (:mod:`.immutable`), Monte
Carlo points and data problems' fields (:mod:`.points`), the one Monte Carlo path (:mod:`.montecarlo`),
a quantity computed at the claim's point (:mod:`.point`).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

import sympy as sp

from .immutable import Immutable
from .montecarlo import MonteCarloPath
from .params import T_INDEX, ParamMap

__all__ = ["MappedScenario", "Scenario", "bind"]


def bind(scenario, claim):
    """``scenario`` ready for ``claim`` (see :meth:`Scenario.bind`)."""
    if not isinstance(scenario, Scenario):
        raise TypeError(f"a scenario must be a dpverify.scenarios.Scenario, got {scenario!r}")
    return scenario.bind(claim)


class Scenario(metaclass=Immutable):
    """The interface every check uses. Subclasses override what they support.

    Capabilities (class or instance attributes, fixed at construction):

    * ``supports_exact``: :meth:`exact` computes the expectation an :class:`ExpectationBound` bounds;
    * ``supports_monte_carlo``: :meth:`mc_instances` and :meth:`monte_carlo` estimate it;
    * ``name`` (the problem class), ``algorithm``, ``mc_name`` (the Monte Carlo problems): for the
      evidence;
    * ``search_runs`` (runs per measurement while searching a supremum), ``search_domain`` (the
      domain a local optimiser may move the instance's point in, or ``None``), ``optimise`` (local
      optimiser starts).

    Contracts (a check calls only these):

    * :meth:`bind` returns the scenario ready for one claim; never modifies ``self``;
    * :meth:`strategy`: a Hypothesis strategy of instances (JSON-able dicts), or ``None`` when the
      instance is the claim's point;
    * :meth:`point`: the claim's parameters at an instance; :meth:`with_point`: the instance moved
      to another point (taking that point's dimension and every other parameter);
    * :meth:`instance_at`: an instance realising a point, ``None`` when the point is outside the
      claim's hypotheses or the scenario cannot realise it;
    * :meth:`exact` / :meth:`exact_available`, :meth:`observe`: expectation statements (``dps``
      given: in mpmath at that precision);
    * :meth:`mc_instances` ``(seed)`` and :meth:`monte_carlo` ``(inst, runs, seed, chunk_runs) ->
      (mean, variance)``: the same seed gives bit-identical results; no noise gives the
      deterministic algorithm (variance 0); :meth:`rounding_tolerance` bounds the rounding of a
      deterministic run; :meth:`deterministic` says whether the run at an instance is the
      deterministic algorithm (the only case in which a variance of 0 means no sampling error);
      ``indicator`` says that the per-run statistic is 0 or 1 (its mean a probability);
    * :meth:`measure` ``(inst, runs, seed)``: supremum statements, a
      :class:`~dpverify.measured.Measured` (its direction: exact, lower or upper bound, estimate) or
      ``(value, variance)`` (variance 0 only when the measurement is deterministic); :meth:`refine`
      a sharper one when it could not decide;
    * :meth:`describe`: one line for the evidence.
    """

    name = "scenario"
    algorithm = ""
    mc_name = "none"
    supports_exact = False
    supports_monte_carlo = False
    search_runs = 2
    search_domain = None
    optimise = 3
    #: scenario parameters that scale the algorithm's noise (set to 0 they give the deterministic
    #: algorithm; the contract tests use them)
    NOISE: tuple = ()
    #: whether the Monte Carlo statistic of one run is an indicator (0 or 1), so that its mean is
    #: a probability with exact binomial bounds (``exceeds=`` statistics)
    indicator = False
    #: the :class:`~dpverify.verdict.Basis` kind of a supremum measured by this scenario, when it is
    #: not a search over instances (``None``: "worst-case"; e.g. "worst-over-class" for a
    #: performance-estimation SDP, whose value is the worst case over a whole function class)
    basis_kind = None
    #: the most points a supremum search draws on this scenario (``None``: the check's ``samples``);
    #: a scenario whose every measurement is expensive (an SDP solve) caps it
    search_samples = None
    #: the adversarial search over an instance's parameters (:meth:`perturb`): how many evaluations
    #: it may spend per statement (0: none), and the runs of each Monte Carlo evaluation in it (one
    #: seed for every instance: common random numbers)
    adversary_budget = 0
    adversary_runs = 64
    claim = None

    def proof_form(self):
        """The measured quantity as an exact closed form in the claim's symbols, for the privacy proof
        (:mod:`dpverify.checks.privacyproof`), or ``None`` (the default: it has none). A dict:
        ``{"kind": "gaussian-profile", "eps": e, "mu": m}`` (the Gaussian mechanism's exact profile
        ``delta(e)`` at ``mu = m``, decreasing in ``e`` and increasing in ``m``) or ``{"kind": "closed",
        "expr": x, "source": "..."}`` (a closed form and where it is proved)."""
        return None

    # ------------------------------------------------------------------ immutability
    def __setattr__(self, name, value):
        if self.__dict__.get("_frozen"):
            raise AttributeError(f"{type(self).__name__} is immutable: {name} cannot be set after construction "
                                 f"(use .evolve({name}=...) for a changed copy)")
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if self.__dict__.get("_frozen"):
            raise AttributeError(f"{type(self).__name__} is immutable: {name} cannot be deleted")
        object.__delattr__(self, name)

    def _copy(self):
        """An unfrozen shallow copy (for :meth:`bind` and :meth:`evolve`); freeze it with ``_freeze``."""
        c = object.__new__(type(self))
        c.__dict__.update(self.__dict__)
        c.__dict__["_frozen"] = False
        return c

    def _freeze(self):
        self.__dict__["_frozen"] = True
        return self

    def evolve(self, **changes):
        """A copy with the given attributes replaced (the original is unchanged)."""
        c = self._copy()
        if "_bound" in c.__dict__:   # a changed copy has its own cache of bound copies
            c._bound = {}
        for k, v in changes.items():
            setattr(c, k, v)
        return c._freeze()

    def with_search(self, strategy: Callable[[], Any], domain=None):
        """A copy that searches instances drawn by ``strategy()`` (a Hypothesis strategy factory),
        letting a local optimiser move them inside ``domain``."""
        return self.evolve(_search_strategy=strategy, search_domain=domain)

    # ------------------------------------------------------------------ binding
    def observables(self) -> tuple[str, ...]:
        """Names of the quantities :meth:`observe` measures, usable in a bound."""
        return ()

    def validate_for(self, claim) -> str | None:
        """Why this scenario cannot serve ``claim`` (one line), or ``None``."""
        return None

    def bind(self, claim):
        """This scenario ready for ``claim`` (a new object; ``self`` is unchanged)."""
        if self.claim is claim:
            return self
        b = self._copy()
        b.claim = claim
        b._on_bind()
        return b._freeze()

    def _on_bind(self) -> None:
        """Hook for subclasses: set derived attributes of a bound copy (e.g. compile a threshold)."""

    # ------------------------------------------------------------------ instances
    def strategy(self):
        """A Hypothesis strategy of instances, or ``None`` when the instance is the claim's point."""
        factory = self.__dict__.get("_search_strategy")
        return None if factory is None else factory()

    def point(self, inst) -> dict:
        """The claim's parameters at ``inst``."""
        return inst

    def with_point(self, inst, point):
        """``inst`` moved to ``point`` (every parameter, the dimension included, from ``point``)."""
        return self.instance_at(point)

    def instance_at(self, point):
        """An instance realising ``point``, or ``None`` (outside the claim's hypotheses, or not realisable)."""
        if self.claim is not None and not self.claim.domain.contains(point):
            return None
        return self.make_instance(point)

    def make_instance(self, point):
        """Hook of :meth:`instance_at` for a point inside the hypotheses (default: the point itself)."""
        return dict(point)

    def dimension(self, inst) -> int | None:
        """The dimension of the problem ``inst`` realises, or ``None`` where it has none."""
        return None

    def steps(self, inst) -> int | None:
        """How many iterations one measurement of ``inst`` runs (its cost grows with it), or ``None``
        where the scenario runs no iteration."""
        return None

    def describe(self, inst) -> str:
        return self.name

    # ------------------------------------------------------------------ expectations
    def observe(self, inst, dps=None) -> dict:
        return {}

    def exact_available(self, inst) -> bool:
        """Whether ``exact(inst, dps)`` computes the Monte Carlo statistic's expectation at ``inst``."""
        return False

    def exact(self, inst, dps=None):
        raise NotImplementedError(f"{type(self).__name__} has no exact expectation")

    def mc_instances(self, seed: int) -> list:
        """The Monte Carlo instances (default: none)."""
        return []

    def monte_carlo(self, inst, runs: int, seed: int, chunk_runs: int):
        raise NotImplementedError(f"{type(self).__name__} has no Monte Carlo")

    def rounding_tolerance(self, inst, value) -> float:
        """An absolute bound on the rounding of a deterministic (noise-free) run's statistic."""
        return 0.0

    def deterministic(self, inst) -> bool:
        """Whether a Monte Carlo run at ``inst`` is the deterministic algorithm (no noise, nothing
        else random), so that every run gives the same value. Default ``False``: a run is random,
        and a sample variance of 0 is a sample's accident, never a proof of no sampling error."""
        return False

    # ------------------------------------------------------------------ suprema
    def measure(self, inst, runs: int, seed: int):
        raise NotImplementedError(f"{type(self).__name__} measures nothing")

    def perturb(self, inst, rng, scale: float):
        """A neighbour of ``inst`` in the claim's problem class (its data, start or replaced sample
        moved by a step of relative size ``scale`` in (0, 1], drawn with the NumPy ``rng``), for the
        adversarial search (:func:`~dpverify.search.climb`); ``None`` when ``inst`` has no such
        parameters (the default)."""
        return None

    def refine(self, inst, bound: float):
        """A sharper :class:`~dpverify.measured.Measured` of ``inst`` when ``measure``'s could not be
        compared with ``bound``, or ``None`` (nothing sharper)."""
        return None


class MappedScenario(MonteCarloPath, Scenario):
    """A scenario whose parameters are mapped onto a claim's symbols (see :class:`ParamMap`).

    Subclasses declare ``REQUIRED``, ``OPTIONAL`` and ``STEPWISE`` parameter names and implement
    the measurement on the bound copy (``self.map`` is then a :class:`BoundMap` and
    ``self.claim`` the claim).

    Monte Carlo is one path for every subclass (:class:`~dpverify.scenarios.montecarlo.MonteCarloPath`):
    ``mc`` points (:class:`~dpverify.scenarios.points.MCPoint`, set with ``_set_mc_points`` in
    ``__init__``) are completed by :meth:`mc_instances`; a subclass says only how a data problem's
    constants are measured (:meth:`measured_constants`), which claim points they admit (:meth:`admits`),
    and how it runs (:meth:`monte_carlo`).
    """

    REQUIRED: tuple = ()
    OPTIONAL: tuple = ()
    STEPWISE: tuple = ()
    #: the order in which measured constants of a data problem assign claim parameters
    MEASURED_ORDER: tuple = ()
    mc_spec: tuple = ()
    #: the claim's names for quantities measured along a run -> what they measure (see ``observe``)
    observe_map: Mapping[str, str] = {}

    def __init__(self, params: Mapping[str, Any], index: sp.Symbol = T_INDEX):
        self.params = ParamMap(type(self).__name__, params, self.REQUIRED, self.OPTIONAL, self.STEPWISE, index)
        self.map = None
        self.claim = None
        self._bound: dict[str, "MappedScenario"] = {}

    def validate_for(self, claim) -> str | None:
        return self.params.validate_for(claim)

    def observables(self) -> tuple[str, ...]:
        return tuple(self.observe_map)

    def bind(self, claim):
        if self.claim is claim:
            return self
        key = claim.id + "#" + str(id(claim))
        b = self._bound.get(key)
        if b is None:
            b = self._copy()
            b._bound = {}
            b.claim = claim
            b.map = self.params.bind(claim)
            b._on_bind()
            b._freeze()
            self._bound[key] = b
        return b

    def steps(self, inst) -> int | None:
        """The horizon at ``inst`` where the scenario maps one (``horizon``), else ``None``."""
        if self.map is None or not self.map.has("horizon"):
            return None
        return int(round(float(self.map.scalar("horizon", self.point(inst)))))

    def with_params(self, **changes):
        """The scenario built again (unbound) with the given scenario parameters replaced; every
        option given at construction is kept."""
        args, kwargs = self._made_with
        if args:
            return type(self)({**dict(args[0]), **changes}, *args[1:], **kwargs)
        return type(self)(**{**kwargs, "params": {**dict(kwargs["params"]), **changes}})

    def dimension(self, inst) -> int | None:
        """The length of a quadratic instance's spectrum (``inst["u"]``); ``None`` for data problems."""
        if isinstance(inst, dict) and "u" in inst and "problem" not in inst:
            return len(inst["u"])
        return None

    def noise_free(self):
        """This scenario (unbound) with every ``NOISE`` parameter set to 0, or ``None`` when the
        algorithm has no such parameter or stays random without noise (e.g. mini-batch sampling)."""
        if not self.NOISE:
            return None
        return self.with_params(**{k: 0 for k in self.NOISE})

    def deterministic(self, inst) -> bool:
        """``True`` when every ``NOISE`` parameter is 0 at the instance's point and the algorithm
        has no other randomness (:meth:`noise_free` is not ``None``)."""
        self._require_bound()
        if not self.NOISE or self.noise_free() is None:
            return False
        pt = self.point(inst)
        return all(self._zero_at(key, pt) for key in self.NOISE)

    def _zero_at(self, key: str, pt: Mapping) -> bool:
        """Whether the scenario parameter ``key`` is 0 at ``pt`` (at every step, if per-step):
        symbolically where the point's scalars make it 0, else numerically over the horizon."""
        if key not in self.params.exprs:
            return True
        e = self.claim.expand(sp.sympify(self.params.exprs[key]))
        subs = {s: pt[s.name] for s in e.free_symbols
                if isinstance(s, sp.Symbol) and s.name in pt and not isinstance(pt[s.name], (list, tuple))}
        e = e.subs(subs)
        if e.is_zero:
            return True
        if e.is_zero is False and not e.free_symbols:
            return False
        try:
            T = int(round(float(self.map.scalar("horizon", pt)))) if self.map.has("horizon") else 1
            return all(float(v) == 0.0 for v in self.map.steps(key, pt, T))
        except (KeyError, TypeError, ValueError, ArithmeticError):
            return False

    def _require_bound(self):
        if self.map is None:
            raise RuntimeError(f"{type(self).__name__} must be bound to a claim first (dpverify.scenarios.bind)")

    def instances_from(self, build):
        """Instances: a point of the claim's domain, then ``build(point, draw)`` draws the rest (a build that
        returns None has no instance at that point: filter those out of the strategy, keeping its
        ``_dpverify_build`` tag, and the search's NumPy draws skip them too)."""
        self._require_bound()
        from hypothesis import strategies as st

        dom = self.claim.domain.strategy()

        @st.composite
        def inst(draw):
            return build(draw(dom), draw)

        strategy = inst()
        # dpverify.search.sample_points draws most of a large sample by NumPy: a point, then build
        strategy._dpverify_build = (self.claim.domain, build)
        return strategy
