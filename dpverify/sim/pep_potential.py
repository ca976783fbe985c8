"""Every horizon at once: one-step contractions (a potential) composed into a certificate for any horizon.

For gradient descent with a constant step, a *potential* ``V`` (the squared distance ``||x - x*||^2`` or the
gap ``f(x) - f*``) that contracts by ``rho`` in one step over the whole class (``V(x_{k+1}) <= rho V(x_k)``:
a one-step performance-estimation problem, :func:`rate`) gives, with a *final* constant (``stat(x) <= c_f V(x)``:
a problem of zero steps) and an *initial* one (``V(x_0) <= c_i init``), the bound ``c_f rho^T c_i`` for every
horizon ``T`` (Taylor, Van Scoy & Lessard 2018 search potentials by a fixed-size SDP; this is the simplest
family, a fixed quadratic or gap, whose SDP is the one-step PEP itself).

The pieces compose into an ordinary certificate of the ``T``-step problem (:func:`compose`): each one-step
certificate ``V(x_{k+1}) - rho V(x_k) = sum mu e - <S, G>`` is an identity in the Gram matrix, moved to the
iterates ``(x_k, x_{k+1})`` and weighted by ``c_f rho^(T-1-k)``; their sum, with the final and initial pieces,
is a ``T``-step certificate, checked by :func:`.pep_exact.check_upper` like any other (a reader's ``check.py``
checks it without knowing it was composed). A long horizon then costs no SDP: the contraction at ``T = 50``
has multipliers ``rho^49`` that no solver could resolve.

With the pieces symbolic in a parameter (:mod:`.pep_symbolic`), the bound ``c_f(p) rho(p)^T c_i(p)`` holds for
every ``T`` and every ``p`` of an interval.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from . import pep_exact as E

#: the potential's statistic and initial condition
POTENTIALS = {"dist": "dist_sq", "gap": "excess"}


def applies(spec: dict) -> bool:
    """Gradient descent with one constant step on a class with a minimiser."""
    steps = [Fraction(h) for h in spec["steps"]] if all(not hasattr(h, "free_symbols") for h in spec["steps"]) \
        else list(spec["steps"])
    return (spec["method"] == "gd" and spec["function_class"] in ("smooth_convex", "smooth_strongly_convex", "pl")
            and len(set(map(str, steps))) <= 1 and spec["statistic"] in ("excess", "dist_sq", "grad_norm_sq"))


def pieces(spec: dict, V: str) -> dict:
    """The three problems of the potential ``V`` for ``spec`` (its step): ``final`` (0 steps, statistic over
    ``V``), ``step`` (1 step, ``V`` over ``V``) and ``initial`` (0 steps, ``V`` over the initial condition;
    ``None`` when the initial condition is ``V`` itself)."""
    base = {k: spec[k] for k in ("method", "function_class")}
    base["q"] = spec.get("q", 0)
    h = spec["steps"][0] if spec["steps"] else 1
    out = {"final": {**base, "statistic": spec["statistic"], "init": V, "steps": []},
           "step": {**base, "statistic": POTENTIALS[V], "init": V, "steps": [h]},
           "initial": None if spec["init"] == V else {**base, "statistic": POTENTIALS[V], "init": spec["init"],
                                                       "steps": []}}
    if out["final"]["statistic"] == POTENTIALS[V]:
        out["final"] = None            # stat = V: c_f = 1
    return out


@dataclass
class Rate:
    """``c_f rho^T c_i`` with the certificates of its pieces (multipliers as key text -> Fraction)."""

    V: str
    rho: Fraction
    c_final: Fraction
    c_initial: Fraction
    step: dict
    final: dict | None
    initial: dict | None
    tight: bool
    #: the (normalised) step the one-step certificate is for
    h: Fraction = Fraction(1)

    def bound(self, T: int) -> Fraction:
        return self.c_final * self.rho**T * self.c_initial


def rate(spec: dict, V: str) -> Rate | None:
    """The potential ``V``'s certified pieces for ``spec`` (exact, at its rational step and curvature)."""
    from .pep_proof import certify

    if not applies(spec) or (V == "dist" and spec["function_class"] == "pl"):
        return None
    if spec["init"] != V and not (spec["init"] == "gap" and V == "dist" and spec["function_class"] ==
                                  "smooth_strongly_convex") and not (spec["init"] == "dist" and V == "gap"):
        return None
    p = pieces(spec, V)
    got = {}
    for name, sub in p.items():
        if sub is None:
            got[name] = None
            continue
        proof = certify(sub, None)
        if proof.upper is None:
            return None
        got[name] = proof
    rho = got["step"].upper_bound
    c_f = got["final"].upper_bound if got["final"] is not None else Fraction(1)
    c_i = got["initial"].upper_bound if got["initial"] is not None else Fraction(1)
    tight = all(g is None or (g.lower_bound is not None and g.lower_bound == g.upper_bound) for g in got.values())
    tight = tight and got["final"] is None and got["initial"] is None
    return Rate(V, rho, c_f, c_i, _mult(got["step"]), _mult(got["final"]), _mult(got["initial"]), tight,
                Fraction(spec["steps"][0]) if spec["steps"] else Fraction(1))


def _mult(proof):
    return None if proof is None else {k: Fraction(v) for k, v in proof.upper["multipliers"].items()}


def _moved(key: str, at: dict) -> str:
    """A one-step key (points 0, 1, * = -1) moved to the points ``at`` of the T-step problem."""
    parts = key.split(":")
    if parts[0] == "i":
        return ":".join(["i"] + [str(at[int(v)]) if int(v) != E.STAR else v for v in parts[1:]])
    if parts[0] in ("pl", "pl_low"):
        return f"{parts[0]}:{at[int(parts[1])]}"
    return key


def compose(r: Rate, T: int) -> dict:
    """The ``T``-step certificate (key text -> Fraction) of the bound ``r.bound(T)`` (module docstring). The
    T-step problem's points are its iterates ``0..T`` (gradient descent queries each once)."""
    out: dict = {}

    def add(mults, weight, at):
        for k, v in mults.items():
            if k == "init":
                continue
            key = _moved(k, at)
            out[key] = out.get(key, Fraction(0)) + weight * v

    c_f = r.c_final
    if r.final is not None:
        add(r.final, Fraction(1), {0: T})
    for k in range(T):
        add(r.step, c_f * r.rho ** (T - 1 - k), {0: k, 1: k + 1})
    if r.initial is not None:
        add(r.initial, c_f * r.rho**T, {0: 0})
    out["init"] = r.bound(T)
    return {k: v for k, v in out.items() if v}


__all__ = ["POTENTIALS", "Rate", "applies", "compose", "pieces", "rate"]
