"""Where a formula holds in a Kripke model, and the public announcement that keeps those worlds.

The bodies of :meth:`KripkeModel.truth_set
<kop.semantics.model.KripkeModel.truth_set>`, :meth:`~kop.semantics.model.KripkeModel.satisfies`,
:meth:`~kop.semantics.model.KripkeModel.probability` and
:meth:`~kop.semantics.model.KripkeModel.announce`.  A model of at most
:data:`~kop.semantics.bitset_checker.SMALL_MODEL` worlds is checked with
integer bit sets (:mod:`kop.semantics.bitset_checker`, no numpy); a larger one
with numpy (:func:`kop.semantics.checker.truth_vector`), imported only then.

Designated worlds and the empty model: :func:`satisfies` with ``world=None``
asks about every designated world.  An update can leave a model with no
designated worlds (announcing something false at the actual world) or with no
worlds at all; asking about its designated worlds then raises
:class:`~kop.errors.ModelError` with the model's note.

Example
-------
>>> from kop import KripkeModel
>>> m = KripkeModel({"u": ["p"], "v": []}, {"a": [["u", "v"]], "b": [["u"], ["v"]]}, "u")
>>> sorted(truth_set(m, "K_b p | K_b ~p")), satisfies(m, "~K_a p"), satisfies(m, "K_a p", "v")
(['u', 'v'], True, False)
>>> announce(m, "~p").satisfies("p")
Traceback (most recent call last):
...
kop.errors.ModelError: the model has no designated worlds: the announcement '~p' is false at \
every designated world; name a world to check

References
----------
Fagin, Halpern, Moses & Vardi, *Reasoning About Knowledge* (1995), ch. 2;
Plaza, "Logics of public communications" (1989); Kooi, "Probabilistic dynamic
epistemic logic" (2003).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

from kop.semantics.bitset_checker import _KeptMeasure, members, truth_bits
from kop.semantics.errors import ModelError
from kop.semantics.model_build import as_formula, show_formula
from kop.semantics.model_value import ModelValue
from kop.syntax.formula import Formula

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

__all__ = ["truth_mask", "truth_set", "satisfies", "probability", "announce"]

M = TypeVar("M", bound=ModelValue)


def truth_mask(model: ModelValue, phi: Formula | str) -> np.ndarray:
    """Where *phi* holds, as a read-only boolean vector over the worlds (numpy).

    Parameters
    ----------
    model : KripkeModel
    phi : Formula or str

    Returns
    -------
    numpy.ndarray
        Entry *i* is True when *phi* holds at ``model.worlds[i]``.

    Examples
    --------
    >>> from kop import KripkeModel
    >>> truth_mask(KripkeModel({"u": ["p"], "v": []}, {"a": [["u"], ["v"]]}), "K_a p").tolist()
    [True, False]
    """
    from kop.semantics.checker import truth_vector  # numpy: imported by the first question that needs it

    return truth_vector(model, as_formula(phi))


def _bits(model: ModelValue, phi: Formula) -> int:
    """:func:`truth_bits`, or the numpy checker's answer as bits where a measure kept from before an
    announcement is needed (:class:`~kop.semantics.bitset_checker._KeptMeasure`)."""
    try:
        return truth_bits(model, phi)
    except _KeptMeasure:
        return sum(1 << i for i in truth_mask(model, phi).nonzero()[0].tolist())


def truth_set(model: ModelValue, phi: Formula | str) -> frozenset[str]:
    """The worlds of *model* where *phi* holds.

    Parameters
    ----------
    model : KripkeModel
    phi : Formula or str
        Every agent it names must be an agent of the model.

    Returns
    -------
    frozenset of str

    Raises
    ------
    ModelError
        If *phi* names an agent the model lacks.

    Examples
    --------
    >>> from kop import KripkeModel
    >>> truth_set(KripkeModel({"u": ["p"], "v": []}, {"a": [["u"], ["v"]]}), "K_a p")
    frozenset({'u'})
    """
    phi = as_formula(phi)
    w = model.worlds
    if model._small():
        return frozenset(w[i] for i in members(_bits(model, phi)))
    return frozenset(w[i] for i in truth_mask(model, phi).nonzero()[0].tolist())


def satisfies(model: ModelValue, phi: Formula | str, world: str | None = None) -> bool:
    """Whether *phi* holds at *world*, or at every designated world when *world* is None.

    Parameters
    ----------
    model : KripkeModel
    phi : Formula or str
    world : str, optional
        A world of the model; None (the default) asks about every designated world.

    Returns
    -------
    bool

    Raises
    ------
    ModelError
        If *phi* names an agent the model lacks, *world* is unknown, or
        ``world=None`` and the model has no designated worlds (an empty
        model, or one whose designated worlds an update removed).

    Examples
    --------
    >>> from kop import KripkeModel
    >>> m = KripkeModel({"u": ["p"], "v": []}, {"a": [["u", "v"]]}, "u")
    >>> satisfies(m, "p & ~K_a p"), satisfies(m, "p", "v")
    (True, False)
    """
    phi = as_formula(phi)
    if world is None:
        actual = model._actual_list()
        if not actual:
            raise ModelError(no_designated(model))
        if model._small():
            bits = _bits(model, phi)
            return all(bits >> i & 1 for i in actual)
        return bool(truth_mask(model, phi)[model._actual].all())
    i = model.index(world)
    if model._small():
        return bool(_bits(model, phi) >> i & 1)
    return bool(truth_mask(model, phi)[i])


def no_designated(model: ModelValue) -> str:
    """Why *model* cannot answer a question about its designated worlds (it has none)."""
    why = f": {model.note}" if model.note else ""
    if len(model) == 0:
        return f"the model is empty{why}; there is no designated world to check"
    return f"the model has no designated worlds{why}; name a world to check"


def probability(model: ModelValue, agent: str, phi: Formula | str, world: str | None = None) -> Fraction:
    """*agent*'s probability of *phi* at *world* (default: the only designated world), exactly.

    The weight of the *phi*-worlds of *agent*'s cell divided by the weight of
    the cell; when the cell has no weight left after an announcement, the agent
    keeps its measure from before it (Kooi; see :mod:`kop.semantics.uncertainty`).  An agent without probabilities weighs
    every world 1.

    Parameters
    ----------
    model : KripkeModel
    agent : str
    phi : Formula or str
    world : str, optional
        Default: the model's only designated world.

    Returns
    -------
    fractions.Fraction

    Raises
    ------
    ModelError
        An unknown agent or world, or no world named when the model has not
        exactly one designated world.

    Examples
    --------
    >>> from kop import KripkeModel
    >>> m = KripkeModel({"u": ["p"], "v": [], "x": []}, {"a": [["u", "v", "x"]]}, "u",
    ...                 probability={"a": {"u": "1/2", "v": "1/4", "x": "1/4"}})
    >>> probability(m, "a", "p"), probability(m, "a", "~p", "x")
    (Fraction(1, 2), Fraction(1, 2))

    References
    ----------
    Kooi, "Probabilistic dynamic epistemic logic", JoLLI 12 (2003).
    """
    phi = as_formula(phi)
    if world is None:
        if len(model.actual) != 1:
            raise ModelError("name the world: the model has "
                             f"{len(model.actual) or 'no'} designated worlds")
        world = model.actual[0]
    cell = model.block(agent, world)
    true_at = truth_set(model, phi)
    ints = model._unc.int_weights(agent) if model._unc else None
    weight: Callable[[int], int] = (lambda i: 1) if ints is None else ints.__getitem__
    total = sum(weight(model.index(w)) for w in cell)
    good = sum(weight(model.index(w)) for w in cell if w in true_at)
    if total:
        return Fraction(good, total)
    from kop.semantics.checker import kept_probability  # numpy: only for a measure kept from before

    return kept_probability(model, agent, model.index(world), phi)


def announce(model: M, phi: Formula | str) -> M:
    """The model after the public announcement of *phi*: the restriction to the *phi*-worlds.

    If *phi* is false everywhere, the result is the empty model (``is_empty``)
    with a ``note`` saying so; if it is false at every designated world, the
    result has no designated worlds.  Either way asking ``satisfies`` about the
    designated worlds then raises :class:`ModelError` with that note.

    Parameters
    ----------
    model : KripkeModel
    phi : Formula or str

    Returns
    -------
    KripkeModel
        The submodel of the *phi*-worlds (of the class of *model*).

    Examples
    --------
    >>> from kop import KripkeModel
    >>> m = KripkeModel({"w0": ["p"], "w1": []}, {"a": [["w0", "w1"]]}, "w0")
    >>> announce(m, "p").satisfies("K_a p"), announce(m, "~p & p").is_empty
    (True, True)

    References
    ----------
    Plaza, "Logics of public communications" (1989); van Ditmarsch, van der
    Hoek & Kooi, *Dynamic Epistemic Logic* (2007), ch. 4.
    """
    phi = as_formula(phi)
    if model._small():  # without numpy (see kop.semantics.bitset_checker)
        keep = _bits(model, phi)
        actual = model._actual_list()
        if not keep:
            note: str | None = f"the announcement {show_formula(phi)} is false at every world"
        elif actual and not any(keep >> i & 1 for i in actual):
            note = f"the announcement {show_formula(phi)} is false at every designated world"
        else:
            note = None
        return model._restrict_bits(keep, note)
    mask = truth_mask(model, phi)
    note = None
    if not mask.any():
        note = f"the announcement {show_formula(phi)} is false at every world"
    elif len(model._actual) and not mask[model._actual].any():
        note = f"the announcement {show_formula(phi)} is false at every designated world"
    return model._restrict(mask, note)
