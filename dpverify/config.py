"""The options of a verification run, each declared once: :class:`Config`.

Every field of :class:`Config` is an option (:class:`Option`): its name, default, help text, what a
valid value is (checked by ``Config`` itself, so the same rule holds however a run is started) and its
command-line flag. Both front ends are made from this one declaration: ``dpverify check`` / ``report`` /
``certify`` add one flag per option (:mod:`dpverify.options`), and :func:`dpverify.check` takes one keyword
per option. The module imports nothing beyond the standard library, so that building the command line
costs nothing.
"""
from __future__ import annotations

import math
from dataclasses import MISSING, dataclass, field, fields, replace
from collections.abc import Mapping
from typing import Any, Callable

#: ``--quick``'s sizes: Monte Carlo runs per point and points per sampled search (at most).
QUICK_RUNS, QUICK_SAMPLES = 2000, 30
#: An integer option's values stay below this (what a 64-bit integer holds: NumPy, seeds, counts).
INT_LIMIT = 2 ** 63


@dataclass(frozen=True)
class Rule:
    """What a valid value of an option is: ``what`` (for the message ``"<name> must be <what>, got <value>"``),
    ``ok(value) -> bool``, and ``type``, how the command line reads one (``int``, ``float``, ``bool``: a flag
    without a value; ``dict``: read by the front end)."""

    what: str
    ok: Callable[[Any], bool]
    type: type


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def int_at_least(minimum: int) -> Rule:
    what = {0: "a non-negative integer", 1: "a positive integer"}.get(minimum, f"an integer >= {minimum}")
    return Rule(what, lambda v: _is_int(v) and minimum <= v < INT_LIMIT, int)


def finite_at_least(minimum: float, *, strict: bool = False) -> Rule:
    what = f"a finite number {'>' if strict else '>='} {minimum:g}"
    return Rule(what, lambda v: _is_number(v) and math.isfinite(v) and (v > minimum if strict else v >= minimum),
                float)


CONFIDENCE = Rule("a number in [0.5, 1)", lambda v: _is_number(v) and 0.5 <= v < 1, float)
SWITCH = Rule("True or False", lambda v: isinstance(v, bool), bool)
POINT = Rule("a mapping of parameter values (name -> value), or None", lambda v: v is None or isinstance(v, Mapping),
             dict)


@dataclass(frozen=True)
class Option:
    """One option of a run: ``name`` (``Config``'s field, :func:`dpverify.check`'s keyword), ``default``,
    ``help`` (one phrase, without the default), ``rule`` (:class:`Rule`), ``flag`` (the command line's,
    e.g. ``--chunk``; its value lands in ``argparse``'s ``dest``)."""

    name: str
    default: Any
    help: str
    rule: Rule
    flag: str

    @property
    def dest(self) -> str:
        """The attribute ``argparse`` stores the flag's value in."""
        return self.flag.lstrip("-").replace("-", "_")

    def problem(self, value, label: str | None = None) -> str | None:
        """Why ``value`` is not valid (one line naming ``label``, the option's name by default), or None."""
        if self.rule.ok(value):
            return None
        return f"{label or self.name} must be {self.rule.what}, got {_shown(value)}"

    def parse(self, text: str):
        """The value of the flag's ``text``; ValueError with one line naming the flag when it is not valid."""
        label = self.flag.lstrip("-")
        try:
            value = self.rule.type(text)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f"{label} must be {self.rule.what}, got {_shown(text)}") from None
        if self.rule.type is int and value >= INT_LIMIT:
            raise ValueError(f"{label} must be below 2^63, got {_shown(text)}")
        if not self.rule.ok(value):
            raise ValueError(f"{label} must be {self.rule.what}, got {_shown(text)}")
        return value


def _shown(value) -> str:
    """``repr(value)``, cut to a readable length (a message stays one short line)."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:24]}... ({len(text)} characters)"


def option(default, help: str, rule: Rule, flag: str):
    """A field of :class:`Config` declared as an option (its name is the field's)."""
    return field(default=default, metadata={"option": (help, rule, flag)})


@dataclass(frozen=True)
class Config:
    """The options of a verification run (see :data:`OPTIONS` for each one's help). Every random choice
    derives from ``seed``. ``confidence`` is shared across the points of one check by a Bonferroni
    correction. ``symbolic_timeout``: every attempt on the registered papers ends, with or without a proof,
    within 7 s on a quiet machine; a proof not found in time is ``inconclusive``, never a verdict, and the
    limit is far enough from every attempt that a loaded machine or a worker thread gives the same
    evidence. ``box_budget`` is the budget that decides the box proof (the same on every machine),
    ``box_seconds`` only a safety cap. ``deep_proofs`` proved nothing on the registered papers that the
    other rewritings did not. A value that is not valid is refused naming the option (ValueError)."""

    seed: int = option(0, "seed of every random choice", int_at_least(0), "--seed")
    runs: int = option(20000, "Monte Carlo runs per parameter point", int_at_least(2), "--runs")
    samples: int = option(150, "points per sampled search", int_at_least(1), "--samples")
    confidence: float = option(0.99, "one-sided confidence of Monte Carlo decisions", CONFIDENCE, "--confidence")
    at: dict | None = option(None, "pin parameters to one point: name=value,... (sequences as [a,b,c])", POINT,
                             "--at")
    chunk_runs: int = option(65536, "Monte Carlo runs per chunk (memory bound; results do not depend on it)",
                             int_at_least(1), "--chunk")
    symbolic_timeout: float = option(15.0, "seconds of CPU time SymPy may spend on one statement (a proof not "
                                     "found in time is inconclusive; 0: no limit)", finite_at_least(0),
                                     "--symbolic-timeout")
    dps: int = option(50, "decimal digits of the mpmath evaluations that confirm a point (and twice as many)",
                      int_at_least(15), "--dps")
    prove_box: bool = option(False, "also prove each inequality SymPy did not on the claim's search box, by "
                             "interval branch-and-bound in ball arithmetic (slow; a success is 'verified' with basis "
                             "proof-on-box and the box as its scope)", SWITCH, "--prove-box")
    box_budget: int = option(20000, "boxes the box proof may decide per statement", int_at_least(1), "--box-budget")
    box_seconds: float = option(120.0, "seconds of CPU time the box proof may spend per statement (a safety cap; "
                                "the budget of boxes decides)", finite_at_least(0, strict=True), "--box-seconds")
    proof_budget: int = option(500, "boxes the domain proof (on by default: an inequality proved on its whole domain, "
                               "unbounded directions included) may decide per statement (0: no domain proof)",
                               int_at_least(0), "--proof-budget")
    adversary: float = option(1.0, "budget of the adversarial searches over data problems' start, data and replaced "
                              "sample, as a multiple of each scenario's own (0: none)", finite_at_least(0),
                              "--adversary")
    deep_proofs: bool = option(False, "the symbolic check also tries SymPy's slow rewritings (simplify(expand(.)), "
                               "Expr.equals): slower, and on the registered papers no proof more", SWITCH,
                               "--deep-proofs")
    quick: bool = option(False, f"a first look: at most {QUICK_RUNS} Monte Carlo runs per point and {QUICK_SAMPLES} "
                         "points per sampled search (said so in the output and the JSON; never replayed as a full "
                         "run)", SWITCH, "--quick")

    def __post_init__(self):
        for opt in OPTIONS:
            why = opt.problem(getattr(self, opt.name))
            if why:
                raise ValueError(why)
        if self.quick:      # the quick run's sizes (the options themselves keep what was asked)
            object.__setattr__(self, "runs", min(self.runs, QUICK_RUNS))
            object.__setattr__(self, "samples", min(self.samples, QUICK_SAMPLES))

    def seed_for(self, *names: Any) -> int:
        from .search import derive_seed

        return derive_seed(self.seed, *names)

    def with_(self, **kw) -> "Config":
        return replace(self, **kw)


def _options() -> tuple[Option, ...]:
    out = []
    for f in fields(Config):
        text, rule, flag = f.metadata["option"]
        out.append(Option(f.name, None if f.default is MISSING else f.default, text, rule, flag))
    return tuple(out)


#: Every option of a run, in :class:`Config`'s order.
OPTIONS: tuple[Option, ...] = _options()
BY_NAME = {o.name: o for o in OPTIONS}


def config_from(options: dict) -> Config:
    """A :class:`Config` from a dict of options; an unknown name is a TypeError naming it and the known ones."""
    unknown = [k for k in options if k not in BY_NAME]
    if unknown:
        raise TypeError(f"unknown option {unknown[0]!r} (the options: {', '.join(BY_NAME)})")
    return Config(**options)


__all__ = ["BY_NAME", "CONFIDENCE", "Config", "INT_LIMIT", "OPTIONS", "Option", "POINT", "QUICK_RUNS", "QUICK_SAMPLES", "Rule", "SWITCH", "config_from",
           "finite_at_least", "int_at_least"]
