"""Certificates for violations: files a reader checks without dpverify.

For a claim whose verdict is ``violated``, :func:`certify` writes ``<out>/<id with / as __>/`` with
``certificate.json`` (the witness as exact rationals, and what the check needs) and ``check.py``
(standard library plus python-flint only; ``python check.py`` prints one line and exits 0 when the
certificate holds). Kinds of certificate:

* ``analytic`` -- an :class:`~dpverify.claims.Inequality` or :class:`~dpverify.claims.Identity` fails at
  the witness: both sides are evaluated in ball arithmetic at increasing precision until their
  enclosures are disjoint in the violating direction, and the witness is checked against every
  hypothesis (single-parameter bounds exactly in rationals, relations in ball arithmetic);
* ``gaussian-privacy`` -- a privacy :class:`~dpverify.claims.SupBound` measured by the Gaussian
  mechanism's exact privacy profile: a ball enclosing delta(eps) lies above the claimed delta;
* ``subsampled-pair`` -- a privacy :class:`~dpverify.claims.SupBound` measured on the canonical (eps,
  delta)-DP pair behind a subsample (``scenarios.subsampled_dp``): a lower bound on the pair's delta at
  the claimed eps' (its four atoms in ball arithmetic) lies above the target delta;
* ``gaussian-renyi`` -- the same measured by the Gaussian mechanism's Renyi divergence: a lower bound on
  it from its defining integral over a finite window (rigorous quadrature, ``acb.integral``), divided by
  the order, lies above the claimed bound;
* ``asymptotics`` -- a :class:`~dpverify.claims.Rate` refuted by SymPy's limit of ``expr/rate`` along a path:
  ``check.py`` (SymPy and mpmath) takes the limit again from the claim's expressions and the symbols'
  assumptions, and checks the confirming sweep's points and the ratio's growth there. See
  :mod:`dpverify.certify.asymptotic`;
* ``privacy-point`` -- a privacy :class:`~dpverify.claims.SupBound` measured by a function of a proof (a
  :class:`~dpverify.scenarios.PointScenario`) that carries a ball definition: ``check.py`` evaluates it at
  the witness and certifies when its lower end lies above the claimed bound. See :mod:`dpverify.certify.point`;
* ``one-sample-sgd`` -- the same measured on noisy SGD with one sample per step (replace-one) by its attained
  pair's lower bound (``single_sample_sgd_privacy(bound="lower")``): the event {min_t Y_t < tau} in closed
  form, in ball arithmetic at the best rational tau, above the claimed delta;
* ``audit`` -- an empirical privacy audit's counts: the Clopper-Pearson bounds recomputed (bisection on
  the regularised incomplete beta in ball arithmetic) give a lower bound on delta(eps) above the claim
  (the counts themselves are recorded, not re-derived: statistical evidence at the audit's confidence);
* ``exact-expectation`` -- an :class:`~dpverify.claims.ExpectationBound` whose exact expectation (moment
  propagation on a diagonal quadratic) exceeds the bound: ``check.py`` rebuilds the quadratic from the claim's
  expressions at the witness and the recorded spectrum and start, propagates the moments in ball arithmetic
  and separates the expectation from the bound. See :mod:`dpverify.certify.expectation`;
* ``worst-function`` -- a :class:`~dpverify.claims.SupBound` over ``worst_case(...)`` (a method's worst case over a
  function class) refuted by an exact worst function: ``check.py`` (standard library only: dpverify's
  ``sim/pep_exact.py`` copied verbatim) runs it through the method, checks it against every interpolation
  condition of the class and compares its statistic with the normalised bound. See :mod:`dpverify.certify.pep`,
  which also writes checkers of the proofs (``write_proof``);
* ``monte-carlo-replay`` / ``monte-carlo-recorded`` -- an :class:`~dpverify.claims.ExpectationBound`
  violated by simulation: a replay at ten times the runs, at the seed derived from the claim id and
  "certificate", whose one-sided p-value of "mean <= bound" is below 1e-6; standalone (``check.py``
  rebuilds noisy GD on the quadratic and simulates it) or recorded (dpverify's replay, its p-value
  re-derived). See :mod:`dpverify.certify.replay`.

Which certificate a violation gets is its check kind's declaration (``CheckKind.certificate``, the name of
a route in :data:`ROUTES`); every other violation is reported with the reason its kind gives
(``CheckKind.no_certificate``).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass

from ..checks import kind_of
from ..files import write_atomic
from ..claims import Identity
from . import asymptotic, proofs, runtime
from .expectation import exact_plan
from .point import point_plan
from .replay import monte_carlo_plans
from .writer import NoCertificate, Plan, exact_witness, folder_name, write


@dataclass
class Outcome:
    """What :func:`certify` did for one claim: ``status`` is ``certified``, ``no certificate`` or
    ``not violated``; ``kind`` the certificate's kind; ``folder`` where it was written."""

    id: str
    status: str
    reason: str = ""
    kind: str = ""
    folder: str = ""

    def line(self) -> str:
        if self.status == "certified":
            return f"{self.id}: certified ({self.kind}) -> {self.folder}"
        return f"{self.id}: {self.status}" + (f": {self.reason}" if self.reason else "")


def _statement(claim, name):
    for s in claim.statements:
        if s.name == name:
            return s
    raise NoCertificate(f"statement {name!r} is not in claim {claim.id}")


def _witness(claim, evidence) -> dict:
    ce = evidence.counterexample or {}
    point = ce.get("params")
    if not isinstance(point, dict) or not claim.domain.contains(point):
        raise NoCertificate("the counterexample is not a point of the claim's domain")
    return exact_witness(claim.domain, point)


def analytic_plan(claim, stmt, evidence) -> Plan:
    op = "==" if isinstance(stmt, Identity) else "<" if stmt.strict else "<="
    verdict = runtime.IDENTITY if isinstance(stmt, Identity) else runtime.INEQUALITY
    return Plan("analytic", f"{stmt.name}: lhs {op} rhs", _witness(claim, evidence),
                {"LHS": stmt.lhs, "RHS": stmt.rhs}, verdict)


def _gaussian_measure(stmt) -> str | None:
    from ..scenarios.privacy import GaussianMechanism

    return stmt.scenario.measure_kind if isinstance(stmt.scenario, GaussianMechanism) else None


def privacy_plan(claim, stmt, evidence) -> Plan:
    from ..scenarios import PointScenario
    from ..scenarios.privacy import SubsampledDP
    from ..scenarios import SingleSampleSGDPrivacy

    if isinstance(stmt.scenario, PointScenario):
        return point_plan(claim, stmt, evidence)
    if isinstance(stmt.scenario, SingleSampleSGDPrivacy) and stmt.scenario.bound_kind == "lower":
        ex = stmt.scenario.params.exprs
        return Plan("one-sample-sgd", f"{stmt.name}: delta(eps) of one-sample noisy SGD's attained pair <= claimed",
                    _witness(claim, evidence),
                    {"NOISE_STD": ex["noise_std"], "LIPSCHITZ": ex["lipschitz"], "N_SAMPLES": ex["n_samples"],
                     "HORIZON": ex["horizon"], "EPS": ex["eps"], "BOUND": stmt.bound}, runtime.ONE_SAMPLE_SGD)
    if isinstance(stmt.scenario, SubsampledDP):
        ex = stmt.scenario.params.exprs
        return Plan("subsampled-pair", f"{stmt.name}: eps' of the subsampled canonical pair <= claimed eps'",
                    _witness(claim, evidence),
                    {"EPS": ex["eps"], "DELTA": ex["delta"], "SAMPLING": ex["sampling"], "TARGET": ex["target_delta"],
                     "BOUND": stmt.bound}, runtime.SUBSAMPLED_PAIR)
    measure = _gaussian_measure(stmt)
    if measure is None:
        name = getattr(stmt.scenario, "name", "")
        name = name if name and name != "scenario" else f"a {type(stmt.scenario).__name__}"
        raise NoCertificate(f"the privacy loss is measured on {name}; only the Gaussian mechanism (its exact "
                            "profile delta(eps), its Renyi divergence) and the subsampled canonical pair have a "
                            "standalone checker")
    ex = stmt.scenario.params.exprs
    if measure == "renyi_over_order":
        return Plan("gaussian-renyi", f"{stmt.name}: D_a(N(0, s^2) || N(Delta, s^2))/a <= claimed bound",
                    _witness(claim, evidence), {"SENSITIVITY": ex["sensitivity"], "NOISE_STD": ex["noise_std"],
                                                "ORDER": ex["order"], "BOUND": stmt.bound}, runtime.RENYI)
    return Plan("gaussian-privacy", f"{stmt.name}: delta(eps) of the Gaussian mechanism <= claimed delta",
                _witness(claim, evidence),
                {"SENSITIVITY": ex["sensitivity"], "NOISE_STD": ex["noise_std"], "EPS": ex["eps"],
                 "BOUND": stmt.bound}, runtime.GAUSSIAN)


_COUNTS = re.compile(r"counts (\d+)/(\d+) vs (\d+)/(\d+)")


def audit_plan(claim, stmt, evidence) -> Plan:
    m = _COUNTS.search(evidence.detail or "")
    if m is None or m.group(2) != m.group(4):
        raise NoCertificate("the audit's evidence records no counts")
    ex = stmt.audit.params.exprs
    conf = stmt.audit.confidence
    from ..arb_source import rational_text

    data = {"audit": {"k_first": int(m.group(1)), "k_second": int(m.group(3)), "n": int(m.group(2)),
                      "confidence": rational_text(conf), "seed": (evidence.counterexample or {}).get("seed"),
                      "what": stmt.audit.what}}
    note = ("\nThe counts come from running the algorithm (recorded by dpverify, with the audit's seed); this "
            "checker\nre-derives only the Clopper-Pearson arithmetic: the refutation is statistical, at the "
            "audit's confidence.\n")
    return Plan("audit", f"{stmt.name}: audit's lower bound on delta(eps) <= claimed delta",
                _witness(claim, evidence), {"EPS": ex["eps"], "BOUND": ex["delta"]}, runtime.AUDIT, data, note)


#: What a supremum measured, when it has no standalone checker (``SupBound.kind`` -> why).
_UNCERTIFIED_QUANTITIES = {
    "stability": "a stability gap measured by coupled runs on data sets has no standalone checker",
    "sensitivity": "a sensitivity measured on data sets has no standalone checker",
}


def supremum_plan(claim, stmt, evidence) -> Plan:
    """A supremum's violation: a privacy loss has its checkers (:func:`privacy_plan`), a worst case over a function
    class its exact worst function (:func:`dpverify.certify.pep.violation_plan`); other quantities none."""
    from ..scenarios.worst_case import WorstCase

    if stmt.kind == "privacy":
        return privacy_plan(claim, stmt, evidence)
    if isinstance(stmt.scenario, WorstCase):
        from .pep import violation_plan

        return violation_plan(claim, stmt, evidence)
    raise NoCertificate(_UNCERTIFIED_QUANTITIES.get(stmt.kind, f"a '{stmt.kind}' violation has no standalone checker"))


#: The certificate routes a check kind names (``CheckKind.certificate``), in order of preference (exact
#: certificates before statistical ones): name -> plan builder, which returns a Plan or a list of functions
#: building the alternatives to try in turn.
ROUTES = {"analytic": analytic_plan, "asymptotics": asymptotic.plan, "expectation": exact_plan, "supremum": supremum_plan, "audit": audit_plan,
          "monte-carlo": monte_carlo_plans}


def _route(claim, evidence):
    """The check kind that made ``evidence`` and the name of its certificate route (NoCertificate with the
    kind's reason when it has none)."""
    kind = kind_of(claim, evidence)
    if kind is None:
        raise NoCertificate(f"a '{evidence.check}' violation has no standalone checker")
    if not kind.certificate:
        raise NoCertificate(kind.no_certificate or f"a '{evidence.check}' violation has no standalone checker")
    return kind.certificate


def _plans_for(claim, evidence) -> list:
    """Functions building the plans to try for one violated evidence, in order."""
    route = _route(claim, evidence)
    stmt = _statement(claim, evidence.statement)
    if stmt.exists:
        raise NoCertificate(f"'{stmt.name}' quantifies {', '.join(stmt.exists)} existentially: its failure is a "
                            "statement about every value, which one point does not certify")
    out = ROUTES[route](claim, stmt, evidence)
    return [lambda: out] if isinstance(out, Plan) else out


def _preference(claim, evidence) -> int:
    try:
        return list(ROUTES).index(_route(claim, evidence))
    except NoCertificate:
        return len(ROUTES)


def run_checker(folder: str, timeout: float = 600.0) -> tuple[bool, str]:
    """Run ``folder/check.py`` in a fresh interpreter (isolated mode: no PYTHONPATH, no user site) from
    the folder; returns whether it passed and its line."""
    try:
        res = subprocess.run([sys.executable, "-I", "check.py"], cwd=folder, capture_output=True, text=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, f"no answer within {timeout:g} s"
    out = (res.stdout.strip().splitlines() or [res.stderr.strip()[-300:]])[-1]
    return res.returncode == 0, out


def certify(claim, verdict, out_dir: str) -> Outcome:
    """Write a certificate for ``claim`` from its ``verdict`` (see the module docstring) under ``out_dir``:
    the first violated piece of evidence that can be certified, exact kinds first."""
    if verdict.id != claim.id:
        raise ValueError(f"certify: the verdict is for {verdict.id!r}, the claim is {claim.id!r}")
    if verdict.verdict != "violated":
        return Outcome(claim.id, "not violated", f"verdict {verdict.verdict}")
    violated = [e for e in verdict.evidence if e.verdict == "violated"]
    violated.sort(key=lambda e: _preference(claim, e))
    reasons = []

    def failed(e, exc):
        text = f"{e.check}: {exc}"
        if text not in reasons:
            reasons.append(text)

    for e in violated:
        try:
            builders = _plans_for(claim, e)
        except NoCertificate as exc:
            failed(e, exc)
            continue
        for build in builders:
            try:
                plan = build()
                folder = write(claim, plan, out_dir)
                ok, line = run_checker(folder)
                if not ok:
                    shutil.rmtree(folder)
                    raise NoCertificate(f"its check.py does not pass ({line})")
            except NoCertificate as exc:
                failed(e, exc)
                continue
            return Outcome(claim.id, "certified", kind=plan.kind, folder=folder)
    return Outcome(claim.id, "no certificate", "; ".join(reasons))


#: Certificates of proofs (a ``verified`` statement): the routes a check kind names (``CheckKind.proof_certificate``),
#: name -> plan builder (see :mod:`dpverify.certify.proofs`).
PROOF_ROUTES = {"asymptotics": asymptotic.proof_plan, "symbolic-proof": proofs.symbolic_plan,
                "domain-proof": proofs.domain_plan, "privacy-proof": proofs.privacy_plan}


def _proof_route(claim, evidence) -> str:
    kind = kind_of(claim, evidence)
    return kind.proof_certificate if kind is not None else ""


def certify_proofs(claim, verdict, out_dir: str) -> list[Outcome]:
    """Write a checker for every proof of ``claim``'s ``verdict`` whose check kind names a proof route
    (``CheckKind.proof_certificate``, a key of :data:`PROOF_ROUTES`),
    in ``out_dir/<claim>__proof-<k>/`` (k counts the claim's statements); each is run and kept only when it
    passes. Returns one outcome per proof tried (``certified`` or ``no certificate`` with the reason)."""
    out = []
    for e in verdict.evidence:
        if e.verdict != "verified" or e.basis is None:
            continue
        route = _proof_route(claim, e)
        if not route:
            continue
        k = next((i for i, s in enumerate(claim.statements, 1) if s.name == e.statement), 0)
        folder = f"{folder_name(claim.id)}__proof-{k}"
        try:
            plan = PROOF_ROUTES[route](claim, _statement(claim, e.statement), e)
            path = write(claim, plan, out_dir, folder)
            ok, line = run_checker(path)
            if not ok:
                shutil.rmtree(path)
                raise NoCertificate(f"its check.py does not pass ({line})")
        except NoCertificate as exc:
            out.append(Outcome(claim.id, "no certificate", f"{e.statement}: {exc}"))
            continue
        out.append(Outcome(claim.id, "certified", kind=plan.kind, folder=path))
    return out


def certify_all(claims, verdicts, out_dir: str, echo=print, proofs: bool = False) -> int:
    """Certify every violated claim of ``claims`` (``verdicts`` in the same order) under ``out_dir``;
    ``echo`` each claim's line and the count, write ``out_dir/index.json``. Returns 0 when every
    violated claim carries a certificate that passes, else 1."""
    os.makedirs(out_dir, exist_ok=True)
    outcomes = [certify(c, v, out_dir) for c, v in zip(claims, verdicts) if v.verdict == "violated"]
    if proofs:
        tried = [o for c, v in zip(claims, verdicts) for o in certify_proofs(c, v, out_dir)]
        for o in tried:
            echo(o.line())
        echo(f"{sum(o.status == 'certified' for o in tried)} of {len(tried)} proofs certified")
    for o in outcomes:
        echo(o.line())
    done = [o for o in outcomes if o.status == "certified"]
    kinds = ", ".join(f"{k} {sum(o.kind == k for o in done)}" for k in sorted({o.kind for o in done}))
    echo(f"{len(done)} of {len(outcomes)} violated claims certified" + (f" ({kinds})" if kinds else "")
         + f"; certificates in {out_dir}")
    write_atomic(os.path.join(out_dir, "index.json"), json.dumps([asdict(o) for o in outcomes], indent=2) + "\n")
    return 0 if len(done) == len(outcomes) else 1


__all__ = ["NoCertificate", "Outcome", "PROOF_ROUTES", "Plan", "ROUTES", "certify", "certify_all", "certify_proofs", "folder_name", "run_checker"]
