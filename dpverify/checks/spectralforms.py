"""Expectations of noisy gradient descent on quadratics in closed form, per eigen-direction.

On a quadratic ``f = f* + 1/2 sum_i lam_i d_i^2`` (``d = theta - theta*``, eigenvalues ``lam_i`` in
``[lo, hi]``) with full gradients, a constant step ``eta`` and Gaussian noise of standard deviation
``s_t`` per coordinate, each direction moves on its own: ``d' = q d - eta s_t z`` with
``q = 1 - eta lam``, so after ``k`` steps

    E d_k^2 = P(k) d_0^2 + N(k),   P(k) = q^(2k),   N(k) = sum_{t=1..k} eta^2 s_t^2 q^(2(k - t))

(``N(k) = eta^2 s^2 (1 - q^(2k)) / (1 - q^2)`` for a constant ``s``). Every statistic the scenarios
measure is a sum over directions of ``w(lam) E d^2`` (``w = lam/2`` for the excess, ``1`` for the
squared distance, ``lam^2`` for the squared gradient norm), at the last iterate or averaged over the
iterates; the start's size is the sum of per-direction *energies* ``e_i``: ``lam d_0^2/2`` (a gap),
``d_0^2`` (a distance) or ``lam^2 d_0^2`` (a gradient norm). Hence

    E[statistic] = sum_i a(lam_i) e_i + b(lam_i),   sum_i e_i = S,   e_i >= 0,

and, being linear in the energies, its supremum over every spectrum in ``[lo, hi]^D`` and every split
of the start puts the whole energy on one direction:

    sup = sup_{lam, lam'} S a(lam) + b(lam) + (D - 1) b(lam')          (D >= 1 directions).

So the claim ``E[statistic] <= B`` holds on every quadratic of the class iff ``F(lam, lam') =
B - S a(lam) - b(lam) - (D - 1) b(lam') >= 0`` for every ``lam, lam'`` in ``[lo, hi]`` (divided by ``S`` for
a normalised statistic; with ``S`` any value in ``[0, S]`` when the start's size is an upper bound).
:func:`obligation` builds ``F`` from a *model* (a dict of SymPy expressions, below), and
:func:`identities` lists the closed forms it uses with the recursions that define them, which
:func:`check_identities` verifies (SymPy): the closed forms are not taken on trust.

Model keys: ``stat`` (excess, normalised_excess, increase, dist_sq, grad_norm_sq, avg_grad_norm_sq),
``start`` (gap, dist, grad), ``size`` (S), ``upto`` (the start's size is at most S), ``dim`` (D), ``lo``,
``hi``, ``step`` (eta, free of the index), ``noise`` (s_t, may use ``index``), ``index``, ``horizon`` (T, the
steps taken), ``rounds`` (``last``: after T steps; ``uniform``: averaged over the iterates after 1..T
steps; ``steps``: over 0..T-1 steps; ``all``: over 0..T steps, divided by T), ``extra`` (a per-coordinate
second moment added to the last iterate, e.g. output perturbation's noise), ``bound`` (B),
``lams`` (the two eigenvalue symbols), ``size_symbol`` (the symbol standing for the size when ``upto``).

This module imports SymPy alone: a proof's ``check.py`` embeds its source.
"""
import sympy as sp

WEIGHTS = {"excess": "lam/2", "normalised_excess": "lam/2", "increase": "lam/2", "dist_sq": "1",
           "grad_norm_sq": "lam^2", "avg_grad_norm_sq": "lam^2"}
STARTS = ("gap", "dist", "grad")
ROUNDS = ("last", "uniform", "steps", "all")


class ModelError(Exception):
    """A model outside what this module computes; the message says why."""


def _weight(stat, lam):
    return {"excess": lam / 2, "normalised_excess": lam / 2, "increase": lam / 2, "dist_sq": sp.Integer(1),
            "grad_norm_sq": lam ** 2, "avg_grad_norm_sq": lam ** 2}[stat]


def _per_energy(start, lam):
    """``d_0^2`` per unit of the start's energy in a direction of eigenvalue ``lam``."""
    return {"gap": 2 / lam, "dist": sp.Integer(1), "grad": 1 / lam ** 2}[start]


def closed_forms(model, lam, k):
    """The closed forms in the number of steps ``k`` (a symbol), per direction of eigenvalue ``lam``:
    ``P``, ``N`` (``None`` when the noise changes with the step: then ``Nsum`` is its sum), the partial
    sums ``SP(k) = sum_{j=1..k} P(j)``, ``SP0(k) = sum_{j=0..k} P(j)`` and, for a constant noise,
    ``SN(k) = sum_{j=1..k} N(j)``, ``SN0(k) = sum_{j=0..k} N(j)``."""
    eta, s, t = model["step"], model["noise"], model["index"]
    if eta.has(t):
        raise ModelError("the step changes with the step index: no closed form per direction")
    q = 1 - eta * lam
    out = {"q": q, "P": q ** (2 * k), "SP": q ** 2 * (1 - q ** (2 * k)) / (1 - q ** 2),
           "SP0": (1 - q ** (2 * k + 2)) / (1 - q ** 2)}
    if s.has(t):
        out["N"] = None
        out["Nsum"] = sp.Sum(eta ** 2 * s ** 2 * q ** (2 * (k - t)), (t, 1, k))
    else:
        c = eta ** 2 * s ** 2 / (1 - q ** 2)
        out["N"] = c * (1 - q ** (2 * k))
        out["SN"] = c * (k - out["SP"])
        out["SN0"] = c * (k + 1 - out["SP0"])
    return out


def per_direction(model, lam):
    """``(a(lam), b(lam))``: the statistic's coefficient of a direction's energy and its additive term."""
    stat, start, rounds = model["stat"], model["start"], model["rounds"]
    if stat not in WEIGHTS or start not in STARTS or rounds not in ROUNDS:
        raise ModelError(f"unknown statistic, start or rounds: {stat}, {start}, {rounds}")
    T = model["horizon"]
    k = sp.Symbol("_k", integer=True)
    cf = closed_forms(model, lam, k)
    at = lambda e, v: e.xreplace({k: v})  # noqa: E731
    if rounds == "last":
        P = at(cf["P"], T)
        N = at(cf["N"], T) if cf["N"] is not None else at(cf["Nsum"], T)
    else:
        if cf["N"] is None:
            raise ModelError("an average over iterates with a noise that changes with the step has no closed form here")
        if rounds == "uniform":
            P, N = at(cf["SP"], T) / T, at(cf["SN"], T) / T
        elif rounds == "steps":
            P, N = at(cf["SP0"], T - 1) / T, at(cf["SN0"], T - 1) / T
        else:
            P, N = at(cf["SP0"], T) / T, at(cf["SN0"], T) / T
    if stat == "increase":
        if rounds != "last":
            raise ModelError("the increase is a statistic of the last iterate")
        P = P - 1
    w = _weight(stat, lam)
    return w * P * _per_energy(start, lam), w * (N + model.get("extra", 0))


def obligation(model):
    """``F(lam, lam')``: the claim holds on every quadratic of the class iff ``F >= 0`` for every
    ``lam, lam'`` in ``[lo, hi]`` (module docstring)."""
    lam1, lam2 = model["lams"]
    a1, b1 = per_direction(model, lam1)
    _, b2 = per_direction(model, lam2)
    S = model["size_symbol"] if model.get("upto") else model["size"]
    D = model["dim"]
    total = S * a1 + b1 + (D - 1) * b2 if D != 1 else S * a1 + b1
    if model["stat"] == "normalised_excess":
        total = total / model["size"]
    return model["bound"] - total


def identities(model, lam):
    """The closed forms used, each with what defines it: ``(name, k, form, value at k = 0, step)`` for a
    symbol ``k``, meaning ``form(0) = value`` and ``form(k) = step`` (an expression of ``form(k - 1)``) for
    every integer ``k >= 1``; and the closed forms themselves (:func:`closed_forms`)."""
    k = sp.Symbol("_k", integer=True)
    cf = closed_forms(model, lam, k)
    eta, s = model["step"], model["noise"]
    q = cf["q"]
    prev = lambda e: e.xreplace({k: k - 1})  # noqa: E731
    one, zero = sp.Integer(1), sp.Integer(0)
    out = [("P", k, cf["P"], one, q ** 2 * prev(cf["P"])),
           ("SP", k, cf["SP"], zero, prev(cf["SP"]) + cf["P"]),
           ("SP0", k, cf["SP0"], one, prev(cf["SP0"]) + cf["P"])]
    if cf["N"] is not None:
        out += [("N", k, cf["N"], zero, q ** 2 * prev(cf["N"]) + eta ** 2 * s ** 2),
                ("SN", k, cf["SN"], zero, prev(cf["SN"]) + cf["N"]),
                ("SN0", k, cf["SN0"], zero, prev(cf["SN0"]) + cf["N"])]
    return out, cf


def _zero(e, q, k) -> bool:
    """Whether ``e`` is 0 as a rational function once every power ``q^(2k + c)`` (``c`` an integer) is
    written ``X q^c`` with one new symbol ``X`` (for an integer ``k`` and ``q != 0``, ``q^(2k + c) =
    q^(2k) q^c``)."""
    X = sp.Dummy("X")
    e = e.replace(lambda x: isinstance(x, sp.Pow) and x.base == q and (x.exp - 2 * k).is_Integer,
                  lambda x: X * q ** (x.exp - 2 * k))
    try:
        return sp.cancel(sp.together(e)) == 0 or sp.simplify(e) == 0
    except (TypeError, ValueError, RecursionError):
        return False


def check_identities(model, lam):
    """Verify every closed form :func:`per_direction` uses against its defining recursion (raise
    ModelError naming the first that fails): ``P(0) = 1``, ``P(k) = q^2 P(k - 1)``; ``N(0) = 0``,
    ``N(k) = q^2 N(k - 1) + eta^2 s^2`` (the variance recursion of ``d' = q d - eta s z``); the partial
    sums by their first value and their differences; the noise's sum with a step-dependent ``s_t``
    (``N(k) = sum_{t=1..k} eta^2 s_t^2 q^(2(k - t))``) by peeling its last term: it is ``eta^2 s_k^2``, and
    the others are ``q^2`` times those of ``N(k - 1)``."""
    forms, cf = identities(model, lam)
    q = cf["q"]
    for name, k, form, base, step in forms:
        if not _zero(form.xreplace({k: 0}) - base, q, k):
            raise ModelError(f"{name}(0) is not {base}")
        if not _zero(form - step, q, k):
            raise ModelError(f"{name}(k) does not satisfy its recursion")
    if cf["N"] is None:
        k = sp.Symbol("_k", integer=True)
        eta, s, t = model["step"], model["noise"], model["index"]
        q = cf["q"]
        term = eta ** 2 * s ** 2 * q ** (2 * (k - t))
        if cf["Nsum"] != sp.Sum(term, (t, 1, k)):
            raise ModelError("the noise's sum is not sum_{t=1..k} eta^2 s_t^2 q^(2(k - t))")
        if not _zero(term.xreplace({t: k}) - eta ** 2 * s.xreplace({t: k}) ** 2, q, k):
            raise ModelError("the noise sum's last term is not eta^2 s_k^2")
        if not _zero(term - q ** 2 * term.xreplace({k: k - 1}), q, k - t):
            raise ModelError("the noise sum's terms are not q^2 times those of one step fewer")
