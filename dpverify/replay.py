"""The command line that replays a verdict at one point (used by the CLI, the report, pytest and notebooks)."""
from __future__ import annotations


def replay_command(claim_id: str, params: dict, module: str | None = None) -> str:
    """The ``dpverify check`` command that pins a claim to a point."""
    parts = []
    for k, v in params.items():
        if isinstance(v, (list, tuple)):
            parts.append(f"{k}=[{','.join(repr(float(x)) if isinstance(x, float) else str(x) for x in v)}]")
        else:
            parts.append(f"{k}={v!r}" if isinstance(v, float) else f"{k}={v}")
    mod = f" --module {module}" if module else ""
    return f"dpverify check {claim_id}{mod} --at {','.join(parts)}"


__all__ = ["replay_command"]
