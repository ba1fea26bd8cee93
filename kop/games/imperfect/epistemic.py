"""The epistemic model of a game: a Kripke model whose worlds are the nodes (histories) of the game.

World ``w{i}`` is node *i* (breadth first, as in :class:`~kop.games.trees.tree.GameTree`); the
root ``w0`` is designated.  Player P's partition is P's information sets at P's own nodes; at
every other node P's cell is the node alone (the ``.efg`` says nothing about what P knows there),
unless the game knows P's information state at every history (OpenSpiel,
:attr:`InfoGame.states`): then P's cell is everything with P's information state, everywhere.
Read ``K_P`` at P's own nodes (``turn_P -> K_P ...``) for a ``.efg`` game.

Agents are the players' names when all are valid agent names, else ``p1``, ``p2``, ...
(:func:`agent_name`).  The atoms:

* ``turn_P``: it is P's turn;
* ``move_a``: the history passed through a players' action named *a*; ``chance_c``: chance chose
  an outcome named *c* (names outside letters, digits and ``_`` have those characters replaced
  by ``_``; equal names merge);
* ``pay_P_v``: a terminal node where P's payoff is *v* (``m`` for minus, ``p`` for the point:
  ``pay_A_m1``, ``pay_A_2p5``);
* for the information sets asked for (``sets=``): ``at_P_k`` (the node is in P's set number k),
  ``seen_P_k`` (the path to the node, the node excluded, passes through it), ``did_P_k_r`` (and
  took its action r, from 0).

Example
-------
>>> import kop
>>> g = kop.forgetful_cards()
>>> m = kop.game_model(g, sets="all")
>>> m
KripkeModel(worlds=15, agents=('Ann', 'Bob'), actual=('w0',))
>>> sorted(m.truth_set("turn_Ann"))
['w1', 'w2', 'w7', 'w9']
>>> m.satisfies("K_Ann chance_High", "w1"), m.satisfies("K_Ann chance_High", "w7")   # she forgets
(True, False)
>>> sorted(m.truth_set("at_Ann_2 & ~K_Ann seen_Ann_1"))   # then forgets that she looked
['w7', 'w9']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from kop.errors import LimitError
from kop.games.imperfect.game import InfoGame, game_argument
from kop.games.imperfect.beliefs import reach_probabilities
from kop.games.trees.tree import LEAF
from kop.semantics.model import KripkeModel
from kop.syntax.formula import AGENT_RE

__all__ = ["game_model", "MAX_CELLS", "atom_word", "agent_name"]

#: the most atom values (atoms times nodes) a game model holds unless told otherwise
MAX_CELLS = 50_000_000

_BAD = re.compile(r"[^A-Za-z0-9_]")


def agent_name(game: InfoGame, player: int) -> str:
    """The agent name of a player in formulas: its name when every player's name is a valid agent
    name (letters, digits, underscores), else ``p1``, ``p2``, ... (Gambit's player numbers).

    >>> import kop
    >>> agent_name(kop.forgetful_cards(), 0)
    'Ann'
    """
    names = game.players
    if all(AGENT_RE.fullmatch(n) for n in names):
        return names[player]
    return f"p{player + 1}"


def atom_word(text: str) -> str:
    """*text* as a part of an atom name: characters outside letters, digits and ``_`` become ``_``.

    >>> atom_word("Raise 2"), atom_word("-1.5")
    ('Raise_2', 'm1p5')
    """
    if re.fullmatch(r"[+-]?[0-9.]+(?:[eE][+-]?[0-9]+)?", text):
        return text.replace("-", "m").replace("+", "").replace(".", "p")
    return _BAD.sub("_", text) or "_"


def _number(x: float) -> str:
    return atom_word(str(int(x)) if float(x).is_integer() else repr(float(x)))


def game_model(game: Any, *, knowledge: str | None = None, sets: Iterable[int] | str = (),
               atoms: Sequence[str] = ("turn", "move", "chance", "payoff"), nodes: Sequence[int] | None = None,
               profile: Mapping[Any, Sequence[float]] | None = None, max_cells: int = MAX_CELLS) -> Any:
    """The Kripke model of a game (see the module docstring): every formula kop checks works on it.

    Parameters
    ----------
    game : InfoGame, GameTree, str or pygambit/pyspiel game
        The game (``.efg`` path, ``openspiel:NAME``).
    knowledge : {"sets", "states"}, optional
        ``"sets"``: information sets at own nodes, the node alone elsewhere; ``"states"``: the
        information state everywhere (games that have one: OpenSpiel).  The default is
        ``"states"`` where the game has them, else ``"sets"``.
    sets : iterable of int, or "all"
        The information sets (indices in ``game.sets``) whose ``at``/``seen``/``did`` atoms to
        include (none by default).
    atoms : sequence of str
        Which of the other atoms to include: ``turn``, ``move``, ``chance``, ``payoff``.
    nodes : sequence of int, optional
        Only these nodes (worlds keep their names ``w{i}``): the submodel on them, where ``K_P``
        ranges over P's cell within them.  A union of whole cells of P gives P's knowledge there
        as in the whole model (:func:`kop.recall_report` checks its formulas on the information
        set alone).  The first node listed is designated.
    profile : mapping, optional
        A behaviour profile (as for :func:`kop.beliefs`): each world then weighs its realisation
        probability, so that ``P_P(phi)`` within an information set is P's belief of *phi* there
        (:func:`kop.beliefs`).  A cell reached with probability 0 weighs its worlds equally (the
        beliefs there are not defined by the profile).
    max_cells : int
        The most atom values (atoms times nodes): beyond it, a :class:`kop.errors.LimitError` (pass
        fewer ``sets``).

    Returns
    -------
    KripkeModel

    Examples
    --------
    >>> import kop
    >>> m = kop.game_model(kop.absent_minded_driver(), sets="all")
    >>> sorted(m.truth_set("at_Driver_1 & ~K_Driver ~seen_Driver_1"))   # absent-minded
    ['w0', 'w2']
    >>> g = kop.forgetful_cards()
    >>> high, bob, low = g.sets[0], g.sets[1], g.sets[3]
    >>> m = kop.game_model(g, profile={high: [1, 0], low: [0.25, 0.75]})   # Ann bluffs with Low
    >>> m.probability("Bob", "chance_High", "w3")        # Bob's belief after a bet
    Fraction(4, 5)
    """
    g = game_argument(game)
    n = len(g.tree)
    if knowledge is None:
        knowledge = "states" if g.states else "sets"
    if knowledge not in ("sets", "states") or (knowledge == "states" and not g.states):
        raise LimitError(f"knowledge={knowledge!r}: use 'sets'" + (" or 'states'" if g.states else
                                                                   " (this game has no information states)"))
    chosen = list(range(len(g.sets))) if sets == "all" else sorted({int(s) for s in sets})
    agents = [agent_name(g, k) for k in range(len(g.players))]
    partitions = _partitions(g, agents, knowledge)
    valuation = _local_atoms(g, agents, atoms, chosen)
    names, edge_nodes, edge_atoms = _edges(g, agents, atoms, chosen)
    total = (len(names) + len(valuation)) * n
    if total > max_cells:
        raise LimitError(f"the game model would hold {len(names) + len(valuation)} atoms over "
                         f"{n} nodes ({total} values, beyond max_cells={max_cells}): ask for fewer sets")
    keep = np.arange(n, dtype=np.int64) if nodes is None else np.asarray(list(nodes), dtype=np.int64)
    if not len(keep) or keep.min() < 0 or keep.max() >= n:
        raise LimitError(f"nodes: expected node numbers from 0 to {n - 1}, at least one")
    valuation.update(_passed(g, names, edge_nodes, edge_atoms))
    weights = None if profile is None else _weights(g, partitions, profile, keep)
    worlds = [f"w{i}" for i in keep.tolist()]
    if nodes is not None:
        partitions = {a: c[keep] for a, c in partitions.items()}
        valuation = {k: v[keep] for k, v in valuation.items()}
    return KripkeModel.from_arrays(worlds, partitions, valuation, actual=worlds[0], agents=agents, probability=weights)


def _partitions(g: InfoGame, agents: Sequence[str], knowledge: str) -> dict[str, np.ndarray]:
    """Each agent's cell per node: information states, or sets at own nodes and the node alone elsewhere."""
    n = len(g.tree)
    out: dict[str, np.ndarray] = {}
    for k, a in enumerate(agents):
        if knowledge == "states":
            assert g.states is not None
            out[a] = g.states[g.players[k]]
        else:
            cell = np.arange(n, dtype=np.int64) + len(g.sets)
            own = g.tree.kind == k
            cell[own] = g.node_set[own]
            out[a] = cell
    return out


def _local_atoms(g: InfoGame, agents: Sequence[str], atoms: Sequence[str], chosen: Sequence[int]
                 ) -> dict[str, np.ndarray]:
    """The atoms that hold at a node by itself: ``turn_P``, ``pay_P_v`` and ``at_P_k``."""
    tree = g.tree
    n, kind = len(tree), tree.kind
    out: dict[str, np.ndarray] = {}
    if "turn" in atoms:
        for k, a in enumerate(agents):
            out[f"turn_{a}"] = kind == k
    if "payoff" in atoms:
        leaves = np.flatnonzero(kind == LEAF)
        for k, a in enumerate(agents):
            column = tree.payoffs[:, k] * tree.players[k].sign
            for v in np.unique(column).tolist():
                mask = np.zeros(n, dtype=bool)
                mask[leaves[column == v]] = True
                out[f"pay_{a}_{_number(v)}"] = mask
    for s in chosen:
        h = g.sets[s]
        mask = np.zeros(n, dtype=bool)
        mask[list(h.nodes)] = True
        out[f"at_{agents[g.player_index(h.player)]}_{h.number}"] = mask
    return out


def _edges(g: InfoGame, agents: Sequence[str], atoms: Sequence[str], chosen: Sequence[int]
           ) -> tuple[dict[str, int], list[np.ndarray], list[np.ndarray]]:
    """The atoms made true by an edge and kept below it ("the history passed through ..."): their
    columns, and the (child node, column) pairs that make them true."""
    tree = g.tree
    n, kind = len(tree), tree.kind
    parent, rank = g.parents, g.ranks
    kids = np.arange(1, n, dtype=np.int64)
    names: dict[str, int] = {}
    edge_nodes: list[np.ndarray] = []
    edge_atoms: list[np.ndarray] = []
    p_of = parent[1:]
    if "move" in atoms or "chance" in atoms:
        by_player = kind[p_of] >= 0
        wanted = kids[(by_player & ("move" in atoms)) | (~by_player & ("chance" in atoms))].tolist()
        cols = [names.setdefault(("move_" if kind[parent[c]] >= 0 else "chance_") + atom_word(g.action_name(c)),
                                 len(names)) for c in wanted]
        edge_nodes.append(np.asarray(wanted, dtype=np.int64))
        edge_atoms.append(np.asarray(cols, dtype=np.int64))
    for s in chosen:
        h = g.sets[s]
        a = agents[g.player_index(h.player)]
        from_h = kids[g.node_set[p_of] == s]
        edge_nodes.append(from_h)
        edge_atoms.append(np.full(len(from_h), names.setdefault(f"seen_{a}_{h.number}", len(names))))
        for r in range(len(h.actions)):
            took = from_h[rank[from_h] == r]
            edge_nodes.append(took)
            edge_atoms.append(np.full(len(took), names.setdefault(f"did_{a}_{h.number}_{r}", len(names))))
    return names, edge_nodes, edge_atoms


def _passed(g: InfoGame, names: Mapping[str, int], edge_nodes: Sequence[np.ndarray],
            edge_atoms: Sequence[np.ndarray]) -> dict[str, np.ndarray]:
    """Each edge atom per node: true below an edge that makes it true (one pass, breadth first)."""
    n = len(g.tree)
    passed = np.zeros((n, len(names)), dtype=bool)
    if edge_nodes:
        passed[np.concatenate(edge_nodes), np.concatenate(edge_atoms)] = True
        levels = g.tree.levels
        parent = g.parents
        for d in range(1, len(levels) - 1):
            s, e = int(levels[d]), int(levels[d + 1])
            passed[s:e] |= passed[parent[s:e]]
    return {name: passed[:, j] for name, j in names.items()}


def _weights(g: InfoGame, partitions: Mapping[str, np.ndarray], profile: Mapping[Any, Sequence[float]],
             keep: np.ndarray) -> dict[str, np.ndarray]:
    """Each agent's weight per kept node: its realisation probability; the nodes of a cell (within
    *keep*) reached with probability 0 weigh 1 each."""
    reach = reach_probabilities(g, profile)[keep]
    out = {}
    for a, cells in partitions.items():
        _, cell_of = np.unique(cells[keep], return_inverse=True)
        cell_of = cell_of.reshape(-1)
        totals = np.bincount(cell_of, weights=reach)
        w = reach.copy()
        w[totals[cell_of] <= 0] = 1.0
        out[a] = w
    return out
