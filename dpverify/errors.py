"""The errors a user meets (importing nothing heavy, so that the command line can catch them before
any claim is built)."""


class DomainError(ValueError):
    """A point lies outside a claim's hypotheses (message: ``kappa = 0.5 violates kappa >= 1``)."""


class ClaimError(ValueError):
    """A claim (or one of its statements) is malformed; the message names claim, field and value."""


#: The verdicts a claim can be expected to get (its vocabulary; a check may also end in ``error``).
VERDICTS = ("verified", "holds", "violated", "inconclusive")

#: A claim id: ``paper/name`` in lower case, matched whole (``re.fullmatch``; ``claims.ID_RE`` compiles it).
ID_PATTERN = r"[a-z0-9_]+/[a-z0-9][a-z0-9.\-_]*"


class Terminated(KeyboardInterrupt):
    """SIGTERM (``kill``, ``docker stop``, ``timeout``) received by the command line: handled as Ctrl-C
    is (workers ended, the verdicts finished so far written, marked incomplete), exit status 143."""
