"""The errors a user meets (importing nothing heavy, so that the command line can catch them before
any claim is built)."""


class DomainError(ValueError):
    """A point lies outside a claim's hypotheses (message: ``kappa = 0.5 violates kappa >= 1``)."""


class ClaimError(ValueError):
    """A claim (or one of its statements) is malformed; the message names claim, field and value."""


#: The verdicts a claim can be expected to get (its vocabulary; a check may also end in ``error``).
VERDICTS = ("verified", "holds", "violated", "inconclusive")
