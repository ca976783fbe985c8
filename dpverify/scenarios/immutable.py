"""Scenarios are immutable: every attribute is set in ``__init__`` (or, for a bound copy, in
:meth:`~dpverify.scenarios.Scenario._on_bind`); :meth:`~dpverify.scenarios.Scenario.bind` and
:meth:`~dpverify.scenarios.Scenario.evolve` return new objects.  :class:`Immutable`, the scenarios'
metaclass, freezes each once its ``__init__`` has run (and records how it was made, to rebuild it with
other parameters)."""
from __future__ import annotations

import abc

__all__ = ["Immutable"]


class Immutable(abc.ABCMeta):
    """Freezes every scenario once its ``__init__`` has run."""

    def __call__(cls, *args, **kwargs):
        obj = super().__call__(*args, **kwargs)
        object.__setattr__(obj, "_made_with", (args, kwargs))   # to rebuild it with other parameters
        object.__setattr__(obj, "_frozen", True)
        return obj
