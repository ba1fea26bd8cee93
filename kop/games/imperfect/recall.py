"""Perfect recall (Kuhn 1953), the kinds of imperfect recall, and beliefs at information sets.

A player's *own history* at a node is the sequence of (information set, action) pairs of that
player on the path from the root to the node.  The player has **perfect recall** when any two
nodes of one of its information sets have the same own history (Kuhn's definition, SPEC §6).

When it does not, :func:`recall_report` names the kinds of imperfect recall present (the names
of gambitproject/gambit#547), each with a witness: two nodes *x*, *y* of one information set *h*
and what the player forgot.

* ``absent-minded``: *x* lies on the path to *y* (the set meets one path twice): at *x*, the
  player does not know that it has not been at *h* before.
* ``forgets-information``: the path to *x* passes through another set *h'* of the player, the
  path to *y* does not: at *h* the player forgot that it was at *h'* (what it knew there).
* ``forgets-action``: both paths pass through *h'*, but *x*'s took action *a* there and *y*'s did
  not: the player forgot what it did.

A player has perfect recall exactly when none of the three kinds is present (if no set meets a
path twice and the sets of (set, action) pairs agree within every set, the sequences agree: by
induction on the last pair).  Each kind is also an epistemic formula over the game model
(:func:`kop.game_model`), with atoms ``at_P_k`` (the node is in P's set k), ``seen_P_k`` (the path
to the node passes through P's set k) and ``did_P_k_r`` (and took its action r there):

* absent-minded at *h*: ``at_P_h -> K_P ~seen_P_h``;
* forgets-information (*h*, *h'*): ``at_P_h & seen_P_h' -> K_P seen_P_h'``;
* forgets-action (*h*, *h'*, *a*): ``at_P_h & did_P_h'_a -> K_P did_P_h'_a``.

Each witness carries its formula and the nodes where the formula is false in the game model.

Beliefs (:func:`beliefs`): given a behaviour profile, the belief at a node of a set is its
realisation probability divided by the sum of the realisation probabilities of the set's nodes;
in an absent-minded set the sum counts every node, re-entries included, and the probability that
the set is reached is the probability that it is visited at least once: the sum over its nodes
that have no earlier node of the set on their path (gambitproject/gambit#826, as proposed there
and merged in #835).

Example
-------
>>> import kop
>>> g = kop.forgetful_cards()
>>> kop.perfect_recall(g, "Ann"), kop.perfect_recall(g, "Bob")
(False, True)
>>> r = kop.recall_report(g, "Ann")
>>> r.kinds
('forgets-information',)
>>> r.witnesses[0].formula
'at_Ann_2 & seen_Ann_1 -> K_Ann seen_Ann_1'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from kop.games.imperfect.game import InfoGame, InfoSet, game_argument
from kop.games.imperfect.epistemic import agent_name, game_model

__all__ = ["KINDS", "RecallWitness", "RecallReport", "perfect_recall", "recall_report", "own_sequences"]

#: the kinds of imperfect recall, in the order reports list them
KINDS = ("forgets-information", "forgets-action", "absent-minded")


def own_sequences(game: InfoGame, player: int) -> np.ndarray:
    """Per node, an integer naming *player*'s own history there (equal integers: equal histories).

    The own history is the sequence of the player's (information set, action) pairs on the path
    from the root; one pass over the tree, breadth first.

    >>> import kop
    >>> g = kop.forgetful_cards()
    >>> own_sequences(g, 0)[:4].tolist()
    [0, 0, 0, 1]
    """
    return _own_trie(game, player)[0]


def _own_trie(game: InfoGame, player: int) -> tuple[np.ndarray, list[tuple[int, int, int]]]:
    """:func:`own_sequences` and the trie of the histories: entry q is (the history before the
    last pair, the last pair's set, its action) of history q (entry 0, the empty history, unused)."""
    tree = game.tree
    n = len(tree)
    kind = tree.kind
    parent, rank, node_set = game.parents, game.ranks, game.node_set
    seq = np.zeros(n, dtype=np.int64)
    intern: dict[tuple[int, int, int], int] = {}
    trie: list[tuple[int, int, int]] = [(-1, -1, -1)]
    levels = tree.levels
    for d in range(1, len(levels) - 1):
        s, e = int(levels[d]), int(levels[d + 1])
        if s >= e:
            break
        par = parent[s:e]
        seq[s:e] = seq[par]
        own = np.flatnonzero(kind[par] == player)
        if len(own):
            p_own = par[own]
            ids = []
            for key in zip(seq[p_own].tolist(), node_set[p_own].tolist(), rank[s + own].tolist()):
                q = intern.get(key)
                if q is None:
                    q = intern[key] = len(trie)
                    trie.append(key)
                ids.append(q)
            seq[s + own] = ids
    return seq, trie


def _broken_sets(game: InfoGame, player: int, seq: np.ndarray | None = None) -> list[int]:
    """The indices of *player*'s information sets whose nodes do not all have one own history."""
    kind = game.tree.kind
    nodes = np.flatnonzero(kind == player)
    if not len(nodes):
        return []
    if seq is None:
        seq = own_sequences(game, player)
    sets = game.node_set[nodes]
    order = np.lexsort((seq[nodes], sets))
    s_sorted, q_sorted = sets[order], seq[nodes][order]
    bad = (s_sorted[1:] == s_sorted[:-1]) & (q_sorted[1:] != q_sorted[:-1])
    return sorted(set(s_sorted[1:][bad].tolist()))


def perfect_recall(game: Any, player: str | int | None = None) -> bool:
    """Whether *player* (every player when None) has perfect recall, by Kuhn's definition.

    Parameters
    ----------
    game : InfoGame, GameTree, str or pygambit/pyspiel game
        The game (a ``.efg`` path or ``openspiel:NAME`` is read).
    player : str or int, optional
        A player's name or index.

    Returns
    -------
    bool

    Examples
    --------
    >>> import kop
    >>> kop.perfect_recall(kop.forgetful_cards())
    False
    >>> kop.perfect_recall(kop.figure2())
    True
    """
    g = game_argument(game)
    players = range(len(g.players)) if player is None else [g.player_index(player)]
    return all(not _broken_sets(g, k) for k in players)


@dataclass(frozen=True)
class RecallWitness:
    """One kind of imperfect recall at one information set, shown by two of its nodes.

    Attributes
    ----------
    kind : str
        One of :data:`KINDS`.
    player : str
        The player.
    infoset : str
        The information set *h* (its label; for a ``.efg``, Gambit's number).
    nodes : tuple of str
        The two nodes *x* and *y* of *h* (names: labels, else the actions from the root).
    forgotten : str
        What the player forgot at *h*.
    formula : str
        The epistemic formula over :func:`kop.game_model` that states this kind's absence.
    fails_at : tuple of str
        Nodes where the formula is false (at most 10).
    sets : int
        How many of the player's sets show this kind.

    Examples
    --------
    >>> RecallWitness("absent-minded", "D", "1", ("root", "C"), "that it was at 1 before", "at_D_1 -> K_D ~seen_D_1",
    ...               ("root",), 1).to_json()["kind"]
    'absent-minded'
    """

    kind: str
    player: str
    infoset: str
    nodes: tuple[str, str]
    forgotten: str
    formula: str
    fails_at: tuple[str, ...]
    sets: int

    def to_json(self) -> dict[str, Any]:
        """The witness as a JSON object."""
        return {"kind": self.kind, "infoset": self.infoset, "nodes": list(self.nodes),
                "forgotten": self.forgotten, "formula": self.formula, "fails_at": list(self.fails_at),
                "sets": self.sets}


@dataclass(frozen=True)
class RecallReport:
    """What :func:`recall_report` finds for one player.

    Attributes
    ----------
    player : str
        The player.
    perfect_recall : bool
        Whether the player has perfect recall (Kuhn).
    kinds : tuple of str
        The kinds of imperfect recall present, in the order of :data:`KINDS`.
    witnesses : tuple of RecallWitness
        One witness per kind.

    Examples
    --------
    >>> RecallReport("A", True, (), ())
    RecallReport(player='A', perfect_recall=True, kinds=(), witnesses=())
    """

    player: str
    perfect_recall: bool
    kinds: tuple[str, ...]
    witnesses: tuple[RecallWitness, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"name", "perfect_recall", "kinds", "witnesses"}``: one player of ``kop recall --json``."""
        return {"name": self.player, "perfect_recall": self.perfect_recall, "kinds": list(self.kinds),
                "witnesses": [w.to_json() for w in self.witnesses]}


def recall_report(game: Any, player: str | int) -> RecallReport:
    """The kinds of imperfect recall of *player*, each with a witness and its failing formula.

    Parameters
    ----------
    game : InfoGame, GameTree, str or pygambit/pyspiel game
        The game.
    player : str or int
        A player's name or index.

    Returns
    -------
    RecallReport
        ``perfect_recall``; ``kinds`` in the order of :data:`KINDS`; one witness per kind (its
        first information set in the game's order), with the formula and where it fails.

    Examples
    --------
    >>> import kop
    >>> r = kop.recall_report(kop.absent_minded_driver(), "Driver")
    >>> r.kinds, r.witnesses[0].nodes, r.witnesses[0].formula
    (('absent-minded',), ('root', 'Continue'), 'at_Driver_1 -> K_Driver ~seen_Driver_1')
    >>> r.witnesses[0].fails_at
    ('root', 'Continue')
    """
    g = game_argument(game)
    k = g.player_index(player)
    seq, trie = _own_trie(g, k)
    broken = _broken_sets(g, k, seq)
    found: dict[str, tuple[InfoSet, _Finding]] = {}
    counts = dict.fromkeys(KINDS, 0)
    histories = _OwnHistories(trie)
    agent = agent_name(g, k)
    for h_index in broken:
        h = g.sets[h_index]
        rep: dict[int, int] = {}  # own history -> the first node of h with it
        for x in h.nodes:
            rep.setdefault(int(seq[x]), x)
        for kind, finding in _kinds_at(g, h, rep, histories, agent).items():
            counts[kind] += 1
            found.setdefault(kind, (h, finding))
    witnesses = []
    for kind in KINDS:
        if kind in found:
            h, (x, y, what, formula, sets) = found[kind]
            fails = _failures(g, h, formula, sets)
            witnesses.append(RecallWitness(kind, g.players[k], h.label, (g.node_name(x), g.node_name(y)), what,
                                           formula, tuple(g.node_name(i) for i in fails[:10]), counts[kind]))
    return RecallReport(g.players[k], not broken, tuple(w.kind for w in witnesses), tuple(witnesses))


#: one kind at one set: (node x, node y, what was forgotten, the formula, the sets it names)
_Finding = tuple[int, int, str, str, list[int]]


class _OwnHistories:
    """The (set, action) pairs of each own history of the trie (:func:`_own_trie`), memoized."""

    def __init__(self, trie: list[tuple[int, int, int]]):
        self.trie = trie
        self.paths: dict[int, list[tuple[int, int]]] = {}

    def pairs(self, q: int) -> list[tuple[int, int]]:
        if q not in self.paths:
            out = []
            r = q
            while r > 0:
                up, s, a = self.trie[r]
                out.append((s, a))
                r = up
            out.reverse()
            self.paths[q] = out
        return self.paths[q]


def _kinds_at(g: InfoGame, h: InfoSet, rep: dict[int, int], histories: _OwnHistories, agent: str
              ) -> dict[str, _Finding]:
    """The kinds of imperfect recall at set *h* (*rep*: own history -> a node of h with it)."""
    seen = {q: {s for s, _ in histories.pairs(q)} for q in rep}
    did = {q: set(histories.pairs(q)) for q in rep}
    out: dict[str, _Finding] = {}
    at = f"at_{agent}_{h.number}"
    # absent-minded: an earlier node of h on the path to y
    y = next((y for q, y in rep.items() if h.index in seen[q]), None)
    if y is not None:
        members = set(h.nodes)
        x = next(a for a in g.history(y)[:-1] if a in members)
        out["absent-minded"] = (x, y, f"that it had already been at information set {_short(h)} (at {g.node_name(x)})",
                                f"{at} -> K_{agent} ~seen_{agent}_{h.number}", [h.index])
    # forgets-information: another set on some node's path, not on another's
    for s in sorted(set().union(*seen.values()) - {h.index}):
        qx = next((q for q in rep if s in seen[q]), None)
        qy = next((q for q in rep if s not in seen[q]), None)
        if qx is not None and qy is not None:
            atom = f"seen_{agent}_{g.sets[s].number}"
            out["forgets-information"] = (rep[qx], rep[qy], f"that it was at its information set {_short(g.sets[s])}",
                                          f"{at} & {atom} -> K_{agent} {atom}", [h.index, s])
            break
    # forgets-action: another set on both paths, an action taken there on one and not the other
    for s, r in sorted(set().union(*did.values())):
        qx = next((q for q in rep if (s, r) in did[q]), None) if s != h.index else None
        qy = next((q for q in rep if s in seen[q] and (s, r) not in did[q]), None)
        if qx is not None and qy is not None:
            hs = g.sets[s]
            atom = f"did_{agent}_{hs.number}_{r}"
            out["forgets-action"] = (rep[qx], rep[qy], f"that it chose {hs.actions[r]!r} at its information set "
                                                       f"{_short(hs)}", f"{at} & {atom} -> K_{agent} {atom}",
                                     [h.index, s])
            break
    return out


def _short(h: InfoSet) -> str:
    """A one-line name of a set: its label, or its number when the label is long or has line breaks
    (OpenSpiel's information state strings)."""
    return h.label if len(h.label) <= 40 and "\n" not in h.label else str(h.number)


def _failures(game: InfoGame, h: InfoSet, formula: str, sets: list[int]) -> list[int]:
    """The nodes where *formula* (about set *h*) is false in the game model.

    Every formula of a witness is true outside *h* (its ``at_P_h`` is false there), and *h* is a
    whole cell of its player, so the model on *h*'s nodes alone decides it (with the atoms of
    *sets* (indices): the sets the formula names)."""
    model = game_model(game, knowledge="sets", sets=sets, atoms=(), nodes=h.nodes)
    mask = model.truth_mask(formula)
    return [x for x, ok in zip(h.nodes, mask.tolist()) if not ok]
