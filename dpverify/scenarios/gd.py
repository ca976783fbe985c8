"""Kept for :mod:`dpverify.certify`'s import of ``NoisyGD`` from here (another piece of work owns certify): the
scenario lives in :mod:`dpverify.scenarios.expectations.gd`.  Delete once certify imports it from :mod:`dpverify.scenarios`."""
from .expectations.gd import NoisyGD

__all__ = ["NoisyGD"]
