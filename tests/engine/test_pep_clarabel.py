"""The direct Clarabel wrapper of the performance-estimation SDPs (``dpverify.sim.pep_clarabel``) builds
the conic program CVXPY builds, bit for bit, and returns what PEPit's CVXPY wrapper returns, bit for
bit: every field of ``worst_case``'s result, the Gram matrix, each constraint's multiplier and the
dual residual. The problems cover every method, class, statistic and initial condition
``worst_case`` accepts, at drawn steps, curvatures, momenta and horizons 0-6 (seeded)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from dpverify.sim import pep

cvxpy = pytest.importorskip("cvxpy")


def _bits(a) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(a, dtype=float)).view(np.int64)


def _valid(*combo) -> bool:
    try:
        pep.validate(*combo)
    except TypeError:
        return False
    return True


def _cases():
    rng = np.random.default_rng(20261128)
    combos = [combo for combo in itertools.product(pep.METHODS, pep.CLASSES, pep.STATISTICS, pep.INITS) if _valid(*combo)]
    out = []
    for _ in range(48):
        method, cls, stat, init = combos[int(rng.integers(len(combos)))]
        T = int(rng.integers(0, 7))
        steps = [float(h) for h in rng.uniform(0.05, 1.95, T)]
        mu = float(rng.uniform(0.01, 0.9))
        beta = float(rng.uniform(0.0, 0.9))
        out.append((method, cls, stat, init, steps, mu, beta))
    # problems whose dual residual has exact zeros off the diagonal, which CVXPY returns as +0.0
    out += [("gd", "smooth", "grad_norm_sq", "gap", [1.2], 0.1, 0.0),
            ("nesterov", "smooth", "grad_norm_sq", "gap", [1.0], 0.1, 0.3)]
    return out


def _solve(case, wrapper, monkeypatch):
    method, cls, stat, init, steps, mu, beta = case
    monkeypatch.setattr(pep, "WRAPPER", wrapper)
    pep._solve.cache_clear()
    try:
        return pep.worst_case(method, cls, stat, init, smooth=1.0, steps=steps, init_value=1.0, curvature=mu,
                              momentum=beta)
    except pep.PEPError as exc:
        return exc


CASES = _cases()


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}-{c[3]}-T{len(c[4])}" for c in CASES])
def test_same_result_as_cvxpy(case, monkeypatch):
    ours, theirs = _solve(case, "clarabel", monkeypatch), _solve(case, "cvxpy", monkeypatch)
    if isinstance(theirs, Exception):
        assert isinstance(ours, Exception) and str(ours) == str(theirs)
        return
    assert not isinstance(ours, Exception), ours
    for field in ("value", "lower", "upper", "primal", "dual", "primal_violation", "dual_residual"):
        assert _bits(getattr(ours, field)) == _bits(getattr(theirs, field)), field
    assert ours.exact == theirs.exact and ours.rank == theirs.rank
    assert np.array_equal(_bits(np.array(ours.iterates, dtype=float)), _bits(np.array(theirs.iterates, dtype=float)))
    assert "CVXPY's conic form, built directly" in ours.solver and "CVXPY CLARABEL" in theirs.solver


def _captured(monkeypatch, wrapper):
    """The PEPit problem and wrapper of the next solve through ``wrapper``."""
    from PEPit import PEP

    seen = {}
    solve = PEP.solve

    def spy(self, *a, **k):
        out = solve(self, *a, **k)
        seen["problem"] = self
        return out

    monkeypatch.setattr(PEP, "solve", spy)
    monkeypatch.setattr(pep, "WRAPPER", wrapper)
    return seen


@pytest.mark.parametrize("case", CASES[:14] + CASES[-2:], ids=[f"{c[0]}-{c[1]}-{c[2]}-T{len(c[4])}" for c in CASES[:14] + CASES[-2:]])
def test_same_program_and_multipliers_as_cvxpy(case, monkeypatch):
    """The data handed to Clarabel (``A`` with its sparsity, ``b``, ``c``, the cones) equals CVXPY's for
    the same PEP, and so do the Gram matrix, the function values, each multiplier and the residual."""
    method, cls, stat, init, steps, mu, beta = case
    got = {}
    for wrapper in ("cvxpy", "clarabel"):
        seen = _captured(monkeypatch, wrapper)
        res = _solve(case, wrapper, monkeypatch)
        if isinstance(res, Exception):
            pytest.skip(f"not solvable: {res}")
        prob = seen["problem"]
        got[wrapper] = (prob.wrapper, prob.G_value, prob.F_value, prob.residual,
                        [c.eval_dual() for c in prob._list_of_constraints_sent_to_wrapper])
    ours, theirs = got["clarabel"], got["cvxpy"]
    data = theirs[0].prob.get_problem_data(cvxpy.CLARABEL)[0]
    mine = ours[0]._data
    A, Ac = mine["A"], data["A"]
    assert A.shape == Ac.shape
    assert np.array_equal(A.indptr, Ac.indptr) and np.array_equal(A.indices, Ac.indices)
    assert np.array_equal(_bits(A.data), _bits(Ac.data))
    assert np.array_equal(_bits(mine["b"]), _bits(data["b"]))
    assert np.array_equal(_bits(mine["c"]), _bits(data["c"]))
    dims = data["dims"]
    assert (mine["zero"], mine["nonneg"], [mine["psd"]]) == (dims.zero, dims.nonneg, list(dims.psd))
    for k, name in ((1, "G"), (2, "F"), (3, "residual")):
        assert np.array_equal(_bits(ours[k]), _bits(theirs[k])), name
    assert np.array_equal(_bits(np.array(ours[4], dtype=float)), _bits(np.array(theirs[4], dtype=float)))


def test_refused_problem_goes_through_cvxpy(monkeypatch):
    """An LMI besides ``G >> 0`` is refused by the direct wrapper and solved through CVXPY: same value."""
    from PEPit import PEP
    from PEPit.functions import SmoothStronglyConvexFunction

    from dpverify.sim.pep_clarabel import ClarabelWrapper, Unsupported

    def build():
        problem = PEP()
        f = problem.declare_function(SmoothStronglyConvexFunction, L=1.0, mu=0.1)
        xs = f.stationary_point()
        x0 = problem.set_initial_point()
        problem.set_initial_condition((x0 - xs) ** 2 <= 1)
        x1 = x0 - 1.0 * f.gradient(x0)
        problem.add_psd_matrix([[(x1 - xs) ** 2, 0 * (x1 - xs) ** 2], [0 * (x1 - xs) ** 2, (x0 - xs) ** 2]])
        problem.set_performance_metric((x1 - xs) ** 2)
        return problem

    with pytest.raises(Unsupported):
        ClarabelWrapper().send_lmi_constraint_to_solver(None)
    value, via = pep._solve_sdp(build())
    assert via.startswith("CVXPY")
    reference = build().solve(wrapper="cvxpy", solver="CLARABEL", verbose=0)
    assert value == pytest.approx(reference, rel=1e-7)
    assert value == pytest.approx(0.81, rel=1e-6)      # (1 - mu)^2 with L = 1, mu = 0.1, step 1/L
