"""Lazy exports for a package's ``__init__``: the public names are listed once, as ordinary imports
inside ``if TYPE_CHECKING:`` (so that readers, type checkers and IDEs see them), and each is imported
on first access.

This is the idea of scientific-python's ``lazy_loader`` (names read from a stub), with the stub
being the package's own ``TYPE_CHECKING`` block: ``import dpverify.sim`` costs nothing until a
name is used, so ``dpverify list`` does not pay for SciPy, numba or dp-accounting.

Usage, at the end of a package's ``__init__.py``::

    if TYPE_CHECKING:
        from .problems import Quadratic, LeastSquares
        from . import composition
    __getattr__, __dir__, __all__ = attach(__name__, __file__)

A name that is both a submodule and a function of that submodule (``sim.output_perturbation``)
resolves to the function, as the eager ``from .x import x`` did: importing the submodule does not
overwrite the exported name.
"""
from __future__ import annotations

import ast
import importlib
import sys
import types
from pathlib import Path


def _exports(path: str) -> dict[str, str | None]:
    """name -> submodule (None: the name is itself a submodule) from the ``if TYPE_CHECKING:`` blocks."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    out: dict[str, str | None] = {}
    for node in tree.body:
        if not (isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
            continue
        for imp in node.body:
            if isinstance(imp, ast.ImportFrom) and imp.level == 1:
                for alias in imp.names:
                    out[alias.asname or alias.name] = imp.module
    return out


class _LazyPackage(types.ModuleType):
    """A package module whose exported names win over same-named submodules set by the import system."""

    def __setattr__(self, name, value):
        exports = self.__dict__.get("_lazy_exports", {})
        if isinstance(value, types.ModuleType) and exports.get(name) is not None:
            return  # the import system binding submodule ``name``; the export of that name is a function
        super().__setattr__(name, value)


def attach(package: str, init_file: str):
    """``(__getattr__, __dir__, __all__)`` for ``package``, whose exports are its TYPE_CHECKING imports."""
    exports = _exports(init_file)
    module = sys.modules[package]
    module.__class__ = _LazyPackage
    module.__dict__["_lazy_exports"] = exports

    def __getattr__(name: str):
        if name not in exports:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        sub = exports[name]
        if sub is None:
            value = importlib.import_module(f"{package}.{name}")
        else:
            value = getattr(importlib.import_module(f"{package}.{sub}"), name)
        module.__dict__[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(module.__dict__) | set(exports))

    return __getattr__, __dir__, sorted(n for n, sub in exports.items() if sub is not None)
