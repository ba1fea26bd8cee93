"""Action models and product update (dynamic epistemic logic with factual change).

An action model has events; each event has a precondition (when it can
happen) and a postcondition (how it changes facts: atom -> formula evaluated
before the update); each agent has a partition of the events (the events it
cannot tell apart).  The product update of a Kripke model M with an action
model A has a world (w, e) for every world w of M and event e of A whose
precondition holds at w; atoms get their postcondition's value at w (or keep
their value at w); and (w, e) ~a (v, f) iff w ~a v in M and e ~a f in A.

A public announcement of φ is the one-event action model with precondition φ:

>>> from kop import KripkeModel, ActionModel
>>> m = KripkeModel({"w0": ["p"], "w1": []}, {"a": [["w0", "w1"]], "b": [["w0", "w1"]]}, "w0")
>>> learn = ActionModel.semi_private("p", ["a"], agents=["a", "b"])   # a learns whether p; b sees that
>>> after = m.product_update(learn)
>>> after.satisfies("K_a p & ~K_b p & K_b (K_a p | K_a ~p)")
True
>>> flip = ActionModel.public_assignment({"p": "~p"}, agents=["a", "b"])
>>> sorted(m.product_update(flip, rename="world").truth_set("p"))
['w1']

Reference: Baltag, Moss & Solecki, *The logic of public announcements, common
knowledge and private suspicions* (1998); van Benthem, van Eijck & Kooi,
*Logics of communication and change* (2006) for postconditions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import numpy as np

from kop.semantics.checks import model_argument
from kop.semantics.errors import ModelError
from kop.semantics.evaluate import truth_mask
from kop.semantics.model_build import as_formula, check_atom, index_of, read_actual, read_agents, read_partition
from kop.semantics.model_value import ModelValue
from kop.syntax import arguments
from kop.syntax.formula import TRUE, Formula, Not

__all__ = ["ActionModel", "product_update"]

M = TypeVar("M", bound=ModelValue)


class ActionModel:
    """An S5 action model: events with pre- and postconditions, a partition of the events per agent.

    Parameters
    ----------
    events : iterable of str
        The event names, in order.
    pre : mapping of event to formula (or str), optional
        Preconditions; an event without one can always happen (``true``).
    post : mapping of event to (mapping of atom to formula or str), optional
        Postconditions: after event e, atom p takes the value that
        ``post[e][p]`` had before the event.  Atoms not mentioned keep their value.
    partitions : mapping of agent to list of blocks of events
        (or mapping event -> block label), as for :class:`KripkeModel`.
    actual : str or iterable of str, optional
        The designated events; None designates every event.

    Raises
    ------
    ModelError
        Naming the agent and event at fault.

    Examples
    --------
    >>> a = ActionModel(["e", "f"], pre={"e": "p"}, post={"f": {"p": "false"}},
    ...                 partitions={"a": [["e", "f"]], "b": [["e"], ["f"]]}, actual="e")
    >>> a, a.partition("b")
    (ActionModel(events=('e', 'f'), agents=('a', 'b'), actual=('e',)), (('e',), ('f',)))
    >>> ActionModel(["e"], partitions={"a": [["e"], ["e"]]})
    Traceback (most recent call last):
    ...
    kop.errors.ModelError: agent 'a': event 'e' is in two blocks (0 and 1); blocks of a partition must not overlap

    References
    ----------
    Baltag, Moss & Solecki, "The logic of public announcements, common
    knowledge and private suspicions" (TARK 1998).
    """

    __slots__ = ("events", "agents", "pre", "post", "_blocks", "_nblocks", "_actual")

    def __init__(self, events: Iterable[str], pre: Mapping[str, Formula | str] | None = None,
                 post: Mapping[str, Mapping[str, Formula | str]] | None = None,
                 partitions: Mapping[str, Any] | None = None, actual: str | Iterable[str] | None = None):
        if isinstance(events, str) or not isinstance(events, Iterable):
            raise ModelError(f"events must be a list of event names, not {type(events).__name__}")
        names = list(events)
        for e in names:
            if not isinstance(e, str) or not e:
                raise ModelError(f"event names must be non-empty strings, not {e!r}")
        try:
            index = index_of(names)
        except ModelError as exc:
            raise ModelError(str(exc).replace("world", "event")) from None
        pre = dict(pre or {})
        post = dict(post or {})
        for what, given in (("precondition", set(pre)), ("postcondition", set(post))):
            for e in given:
                if e not in index:
                    raise ModelError(f"a {what} is given for unknown event {e!r}")
        self.events: tuple[str, ...] = tuple(names)
        self.pre: dict[str, Formula] = {}
        for e in names:
            try:
                self.pre[e] = as_formula(pre[e]) if e in pre else TRUE
            except ModelError:
                raise
            except ValueError as exc:
                raise ModelError(f"event {e!r}: bad precondition: {exc}") from None
        self.post: dict[str, dict[str, Formula]] = {}
        for e, assignment in post.items():
            if not isinstance(assignment, Mapping):
                raise ModelError(f"event {e!r}: the postcondition must map atoms to formulas")
            effects: dict[str, Formula] = {}
            for p, val in assignment.items():
                check_atom(p, None)
                try:
                    effects[p] = as_formula(val)
                except ValueError as exc:
                    raise ModelError(f"event {e!r}: bad postcondition for {p!r}: {exc}") from None
            self.post[e] = effects
        if partitions is None or not isinstance(partitions, Mapping):
            raise ModelError("an action model needs a partition of its events for every agent")
        self.agents = read_agents(None, partitions)
        self._blocks: dict[str, np.ndarray] = {}
        self._nblocks: dict[str, int] = {}
        for a in self.agents:
            self._blocks[a], self._nblocks[a] = read_partition(a, partitions[a], names, index, noun="event")
        try:
            self._actual = read_actual(actual, index, len(names))
        except ModelError as exc:
            raise ModelError(str(exc).replace("designated world", "designated event")) from None

    # -- common action models -----------------------------------------------------
    @classmethod
    def public_announcement(cls, phi: Formula | str, agents: Iterable[str]) -> ActionModel:
        """The public announcement of *phi*: one event, precondition *phi*, seen by all *agents*."""
        return cls(["announce"], pre={"announce": phi}, partitions={a: [["announce"]] for a in agents})

    @classmethod
    def semi_private(cls, phi: Formula | str, group: Iterable[str], agents: Iterable[str]) -> ActionModel:
        """*group* learns whether *phi*; the other agents know that it did, not what it learned.

        Events ``yes`` (precondition *phi*) and ``no`` (precondition ``~phi``).
        """
        phi = as_formula(phi)
        group = set([group] if isinstance(group, str) else group)
        parts = {a: ([["yes"], ["no"]] if a in group else [["yes", "no"]]) for a in agents}
        unknown = group - set(parts)
        if unknown:
            raise ModelError(f"group member {sorted(unknown)[0]!r} is not among the agents")
        return cls(["yes", "no"], pre={"yes": phi, "no": Not(phi)}, partitions=parts)

    @classmethod
    def public_assignment(cls, assignment: Mapping[str, Formula | str], agents: Iterable[str],
                          pre: Formula | str = TRUE) -> ActionModel:
        """A public factual change: every atom p in *assignment* becomes what ``assignment[p]`` was."""
        return cls(["assign"], pre={"assign": pre}, post={"assign": assignment},
                   partitions={a: [["assign"]] for a in agents})

    # -- views -----------------------------------------------------------------------
    @property
    def actual(self) -> tuple[str, ...]:
        """The designated events."""
        return tuple(self.events[i] for i in self._actual.tolist())

    def partition(self, agent: str) -> tuple[tuple[str, ...], ...]:
        """*agent*'s partition of the events."""
        if agent not in self._blocks:
            raise ModelError(f"the action model has no agent {agent!r}")
        groups: dict[int, list[str]] = {}
        for e, b in zip(self.events, self._blocks[agent].tolist()):
            groups.setdefault(b, []).append(e)
        return tuple(tuple(g) for g in groups.values())

    def __repr__(self) -> str:
        return f"ActionModel(events={self.events!r}, agents={self.agents!r}, actual={self.actual!r})"


def product_update(model: M, action: ActionModel, rename: Callable[[str, str], str] | str | None = None) -> M:
    """The product update ``model ⊗ action``.

    Parameters
    ----------
    model : KripkeModel
    action : ActionModel
        Must have the same agents as the model.  Pre- and postconditions are
        evaluated on *model*.
    rename : callable (world, event) -> str, or "world", optional
        Names of the new worlds; by default ``"(w,e)"``.  ``"world"`` keeps
        the world's name (only possible when no world survives twice).

    Returns
    -------
    KripkeModel
        Worlds (w, e), in the order of the worlds and then of the events.
        Designated: the pairs of a designated world and a designated event.
        If no pair survives the result is the empty model with a ``note``.
        The result has the class of *model*.

    Raises
    ------
    ArgumentError
        If *model* is not a KripkeModel or *action* not an ActionModel.
    ModelError
        If the agents differ, a pre- or postcondition names an unknown agent
        (naming the event), two new worlds get the same name, or *model* has
        plausibility or probability (not handled here).

    Examples
    --------
    >>> from kop import KripkeModel, ActionModel
    >>> m = KripkeModel({"w0": ["p"], "w1": []}, {"a": [["w0", "w1"]], "b": [["w0", "w1"]]}, "w0")
    >>> tell_a = ActionModel(["yes", "no"], pre={"yes": "p", "no": "~p"},
    ...                      partitions={"a": [["yes"], ["no"]], "b": [["yes", "no"]]}, actual="yes")
    >>> after = product_update(m, tell_a)
    >>> after.worlds, after.satisfies("K_a p & ~K_b p")
    (('(w0,yes)', '(w1,no)'), True)

    References
    ----------
    Baltag, Moss & Solecki, "The logic of public announcements, common
    knowledge and private suspicions" (TARK 1998); van Benthem, van Eijck &
    Kooi, "Logics of communication and change", Information and Computation
    204 (2006), for postconditions.
    """
    model_argument(model)
    arguments.instance(action, ActionModel, "action", "an ActionModel")
    model._no_uncertainty("the product update with an action model")
    _same_agents(model, action)
    wi, ei = np.nonzero(_preconditions(model, action))  # the surviving pairs, world-major
    names = _pair_names(model.worlds, action.events, wi, ei, rename)
    blocks, nblocks = {}, {}
    for a in model.agents:
        ka = action._nblocks[a]
        blocks[a] = model._blocks[a][wi] * ka + action._blocks[a][ei]
        nblocks[a] = model._nblocks[a] * ka
    atoms = _postconditions(model, action, wi, ei)
    actual, note = _designated_pairs(model, action, wi, ei)
    return type(model)._raw(tuple(names), model.agents, blocks, nblocks, atoms, actual, note)


def _same_agents(model: ModelValue, action: ActionModel) -> None:
    """An error unless *action* has a partition for each agent of *model* and no other."""
    if set(action.agents) != set(model.agents):
        missing = sorted(set(model.agents) - set(action.agents))
        extra = sorted(set(action.agents) - set(model.agents))
        what = (f"no partition for agent {missing[0]!r}" if missing
                else f"a partition for agent {extra[0]!r}, which the model does not have")
        raise ModelError(f"the action model has {what}; it needs one partition per agent of the model")


def _preconditions(model: ModelValue, action: ActionModel) -> np.ndarray:
    """Whether each event's precondition holds at each world (worlds by events)."""
    pre = np.zeros((len(model), len(action.events)), dtype=bool)
    for j, e in enumerate(action.events):
        try:
            pre[:, j] = truth_mask(model, action.pre[e])
        except ModelError as exc:
            raise ModelError(f"event {e!r}: precondition: {exc}") from None
    return pre


def _postconditions(model: ModelValue, action: ActionModel, wi: np.ndarray, ei: np.ndarray
                    ) -> dict[str, np.ndarray]:
    """The atoms' values at the pairs (``wi[i]``, ``ei[i]``): the world's, but where the event
    assigns an atom, what its postcondition was at the world."""
    atoms = {p: v[wi] for p, v in model._atoms.items()}
    for j, e in enumerate(action.events):
        rows = ei == j
        if not rows.any():
            continue
        for p, val in action.post.get(e, {}).items():
            try:
                after = truth_mask(model, val)
            except ModelError as exc:
                raise ModelError(f"event {e!r}: postcondition for {p!r}: {exc}") from None
            vec = atoms.get(p)
            if vec is None:
                vec = atoms[p] = np.zeros(len(wi), dtype=bool)
            vec[rows] = after[wi[rows]]
    return atoms


def _designated_pairs(model: ModelValue, action: ActionModel, wi: np.ndarray, ei: np.ndarray
                      ) -> tuple[np.ndarray, str | None]:
    """The pairs of a designated world and a designated event, and a note when there are none
    (or no pairs at all)."""
    designated_world = np.zeros(len(model), dtype=bool)
    designated_world[model._actual] = True
    designated_event = np.zeros(len(action.events), dtype=bool)
    designated_event[action._actual] = True
    actual = np.flatnonzero(designated_world[wi] & designated_event[ei])
    note = None
    if len(wi) == 0:
        note = "no event's precondition holds at any world"
    elif len(model._actual) and len(actual) == 0:
        note = "no designated event can happen at a designated world"
    return actual.astype(np.int64), note


def _pair_names(worlds: tuple[str, ...], events: tuple[str, ...], wi: np.ndarray, ei: np.ndarray,
                rename: Callable[[str, str], str] | str | None) -> list[str]:
    if rename is None:
        names = [f"({worlds[i]},{events[j]})" for i, j in zip(wi.tolist(), ei.tolist())]
    elif rename == "world":
        names = [worlds[i] for i in wi.tolist()]
    elif callable(rename):
        names = [rename(worlds[i], events[j]) for i, j in zip(wi.tolist(), ei.tolist())]
    else:
        raise ModelError(f"rename must be None, 'world' or a function (world, event) -> name, not {rename!r}")
    seen: dict[str, int] = {}
    for i, w in enumerate(names):
        if not isinstance(w, str) or not w:
            raise ModelError(f"renamed world names must be non-empty strings, not {w!r}")
        if w in seen:
            raise ModelError(f"the product update names two worlds {w!r}; pass another rename")
        seen[w] = i
    return names
