"""Errors of the reasoning layer.

* :class:`ProverTimeout` -- the question was not decided within the time
  limit ("unknown within the limit"); a :class:`~kop.errors.LimitError`.
* :class:`ProverBug` -- an internal consistency check failed (for example a
  countermodel that the model checker refutes).  It is an ``AssertionError``:
  it means kop is wrong, never that the input is.
"""

from __future__ import annotations

from kop.syntax.budget import OutOfTime
from kop.errors import KopError, LimitError

__all__ = ["ProverTimeout", "ProverBug", "AgentError"]


class ProverTimeout(OutOfTime):
    """Raised when a question is not decided within its ``timeout``.

    Attributes
    ----------
    seconds : float
        The limit that was exceeded.

    Examples
    --------
    >>> import kop
    >>> err = kop.ProverTimeout(2.0)
    >>> str(err), isinstance(err, kop.KopError), err.seconds
    ('unknown within the limit: the question was not decided in 2 s', True, 2.0)
    """

    def __init__(self, seconds: float, what: str = "the question"):
        self.seconds = seconds
        LimitError.__init__(self, f"unknown within the limit: {what} was not decided in {seconds:g} s")


class ProverBug(AssertionError):
    """An internal check of the prover failed; please report it with the formula.

    It is an :class:`AssertionError`, not a :class:`~kop.errors.KopError`: the input was fine, kop
    was not.  The prover checks every model it returns with the model checker and raises this
    when the check fails.

    Examples
    --------
    >>> import kop
    >>> issubclass(kop.ProverBug, AssertionError), issubclass(kop.ProverBug, kop.KopError)
    (True, False)
    """


class AgentError(KopError):
    """A formula names an agent outside the declared set of agents."""
