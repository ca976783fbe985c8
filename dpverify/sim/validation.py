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
    "check_beta",
    "check_quadratic_inputs",
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


def check_beta(beta: object) -> float:
    """A momentum coefficient: *beta* as a float in ``[0, 1)``."""
    beta = check_real("beta", beta, nonnegative=True)
    if not beta < 1.0:
        raise ValueError(f"beta must be in [0, 1), got {beta!r}")
    return beta


# --------------------------------------------------------------------------- #
# Arguments of the exact moments on diagonal quadratics
# --------------------------------------------------------------------------- #


def _points(arr: np.ndarray, batched_ndim: int) -> int | None:
    """Return the leading (point) length of a batched input, else ``None``."""
    return arr.shape[0] if arr.ndim == batched_ndim else None


def check_quadratic_inputs(eigs, theta1, etas, noise_stds, theta_star):
    """Validate the inputs of the exact moments on diagonal quadratics and broadcast them to
    ``(P, D)`` / ``(P, T)``: returns ``(eigs, delta1, etas, etas * noise_stds)``, each input possibly
    carrying a leading axis of ``P`` parameter points."""
    eigs = check_array("eigs", eigs, ndim=(1, 2), nonnegative=True)
    theta1 = check_array("theta1", theta1, ndim=(1, 2))
    noise_stds = check_array("noise_stds", noise_stds, ndim=(1, 2), nonnegative=True, nonempty=False)
    etas = check_array("etas", etas, ndim=(0, 1, 2), nonnegative=True, nonempty=False)
    dim, T = eigs.shape[-1], noise_stds.shape[-1]
    if theta1.shape[-1] != dim:
        raise ValueError(f"theta1 must have last dimension D={dim} (from eigs), got shape {theta1.shape}")
    if etas.ndim > 0 and etas.shape[-1] != T:
        raise ValueError(f"etas must be a scalar or have last dimension T={T} (from noise_stds), "
                         f"got shape {etas.shape}")
    if theta_star is None:
        theta_star = np.zeros(dim)
    theta_star = check_array("theta_star", theta_star, ndim=(1, 2))
    if theta_star.shape[-1] != dim:
        raise ValueError(f"theta_star must have last dimension D={dim}, got shape {theta_star.shape}")

    named = {
        "eigs": _points(eigs, 2), "theta1": _points(theta1, 2),
        "theta_star": _points(theta_star, 2),
        "noise_stds": _points(noise_stds, 2), "etas": _points(etas, 2),
    }
    sizes = [(k, v) for k, v in named.items() if v is not None]
    ref, P = sizes[0] if sizes else ("eigs", 1)
    for key, size in sizes:
        if size != P:
            raise ValueError(f"{key} must have {P} parameter points like {ref}, got {size}")
    if P == 0:
        raise ValueError(f"eigs must describe at least one parameter point, got P={P}")
    eigs = np.broadcast_to(eigs, (P, dim))
    delta1 = np.broadcast_to(theta1 - theta_star, (P, dim))
    etas = np.broadcast_to(etas if etas.ndim > 0 else np.full(T, float(etas)), (P, T))
    noise_stds = np.broadcast_to(noise_stds, (P, T))
    return eigs, delta1, etas, etas * noise_stds
