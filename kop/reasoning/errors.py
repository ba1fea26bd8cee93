"""Errors of the reasoning layer.

* :class:`ProverTimeout` -- the question was not decided within the time
  limit ("unknown within the limit"); a :class:`~kop.syntax.errors.LimitError`.
* :class:`ProverBug` -- an internal consistency check failed (for example a
  countermodel that the model checker refutes).  It is an ``AssertionError``:
  it means kop is wrong, never that the input is.
"""

from __future__ import annotations

from kop.syntax.errors import KopError, LimitError

__all__ = ["ProverTimeout", "ProverBug", "AgentError"]


class ProverTimeout(LimitError):
    """Raised when a question is not decided within its ``timeout``.

    Attributes
    ----------
    seconds : float
        The limit that was exceeded.
    """

    def __init__(self, seconds: float, what: str = "the question"):
        self.seconds = seconds
        super().__init__(f"unknown within the limit: {what} was not decided in {seconds:g} s")


class ProverBug(AssertionError):
    """An internal check of the prover failed; please report it with the formula."""


class AgentError(KopError):
    """A formula names an agent outside the declared set of agents."""
