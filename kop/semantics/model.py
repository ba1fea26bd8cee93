"""S5_n Kripke models: worlds, one partition per agent, a valuation, designated worlds.

Build a model three ways:

* from Python::

    >>> from kop import KripkeModel
    >>> m = KripkeModel(
    ...     worlds={"w0": ["p", "q"], "w1": ["p"]},
    ...     partitions={"a": [["w0", "w1"]], "b": [["w0"], ["w1"]]},
    ...     actual="w0")
    >>> m.satisfies("K_a p & K_b q & ~K_a q")
    True
    >>> sorted(m.truth_set("K_b q | K_b ~q"))
    ['w0', 'w1']

* from the JSON model format ``kop-model/1`` (:meth:`KripkeModel.load`,
  :meth:`KripkeModel.from_json`; see ``docs/formats.md``);
* from observations, SMCDEL style (:meth:`KripkeModel.from_observations`).

A model is immutable.  Updates (:meth:`announce`, :meth:`restrict`,
:meth:`product_update`, :meth:`minimize`, :meth:`generated_submodel`) return
new models.

Where things live, as networkx keeps ``Graph`` apart from its algorithms: the
data and its parts are :class:`~kop.semantics.model_value.ModelValue` (this
class adds only one-line conveniences); reading the constructor's arguments is
:mod:`kop.semantics.model_build`; JSON :mod:`kop.io.model_json`;
checking :mod:`kop.semantics.evaluate` (with :mod:`kop.semantics.bitset_checker`
for small models and :mod:`kop.semantics.checker` for large ones); belief
upgrades :mod:`kop.semantics.upgrade`; action models
:mod:`kop.semantics.update`; bisimulation :mod:`kop.semantics.bisimulation`;
observations :mod:`kop.semantics.observations`; networkx
:mod:`kop.semantics.nxgraph`; pictures :mod:`kop.drawing.models`.  None of
them imports this module at run time: they work on the value and build their
results with the class of the model they are given.  The modules that need
numpy, networkx or matplotlib are imported by the convenience that calls them,
so that ``import kop`` and checking a small model import none of those.

Designated worlds and the empty model: :meth:`satisfies` with ``world=None``
asks about every designated world.  An update can leave a model with no
designated worlds (announcing something false at the actual world) or with no
worlds at all (announcing something false everywhere).  Such a model is
returned, not refused; :attr:`note` says how it came about, :attr:`is_empty`
flags the empty one, and asking :meth:`satisfies` about its designated worlds
raises :class:`~kop.errors.ModelError` with that explanation, since
the question has no meaningful answer.  :meth:`truth_set` still works (it is
empty on the empty model).

Reference: Fagin, Halpern, Moses & Vardi, *Reasoning About Knowledge* (1995),
ch. 2; van Ditmarsch, van der Hoek & Kooi, *Dynamic Epistemic Logic* (2007).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kop.semantics import evaluate, model_build
from kop.semantics.errors import ModelError
from kop.semantics.model_value import ModelValue
from kop.semantics.upgrade import upgrade
from kop.syntax.formula import Formula

if TYPE_CHECKING:  # pragma: no cover
    import networkx
    import numpy as np
    from matplotlib.figure import Figure

    from kop.semantics.update import ActionModel

__all__ = ["KripkeModel"]


class KripkeModel(ModelValue):
    """An S5_n Kripke model with one or more designated (actual) worlds.

    Parameters
    ----------
    worlds : mapping of str to iterable of str, or iterable of str
        World name -> the atoms true there (all others are false there).  A
        plain list of names makes every atom false everywhere.
    partitions : mapping of agent to partition
        Each agent's partition of the worlds, as a list of blocks (each a list
        of world names), or as a mapping world name -> block label (any
        hashable), or as an integer array of block ids in the order of
        *worlds*.  Every world must be in exactly one block of every agent.
    actual : str or iterable of str, optional
        The designated worlds; None (the default) designates every world.
    agents : iterable of str, optional
        The agents, in order; defaults to the keys of *partitions*.  Every
        agent needs a partition.
    plausibility : mapping of agent to mapping of world to int, optional
        Each agent's plausibility order within its cells: a rank per world,
        lower is more plausible (Baltag & Smets 2008); worlds left out are the
        least plausible; an agent left out finds all worlds equally plausible
        (then ``B_a`` is ``K_a``).  See :mod:`kop.semantics.uncertainty`.
    probability : mapping of agent to mapping of world to number, optional
        Each agent's weights, renormalized within each of its cells (Kooi
        2003): numbers, :class:`~fractions.Fraction` or strings such as
        ``"1/3"``; worlds left out weigh 0; an agent left out weighs every
        world 1.  A cell of total weight 0 is an error.

    Raises
    ------
    ModelError
        Naming the agent and the world at fault: a world in no block or in two
        blocks, a block naming an unknown world, an empty block, a duplicate
        world name, an unknown designated world, a bad atom or agent name.

    Examples
    --------
    >>> m = KripkeModel({"w0": ["p"], "w1": []}, {"a": {"w0": 0, "w1": 0}}, actual="w0")
    >>> m
    KripkeModel(worlds=2, agents=('a',), actual=('w0',))
    >>> m.block("a", "w0") == {"w0", "w1"}
    True

    References
    ----------
    Fagin, Halpern, Moses & Vardi, *Reasoning About Knowledge* (1995), ch. 2;
    Baltag & Smets, "A qualitative theory of dynamic interactive belief
    revision" (2008) for plausibility; Kooi, "Probabilistic dynamic epistemic
    logic" (2003) for probability.
    """

    __slots__ = ()

    # -- building ------------------------------------------------------------------
    @classmethod
    def from_arrays(cls, worlds: Iterable[str] | int, partitions: Mapping[str, Any],
                    valuation: Mapping[str, Any] | None = None, actual: str | Iterable[str] | None = None,
                    agents: Iterable[str] | None = None, *, plausibility: Mapping[str, Any] | None = None,
                    probability: Mapping[str, Any] | None = None) -> KripkeModel:
        """A model from arrays, for large generated models (:func:`kop.semantics.model_build.from_arrays`).

        Parameters
        ----------
        worlds : iterable of str, or int
            The world names; an integer n names them ``w0`` ... ``w{n-1}``.
        partitions : mapping of agent to array of int
            Each agent's block id per world (any non-negative integers; equal
            ids mean the agent cannot tell the worlds apart).
        valuation : mapping of atom to array of bool, optional
            Each atom's truth value per world.
        actual, agents
            As for the constructor.
        plausibility, probability : mapping of agent to array, optional
            Each agent's rank, or weight, per world (in the order of
            *worlds*); as for the constructor otherwise.

        Returns
        -------
        KripkeModel

        Examples
        --------
        >>> m = KripkeModel.from_arrays(4, {"a": [0, 0, 1, 1]}, {"p": [True, False, True, True]})
        >>> sorted(m.truth_set("K_a p"))
        ['w2', 'w3']
        """
        return model_build.from_arrays(cls, worlds, partitions, valuation, actual, agents,
                                       plausibility=plausibility, probability=probability)

    @classmethod
    def from_observations(cls, vocabulary: Iterable[str] | str, law: Formula | str,
                          observables: Mapping[str, Iterable[str] | str], actual: Any = None,
                          **options: Any) -> KripkeModel:
        """A model from observations, SMCDEL style (:func:`kop.semantics.observations.build_from_observations`).

        The worlds are the valuations of *vocabulary* that satisfy the
        propositional *law*; an agent cannot tell apart two worlds that agree
        on the atoms it observes.

        Parameters
        ----------
        vocabulary : iterable of str, or str
            The atoms, in order (a string is split at spaces and commas).
        law : Formula or str
            A propositional formula over the vocabulary.
        observables : mapping of agent to atoms
            The atoms each agent observes.
        actual : optional
            The atoms true at the actual world, or a list of such lists; None
            designates every world.
        **options
            ``max_worlds``, ``method``: see ``build_from_observations``.

        Returns
        -------
        KripkeModel
            Worlds named by their valuation, in lexicographic order.

        Examples
        --------
        >>> m = KripkeModel.from_observations("p q", "p | q", {"a": "p", "b": "q"}, actual="p q")
        >>> m.worlds, m.satisfies("K_a p & ~K_a q")
        (('w01', 'w10', 'w11'), True)

        References
        ----------
        van Benthem, van Eijck, Gattinger & Su, "Symbolic model checking for
        Dynamic Epistemic Logic" (2015).
        """
        from kop.semantics.observations import build_from_observations  # numpy

        return build_from_observations(cls, vocabulary, law, observables, actual, **options)

    # -- JSON ------------------------------------------------------------------
    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str, source: str | None = None) -> KripkeModel:
        """A model from the JSON format ``kop-model/1`` (a parsed dict, or JSON text).

        The document is validated against ``kop/schemas/model.schema.json``;
        errors give the JSON path (``$.relations.a[1]``) and, for model
        errors, the agent and world.  Duplicate keys (e.g. two worlds with the
        same name) are reported.  See :func:`kop.io.model_json.model_from_json`.

        Parameters
        ----------
        data : dict or str
            The document, parsed or as JSON text.
        source : str, optional
            What to call the document in error messages.

        Returns
        -------
        KripkeModel

        Examples
        --------
        >>> m = KripkeModel.from_json('{"agents": ["a"], "worlds": {"w0": ["p"], "w1": []},'
        ...                           ' "relations": {"a": [["w0", "w1"]]}, "actual": ["w0"]}')
        >>> m.satisfies("p & ~K_a p")
        True
        """
        from kop.io import model_json

        return model_json.model_from_json(cls, data, source)

    @classmethod
    def load(cls, path: str | Path) -> KripkeModel:
        """Read a model from a ``kop-model/1`` JSON file (:func:`kop.io.model_json.load_model`).

        Parameters
        ----------
        path : str or Path

        Returns
        -------
        KripkeModel

        Examples
        --------
        >>> import tempfile, pathlib
        >>> m = KripkeModel({"u": ["p"], "v": []}, {"a": [["u", "v"]]}, "u")
        >>> with tempfile.TemporaryDirectory() as tmp:
        ...     m.save(pathlib.Path(tmp) / "m.json")
        ...     KripkeModel.load(pathlib.Path(tmp) / "m.json") == m
        True
        """
        from kop.io import model_json

        return model_json.load_model(cls, path)

    def to_json(self) -> dict[str, Any]:
        """The model in the JSON format ``kop-model/1``, a dict ready for ``json.dump``
        (:func:`kop.io.model_json.model_to_json`).

        Returns
        -------
        dict

        Examples
        --------
        >>> KripkeModel(["u"], {"a": [["u"]]}).to_json()["relations"]
        {'a': [['u']]}
        """
        from kop.io import model_json

        return model_json.model_to_json(self)

    def save(self, path: str | Path) -> None:
        """Write the model to *path* as ``kop-model/1`` JSON (:func:`kop.io.model_json.save_model`).

        Parameters
        ----------
        path : str or Path

        Returns
        -------
        None

        Examples
        --------
        See :meth:`load`.
        """
        from kop.io import model_json

        model_json.save_model(self, path)

    # -- model checking ----------------------------------------------------------
    def truth_mask(self, phi: Formula | str) -> np.ndarray:
        """Where *phi* holds, as a read-only boolean vector over :attr:`worlds`
        (:func:`kop.semantics.evaluate.truth_mask`; numpy).

        Parameters
        ----------
        phi : Formula or str

        Returns
        -------
        numpy.ndarray

        Examples
        --------
        >>> KripkeModel({"u": ["p"], "v": []}, {"a": [["u"], ["v"]]}).truth_mask("p").tolist()
        [True, False]
        """
        return evaluate.truth_mask(self, phi)

    def truth_set(self, phi: Formula | str) -> frozenset[str]:
        """The worlds where *phi* holds (:func:`kop.semantics.evaluate.truth_set`).

        Parameters
        ----------
        phi : Formula or str

        Returns
        -------
        frozenset of str

        Examples
        --------
        >>> m = KripkeModel({"u": ["p"], "v": []}, {"a": [["u"], ["v"]]})
        >>> m.truth_set("K_a p")
        frozenset({'u'})
        """
        return evaluate.truth_set(self, phi)

    def satisfies(self, phi: Formula | str, world: str | None = None) -> bool:
        """Whether *phi* holds at *world*, or at every designated world when *world* is None
        (:func:`kop.semantics.evaluate.satisfies`).

        Parameters
        ----------
        phi : Formula or str
        world : str, optional

        Returns
        -------
        bool

        Raises
        ------
        ModelError
            An unknown agent or world, or no designated world to ask about (see the function).

        Examples
        --------
        >>> m = KripkeModel({"u": ["p"], "v": []}, {"a": [["u", "v"]]}, "u")
        >>> m.satisfies("p & M_a ~p"), m.satisfies("p", "v")
        (True, False)
        """
        return evaluate.satisfies(self, phi, world)

    def probability(self, agent: str, phi: Formula | str, world: str | None = None) -> Fraction:
        """*agent*'s probability of *phi* at *world* (default: the only designated world), exactly
        (:func:`kop.semantics.evaluate.probability`).

        Parameters
        ----------
        agent : str
        phi : Formula or str
        world : str, optional

        Returns
        -------
        fractions.Fraction

        Examples
        --------
        >>> m = KripkeModel({"u": ["p"], "v": [], "x": []}, {"a": [["u", "v", "x"]]}, "u",
        ...                 probability={"a": {"u": "1/2", "v": "1/4", "x": "1/4"}})
        >>> m.probability("a", "p"), m.announce("~p").probability("a", "true", "v")
        (Fraction(1, 2), Fraction(1, 1))

        References
        ----------
        Kooi, "Probabilistic dynamic epistemic logic", JoLLI 12 (2003).
        """
        return evaluate.probability(self, agent, phi, world)

    # -- updates -----------------------------------------------------------------
    def announce(self, phi: Formula | str) -> KripkeModel:
        """The model after the public announcement of *phi*: the restriction to the *phi*-worlds
        (:func:`kop.semantics.evaluate.announce`).

        If *phi* is false everywhere, the result is the empty model (``is_empty``)
        with a :attr:`note` saying so; if it is false at every designated world,
        the result has no designated worlds.  Either way asking
        :meth:`satisfies` about the designated worlds then raises
        :class:`ModelError` with that note.

        Parameters
        ----------
        phi : Formula or str

        Returns
        -------
        KripkeModel

        Examples
        --------
        >>> m = KripkeModel({"w0": ["p"], "w1": []}, {"a": [["w0", "w1"]]}, "w0")
        >>> m.announce("p").satisfies("K_a p")
        True
        >>> m.announce("~p & p").is_empty
        True

        References
        ----------
        Plaza, "Logics of public communications" (1989).
        """
        return evaluate.announce(self, phi)

    def upgrade(self, phi: Formula | str, kind: str = "radical") -> KripkeModel:
        """The model after a public belief upgrade with *phi* (:func:`kop.semantics.upgrade.upgrade`):
        every agent's plausibility changes, no world goes.

        Parameters
        ----------
        phi : Formula or str
        kind : {"radical", "conservative"}
            van Benthem's radical (lexicographic) or conservative upgrade.

        Returns
        -------
        KripkeModel

        Examples
        --------
        >>> m = KripkeModel({"u": ["p"], "v": []}, {"a": [["u", "v"]]}, "u", plausibility={"a": {"u": 1, "v": 0}})
        >>> m.satisfies("B_a ~p"), m.upgrade("p").satisfies("B_a p")
        (True, True)

        References
        ----------
        van Benthem, "Dynamic logic for belief revision", JANCL 17 (2007).
        """
        return upgrade(self, phi, kind)

    def product_update(self, action: ActionModel,
                       rename: Callable[[str, str], str] | str | None = None) -> KripkeModel:
        """The product update with an action model (:func:`kop.semantics.update.product_update`).

        Parameters
        ----------
        action : ActionModel
        rename : None, "world" or callable, optional
            How to name the new worlds (see ``product_update``).

        Returns
        -------
        KripkeModel

        Raises
        ------
        ModelError
            If the model has plausibility or probability (not handled here).

        Examples
        --------
        >>> from kop import ActionModel
        >>> m = KripkeModel({"w0": ["p"], "w1": []}, {"a": [["w0", "w1"]]}, "w0")
        >>> m.product_update(ActionModel.public_announcement("p", ["a"])).satisfies("K_a p")
        True
        """
        from kop.semantics.update import product_update  # numpy

        return product_update(self, action, rename=rename)

    def generated_submodel(self) -> KripkeModel:
        """The submodel of the worlds reachable from the designated worlds by any agents' steps
        (:func:`kop.semantics.bisimulation.generated_submodel`).

        Returns
        -------
        KripkeModel

        Examples
        --------
        >>> KripkeModel(["u", "v"], {"a": [["u"], ["v"]]}, "u").generated_submodel().worlds
        ('u',)
        """
        from kop.semantics.bisimulation import generated_submodel  # numpy

        return generated_submodel(self)

    def minimize(self) -> KripkeModel:
        """The bisimulation contraction: one world per class of bisimilar worlds
        (:func:`kop.semantics.bisimulation.minimize`).

        Returns
        -------
        KripkeModel

        Raises
        ------
        ModelError
            If the model has plausibility or probability (not handled here).

        Examples
        --------
        >>> len(KripkeModel({"u": ["p"], "v": ["p"]}, {"a": [["u", "v"]]}).minimize())
        1
        """
        from kop.semantics.bisimulation import minimize  # numpy

        return minimize(self)

    # -- views ---------------------------------------------------------------------
    @property
    def graph(self) -> networkx.MultiGraph:
        """A fresh networkx view: nodes are worlds (attributes ``atoms``, ``actual``),
        one edge per agent and pair of distinct worlds it cannot tell apart
        (key and attribute ``agent``); the reflexive loops of S5 are left out."""
        return self.to_networkx()

    def to_networkx(self, loops: bool = False) -> networkx.MultiGraph:
        """The model as a networkx MultiGraph (:func:`kop.semantics.nxgraph.to_networkx`).

        Parameters
        ----------
        loops : bool
            Add each world's reflexive edges.

        Returns
        -------
        networkx.MultiGraph

        Examples
        --------
        >>> KripkeModel(["u", "v"], {"a": [["u", "v"]]}).to_networkx().number_of_edges()
        1
        """
        from kop.semantics.nxgraph import to_networkx  # networkx

        return to_networkx(self, loops)

    def _repr_svg_(self) -> str | None:
        """The picture in Jupyter (:func:`kop.drawing.models.draw_model`); None without matplotlib."""
        from kop.drawing.models import draw_model, repr_svg  # matplotlib

        return repr_svg(draw_model, self)

    def draw(self, file: str | Path | None = None, **options: Any) -> Figure:
        """Draw the model (:func:`kop.drawing.models.draw_model`); save it to *file* when given.

        Needs the ``draw`` extra (matplotlib).

        Parameters
        ----------
        file : str or Path, optional
            Where to save the picture (``.svg``, ``.png`` or ``.pdf``).
        **options
            ``layout``, ``title``, ``show_atoms``, ``names``: see ``draw_model``.

        Returns
        -------
        matplotlib.figure.Figure

        Examples
        --------
        >>> fig = KripkeModel(["u", "v"], {"a": [["u", "v"]]}).draw()  # doctest: +SKIP
        """
        from kop.drawing.models import draw_model  # matplotlib

        return draw_model(self, file=file, **options)
