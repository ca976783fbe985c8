"""``dpverify``: list, check, report and reproduce claims -- the registered papers' and your own.

Exit status: 0 when every verdict meets its claim's expected verdict (``expected="holds"`` is met by
``verified`` too; ``expected="verified"`` demands a proof), 1 when a verdict differs, 2 on a usage
error (bad option, unknown claim or module, a pinned point outside the claim's hypotheses, an output
that cannot be written: refused before any check runs), 3 when a claim's check raised (its verdict is
``error``; the other claims are still checked and ``--json`` is still written), 130 when interrupted
(Ctrl-C: ``--json`` holds the verdicts finished so far, marked incomplete), 143 when terminated
(SIGTERM, as from ``kill``, ``docker stop`` or ``timeout``: the same as Ctrl-C), 141 when standard output
was closed by its reader (``| head``: no traceback). Nothing is done before every input is validated; every
file is written atomically, so that a failure (a full disk: exit 2, naming the file) leaves the previous
one whole. See SECURITY.md for what the command line trusts.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys

from . import __version__
from .resources import default_jobs
from .options import UsageError, add_check_options, config_kwargs, nonneg_int, parse_at, positive_int
from .runner import check_one as _check_one  # noqa: F401  (dpverify.cli._check_one: what the pools ran)


def _add_sources(p, what="claims"):
    p.add_argument("--paper", help=f"only this registered paper's {what} (its key, the part of an id before '/')")
    p.add_argument("--module", action="append", default=[], metavar="FILE",
                   help="a claims file (a Python module with CLAIMS) or module name; repeatable")


def plain(text: str) -> str:
    """Help text without reStructuredText markup: ````x```` and ```x``` read 'x', roles (``:func:``) dropped."""
    import re

    text = re.sub(r":[a-z]+:`~?([^`]+)`", r"\1", text)
    return re.sub(r"`{1,2}([^`]+)`{1,2}", r"'\1'", text)


class _PlainHelp(argparse.HelpFormatter):
    """argparse's help with :func:`plain` text (``dpverify --help`` shows no markup)."""

    def _format_text(self, text):
        return super()._format_text(plain(text))

    def _expand_help(self, action):
        return plain(super()._expand_help(action))


FIRST_RUN = ("first look: dpverify check --all --quick (a progress line per claim on standard error); "
             "the full check: dpverify check --all; your own claims: dpverify check --module FILE --all")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="dpverify", description="dpverify: " + __doc__.splitlines()[0].split(": ", 1)[1],
                                epilog=FIRST_RUN, formatter_class=_PlainHelp)
    p.add_argument("--version", action="version", version=f"dpverify {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_sub_parser())

    ls = sub.add_parser("list", help="list the registered claims (and those of --module files)")
    _add_sources(ls)
    ls.add_argument("--json", action="store_true", help="print a JSON array")
    ls.add_argument("--no-cache", action="store_true",
                    help="build every paper's claims (the listing index in ./.dpverify_cache is neither read nor written)")

    ck = sub.add_parser("check", help="verify claims and print their verdicts")
    ck.add_argument("ids", nargs="*", metavar="ID", help="claim ids (see `dpverify list`)")
    ck.add_argument("--all", action="store_true", help="every claim (of --paper / --module if given)")
    _add_sources(ck)
    ck.add_argument("--json", action="store_true", help="print a JSON array, one object per claim")
    ck.add_argument("--no-timing", action="store_true",
                    help="write 0 for seconds, so that the same seed gives byte-identical JSON")
    ck.add_argument("--profile", action="store_true",
                    help="after the table, the time split by check kind and by claim")
    ck.add_argument("-v", "--verbose", action="store_true",
                    help="the wide table (label, checks, tightness) and the replay line of every violation "
                         "(by default only of a violation not expected)")
    add_check_options(ck, at=True)

    rp = sub.add_parser("report", help="every claim with its verdict and evidence, errata first")
    _add_sources(rp)
    rp.add_argument("--format", choices=("md", "html", "json", "tex"), default="md",
                    help="output format (default md; tex: the errata as a LaTeX table for an erratum note)")
    rp.add_argument("--out", help="write to this file (default: standard output)")
    rp.add_argument("--errata", action="store_true",
                    help="only the errata table (from the claims; runs no check)")
    rp.add_argument("--update", metavar="FILE",
                    help="with --errata --format md: rewrite the errata block between the markers of FILE (a README)")
    rp.add_argument("--certificates", metavar="DIR",
                    help="link each erratum's certificate from DIR/index.json (written by `dpverify certify --out DIR`)")
    rp.add_argument("--from", dest="from_json", metavar="FILE",
                    help="render the verdicts saved by `dpverify check --all --json` instead of checking")
    add_check_options(rp)

    cf = sub.add_parser("certify", help="certificates of violated claims, checkable without dpverify")
    cf.add_argument("ids", nargs="*", metavar="ID", help="claim ids (see `dpverify list`)")
    cf.add_argument("--all", action="store_true", help="every claim (of --paper / --module if given)")
    _add_sources(cf)
    cf.add_argument("--out", required=True, help="directory for the certificates (a folder per violated claim)")
    cf.add_argument("--proofs", action="store_true",
                    help="also a checker for every proof that has one (a rate or limit by its asymptotics), in "
                         "<claim>__proof-<k> folders")
    add_check_options(cf)

    cs = sub.add_parser("constants", help="constants printed in claims, against their derivation")
    _add_sources(cs)
    cs.add_argument("--json", action="store_true")

    rr = sub.add_parser("reproduce", help="reproduce a paper's experiment figure (a report, not a verdict)")
    rr.add_argument("figure", metavar="FIGURE", help="figure id: <paper>/fig-<n> or <paper>/table-<n> (an unknown id lists the known ones)")
    rr.add_argument("--out", help="output directory (default out/<figure>, e.g. out/fig-3)")
    rr.add_argument("--reps", type=positive_int("reps"), default=100,
                    help="repetitions (Monte Carlo runs) per configuration (default 100)")
    rr.add_argument("--quick", action="store_true", help="reduced size (what the notebooks run)")
    rr.add_argument("--jobs", type=positive_int("jobs"), default=2,
                    help="worker processes (default 2; results do not depend on it)")
    rr.add_argument("--seed", type=nonneg_int("seed"), default=0, help="seed (default 0)")
    rr.add_argument("--no-progress", action="store_true", help="no progress bar")
    rr.add_argument("--scheduler", metavar="ADDRESS",
                    help="send the experiment's tasks to a Dask cluster (tcp://host:8786, or 'local'); "
                         "results are the same as a local run")
    return p


def _sub_parser():
    class Sub(argparse.ArgumentParser):
        def __init__(self, *a, **kw):
            kw.setdefault("formatter_class", _PlainHelp)
            super().__init__(*a, **kw)
    return Sub


def _claims(ns):
    from . import registry

    try:
        return registry.all_claims(ns.paper, ns.module)
    except (registry.RegistryError, ValueError) as exc:
        raise UsageError(str(exc)) from None


def _get(claim_id, modules):
    from . import registry

    try:
        return registry.get(claim_id, modules)
    except registry.RegistryError as exc:
        raise UsageError(str(exc)) from None


def cmd_list(ns) -> int:
    from . import registry
    from .cache import enabled
    from .report import claims_table
    from .verdict import dumps

    if ns.module:
        rows = [c.to_json() for c in _claims(ns)]
    else:   # the papers' listing index: no claim is built while the papers' sources are unchanged
        try:
            keys = registry.papers() if ns.paper is None else [ns.paper]
            rows = [r for k in keys for r in registry.paper_listing(k, use_cache=enabled(ns.no_cache))]
        except (registry.RegistryError, ValueError) as exc:
            raise UsageError(str(exc)) from None
    print(dumps(rows, indent=2) if ns.json else claims_table(rows))
    return 0


def _run_checks(claims, ns, at=None, done: dict | None = None) -> list:
    """The verdicts of ``claims`` in their order (:func:`dpverify.runner.run_checks`); ``done`` (index ->
    verdict) is filled as verdicts arrive, so that an interrupted run can still write those finished."""
    from .cache import enabled
    from .runner import SchedulerFailed, run_checks

    try:
        return run_checks(claims, config_kwargs(ns, at), jobs=ns.jobs or default_jobs(), modules=ns.module,
                          use_cache=enabled(getattr(ns, "no_cache", False)), scheduler=getattr(ns, "scheduler", None),
                          progress=not ns.no_progress, done=done,
                          headline=" (QUICK: fewer runs and samples, a first look)" if ns.quick else "")
    except SchedulerFailed as exc:
        raise UsageError(str(exc)) from None


def _check_writable(option: str, path: str | None) -> None:
    """Refuse, before any work, an output file that cannot be written (its folder missing, a folder, a
    folder where no file can be made, such as /proc): checked by doing what the write will do."""
    from .files import cannot_write

    why = cannot_write(path) if path else None
    if why:
        raise UsageError(f"{option} {path!r}: {why}")


def _check_folder(option: str, folder: str) -> None:
    """Make an output folder and refuse, before any work, one where no file can be written."""
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{option} {folder!r}: cannot make the folder ({exc.strerror or exc})") from None
    _check_writable(option, os.path.join(folder, "index.json"))


def _write(option: str, path: str, text: str) -> None:
    """Write an output file atomically (the previous one stays whole if this fails, e.g. on a full disk)."""
    from .files import WriteError, write_atomic

    try:
        write_atomic(path, text)
    except WriteError as exc:
        raise UsageError(f"{option} {path!r}: cannot write it ({exc.strerror}); the previous file is unchanged") from None


def _check_scheduler(ns) -> None:
    if getattr(ns, "scheduler", None) is not None:
        from .distributed import SchedulerError, check_address

        try:
            check_address(ns.scheduler)
        except SchedulerError as exc:
            raise UsageError(str(exc)) from None


def _pinned(claim, at: dict) -> None:
    """Validate ``--at`` for ``claim``: existentially quantified parameters may be left out (the check
    chooses them; a value given for one is not used, and a note says so)."""
    claim.domain.validate(at, optional=claim.existential)
    given = [q for q in claim.existential if q in at]
    if given:
        print(f"dpverify: note: --at: {', '.join(given)} is existentially quantified in {claim.id} (the check "
              "chooses it); the value given is not used", file=sys.stderr)


def _verdicts_json(verdicts, timing: bool, missing=()) -> str:
    """``check --json``: an array of verdicts, strict JSON; an interrupted run ends with one object
    ``{"incomplete": true, "missing": [ids not checked], ...}``."""
    from .verdict import dumps

    rows = [v.to_json(timing=timing) for v in verdicts]
    if missing:
        rows.append({"incomplete": True, "reason": "interrupted before every claim was checked",
                     "missing": list(missing)})
    return dumps(rows, indent=2)


def cmd_check(ns) -> int:
    from .report import profile_table
    from .replay import replay_counterexample
    from .tables import compact_table, degenerate, plural, summary, table
    from .verdict import ERROR, exit_status

    if ns.all and ns.ids:
        raise UsageError("give claim ids or --all, not both")
    if not ns.all and not ns.ids:
        raise UsageError("give at least one claim id, or --all (see `dpverify list`"
                         + "".join(f" --module {m}" for m in ns.module) + ")")
    if ns.paper and not ns.all:
        raise UsageError("--paper goes with --all")
    _check_scheduler(ns)
    claims = _nonempty(_claims(ns) if ns.all else [_get(i, ns.module) for i in ns.ids], ns)
    at = parse_at(ns.at) if ns.at is not None else None
    if at is not None:
        if len(claims) != 1:
            raise UsageError("--at pins the parameters of one claim: give exactly one id")
        _pinned(claims[0], at)
    done: dict = {}
    try:
        verdicts = _run_checks(claims, ns, at, done)
    except KeyboardInterrupt as exc:    # Ctrl-C, or SIGTERM (errors.Terminated)
        verdicts = [done[i] for i in sorted(done)]
        missing = [c.id for i, c in enumerate(claims) if i not in done]
        if ns.json:
            print(_verdicts_json(verdicts, not ns.no_timing, missing), flush=True)
        else:
            print((table if ns.verbose else compact_table)(verdicts))
        print(f"dpverify: {_stopped(exc)}: {len(verdicts)} of {plural(len(claims), 'claim')} checked"
              + (" (the JSON is marked incomplete)" if ns.json else ""), file=sys.stderr)
        return _stopped_status(exc)
    module = None   # replay finds the claims file of a claim loaded from one (dpverify.replay)
    if ns.json:
        print(_verdicts_json(verdicts, not ns.no_timing))
    else:
        print((table if ns.verbose else compact_table)(verdicts))
        replays = [v for v in verdicts if v.verdict == "violated" and v.counterexample is not None
                   and (ns.verbose or not v.ok)]
        for v in replays:
            ce = v.counterexample
            print(f"\n{v.id}: counterexample {json.dumps(ce.get('params'))} (seed {ce.get('seed')})")
            if isinstance(ce.get("params"), dict):
                print(f"  replay: {replay_counterexample(v.id, ce, module)}")
        hidden = sum(v.verdict == "violated" and v.counterexample is not None for v in verdicts) - len(replays)
        if hidden:
            print(f"\n{plural(hidden, 'expected violation')}: the replay lines with --verbose (or in `dpverify report`)")
        if ns.profile:
            print("\n" + profile_table(verdicts))
        if replays or ns.profile:   # after a long tail the summary again, last
            print("\n" + summary(verdicts))
    for v in verdicts:
        for e in v.evidence:
            why = degenerate(e)
            if why:
                print(f"dpverify: warning: {v.id}: {e.statement}: a degenerate point ({why}); give the parameter "
                      "a search= box away from it", file=sys.stderr)
                break
    for v in verdicts:
        if v.verdict == ERROR:
            print(f"dpverify: error: {v.error}", file=sys.stderr)
    if not ns.no_progress:      # the summary last on standard error too, under the progress lines
        print(f"dpverify: {summary(verdicts)}", file=sys.stderr)
    return exit_status(verdicts)


def _saved_verdicts(path: str, claims) -> list:
    """The verdicts saved by ``check --json`` in ``path``, read as data from a file anyone may have
    written: each must have a verdict's exact shape and be of a loaded claim, whose own ``expected``
    verdicts (not the file's) are used."""
    from .cache import verdict_shape
    from .shape import ListOf, problem
    from .verdict import Verdict

    try:
        with open(path, "rb") as fh:
            data = json.loads(fh.read())
    except (OSError, ValueError, RecursionError) as exc:
        raise UsageError(f"--from {path!r}: cannot read it ({type(exc).__name__}: {exc})"[:300]) from None
    if not isinstance(data, list) or not all(isinstance(d, dict) for d in data):
        raise UsageError(f"--from {path!r}: not the output of `dpverify check --json` (a JSON array of verdicts)")
    if data and data[-1].get("incomplete"):
        raise UsageError(f"--from {path!r}: an interrupted run (marked incomplete; "
                         f"{_count(data[-1].get('missing', []) or [])} not checked): check again")
    bad = problem(data, ListOf(verdict_shape(saved=True)))
    if bad:
        raise UsageError(f"--from {path!r}: not the output of `dpverify check --json` ({bad})")
    by_id = {c.id: c for c in claims}
    unknown = [d["id"] for d in data if d["id"] not in by_id]
    if unknown:
        raise UsageError(f"--from {path!r}: {len(unknown)} claim(s) not loaded ({', '.join(repr(u[:60]) for u in unknown[:3])}"
                         f"{', ...' if len(unknown) > 3 else ''}): give the --module (or --paper) they were checked with")
    out = []
    for d in data:
        c = by_id[d["id"]]
        if set(d["readings"]) != {r.name for r in c.readings}:
            raise UsageError(f"--from {path!r}: the readings saved for {c.id} are not the claim's")
        try:
            v = Verdict.from_json(d)
        except (KeyError, TypeError, ValueError) as exc:
            raise UsageError(f"--from {path!r}: not a saved verdict ({type(exc).__name__}: {exc})"[:300]) from None
        v.expected = c.expected        # what is true of a claim is the claim's, not the file's
        for r in c.readings:
            v.readings[r.name]["expected"] = r.expected
        out.append(v)
    return out


def _count(items) -> str:
    """``1 claim``, ``3 claims`` (of a list, or of a value that is not one: ``0 claims``)."""
    from .tables import plural

    return plural(len(items) if isinstance(items, list) else 0, "claim")


def _nonempty(claims, ns):
    """``claims``, refused when there is none: a run that checked no claim is not a pass."""
    if not claims:
        where = ", ".join(f"--module {m!r}" for m in ns.module) or (f"--paper {ns.paper!r}" if ns.paper else "the registry")
        raise UsageError(f"no claims to check: {where} defines none (CLAIMS is empty)")
    return claims


def cmd_report(ns) -> int:
    from . import report
    from .verdict import EXIT_ERROR, dumps, exit_status

    if ns.update and not (ns.errata and ns.format == "md"):
        raise UsageError("--update goes with --errata --format md")
    if ns.update:
        _check_writable("--update", ns.update)
    _check_writable("--out", ns.out)
    _check_scheduler(ns)
    claims = _claims(ns) if ns.errata else _nonempty(_claims(ns), ns)
    status = 0
    certs = None
    if ns.certificates:
        try:
            certs = report.load_certificates(ns.certificates, os.path.dirname(ns.out or "") or ".")
        except (OSError, ValueError, RecursionError) as exc:
            raise UsageError(f"--certificates {ns.certificates!r}: cannot read its index.json ({exc})"[:300]) from None
    if ns.errata:
        if ns.update:
            try:
                with open(ns.update, encoding="utf-8") as fh:
                    text = fh.read()
            except (OSError, ValueError) as exc:
                raise UsageError(f"--update {ns.update!r}: cannot read it ({exc})") from None
            if report.ERRATA_BEGIN not in text or report.ERRATA_END not in text:
                raise UsageError(f"--update {ns.update!r}: no errata markers ({report.ERRATA_BEGIN} ... {report.ERRATA_END})")
            head, rest = text.split(report.ERRATA_BEGIN, 1)
            tail = rest.split(report.ERRATA_END, 1)[1]
            _write("--update", ns.update, head + report.ERRATA_BEGIN + "\n" + report.errata_markdown(claims, certs)
                   + report.ERRATA_END + tail)
            print(f"updated the errata in {ns.update}", file=sys.stderr)
            return 0
        if ns.format == "md":
            text = report.errata_markdown(claims, certs)
        elif ns.format == "json":
            text = dumps(report.errata_rows(claims, certs), indent=2) + "\n"
        elif ns.format == "tex":
            text = report.errata_latex(report.errata_rows(claims), claims)
        else:
            text = report.render([], claims, "html", title="dpverify errata", certificates=certs)
    else:
        if ns.from_json:
            verdicts = _saved_verdicts(ns.from_json, claims)
        else:
            verdicts = _run_checks(claims, ns)
            status = exit_status(verdicts) if exit_status(verdicts) == EXIT_ERROR else 0
        text = report.render(verdicts, claims, ns.format, certificates=certs)
    if ns.out:
        _write("--out", ns.out, text)
        print(f"wrote {ns.out}", file=sys.stderr)
    else:
        print(text, end="")
    return status


def cmd_certify(ns) -> int:
    from .certify import certify_all

    if ns.all == bool(ns.ids):
        raise UsageError("give claim ids or --all (not both)")
    if os.path.exists(ns.out) and not os.path.isdir(ns.out):
        raise UsageError(f"--out {ns.out!r} exists and is not a directory")
    _check_scheduler(ns)
    claims = _nonempty(_claims(ns) if ns.all else [_get(i, ns.module) for i in ns.ids], ns)
    _check_folder("--out", ns.out)
    return certify_all(claims, _run_checks(claims, ns), ns.out, proofs=ns.proofs)


def cmd_constants(ns) -> int:
    from . import constants
    from .report import constants_table

    rows = constants.rows(_claims(ns))
    if ns.json:
        from .verdict import dumps

        print(dumps(rows, indent=2))
    else:
        print(constants_table(rows))
    return 0


def _figures() -> dict:
    from . import registry
    from .experiments import figures_of

    out = {}
    for key in registry.papers():
        out.update(figures_of(registry.paper_module(key)))
    return out


def cmd_reproduce(ns) -> int:
    figs = _figures()
    if ns.figure not in figs:
        raise UsageError(f"unknown figure id {ns.figure!r} (choose from {', '.join(sorted(figs)) or 'none'})")
    if ns.reps < 2:
        raise UsageError(f"--reps must be at least 2 (a standard error needs two runs), got {ns.reps}")
    out = ns.out if ns.out is not None else os.path.join("out", ns.figure.split("/")[-1])
    if os.path.exists(out) and not os.path.isdir(out):
        raise UsageError(f"--out {out!r} exists and is not a directory")
    _check_scheduler(ns)
    _check_folder("--out", out)
    from .distributed import SchedulerError
    from .experiments import use_scheduler

    try:
        with use_scheduler(ns.scheduler, ns.jobs):
            result = figs[ns.figure].run(out, reps=ns.reps, quick=ns.quick, jobs=ns.jobs, seed=ns.seed,
                                         progress=not ns.no_progress)
    except SchedulerError as exc:
        raise UsageError(str(exc)) from None
    print(result["summary"], end="")
    print(f"wrote {len(result['files'])} files to {out}")
    return 0


#: exit status after SIGTERM (128 + 15, what a shell reports for a process it ended) and SIGPIPE
EXIT_TERMINATED, EXIT_BROKEN_PIPE = 143, 141


def _stopped(exc: BaseException) -> str:
    from .errors import Terminated

    return "terminated" if isinstance(exc, Terminated) else "interrupted"


def _stopped_status(exc: BaseException) -> int:
    from .errors import Terminated

    return EXIT_TERMINATED if isinstance(exc, Terminated) else 130


def _on_sigterm(signum, frame):
    """SIGTERM (``kill``, ``docker stop``, ``timeout``) is handled as Ctrl-C: raise in the main thread
    (once: a second SIGTERM while the partial results are written is ignored)."""
    from .errors import Terminated

    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Terminated()


def _quiet_stdout() -> None:
    """After a broken pipe (``dpverify list | head -1``): standard output to /dev/null, so that the
    interpreter's last flush does not complain either."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: list[str] | None = None) -> int:
    from .errors import ClaimError, DomainError
    from .files import WriteError
    from .registry import RegistryError
    from .verdict import EXIT_ERROR, EXIT_USAGE

    from .gc_threshold import fewer_collections, threshold_from_env

    parser = build_parser()
    ns = parser.parse_args(argv)
    try:
        gc_threshold = threshold_from_env()
    except ValueError as exc:
        print(f"dpverify: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    import threading

    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        with fewer_collections(gc_threshold):   # workers forked inside inherit the thresholds
            return {"list": cmd_list, "check": cmd_check, "constants": cmd_constants, "report": cmd_report,
                    "reproduce": cmd_reproduce, "certify": cmd_certify}[ns.command](ns)
    except (UsageError, DomainError, ClaimError, RegistryError) as exc:
        msg = exc.args[0] if exc.args else str(exc)
        print(f"dpverify: error: {msg}", file=sys.stderr)
        return EXIT_USAGE
    except WriteError as exc:     # a full disk, a quota, a read-only folder: the environment, not a bug
        print(f"dpverify: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:       # the reader of our output went away (| head): stop quietly, as cat does
        _quiet_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt as exc:
        print(f"dpverify: {_stopped(exc)}", file=sys.stderr)
        return _stopped_status(exc)
    except Exception as exc:  # noqa: BLE001 - one line, never a traceback (DPVERIFY_TRACEBACK=1 shows it)
        if os.environ.get("DPVERIFY_TRACEBACK"):
            raise
        print(f"dpverify: internal error: {type(exc).__name__}: {exc} (a bug of dpverify; "
              "DPVERIFY_TRACEBACK=1 shows where)", file=sys.stderr)
        return EXIT_ERROR
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
