"""``dpverify``: list, check and inspect the registered claims.

Exit status: 0 when every verdict equals its claim's expected verdict, 1 otherwise, 2 on a usage
error (bad option, unknown claim, a pinned point outside the claim's hypotheses).
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import sys
from typing import Any

from . import __version__


class UsageError(Exception):
    pass


def parse_at(text: str) -> dict[str, Any]:
    """Parse ``name=value,...``; a sequence is ``[v1,v2,...]`` or ``v1;v2;...``."""
    out: dict[str, Any] = {}
    if not text or not text.strip():
        raise UsageError("--at needs name=value pairs, e.g. --at kappa=2,alpha=0.1,T=5")
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    for part in parts:
        if "=" not in part:
            raise UsageError(f"--at: {part.strip()!r} is not name=value")
        name, value = (s.strip() for s in part.split("=", 1))
        if not name:
            raise UsageError(f"--at: missing name in {part.strip()!r}")
        if value.startswith("[") or ";" in value:
            items = value.strip("[]").replace(";", ",").split(",")
            try:
                out[name] = [float(v) for v in items if v.strip()]
            except ValueError:
                raise UsageError(f"--at: {name} = {value!r} is not a list of numbers") from None
            continue
        try:
            num = float(value)
        except ValueError:
            out[name] = value  # a choice, e.g. adjacency=replace
            continue
        out[name] = int(num) if num.is_integer() and "." not in value and "e" not in value.lower() else num
    return out


def _int_at_least(name: str, minimum: int):
    """An argparse converter for integers >= ``minimum`` whose error names the option."""
    what = "a positive integer" if minimum == 1 else "a non-negative integer" if minimum == 0 else \
        f"an integer >= {minimum}"

    def conv(s):
        try:
            v = int(s)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be {what}, got {s!r}") from None
        if v < minimum:
            raise argparse.ArgumentTypeError(f"{name} must be {what}, got {s!r}")
        return v
    return conv


def _positive_int(name):
    return _int_at_least(name, 1)


def _nonneg_int(name):
    return _int_at_least(name, 0)


def _confidence(s):
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"confidence must be a number in [0.5, 1), got {s!r}") from None
    if not (0.5 <= v < 1):
        raise argparse.ArgumentTypeError(f"confidence must be in [0.5, 1), got {s!r}")
    return v


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="dpverify", description=__doc__.splitlines()[0])
    p.add_argument("--version", action="version", version=f"dpverify {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    ls = sub.add_parser("list", help="list the registered claims")
    ls.add_argument("--paper", help="only this paper's claims (e.g. dni)")
    ls.add_argument("--json", action="store_true", help="print a JSON array")

    ck = sub.add_parser("check", help="verify claims and print their verdicts")
    ck.add_argument("ids", nargs="*", metavar="ID", help="claim ids (see `dpverify list`)")
    ck.add_argument("--all", action="store_true", help="every registered claim")
    ck.add_argument("--paper", help="with --all: only this paper")
    ck.add_argument("--json", action="store_true", help="print a JSON array, one object per claim")
    ck.add_argument("--seed", type=_nonneg_int("seed"), default=0, help="seed of every random choice (default 0)")
    ck.add_argument("--runs", type=_positive_int("runs"), default=20000,
                    help="Monte Carlo runs per parameter point (default 20000)")
    ck.add_argument("--samples", type=_positive_int("samples"), default=150,
                    help="points per sampled search (default 150)")
    ck.add_argument("--confidence", type=_confidence, default=0.99,
                    help="one-sided confidence of Monte Carlo decisions (default 0.99)")
    ck.add_argument("--at", help="pin parameters to one point: name=value,... (sequences as [a,b,c])")
    ck.add_argument("--jobs", type=_positive_int("jobs"), default=None,
                    help="worker processes (default: number of cores, at most 2)")
    ck.add_argument("--chunk", type=_positive_int("chunk"), default=65536,
                    help="Monte Carlo runs per chunk (memory bound; results do not depend on it)")
    ck.add_argument("--no-timing", action="store_true",
                    help="write 0 for seconds, so that the same seed gives byte-identical JSON")
    ck.add_argument("--no-progress", action="store_true", help="no progress bar")

    cs = sub.add_parser("constants", help="constants printed in claims, against their derivation")
    cs.add_argument("--paper", help="only this paper's claims")
    cs.add_argument("--json", action="store_true")

    rp = sub.add_parser("reproduce", help="reproduce a paper's experiment figure (a report, not a verdict)")
    rp.add_argument("figure", metavar="FIGURE", help="figure id: dni/fig-2 or dni/fig-3")
    rp.add_argument("--out", help="output directory (default out/<figure>, e.g. out/fig-3)")
    rp.add_argument("--reps", type=_positive_int("reps"), default=100,
                    help="repetitions (Monte Carlo runs) per configuration (default 100)")
    rp.add_argument("--quick", action="store_true",
                    help="reduced size: 3 data scales, 2 horizons, at most 20 reps")
    rp.add_argument("--jobs", type=_positive_int("jobs"), default=2,
                    help="worker processes (default 2; results do not depend on it)")
    rp.add_argument("--seed", type=_nonneg_int("seed"), default=0, help="seed (default 0)")
    rp.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def _check_one(args):
    claim_id, cfg_kw = args
    from . import registry
    from .checks import Config, run

    return run(registry.get(claim_id), Config(**cfg_kw))


def _claims(paper):
    from . import registry

    try:
        return registry.all_claims(paper)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def cmd_list(ns) -> int:
    from .report import claims_table

    claims = _claims(ns.paper)
    if ns.json:
        print(json.dumps([c.to_json() for c in claims], indent=2))
    else:
        print(claims_table(claims))
    return 0


def cmd_check(ns) -> int:
    from . import registry
    from .report import table

    if ns.all and ns.ids:
        raise UsageError("give claim ids or --all, not both")
    if not ns.all and not ns.ids:
        raise UsageError("give at least one claim id, or --all (see `dpverify list`)")
    if ns.paper and not ns.all:
        raise UsageError("--paper goes with --all")
    claims = _claims(ns.paper) if ns.all else [registry.get(i) for i in ns.ids]
    at = parse_at(ns.at) if ns.at is not None else None
    if at is not None:
        if len(claims) != 1:
            raise UsageError("--at pins the parameters of one claim: give exactly one id")
        claims[0].domain.validate(at)
    cfg_kw = dict(seed=ns.seed, runs=ns.runs, samples=ns.samples, confidence=ns.confidence,
                  at=at, chunk_runs=ns.chunk)
    jobs = ns.jobs or min(2, os.cpu_count() or 1)
    tasks = [(c.id, cfg_kw) for c in claims]
    progress = not ns.no_progress
    from tqdm import tqdm

    bar = tqdm(total=len(tasks), desc="checking", unit="claim", file=sys.stderr,
               disable=not progress or None)
    verdicts = []
    if jobs > 1 and len(tasks) > 1:
        ctx = mp.get_context("fork")
        with ctx.Pool(min(jobs, len(tasks))) as pool:
            for v in pool.imap(_check_one, tasks):
                verdicts.append(v)
                bar.set_postfix_str(f"{v.id}: {v.verdict}")
                bar.update()
    else:
        for t in tasks:
            bar.set_postfix_str(t[0])
            v = _check_one(t)
            verdicts.append(v)
            bar.update()
    bar.close()
    if ns.json:
        print(json.dumps([v.to_json(timing=not ns.no_timing) for v in verdicts], indent=2))
    else:
        print(table(verdicts))
        for v in verdicts:
            if v.verdict == "violated" and v.counterexample is not None:
                ce = v.counterexample
                print(f"\n{v.id}: counterexample {json.dumps(ce.get('params'))} (seed {ce.get('seed')})")
    return 0 if all(v.ok for v in verdicts) else 1


def cmd_constants(ns) -> int:
    from . import constants
    from .report import constants_table

    rows = constants.rows(_claims(ns.paper))
    if ns.json:
        print(json.dumps(rows, indent=2))
    else:
        print(constants_table(rows))
    return 0


def cmd_reproduce(ns) -> int:
    from . import reproduce as rep

    if ns.figure not in rep.FIGURES:
        raise UsageError(f"unknown figure id {ns.figure!r} (choose from {', '.join(rep.FIGURES)})")
    if ns.reps < 2:
        raise UsageError(f"--reps must be at least 2 (a standard error needs two runs), got {ns.reps}")
    out = ns.out if ns.out is not None else os.path.join("out", ns.figure.split("/")[-1])
    if os.path.exists(out) and not os.path.isdir(out):
        raise UsageError(f"--out {out!r} exists and is not a directory")
    result = rep.reproduce(ns.figure, out, reps=ns.reps, quick=ns.quick, jobs=ns.jobs, seed=ns.seed,
                           progress=not ns.no_progress)
    print(result["summary"], end="")
    print(f"wrote {len(result['files'])} files to {out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    from .spec import DomainError

    parser = build_parser()
    ns = parser.parse_args(argv)
    try:
        return {"list": cmd_list, "check": cmd_check, "constants": cmd_constants,
                "reproduce": cmd_reproduce}[ns.command](ns)
    except (UsageError, DomainError, KeyError) as exc:
        msg = exc.args[0] if exc.args else str(exc)
        print(f"dpverify: error: {msg}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
