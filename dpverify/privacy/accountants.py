"""Cross-checks with Google's ``dp_accounting`` (RDP and PLD accountants)."""
from __future__ import annotations

import collections
from typing import Sequence

import numpy as np

from ._checks import _as_sequence, _check_adjacency, _check_delta, _check_orders, _check_positive



def _effective_multipliers(noise_multipliers, adjacency: str) -> list:
    _check_adjacency(adjacency)
    zs = _as_sequence("noise_multipliers", noise_multipliers)
    for i, z in enumerate(zs):
        _check_positive(f"noise_multipliers[{i}]", z)
    scale = 1.0 if adjacency == "remove" else 0.5
    return [scale * float(z) for z in zs]


def _gaussian_composition_event(zs: Sequence[float]):
    import dp_accounting

    counts = collections.Counter(zs)
    return dp_accounting.ComposedDpEvent(
        [
            dp_accounting.SelfComposedDpEvent(dp_accounting.GaussianDpEvent(z), n)
            for z, n in sorted(counts.items())
        ]
    )


def dp_accounting_epsilon(
    noise_multipliers,
    delta,
    adjacency: str = "remove",
    accountant: str = "rdp",
    orders=None,
    value_discretization_interval: float = 1e-4,
) -> float:
    """Epsilon of a composition of Gaussian mechanisms via ``dp_accounting``.

    Composes ``GaussianDpEvent(z_t)`` for each step (identical multipliers are
    grouped into ``SelfComposedDpEvent``) with the neighbouring relation
    ``ADD_OR_REMOVE_ONE``; for ``adjacency="replace"`` the multiplier relative
    to the doubled sensitivity, ``z_t / 2``, is used (see module docstring for
    why ``REPLACE_ONE`` is not used).  For a budget filter, ``z_t = sigma_t``.

    Parameters
    ----------
    noise_multipliers : iterable of real > 0
        Noise std divided by the per-sample bound ``G/N``.
    delta : real in (0, 1)
    adjacency : {"remove", "replace"}
    accountant : {"rdp", "pld"}
        ``"rdp"``: ``RdpAccountant`` (conversion of
        [Canonne, Kamath & Steinke 2020, Prop. 12] at a finite set of orders);
        ``"pld"``: ``PLDAccountant`` (pessimistic discretisation, near-exact).
    orders : sequence of real > 1, optional
        RDP orders (``RdpAccountant`` default if ``None``); ``"rdp"`` only.
    value_discretization_interval : real > 0
        PLD discretisation; ``"pld"`` only.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        On a bad multiplier, ``delta``, ``adjacency``, ``accountant``, ``orders``
        or ``value_discretization_interval``.
    """
    import dp_accounting

    zs = _effective_multipliers(noise_multipliers, adjacency)
    _check_delta(delta)
    if accountant not in ("rdp", "pld"):
        raise ValueError(f"accountant must be 'rdp' or 'pld'. Found {accountant!r}.")
    relation = dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE
    if accountant == "rdp":
        kwargs = {} if orders is None else {"orders": [float(a) for a in _check_orders(orders)]}
        acc = dp_accounting.rdp.RdpAccountant(neighboring_relation=relation, **kwargs)
    else:
        _check_positive("value_discretization_interval", value_discretization_interval)
        acc = dp_accounting.pld.PLDAccountant(
            neighboring_relation=relation,
            value_discretization_interval=float(value_discretization_interval),
        )
    if not zs:
        return 0.0
    acc.compose(_gaussian_composition_event(zs))
    return float(acc.get_epsilon(float(delta)))


def dp_accounting_rdp(noise_multipliers, orders, adjacency: str = "remove") -> np.ndarray:
    """RDP curve of a composition of Gaussian mechanisms from ``dp_accounting``.

    Parameters
    ----------
    noise_multipliers : iterable of real > 0
    orders : sequence of real > 1
    adjacency : {"remove", "replace"}
        ``"replace"`` halves each multiplier (see :func:`dp_accounting_epsilon`).

    Returns
    -------
    numpy.ndarray
        ``RdpAccountant(orders).rdp`` after composing; should equal
        ``rdp_of_zcdp(sum_t 1/(2 z_t^2), orders)`` (Gaussian zCDP composed).

    Raises
    ------
    ValueError
        On a bad multiplier, order or ``adjacency``.
    """
    import dp_accounting

    zs = _effective_multipliers(noise_multipliers, adjacency)
    seq = [float(a) for a in _check_orders(orders)]
    acc = dp_accounting.rdp.RdpAccountant(
        orders=seq, neighboring_relation=dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE
    )
    if zs:
        acc.compose(_gaussian_composition_event(zs))
    return np.asarray(acc.rdp, dtype=float)
