"""Argument validation shared by the privacy modules (messages in dp-accounting's style:
``"delta must be in (0, 1). Found 2.0."``)."""
from __future__ import annotations

import math
import numbers
from typing import Iterable

import mpmath
import numpy as np

#: Supported neighbouring relations: remove one sample (fixed normaliser) or replace one sample.
ADJACENCIES = ("remove", "replace")

def _is_real(x) -> bool:
    """True for real scalars (int, float, numpy reals, Fraction, mpf), not bool."""
    if isinstance(x, (bool, np.bool_)):
        return False
    return isinstance(x, (numbers.Real, mpmath.mpf))


def _require_real(name: str, x) -> None:
    if not _is_real(x):
        raise ValueError(f"{name} must be a real number. Found {x!r}.")


def _is_nan(x) -> bool:
    return bool(mpmath.isnan(x)) if isinstance(x, mpmath.mpf) else math.isnan(float(x))


def _is_finite(x) -> bool:
    return bool(mpmath.isfinite(x)) if isinstance(x, mpmath.mpf) else math.isfinite(float(x))


def _check_positive(name: str, x) -> None:
    """Finite and > 0."""
    _require_real(name, x)
    if _is_nan(x) or not _is_finite(x) or not x > 0:
        raise ValueError(f"{name} must be positive and finite. Found {x}.")


def _check_nonnegative(name: str, x) -> None:
    """Finite and >= 0."""
    _require_real(name, x)
    if _is_nan(x) or not _is_finite(x) or not x >= 0:
        raise ValueError(f"{name} must be non-negative and finite. Found {x}.")


def _check_finite(name: str, x) -> None:
    _require_real(name, x)
    if _is_nan(x) or not _is_finite(x):
        raise ValueError(f"{name} must be finite. Found {x}.")


def _check_delta(x, name: str = "delta") -> None:
    _require_real(name, x)
    if _is_nan(x) or not 0 < x < 1:
        raise ValueError(f"{name} must be in (0, 1). Found {x}.")


def _check_adjacency(adjacency) -> None:
    if adjacency not in ADJACENCIES:
        raise ValueError(
            f"adjacency must be one of {ADJACENCIES}. Found {adjacency!r}."
        )


def _use_mp(*xs) -> bool:
    """Whether to compute with mpmath (any argument is an ``mpf``)."""
    return any(isinstance(x, mpmath.mpf) for x in xs)


def _as_sequence(name: str, xs) -> list:
    if isinstance(xs, (str, bytes)) or not isinstance(xs, Iterable):
        raise ValueError(f"{name} must be an iterable of real numbers. Found {xs!r}.")
    return list(xs)



def _check_orders(orders, *, allow_one: bool = False) -> list:
    if _is_real(orders):
        seq = [orders]
    else:
        seq = _as_sequence("orders", orders)
        if not seq:
            raise ValueError(f"orders must be non-empty. Found {orders!r}.")
    for i, a in enumerate(seq):
        name = "orders" if _is_real(orders) else f"orders[{i}]"
        _require_real(name, a)
        ok = (a >= 1) if allow_one else (a > 1)
        if _is_nan(a) or not _is_finite(a) or not ok:
            bound = "[1, inf)" if allow_one else "(1, inf)"
            raise ValueError(f"{name} must be in {bound}. Found {a}.")
    return seq

