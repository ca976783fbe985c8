"""A performance-estimation SDP written directly for Clarabel, with only the constraints it needs.

The problem is :mod:`.pep_exact`'s (normalised, ``L = 1``): the Gram matrix ``G`` of the basis
(``x_0 - x*`` and the gradients), the function values ``F`` (and ``t`` for a min statistic), one
constraint ``e_k(G, F, t) <= 0`` per interpolation condition and initial condition. Clarabel solves

    maximise  objective(G, F, t)   subject to   e_k <= 0 (k in a working set),  G >> 0,

its variables ``(F, t, svec G)`` (``svec``: the upper triangle column by column, off-diagonal entries
scaled by ``sqrt 2``: Clarabel's PSD triangle), and returns the multipliers ``lambda_k`` and the dual
matrix ``S = sum lambda_k A_k - C``.

**Constraint generation.** A relaxation that keeps only some interpolation conditions has a value at
least the class's worst case: its dual, with the other multipliers 0, is a dual of the whole problem,
so it proves an *upper* bound valid for the class. Its primal point may violate a condition left out;
all of them are evaluated at once at that point (a few matrix products, :meth:`Numeric.evaluate`), the
violated ones join the working set and the SDP is solved again, until none is violated (to the
solver's accuracy): then the primal point is feasible for the whole problem and the two values meet.
The first working set holds the conditions between consecutive points and with ``x*`` (both
directions), which are all that gradient descent's known certificates use (Drori & Teboulle 2014;
the contraction of the distance): a horizon of 50 is then an SDP of ~200 constraints, not ~2,700.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sps

from . import pep_exact as E

SQRT2 = math.sqrt(2.0)
#: a condition left out is added when its violation at the primal point exceeds this share of the scale
VIOLATION_TOL = 1e-6
MAX_ROUNDS = 12
#: a round whose dual bound moves by less than this share stops the generation (the relaxation is the problem's)
STALL = 1e-6
#: Clarabel's tolerances (its defaults are 1e-8): the worst function is read off the primal point, and a
#: tight certificate needs it to a few more digits; the cost is a few more iterations
TOL = 1e-10


class SolveError(RuntimeError):
    """Clarabel stopped without a solution."""


@dataclass
class Solution:
    """A solve of the working set ``keys``: the primal point (``G``, ``F``, ``t``), its objective
    ``value``, the dual ``bound`` (``sum lambda_k (-const_k)``), the multipliers, ``S``, the status."""

    value: float
    bound: float
    G: np.ndarray
    F: np.ndarray
    t: float
    lam: dict
    S: np.ndarray
    status: str
    keys: list
    rounds: int = 1
    seconds: float = 0.0
    max_violation: float = 0.0
    notes: list = field(default_factory=list)


class Numeric:
    """The problem ``spec`` (:func:`.pep_exact.constraints`' dict) for Clarabel (module docstring)."""

    def __init__(self, spec):
        self.spec = dict(spec)
        self.has_star = spec["function_class"] != "smooth"
        sym = E.Symbolic(self.has_star)
        its, pts, listed, obj = E.constraints(spec, sym, only=set())
        self.keys = [k for k, _ in listed]
        self.its, self.n, self.m = its, sym.n, len(pts)
        self.has_t = "t" in obj.lin
        self.obj = obj
        P = len(pts)
        self.X = np.zeros((P + 1, self.n))        # row P: x* (the origin)
        self.Gc = np.zeros((P + 1, self.n))
        for i, (x, g, _) in enumerate(pts):
            for a, v in x.c.items():
                self.X[i, a] = float(v)
            for a, v in g.c.items():
                self.Gc[i, a] = float(v)
        self._exprs: dict = {}
        self.q = float(spec.get("q", 0)) if spec["function_class"] in ("smooth_strongly_convex", "pl") else 0.0
        iu = [(a, b) for b in range(self.n) for a in range(b + 1)]     # column by column, upper triangle
        self.svec_index = {ab: k for k, ab in enumerate(iu)}
        self.n_vars = self.m + int(self.has_t) + len(iu)

    # ---------------------------------------------------------------- the rows
    def exprs(self, keys) -> dict:
        """The exact :class:`.pep_exact.Expr` of each key (built once)."""
        missing = [k for k in keys if k not in self._exprs]
        if missing:
            _, _, cons, _ = E.constraints(self.spec, E.Symbolic(self.has_star), only=set(missing))
            for k, e in cons:
                if e is not None:
                    self._exprs[k] = e
        return {k: self._exprs[k] for k in keys}

    def row(self, e: E.Expr, scale=None) -> tuple[np.ndarray, float]:
        """``(coefficients over (F, t, svec G), constant)`` of an expression; ``scale = (s, sf)``: in the
        variables ``G' = G / (s s^T)``, ``F' = F / sf`` (a congruence: ``G >> 0`` iff ``G' >> 0``)."""
        s, sf = scale if scale is not None else (None, None)
        r = np.zeros(self.n_vars)
        for k, v in e.lin.items():
            r[self.m if k == "t" else k] = float(v) * (1.0 if sf is None else sf[self.m if k == "t" else k])
        off = self.m + int(self.has_t)
        for (a, b), v in e.quad.items():
            w = float(v) if s is None else float(v) * s[a] * s[b]
            r[off + self.svec_index[(a, b)]] = w if a == b else w / SQRT2
        return r, float(e.const)

    def initial_keys(self) -> list:
        """Conditions between consecutive points and with ``x*`` (both ways), and every other constraint."""
        P = self.m
        near = set()
        for i in range(P - 1):
            near |= {("i", i, i + 1), ("i", i + 1, i)}
        return [k for k in self.keys if k[0] != "i" or k in near or E.STAR in k[1:]]

    # ---------------------------------------------------------------- evaluating every constraint
    def evaluate(self, G: np.ndarray, F: np.ndarray, t: float) -> np.ndarray:
        """``e_k`` of every key at ``(G, F, t)`` (vectorised; the formulas of :func:`.pep_exact.interpolation`)."""
        XX, XG, GG = self.X @ G @ self.X.T, self.X @ G @ self.Gc.T, self.Gc @ G @ self.Gc.T
        f = np.append(F, 0.0)
        P = self.m
        out = np.empty(len(self.keys))
        cls = self.spec["function_class"]
        q = self.q
        idx = [(k, key) for k, key in enumerate(self.keys) if key[0] == "i"]
        if idx:
            pos = np.array([k for k, _ in idx])
            i = np.array([key[1] if key[1] != E.STAR else P for _, key in idx])
            j = np.array([key[2] if key[2] != E.STAR else P for _, key in idx])
            dxdx = XX[i, i] + XX[j, j] - 2 * XX[i, j]
            dgdg = GG[i, i] + GG[j, j] - 2 * GG[i, j]
            gj_dx = XG[i, j] - XG[j, j]
            gi_dx = XG[i, i] - XG[j, i]
            if cls in ("smooth_strongly_convex", "smooth_convex"):
                e = f[j] - f[i] + gj_dx + dgdg / 2
                if q:
                    dxdg = XG[i, i] - XG[i, j] - XG[j, i] + XG[j, j]
                    e = e + q / (2 * (1 - q)) * (dxdx - 2 * dxdg + dgdg)
            else:
                e = f[j] - f[i] + (gi_dx + gj_dx) / 2 + dgdg / 4 - dxdx / 4
            out[pos] = e
        i0 = self.its[0]
        for k, key in enumerate(self.keys):
            kind = key[0]
            if kind == "i":
                continue
            if kind == "pl_low":
                out[k] = GG[key[1], key[1]] / 2 - f[key[1]]
            elif kind == "pl":
                out[k] = f[key[1]] - GG[key[1], key[1]] / (2 * q)
            elif kind == "init" and len(key) == 1:
                out[k] = XX[i0, i0] - 1 if self.spec["init"] == "dist" else f[i0] - 1
            elif kind == "init":
                out[k] = f[i0] - f[key[1]] + GG[key[1], key[1]] / 2 - 1
            elif kind == "min":
                out[k] = t - GG[key[1], key[1]]
        return out

    def objective(self, G, F, t) -> float:
        r, c = self.row(self.obj)
        return float(r @ self.variables(G, F, t)) + c

    def variables(self, G, F, t) -> np.ndarray:
        x = np.zeros(self.n_vars)
        x[: self.m] = F
        if self.has_t:
            x[self.m] = t
        off = self.m + int(self.has_t)
        for (a, b), k in self.svec_index.items():
            x[off + k] = G[a, b] if a == b else G[a, b] * SQRT2
        return x

    # ---------------------------------------------------------------- solving
    def solve_keys(self, keys: list, extra: np.ndarray | None = None, scale=None) -> Solution:
        """One Clarabel solve of the working set ``keys``; ``extra``: a matrix ``M`` added to the objective
        as ``+ <M, G>`` (the dual then has ``S >= M``); ``scale``: the variables' scales (:meth:`row`)."""
        import clarabel

        exprs = self.exprs(keys)
        rows, b = [], []
        for k in keys:
            r, c = self.row(exprs[k], scale)
            rows.append(r)
            b.append(-c)
        nt = self.n * (self.n + 1) // 2
        off = self.m + int(self.has_t)
        psd = sps.hstack([sps.csc_array((nt, off)), -sps.identity(nt, format="csc")], format="csc")
        A = sps.vstack([sps.csc_array(np.array(rows)), psd], format="csc")
        bb = np.concatenate([np.array(b), np.zeros(nt)])
        obj_row, _ = self.row(self.obj, scale)
        c = -obj_row
        s, sf = scale if scale is not None else (np.ones(self.n), np.ones(off))
        if extra is not None:
            for (a, bidx), k in self.svec_index.items():
                w = extra[a, bidx] * s[a] * s[bidx]
                c[off + k] -= w if a == bidx else w * SQRT2
        settings = clarabel.DefaultSettings()
        settings.verbose = False
        settings.tol_gap_abs = settings.tol_gap_rel = settings.tol_feas = TOL
        settings.tol_ktratio = TOL * 1e-2
        P = sps.csc_array((self.n_vars, self.n_vars))
        t0 = time.perf_counter()
        sol = clarabel.DefaultSolver(P, c, A, bb, [clarabel.NonnegativeConeT(len(keys)),
                                                   clarabel.PSDTriangleConeT(self.n)], settings).solve()
        secs = time.perf_counter() - t0
        status = str(sol.status)
        if status not in ("Solved", "AlmostSolved"):
            raise SolveError(f"Clarabel stopped with status {status}")
        x, z = np.asarray(sol.x), np.asarray(sol.z)
        F = x[: self.m] * sf[: self.m]
        t = float(x[self.m] * sf[self.m]) if self.has_t else 0.0
        G = np.zeros((self.n, self.n))
        S = np.zeros((self.n, self.n))
        for (a, bidx), k in self.svec_index.items():
            g = (x[off + k] if a == bidx else x[off + k] / SQRT2) * s[a] * s[bidx]
            G[a, bidx] = G[bidx, a] = g
            zk = (z[len(keys) + k] if a == bidx else z[len(keys) + k] / SQRT2) / (s[a] * s[bidx])
            S[a, bidx] = S[bidx, a] = zk
        lam = {k: float(z[i]) for i, k in enumerate(keys)}
        value = self.objective(G, F, t)
        bound = sum(lam[k] * -float(exprs[k].const) for k in keys)
        return Solution(value, bound, G, F, t, lam, S, status, list(keys), seconds=secs)

    def solve(self, keys: list | None = None, extra: np.ndarray | None = None, enough=None) -> Solution:
        """Constraint generation (module docstring) from ``keys`` (default :meth:`initial_keys`);
        ``enough(solution)``: true when a solution needs no more constraints (an exact worst function meets
        its dual bound), so that the violations the solver's own error leaves are not chased."""
        work = list(keys if keys is not None else self.initial_keys())
        inwork = set(work)
        total, prev = 0.0, None
        for rnd in range(1, MAX_ROUNDS + 1):
            sol = self.solve_keys(work, extra)
            total += sol.seconds
            if prev is not None and (sol.status != "Solved" or
                                     abs(sol.bound - prev) <= STALL * max(abs(sol.bound), 1e-300)):
                # the conditions added no longer move the dual bound (what the solver's own error leaves violated)
                sol.rounds, sol.seconds = rnd, total
                sol.notes.append(f"constraint generation stopped at round {rnd}: the dual bound moved by "
                                 f"{abs(sol.bound - prev):.2g}")
                return sol
            prev = sol.bound
            e = self.evaluate(sol.G, sol.F, sol.t)
            scale = 1.0 + abs(sol.value)
            bad = [(e[k], key) for k, key in enumerate(self.keys) if key not in inwork and e[k] > VIOLATION_TOL * scale]
            sol.rounds, sol.seconds = rnd, total
            sol.max_violation = max(0.0, float(np.max(e))) if len(e) else 0.0
            if not bad or (enough is not None and enough(sol)):
                return sol
            bad.sort(reverse=True)
            for _, key in bad[: max(2 * self.m, 10)]:
                work.append(key)
                inwork.add(key)
        sol.notes.append(f"constraint generation stopped after {MAX_ROUNDS} rounds with conditions still violated")
        return sol


__all__ = ["MAX_ROUNDS", "Numeric", "Solution", "SolveError", "VIOLATION_TOL"]
