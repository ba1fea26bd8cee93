"""OpenSpiel's imperfect-information games as possible-worlds games.

A small two-player zero-sum OpenSpiel game whose hidden information comes from
chance (cards dealt, dice rolled) is a possible-worlds game (Jamroga 2001):

* the **worlds** are the complete sequences of chance outcomes (Kuhn poker: the
  6 deals; Leduc poker: the 120 deals of two private cards and the public one;
  one-die liar's dice: the 36 rolls), each with its probability;
* the **tree** is the tree of the players' moves, the same in every world (the
  game's legal moves must not depend on the chance outcomes; kop checks this);
* a leaf pays player 0's return in each world (player 0 is MAX, player 1 MIN);
* each player's **belief** at a node is the partition of the worlds by its
  OpenSpiel information state there: it considers possible exactly the worlds
  of its information set -- never one that differs in what it has seen, so its
  own cards are fixed and the opponent's private cards range over what is left.

A chance event that happens mid-game (Leduc's public card) is part of every
world; at a leaf reached before it, the payoff is the same in all the worlds
that differ only in it.  Games whose hidden information is the opponent's moves
rather than chance (phantom tic-tac-toe, dark hex, and with chance too
``coordinated_mp``, turn-based goofspiel, ``liars_dice_ir``) are not
possible-worlds games: a player would be modelled as seeing the node of the
tree, hence the hidden move.  kop refuses them with an error that names the two
move histories the player cannot tell apart; :mod:`kop.worlds.infostates`
plays them from each player's information state instead.

The atoms of the worlds' valuation (for :meth:`OpenSpielWorlds.kripke`, so
that the logic can be asked about the game) name each chance outcome: in Kuhn
poker ``p0_J``, ``p0_Q``, ``p0_K`` (player 0's card) and ``p1_J``...; in general
``c<k>_<outcome>`` for the k-th chance event.

Example
-------
>>> import kop
>>> kuhn = kop.worlds_from_openspiel("kuhn_poker")
>>> kuhn
OpenSpielWorlds('kuhn_poker', worlds=6, nodes=9)
>>> w = kuhn.world_of(p0="K", p1="J")
>>> kuhn.game.worlds[w], sorted(kuhn.game.worlds[v] for v in kuhn.belief("MIN", w))
('p0_K p1_J', ['p0_K p1_J', 'p0_Q p1_J'])
>>> m = kuhn.kripke(kuhn.node_of("Bet"), actual=w)    # player 0 has bet: does player 1 know it holds the king?
>>> m.satisfies("K_MIN p0_K"), m.satisfies("K_MIN ~p0_J"), m.satisfies("K_MAX K_MIN ~p0_J")
(False, True, False)

(The examples need open_spiel; the doctest run skips them without it.)

Reference: W. Jamroga, *A Defense Model for Games with Incomplete
Information*, KI 2001; Lanctot et al., *OpenSpiel: A Framework for
Reinforcement Learning in Games* (2019).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from kop.worlds.errors import WorldsError
from kop.worlds.game import LEAF, MAX, MIN, Beliefs, WorldsGame
from kop.errors import LimitError, MissingDependency
from kop.games.search.openspiel import load_openspiel
from kop.syntax import arguments

if TYPE_CHECKING:  # pragma: no cover
    from kop.semantics.model import KripkeModel

#: the doctests need this optional package (kop/conftest.py skips them without it)
__doctest_requires__ = ("pyspiel",)

__all__ = ["OpenSpielWorlds", "worlds_from_openspiel", "MAX_NODES", "MAX_WORLDS"]

#: the most nodes of the players' move tree kop builds unless told otherwise
MAX_NODES = 200_000
#: the most worlds (complete chance sequences) unless told otherwise
MAX_WORLDS = 5_000

_KUHN_CARDS = "JQK"


def _pyspiel() -> Any:
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise MissingDependency("OpenSpiel games need open-spiel: pip install open_spiel") from None
    return pyspiel


@dataclass(frozen=True)
class OpenSpielWorlds:
    """A possible-worlds game built from an OpenSpiel game, with what each world and node stands for.

    Attributes
    ----------
    name : str
        The OpenSpiel game's name.
    game : WorldsGame
        The game: MAX is OpenSpiel's player 0, MIN player 1; beliefs by information state.
    chances : tuple of tuples
        Per world, its chance outcomes (OpenSpiel action ids) in the order they happen.
    probabilities : numpy.ndarray
        Per world, its probability (they sum to 1).
    histories : tuple of tuples
        Per node (breadth first, as in ``game``), the players' moves from the root (action ids).
    valuation : dict
        Atom -> one truth value per world (``p0_K``, ``c2_...``).
    moves : tuple of str
        Per node other than the root, the move that leads to it as OpenSpiel prints it.

    Examples
    --------
    >>> import kop
    >>> kuhn = kop.worlds_from_openspiel("kuhn_poker")
    >>> kuhn.name, kuhn.game
    ('kuhn_poker', WorldsGame(worlds=6, nodes=9, leaves=5, depth=3, first=MAX))
    >>> kuhn.chances[:3], kuhn.moves[:2], sorted(kuhn.valuation)[:3]
    (((0, 1), (0, 2), (1, 0)), ('Pass', 'Bet'), ['p0_J', 'p0_K', 'p0_Q'])
    """

    name: str
    game: WorldsGame
    chances: tuple[tuple[int, ...], ...]
    probabilities: np.ndarray = field(repr=False)
    histories: tuple[tuple[int, ...], ...] = field(repr=False)
    valuation: dict[str, np.ndarray] = field(repr=False)
    moves: tuple[str, ...] = field(repr=False, default=())

    def world_of(self, **atoms: str) -> int:
        """The one world where the given chance atoms hold, e.g. ``world_of(p0="K", p1="J")``.

        Keyword ``x="v"`` stands for the atom ``x_v``; the result is the world's index.
        """
        mask = np.ones(self.game.n_worlds, dtype=bool)
        for k, v in atoms.items():
            atom = f"{k}_{v}"
            if atom not in self.valuation:
                raise WorldsError(f"no atom {atom!r}; the atoms are {', '.join(sorted(self.valuation))}")
            mask &= self.valuation[atom]
        found = np.flatnonzero(mask)
        if len(found) != 1:
            raise WorldsError(f"{len(found)} worlds match {atoms}; name more chance outcomes")
        return int(found[0])

    def belief(self, player: str, world: int, node: int = 0) -> frozenset[int]:
        """The worlds *player* ("MAX" or "MIN") considers possible at *node* when *world* is the actual one."""
        beliefs = self.game.max_beliefs if player == "MAX" else self.game.min_beliefs
        return beliefs.belief_set(node, world)

    def kripke(self, node: int = 0, actual: int | None = None) -> KripkeModel:
        """The S5 model of what MAX and MIN know at *node* (agents ``MAX`` and ``MIN``), with the chance atoms."""
        return self.game.kripke(node, actual=actual, valuation=self.valuation)

    def node_of(self, *moves: str) -> int:
        """The node reached by *moves* as OpenSpiel prints them (``node_of("Pass", "Bet")``)."""
        node = 0
        for mv in moves:
            for c in self.game.children(node):
                if self.moves[c - 1] == mv:
                    node = c
                    break
            else:
                legal = [self.moves[c - 1] for c in self.game.children(node)]
                raise WorldsError(f"no move {mv!r} at node {node}; the moves are {legal}")
        return node

    def __repr__(self) -> str:
        return f"OpenSpielWorlds({self.name!r}, worlds={self.game.n_worlds}, nodes={self.game.size})"


def worlds_from_openspiel(game: Any, *, max_nodes: int = MAX_NODES, max_worlds: int = MAX_WORLDS) -> OpenSpielWorlds:
    """Build the possible-worlds game of a two-player zero-sum OpenSpiel game with chance.

    Parameters
    ----------
    game : a ``pyspiel.Game`` or a name such as ``"kuhn_poker"``, ``"leduc_poker"``, ``"liars_dice(numdice=1)"``
    max_nodes, max_worlds : int
        Limits on the players' move tree and the number of worlds; over them, a
        :class:`~kop.errors.LimitError`.

    Returns
    -------
    OpenSpielWorlds

    Raises
    ------
    WorldsError
        The game is not two-player, zero-sum and sequential, has no chance
        events (its hidden information is not a possible world), its legal
        moves or mover depend on the chance outcomes (then the worlds do not
        share one tree), or a player's information state is the same at two
        nodes of the tree of moves (its hidden information includes moves,
        which a node of the tree would reveal), naming the histories where that
        happens.

    Examples
    --------
    >>> import kop
    >>> g = kop.worlds_from_openspiel("leduc_poker")
    >>> g.game.n_worlds, g.game.size, len(g.belief("MAX", 0))
    (120, 85, 20)

    References
    ----------
    M. Lanctot et al., *OpenSpiel: A Framework for Reinforcement Learning in Games*, arXiv:1908.09453
    (2019); W. Jamroga, *A Defense Model for Games with Incomplete Information*, KI 2001.
    """
    if not isinstance(game, str) and not hasattr(game, "get_type"):
        raise arguments.fail("game", "a pyspiel.Game or an OpenSpiel game name such as 'kuhn_poker'", game)

    pyspiel = _pyspiel()
    if isinstance(game, str):
        try:
            game = load_openspiel(game)
        except Exception as exc:
            raise WorldsError(str(exc)) from None
    gtype = game.get_type()
    name = gtype.short_name
    if game.num_players() != 2:
        raise WorldsError(f"{name}: a possible-worlds game has two players (MAX and MIN); this one has "
                          f"{game.num_players()}")
    if gtype.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise WorldsError(f"{name}: only sequential games (one mover at a time) are possible-worlds games")
    if gtype.utility not in (pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.CONSTANT_SUM):
        raise WorldsError(f"{name}: a possible-worlds game is zero-sum (MAX's payoff is MIN's loss)")
    if gtype.information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        raise WorldsError(f"{name} is a perfect-information game: there is one world; use kop.from_openspiel "
                          "and kop.search for it")
    if gtype.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC:
        raise WorldsError(f"{name} has no chance events: its hidden information is the players' own moves, "
                          "not a possible world; kop's possible-worlds games need the uncertainty to come "
                          "from chance (cards, dice)")
    if gtype.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        raise WorldsError(f"{name}: its chance outcomes are sampled, not listed, so its worlds cannot be enumerated")
    return _Builder(game, name, max_nodes, max_worlds, LimitError).build()


#: the states of one node of the tree of moves, one per chance history so far: (chance outcomes, the
#: OpenSpiel state, the probability of those outcomes)
_Bundle = list[tuple[tuple[int, ...], Any, float]]


class _Builder:
    """The tree of the players' moves over the worlds.

    With *roots* (a list of (OpenSpiel state, probability)), the tree starts at those states instead of
    the game's initial state: world ``(k, c1, c2, ...)`` is root k followed by the chance outcomes after it
    (:mod:`kop.worlds.infostates` roots it at a player's knowledge cell).  With *union*, the legal moves
    may differ between the worlds: a node's moves are the union, and a world that cannot make a move
    does not reach the node (its payoffs there are undefined); whole-game builds (no roots) also refuse
    a player whose information state is the same at two nodes.
    """

    def __init__(self, game: Any, name: str, max_nodes: int, max_worlds: int, limit_error: type,
                 roots: list[tuple[Any, float]] | None = None, union: bool = False):
        self.game, self.name = game, name
        self.max_nodes, self.max_worlds, self.limit_error = max_nodes, max_worlds, limit_error
        self.roots, self.union = roots, union
        self.chance_at: dict[tuple[int, ...], tuple[tuple[int, float], ...]] = {}
        self.labels: dict[tuple[int, int], str] = {}      # (event index, outcome) -> its label

    def resolve(self, bundle: _Bundle, history: tuple[int, ...]) -> _Bundle:
        """Expand every chance node in the bundle into its outcomes (a world splits into its extensions)."""
        out: _Bundle = []
        todo = list(bundle)
        while todo:
            seq, state, p = todo.pop()
            if not state.is_chance_node():
                out.append((seq, state, p))
                continue
            outcomes = tuple((int(a), float(q)) for a, q in state.chance_outcomes())
            seen = self.chance_at.setdefault(seq, outcomes)
            if seen != outcomes:
                raise WorldsError(f"{self.name}: after the moves {list(history)} the chance event after outcomes "
                                  f"{list(seq)} has other outcomes than elsewhere, so the worlds do not share one tree")
            for a, q in outcomes:
                self.labels.setdefault((len(seq), a), state.action_to_string(state.current_player(), a))
                child = state.child(a)
                todo.append((seq + (a,), child, p * q))
            if len(self.chance_at) > 50 * self.max_worlds:
                raise self.limit_error(f"{self.name}: more than {self.max_worlds} worlds")
        out.sort(key=lambda t: t[0])
        return out

    def build(self) -> OpenSpielWorlds:
        start: _Bundle = ([((k,), st, p) for k, (st, p) in enumerate(self.roots)] if self.roots is not None
                          else [((), self.game.new_initial_state(), 1.0)])
        root_bundle = self.resolve(start, ())
        # breadth first over the players' moves; every node carries the bundle of (chance seq, state, prob)
        bundles = [root_bundle]
        histories: list[tuple[int, ...]] = [()]
        owner: list[int] = []
        counts: list[int] = []
        moves: list[str] = []
        i = 0
        while i < len(bundles):
            bundle, hist = bundles[i], histories[i]
            terminal = [s.is_terminal() for _, s, _ in bundle]
            if all(terminal):
                owner.append(LEAF)
                counts.append(0)
            elif any(terminal):
                raise WorldsError(f"{self.name}: after the moves {list(hist)} the game ends in some worlds and "
                                  "not in others, so the worlds do not share one tree")
            else:
                movers = {int(s.current_player()) for _, s, _ in bundle}
                legal = {tuple(s.legal_actions()) for _, s, _ in bundle}
                if len(movers) != 1 or (len(legal) != 1 and not self.union):
                    what = "who moves" if len(movers) != 1 else "the legal moves"
                    raise WorldsError(f"{self.name}: after the moves {list(hist)} {what} depends on the chance "
                                      "outcomes, so the worlds do not share one tree")
                mover = movers.pop()
                acts = tuple(sorted(set().union(*legal)))
                owner.append(MAX if mover == 0 else MIN)
                counts.append(len(acts))
                for a in acts:
                    entries = [(seq, s, p) for seq, s, p in bundle if a in s.legal_actions()]
                    moves.append(entries[0][1].action_to_string(mover, a))
                    bundles.append(self.resolve([(seq, s.child(a), p) for seq, s, p in entries], hist + (a,)))
                    histories.append(hist + (a,))
                    if len(bundles) > self.max_nodes:
                        raise self.limit_error(f"{self.name}: its tree of moves has more than {self.max_nodes} "
                                               "nodes (max_nodes); choose smaller parameters")
            i += 1
        worlds = self.worlds()
        return self.assemble(worlds, bundles, histories, owner, counts, moves)

    def worlds(self) -> list[tuple[tuple[int, ...], float]]:
        """The complete chance sequences with their probabilities (leaves of the chance tree)."""
        out: list[tuple[tuple[int, ...], float]] = []
        stack: list[tuple[tuple[int, ...], float]] = ([((k,), p) for k, (_, p) in enumerate(self.roots)]
                                                      if self.roots is not None else [((), 1.0)])
        while stack:
            seq, p = stack.pop()
            nxt = self.chance_at.get(seq)
            if nxt is None:
                out.append((seq, p))
                continue
            for a, q in reversed(nxt):
                stack.append((seq + (a,), p * q))
            if len(out) > self.max_worlds:
                raise self.limit_error(f"{self.name}: more than {self.max_worlds} worlds (max_worlds)")
        out = [(s, p) for s, p in out if p > 0]
        if len(out) > self.max_worlds:
            raise self.limit_error(f"{self.name}: more than {self.max_worlds} worlds (max_worlds)")
        return out

    def assemble(self, worlds: list[tuple[tuple[int, ...], float]], bundles: list[_Bundle],
                 histories: list[tuple[int, ...]],
                 owner: list[int], counts: list[int], moves: list[str]) -> OpenSpielWorlds:
        n, m = len(worlds), len(bundles)
        parent = np.concatenate([[0], np.repeat(np.arange(m), counts)])
        seqs = [s for s, _ in worlds]
        payoffs = np.full((m, n), np.nan)
        blocks = {0: np.zeros((m, n), dtype=np.int64), 1: np.zeros((m, n), dtype=np.int64)}
        seen: dict[tuple[int, str], int] = {}     # (player, information state) -> the first node it is met at
        for node, bundle in enumerate(bundles):
            states = self.states_at(node, bundle, seqs)
            if owner[node] == LEAF:
                payoffs[node] = [np.nan if s is None else float(s.returns()[0]) for s in states]
            for player in (0, 1):
                row = blocks[player][node]
                try:
                    self.fill_blocks(row, states, player, owner[node] != LEAF, seen, node, histories)
                except WorldsError:
                    raise
                except Exception:  # no information state at this leaf: the player knows what it knew before
                    row[:] = blocks[player][parent[node]]
        prob = np.array([p for _, p in worlds])
        prob = prob / prob.sum()
        offsets = np.concatenate([[1], 1 + np.cumsum(counts)]).astype(np.int64)
        names = [self.world_name(s) for s in seqs]
        # a player whose information never changes during play (Kuhn poker: only its card) has static beliefs
        rows = {p: b[0] if (b == b[0]).all() else b for p, b in blocks.items()}
        g = WorldsGame(offsets, np.array(owner, dtype=np.int8), payoffs, names,
                       max_beliefs=Beliefs.partition(rows[0], prior=prob),
                       min_beliefs=Beliefs.partition(rows[1], prior=prob))
        return OpenSpielWorlds(self.name, g, tuple(seqs), prob, tuple(histories), self.valuation(seqs), tuple(moves))

    def states_at(self, node: int, bundle: _Bundle, seqs: list[tuple[int, ...]]) -> list[Any]:
        """Each world's state at *node*: the bundle entry whose chance sequence is a prefix of the world's
        (None in union mode where the world cannot reach the node)."""
        index = {seq: k for k, (seq, _, _) in enumerate(bundle)}
        at: list[int | None] = []
        for w in seqs:
            k = next((index[w[:j]] for j in range(len(w), -1, -1) if w[:j] in index), None)
            if k is None and not self.union:  # pragma: no cover - every world extends an entry of every bundle
                raise WorldsError(f"{self.name}: world {w} has no state at node {node}")
            at.append(k)
        return [None if k is None else bundle[k][1] for k in at]

    def fill_blocks(self, row: Any, states: list[Any], player: int, inner: bool, seen: dict[tuple[int, str], int],
                    node: int, histories: list[tuple[int, ...]]) -> None:
        """*player*'s classes of the worlds at *node* into *row*: one per information state (at an *inner*
        node, checked visible to the player when the game has no given roots)."""
        ids: dict[str, int] = {}
        for v, st in enumerate(states):
            # a world that does not reach the node is a class of its own there
            key = f"\x00unreached {v}" if st is None else str(st.information_state_string(player))
            row[v] = ids.setdefault(key, len(ids))
            if st is not None and inner and self.roots is None:
                self.check_visible(seen, player, key, node, histories)

    def check_visible(self, seen: dict[tuple[int, str], int], player: int, key: str, node: int,
                      histories: list[tuple[int, ...]]) -> None:
        """Refuse the game if *player* has the information state *key* at two nodes of the tree of moves:
        it does not see some move, so a possible-worlds game (where each player knows the node) would
        hand it that move (issue 29: matching pennies valued -1 instead of 0)."""
        first = seen.setdefault((player, key), node)
        if first != node:
            raise WorldsError(
                f"{self.name}: player {player} has the same information state after the moves "
                f"{list(histories[first])} and {list(histories[node])}: it does not see (or does not remember) "
                "every move, so its hidden information includes moves, not only chance, and a possible-worlds "
                "game would show it the hidden move; play the game from the players' information states "
                "instead (kop.decide_openspiel, kop.play_openspiel, kop match openspiel:NAME)")

    def label(self, event: int, outcome: int) -> str:
        text = self.labels.get((event, outcome), str(outcome))
        if self.name == "kuhn_poker" and event < 2 and self.roots is None:
            return f"p{event}_{_KUHN_CARDS[outcome]}"
        tail = re.sub(r"[^A-Za-z0-9]+", "_", text.split(":")[-1]).strip("_") or str(outcome)
        return f"c{event}_{tail}"

    def world_name(self, seq: tuple[int, ...]) -> str:
        if self.roots is not None:   # root k (a history of the knowledge cell), then the chance after it
            return " ".join([f"h{seq[0]}", *(self.label(k, a) for k, a in enumerate(seq) if k)])
        return " ".join(self.label(k, a) for k, a in enumerate(seq)) or "w"

    def valuation(self, seqs: list[tuple[int, ...]]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        for w, seq in enumerate(seqs):
            for k, a in enumerate(seq):
                if self.roots is not None and k == 0:
                    continue
                out.setdefault(self.label(k, a), np.zeros(len(seqs), dtype=bool))[w] = True
        return dict(sorted(out.items()))

