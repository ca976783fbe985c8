"""Claims of [pur], Appendix B (Proofs): Lemma 2 and eq. (21)."""
from __future__ import annotations

import sympy as sp

from dpverify.scenarios import gd_schedule_privacy, noisy_gd_audit
from dpverify.claims import Claim, Domain, Identity, Inequality, Int, Real, Relation, Seq, SupBound

from .. import proofs
from .common import EPS_OF, L, N, PROVED, P_L, T, V0, _src, delta, q, r, sig, t, u

# ============================================================================= Appendix B
W_T = -q * sp.Symbol("a") ** 2 + sp.Symbol("a") + r / t**2       # W_t(a) of the proof of Lemma 2
LEMMA_2 = Claim(
    id="pur/lemma-2",
    source=_src("Lemma 2", "(16)-(18)",
                "V_t in R_{>=0}, V_{t+1} <= V_t - q V_t^2 + r/(t+1)^2, q > 0, 0 <= r <= 1/q, V_0 <= 1/q; then V_t <= 2/(qt). "
                "Proof: W_t(a) = -q a^2 + a + r t^-2, a* = 1/(2q), W_t(a*) = 1/(4q) + r t^-2 (18); V_1 <= 1/(4q) + r <= "
                "5/(4q) <= 2/q; t >= 4: 2/(qt) <= 1/(2q), 1/t <= 1/t^2 + 1/(t+1), V_{t+1} <= 2/(q(t+1)) - 1/(qt^2); t <= 3: "
                "1/(4q) + r(t+1)^-2 = 2/(q(t+1)) + ((t+1)^2 - 8(t+1) + 4rq)/(4q(t+1)^2), numerator <= 4rq - 7"),
    kind="inequality",
    summary="Lemma 2: every sequence with V_{t+1} <= V_t - qV_t^2 + r/(t+1)^2, r <= 1/q, V_0 <= 1/q has V_t <= 2/(qt).",
    domain=Domain(Relation(sp.Le(r * q, 1), "r <= 1/q"), Relation(sp.Le(V0 * q, 1), "V0 <= 1/q"),
                  q=Real(gt=0, search=(1e-2, 1e2), log=True, units=(-1, 0)),
                  r=Real(ge=0, search=(1e-4, 1e2), log=True, units=(1, 0)),
                  V0=Real(ge=0, search=(1e-4, 1e2), log=True, units=(1, 0)),
                  T=Int(ge=1, search=(1, 400)), t=Int(ge=1, search=(1, 400)), u=Int(ge=0, le=3)),
    statements=(
        SupBound("the worst admissible sequence: max_{1 <= t <= T} q t V_t / 2 <= 1", bound=sp.Integer(1),
                 scenario=proofs.LEMMA2_WORST, kind="supremum"),
        Identity("(18): W_t(1/(2q)) = 1/(4q) + r t^-2", lhs=W_T.subs(sp.Symbol("a"), 1 / (2 * q)),
                 rhs=1 / (4 * q) + r / t**2, skip=PROVED),
        Inequality("V_1 <= 1/(4q) + r <= 5/(4q) <= 2/q", lhs=1 / (4 * q) + r, rhs=2 / q),
        Inequality("1/t <= 1/t^2 + 1/(t+1)", lhs=1 / t, rhs=1 / t**2 + 1 / (t + 1), skip=PROVED),
        Inequality("W_{t+1}(2/(qt)) <= 2/(q(t+1)) - 1/(qt^2)",
                   lhs=2 / (q * t) - 4 / (q * t**2) + r / (t + 1) ** 2, rhs=2 / (q * (t + 1)) - 1 / (q * t**2)),
        Identity("1/(4q) + r (t+1)^-2 = 2/(q(t+1)) + ((t+1)^2 - 8(t+1) + 4rq)/(4q(t+1)^2)",
                 lhs=1 / (4 * q) + r / (t + 1) ** 2,
                 rhs=2 / (q * (t + 1)) + ((t + 1) ** 2 - 8 * (t + 1) + 4 * r * q) / (4 * q * (t + 1) ** 2), skip=PROVED),
        Inequality("t in [0, 3]: (t+1)^2 - 8(t+1) + 4rq <= 4rq - 7", lhs=(u + 1) ** 2 - 8 * (u + 1) + 4 * r * q,
                   rhs=4 * r * q - 7),
    ),
)

EQ_21 = Claim(
    id="pur/eq-21",
    source=_src("Proposition 4", "(21)",
                "proof of Proposition 4: 'Since f is L-Lipschitz, the sensitivity of grad F with respect to replacement "
                "of one data entry is Delta = 2L/N. Adding noise with variance sigma_t^2 preserves rho_t-zCDP with rho_t = "
                "Delta^2/(2 sigma_t^2) = 2(L/(N sigma_t))^2. Composition over T iterations ... rho = (2L^2/N^2) sum_t "
                "sigma_t^-2' (21)"),
    kind="privacy bound",
    summary="T steps of (2) with noise sigma_t are rho-zCDP with rho = (2L^2/N^2) sum_t sigma_t^-2 (replace-one).",
    domain=Domain(T=Int(ge=1, search=(1, 12)), sigma=Seq("T", Real(gt=0, search=(1e-2, 10.0), log=True, units=(1, -1))),
                  L=P_L, N=Int(ge=1, search=(1, 1000)), delta=Real(gt=0, lt=1, search=(1e-8, 0.1), log=True)),
    statements=(
        SupBound("rho of T steps (sensitivity measured on a worst neighbour pair) <= (2L^2/N^2) sum_t sigma_t^-2",
                 bound=2 * L**2 / N**2 * sp.Sum(sig[t] ** -2, (t, 1, T)), kind="privacy",
                 scenario=gd_schedule_privacy(noise_std=sig[t], lipschitz=L, n_samples=N, horizon=T, measure="zcdp"),
                 audit=noisy_gd_audit(eps=EPS_OF(2 * L**2 / N**2 * sp.Sum(sig[t] ** -2, (t, 1, T))), delta=delta,
                                      noise_std=sig[t], lipschitz=L, n_samples=N, horizon=T)),
    ),
)
