"""Kept for :mod:`dpverify.certify`'s import of ``AdaptiveGD`` from here (another piece of work owns certify): the
scenario lives in :mod:`dpverify.scenarios.expectations.adaptive`.  Delete once certify imports it from :mod:`dpverify.scenarios`."""
from .expectations.adaptive import AdaptiveGD

__all__ = ["AdaptiveGD"]
