"""Input validation helpers shared by the simulator modules.

Every helper raises ``ValueError`` whose message names the offending
parameter and repeats the value it was given, e.g.
``ValueError("runs must be a positive integer, got 0")``.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = [
    "check_int",
    "check_real",
    "check_array",
    "check_seed",
]


def short(value: object) -> str:
    """Return a ``repr`` of *value* short enough for an error message."""
    text = repr(value)
    return text if len(text) <= 200 else text[:197] + "..."


def check_int(name: str, value: object, *, minimum: int = 1) -> int:
    """Return *value* as ``int`` if it is an integer ``>= minimum``.

    Booleans and floats (even integral ones) are rejected so that typos such
    as ``runs=1e5`` fail loudly instead of being silently truncated.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        kind = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise ValueError(f"{name} must be {kind}, got {short(value)}")
    value = int(value)
    if value < minimum:
        kind = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise ValueError(f"{name} must be {kind}, got {value!r}")
    return value


def check_real(
    name: str,
    value: object,
    *,
    positive: bool = False,
    nonnegative: bool = False,
    finite: bool = True,
    minimum: float | None = None,
    strict_minimum: bool = False,
) -> float:
    """Return *value* as ``float`` after checking sign / finiteness constraints."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number, got {short(value)}")
    out = float(value)
    if np.isnan(out):
        raise ValueError(f"{name} must not be NaN, got {short(value)}")
    if finite and not np.isfinite(out):
        raise ValueError(f"{name} must be finite, got {short(value)}")
    if positive and not out > 0:
        raise ValueError(f"{name} must be positive, got {short(value)}")
    if nonnegative and not out >= 0:
        raise ValueError(f"{name} must be non-negative, got {short(value)}")
    if minimum is not None:
        bad = out <= minimum if strict_minimum else out < minimum
        if bad:
            rel = ">" if strict_minimum else ">="
            raise ValueError(f"{name} must be {rel} {minimum}, got {short(value)}")
    return out


def check_array(
    name: str,
    value: object,
    *,
    ndim: int | tuple[int, ...] | None = None,
    shape: tuple[int | None, ...] | None = None,
    positive: bool = False,
    nonnegative: bool = False,
    finite: bool = True,
    nonempty: bool = True,
) -> np.ndarray:
    """Return *value* as a float64 array after checking shape and entries.

    Parameters
    ----------
    name : str
        Parameter name used in error messages.
    value : array_like
        The input.
    ndim : int or tuple of int, optional
        Allowed numbers of dimensions.
    shape : tuple, optional
        Required shape; ``None`` entries match any length.
    positive, nonnegative, finite, nonempty : bool
        Entry-wise constraints.
    """
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be an array of real numbers, got {short(value)}") from exc
    if ndim is not None:
        allowed = (ndim,) if isinstance(ndim, int) else tuple(ndim)
        if arr.ndim not in allowed:
            raise ValueError(
                f"{name} must have {' or '.join(map(str, allowed))} dimension(s), "
                f"got shape {arr.shape} from {short(value)}"
            )
    if shape is not None:
        if arr.ndim != len(shape) or any(
            want is not None and want != got for want, got in zip(shape, arr.shape)
        ):
            want_txt = "(" + ", ".join("*" if s is None else str(s) for s in shape) + ")"
            raise ValueError(f"{name} must have shape {want_txt}, got shape {arr.shape}")
    if nonempty and arr.size == 0:
        raise ValueError(f"{name} must be non-empty, got {short(value)}")
    if np.isnan(arr).any():
        raise ValueError(f"{name} must not contain NaN, got {short(value)}")
    if finite and not np.isfinite(arr).all():
        raise ValueError(f"{name} must be finite, got {short(value)}")
    if positive and not (arr > 0).all():
        raise ValueError(f"{name} must be positive entry-wise, got {short(value)}")
    if nonnegative and not (arr >= 0).all():
        raise ValueError(f"{name} must be non-negative entry-wise, got {short(value)}")
    return arr


def check_seed(seed: object) -> int:
    """Return *seed* as a non-negative ``int`` (what ``SeedSequence`` accepts)."""
    return check_int("seed", seed, minimum=0)


# --------------------------------------------------------------------------- #
# Arguments of the noisy gradient simulators
# --------------------------------------------------------------------------- #


def check_theta1(theta1: object, dim: int) -> np.ndarray:
    """The starting point, shape ``(dim,)``."""
    return check_array("theta1", theta1, shape=(dim,))


def check_etas(etas: object, T: int) -> np.ndarray:
    """Step sizes ``>= 0``: a scalar (repeated ``T`` times) or an array of length ``T``."""
    etas = check_array("etas", etas, ndim=(0, 1), nonnegative=True, nonempty=False)
    if etas.ndim == 0:
        return np.full(T, float(etas))
    if etas.shape[0] != T:
        raise ValueError(f"etas must be a scalar or have length T={T}, got length {etas.shape[0]}")
    return etas


def check_steps(etas: object, noise_stds: object) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(etas, noise_stds)`` as float arrays of equal length ``T = len(noise_stds) >= 0``."""
    noise_stds = check_array("noise_stds", noise_stds, ndim=1, nonnegative=True, nonempty=False)
    return check_etas(etas, len(noise_stds)), noise_stds


def check_statistic(statistic: object, problem: object):
    """The per-run statistic: *statistic* if callable, ``problem.excess`` if ``None``."""
    if statistic is None:
        return problem.excess
    if not callable(statistic):
        raise ValueError(f"statistic must be callable or None, got {short(statistic)}")
    return statistic


def check_runs(runs: object, seed: object, chunk_runs: object,
               workers: object = None) -> tuple[int, int]:
    """Validate the Monte Carlo arguments every simulator takes; return ``(runs, seed)``."""
    runs = check_int("runs", runs)
    seed = check_seed(seed)
    check_int("chunk_runs", chunk_runs)
    if workers is not None:
        check_int("workers", workers)
    return runs, seed
