"""The simulator's objectives, each in optimisation terms (:class:`Problem`: ``dim``, ``value``, ``grad``,
``f_star``, ``M``, ``mu``): the diagonal :class:`Quadratic`; linear models on data (:class:`LeastSquares`,
:class:`LogisticRegression`, :class:`LinearLoss`, :class:`HuberRegression`) with their neighbouring data
sets (:func:`make_neighbour`, :func:`remove_sample`); the non-convex :class:`CosineSum`, logistic regression
with a ridge that may be zero (:class:`Logistic`), and the separable, possibly non-convex
:class:`SeparableLoss` whose empirical risk is known in closed form.

A new problem is a module here with a :class:`Problem` subclass; an algorithm takes any of them (a
fused kernel runs the kinds it implements, the NumPy path every problem).
"""

from .base import Problem, readonly
from .linear import (HuberRegression, LeastSquares, LinearLoss, LinearModel, LogisticRegression, check_data_problem,
                     make_neighbour, remove_sample)
from .losses import CosineSum, Logistic
from .quadratic import Quadratic
from .separable import SeparableLoss

__all__ = ["CosineSum", "HuberRegression", "LeastSquares", "LinearLoss", "LinearModel", "Logistic",
           "LogisticRegression", "Problem", "Quadratic", "SeparableLoss", "check_data_problem", "make_neighbour",
           "readonly", "remove_sample"]
