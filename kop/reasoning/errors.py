"""Errors of the reasoning layer, defined in :mod:`kop.errors` and kept here under their old names.

* :class:`ProverTimeout` -- the question was not decided within the time
  limit ("unknown within the limit"); a :class:`~kop.errors.LimitError`.
* :class:`ProverBug` -- an internal consistency check failed (for example a
  countermodel that the model checker refutes).  It is an ``AssertionError``:
  it means kop is wrong, never that the input is.
* :class:`AgentError` -- a formula names an agent outside the declared agents.
"""

from __future__ import annotations

from kop.errors import AgentError, ProverBug, ProverTimeout

__all__ = ["ProverTimeout", "ProverBug", "AgentError"]
