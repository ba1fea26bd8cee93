"""Definition 6 by brute force: a semantic reference for Decide on small trees (issue 15).

Sang & Chen's Definition 6: node n is *decided* when both players agree on
next(n) and value(n) by what they know.  This module evaluates that
definition directly on explicit finite models, in the knowing-value semantics
of SPEC §2.4, with no formula in between; :func:`kop.decide` builds a formula
D(n) and asks the prover, and the tests check the two against each other.

The model
---------
A finite set of worlds.  Each world carries one *evaluation* per player: a
vector of that player's values at the leaves (by leaf row), or an opaque
symbol, an evaluation about which nothing is known (see below).  Each player
has a partition of the worlds: the worlds it cannot tell apart.  Payoffs are
read through the evaluations; the probabilities of chance nodes are part of
the game, the same in every world.

The definition
--------------
By induction on the tree, at every world w, whether n is decided and, if it
is, its *outcome* out(n, w): the lottery over leaves the play from n reaches
(a single leaf without chance).  The value of n is read off the outcome by each
player's evaluation, so agreeing on the outcome is agreeing on the value.

* A leaf is decided; its outcome is itself.
* A chance node is decided iff all its children are; its outcome is the
  mixture of theirs with the node's probabilities (its value the expectation).
* A node with one child (a forced move) is decided iff its child is, with the
  child's outcome: there is no choice to predict.
* A node of X with two or more children is decided at w iff in every world w'
  that the other player Y considers possible at w, every child is decided and
  X's choice at n, ch(n, w'), and the outcome out(n, w') are those of w.
  X's choice at w' is the first child whose outcome is best by X's
  evaluation at w' (the expected value for a lottery; ties to the first).
  The mover needs nothing more: it makes the choice, by its evaluation.

  With ``strict=True`` (the stricter reading) X must also consider every
  child decided: in every world X considers possible at w, every child is
  decided.

Y "knows next(n) and value(n)" exactly when its whole cell agrees on them;
children must be decided in Y's whole cell because Y predicts X's choice from
the children's agreed outcomes (and X makes it from them).  What X must know
to choose is already asked of it below: at every child where Y moves, X's
cell must agree on Y's choice (that child is decided at w).

Relation to Decide: in the propositional reading below, the formula D(n) of
:func:`kop.selection.decide.decided_formulas` holds at a world iff this
definition holds there (by induction on the tree: where ``K_Y E_X`` fails, Y's
cell holds a world with an unknown evaluation of X, whose choice differs; where
``K_Y D(c)`` fails, a child is undecided somewhere in Y's cell; conversely
D(n) makes every world of Y's cell compute X's actual choice over the
children's M^h outcomes).  ``tests/selection/test_decide_reference.py`` checks
that on random models, and Decide against this module on random knowledge.
Propositional knowledge and partial-knowledge statements together are not
covered here (the statements' product model has no room for other formulas).

Unknown evaluations
-------------------
In the propositional semantics ``E_X`` is the atom "X's evaluation is the
actual one".  :func:`propositional_worlds` turns a Kripke model into a
knowing-value model: X's evaluation is the actual one (the tree's payoffs)
where ``E_X`` holds, and a *fresh symbol* where it does not: an evaluation
that differs from the actual one in an unknown way.  A choice made by an
unknown evaluation, or over an unknown outcome, is itself unknown: two of them
are equal only if made by the same evaluation over the same outcomes, and an
unknown choice is never equal to a computed one.  That is the adversarial
reading of "not the actual one" (every distinction that some evaluation could
make, is made).  Every world is doubled first (two copies in the same cells:
a bisimilar model, so every formula keeps its truth value) with fresh symbols
per copy, so that a player never knows a non-actual evaluation exactly.

For propositional knowledge, :func:`reference_decide` enumerates every pointed
S5 model with up to ``max_worlds`` worlds over the atoms the knowledge uses
(``E_A``, ``E_B``, ``S_A``, ``S_B``, ...) as one disjoint union, keeps the
worlds where the knowledge holds, and calls n decided iff it is decided at
every one of them.  That is complete only up to ``max_worlds``: knowledge that
needs bigger models to refute D(n) may look decided here.  The tests
therefore also run :func:`decided_in_model` on the prover's countermodels.

For partial knowledge (:func:`kop.knows_candidates`, ...), the statements are
public, so the model is the product of the candidate sets: world (i, j) has A's
i-th and B's j-th candidate; each player knows its own.  Infinite candidate
sets are replaced by finitely many candidates that realize every comparison
the definition makes (in that model every decided node has the same outcome
in every world, so the mover compares fixed lotteries: linear functions of
the evaluation):

* ``within ±k``: the corners of the box (a linear function is extreme there);
* ``nothing`` and ``subtree``: every unknown leaf at ``-M`` or ``+M`` with M
  far beyond every payoff;
* ``order``: the order's extreme rays: the dense rank plus a jump of M at each
  level of the order (a comparison holds for every order-preserving function
  iff it holds on the rays);
* finite candidates and ``exact``: themselves.

Example
-------
>>> import kop
>>> t = kop.GameTree.build(["A", "B"], ("A", [(0, 10), ("B", [(-2, 5), ("A", [(3, 4),
...     ("B", [(-1, 1), (5, 6)], "I2")], "E2")], "I1")], "root"), goals="max")
>>> know = ["K_A E_A & K_A S_A & K_A E_B & K_A K_B K_A E_B", "K_B E_B & K_B S_B"]
>>> [t.node(i).name for i, d in enumerate(reference_decide(t, know)) if d and not t.node(i).is_leaf]
['I2']

Reference: Sang & Chen, *Beyond Minimax*, Definition 6; Wang, *Beyond knowing
that* (2018) for knowing-value.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from kop.games.trees.tree import CHANCE, LEAF, GameTree
from kop.errors import LimitError
from kop.syntax.formula import Formula, conj
from kop.games.trees.checks import tree_argument
from kop.selection.decide import two_players
from kop.selection.evaluations import knows_nothing, resolve_all

if TYPE_CHECKING:  # pragma: no cover
    from kop.selection.evaluations import EvaluationKnowledge, ResolvedKnowledge
    from kop.semantics.model import KripkeModel

__all__ = ["KnowingValueWorlds", "definition6", "decided_in_model", "propositional_worlds",
           "partial_worlds", "reference_decide", "small_knowledge_worlds",
           "MAX_REFERENCE_WORLDS"]

#: the largest model the reference builds
MAX_REFERENCE_WORLDS = 20_000

_TIE = 1e-9


@dataclass(frozen=True)
class KnowingValueWorlds:
    """An explicit knowing-value model: per player, each world's evaluation and block id.

    ``evaluations[p][w]`` is a tuple of player p's values (one per leaf row of
    the tree) or any other hashable value, an unknown evaluation (a symbol);
    ``blocks[p][w]`` is p's block id of world w (equal ids: p cannot tell the
    worlds apart).
    """

    evaluations: tuple[tuple[Hashable, ...], ...]
    blocks: tuple[tuple[int, ...], ...]

    def __len__(self) -> int:
        return len(self.blocks[0])

    def cell(self, player: int, world: int) -> list[int]:
        """The worlds *player* cannot tell apart from *world* (itself included)."""
        ids = self.blocks[player]
        return [v for v in range(len(ids)) if ids[v] == ids[world]]


def _lottery_value(out: Sequence[tuple[int, float]], values: Sequence[float]) -> float:
    return sum(p * values[r] for r, p in out)


def _is_known(out: Hashable) -> bool:
    """A computed outcome: a tuple of (leaf row, probability) pairs."""
    return isinstance(out, tuple) and (not out or isinstance(out[0], tuple))


def definition6(tree: GameTree, worlds: KnowingValueWorlds, *,
                strict: bool = False) -> tuple[list[list[bool]], list[list[Hashable]]]:
    """Definition 6 at every world: (decided[node][world], outcome[node][world]).

    An outcome is a tuple of (leaf row, probability) pairs when computed, and
    an opaque value when it depends on an unknown evaluation; None where the
    node is not decided.  See the module docstring for the definition.

    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("A", [(1, 0), (2, 0)]))
    >>> w = KnowingValueWorlds(evaluations=(((1.0, 2.0), (2.0, 1.0)), ((0.0, 0.0), (0.0, 0.0))),
    ...                        blocks=((0, 1), (0, 0)))      # B cannot tell A's two evaluations apart
    >>> definition6(t, w)[0][0]
    [False, False]
    """
    sweep = _Sweep(tree, worlds)
    for n in np.argsort(tree.heights, kind="stable").tolist():
        k = sweep.kind[n]
        if k == LEAF:
            sweep.leaf(n)
        elif len(sweep.kids(n)) == 1 or k == CHANCE:
            sweep.passive(n)
        elif k < 0:
            raise LimitError(f"the reference handles decision and chance nodes, not node {tree.path_name(n)}")
        else:
            sweep.choose(n, k)
            sweep.agree(n, k, strict)
    return sweep.decided, sweep.outcome


def _cells(ids: Sequence[int]) -> list[list[int]]:
    """Per world, the worlds with its block id (itself included)."""
    members: dict[int, list[int]] = {}
    for w, b in enumerate(ids):
        members.setdefault(b, []).append(w)
    return [members[b] for b in ids]


class _Sweep:
    """Definition 6 bottom up: per node and world, decided, the outcome and the mover's choice (None: not yet)."""

    def __init__(self, tree: GameTree, worlds: KnowingValueWorlds):
        self.worlds = worlds
        self.n_worlds = len(worlds)
        self.kind: list[int] = tree.kind.tolist()
        self.offsets: list[int] = tree.offsets.tolist()
        self.rows_of: list[int] = tree.leaf_rows().tolist()
        self.probs = tree.probs
        self.signs = [p.sign for p in tree.players]
        self.decided: list[list[bool]] = [[False] * self.n_worlds for _ in self.kind]
        self.outcome: list[list[Hashable]] = [[None] * self.n_worlds for _ in self.kind]
        self.choice: list[list[Hashable]] = [[None] * self.n_worlds for _ in self.kind]
        self.cells = [_cells(ids) for ids in worlds.blocks]

    def kids(self, n: int) -> range:
        return range(self.offsets[n], self.offsets[n + 1])

    def ready(self, n: int) -> list[int]:
        """The worlds where every child of *n* is decided."""
        kids = self.kids(n)
        return [w for w in range(self.n_worlds) if all(self.decided[c][w] for c in kids)]

    def leaf(self, n: int) -> None:
        """A leaf is decided everywhere; its outcome is its own row for sure."""
        for w in range(self.n_worlds):
            self.decided[n][w], self.outcome[n][w] = True, ((self.rows_of[n], 1.0),)

    def passive(self, n: int) -> None:
        """A forced move or a chance node: decided where its children are; the child's outcome, or the lottery."""
        kids = self.kids(n)
        for w in self.ready(n):
            self.decided[n][w] = True
            if len(kids) == 1:
                self.outcome[n][w] = self.outcome[kids[0]][w]
                continue
            assert self.probs is not None
            outs = [self.outcome[c][w] for c in kids]
            if all(_is_known(o) for o in outs):
                mix: dict[int, float] = {}
                for c, o in zip(kids, outs):
                    for r, p in o:  # type: ignore[attr-defined]
                        mix[r] = mix.get(r, 0.0) + float(self.probs[c]) * p
                self.outcome[n][w] = tuple(sorted(mix.items()))
            else:
                self.outcome[n][w] = ("mix", n, tuple(outs))

    def choose(self, n: int, k: int) -> None:
        """Mover *k*'s choice and the outcome at every world where all children of *n* are decided."""
        for w in self.ready(n):
            ev = self.worlds.evaluations[k][w]
            outs = [self.outcome[c][w] for c in self.kids(n)]
            if isinstance(ev, tuple) and all(_is_known(o) for o in outs):
                keys = [self.signs[k] * _lottery_value(o, ev) for o in outs]  # type: ignore[arg-type]
                best = max(keys)
                j = next(i for i, x in enumerate(keys) if x >= best - _TIE)
                self.choice[n][w], self.outcome[n][w] = j, outs[j]
            else:  # an unknown evaluation, or unknown outcomes: an unknown choice
                self.choice[n][w] = ("choice", n, ev, tuple(outs))
                self.outcome[n][w] = ("outcome", n, ev, tuple(outs))

    def agree(self, n: int, k: int, strict: bool) -> None:
        """*n* is decided at w when the other player sees the same choice and outcome at every world it
        cannot tell from w (strict: and the mover has a choice at every world it cannot tell from w)."""
        other = 1 - k
        choice, outcome = self.choice[n], self.outcome[n]
        for w in range(self.n_worlds):
            if choice[w] is None:
                continue
            ok = all(choice[v] == choice[w] and outcome[v] == outcome[w] for v in self.cells[other][w])
            if ok and strict:
                ok = all(choice[v] is not None for v in self.cells[k][w])
            self.decided[n][w] = ok
        for w in range(self.n_worlds):
            if not self.decided[n][w]:
                outcome[w] = None


def propositional_worlds(tree: GameTree, blocks: Sequence[Sequence[int]],
                         e_true: Sequence[Sequence[bool]]) -> KnowingValueWorlds:
    """The knowing-value reading of a propositional model, every world doubled (see the module docstring).

    *blocks*: per player, block ids per world; *e_true*: per player, whether
    ``E_player`` holds at each world.  World w becomes worlds 2w and 2w+1, in
    w's cells; the player's evaluation is the tree's payoffs where ``E``
    holds, and a fresh symbol for each copy where it does not.

    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("A", [(1, 0), (2, 0)]))
    >>> w = propositional_worlds(t, [[0, 0], [0, 1]], [[True, False], [True, True]])
    >>> len(w), w.blocks[0]
    (4, (0, 0, 0, 0))
    """
    actual = [tuple(float(x) for x in tree.payoffs[:, p]) for p in range(2)]
    n = len(blocks[0])
    evals = tuple(tuple(actual[p] if e_true[p][w // 2] else f"unknown E_{p}#{w}" for w in range(2 * n))
                  for p in range(2))
    doubled = tuple(tuple(int(blocks[p][w // 2]) for w in range(2 * n)) for p in range(2))
    return KnowingValueWorlds(evals, doubled)


def decided_in_model(tree: GameTree, model: KripkeModel, *, strict: bool = False) -> list[bool]:
    """Per node: decided (Definition 6) at every designated world of a propositional Kripke *model*.

    ``E_<player>`` missing from a world means that player's evaluation is not
    the actual one; a player that is not one of the model's agents tells every
    world apart.

    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("A", [(1, 0), (2, 0)]))
    >>> m = kop.KripkeModel({"u": ["E_A", "E_B"], "v": ["E_B"]}, {"A": [["u"], ["v"]], "B": [["u", "v"]]},
    ...                     actual="u")
    >>> decided_in_model(t, m)
    [False, True, True]
    """
    names = tree.player_names
    # a player the model does not mention is unconstrained by it: it tells every world apart
    blocks = [model.block_ids(p).tolist() if p in model.agents else list(range(len(model))) for p in names]
    e_true = [model.truth_mask(f"E_{p}").tolist() for p in names]
    dec, _ = definition6(tree, propositional_worlds(tree, blocks, e_true), strict=strict)
    points = [model.index(w) for w in model.actual] or list(range(len(model)))
    return [all(dec[i][2 * w] and dec[i][2 * w + 1] for w in points) for i in range(len(tree))]


def _small_models(atoms: Sequence[str], agents: Sequence[str], max_worlds: int
                  ) -> tuple[dict[str, list[int]], dict[str, list[bool]], list[tuple[int, int]]]:
    """Every S5 model with 1..max_worlds worlds over *atoms*, up to renaming the worlds (their
    valuations in increasing order) and leaving out disjoint unions of smaller models, as one
    disjoint union: (block ids per agent, truth per atom, the (first world, size) of each model)."""
    blocks: dict[str, list[int]] = {a: [] for a in agents}
    truth: dict[str, list[bool]] = {p: [] for p in atoms}
    spans: list[tuple[int, int]] = []
    start = 0
    vals = list(itertools.product([False, True], repeat=len(atoms)))
    for size in range(1, max_worlds + 1):
        parts = list(_partitions(size))
        for assignment in itertools.product(parts, repeat=len(agents)):
            if size > 1 and not _connected(assignment, size):
                continue
            for valuation in itertools.combinations_with_replacement(vals, size):
                for a, part in zip(agents, assignment):
                    blocks[a].extend(start + b for b in part)
                for w in range(size):
                    for p, v in zip(atoms, valuation[w]):
                        truth[p].append(v)
                spans.append((start, size))
                start += size
                if start > MAX_REFERENCE_WORLDS:
                    raise LimitError(f"more than {MAX_REFERENCE_WORLDS} worlds in the small models; "
                                     "lower max_worlds or use fewer atoms")
    return blocks, truth, spans


def _connected(assignment: Sequence[tuple[int, ...]], size: int) -> bool:
    """Are the worlds 0..size-1 connected by the agents' cells?"""
    reach, frontier = {0}, [0]
    while frontier:
        w = frontier.pop()
        for part in assignment:
            for v in range(size):
                if part[v] == part[w] and v not in reach:
                    reach.add(v)
                    frontier.append(v)
    return len(reach) == size


def _partitions(n: int) -> Iterator[tuple[int, ...]]:
    """Every partition of range(n), as block ids (restricted growth strings)."""
    def grow(prefix: list[int], top: int) -> Iterator[tuple[int, ...]]:
        if len(prefix) == n:
            yield tuple(prefix)
            return
        for b in range(top + 2):
            yield from grow(prefix + [b], max(top, b))
    yield from grow([0], 0)


def partial_worlds(tree: GameTree, evaluations: Iterable[EvaluationKnowledge]) -> KnowingValueWorlds:
    """The product knowing-value model of public partial-knowledge statements (module docstring).

    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("A", [(1, 0), (2, 0)]))
    >>> len(partial_worlds(t, [kop.knows_order("B", "A")]))     # 3 candidates for E_A times 5 for E_B
    15
    """
    resolved = resolve_all(tree, evaluations)
    names = tree.player_names
    cands = []
    for owner in range(2):
        knower = 1 - owner
        r = resolved.get((knower, owner)) or knows_nothing(names[knower], names[owner]).resolve(tree)
        cands.append(_candidates(tree, r))
    total = len(cands[0]) * len(cands[1])
    if total > MAX_REFERENCE_WORLDS:
        raise LimitError(f"the reference model would have {total} worlds (limit {MAX_REFERENCE_WORLDS})")
    pairs = list(itertools.product(range(len(cands[0])), range(len(cands[1]))))
    evals = (tuple(cands[0][i] for i, _ in pairs), tuple(cands[1][j] for _, j in pairs))
    return KnowingValueWorlds(evals, (tuple(i for i, _ in pairs), tuple(j for _, j in pairs)))


def _candidates(tree: GameTree, r: ResolvedKnowledge) -> list[tuple[float, ...]]:
    a = [float(x) for x in r.actual]
    n = len(a)
    big = 1e6 * (1.0 + max((abs(x) for x in a), default=0.0))
    kind = r.spec.kind
    if r.exact:
        rows = [a]
    elif kind == "candidates":
        assert r.candidates is not None  # resolved candidate knowledge keeps its matrix
        rows = [a] + [[float(x) for x in row] for row in r.candidates]
    elif kind == "within":
        k = float(r.spec.to_json()["k"])
        rows = [a] + [[x + s * k for x, s in zip(a, signs)] for signs in itertools.product((-1, 1), repeat=n)]
    elif kind == "order":
        levels = sorted(set(a))
        rank = [float(levels.index(x)) for x in a]
        rows = [a, rank] + [[x + big * (x >= t) for x in rank] for t in range(1, len(levels))]
    else:  # nothing, subtree
        known = [False] * n if r.known_leaves is None else [bool(x) for x in r.known_leaves]
        free = [i for i in range(n) if not known[i]]
        rows = [a]
        for signs in itertools.product((-1, 1), repeat=len(free)):
            row = list(a)
            for i, s in zip(free, signs):
                row[i] = s * big
            rows.append(row)
    out: list[tuple[float, ...]] = []
    for row in rows:
        t = tuple(row)
        if t not in out:
            out.append(t)
    return out


def reference_decide(tree: GameTree, knowledge: Iterable[Formula | str] = (), evaluations: Iterable[EvaluationKnowledge] = (), *,
                     strict: bool = False, max_worlds: int | None = None) -> list[bool]:
    """Per node: decided by Definition 6, by brute force (see the module docstring).

    Parameters
    ----------
    tree : GameTree
        Two players; chance nodes allowed; small (the models grow with the leaves).
    knowledge : formulas or strings
        Propositional knowledge, true at the actual world: decided iff decided
        at every world satisfying it of every model with up to *max_worlds*
        worlds (default: 2, or 3 with at most 2 atoms).
    evaluations : EvaluationKnowledge values
        Partial-knowledge statements (public): decided at the actual world of
        their product model.  Give formulas or statements, not both.
    strict : bool
        The stricter reading (the mover also considers every child decided).

    Returns
    -------
    list of bool
        One per node, in node-index order: whether it is decided.

    Examples
    --------
    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("A", [(1, 2), ("B", [(3, 1), (0, 5)], "n")]))
    >>> kop.reference_decide(t, ["K_A E_B", "K_B E_A"])
    [False, True, True, True, True]
    >>> kop.reference_decide(t, ["K_A E_B", "K_B E_A", "K_A K_B E_A"]) == list(
    ...     kop.decide(t, ["K_A E_B", "K_B E_A", "K_A K_B E_A"]).decided)
    True

    References
    ----------
    T. Sang, J.-H. Chen, *Beyond Minimax: Nonzero-Sum Game Tree Search with Knowledge Oriented
    Players*, Definition 6.
    """
    tree_argument(tree)
    from kop.syntax.parser import parse

    two_players(tree)
    ks = [parse(k) if isinstance(k, str) else k for k in knowledge]
    evs = list(evaluations)
    if ks and evs:
        raise LimitError("the reference handles propositional knowledge or partial-knowledge statements, "
                         "not both together")
    if evs:
        worlds = partial_worlds(tree, evs)
        dec, _ = definition6(tree, worlds, strict=strict)
        return [dec[i][0] for i in range(len(tree))]   # world 0: both actual evaluations
    return _decided_in_small_models(tree, ks, strict, max_worlds)


def _decided_in_small_models(tree: GameTree, ks: Sequence[Formula], strict: bool,
                             max_worlds: int | None) -> list[bool]:
    """Per node: decided at every world where *ks* holds of every small model (see :func:`reference_decide`)."""
    worlds, points = small_knowledge_worlds(tree, ks, max_worlds)
    dec, _ = definition6(tree, worlds, strict=strict)
    return [all(dec[i][2 * w] and dec[i][2 * w + 1] for w in points) for i in range(len(tree))]


def small_knowledge_worlds(tree: GameTree, ks: Sequence[Formula | str],
                           max_worlds: int | None = None) -> tuple[KnowingValueWorlds, list[int]]:
    """Every small S5 model of the atoms *ks* and the tree use, as one knowing-value model
    (:func:`propositional_worlds`, every world w doubled into 2w and 2w+1), and the worlds w
    where *ks* holds (before doubling); see :func:`reference_decide` for *max_worlds*.

    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("A", [(1, 0), (2, 0)]))
    >>> worlds, points = small_knowledge_worlds(t, ["K_B E_A"], max_worlds=1)
    >>> len(worlds), points
    (4, [0, 1])
    """
    from kop.semantics.model import KripkeModel
    from kop.syntax.parser import parse

    fs = [parse(k) if isinstance(k, str) else k for k in ks]
    names = tree.player_names
    atoms = sorted({f"E_{p}" for p in names} | {a for f in fs for a in f.atoms()})
    agents = sorted(set(names) | {a for f in fs for a in f.agents()})
    if max_worlds is None:
        max_worlds = 3 if len(atoms) <= 2 and len(agents) <= 2 else 2
    blocks, truth, spans = _small_models(atoms, agents, max_worlds)
    size = len(truth[atoms[0]])
    model = KripkeModel.from_arrays(size, {a: np.asarray(blocks[a]) for a in agents},
                                    {p: np.asarray(v) for p, v in truth.items()}, agents=agents)
    holds = model.truth_mask(conj(fs)) if fs else np.ones(size, dtype=bool)
    # only the models with a world where the knowledge holds matter
    keep = [w for a, k in spans if holds[a:a + k].any() for w in range(a, a + k)]
    e_true = [[truth[f"E_{p}"][w] for w in keep] for p in names]
    kept_blocks = [[blocks[p][w] for w in keep] for p in names]
    points = [i for i, w in enumerate(keep) if holds[w]]
    return propositional_worlds(tree, kept_blocks, e_true), points
