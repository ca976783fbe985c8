"""A measured number with its direction: what a check may conclude from it.

Every quantity a check compares with a claimed bound is one of

* **exact** with an error bound: the true value lies in ``[value - error, value + error]``
  (a closed form in mpmath, an exact expectation, an interval enclosure);
* a **lower bound** on the true value (an exact privacy profile at a sub-optimal order, an
  audit's Clopper-Pearson bound, a PLD optimistic estimate): it can refute ``value <= bound``,
  never support it;
* an **upper bound** on the true value (an RDP or PLD accountant's pessimistic answer): it can
  support ``value <= bound``, never refute it;
* an **estimate** with a confidence interval ``[lower, upper]`` at ``confidence``.

The rule of every check (``decide``): ``violated`` needs a valid lower bound above the claimed
bound, ``holds`` a valid upper bound at or below it (below it for a strict claim); anything else is
``inconclusive``. A difference not larger than the error is never a violation.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

KINDS = ("exact", "lower", "upper", "estimate")


@dataclass(frozen=True)
class Measured:
    """``value`` with a valid ``lower`` and ``upper`` bound on the true quantity, and its kind."""

    kind: str
    value: float
    lower: float
    upper: float
    confidence: float | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}. Found {self.kind!r}.")
        if not (self.lower <= self.value <= self.upper) and not any(map(math.isnan, (self.lower, self.value,
                                                                                     self.upper))):
            raise ValueError(f"need lower <= value <= upper. Found {self.lower!r}, {self.value!r}, {self.upper!r}.")

    # ------------------------------------------------------------------ constructors
    @classmethod
    def exact(cls, value: float, error: float = 0.0) -> "Measured":
        """An exact value known to within ``error`` (absolute)."""
        if not error >= 0:
            raise ValueError(f"error must be >= 0. Found {error!r}.")
        if error == 0:
            return cls("exact", value, value, value)
        # rounded outwards, so that an error below the spacing of doubles is not lost
        return cls("exact", value, math.nextafter(value - error, -math.inf), math.nextafter(value + error, math.inf))

    @classmethod
    def at_precision(cls, evaluate, dps: int = 30) -> "Measured":
        """An exact value from ``evaluate(digits)`` (a number computed in mpmath at ``digits``
        decimal digits), evaluated at ``dps`` and at ``2 dps`` digits: the error is the distance
        between the two plus the rounding of the second to a double. The precision then sits in
        the measurement, where a check can see it, instead of in a tolerance."""
        import mpmath

        if isinstance(dps, bool) or not isinstance(dps, int) or dps < 15:
            raise ValueError(f"dps must be an integer >= 15. Found {dps!r}.")
        with mpmath.workdps(2 * dps):
            lo_prec, hi_prec = mpmath.mpf(evaluate(dps)), mpmath.mpf(evaluate(2 * dps))
            if not (mpmath.isfinite(lo_prec) and mpmath.isfinite(hi_prec)):   # inf at both: exact
                return cls.exact(float(hi_prec)) if lo_prec == hi_prec else cls("exact", float(hi_prec),
                                                                                  -math.inf, math.inf)
            value = float(hi_prec)
            error = abs(hi_prec - lo_prec) + abs(hi_prec - value) + abs(hi_prec) * mpmath.mpf(10) ** (1 - 2 * dps)
            return cls.exact(value, math.nextafter(float(error), math.inf))

    @classmethod
    def lower_bound(cls, value: float) -> "Measured":
        """A valid lower bound on the true value (it can only refute ``true <= bound``)."""
        return cls("lower", value, value, math.inf)

    @classmethod
    def upper_bound(cls, value: float) -> "Measured":
        """A valid upper bound on the true value (it can only support ``true <= bound``)."""
        return cls("upper", value, -math.inf, value)

    @classmethod
    def estimate(cls, value: float, lower: float, upper: float, confidence: float) -> "Measured":
        """An estimate with a confidence interval ``[lower, upper]`` at level ``confidence``."""
        return cls("estimate", value, lower, upper, confidence)

    # ------------------------------------------------------------------ deciding
    def decide(self, bound: float, strict: bool = False) -> str:
        """``violated``, ``holds`` or ``inconclusive`` for the claim ``true <= bound``
        (``true < bound`` when ``strict``)."""
        if math.isnan(self.lower) or math.isnan(self.upper) or math.isnan(bound):
            return "inconclusive"
        if self.lower > bound or (strict and self.lower >= bound and self.kind == "exact" and self.lower == self.upper):
            return "violated"
        if self.upper < bound or (not strict and self.upper <= bound):
            return "holds"
        return "inconclusive"

    def describe(self) -> str:
        if self.kind == "exact":
            err = (self.upper - self.lower) / 2
            return f"{self.value:.6g}" + (f" +- {err:.2g}" if err else " (exact)")
        if self.kind == "lower":
            return f">= {self.value:.6g} (lower bound)"
        if self.kind == "upper":
            return f"<= {self.value:.6g} (upper bound)"
        return f"{self.value:.6g} in [{self.lower:.6g}, {self.upper:.6g}] at {self.confidence:g}"

    def to_json(self) -> dict:
        return {"kind": self.kind, "value": self.value, "lower": self.lower, "upper": self.upper,
                "confidence": self.confidence}


__all__ = ["KINDS", "Measured"]
