"""Partial knowledge of evaluation functions: what one player knows of another's payoffs (SPEC §2.4).

The atoms ``E_A``, ``E_B`` say all or nothing: ``K_B E_A`` holds or not.  An
:class:`EvaluationKnowledge` says what ``knower`` knows of ``owner``'s
evaluation function (the owner's payoff component at the leaves), in between:

* :func:`knows_exactly` -- the whole function (``K_knower E_owner``);
* :func:`knows_nothing` -- nothing at all;
* :func:`knows_candidates` -- that it is one of a finite list of candidates;
* :func:`knows_order` -- only the order of the owner's outcomes over the leaves;
* :func:`knows_within` -- each leaf value only within ``±k``;
* :func:`knows_on_subtree` -- the values exactly on the leaves below one node.

This is the *knowing-value* semantics: the worlds carry candidate evaluation
functions, the knower cannot tell apart the candidates it considers possible,
and ``K_B E_A`` holds iff every candidate B considers possible is A's actual
evaluation.  The statements describe *public* uncertainty: what each player
knows of the other's evaluation is common knowledge (as the structure of a
game of incomplete information is), and every player knows its own
evaluation exactly.

What partial knowledge buys: at a node where A moves, B can predict A's
choice when A's choice (first best child; ties to the first) over the
children's agreed values is the same under every candidate B considers
possible, although B does not know E_A (the corrected Decide asks that in
place of ``K_B E_A``, at every height: SPEC §2.6 erratum).
:meth:`ResolvedKnowledge.choice_fixed` answers that exactly, also for the
infinite candidate sets; at height 1 (:attr:`ResolvedKnowledge.fixed`):

* order knowledge fixes every choice (the first argmax depends on the order only);
* within ``±k``, A (maximizing) keeps its choice c at a node over every
  candidate of the box iff ``e_c - e_j > 2k`` for every earlier sibling j and
  ``e_c - e_j >= 2k`` for every later one (the box is a product, so the worst
  case sets c at its lowest and j at its highest value); a minimizer mirrors it;
* subtree knowledge fixes the nodes whose leaves are all known.

A forced move (one child) has no choice to predict: it is decided when its
child is, whatever is known.

Leaves are numbered left to right (depth first), as one reads the tree:
:func:`leaf_order`.

Example
-------
>>> import kop
>>> t = kop.figure2()
>>> k = kop.knows_order("B", "A")
>>> k
kop.knows_order('B', 'A')
>>> r = k.resolve(t)
>>> r.exact, [t.node(int(i)).name for i in r.nodes()]
(False, [])
>>> kop.knows_within("A", "B", 1).resolve(t).fixed_names()     # B's margins at T and Y are 1 < 2k
['R', 'W', 'X', 'Z']
>>> kop.knows_within("A", "B", 2).resolve(t).fixed_names()
['X', 'Z']

Reference: Sang & Chen, *Beyond Minimax* (Algorithm 3; partial knowledge of
evaluation functions is the paper's future work); Wang, *Beyond knowing that:
a new generation of epistemic logics* (2018) for knowing-value.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Union, assert_never

import numpy as np

from kop.games.trees.tree import LEAF, GameTree, Node, CHANCE
from kop.errors import EvaluationError, KopError
from kop.syntax.formula import Atom, Common, Formula, Know, Not, Or, conj
from kop.games.trees.checks import tree_argument
from kop.games.strategies.mh import mh

__all__ = ["EvaluationKnowledge", "KnowsExactly", "KnowsNothing", "KnowsCandidates", "KnowsOrder", "KnowsWithin",
           "KnowsOnSubtree", "AnyEvaluationKnowledge", "typed", "EvaluationError", "ResolvedKnowledge", "knows_exactly", "knows_nothing",
           "knows_candidates", "knows_order", "knows_within", "knows_on_subtree", "leaf_order",
           "resolve_all", "restrict_all", "parse_evaluation", "knowledge_formulas", "agreed_outcomes", "KINDS"]

#: the kinds of evaluation knowledge
KINDS = ("exact", "nothing", "candidates", "order", "within", "subtree")

Candidate = Union[tuple[float, ...], tuple[tuple[str, float], ...]]


def _number(x: object, what: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)):
        raise EvaluationError(f"{what} must be a number, found {type(x).__name__} {x!r}")
    v = float(x)
    if not np.isfinite(v):
        raise EvaluationError(f"{what} must be a finite number, found {x!r}")
    return v


def _name(x: object, what: str) -> str:
    if not isinstance(x, str) or not x:
        raise EvaluationError(f"{what} must be a player name, not {x!r}")
    return x


@dataclass(frozen=True, repr=False)
class EvaluationKnowledge:
    """What *knower* knows of *owner*'s evaluation function (an immutable value).

    One class per kind, :data:`AnyEvaluationKnowledge` their closed union: :class:`KnowsExactly`,
    :class:`KnowsNothing`, :class:`KnowsCandidates`, :class:`KnowsOrder`, :class:`KnowsWithin`,
    :class:`KnowsOnSubtree`.  Build one with the constructors (:func:`knows_exactly`,
    :func:`knows_candidates`, ...), which check their arguments; :meth:`resolve` checks it
    against a tree.  The ``repr`` is the constructor call that rebuilds it.

    Attributes
    ----------
    knower, owner : str
    kind : str
        The kind's name (a class attribute): one of :data:`KINDS`.

    Examples
    --------
    >>> import kop
    >>> k = kop.knows_within("A", "B", 2)
    >>> k, k.knower, k.owner, k.kind, k.k
    (kop.knows_within('A', 'B', 2), 'A', 'B', 'within', 2.0)
    >>> k.resolve(kop.figure2()).fixed_names()        # the B-nodes whose choice A can predict
    ['X', 'Z']
    >>> isinstance(k, kop.EvaluationKnowledge), type(k).__name__
    (True, 'KnowsWithin')

    References
    ----------
    T. Sang, J.-H. Chen, *Beyond Minimax* (partial knowledge of evaluation functions is the
    paper's future work); Y. Wang, *Beyond knowing that: a new generation of epistemic logics*
    (2018) (knowing-value semantics).
    """

    knower: str
    owner: str
    kind: ClassVar[str] = ""   # the kind's name, as JSON and ``kop select -e`` write it

    def __post_init__(self) -> None:
        _name(self.knower, "the knower")
        _name(self.owner, "the owner")
        if not isinstance(self, _CLASSES):
            raise EvaluationError(f"{type(self).__name__} is not a kind of evaluation knowledge (build one with "
                                  "kop.knows_exactly, kop.knows_candidates, ...; kinds: " + ", ".join(KINDS) + ")")

    def describe(self) -> str:
        """The constructor call that builds this value, short: e.g. ``knows_within('B', 'A', 2)``."""
        return _call(typed(self), short=True)

    def __repr__(self) -> str:
        return "kop." + _call(typed(self), short=False)

    def to_json(self) -> dict[str, Any]:
        """The kind and its argument, as ``kop select --json`` writes it."""
        out: dict[str, Any] = {"knower": self.knower, "owner": self.owner, "kind": self.kind}
        match typed(self):
            case KnowsCandidates(candidates=cands):
                out["candidates"] = [dict(c) if c and isinstance(c[0], tuple) else list(c) for c in cands]
            case KnowsWithin(k=k):
                out["k"] = k
            case KnowsOnSubtree(node=node):
                out["node"] = list(node) if isinstance(node, tuple) else node
            case KnowsExactly() | KnowsNothing() | KnowsOrder():
                pass
            case other:  # pragma: no cover - the union is closed
                assert_never(other)
        return out

    def resolve(self, tree: GameTree) -> ResolvedKnowledge:
        """Check this statement against *tree* (players, payoff counts, the actual evaluation among
        the candidates, the subtree node) and compute what it fixes; an :class:`EvaluationError` if it does not fit."""
        return ResolvedKnowledge.build(self, tree)


@dataclass(frozen=True, repr=False)
class KnowsExactly(EvaluationKnowledge):
    """The whole function (``K_knower E_owner``): :func:`knows_exactly`.

    Build it with the constructor, which checks its arguments.

    Parameters
    ----------
    knower, owner : str
        The player who knows, and the player whose evaluation function (payoff component) it is.

    Examples
    --------
    >>> KnowsExactly("B", "A")
    kop.knows_exactly('B', 'A')
    """

    kind: ClassVar[str] = "exact"


@dataclass(frozen=True, repr=False)
class KnowsNothing(EvaluationKnowledge):
    """Nothing at all: :func:`knows_nothing`.

    Build it with the constructor, which checks its arguments.

    Parameters
    ----------
    knower, owner : str
        The player who knows, and the player whose evaluation function (payoff component) it is.

    Examples
    --------
    >>> KnowsNothing("B", "A").to_json()
    {'knower': 'B', 'owner': 'A', 'kind': 'nothing'}
    """

    kind: ClassVar[str] = "nothing"


@dataclass(frozen=True, repr=False)
class KnowsCandidates(EvaluationKnowledge):
    """The owner's evaluation is one of finitely many candidates: :func:`knows_candidates`.

    Build it with the constructor, which checks its arguments.

    Parameters
    ----------
    knower, owner : str
        The player who knows, and the player whose evaluation function (payoff component) it is.
    candidates : tuple
        Each candidate a tuple of values (leaves left to right) or of ``(leaf label, value)`` pairs.

    Examples
    --------
    >>> KnowsCandidates("B", "A", ((1.0, 2.0), (2.0, 1.0)))
    kop.knows_candidates('B', 'A', [[1, 2], [2, 1]])
    """

    candidates: tuple[Candidate, ...] = ()
    kind: ClassVar[str] = "candidates"


@dataclass(frozen=True, repr=False)
class KnowsOrder(EvaluationKnowledge):
    """Only the order of the owner's outcomes over the leaves: :func:`knows_order`.

    Build it with the constructor, which checks its arguments.

    Parameters
    ----------
    knower, owner : str
        The player who knows, and the player whose evaluation function (payoff component) it is.

    Examples
    --------
    >>> KnowsOrder("B", "A") == knows_order("B", "A")
    True
    """

    kind: ClassVar[str] = "order"


@dataclass(frozen=True, repr=False)
class KnowsWithin(EvaluationKnowledge):
    """Each leaf value of the owner within ``±k``: :func:`knows_within`.

    Build it with the constructor, which checks its arguments.

    Parameters
    ----------
    knower, owner : str
        The player who knows, and the player whose evaluation function (payoff component) it is.
    k : float
        The half-width of each leaf's interval, >= 0.

    Examples
    --------
    >>> KnowsWithin("B", "A", 1.5)
    kop.knows_within('B', 'A', 1.5)
    """

    k: float = 0.0
    kind: ClassVar[str] = "within"


@dataclass(frozen=True, repr=False)
class KnowsOnSubtree(EvaluationKnowledge):
    """The owner's values exactly on the leaves below one node, nothing elsewhere: :func:`knows_on_subtree`.

    Build it with the constructor, which checks its arguments.

    Parameters
    ----------
    knower, owner : str
        The player who knows, and the player whose evaluation function (payoff component) it is.
    node : str, int or tuple of int
        A label, a ``root/i/j`` path, child ranks or a node index.

    Examples
    --------
    >>> KnowsOnSubtree("B", "A", "S")
    kop.knows_on_subtree('B', 'A', 'S')
    """

    node: str | int | tuple[int, ...] | None = None
    kind: ClassVar[str] = "subtree"


#: every kind of evaluation knowledge: a closed union, dispatched with ``match`` and ``typing.assert_never``
AnyEvaluationKnowledge = Union[KnowsExactly, KnowsNothing, KnowsCandidates, KnowsOrder, KnowsWithin, KnowsOnSubtree]
_CLASSES = (KnowsExactly, KnowsNothing, KnowsCandidates, KnowsOrder, KnowsWithin, KnowsOnSubtree)


def typed(k: EvaluationKnowledge) -> AnyEvaluationKnowledge:
    """*k* as a member of the closed union :data:`AnyEvaluationKnowledge` (for ``match``).

    >>> typed(knows_order("B", "A"))
    kop.knows_order('B', 'A')
    """
    if isinstance(k, _CLASSES):
        return k
    raise EvaluationError(f"not a kind of evaluation knowledge: {type(k).__name__}")  # pragma: no cover


def _call(k: AnyEvaluationKnowledge, short: bool) -> str:
    """The constructor call that builds *k* (*short*: candidates counted, not listed)."""
    who = f"{k.knower!r}, {k.owner!r}"
    match k:
        case KnowsExactly():
            return f"knows_exactly({who})"
        case KnowsNothing():
            return f"knows_nothing({who})"
        case KnowsOrder():
            return f"knows_order({who})"
        case KnowsWithin(k=width):
            return f"knows_within({who}, {_num_text(width)})"
        case KnowsOnSubtree(node=node):
            return f"knows_on_subtree({who}, {node!r})"
        case KnowsCandidates(candidates=cands):
            if short:
                n = len(cands)
                return f"knows_candidates({who}, [{n} candidate{'s' if n != 1 else ''}])"
            shown = ", ".join(_candidate_text(c) for c in cands)
            return f"knows_candidates({who}, [{shown}])"
        case other:  # pragma: no cover - the union is closed
            assert_never(other)


def _candidate_text(c: Candidate) -> str:
    if c and isinstance(c[0], tuple):
        return "{" + ", ".join(f"{lab!r}: {_num_text(v)}" for lab, v in c) + "}"
    return "[" + ", ".join(_num_text(v) for v in c) + "]"  # type: ignore[arg-type]


def _num_text(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


# -- constructors -----------------------------------------------------------------

def knows_exactly(knower: str, owner: str) -> EvaluationKnowledge:
    """*knower* knows *owner*'s evaluation function exactly (``K_knower E_owner``).

    Parameters
    ----------
    knower, owner : str
        The player who knows, and the player whose evaluation function (payoff component) it is.

    Returns
    -------
    EvaluationKnowledge
        The statement, for :func:`kop.decide`, :func:`kop.select` and :func:`kop.evaluation_model`.

    Examples
    --------
    >>> knows_exactly("B", "A")
    kop.knows_exactly('B', 'A')
    >>> import kop
    >>> kop.knows_exactly("A", "B").resolve(kop.figure2()).fixed_names()   # B's choices A can predict
    ['R', 'T', 'W', 'X', 'Y', 'Z']
    """
    return KnowsExactly(knower, owner)


def knows_nothing(knower: str, owner: str) -> EvaluationKnowledge:
    """*knower* knows nothing of *owner*'s evaluation function (every function is possible).

    Parameters
    ----------
    knower, owner : str
        The player who knows, and the player whose evaluation function (payoff component) it is.

    Returns
    -------
    EvaluationKnowledge
        The statement, for :func:`kop.decide`, :func:`kop.select` and :func:`kop.evaluation_model`.

    Examples
    --------
    >>> knows_nothing("B", "A")
    kop.knows_nothing('B', 'A')
    >>> import kop
    >>> kop.knows_nothing("A", "B").resolve(kop.figure2()).fixed_names()   # B's choices A can predict
    []
    """
    return KnowsNothing(knower, owner)


def knows_candidates(knower: str, owner: str,
                     candidates: Iterable[Sequence[float] | Mapping[str, float]]) -> EvaluationKnowledge:
    """*knower* knows that *owner*'s evaluation is one of *candidates*.

    Each candidate is a sequence of the owner's values, one per leaf in
    :func:`leaf_order` (left to right), or a mapping leaf label -> value
    covering every leaf.  The actual evaluation must be among them (checked by
    :meth:`EvaluationKnowledge.resolve`).

    Parameters
    ----------
    knower, owner : str
        The player who knows, and the player whose evaluation function (payoff component) it is.
    candidates : iterable of sequences or mappings of float
        The evaluations *knower* considers possible.

    Returns
    -------
    EvaluationKnowledge
        The statement, for :func:`kop.decide`, :func:`kop.select` and :func:`kop.evaluation_model`.

    Examples
    --------
    >>> knows_candidates("B", "A", [[4, 8, 9, 1], [4, 8, 1, 9]])
    kop.knows_candidates('B', 'A', [[4, 8, 9, 1], [4, 8, 1, 9]])
    >>> import kop
    >>> EB = [7, 9, 4, 6, 3, 10, 8, 9, 2, 12, 4, 5]          # B's payoffs in Figure 2
    >>> k = kop.knows_candidates("A", "B", [EB, [9, 7] + EB[2:]])
    >>> k.resolve(kop.figure2()).fixed_names()          # B's choice at R is open
    ['T', 'W', 'X', 'Y', 'Z']
    """
    if isinstance(candidates, (str, bytes, Mapping)) or not isinstance(candidates, Iterable):
        raise EvaluationError(f"knows_candidates({knower!r}, {owner!r}): candidates must be a list of "
                              f"candidate evaluations, not {type(candidates).__name__}")
    out: list[Candidate] = []
    for i, c in enumerate(candidates):
        where = f"knows_candidates({knower!r}, {owner!r}): candidate {i + 1}"
        if isinstance(c, Mapping):
            items = []
            for lab, v in c.items():
                if not isinstance(lab, str):
                    raise EvaluationError(f"{where}: leaf labels must be strings, found {lab!r}")
                items.append((lab, _number(v, f"{where}: the value of leaf {lab!r}")))
            out.append(tuple(sorted(items)))
        elif isinstance(c, (str, bytes)) or not isinstance(c, Iterable):
            raise EvaluationError(f"{where} must be a list of values (one per leaf) or a mapping leaf "
                                  f"label -> value, not {type(c).__name__}")
        else:
            out.append(tuple(_number(v, f"{where}: value {j + 1}") for j, v in enumerate(c)))
    if not out:
        raise EvaluationError(f"knows_candidates({knower!r}, {owner!r}): no candidates (the actual "
                              "evaluation must be among them)")
    return KnowsCandidates(knower, owner, tuple(out))


def knows_order(knower: str, owner: str) -> EvaluationKnowledge:
    """*knower* knows only the order of *owner*'s outcomes over the leaves (ties included).

    Parameters
    ----------
    knower, owner : str
        The player who knows, and the player whose evaluation function (payoff component) it is.

    Returns
    -------
    EvaluationKnowledge
        The statement, for :func:`kop.decide`, :func:`kop.select` and :func:`kop.evaluation_model`.

    Examples
    --------
    >>> knows_order("B", "A")
    kop.knows_order('B', 'A')
    >>> import kop
    >>> kop.knows_order("A", "B").resolve(kop.figure2()).fixed_names()     # the order fixes every choice
    ['R', 'T', 'W', 'X', 'Y', 'Z']
    """
    return KnowsOrder(knower, owner)


def knows_within(knower: str, owner: str, k: float) -> EvaluationKnowledge:
    """*knower* knows each leaf value of *owner* only within ``±k`` (k >= 0; k = 0 is exact).

    Parameters
    ----------
    knower, owner : str
        The player who knows, and the player whose evaluation function (payoff component) it is.
    k : float
        The half-width of each leaf's interval, >= 0.

    Returns
    -------
    EvaluationKnowledge
        The statement, for :func:`kop.decide`, :func:`kop.select` and :func:`kop.evaluation_model`.

    Examples
    --------
    >>> knows_within("B", "A", 1.5)
    kop.knows_within('B', 'A', 1.5)
    >>> import kop
    >>> [kop.knows_within("A", "B", k).resolve(kop.figure2()).fixed_names() for k in (0.4, 2)]
    [['R', 'T', 'W', 'X', 'Y', 'Z'], ['X', 'Z']]
    """
    v = _number(k, f"knows_within({knower!r}, {owner!r}, k): k")
    if v < 0:
        raise EvaluationError(f"knows_within({knower!r}, {owner!r}, {k!r}): k must be >= 0 "
                              f"(each leaf value is known within ±k)")
    return KnowsWithin(knower, owner, v)


def knows_on_subtree(knower: str, owner: str, node: str | int | Sequence[int] | Node) -> EvaluationKnowledge:
    """*knower* knows *owner*'s values exactly on the leaves below *node*, and nothing elsewhere.

    Parameters
    ----------
    knower, owner : str
        The player who knows, and the player whose evaluation function (payoff component) it is.
    node : str, int, sequence of int or Node
        A label, a ``root/i/j`` path, child ranks or a node index.

    Returns
    -------
    EvaluationKnowledge
        The statement, for :func:`kop.decide`, :func:`kop.select` and :func:`kop.evaluation_model`.

    Examples
    --------
    >>> knows_on_subtree("B", "A", "S")
    kop.knows_on_subtree('B', 'A', 'S')
    >>> import kop
    >>> kop.knows_on_subtree("A", "B", "U").resolve(kop.figure2()).fixed_names()
    ['W', 'X']
    """
    ref: str | int | tuple[int, ...]
    if isinstance(node, Node):
        ref = node.tree.path_name(node.index)
    elif isinstance(node, str):
        ref = node
    elif isinstance(node, (int, np.integer)) and not isinstance(node, bool):
        ref = int(node)
    elif isinstance(node, Sequence) and all(isinstance(r, int) and not isinstance(r, bool) for r in node):
        ref = tuple(int(r) for r in node)
    else:
        raise EvaluationError(f"knows_on_subtree({knower!r}, {owner!r}): the node must be a label, a "
                              f"root/i/j path or a list of child ranks, not {node!r}")
    return KnowsOnSubtree(knower, owner, ref)


def parse_evaluation(text: str) -> EvaluationKnowledge:
    """A statement from the compact text ``KNOWER:OWNER=KIND[:ARGUMENT]`` (the ``kop select -e`` option).

    KIND is ``exact``, ``nothing``, ``order``, ``within:K``, ``subtree:NODE`` or
    ``candidates:V,V,...;V,V,...`` (candidates separated by ``;``, values left to right).

    >>> parse_evaluation("B:A=within:2")
    kop.knows_within('B', 'A', 2)
    >>> parse_evaluation("A:B=candidates:1,2;2,1")
    kop.knows_candidates('A', 'B', [[1, 2], [2, 1]])
    """
    usage = ("expected KNOWER:OWNER=KIND with KIND one of exact, nothing, order, within:K, subtree:NODE, "
             "candidates:V,V,...;V,V,...")
    who, eq, what = text.partition("=")
    knower, colon, owner = who.partition(":")
    knower, owner, what = knower.strip(), owner.strip(), what.strip()
    if not eq or not colon or not knower or not owner or not what:
        raise EvaluationError(f"{text!r}: {usage}")
    kind, _, arg = what.partition(":")
    kind, arg = kind.strip(), arg.strip()
    simple = {"exact": knows_exactly, "exactly": knows_exactly, "nothing": knows_nothing, "order": knows_order}
    if kind in simple and not arg:
        return simple[kind](knower, owner)
    if kind == "within" and arg:
        try:
            k = float(arg)
        except ValueError:
            raise EvaluationError(f"{text!r}: within:K needs a number, found {arg!r}") from None
        return knows_within(knower, owner, k)
    if kind == "subtree" and arg:
        return knows_on_subtree(knower, owner, arg)
    if kind == "candidates" and arg:
        cands = []
        for i, part in enumerate(arg.split(";")):
            try:
                cands.append([float(v) for v in part.split(",")])
            except ValueError:
                raise EvaluationError(f"{text!r}: candidate {i + 1} ({part.strip()!r}) must be numbers "
                                      "separated by commas") from None
        return knows_candidates(knower, owner, cands)
    raise EvaluationError(f"{text!r}: {usage}")


# -- leaves left to right ------------------------------------------------------------

def leaf_order(tree: GameTree) -> np.ndarray:
    """Node indices of the leaves, left to right (depth first): the order of a candidate's values.

    Parameters
    ----------
    tree : GameTree
        The game tree.

    Returns
    -------
    numpy.ndarray
        The leaves' node indices.

    Examples
    --------
    >>> import kop
    >>> t = kop.figure2()
    >>> [t.node(int(i)).payoff for i in leaf_order(t)][:4]
    [(4, 7), (8, 9), (7, 4), (5, 6)]
    """
    tree_argument(tree)
    offsets, kind = tree.offsets, tree.kind
    out: list[int] = []
    stack = [0]
    while stack:
        i = stack.pop()
        if kind[i] == LEAF:
            out.append(i)
        else:
            stack.extend(range(int(offsets[i + 1]) - 1, int(offsets[i]) - 1, -1))
    return np.asarray(out, dtype=np.int64)


# -- checked against a tree ------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class ResolvedKnowledge:
    """An :class:`EvaluationKnowledge` checked against one tree.

    Attributes
    ----------
    spec : EvaluationKnowledge
    tree : GameTree
    owner, knower : int
        Player indices.
    actual : numpy array
        The owner's actual values, one per leaf row of ``tree.payoffs``.
    exact : bool
        The knower knows the owner's evaluation exactly on this tree.
    fixed : numpy bool array, one per node
        True at the owner's height-1 nodes whose choice (value, at a forced move)
        is the same under every candidate the knower considers possible.
    """

    spec: EvaluationKnowledge
    tree: GameTree
    knower: int
    owner: int
    actual: np.ndarray
    exact: bool
    fixed: np.ndarray
    candidates: np.ndarray | None = None      # (k, leaf rows) for finite candidate sets
    known_leaves: np.ndarray | None = None    # per leaf row, for subtree knowledge

    @classmethod
    def build(cls, spec: EvaluationKnowledge, tree: GameTree) -> ResolvedKnowledge:
        def player(name: str, role: str) -> int:
            if name not in tree.player_names:
                raise EvaluationError(f"{spec.describe()}: unknown player {name!r} as the {role} "
                                      f"(players {', '.join(tree.player_names)})")
            return tree.player_names.index(name)

        knower = player(spec.knower, "knower")
        owner = player(spec.owner, "owner")
        actual = np.array(tree.payoffs[:, owner], dtype=np.float64)
        base = _base_nodes(tree, owner)
        cands = known = None
        match typed(spec):
            case KnowsExactly():
                fixed_base, exact = np.ones(len(base), bool), True
            case KnowsNothing():
                fixed_base, exact = np.zeros(len(base), bool), False
            case KnowsCandidates() as listed:
                cands = _candidate_matrix(listed, tree, actual)
                fixed_base = _fixed_by_matrix(tree, owner, base, cands)
                exact = bool(np.all(cands == actual))
            case KnowsOrder():
                fixed_base = tree.offsets[base + 1] - tree.offsets[base] > 1
                exact = False
            case KnowsWithin(k=k):
                fixed_base = _fixed_within(tree, owner, base, actual, k)
                exact = k == 0
            case KnowsOnSubtree() as sub:
                known = _subtree_leaves(sub, tree)
                fixed_base = _fixed_known(tree, base, known)
                exact = bool(known.all())
            case other:  # pragma: no cover - the union is closed
                assert_never(other)
        if knower == owner and not exact:
            raise EvaluationError(f"{spec.describe()}: a player knows its own evaluation exactly here "
                                  "(partial knowledge of one's own payoffs is not supported)")
        fixed = np.zeros(len(tree), dtype=bool)
        fixed[base] = fixed_base
        fixed.flags.writeable = False
        return cls(spec, tree, knower, owner, actual, exact, fixed, cands, known)

    def nodes(self) -> np.ndarray:
        """Indices of the owner's height-1 nodes whose choice this knowledge fixes for the knower."""
        return np.flatnonzero(self.fixed)

    def fixed_names(self) -> list[str]:
        """Names of :meth:`nodes`, in the tree's order."""
        return [self.tree.node(int(i)).name for i in self.nodes()]

    def __repr__(self) -> str:
        return f"ResolvedKnowledge({self.spec!r}, exact={self.exact}, fixed={len(self.nodes())})"

    def choice_fixed(self) -> np.ndarray:
        """Per node: True at the owner's nodes with two or more children, at every height, where
        the owner's choice over the children's agreed values (their M^h outcomes, lotteries below
        chance nodes) is the same under every candidate the knower considers possible.

        This is what the corrected Decide asks of partial knowledge in place of
        ``K_knower E_owner`` (SPEC §2.6 erratum); at height 1 it equals :attr:`fixed` on the
        nodes with two or more children.  Exact for every kind: finite candidates are tried one
        by one; for ``within ±k`` the worst case over the box of a comparison between two
        lotteries L, L' is ``sum (L - L') a - k sum |L - L'|``; for ``order`` a comparison holds
        for every order-preserving candidate iff L first-order dominates L' (strictly for an
        earlier sibling); for ``subtree`` the lotteries must lie on known leaves.

        >>> import kop
        >>> t = kop.GameTree.build(["A", "B"], ("A", [("A", [(1, 0), (5, 0)], "x"), (3, 0)]))
        >>> [t.node(int(i)).name for i in np.flatnonzero(kop.knows_within("B", "A", 0.5).resolve(t).choice_fixed())]
        ['root', 'x']
        >>> [t.node(int(i)).name for i in np.flatnonzero(kop.knows_within("B", "A", 1.5).resolve(t).choice_fixed())]
        ['x']
        """
        t = self.tree
        out = np.zeros(len(t), dtype=bool)
        kind, offsets = t.kind, t.offsets
        nodes = [i for i in np.flatnonzero(kind == self.owner).tolist() if offsets[i + 1] - offsets[i] > 1]
        if not nodes:
            return out
        spec = typed(self.spec)
        if self.exact:
            out[nodes] = True
            return out
        if isinstance(spec, KnowsNothing):
            return out
        sign = t.players[self.owner].sign
        lots = agreed_outcomes(t)
        a = self.actual
        for n in nodes:
            kids = [lots[c] for c in range(int(offsets[n]), int(offsets[n + 1]))]
            best = _best_lottery(kids, a, sign)
            match spec:
                case KnowsCandidates():
                    assert self.candidates is not None
                    out[n] = all(_best_lottery(kids, row, sign) == best for row in _unique_rows(self.candidates))
                case KnowsOnSubtree():
                    known = self.known_leaves
                    assert known is not None
                    out[n] = all(bool(known[r]) for lot in kids for r in lot)
                case KnowsOrder() | KnowsWithin():
                    out[n] = all(_robust(kids[best], kids[j], j < best, a, sign, spec.kind, _width(spec))
                                 for j in range(len(kids)) if j != best)
                case KnowsExactly() | KnowsNothing():  # pragma: no cover - answered above
                    out[n] = isinstance(spec, KnowsExactly)
                case other:  # pragma: no cover - the union is closed
                    assert_never(other)
        return out

    def witnesses(self) -> np.ndarray:
        """Finitely many candidate evaluations (rows; the actual first) with the same consequences.

        Every distinction the knowing-value model can see is realized: the
        candidates differ from the actual evaluation iff the knowledge is not
        exact, and at each base node the choice (value, at a forced move) varies
        among them iff it is not fixed.  Finite candidate lists are their own
        witnesses.
        """
        a = self.actual
        if self.exact:
            return a[None, :]
        if self.candidates is not None:
            rest = [c for c in _unique_rows(self.candidates) if not np.array_equal(c, a)]
            return np.vstack([a[None, :], *[r[None, :] for r in rest]])
        if isinstance(self.spec, KnowsOrder):
            return np.vstack([a, a + 1.0])
        if isinstance(self.spec, KnowsWithin):
            k = self.spec.k
            rows = [a, a + k]
            sign = self.tree.players[self.owner].sign
            kids_rows = self.tree.leaf_rows()
            for n in _base_nodes(self.tree, self.owner):
                lo, hi = int(self.tree.offsets[n]), int(self.tree.offsets[n + 1])
                if self.fixed[n] or hi - lo < 2:
                    continue
                r = kids_rows[lo:hi]
                c = _first_best(a[r], sign)
                w = a.copy()
                w[r] += sign * k
                w[r[c]] = a[r[c]] - sign * k
                rows.append(w)
            return np.vstack(rows)
        # nothing, or known only on a subtree: the unknown leaves far above or far below
        known = np.zeros(len(a), bool) if self.known_leaves is None else self.known_leaves
        big = float(np.max(np.abs(a))) + 1.0 if len(a) else 1.0
        rank = _leaf_ranks(self.tree)
        up, down = a.copy(), a.copy()
        up[~known] = big + rank[~known]
        down[~known] = -big - rank[~known]
        return np.vstack([a, up, down])


def _width(spec: EvaluationKnowledge) -> float:
    """The half-width k of ``within`` knowledge (0 for the other kinds)."""
    return spec.k if isinstance(spec, KnowsWithin) else 0.0


#: comparisons of expected values closer than this count as ties (sums of products of floats)
_TOL = 1e-9


def agreed_outcomes(tree: GameTree) -> list[dict[int, float]]:
    """Per node, its M^h outcome as a lottery: leaf row -> probability (one leaf without chance).

    A decided node's agreed value is its M^h value (Theorem 2), so these are the
    values the mover compares at a node whose children are decided.

    >>> import kop
    >>> t = kop.figure2()
    >>> t.value_of(t.payoffs[list(agreed_outcomes(t)[0])[0]])     # the root's: M^h reaches (10,3)
    (10, 3)
    """
    nxt = mh(tree).next_array
    rows_of = tree.leaf_rows()
    kind, offsets = tree.kind, tree.offsets
    out: list[dict[int, float]] = [{} for _ in range(len(tree))]
    for i in np.argsort(tree.heights, kind="stable").tolist():
        k = int(kind[i])
        if k == LEAF:
            out[i] = {int(rows_of[i]): 1.0}
        elif k == CHANCE:
            assert tree.probs is not None
            acc: dict[int, float] = {}
            for c in range(int(offsets[i]), int(offsets[i + 1])):
                p = float(tree.probs[c])
                for r, q in out[c].items():
                    acc[r] = acc.get(r, 0.0) + p * q
            out[i] = acc
        else:
            out[i] = out[int(nxt[i])] if int(nxt[i]) >= 0 else out[int(offsets[i])]
    return out


def _expect(lot: Mapping[int, float], values: np.ndarray) -> float:
    return float(sum(p * float(values[r]) for r, p in sorted(lot.items())))


def _best_lottery(lots: Sequence[Mapping[int, float]], values: np.ndarray, sign: int) -> int:
    """The first child whose expected value is best by the goal *sign* (ties within _TOL to the first)."""
    keys = [sign * _expect(lot, values) for lot in lots]
    top = max(keys)
    return next(j for j, x in enumerate(keys) if x >= top - _TOL)


def _robust(win: Mapping[int, float], lose: Mapping[int, float], strict: bool, a: np.ndarray, sign: int,
            kind: str, k: float) -> bool:
    """Does lottery *win* beat *lose* (strictly, or at least as well) for every candidate of the kind?"""
    d: dict[int, float] = {}
    for r, p in win.items():
        d[r] = d.get(r, 0.0) + p
    for r, p in lose.items():
        d[r] = d.get(r, 0.0) - p
    if kind == "within":
        worst = sign * sum(x * float(a[r]) for r, x in d.items()) - k * sum(abs(x) for x in d.values())
        return worst > _TOL if strict else worst >= -_TOL
    # order: the classes of equal values, worst first by the goal; every tail sum of d must be >= 0
    classes: dict[float, float] = {}
    for r, x in d.items():
        v = sign * float(a[r])
        classes[v] = classes.get(v, 0.0) + x
    tail, tails = 0.0, []
    for v in sorted(classes, reverse=True)[:-1]:
        tail += classes[v]
        tails.append(tail)
    if any(x < -_TOL for x in tails):
        return False
    return any(x > _TOL for x in tails) if strict else True


def _base_nodes(tree: GameTree, owner: int) -> np.ndarray:
    """The owner's nodes of height 1 (all children leaves)."""
    return np.flatnonzero((tree.kind == owner) & (tree.heights == 1))


def _leaf_ranks(tree: GameTree) -> np.ndarray:
    """Per leaf row, its position among its parent's children."""
    idx = np.flatnonzero(tree.kind == LEAF)
    parents = np.searchsorted(tree.offsets, idx, side="right") - 1
    ranks: np.ndarray = (idx - tree.offsets[parents]).astype(np.float64)
    return ranks


def _first_best(vals: np.ndarray, sign: int) -> int:
    return int(np.argmax(vals) if sign > 0 else np.argmin(vals))


def _unique_rows(m: np.ndarray) -> list[np.ndarray]:
    seen: set[bytes] = set()
    out = []
    for r in m:
        key = r.tobytes()
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def _candidate_matrix(spec: KnowsCandidates, tree: GameTree, actual: np.ndarray) -> np.ndarray:
    order = leaf_order(tree)
    rows_of = tree.leaf_rows()
    n_leaves = tree.n_leaves
    labels: dict[str, int] | None = None
    out = np.empty((len(spec.candidates), n_leaves))
    for i, c in enumerate(spec.candidates):
        where = f"{spec.describe()}: candidate {i + 1}"
        if c and isinstance(c[0], tuple):
            if labels is None:
                labels = {}
                for leaf in order:
                    lab = tree.labels.get(int(leaf))
                    if lab is not None:
                        labels.setdefault(lab, int(rows_of[leaf]))
            given = dict(c)
            unknown = sorted(set(given) - set(labels))
            if unknown:
                raise EvaluationError(f"{where}: no leaf labelled {unknown[0]!r}")
            row = np.full(n_leaves, np.nan)
            for lab, v in given.items():
                row[labels[lab]] = v
            if np.isnan(row).any():
                missing = next(int(leaf) for leaf in order if np.isnan(row[rows_of[leaf]]))
                what = tree.labels.get(missing)
                raise EvaluationError(f"{where}: no value for the leaf {tree.path_name(missing)}"
                                      + (f" ({what!r})" if what else " (it has no label: give the candidate "
                                                                     "as a list, one value per leaf)"))
            out[i] = row
        else:
            if len(c) != n_leaves:
                raise EvaluationError(f"{where} has {len(c)} payoff{'s' if len(c) != 1 else ''}; the tree has "
                                      f"{n_leaves} leaves (give one value of {spec.owner} per leaf, left to right)")
            out[i, rows_of[order]] = c
    if not any(np.array_equal(r, actual) for r in out):
        shown = ", ".join(_num_text(x) for x in actual[rows_of[order]])
        raise EvaluationError(f"{spec.describe()}: partial knowledge excludes the actual evaluation "
                              f"({spec.owner}'s payoffs at the leaves, left to right: {shown})")
    return out


def _choices(tree: GameTree, base: np.ndarray, values: np.ndarray, sign: int) -> np.ndarray:
    """First-best child rank at each base node, for each row of *values* (k, leaf rows) -> (k, nodes)."""
    rows_of = tree.leaf_rows()
    starts = tree.offsets[base].astype(np.int64)
    counts = (tree.offsets[base + 1] - tree.offsets[base]).astype(np.int64)
    seg = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    kids = np.repeat(starts - seg, counts) + np.arange(int(counts.sum()))
    key = sign * values[:, rows_of[kids]]                      # (k, children)
    best = np.maximum.reduceat(key, seg, axis=1)
    eq = key == np.repeat(best, counts, axis=1)
    first = np.minimum.reduceat(np.where(eq, np.arange(key.shape[1]), key.shape[1]), seg, axis=1)
    return first - seg


def _fixed_by_matrix(tree: GameTree, owner: int, base: np.ndarray, cands: np.ndarray) -> np.ndarray:
    if len(base) == 0:
        return np.zeros(0, bool)
    sign = tree.players[owner].sign
    ch = _choices(tree, base, cands, sign)
    fixed: np.ndarray = np.all(ch == ch[:1], axis=0)
    forced = tree.offsets[base + 1] - tree.offsets[base] == 1
    if forced.any():
        leaf = tree.leaf_rows()[tree.offsets[base[forced]]]
        fixed[forced] = np.all(cands[:, leaf] == cands[:1, leaf], axis=0)
    return fixed


def _fixed_within(tree: GameTree, owner: int, base: np.ndarray, actual: np.ndarray, k: float) -> np.ndarray:
    """Exact: c stays the first best over the box iff it beats earlier siblings by > 2k, later by >= 2k."""
    if len(base) == 0:
        return np.zeros(0, bool)
    sign = tree.players[owner].sign
    rows_of = tree.leaf_rows()
    counts = (tree.offsets[base + 1] - tree.offsets[base]).astype(np.int64)
    starts = tree.offsets[base].astype(np.int64)
    seg = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    kids = np.repeat(starts - seg, counts) + np.arange(int(counts.sum()))
    key = sign * actual[rows_of[kids]]
    choice = _choices(tree, base, actual[None, :], sign)[0]
    best = key[seg + choice]
    margin = np.repeat(best, counts) - key
    rank = np.arange(len(kids)) - np.repeat(seg, counts)
    c_rep = np.repeat(choice, counts)
    ok = np.where(rank < c_rep, margin > 2 * k, np.where(rank > c_rep, margin >= 2 * k, True))
    fixed = np.logical_and.reduceat(ok, seg)
    fixed[counts == 1] = k == 0
    return fixed


def _subtree_leaves(spec: KnowsOnSubtree, tree: GameTree) -> np.ndarray:
    try:
        node = tree.node(spec.node if spec.node is not None else 0)
    except KopError as exc:
        raise EvaluationError(f"{spec.describe()}: {exc}") from None
    leaves: np.ndarray = _below(tree, node.index)[tree.kind == LEAF]
    return leaves


def _fixed_known(tree: GameTree, base: np.ndarray, known: np.ndarray) -> np.ndarray:
    if len(base) == 0:
        return np.zeros(0, bool)
    counts = (tree.offsets[base + 1] - tree.offsets[base]).astype(np.int64)
    starts = tree.offsets[base].astype(np.int64)
    seg = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    kids = np.repeat(starts - seg, counts) + np.arange(int(counts.sum()))
    return np.logical_and.reduceat(known[tree.leaf_rows()[kids]], seg)


def restrict_all(evaluations: Iterable[EvaluationKnowledge], tree: GameTree,
                 node: str | int | Sequence[int] | Node) -> tuple[EvaluationKnowledge, ...]:
    """The same knowledge about the subtree of *tree* below *node* (``tree.subtree(node)``).

    Candidates keep their values on the subtree's leaves; knowledge on a
    subtree becomes exact (the node is above), relative (below) or nothing
    (elsewhere).

    >>> import kop
    >>> t = kop.figure2()
    >>> restrict_all([kop.knows_on_subtree("B", "A", "V"), kop.knows_order("A", "B")], t, "S")
    (kop.knows_on_subtree('B', 'A', 'root/1'), kop.knows_order('A', 'B'))
    """
    top = tree.node(node)
    order = leaf_order(tree)
    below = _below(tree, top.index)
    keep = np.array([below[int(i)] for i in order])
    rows_of = tree.leaf_rows()
    out = []
    for e in evaluations:
        if isinstance(e, KnowsCandidates):
            r = e.resolve(tree)
            assert r.candidates is not None
            cols = rows_of[order[keep]]
            seqs = []
            for row in r.candidates:
                seqs.append([float(x) for x in row[cols]])
            out.append(knows_candidates(e.knower, e.owner, seqs))
        elif isinstance(e, KnowsOnSubtree):
            known = tree.node(e.node if e.node is not None else 0)
            if below[known.index]:
                rel = tree.path_of(known.index)[len(top.path):]
                out.append(knows_on_subtree(e.knower, e.owner, "/".join(["root", *map(str, rel)])))
            elif _below(tree, known.index)[top.index]:
                out.append(knows_exactly(e.knower, e.owner))
            else:
                out.append(knows_nothing(e.knower, e.owner))
        else:
            out.append(e)
    return tuple(out)


def _below(tree: GameTree, index: int) -> np.ndarray:
    """Per node, whether it is *index* or below it."""
    mark = np.zeros(len(tree), bool)
    stack = [index]
    while stack:
        i = stack.pop()
        mark[i] = True
        stack.extend(range(int(tree.offsets[i]), int(tree.offsets[i + 1])))
    return mark


# -- several statements, and what they say in the propositional language --------------

def resolve_all(tree: GameTree, evaluations: Iterable[EvaluationKnowledge]) -> dict[tuple[int, int], ResolvedKnowledge]:
    """Resolve every statement against *tree*, keyed by (knower, owner) player indices.

    A player's own evaluation is known exactly unless stated; two statements
    about the same pair are an error.
    """
    out: dict[tuple[int, int], ResolvedKnowledge] = {}
    for e in evaluations:
        if not isinstance(e, EvaluationKnowledge):
            raise EvaluationError(f"evaluations must be EvaluationKnowledge values (kop.knows_exactly, "
                                  f"kop.knows_candidates, ...), not {type(e).__name__} {e!r}")
        r = e.resolve(tree)
        key = (r.knower, r.owner)
        if key in out:
            raise EvaluationError(f"two statements of what {e.knower} knows of {e.owner}'s evaluation: "
                                  f"{out[key].spec.describe()} and {e.describe()}")
        out[key] = r
    for i, p in enumerate(tree.player_names):
        out.setdefault((i, i), knows_exactly(p, p).resolve(tree))
    return out


def knowledge_formulas(tree: GameTree, resolved: Mapping[tuple[int, int], ResolvedKnowledge]) -> tuple[Formula, ...]:
    """What the statements say in the propositional language of ``E_P`` and ``S_P``.

    The actual evaluations and strategies are the actual ones (``E_P``,
    ``S_P``); it is common knowledge that each player knows whether its own
    evaluation and strategy are the actual ones; and for each statement, it is
    common knowledge that the knower knows whether ``E_owner`` holds (exact)
    or does not (anything less).

    >>> import kop
    >>> t = kop.figure2()
    >>> [kop.to_ascii(f) for f in knowledge_formulas(t, resolve_all(t, [kop.knows_order("B", "A")]))][-1]
    'C{A,B} ~(K_B E_A | K_B ~E_A)'
    """
    names = tree.player_names
    group = tuple(names)
    facts: list[Formula] = []
    own: list[Formula] = []
    for p in names:
        facts += [Atom(f"E_{p}"), Atom(f"S_{p}")]
        own += [_kw(p, Atom(f"E_{p}")), _kw(p, Atom(f"S_{p}"))]
    out = facts + [Common(group, conj(own))]
    for (ki, oi), r in sorted(resolved.items()):
        if ki == oi:
            continue
        kw = _kw(names[ki], Atom(f"E_{names[oi]}"))
        out.append(Common(group, kw if r.exact else Not(kw)))
    return tuple(out)


def _kw(agent: str, phi: Formula) -> Formula:
    return Or(Know(agent, phi), Know(agent, Not(phi)))

