"""Proofs of worst-case bounds for one normalised problem: rational certificates, checked exactly, kept by content.

:func:`certify` takes a normalised problem (:mod:`.pep_exact`'s ``spec``: ``L = 1``, the steps and the
curvature as exact rationals) and a claimed bound ``b`` on it (an exact SymPy number, or ``None``), and
returns a :class:`Proof`:

* ``upper``: rational multipliers proving ``worst case <= upper.bound`` (checked by
  :func:`.pep_exact.check_upper`); it proves the claim when ``upper.bound <= b``;
* ``lower``: a rational worst function whose statistic is ``lower.value`` (checked by
  :func:`.pep_exact.check_lower` against every constraint); on a class with interpolation conditions it
  refutes the claim when ``lower.value > b``, and with ``upper.bound == lower.value == b`` the bound is
  *attained*: tight.

The SDP is solved by :mod:`.pep_direct` (constraint generation), the certificates are rounded by
:mod:`.pep_rational`; where the first worst function does not meet the claimed bound, the extreme
quadratics of the class (curvature ``mu`` and ``L`` in one dimension) are tried too, which are the worst
functions of many contractions and are exact where a solver's numbers are not.

**Kept by content.** A proof is stored as JSON under ``<cache>/pep/<sha256 of the problem and bound>.json``
(the verdict cache's folder, ``$DPVERIFY_CACHE_DIR`` or ``./.dpverify_cache``; ``DPVERIFY_CACHE=0`` turns
it off), and in memory for the process. A stored proof is *checked again* when read (the exact checks cost
a fraction of a solve): nothing read from disk is trusted.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import threading
import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from . import pep_exact as E

#: bumped when a proof's meaning or format changes (part of the store's key)
FORMAT = 1
_LOCK = threading.Lock()


@dataclass
class Proof:
    """What :func:`certify` established for one normalised problem (module docstring)."""

    spec: dict
    upper: dict | None = None        # {"multipliers": {key: "p/q"}, "bound": "p/q"}
    lower: dict | None = None        # {"x0": [...], "grads": [[...]], "values": [...], "value": "p/q"}
    notes: list = field(default_factory=list)
    seconds: float = 0.0
    cached: bool = False

    @property
    def upper_bound(self) -> Fraction | None:
        return None if self.upper is None else Fraction(self.upper["bound"])

    @property
    def lower_bound(self) -> Fraction | None:
        return None if self.lower is None else Fraction(self.lower["value"])

    @property
    def digest(self) -> str:
        return hashlib.sha256(json.dumps({"upper": self.upper, "lower": self.lower}, sort_keys=True)
                              .encode()).hexdigest()[:16]

    def to_json(self) -> dict:
        return {"spec": spec_json(self.spec), "upper": self.upper, "lower": self.lower, "notes": self.notes}


def spec_json(spec: dict) -> dict:
    """``spec`` with its numbers as exact ``"p/q"`` strings (a stable, JSON-able form)."""
    out = {k: spec[k] for k in ("method", "function_class", "statistic", "init")}
    out["steps"] = [str(Fraction(h)) for h in spec["steps"]]
    out["q"] = str(Fraction(spec.get("q", 0)))
    out["beta"] = str(Fraction(spec.get("beta", 0)))
    return out


def spec_from_json(d: dict) -> dict:
    return {"method": d["method"], "function_class": d["function_class"], "statistic": d["statistic"],
            "init": d["init"], "steps": [Fraction(h) for h in d["steps"]], "q": Fraction(d["q"]),
            "beta": Fraction(d["beta"])}


def _store_dir() -> Path | None:
    if os.environ.get("DPVERIFY_CACHE", "").strip() == "0":
        return None
    base = os.environ.get("DPVERIFY_CACHE_DIR", "").strip()
    return Path(base or ".dpverify_cache") / "pep"


def _key(spec, bound) -> str:
    text = json.dumps({"format": FORMAT, "spec": spec_json(spec), "bound": None if bound is None else str(bound)},
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def fmpq_field(v):
    import flint

    v = Fraction(v)
    return flint.fmpq(v.numerator, v.denominator)


def recheck(spec, proof_json: dict) -> Proof:
    """A proof read back (from the store, or a certificate), its parts checked exactly again; a part that
    fails is dropped (with a note)."""
    proof = Proof(spec, notes=list(proof_json.get("notes", [])))
    up, lo = proof_json.get("upper"), proof_json.get("lower")
    if up is not None:
        try:
            bound, _ = E.check_upper(spec, {k: Fraction(v) for k, v in up["multipliers"].items()}, field=fmpq_field)
            if bound == Fraction(up["bound"]):
                proof.upper = up
        except (ValueError, KeyError, TypeError, ZeroDivisionError):
            proof.notes.append("a stored upper certificate failed its check and was dropped")
    if lo is not None:
        try:
            if spec["function_class"] == "smooth":
                value = E.check_smooth(spec, lo["x0"], lo["grads"], lo["values"], lo["function"])
            else:
                value = E.check_lower(spec, lo["x0"], lo["grads"], lo["values"])
            if value == Fraction(lo["value"]):
                proof.lower = lo
        except (ValueError, KeyError, TypeError, ZeroDivisionError, IndexError):
            proof.notes.append("a stored worst function failed its check and was dropped")
    return proof


def certify(spec: dict, bound=None) -> Proof:
    """The proof of ``spec``'s worst case against ``bound`` (module docstring); never raises on a solver's
    failure (the proof then has no part, and a note)."""
    key = _key(spec, bound)
    with _LOCK:
        return _certify(key, _freeze(spec), bound)


def _freeze(spec):
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in spec.items()))


@functools.lru_cache(maxsize=2048)
def _certify(key, frozen, bound) -> Proof:
    spec = {k: list(v) if isinstance(v, tuple) else v for k, v in frozen}
    folder = _store_dir()
    path = folder / f"{key}.json" if folder is not None else None
    if path is not None and path.is_file():
        try:
            stored = json.loads(path.read_text())
            if stored.get("key") == key:
                proof = recheck(spec, stored)
                proof.cached = True
                return proof
        except (OSError, ValueError):
            pass
    t0 = time.perf_counter()
    proof = _solve_and_round(spec, bound)
    proof.seconds = time.perf_counter() - t0
    if path is not None and (proof.upper is not None or proof.lower is not None):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps({"key": key, **proof.to_json()}, sort_keys=True))
            os.replace(tmp, path)
        except OSError:
            pass
    return proof


def _exact_bound(bound):
    """``bound`` as a Fraction when it is rational, else ``None``."""
    if bound is None:
        return None
    try:
        import sympy as sp

        b = sp.nsimplify(bound) if not isinstance(bound, (int, Fraction)) else sp.Rational(bound)
        if b.is_Rational:
            return Fraction(int(b.p), int(b.q))
    except (TypeError, ValueError, AttributeError):
        return None
    return None


def _solve_and_round(spec, bound) -> Proof:
    from . import pep_direct as D
    from . import pep_rational as R

    proof = Proof(spec)
    target = _exact_bound(bound)
    sym = E.Symbolic(spec["function_class"] != "smooth")
    E.constraints(spec, sym, only=set())
    quads = list(extreme_quadratics(spec, sym))
    found = {}

    def worst(sol, mix=False):
        """The best checked worst function at this solution: an extreme quadratic if it meets the solver's
        value, else the solution rounded."""
        low = max(quads, key=lambda c: c.value) if quads else None
        close = low is not None and abs(float(low.value) - sol.value) <= 1e-7 * max(1.0, abs(sol.value))
        if not close and not (target is not None and low is not None and low.value == target):
            cand = R.lower(spec, sym, sol.G, target, mix=mix and spec["function_class"] != "smooth")
            if cand is not None and (low is None or cand.value > low.value or cand.value == target):
                low = cand
        return low

    def enough(sol):
        low = found[id(sol)] = worst(sol)
        return low is not None and abs(float(low.value) - sol.bound) <= 1e-7 * max(1.0, abs(sol.bound))

    try:
        num = D.Numeric(spec)
        sol = num.solve(enough=enough)
    except Exception as exc:  # noqa: BLE001 - a solver's failure is reported, never a verdict
        proof.notes.append(f"the SDP was not solved ({type(exc).__name__}: {exc})")
        return proof
    proof.notes.extend(sol.notes)
    low = found[id(sol)] if id(sol) in found else worst(sol)
    if low is None and target is not None and sol.value > float(target):
        low = worst(sol, mix=True)         # refuting needs a worst function even where rounding fails
    interpolating = spec["function_class"] in ("smooth_convex", "smooth_strongly_convex")
    if spec["function_class"] == "smooth":        # a worst function of the class needs the function itself
        from .pep_smooth import build

        def accept(cand):
            fn = build(spec, cand.x0, cand.grads, cand.values)
            if fn is None:
                return False
            try:
                E.check_smooth(spec, cand.x0, cand.grads, cand.values, fn)
            except ValueError:
                return False
            cand.function = fn
            return True

        smooth_low = R.lower(spec, sym, sol.G, target, mix=False, accept=accept)
        if smooth_low is not None:
            proof.lower = smooth_low.to_json()
    up = None
    # an exact optimal point (of the class, or of the relaxation of a class without interpolation conditions)
    # fixes the kernel of S: complementary slackness
    if low is not None and low.mixed == 0 and abs(float(low.value) - sol.bound) <= 1e-6 * max(1.0, abs(sol.bound)):
        kernel = R.kernel_of(spec, low, num.n)
        up = R.upper(spec, num, sol, kernel=kernel, bound=low.value, witness=low)
        if up is None:
            up = R.upper(spec, num, sol, kernel=kernel, witness=low)
    if up is None:
        up = R.upper(spec, num, sol)
    if up is not None:
        proof.upper = up.to_json()
    if low is not None and interpolating:
        proof.lower = low.to_json()
        if low.mixed:
            proof.notes.append(f"the worst function was mixed with a strictly feasible one (share {float(low.mixed):.2g})")
    return proof


def extreme_quadratics(spec, sym):
    """The quadratics ``a/2 ||x - x*||^2`` of curvature ``a = mu`` and ``a = L`` from ``||x_0 - x*|| = 1`` (or
    ``f(x_0) - f* = 1``: ``||x_0 - x*||^2 = 2/a``, a sum of four rational squares), checked like any worst
    function (classes with interpolation conditions)."""
    from . import pep_rational as R

    cls = spec["function_class"]
    if cls not in ("smooth_convex", "smooth_strongly_convex"):
        return
    q = Fraction(spec.get("q", 0)) if cls == "smooth_strongly_convex" else Fraction(0)
    for a in (q, Fraction(1)):
        if a <= 0:
            continue
        x0 = [Fraction(1)] if spec["init"] == "dist" else R.four_squares(Fraction(2) / a)
        if x0 is None:
            continue
        r = len(x0)
        grads = R.run_affine(spec, sym.calls, x0, [[a if i == j else Fraction(0) for j in range(r)] for i in range(r)],
                             [Fraction(0)] * r)
        values = [sum(v * v for v in g) / (2 * a) for g in grads]
        try:
            value = E.check_lower(spec, x0, grads, values)
        except ValueError:
            continue
        yield R.Lower(x0, grads, values, value)


__all__ = ["FORMAT", "Proof", "certify", "extreme_quadratics", "fmpq_field", "recheck", "spec_from_json", "spec_json"]
