"""The selector's claims by brute force, straight from the definitions: a reference for small trees (issue 29).

:func:`kop.select` verifies each claim it makes (K-dominance, the guaranteed
outcome) against the opponent behaviours the definitions allow, computed
without enumerating them (:mod:`kop.selection.behaviours`).  This module
enumerates them instead, and computes each claim from its definition; the
tests compare the two on many random trees and knowledge sets.

The definitions (Sang & Chen, Definitions 1, 5-8)
-------------------------------------------------
P moves at the root, Q is the other player.  A *strategy* of Q (Definition 1)
gives a next(n) at every node: its moves at Q's nodes (the *behaviour* β) and
its predictions of P's moves at P's nodes (π).  Its values are those of the
play from each node under (β, π), read by Q's evaluation E_Q.  A behaviour β
is *allowed* when some strategy (β, π) of Q, with some evaluation E_Q that P
considers possible, is

* *selfish* (Definition 5): at every node of Q with two or more children, β
  takes the first child whose value is best for Q by E_Q (kop's tie rule);
* *informed* (Definition 7): at every decided node of Q, β takes the agreed
  (M^h) child; at every node of P that P knows to be decided (``K_P D(n)``: in
  every world P considers possible it is decided), π predicts the agreed child.
  Elsewhere π is any child.

S *K-dominates* S' for P (Definition 8) when ``play(S, β).P >= play(S', β).P``
by P's goal for every allowed β; S *guarantees* the worst of ``play(S, β)``
over them.

What P knows comes from explicit models, not from the prover:

* propositional knowledge: every small S5 model of it
  (:func:`kop.selection.reference_decide.small_knowledge_worlds`); a node is
  decided when Definition 6 holds at every point; P knows it decided when it is
  decided throughout P's cell of every point; P knows E_Q when E_Q is the
  actual one throughout those cells.  Then E_Q is Q's actual evaluation;
  otherwise every evaluation is possible: the reference takes every strict
  order of the leaves (:func:`every_order`);
* partial-knowledge statements: their product model (public statements), P's
  cell of the actual world; the evaluations of Q there are the finitely many
  witnesses of :func:`kop.selection.reference_decide.partial_worlds` (exact for
  exact, candidate and order knowledge on trees without chance nodes; a subset
  of the possible evaluations for the others), and every strict order of the
  leaves when P knows nothing of E_Q.

Beliefs (:func:`kop.outcomes_under_belief`) are claims of another kind: each
believed type of the owner plays its minimax on that evaluation; the expected,
believed, guaranteed and actual outcomes are recomputed here by
:func:`belief_claims`.

Example
-------
>>> import kop
>>> t = kop.figure2()
>>> know = kop.f_level("A", "B", 2) + kop.f_level("B", "A", 1)
>>> ref = reference_claims(t, know, {"HM0M2": kop.hm0m(t, 2, "A"), "minimax": kop.minimax(t, "A")})
>>> ref.guaranteed("HM0M2"), ref.dominates("HM0M2", "minimax")
((9, 4), True)

Reference: Sang & Chen, *Beyond Minimax*, Definitions 1, 5-8.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from kop.syntax import arguments
from kop.errors import LimitError
from kop.games.trees.tree import CHANCE, LEAF, GameTree
from kop.syntax.formula import Formula
from kop.selection.decide import two_players
from kop.selection.reference_decide import definition6, partial_worlds, small_knowledge_worlds

if TYPE_CHECKING:  # pragma: no cover
    from kop.games.strategies.strategy import Strategy
    from kop.selection.beliefs import EvaluationBelief
    from kop.selection.evaluations import EvaluationKnowledge

__all__ = ["ClaimSetting", "ReferenceClaims", "claim_setting", "reference_claims", "allowed_behaviour_set",
           "every_order", "belief_claims", "predicted_value", "MAX_PROFILES"]

#: the most (type, prediction, behaviour) profiles the reference enumerates
MAX_PROFILES = 2_000_000

_TIE = 1e-9


@dataclass(frozen=True)
class ClaimSetting:
    """What the definitions need of the knowledge: decided nodes, P's known-decided nodes, Q's evaluations.

    ``types`` holds the evaluations of Q that P considers possible (Q's value per leaf row).
    """

    player: int
    decided: tuple[bool, ...]
    known: tuple[bool, ...]
    types: tuple[tuple[float, ...], ...]
    knows_opponent: bool


def every_order(tree: GameTree) -> tuple[tuple[float, ...], ...]:
    """Every strict order of the leaves as an evaluation (ranks 0, 1, ...): with no chance node every
    behaviour that some evaluation makes selfish is selfish for one of them.

    >>> import kop
    >>> every_order(kop.GameTree.build(["A", "B"], ("A", [(1, 0), (2, 0)])))
    ((0.0, 1.0), (1.0, 0.0))
    """
    n = int(tree.n_leaves)
    if n > 7:
        raise LimitError(f"every order of {n} leaves is too many for the reference (at most 7 leaves)")
    return tuple(tuple(float(r) for r in perm) for perm in itertools.permutations(range(n)))


def claim_setting(tree: GameTree, knowledge: Iterable[Formula | str] = (),
                  evaluations: Iterable[EvaluationKnowledge] = (), player: str | None = None, *,
                  max_worlds: int | None = None) -> ClaimSetting:
    """The decided nodes, the nodes P knows decided and Q's possible evaluations, from explicit models.

    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("A", [("B", [(1, 2), (3, 4)]), (0, 0)]), goals="paper")
    >>> s = claim_setting(t, ["K_A E_B"])
    >>> s.decided, s.knows_opponent, len(s.types)
    ((False, True, True, True, True), True, 1)
    """
    first, _ = two_players(tree)
    p = tree.player_index(player or first)
    q = 1 - p
    evs = list(evaluations)
    ks = list(knowledge)
    actual = tuple(float(x) for x in tree.payoffs[:, q])
    if evs:
        if ks:
            raise LimitError("the reference takes formulas or partial-knowledge statements, not both")
        worlds = partial_worlds(tree, evs)
        points = [0]
        dec, _ = definition6(tree, worlds)
        decided = [dec[i][0] for i in range(len(tree))]
        cells = worlds.cell(p, 0)
    else:
        worlds, doubled = small_knowledge_worlds(tree, ks, max_worlds)
        points = [x for w in doubled for x in (2 * w, 2 * w + 1)]
        dec, _ = definition6(tree, worlds)
        decided = [all(dec[i][w] for w in points) for i in range(len(tree))]
        cells = sorted({v for w in points for v in worlds.cell(p, w)})
    known = [all(dec[i][v] for v in cells) for i in range(len(tree))]
    seen: dict[Hashable, None] = dict.fromkeys(worlds.evaluations[q][v] for v in cells)
    exact = all(e == actual for e in seen)
    mine = [e for e in evs if e.knower == tree.player_names[p] and e.owner == tree.player_names[q]]
    if exact:
        types: tuple[tuple[float, ...], ...] = (actual,)
    elif evs and mine and mine[0].kind != "nothing":
        types = tuple(e for e in seen if isinstance(e, tuple))
    else:   # P knows nothing of E_Q: every evaluation
        types = every_order(tree)
    return ClaimSetting(p, tuple(decided), tuple(known), types, exact)


def predicted_value(tree: GameTree, name: str, player: str) -> tuple[int | float, ...]:
    """The value at the root that *player*'s strategy *name* predicts (the selector's "estimate"),
    from the algorithms' definitions, by recursion: ``Mh`` (Algorithm 4: every mover by its own
    evaluation), ``minimax`` (Algorithm 1: every mover on *player*'s component, the opponent
    against it) and ``HM0Md`` (Algorithm 5: M^h at the nodes of height at most d, minimax above).

    >>> import kop
    >>> [predicted_value(kop.figure2(), n, "A") for n in ("Mh", "HM0M1", "minimax")]
    [(10, 3), (9, 4), (4, 7)]
    """
    if name == "Mh":
        d = tree.height
    elif name == "minimax":
        d = 0
    elif name.startswith("HM0M") and name[4:].isdigit():
        d = int(name[4:])
    else:
        raise LimitError(f"the reference predicts Mh, HM0M<d> and minimax, not {name}")
    me = tree.player_index(player)
    heights = tree.heights
    return tree.value_of(_backward(tree, lambda i, k: k if heights[i] <= d else me)[1][0].tolist())


def _mh_choices(tree: GameTree) -> list[int]:
    """The agreed (M^h) child at every node, by backward induction written out (first best on ties)."""
    return _backward(tree, lambda i, k: k)[0]


def _backward(tree: GameTree, component: Any) -> tuple[list[int], dict[int, np.ndarray]]:
    """Backward induction where the mover k at node i optimizes ``component(i, k)`` by k's goal
    (a player other than k: the opposite of that player's goal, as minimax assumes): the choice
    at every node (first best on ties) and every node's value."""
    signs = [pl.sign for pl in tree.players]
    rows = tree.leaf_rows()
    choice = [-1] * len(tree)
    values: dict[int, np.ndarray] = {}

    def value(i: int) -> np.ndarray:
        n = tree.node(i)
        if n.is_leaf:
            out: np.ndarray = np.asarray(tree.payoffs[rows[i]], dtype=float)
        else:
            kids = [c.index for c in n.children]
            vals = [value(c) for c in kids]
            if n.is_chance:
                assert n.probabilities is not None
                out = sum((pr * v for pr, v in zip(n.probabilities, vals)), np.zeros(len(signs)))
            else:
                k = int(tree.kind[i])
                c = component(i, k)
                sign = signs[k] if c == k else -signs[c]
                keys = [sign * v[c] for v in vals]
                best = max(keys)
                j = next(x for x, key in enumerate(keys) if key >= best - _TIE)
                choice[i] = kids[j]
                out = vals[j]
        values[i] = out
        return out

    value(0)
    return choice, values


def allowed_behaviour_set(tree: GameTree, setting: ClaimSetting,
                          limit: int = MAX_PROFILES) -> set[tuple[int, ...]]:
    """Every allowed behaviour of Q, as the tuple of Q's children at its nodes with two or more children
    (in node order), by enumerating (type, prediction, behaviour) and keeping the selfish, informed ones.

    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("A", [("B", [(1, 2), (3, 4)]), (0, 0)]), goals="paper")
    >>> sorted(allowed_behaviour_set(t, claim_setting(t, ["K_A E_B"])))   # B minimizes b: the first child
    [(3,)]
    >>> sorted(allowed_behaviour_set(t, claim_setting(t, [])))            # E_B unknown: either
    [(3,), (4,)]
    """
    p, q = setting.player, 1 - setting.player
    sign = tree.players[q].sign
    agreed = _mh_choices(tree)
    offsets, kind = tree.offsets.tolist(), tree.kind.tolist()
    rows = tree.leaf_rows().tolist()
    multi = [i for i in range(len(tree)) if offsets[i + 1] - offsets[i] > 1]
    q_nodes = [i for i in multi if kind[i] == q]
    p_nodes = [i for i in multi if kind[i] == p]

    def options(i: int, fixed: bool) -> list[int]:
        return [agreed[i]] if fixed else list(range(offsets[i], offsets[i + 1]))

    beh_opts = [options(i, setting.decided[i]) for i in q_nodes]
    pred_opts = [options(i, setting.known[i]) for i in p_nodes]
    total = len(setting.types) * int(np.prod([len(o) for o in beh_opts + pred_opts], dtype=float))
    if total > limit:
        raise LimitError(f"{total} profiles to enumerate (limit {limit})")
    out: set[tuple[int, ...]] = set()
    for ev in setting.types:
        for pred in itertools.product(*pred_opts):
            nxt = dict(zip(p_nodes, pred))
            for beh in itertools.product(*beh_opts):
                if beh in out:
                    continue
                nxt.update(zip(q_nodes, beh))
                if _selfish(tree, ev, nxt, q_nodes, sign, offsets, kind, rows):
                    out.add(beh)
    return out


def _selfish(tree: GameTree, ev: Sequence[float], nxt: Mapping[int, int], q_nodes: Sequence[int], sign: int,
             offsets: list[int], kind: list[int], rows: list[int]) -> bool:
    """Definition 5 for Q: at each of its nodes, *nxt* takes the first child best for Q by *ev*."""
    memo: dict[int, float] = {}

    def value(i: int) -> float:
        if i not in memo:
            k = kind[i]
            if k == LEAF:
                memo[i] = float(ev[rows[i]])
            elif k == CHANCE:
                assert tree.probs is not None
                memo[i] = sum(float(tree.probs[c]) * value(c) for c in range(offsets[i], offsets[i + 1]))
            elif offsets[i + 1] - offsets[i] == 1:
                memo[i] = value(offsets[i])
            else:
                memo[i] = value(nxt[i])
        return memo[i]

    for i in q_nodes:
        keys = [sign * value(c) for c in range(offsets[i], offsets[i + 1])]
        best = max(keys)
        first = offsets[i] + next(x for x, key in enumerate(keys) if key >= best - _TIE)
        if nxt[i] != first:
            return False
    return True


@dataclass(frozen=True)
class ReferenceClaims:
    """Each strategy's outcome against each allowed behaviour, and the claims computed from them."""

    tree: GameTree
    player: int
    setting: ClaimSetting
    outcomes: Mapping[str, tuple[tuple[float, ...], ...]]

    def guaranteed(self, name: str) -> tuple[int | float, ...]:
        """The worst outcome of *name* for P over the allowed behaviours (the first such behaviour on ties)."""
        sign = self.tree.players[self.player].sign
        outs = self.outcomes[name]
        worst = min(range(len(outs)), key=lambda k: (sign * outs[k][self.player], k))
        return self.tree.value_of(outs[worst])

    def dominates(self, name: str, other: str) -> bool:
        """Definition 8: *name* does at least as well for P as *other* against every allowed behaviour."""
        sign = self.tree.players[self.player].sign
        return all(sign * a[self.player] >= sign * b[self.player] - _TIE
                   for a, b in zip(self.outcomes[name], self.outcomes[other]))


def reference_claims(tree: GameTree, knowledge: Iterable[Formula | str] = (),
                     strategies: Mapping[str, Strategy | Sequence[int]] | None = None, *,
                     evaluations: Iterable[EvaluationKnowledge] = (), player: str | None = None,
                     setting: ClaimSetting | None = None, max_worlds: int | None = None) -> ReferenceClaims:
    """Play P's *strategies* (name -> strategy or next array) against every allowed behaviour of Q.

    Parameters
    ----------
    tree : GameTree
        Two players, small.
    knowledge : formulas or strings
        Propositional knowledge, true at the actual world.
    strategies : mapping
        P's strategies by name.
    evaluations : EvaluationKnowledge values
        Partial-knowledge statements (instead of *knowledge*).
    player : str, optional
        P (default: the root's mover).
    setting : ClaimSetting, optional
        Given instead of computing it with :func:`claim_setting`.
    max_worlds : int, optional
        The size of the small models (:func:`kop.selection.reference_decide.reference_decide`).

    Returns
    -------
    ReferenceClaims
        Per strategy, its outcome against each allowed behaviour (the same order for all).

    Examples
    --------
    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("A", [("B", [(1, 2), (3, 4)]), (0, 0)]), goals="paper")
    >>> ref = reference_claims(t, ["K_A E_B"], {"Mh": kop.mh(t)})
    >>> ref.outcomes["Mh"], ref.guaranteed("Mh")
    (((1.0, 2.0),), (1, 2))
    """
    arguments.instance(tree, GameTree, "tree", "a GameTree")
    st = setting or claim_setting(tree, knowledge, evaluations, player, max_worlds=max_worlds)
    q = 1 - st.player
    offsets, kind = tree.offsets.tolist(), tree.kind.tolist()
    q_nodes = [i for i in range(len(tree)) if kind[i] == q and offsets[i + 1] - offsets[i] > 1]
    behaviours = sorted(allowed_behaviour_set(tree, st))
    nexts = {name: [int(x) for x in (s.next_array if hasattr(s, "next_array") else s)]
             for name, s in (strategies or {}).items()}
    outs: dict[str, tuple[tuple[float, ...], ...]] = {}
    for name, nx in nexts.items():
        outs[name] = tuple(_play(tree, nx, dict(zip(q_nodes, beh)), q) for beh in behaviours)
    return ReferenceClaims(tree, st.player, st, outs)


def _play(tree: GameTree, nx: Sequence[int], beh: Mapping[int, int], q: int) -> tuple[float, ...]:
    """The outcome (expected at chance nodes) when P follows *nx* and Q *beh*."""
    def go(i: int) -> np.ndarray:
        n = tree.node(i)
        if n.is_leaf:
            return np.asarray(n.payoff, dtype=float)
        kids = [c.index for c in n.children]
        if n.is_chance:
            assert n.probabilities is not None
            return sum((pr * go(c) for pr, c in zip(n.probabilities, kids)), np.zeros(len(tree.players)))
        if len(kids) == 1:
            return go(kids[0])
        return go(beh[i] if int(tree.kind[i]) == q else nx[i])

    return tuple(float(x) for x in go(0))


def belief_claims(tree: GameTree, belief: EvaluationBelief,
                  strategies: Mapping[str, Sequence[int]]) -> dict[str, dict[str, Any]]:
    """The claims of :func:`kop.outcomes_under_belief` for each of the knower's *strategies* (next arrays).

    Each believed type of the owner plays the owner's minimax on its evaluation
    (the owner optimizes the type's values, taking the knower as its adversary),
    written out here by recursion.  Per strategy: ``expected`` (the type drawn
    with the believed probabilities), ``believed`` (the most probable type, the
    first on ties), ``guaranteed`` (the worst for the knower over the types of
    positive probability), ``actual`` (against the owner's real evaluation),
    ``holds`` ("in fact" when the actual evaluation has positive probability,
    else "in belief") and ``guarantee_holds`` (actual at least as good as guaranteed).

    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("A", [("B", [(1, 2), (3, 1)]), (2, 0)]), goals="paper")
    >>> b = kop.believes_candidates("A", "B", [[2, 1, 0]])          # B's actual payoffs
    >>> belief_claims(t, b, {"minimax": kop.minimax(t, "A").next_array})["minimax"]["holds"]
    'in fact'
    """
    r = belief.resolve(tree)
    p, o = r.knower, r.owner
    sp = tree.players[p].sign
    so = tree.players[o].sign
    rows = tree.leaf_rows()

    def type_moves(values: Sequence[float]) -> dict[int, int]:
        moves: dict[int, int] = {}

        def val(i: int) -> float:
            n = tree.node(i)
            if n.is_leaf:
                return float(values[rows[i]])
            kids = [c.index for c in n.children]
            vs = [val(c) for c in kids]
            if n.is_chance:
                assert n.probabilities is not None
                return sum(pr * v for pr, v in zip(n.probabilities, vs))
            # the owner optimizes its values; at the knower's nodes it assumes the worst for itself
            key = [so * v if int(tree.kind[i]) == o else -so * v for v in vs]
            best = max(key)
            j = next(x for x, k in enumerate(key) if k >= best - _TIE)
            if int(tree.kind[i]) == o:
                moves[i] = kids[j]
            return vs[j]

        val(0)
        return moves

    types = [type_moves([float(x) for x in row]) for row in r.rows]
    real = type_moves([float(x) for x in tree.payoffs[:, o]])
    probs = [float(x) for x in r.probabilities]
    top = max(range(len(probs)), key=lambda i: (probs[i], -i))
    out: dict[str, dict[str, Any]] = {}
    for name, nx in strategies.items():
        per = [np.asarray(_play(tree, nx, m, o)) for m in types]
        act = np.asarray(_play(tree, nx, real, o))
        possible = [i for i in range(len(probs)) if probs[i] > 0]
        worst = min(possible, key=lambda i: (sp * per[i][p], i))
        expected = sum((pr * v for pr, v in zip(probs, per)), np.zeros(len(tree.players)))
        out[name] = {"expected": tree.value_of(expected.tolist()),
                     "believed": tree.value_of(per[top].tolist()), "guaranteed": tree.value_of(per[worst].tolist()),
                     "actual": tree.value_of(act.tolist()),
                     "guarantee_holds": bool(sp * act[p] >= sp * per[worst][p] - _TIE),
                     "holds": "in fact" if r.true else "in belief"}
    return out
