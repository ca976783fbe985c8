"""A PEPit problem handed to Clarabel directly, as the conic program CVXPY would build from it.

PEPit's CVXPY wrapper turns each scalar constraint into a CVXPY expression, and CVXPY then
canonicalises the whole problem before Clarabel sees it. On the problems of :mod:`.pep` that is most of
a solve (``python benchmarks/pep_solve.py`` prints the ratio: a quarter to a seventh of the time without
it). The program is simple enough to write down at once from PEPit's own matrices
(``expression_to_matrices``):

* the variables are ``F`` (one per function value, PEPit's order) followed by the upper triangle of
  the Gram matrix ``G``, row by row;
* the rows are the equality constraints (Clarabel's zero cone), then the inequalities (its
  non-negative cone), each in PEPit's order, then ``G >> 0`` as Clarabel's PSD triangle cone (the
  upper triangle column by column, off-diagonal entries scaled by ``sqrt 2``);
* a constraint ``<W, G> + f . F + c <= 0`` (``W`` symmetric) is the row ``(f, W_ii, W_ij + W_ji)``
  with right-hand side ``-c``; the objective (a function value PEPit adds) is minimised negated.

This is CVXPY's own layout, and ``tests/engine/test_pep_clarabel.py`` checks it bit for bit against
``cvxpy.Problem.get_problem_data`` and checks that the two wrappers return the same bits (values,
Gram matrix, every multiplier, the dual residual). The solver is called with CVXPY's settings for
Clarabel (its defaults, quiet), and the solution is read back as CVXPY reads it.

What it does not handle, it refuses with :class:`Unsupported` (a PEPit LMI other than ``G >> 0``, an
objective that is not a single function value, the dimension-reduction heuristics), and
:func:`.pep.worst_case` solves that problem through CVXPY instead.
"""
from __future__ import annotations

import numpy as np
import scipy.sparse as sps
from PEPit.constraint import Constraint
from PEPit.expression import Expression
from PEPit.point import Point
from PEPit.tools.expressions_to_matrices import expression_to_matrices
from PEPit.wrapper import Wrapper

#: Clarabel's statuses under CVXPY's names (``cvxpy.reductions.solvers.conic_solvers.clarabel_conif``)
STATUS = {"Solved": "optimal", "AlmostSolved": "optimal_inaccurate", "PrimalInfeasible": "infeasible",
          "DualInfeasible": "unbounded", "AlmostPrimalInfeasible": "infeasible_inaccurate",
          "AlmostDualInfeasible": "unbounded_inaccurate", "MaxIterations": "user_limit", "MaxTime": "user_limit",
          "NumericalError": "solver_error", "InsufficientProgress": "solver_error", "Unsolved": "solver_error"}
#: the statuses with a solution (CVXPY's ``SOLUTION_PRESENT``)
SOLUTION_PRESENT = ("optimal", "optimal_inaccurate")
#: the statuses CVXPY reports without raising (no solution, but a diagnosis)
DIAGNOSED = ("infeasible", "unbounded", "infeasible_inaccurate", "unbounded_inaccurate")


class Unsupported(NotImplementedError):
    """A PEP this wrapper does not write down (module docstring); solve it through CVXPY."""


class SolverError(RuntimeError):
    """Clarabel stopped without a solution or a diagnosis (CVXPY raises its ``SolverError`` here)."""


class _Status:
    """What :mod:`.pep` reads of a solved problem (``wrapper.prob.status``), as CVXPY's problem has it."""

    def __init__(self, status: str):
        self.status = status


class ClarabelWrapper(Wrapper):
    """PEPit's :class:`~PEPit.wrapper.Wrapper` for Clarabel without CVXPY (module docstring)."""

    def __init__(self, verbose: int = 0):
        super().__init__(verbose=verbose)
        self._rows: list[tuple[Constraint, np.ndarray, float]] = []
        self._n_points = self._n_values = 0

    def check_license(self) -> bool:
        return True

    def set_main_variables(self) -> None:
        self._n_points, self._n_values = Point.counter, Expression.counter
        self._iu = np.triu_indices(self._n_points)          # G's upper triangle, row by row
        self._off = self._iu[0] != self._iu[1]

    def _row(self, expression) -> tuple[np.ndarray, float]:
        """``(f, W_ii, W_ij + W_ji for i < j)`` over the variables, and the constant, of an expression."""
        Gw, Fw, cst = expression_to_matrices(expression)
        g = Gw[self._iu]
        g[self._off] = g[self._off] + Gw.T[self._iu][self._off]
        return np.concatenate([Fw, g]), cst

    def send_constraint_to_solver(self, constraint) -> None:
        if not isinstance(constraint, Constraint) or constraint.equality_or_inequality not in ("equality", "inequality"):
            raise Unsupported(f"a constraint {constraint!r}")
        self._list_of_constraints_sent_to_solver.append(constraint)
        row, cst = self._row(constraint.expression)
        self._rows.append((constraint, row, cst))

    def send_lmi_constraint_to_solver(self, psd_matrix) -> None:
        raise Unsupported("an LMI other than G >> 0")

    def generate_problem(self, objective) -> dict:
        """The conic program (module docstring): ``A``, ``b``, ``c`` and the cone sizes."""
        if not (isinstance(objective, Expression) and objective.get_is_leaf()):
            raise Unsupported("an objective that is not a single function value")
        self.objective = objective
        n = self._n_points
        eq = [(c, r, k) for c, r, k in self._rows if c.equality_or_inequality == "equality"]
        ineq = [(c, r, k) for c, r, k in self._rows if c.equality_or_inequality == "inequality"]
        self._order = [c for c, _, _ in eq] + [c for c, _, _ in ineq]
        n_vars = self._n_values + n * (n + 1) // 2
        # G >> 0: the upper triangle column by column, -1 on the diagonal and -sqrt(2) off it; entry
        # (i, j) of the triangle is variable m + (its rank in the row-by-row order of self._iu)
        col = {(i, j): self._n_values + k for k, (i, j) in enumerate(zip(*self._iu))}
        psd = np.zeros((n * (n + 1) // 2, n_vars))
        r = 0
        for j in range(n):
            for i in range(j + 1):
                psd[r, col[i, j]] = -1.0 if i == j else -np.sqrt(2)
                r += 1
        rows = [row for _, row, _ in eq + ineq]
        A = np.vstack(rows + [psd]) if rows else psd
        b = np.concatenate([np.array([-cst for _, _, cst in eq + ineq], dtype=float), np.zeros(len(psd))])
        c = np.zeros(n_vars)
        c[objective.counter] = -1.0
        self._data = {"A": sps.csc_array(A), "b": b, "c": c, "zero": len(eq), "nonneg": len(ineq), "psd": n}
        return self._data

    def solve(self, **kwargs):
        """Solve with Clarabel's default settings, quietly (as CVXPY calls it); ``(status, solver, value)``."""
        import clarabel

        if kwargs.get("solver", "CLARABEL") != "CLARABEL" or set(kwargs) - {"solver", "verbose"}:
            raise Unsupported(f"solver options {kwargs!r}")
        d = self._data
        cones = []
        if d["zero"]:
            cones.append(clarabel.ZeroConeT(d["zero"]))
        if d["nonneg"]:
            cones.append(clarabel.NonnegativeConeT(d["nonneg"]))
        cones.append(clarabel.PSDTriangleConeT(d["psd"]))
        settings = clarabel.DefaultSettings()
        settings.verbose = False
        n_vars = d["c"].size
        P = sps.triu(sps.csc_array((n_vars, n_vars))).tocsc()
        sol = clarabel.DefaultSolver(P, d["c"], d["A"], d["b"], cones, settings).solve()
        status = STATUS.get(str(sol.status), "solver_error")
        self.prob = _Status(status)
        self.solver_name = "CLARABEL"
        if status not in SOLUTION_PRESENT:
            if status in DIAGNOSED:
                return status, self.solver_name, None
            raise SolverError(f"Clarabel stopped with status {sol.status} and no solution")
        x, z = np.asarray(sol.x), np.asarray(sol.z)
        m, n = self._n_values, self._n_points
        iu = self._iu
        G = np.zeros((n, n))
        G[iu] = x[m:]
        G[iu[1], iu[0]] = x[m:]
        self.optimal_F, self.optimal_G = x[:m].copy(), G
        self._z = z
        Gw, Fw, cst = expression_to_matrices(self.objective)
        value = cst + self.optimal_F @ Fw + np.sum(np.multiply(self.optimal_G, Gw))
        return status, self.solver_name, value

    def _recover_dual_values(self):
        """``[residual] + [multiplier of each constraint]`` (PEPit's order) and the residual: the dual of
        ``G >> 0`` unscaled from the triangle (off-diagonal entries divided by ``sqrt 2``)."""
        z = self._z
        at = {id(c): float(z[k]) for k, c in enumerate(self._order)}
        n, r = self._n_points, len(self._order)
        residual = np.zeros((n, n))
        for j in range(n):
            for i in range(j + 1):
                v = z[r] if i == j else z[r] / np.sqrt(2)
                residual[i, j] = residual[j, i] = 0.0 + v    # CVXPY's unscaling never yields -0.0
                r += 1
        duals = [residual] + [at[id(c)] for c in self._list_of_constraints_sent_to_solver]
        return duals, residual

    def prepare_heuristic(self, wc_value, tol_dimension_reduction):
        raise Unsupported("the dimension-reduction heuristics")

    def heuristic(self, weight):
        raise Unsupported("the dimension-reduction heuristics")


__all__ = ["ClarabelWrapper", "SolverError", "Unsupported"]
