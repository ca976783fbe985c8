"""Argument validation for privacy computations, in dp-accounting's message style
(``"delta must be in (0, 1). Found 2.0."``): every check raises ``ValueError`` naming the parameter
and the value it found. Public so that code built on the privacy modules validates the same way."""
from __future__ import annotations

import math
import numbers
from typing import Iterable

import mpmath
import numpy as np

#: Supported neighbouring relations: remove one sample (fixed normaliser) or replace one sample.
ADJACENCIES = ("remove", "replace")


def is_real(x) -> bool:
    """True for real scalars (int, float, numpy reals, Fraction, mpf), not bool."""
    if isinstance(x, (bool, np.bool_)):
        return False
    return isinstance(x, (numbers.Real, mpmath.mpf))


def _require_real(name: str, x) -> None:
    if not is_real(x):
        raise ValueError(f"{name} must be a real number. Found {x!r}.")


def _is_nan(x) -> bool:
    return bool(mpmath.isnan(x)) if isinstance(x, mpmath.mpf) else math.isnan(float(x))


def _is_finite(x) -> bool:
    return bool(mpmath.isfinite(x)) if isinstance(x, mpmath.mpf) else math.isfinite(float(x))


def check_positive(name: str, x) -> None:
    """Finite and > 0."""
    _require_real(name, x)
    if _is_nan(x) or not _is_finite(x) or not x > 0:
        raise ValueError(f"{name} must be positive and finite. Found {x}.")


def check_nonnegative(name: str, x) -> None:
    """Finite and >= 0."""
    _require_real(name, x)
    if _is_nan(x) or not _is_finite(x) or not x >= 0:
        raise ValueError(f"{name} must be non-negative and finite. Found {x}.")


def check_finite(name: str, x) -> None:
    """A real number, not nan nor infinite."""
    _require_real(name, x)
    if _is_nan(x) or not _is_finite(x):
        raise ValueError(f"{name} must be finite. Found {x}.")


def check_delta(x, name: str = "delta") -> None:
    """A real number in the open interval (0, 1)."""
    _require_real(name, x)
    if _is_nan(x) or not 0 < x < 1:
        raise ValueError(f"{name} must be in (0, 1). Found {x}.")


def check_adjacency(adjacency) -> None:
    """One of :data:`ADJACENCIES`."""
    if adjacency not in ADJACENCIES:
        raise ValueError(
            f"adjacency must be one of {ADJACENCIES}. Found {adjacency!r}."
        )


def uses_mpmath(*xs) -> bool:
    """Whether to compute with mpmath (any argument is an ``mpf``)."""
    return any(isinstance(x, mpmath.mpf) for x in xs)


def as_sequence(name: str, xs) -> list:
    """The iterable ``xs`` as a list (a string or a non-iterable is refused)."""
    if isinstance(xs, (str, bytes)) or not isinstance(xs, Iterable):
        raise ValueError(f"{name} must be an iterable of real numbers. Found {xs!r}.")
    return list(xs)


def check_positive_int(name: str, k) -> int:
    """An integer (Python or NumPy, not bool) >= 1; returned as ``int``."""
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral) or k < 1:
        raise ValueError(f"{name} must be a positive integer. Found {k!r}.")
    return int(k)


def check_orders(orders, *, allow_one: bool = False) -> list:
    """Renyi orders: one real or a non-empty iterable of reals, each in ``(1, inf)`` (``[1, inf)``
    with ``allow_one``); returned as a list."""
    if is_real(orders):
        seq = [orders]
    else:
        seq = as_sequence("orders", orders)
        if not seq:
            raise ValueError(f"orders must be non-empty. Found {orders!r}.")
    for i, a in enumerate(seq):
        name = "orders" if is_real(orders) else f"orders[{i}]"
        _require_real(name, a)
        ok = (a >= 1) if allow_one else (a > 1)
        if _is_nan(a) or not _is_finite(a) or not ok:
            bound = "[1, inf)" if allow_one else "(1, inf)"
            raise ValueError(f"{name} must be in {bound}. Found {a}.")
    return seq


__all__ = ["ADJACENCIES", "as_sequence", "check_adjacency", "check_delta", "check_finite", "check_nonnegative",
           "check_orders", "check_positive", "check_positive_int", "is_real", "uses_mpmath"]
