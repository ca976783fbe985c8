"""Arguments of the noisy gradient simulators that need the problem classes (the generic checks
are in ``validation``, which the problem classes themselves use)."""
from __future__ import annotations

from .gradients import FullGradient, GradientSource
from .problems import Problem, Quadratic
from .updates import Plain, UpdateRule
from .validation import check_real, short


def check_problem(name: str, problem: object):
    """Return *problem* if it is a :class:`~dpverify.sim.problems.Problem`."""
    if not isinstance(problem, Problem):
        raise ValueError(f"{name} must be a dpverify.sim Problem, got {short(problem)}")
    return problem


def check_clip(clip: object, *problems: object) -> float | None:
    """``None`` or a positive clipping norm; rejected on problems without per-sample gradients."""
    if clip is None:
        return None
    clip = check_real("clip", clip, positive=True)
    if any(isinstance(p, Quadratic) for p in problems):
        raise ValueError(
            f"clip must be None for Quadratic (it has no per-sample gradients), got {clip!r}"
        )
    return clip


def check_parts(update: object, gradient: object) -> tuple[UpdateRule, GradientSource]:
    """The update rule and the gradient source of a simulator made of parts: the plain rule and the full
    gradient when not given."""
    update = Plain() if update is None else update
    gradient = FullGradient() if gradient is None else gradient
    if not isinstance(update, UpdateRule):
        raise ValueError(f"update must be a dpverify.sim.updates rule, got {short(update)}")
    if not isinstance(gradient, GradientSource):
        raise ValueError(f"gradient must be a dpverify.sim.gradients source, got {short(gradient)}")
    return update, gradient
