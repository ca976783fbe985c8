"""The command line that replays a verdict at one point (used by the CLI, the report, pytest and notebooks)."""
from __future__ import annotations

from .escape import shell_line


def replay_command(claim_id: str, params: dict, module: str | None = None, seed: int | None = None) -> str:
    """The ``dpverify check`` command that pins a claim to a point; with ``seed``, also the seed
    (a counterexample of a seeded random check, e.g. Monte Carlo, replays only at its seed).

    ``module``: the claims file to name with ``--module``; by default the one the claim was loaded
    from (:func:`dpverify.registry.module_of`), so that the line works from every front end (the
    command line, pytest, a report, a notebook).

    Every token is quoted for a POSIX shell (``shlex.quote``): a value with ``;``, ``$`` or a space in it
    is passed to dpverify as written, never run (``--at 'c=b;touch x'``)."""
    parts = []
    for k, v in params.items():
        if isinstance(v, (list, tuple)):
            parts.append(f"{k}=[{','.join(repr(float(x)) if isinstance(x, float) else str(x) for x in v)}]")
        else:
            parts.append(f"{k}={v!r}" if isinstance(v, float) else f"{k}={v}")
    if module is None:   # a claim loaded from a claims file replays only with that file
        from .registry import module_of

        module = module_of(claim_id)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")
    return shell_line("dpverify", "check", claim_id, *(("--module", module) if module else ()),
                      "--at", ",".join(parts), *(() if seed is None else ("--seed", seed)))


def replay_counterexample(claim_id: str, counterexample: dict, module: str | None = None) -> str:
    """The command that replays a check's ``counterexample`` (its ``params``, at its ``seed``)."""
    return replay_command(claim_id, counterexample.get("params") or {}, module, counterexample.get("seed"))


__all__ = ["replay_command", "replay_counterexample"]
