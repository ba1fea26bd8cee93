"""Errors of the semantics layer.

Every error a user can cause while building, loading, checking or updating a
Kripke model is a :class:`ModelError`; it is a :class:`kop.KopError` (and so a
``ValueError``), which the ``kop`` command prints without a traceback.
"""

from __future__ import annotations

from kop.errors import KopError

__all__ = ["ModelError"]


class ModelError(KopError):
    """A Kripke or action model is malformed, or a question about it cannot be answered.

    The message names what is at fault: the agent, the world, the event or the
    JSON path.

    Parameters
    ----------
    message : str
        What is wrong, and where.

    Examples
    --------
    >>> from kop import KripkeModel
    >>> KripkeModel({"w0": [], "w1": []}, {"a": [["w0"]]})
    Traceback (most recent call last):
    ...
    kop.semantics.errors.ModelError: agent 'a': world 'w1' is in no block of the partition
    """
