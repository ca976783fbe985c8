"""Accountants: Google's ``dp_accounting`` RDP and PLD accountants applied to a ``DpEvent``.

Before an RDP accountant is built, :func:`.rdp_helpers.install` gives dp-accounting two faster helpers
that compute what its own compute (a memoised log binomial coefficient, a log-space addition without
``min``/``max`` calls), checked equal at install: the same curves, 2 to 2.5 times sooner.

The events come from :mod:`.mechanisms` (e.g. :func:`~.mechanisms.noisy_gd_event`) or from
``dp_accounting.dp_event`` directly; an accountant composes the event and reports the eps at a
delta (:func:`event_epsilon`) or the RDP curve (:func:`event_rdp`). The neighbouring relation is
dp-accounting's ``NeighboringRelation`` (``None``: ``ADD_OR_REMOVE_ONE``).
"""
from __future__ import annotations

import collections
import contextlib
import logging

import numpy as np

from . import rdp_helpers
from .validation import check_delta, check_orders, check_positive

__all__ = ["event_delta", "event_epsilon", "event_rdp"]

ACCOUNTANTS = ("rdp", "pld", "best")


def _relation(neighboring_relation):
    import dp_accounting

    if neighboring_relation is None:
        return dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE
    if not isinstance(neighboring_relation, dp_accounting.NeighboringRelation):
        raise ValueError("neighboring_relation must be a dp_accounting.NeighboringRelation or None. "
                         f"Found {neighboring_relation!r}.")
    return neighboring_relation


def _check_event(event):
    from dp_accounting import dp_event

    if not isinstance(event, dp_event.DpEvent):
        raise ValueError(f"event must be a dp_accounting DpEvent. Found {event!r}.")
    return event


@contextlib.contextmanager
def _quiet_absl():
    """Silence absl's warnings while the RDP accountant runs (it warns, harmlessly, about the
    orders it excludes)."""
    absl = logging.getLogger("absl")
    level = absl.level
    absl.setLevel(logging.ERROR)
    try:
        yield
    finally:
        absl.setLevel(level)


def event_epsilon(event, delta, *, accountant: str = "rdp", orders=None,
                  value_discretization_interval: float = 1e-4, neighboring_relation=None) -> float:
    """Epsilon at ``delta`` of a ``DpEvent`` from ``dp_accounting`` (an upper bound).

    Parameters
    ----------
    event : dp_accounting.DpEvent
        A ``NoOpDpEvent`` (nothing released) has eps 0 exactly.
    delta : real in (0, 1)
    accountant : {"rdp", "pld", "best"}
        ``"rdp"``: ``RdpAccountant`` (the conversion of [Canonne, Kamath & Steinke 2020, Prop. 12]
        at a finite set of orders); ``"pld"``: ``PLDAccountant`` (pessimistic discretisation,
        near-exact); ``"best"``: the smaller of the two (both are upper bounds).
    orders : sequence of real > 1, optional
        RDP orders (``RdpAccountant``'s default if ``None``).
    value_discretization_interval : real > 0
        PLD discretisation.
    neighboring_relation : dp_accounting.NeighboringRelation, optional
        ``None``: ``ADD_OR_REMOVE_ONE``.

    Raises
    ------
    ValueError
        On a bad ``event``, ``delta``, ``accountant``, ``orders``, ``value_discretization_interval``
        or ``neighboring_relation``.
    """
    check_delta(delta)
    accs = _composed(event, accountant, orders, value_discretization_interval, neighboring_relation)
    with _quiet_absl():
        return min((float(acc.get_epsilon(float(delta))) for acc in accs), default=0.0)


def event_delta(event, eps, *, accountant: str = "rdp", orders=None,
                value_discretization_interval: float = 1e-4, neighboring_relation=None) -> float:
    """Delta at ``eps`` of a ``DpEvent`` (an upper bound); the options are :func:`event_epsilon`'s."""
    if isinstance(eps, bool) or not isinstance(eps, (int, float, np.floating)) or not (float(eps) >= 0):
        raise ValueError(f"eps must be a number >= 0. Found {eps!r}.")
    accs = _composed(event, accountant, orders, value_discretization_interval, neighboring_relation)
    with _quiet_absl():
        return min((float(acc.get_delta(float(eps))) for acc in accs), default=0.0)


#: composed accountants kept per process, keyed by the event's repr and the options (LRU); they are
#: only read (``get_epsilon`` / ``get_delta``), never handed to a caller
_COMPOSED: collections.OrderedDict = collections.OrderedDict()
_COMPOSED_SIZE = 8      # a PLD accountant holds its whole distribution


def _composed(event, accountant, orders, value_discretization_interval, neighboring_relation):
    """The accountants ``accountant`` names, each with ``event`` composed (none for a NoOp event),
    memoised: a claim's checks ask the same composition again (a few percent of the calls, but the
    costliest: 0.9 s of the main job's CPU)."""
    _check_event(event)
    try:
        key = (repr(event), accountant, None if orders is None else tuple(float(a) for a in orders),
               repr(value_discretization_interval), repr(neighboring_relation))
    except (TypeError, ValueError):     # orders that are not numbers: _compose says which
        return _compose(event, accountant, orders, value_discretization_interval, neighboring_relation)
    accs = _COMPOSED.get(key)
    if accs is None:
        accs = _compose(event, accountant, orders, value_discretization_interval, neighboring_relation)
        _COMPOSED[key] = accs
        if len(_COMPOSED) > _COMPOSED_SIZE:
            _COMPOSED.popitem(last=False)
    else:
        _COMPOSED.move_to_end(key)
    return accs


def _compose(event, accountant, orders, value_discretization_interval, neighboring_relation):
    import dp_accounting

    if accountant not in ACCOUNTANTS:
        raise ValueError(f"accountant must be one of {ACCOUNTANTS}. Found {accountant!r}.")
    relation = _relation(neighboring_relation)
    kwargs = {} if orders is None else {"orders": [float(a) for a in check_orders(orders)]}
    check_positive("value_discretization_interval", value_discretization_interval)
    if isinstance(event, dp_accounting.NoOpDpEvent):
        return []
    out = []
    with _quiet_absl():
        if accountant in ("rdp", "best"):
            rdp_helpers.install()
            acc = dp_accounting.rdp.RdpAccountant(neighboring_relation=relation, **kwargs)
            acc.compose(event)
            out.append(acc)
        if accountant in ("pld", "best"):
            acc = dp_accounting.pld.PLDAccountant(
                neighboring_relation=relation, value_discretization_interval=float(value_discretization_interval))
            acc.compose(event)
            out.append(acc)
    return out


def event_rdp(event, orders, *, neighboring_relation=None) -> np.ndarray:
    """The RDP curve of a ``DpEvent`` at ``orders`` from dp-accounting's ``RdpAccountant``.

    For :func:`~.mechanisms.noisy_gd_event` this equals ``rdp_of_zcdp(sum_t 1/(2 z_t^2), orders)``
    (Gaussian zCDP composed); a ``NoOpDpEvent`` gives zeros.

    Raises
    ------
    ValueError
        On a bad ``event``, order or ``neighboring_relation``.
    """
    import dp_accounting

    _check_event(event)
    seq = check_orders(orders)
    rdp_helpers.install()
    acc = dp_accounting.rdp.RdpAccountant(orders=seq, neighboring_relation=_relation(neighboring_relation))
    with _quiet_absl():
        acc.compose(event)
    return np.asarray(acc.rdp, dtype=float)
