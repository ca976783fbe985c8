"""Accountants: Google's ``dp_accounting`` RDP and PLD accountants applied to a ``DpEvent``.

The events come from :mod:`.mechanisms` (e.g. :func:`~.mechanisms.noisy_gd_event`) or from
``dp_accounting.dp_event`` directly; an accountant composes the event and reports the eps at a
delta (:func:`event_epsilon`) or the RDP curve (:func:`event_rdp`). The neighbouring relation is
dp-accounting's ``NeighboringRelation`` (``None``: ``ADD_OR_REMOVE_ONE``).
"""
from __future__ import annotations

import contextlib
import logging
import math
from functools import lru_cache

import numpy as np

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


def _composed(event, accountant, orders, value_discretization_interval, neighboring_relation):
    """The accountants ``accountant`` names, each with ``event`` composed (none for a NoOp event)."""
    import dp_accounting

    _check_event(event)
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
            out.append(_rdp_accountant(event, relation, kwargs.get("orders")))
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
    relation = _relation(neighboring_relation)
    curve = _rdp_curve(event, relation, seq)
    if curve is not None:
        return np.asarray(curve.rdp, dtype=float)
    acc = dp_accounting.rdp.RdpAccountant(orders=seq, neighboring_relation=relation)
    with _quiet_absl():
        acc.compose(event)
    return np.asarray(acc.rdp, dtype=float)


# ----------------------------------------------------------------------------- RDP of sampled Gaussians
# dp-accounting's RdpAccountant computes the RDP of a Poisson-sampled Gaussian order by order in pure
# Python (three scalar gammaln calls and an erfc per term); a check's search asks for hundreds of (q, z).
# The functions below compute the same numbers -- the same floating-point operations in the same order,
# the independent terms as NumPy arrays (the same ufuncs, elementwise), the running log-sums term by term
# with ``math`` (dp-accounting's ``_log_add``, inlined) -- and tests/engine/test_privacy_memo.py holds
# them equal, bit for bit, to the accountant's. Events of any other shape go to the accountant itself.


def _log_a_int(q: float, sigma: float, alpha: int) -> float:
    """``log A_alpha`` of the sampled Gaussian at an integer order (0 < q < 1)."""
    from scipy import special

    i = np.arange(alpha + 1)
    log_coef = (special.gammaln(alpha + 1) - special.gammaln(i + 1) - special.gammaln(alpha - i + 1)
                + i * math.log(q) + (alpha - i) * math.log1p(-q))
    terms = (log_coef + (i * i - i) / (2 * (sigma**2))).tolist()
    log_a, ninf, exp, log1p = -np.inf, -np.inf, math.exp, math.log1p
    for s in terms:    # log_a = _log_add(log_a, s), inlined
        a, b = min(log_a, s), max(log_a, s)
        log_a = b if a == ninf else log1p(exp(a - b)) + b
    return log_a


_MAX_STEPS_LOG_A_FRAC = 1000


def _log_a_frac(q: float, sigma: float, alphas: np.ndarray) -> list:
    """``log A_alpha`` of the sampled Gaussian at each fractional order of ``alphas`` (0 < q < 1), summed until
    both tails' terms decrease and are 30 nats below the total, as dp-accounting does ([Mironov, Talwar &
    Zhang 2019, Sec. 3.3]); ``inf`` where that takes more than 1000 terms. The terms of all orders are
    computed a block of ``i`` at a time (rows: orders), then summed order by order."""
    from scipy import special

    z0 = sigma**2 * math.log(1 / q - 1) + 0.5
    log1mq, log_q = math.log1p(-q), math.log(q)
    two_var, root2_sigma = 2 * (sigma**2), math.sqrt(2) * sigma
    log_half, log_two = math.log(0.5), math.log(2)
    ninf, exp, log1p = -np.inf, math.exp, math.log1p
    alphas = np.asarray(alphas)
    out = [np.inf] * len(alphas)
    state = {k: [ninf, ninf, ninf, ninf] for k in range(len(alphas))}   # log_a0, log_a1, last_s0, last_s1
    start, chunk = 0, 16
    while state and start < _MAX_STEPS_LOG_A_FRAC:
        rows = sorted(state)
        alpha = alphas[rows][:, None]
        i = np.arange(start, min(start + chunk, _MAX_STEPS_LOG_A_FRAC))[None, :]
        log_coef = special.gammaln(alpha + 1) - special.gammaln(i + 1) - special.gammaln(alpha - i + 1)
        j = alpha - i
        log_e0 = log_half + (log_two + special.log_ndtr(-((i - z0) / root2_sigma) * 2**0.5))
        log_e1 = log_half + (log_two + special.log_ndtr(-((z0 - j) / root2_sigma) * 2**0.5))
        s0 = (log_coef + i * log_q + j * log1mq + (i * i - i) / two_var + log_e0).tolist()
        s1 = (log_coef + j * log_q + i * log1mq + (j * j - j) / two_var + log_e1).tolist()
        for r, k in enumerate(rows):
            log_a0, log_a1, last_s0, last_s1 = state[k]
            for log_s0, log_s1 in zip(s0[r], s1[r]):   # three _log_add's, inlined
                a, b = min(log_a0, log_s0), max(log_a0, log_s0)
                log_a0 = b if a == ninf else log1p(exp(a - b)) + b
                a, b = min(log_a1, log_s1), max(log_a1, log_s1)
                log_a1 = b if a == ninf else log1p(exp(a - b)) + b
                a, b = min(log_a0, log_a1), max(log_a0, log_a1)
                total = b if a == ninf else log1p(exp(a - b)) + b
                if log_s0 < last_s0 and log_s1 < last_s1 and max(log_s0, log_s1) < total - 30:
                    out[k] = total
                    del state[k]
                    break
                last_s0, last_s1 = log_s0, log_s1
            else:
                state[k] = [log_a0, log_a1, last_s0, last_s1]
        start, chunk = start + chunk, 2 * chunk
    for k in state:
        logging.getLogger("absl").warning(
            "_compute_log_a_frac failed to converge after %d iterations with q=%f, sigma=%f, alpha=%f. Excluding "
            "this order from the epsilon computation.", _MAX_STEPS_LOG_A_FRAC, q, sigma, alphas[k])
    return out


@lru_cache(maxsize=512, typed=True)
def _sampled_gaussian_rdp(q: float, sigma: float, orders_key: bytes, dtype: str) -> np.ndarray:
    """RDP at each order of one Poisson-sampled Gaussian (sampling ``q``, multiplier ``sigma``), memoised
    (a pure function of its exact arguments; the orders as the bytes of their array); read-only."""
    orders = np.frombuffer(orders_key, dtype=dtype)
    general = 0 < q < 1 and sigma != 0
    frac = [k for k, alpha in enumerate(orders) if general and not np.isinf(alpha) and not float(alpha).is_integer()]
    log_a_frac = dict(zip(frac, _log_a_frac(q, sigma, orders[frac]) if frac else []))

    def one(k, alpha):    # dp-accounting's compute_one_order
        if q == 0:
            return 0
        if np.isinf(alpha) or sigma == 0:
            return np.inf
        if q == 1.0:
            return alpha / (2 * sigma**2)
        log_a = log_a_frac[k] if k in log_a_frac else _log_a_int(q, sigma, int(alpha))
        return log_a / (alpha - 1)

    out = np.array([one(k, alpha) for k, alpha in enumerate(orders)])
    out.setflags(write=False)
    return out


class _RdpCurve:
    """A composed RDP curve with the ``RdpAccountant``'s ``get_epsilon`` / ``get_delta`` / ``rdp``."""

    def __init__(self, orders: np.ndarray, rdp: np.ndarray):
        self._orders, self._rdp = orders, rdp

    def get_epsilon(self, target_delta: float) -> float:
        from dp_accounting.rdp.rdp_privacy_accountant import compute_epsilon

        return compute_epsilon(self._orders, self._rdp, target_delta)[0]

    def get_delta(self, target_epsilon: float) -> float:
        from dp_accounting.rdp.rdp_privacy_accountant import compute_delta

        return compute_delta(self._orders, self._rdp, target_epsilon)[0]

    @property
    def rdp(self) -> np.ndarray:
        return np.copy(self._rdp)


def _rdp_leaves(event, count, relation, out) -> bool:
    """Append ``(count, q, sigma)`` for each (sampled) Gaussian of ``event`` in the accountant's order of
    composition; False if the event has a part this fast path does not take (then the accountant does)."""
    import dp_accounting
    from dp_accounting import dp_event

    if isinstance(event, dp_event.NoOpDpEvent):
        return True
    if isinstance(event, dp_event.SelfComposedDpEvent):
        return _rdp_leaves(event.event, event.count * count, relation, out)
    if isinstance(event, dp_event.ComposedDpEvent):
        return all(_rdp_leaves(e, count, relation, out) for e in event.events)
    if isinstance(event, dp_event.GaussianDpEvent):
        sigma, q = event.noise_multiplier, 1.0
    elif (isinstance(event, dp_event.PoissonSampledDpEvent) and isinstance(event.event, dp_event.GaussianDpEvent)
          and relation in (dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE,
                           dp_accounting.NeighboringRelation.REPLACE_SPECIAL)):
        sigma, q = event.event.noise_multiplier, event.sampling_probability
    else:
        return False
    if not (isinstance(q, float) and isinstance(sigma, float) and 0 <= q <= 1 and sigma >= 0):
        return False
    out.append((count, q, sigma))
    return True


def _rdp_curve(event, relation, orders=None):
    """``event`` composed as dp-accounting's ``RdpAccountant(orders)`` composes it (the same numbers),
    or None for an event outside the fast path."""
    from dp_accounting.rdp.rdp_privacy_accountant import DEFAULT_RDP_ORDERS

    leaves = []
    if not _rdp_leaves(event, 1, relation, leaves):
        return None
    orders = np.array(DEFAULT_RDP_ORDERS if orders is None else orders)
    rdp = np.zeros_like(orders, dtype=np.float64)
    key = (orders.tobytes(), orders.dtype.str)
    for count, q, sigma in leaves:
        rdp += count * _sampled_gaussian_rdp(q, sigma, *key)
    return _RdpCurve(orders, rdp)


def _rdp_accountant(event, relation, orders=None):
    """dp-accounting's ``RdpAccountant`` with ``event`` composed, or the same curve from the fast path."""
    import dp_accounting

    curve = _rdp_curve(event, relation, orders)
    if curve is not None:
        return curve
    acc = dp_accounting.rdp.RdpAccountant(neighboring_relation=relation,
                                          **({} if orders is None else {"orders": orders}))
    acc.compose(event)
    return acc
