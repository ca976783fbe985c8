"""Kept for :mod:`dpverify.certify`'s import of ``RandomRoundSGD`` from here (another piece of work owns certify): the
scenario lives in :mod:`dpverify.scenarios.expectations.random_round`.  Delete once certify imports it from :mod:`dpverify.scenarios`."""
from .expectations.random_round import RandomRoundSGD

__all__ = ["RandomRoundSGD"]
