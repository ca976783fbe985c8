"""Kept for :mod:`dpverify.certify`'s import of ``SingleSampleSGDPrivacy`` from here (another piece of work owns certify): the
scenario lives in :mod:`dpverify.scenarios.privacy.one_sample_sgd`.  Delete once certify imports it from :mod:`dpverify.scenarios`."""
from .privacy.one_sample_sgd import SingleSampleSGDPrivacy

__all__ = ["SingleSampleSGDPrivacy"]
