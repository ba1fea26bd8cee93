"""Possible-worlds games: a game tree whose leaves pay a vector over the worlds Ω.

A :class:`WorldsGame` is a two-player zero-sum game tree (MAX against MIN)
whose leaves carry MAX's payoff in every possible world, ``payoff(l)[w]``; a
payoff may be undefined (NaN) where the leaf cannot be reached in that world
(Jamroga 2001, §3.4, "partial payoff").  It also carries the players' belief
functions Ω_MAX(s, w) and Ω_MIN(s, w) (:class:`Beliefs`): what the player
moving at node s considers possible when w is the actual world.  They may
depend on the node, where a move reveals information.

Beliefs given as partitions are exactly the S5 partitions of an epistemic
model: :meth:`WorldsGame.kripke` builds the :class:`~kop.KripkeModel` of a
node, so the logic side can answer questions about the game, and
:meth:`WorldsGame.from_kripke` takes the beliefs from a model.

Nodes are stored breadth first (children after their parent), so a sweep from
the last node to the first is bottom-up.  Node 0 is the root.

Reference: W. Jamroga, *A Defense Model for Games with Incomplete
Information*, KI 2001, LNAI 2174, pp. 260-274.

Example
-------
>>> from kop.worlds.game import WorldsGame
>>> g = WorldsGame.build(("MIN", [("MAX", [[1, 1, 1, 0], [0, 0, 1, 1]]),
...                               ("MAX", [[0, 0, 0, 1], [0, 0, 0, 1]])]))
>>> g
WorldsGame(worlds=4, nodes=7, leaves=4, depth=2, first=MIN)
>>> g.payoff(g.children(1)[0]).tolist()
[1.0, 1.0, 1.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from kop.worlds.errors import WorldsError
from kop.syntax.arguments import fail

if TYPE_CHECKING:  # pragma: no cover
    from kop.games.trees.tree import GameTree
    from kop.semantics.model import KripkeModel

__all__ = ["WorldsGame", "Beliefs", "MAX", "MIN", "LEAF", "weights"]

#: owner code of MAX's nodes
MAX = 0
#: owner code of MIN's nodes
MIN = 1
#: owner code of a leaf
LEAF = -1
_NAMES = {MAX: "MAX", MIN: "MIN"}
_CODES = {"MAX": MAX, "MIN": MIN, "max": MAX, "min": MIN}


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def player_code(player: str | int) -> int:
    """MAX (0) or MIN (1) from a name or a code."""
    if isinstance(player, str) and player in _CODES:
        return _CODES[player]
    if isinstance(player, (int, np.integer)) and int(player) in (MAX, MIN):
        return int(player)
    raise WorldsError(f"a player is 'MAX' or 'MIN', not {player!r}")


class Beliefs:
    """One player's belief function Ω_P(s, w), possibly probabilistic.

    Three forms, all immutable:

    * a **partition** (:meth:`partition`): ``block[w]`` (or ``block[s, w]`` per
      node) names the class of worlds P cannot tell from w; P considers the
      worlds of that class possible, weighted by an optional prior;
    * **sets** (:meth:`sets`): any belief sets, ``Ω_P(w)`` a set of worlds per
      world (not necessarily a partition);
    * **probabilistic** (:meth:`probabilistic`): a table of belief states (each
      a probability function over Ω) and, per world, a probability over those
      states, the Bel_MIN / Bel_MAX of Jamroga's Fig. 10.

    Internally: ``states`` (K x N weights, None for a partition), ``at``
    (state id per world, shape (N,), or per node and world, shape (M, N)),
    ``prior`` (N weights, for partitions) and ``model`` (N x K probabilities
    over states, or None when the state is ``at[w]`` for certain).

    Parameters
    ----------
    kind : {"partition", "sets", "probabilistic"}
        The form.
    n : int
        The number of worlds.
    at, states, prior, model : numpy.ndarray
        The arrays above.  Build beliefs with the class methods, which check them.

    Examples
    --------
    >>> b = Beliefs.partition([0, 0, 1, 1])
    >>> b
    Beliefs(partition, states=2, worlds=4)
    >>> b.belief_set(0, 1)
    frozenset({0, 1})
    >>> Beliefs.sets([[0, 1], [1], [2, 3], [3]])
    Beliefs(sets, states=4, worlds=4)

    References
    ----------
    W. Jamroga, *A Defense Model for Games with Incomplete Information*, KI 2001, LNAI 2174, Fig. 10
    (Bel_MAX, Bel_MIN).
    """

    __slots__ = ("kind", "states", "at", "prior", "model", "n")

    def __init__(self, kind: str, n: int, at: np.ndarray, states: np.ndarray | None = None,
                 prior: np.ndarray | None = None, model: np.ndarray | None = None):
        """Wrap validated arrays (internal: use the constructors)."""
        self.kind = kind
        self.n = n
        self.at = _frozen(np.ascontiguousarray(at, dtype=np.int64))
        self.states = None if states is None else _frozen(np.asarray(states, dtype=np.float64))
        self.prior = None if prior is None else _frozen(np.asarray(prior, dtype=np.float64))
        self.model = None if model is None else _frozen(np.asarray(model, dtype=np.float64))

    # -- constructors ---------------------------------------------------------
    @classmethod
    def partition(cls, block: Any, prior: Any = None) -> Beliefs:
        """Beliefs from block ids: one row (static) or one row per node (state-dependent).

        ``prior`` (optional, one non-negative weight per world) weights the worlds
        within a class; without it every world of the class counts once.

        >>> Beliefs.partition([[0, 0, 0], [0, 1, 1]]).belief_set(1, 2)
        frozenset({1, 2})
        """
        arr = np.asarray(block)
        if arr.ndim not in (1, 2) or arr.size == 0 or not np.issubdtype(arr.dtype, np.integer):
            raise WorldsError("a partition is an array of integer block ids, one per world "
                              "(or one row of them per node)")
        if (arr < 0).any():
            raise WorldsError("block ids must be non-negative integers")
        n = arr.shape[-1]
        rows = arr.reshape(-1, n)
        canon = np.empty_like(rows)
        for i, row in enumerate(rows):  # renumber 0..k-1 in order of first occurrence
            _, first, inv = np.unique(row, return_index=True, return_inverse=True)
            rank = np.empty(len(first), dtype=np.int64)
            rank[np.argsort(first, kind="stable")] = np.arange(len(first))
            canon[i] = rank[inv.reshape(-1)]
        at = canon[0] if arr.ndim == 1 else canon
        p = None
        if prior is not None:
            p = np.asarray(prior, dtype=np.float64)
            if p.shape != (n,):
                raise WorldsError(f"the prior needs one weight per world ({n}), got shape {p.shape}")
            if (p < 0).any() or not np.isfinite(p).all():
                raise WorldsError("prior weights must be finite and non-negative")
        return cls("partition", n, at, prior=p)

    @classmethod
    def sets(cls, sets: Sequence[Iterable[int]], n: int | None = None) -> Beliefs:
        """Beliefs from one set of world indices per world: Ω_P(w) = ``sets[w]``.

        >>> Beliefs.sets([{0, 1}, {1}, {1, 2}]).belief_set(0, 2)
        frozenset({1, 2})
        """
        n = len(sets) if n is None else n
        if len(sets) != n:
            raise WorldsError(f"one belief set per world is needed ({n}), got {len(sets)}")
        table: dict[frozenset[int], int] = {}
        at = np.empty(n, dtype=np.int64)
        for w, s in enumerate(sets):
            key = frozenset(int(v) for v in s)
            bad = [v for v in key if not 0 <= v < n]
            if bad:
                raise WorldsError(f"Ω(w{w}) names world {bad[0]}, but the worlds are 0..{n - 1}")
            if not key:
                raise WorldsError(f"Ω(w{w}) is empty: a player always considers some world possible")
            at[w] = table.setdefault(key, len(table))
        states = np.zeros((len(table), n))
        for key, k in table.items():
            states[k, sorted(key)] = 1.0
        return cls("sets", n, at, states=states)

    @classmethod
    def constant(cls, worlds: Iterable[int], n: int) -> Beliefs:
        """Ω_P(w) = the same set for every w (P's belief is common knowledge).

        >>> Beliefs.constant([0, 2], 3).belief_set(1, 0)
        frozenset({0, 2})
        """
        row = np.zeros((1, n))
        idx = [int(v) for v in worlds]
        if not idx:
            raise WorldsError("a belief set must not be empty")
        bad = [v for v in idx if not 0 <= v < n]
        if bad:
            raise WorldsError(f"the belief names world {bad[0]}, but the worlds are 0..{n - 1}")
        row[0, idx] = 1.0
        return cls("sets", n, np.zeros(n, dtype=np.int64), states=row)

    @classmethod
    def omniscient(cls, n: int) -> Beliefs:
        """Ω_P(w) = {w}: P always knows the actual world.

        >>> Beliefs.omniscient(3).belief_set(0, 2)
        frozenset({2})
        """
        return cls.partition(np.arange(n))

    @classmethod
    def probabilistic(cls, states: Any, model: Any) -> Beliefs:
        """Jamroga's Fig. 10 beliefs: belief states and a probability over them per world.

        Parameters
        ----------
        states : K x N array
            Each row a belief state: a probability function over the N worlds.
        model : N x K array
            Row w: the probability that the player is in each belief state when
            w is the actual world (Bel_P(w, ·)).

        >>> b = Beliefs.probabilistic([[1, 0], [0.5, 0.5]], [[0.5, 0.5], [0, 1]])
        >>> b
        Beliefs(probabilistic, states=2, worlds=2)
        """
        st = np.asarray(states, dtype=np.float64)
        md = np.asarray(model, dtype=np.float64)
        if st.ndim != 2:
            raise WorldsError("belief states are a K x N array (one probability function per row)")
        k, n = st.shape
        if md.shape != (n, k):
            raise WorldsError(f"the belief model needs shape (worlds, states) = ({n}, {k}), got {md.shape}")
        _check_distributions(st, "belief state")
        _check_distributions(md, "Bel(w, ·) of world")
        return cls("probabilistic", n, np.argmax(md, axis=1), states=st, model=md)

    @classmethod
    def capable(cls, block: Any, limit: int = 4096) -> Beliefs:
        """A possibly more capable opponent (Jamroga §3.5): in world w he may hold any belief B
        with {w} ⊆ B ⊆ Ω(w), each equally likely, B believed uniformly; Ω is the partition *block*.

        >>> b = Beliefs.capable([0, 0, 1])
        >>> b
        Beliefs(probabilistic, states=4, worlds=3)
        >>> b.model[0].tolist()
        [0.5, 0.0, 0.5, 0.0]
        """
        ids = Beliefs.partition(block).state_ids(0)
        if ids.ndim != 1:
            raise WorldsError("capable beliefs take one partition (block ids per world)")
        n = len(ids)
        states: list[np.ndarray] = []
        members: list[list[int]] = []
        for k in range(int(ids.max()) + 1):
            cls_worlds = [int(v) for v in np.flatnonzero(ids == k)]
            if len(cls_worlds) > 16 or len(states) + 2 ** len(cls_worlds) > limit:
                raise WorldsError(f"too many possible beliefs (class of {len(cls_worlds)} worlds; "
                                  f"limit {limit} belief states)")
            for mask in range(1, 2 ** len(cls_worlds)):
                subset = [cls_worlds[i] for i in range(len(cls_worlds)) if mask >> i & 1]
                row = np.zeros(n)
                row[subset] = 1.0 / len(subset)
                states.append(row)
                members.append(subset)
        model = np.zeros((n, len(states)))
        for j, subset in enumerate(members):
            model[subset, j] = 1.0
        model /= model.sum(axis=1, keepdims=True)
        return cls.probabilistic(np.array(states), model)

    # -- reading --------------------------------------------------------------
    @property
    def static(self) -> bool:
        """True when the beliefs do not depend on the node."""
        return self.at.ndim == 1

    def state_ids(self, node: int) -> np.ndarray:
        """The belief-state id per world at *node*."""
        return self.at if self.at.ndim == 1 else self.at[node]

    def state_weights(self, node: int) -> np.ndarray:
        """K x N weights: row k is belief state k at *node* (1 per world of a set)."""
        if self.states is not None:
            return self.states
        ids = self.state_ids(node)
        out = np.zeros((int(ids.max()) + 1, self.n))
        out[ids, np.arange(self.n)] = 1.0 if self.prior is None else self.prior
        return out

    def weights(self, node: int, world: int) -> np.ndarray:
        """The weights over Ω of the belief the player holds at *node* when *world* is actual."""
        row: np.ndarray
        if self.model is not None:
            row = self.model[world] @ self.states
        else:
            row = self.state_weights(node)[self.state_ids(node)[world]]
        return row

    def belief_set(self, node: int, world: int) -> frozenset[int]:
        """Ω_P(node, world): the worlds with positive weight."""
        return frozenset(int(v) for v in np.flatnonzero(self.weights(node, world) > 0))

    def is_adequate(self, nodes: Iterable[int] = (0,)) -> tuple[int, int] | None:
        """The first (node, world) whose belief misses the world itself, or None."""
        cols = np.arange(self.n)
        for s in nodes:
            if self.kind == "partition":
                if self.prior is not None and (self.prior <= 0).any():
                    return s, int(np.flatnonzero(self.prior <= 0)[0])
                return None
            if self.model is not None and self.states is not None:
                own = np.einsum("wk,kw->w", self.model, self.states)
            else:
                own = self.state_weights(s)[self.state_ids(s), cols]
            bad = np.flatnonzero(own <= 0)
            if len(bad):
                return s, int(bad[0])
        return None

    def blocks(self, node: int = 0) -> np.ndarray | None:
        """Block ids at *node* when these beliefs form a partition there, else None."""
        if self.kind == "partition":
            return self.state_ids(node)
        if self.kind == "sets":
            ids = self.state_ids(node)
            sets = self.state_weights(node) > 0
            for w in range(self.n):
                if not sets[ids[w], w]:
                    return None
            # a partition: each world's set is exactly the worlds sharing its set
            for k in np.unique(ids):
                if not np.array_equal(sets[k], ids == k):
                    return None
            return ids
        return None

    def __repr__(self) -> str:
        k = len(self.states) if self.states is not None else int(self.at.max()) + 1
        dep = "" if self.static else ", per node"
        return f"Beliefs({self.kind}, states={k}, worlds={self.n}{dep})"


def _check_distributions(a: np.ndarray, what: str) -> None:
    if not np.isfinite(a).all() or (a < 0).any():
        raise WorldsError(f"probabilities must be finite and non-negative ({what}s)")
    sums = a.sum(axis=1)
    bad = np.flatnonzero(np.abs(sums - 1.0) > 1e-9)
    if len(bad):
        raise WorldsError(f"probabilities must sum to 1: {what} {int(bad[0])} sums to {sums[bad[0]]:.6g}")


def weights(belief: Any, n: int) -> np.ndarray:
    """A belief as weights over the n worlds: a set/list of world indices (weight 1 each),
    a boolean mask (or a 0/1 float vector), or a probability vector (must sum to 1).

    >>> weights({0, 2}, 3).tolist()
    [1.0, 0.0, 1.0]
    >>> weights([0.25, 0.75], 2).tolist()
    [0.25, 0.75]
    """
    if belief is None:
        return np.ones(n)
    if isinstance(belief, (set, frozenset, range)):
        idx = list(belief)
    else:
        arr = np.asarray(belief)
        if arr.dtype == bool:
            if arr.shape != (n,):
                raise WorldsError(f"a belief mask needs one entry per world ({n}), got shape {arr.shape}")
            if not arr.any():
                raise WorldsError("a belief set must not be empty")
            return arr.astype(np.float64)
        if np.issubdtype(arr.dtype, np.floating):
            if arr.shape != (n,):
                raise WorldsError(f"a probability vector needs one entry per world ({n}), got shape {arr.shape}")
            if np.isin(arr, (0.0, 1.0)).all() and arr.any():  # an indicator of a set
                return arr.astype(np.float64)
            _check_distributions(arr.reshape(1, -1), "belief")
            return arr.astype(np.float64)
        idx = [int(v) for v in arr.reshape(-1)]
    if not idx:
        raise WorldsError("a belief set must not be empty")
    out = np.zeros(n)
    for v in idx:
        if not 0 <= v < n:
            raise WorldsError(f"the belief names world {v}, but the worlds are 0..{n - 1}")
        out[v] = 1.0
    return out


def _array(value: Any, dtype: Any, name: str, expected: str) -> np.ndarray:
    """*value* as a numpy array of *dtype*; an :class:`~kop.errors.ArgumentError` if it is not one."""
    if isinstance(value, (str, bytes)) or value is None:
        raise fail(name, expected, value)
    try:
        return np.asarray(value, dtype=dtype)
    except (TypeError, ValueError, OverflowError):
        raise fail(name, expected, value) from None


class WorldsGame:
    """An immutable two-player zero-sum game tree with payoff vectors over Ω.

    Attributes
    ----------
    worlds : tuple of str
        The world names (``w0`` ... by default).
    offsets : array
        ``offsets[i]:offsets[i+1]`` are the children of node i (breadth first).
    owner : array of int8
        :data:`MAX`, :data:`MIN` or :data:`LEAF` per node.
    payoffs : array
        (nodes, worlds) MAX's payoff per leaf and world; NaN where undefined (and on internal nodes).
    max_beliefs, min_beliefs : Beliefs
        Ω_MAX and Ω_MIN (default: nobody knows anything, Ω_P(w) = Ω).

    Examples
    --------
    >>> import kop
    >>> g = kop.WorldsGame.build(("MIN", [("MAX", [[1, 1, 1, 0], [0, 0, 1, 1]]),
    ...                                   ("MAX", [[0, 0, 0, 1], [0, 0, 0, 1]])]))
    >>> g
    WorldsGame(worlds=4, nodes=7, leaves=4, depth=2, first=MIN)
    >>> g.payoff(g.children(1)[0]).tolist()
    [1.0, 1.0, 1.0, 0.0]

    References
    ----------
    W. Jamroga, *A Defense Model for Games with Incomplete Information*, KI 2001, LNAI 2174, §2.
    """

    __slots__ = ("worlds", "offsets", "owner", "payoffs", "max_beliefs", "min_beliefs", "depth", "partial",
                 "_parent", "_depths", "_mirror")

    def __init__(self, offsets: Any, owner: Any, payoffs: Any, worlds: Sequence[str] | int | None = None,
                 max_beliefs: Beliefs | None = None, min_beliefs: Beliefs | None = None,
                 adequate: bool = True):
        """A game from its breadth-first arrays (see the class docstring); checks everything."""
        own = _array(owner, np.int8, "owner", "an array of node owners (0 MAX, 1 MIN, -1 leaf)")
        off = _array(offsets, np.int64, "offsets", "an array of child offsets (integers)")
        pay = _array(payoffs, np.float64, "payoffs", "a (nodes, worlds) array of numbers")
        m = len(own)
        if m == 0 or off.shape != (m + 1,):
            raise WorldsError("a game needs at least one node and one child offset more than nodes")
        if pay.ndim != 2 or pay.shape[0] != m:
            raise WorldsError(f"payoffs must be a (nodes, worlds) array, got shape {pay.shape} for {m} nodes")
        n = pay.shape[1]
        if n == 0:
            raise WorldsError("a game needs at least one world")
        names = _world_names(worlds, n)
        kids = np.diff(off)
        bad_owner = ~np.isin(own, (MAX, MIN, LEAF))
        if bad_owner.any():
            raise WorldsError(f"node {int(np.flatnonzero(bad_owner)[0])}: owner must be MAX (0), MIN (1) or leaf (-1)")
        leaf = own == LEAF
        bad = np.flatnonzero(leaf & (kids != 0))
        if len(bad):
            raise WorldsError(f"node {int(bad[0])}: a leaf has no children")
        bad = np.flatnonzero(~leaf & (kids <= 0))
        if len(bad):
            raise WorldsError(f"node {int(bad[0])}: a {_NAMES[int(own[bad[0]])]} node needs children")
        if off[0] != 1 or off[m] != m or (kids < 0).any():
            raise WorldsError("children must follow their parents breadth first: offsets run from 1 to the "
                              "number of nodes without decreasing")
        undefined = np.isnan(pay)
        bad = np.flatnonzero(leaf & undefined.all(axis=1))
        if len(bad):
            raise WorldsError(f"leaf {int(bad[0])}: its payoff is undefined in every world")
        if not undefined[~leaf].all():
            pay = pay.copy()
            pay[~leaf] = np.nan
        self.worlds = names
        self.offsets = _frozen(off)
        self.owner = _frozen(own)
        self.payoffs = _frozen(pay)
        parent = np.full(m, -1, dtype=np.int64)
        parent[1:] = np.repeat(np.arange(m), kids)
        if (parent[1:] >= np.arange(1, m)).any():
            raise WorldsError("children must come after their parent")
        self._parent = _frozen(parent)
        depth = np.zeros(m, dtype=np.int64)
        for i in range(1, m):
            depth[i] = depth[parent[i]] + 1
        self._depths = _frozen(depth)
        self.depth = int(depth.max())
        self.partial = bool(undefined[leaf].any())
        self._mirror: WorldsGame | None = None
        self.max_beliefs = _check_beliefs(max_beliefs, n, m, "Ω_MAX", adequate)
        self.min_beliefs = _check_beliefs(min_beliefs, n, m, "Ω_MIN", adequate)

    # -- construction ---------------------------------------------------------
    @classmethod
    def build(cls, root: Any, worlds: Sequence[str] | int | None = None, *, max_beliefs: Beliefs | None = None,
              min_beliefs: Beliefs | None = None, adequate: bool = True) -> WorldsGame:
        """A game from nested data: a leaf is a list of payoffs (one per world, None for
        undefined); an internal node is ``("MAX" | "MIN", [children])``.

        >>> WorldsGame.build(("MAX", [[1, 0], [0, None]])).payoff(2).tolist()
        [0.0, nan]
        """
        owner: list[int] = []
        rows: list[Any] = []
        queue = [(root, "root")]
        head = 0
        n_worlds: int | None = None
        while head < len(queue):
            node, path = queue[head]
            head += 1
            if isinstance(node, tuple) and len(node) == 2 and isinstance(node[0], str):
                who, kids = node
                if who not in _CODES:
                    raise WorldsError(f"{path}: a node is owned by 'MAX' or 'MIN', not {who!r}")
                if not isinstance(kids, (list, tuple)) or not kids:
                    raise WorldsError(f"{path}: a {who} node needs a non-empty list of children")
                owner.append(_CODES[who])
                rows.append(None)
                queue.extend((k, f"{path}/{j}") for j, k in enumerate(kids))
            else:
                try:
                    vec = np.array([np.nan if v is None else v for v in node], dtype=np.float64)
                except (TypeError, ValueError):
                    raise WorldsError(f"{path}: a leaf is a list of payoffs, one per world, "
                                      f"not {node!r}") from None
                if n_worlds is None:
                    n_worlds = len(vec)
                if len(vec) != n_worlds:
                    raise WorldsError(f"{path}: payoff vector of length {len(vec)}, but the game has "
                                      f"{n_worlds} worlds")
                owner.append(LEAF)
                rows.append(vec)
        off = _bfs_offsets([len(q[0][1]) if owner[i] != LEAF else 0 for i, q in enumerate(queue)])
        n = n_worlds if n_worlds is not None else 0
        pay = np.full((len(owner), n), np.nan)
        for i, r in enumerate(rows):
            if r is not None:
                pay[i] = r
        return cls(off, owner, pay, worlds, max_beliefs, min_beliefs, adequate)

    @classmethod
    def from_kripke(cls, model: KripkeModel, game: WorldsGame, max_agent: str = "MAX",
                    min_agent: str = "MIN") -> WorldsGame:
        """*game* with the static beliefs read from *model*'s partitions (worlds matched by name).

        >>> from kop import KripkeModel
        >>> m = KripkeModel.from_arrays(2, {"MAX": [0, 0], "MIN": [0, 1]})
        >>> g = WorldsGame.build(("MAX", [[1, 0], [0, 1]]))
        >>> WorldsGame.from_kripke(m, g).min_beliefs.belief_set(0, 1)
        frozenset({1})
        """
        missing = [w for w in game.worlds if w not in model.worlds]
        if missing or len(model.worlds) != len(game.worlds):
            raise WorldsError(f"the model's worlds must be the game's worlds (first missing: "
                              f"{missing[0] if missing else 'extra worlds in the model'})")
        order = [model.index(w) for w in game.worlds]
        parts = {}
        for agent in (max_agent, min_agent):
            if agent not in model.agents:
                raise WorldsError(f"the model has no agent {agent!r} (agents: {', '.join(model.agents)})")
            parts[agent] = Beliefs.partition(np.asarray(model.block_ids(agent))[order])
        return game.with_beliefs(parts[max_agent], parts[min_agent])

    def with_beliefs(self, max_beliefs: Beliefs | None = None, min_beliefs: Beliefs | None = None,
                     adequate: bool = True) -> WorldsGame:
        """The same tree with other belief functions (None keeps the current one)."""
        return WorldsGame(self.offsets, self.owner, self.payoffs, self.worlds,
                          max_beliefs if max_beliefs is not None else self.max_beliefs,
                          min_beliefs if min_beliefs is not None else self.min_beliefs, adequate)

    # -- reading --------------------------------------------------------------
    @property
    def n_worlds(self) -> int:
        return len(self.worlds)

    @property
    def size(self) -> int:
        return len(self.owner)

    def __len__(self) -> int:
        return len(self.owner)

    @property
    def first(self) -> str:
        """Who moves at the root ('MAX' or 'MIN'; 'LEAF' for a one-leaf game)."""
        return _NAMES.get(int(self.owner[0]), "LEAF")

    def children(self, node: int) -> range:
        """The children of *node* (node indices)."""
        return range(int(self.offsets[node]), int(self.offsets[node + 1]))

    def node_depths(self) -> np.ndarray:
        """The depth of every node (0 at the root)."""
        return self._depths

    def parents(self) -> np.ndarray:
        """The parent of every node (-1 for the root)."""
        return self._parent

    def parent(self, node: int) -> int:
        """The parent of *node* (-1 for the root)."""
        return int(self._parent[node])

    def is_leaf(self, node: int) -> bool:
        return bool(self.owner[node] == LEAF)

    def leaves(self) -> np.ndarray:
        """The leaf node indices, breadth first."""
        return np.flatnonzero(self.owner == LEAF)

    def payoff(self, node: int) -> np.ndarray:
        """MAX's payoff vector at a leaf (NaN where undefined)."""
        if not self.is_leaf(node):
            raise WorldsError(f"node {node} is not a leaf")
        row: np.ndarray = self.payoffs[node]
        return row

    def beliefs(self, player: str | int) -> Beliefs:
        """Ω_MAX or Ω_MIN."""
        return self.max_beliefs if player_code(player) == MAX else self.min_beliefs

    def accessible(self) -> np.ndarray:
        """Acc(s): (nodes, worlds) booleans, the worlds where some leaf below s is defined (§3.4)."""
        acc: np.ndarray = ~np.isnan(self.payoffs)
        for i in range(self.size - 1, -1, -1):
            if self.owner[i] != LEAF:
                acc[i] = acc[self.offsets[i]:self.offsets[i + 1]].any(axis=0)
        return acc

    def mirrored(self) -> WorldsGame:
        """The game seen from MIN's side: owners swapped, payoffs negated, beliefs swapped.

        Any MAX algorithm run on the mirror gives MIN's choices on the original
        (first-child tie-breaking is kept).
        """
        if self._mirror is None:
            own = np.where(self.owner == LEAF, LEAF, 1 - self.owner)
            self._mirror = WorldsGame(self.offsets, own, -self.payoffs, self.worlds, self.min_beliefs,
                                      self.max_beliefs, adequate=False)
            self._mirror._mirror = self
        return self._mirror

    def world_tree(self, world: int | str) -> GameTree:
        """The perfect-information game played in one world, as a kop :class:`~kop.GameTree`
        (players MAX:max and MIN:min, both components MAX's payoff)."""
        from kop.games.trees.tree import GameTree

        w = self.world_index(world)

        def node(i: int) -> Any:
            if self.is_leaf(i):
                v = float(self.payoffs[i, w])
                if np.isnan(v):
                    raise WorldsError(f"leaf {i} is undefined in world {self.worlds[w]}")
                return (v, v)
            return ("MAX" if self.owner[i] == MAX else "MIN", [node(c) for c in self.children(i)])

        return GameTree.build([{"name": "MAX", "goal": "max"}, {"name": "MIN", "goal": "min"}], node(0))

    def world_index(self, world: int | str) -> int:
        if isinstance(world, str):
            try:
                return self.worlds.index(world)
            except ValueError:
                raise WorldsError(f"no world named {world!r}") from None
        if not 0 <= int(world) < self.n_worlds:
            raise WorldsError(f"world {world} is out of range 0..{self.n_worlds - 1}")
        return int(world)

    def kripke(self, node: int = 0, actual: int | str | None = None,
               valuation: Mapping[str, Any] | None = None) -> KripkeModel:
        """The S5 model of the players' knowledge at *node*: agents MAX and MIN with the
        partitions Ω_MAX(node, ·) and Ω_MIN(node, ·).

        Both belief functions must be partitions there (adequate, symmetric,
        transitive sets).  ``valuation`` maps atoms to one truth value per world.

        >>> g = WorldsGame.build(("MAX", [[1, 0, 0], [0, 1, 1]]),
        ...     max_beliefs=Beliefs.partition([0, 1, 1]), min_beliefs=Beliefs.partition([0, 0, 1]))
        >>> m = g.kripke(actual=1, valuation={"good": [True, False, False]})
        >>> m.satisfies("K_MAX ~good & ~K_MIN ~good")
        True
        """
        from kop.semantics.model import KripkeModel

        parts = {}
        for name, bel in (("MAX", self.max_beliefs), ("MIN", self.min_beliefs)):
            blocks = bel.blocks(node)
            if blocks is None:
                raise WorldsError(f"Ω_{name} at node {node} is not a partition of the worlds, "
                                  "so it is not an S5 model")
            parts[name] = blocks
        act = None if actual is None else self.worlds[self.world_index(actual)]
        return KripkeModel.from_arrays(self.worlds, parts, valuation or {}, actual=act)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WorldsGame):
            return NotImplemented
        return (np.array_equal(self.offsets, other.offsets) and np.array_equal(self.owner, other.owner)
                and np.array_equal(self.payoffs, other.payoffs, equal_nan=True) and self.worlds == other.worlds)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"WorldsGame(worlds={self.n_worlds}, nodes={self.size}, leaves={len(self.leaves())}, "
                f"depth={self.depth}, first={self.first})")


def _bfs_offsets(counts: Sequence[int]) -> np.ndarray:
    """Breadth-first child offsets from the number of children per node."""
    off = np.ones(len(counts) + 1, dtype=np.int64)
    off[1:] = 1 + np.cumsum(np.asarray(counts, dtype=np.int64))
    return off


def _world_names(worlds: Sequence[str] | int | None, n: int) -> tuple[str, ...]:
    if worlds is None or isinstance(worlds, (int, np.integer)):
        if worlds is not None and int(worlds) != n:
            raise WorldsError(f"payoff vectors have length {n}, but the game has {int(worlds)} worlds")
        return tuple(f"w{i}" for i in range(n))
    names = tuple(str(w) for w in worlds)
    if len(names) != n:
        raise WorldsError(f"payoff vectors have length {n}, but {len(names)} worlds are named")
    if len(set(names)) != n:
        raise WorldsError("world names must be distinct")
    return names


def _check_beliefs(b: Beliefs | None, n: int, m: int, name: str, adequate: bool) -> Beliefs:
    if b is None:
        return Beliefs.partition(np.zeros(n, dtype=np.int64))
    if not isinstance(b, Beliefs):
        raise WorldsError(f"{name} must be a Beliefs object (Beliefs.partition, .sets, .probabilistic)")
    if b.n != n:
        raise WorldsError(f"{name} is over {b.n} worlds, but the game has {n}")
    if b.at.ndim == 2 and b.at.shape[0] != m:
        raise WorldsError(f"{name} is given per node for {b.at.shape[0]} nodes, but the game has {m}")
    if adequate:
        nodes = [0] if b.static else range(m)
        miss = b.is_adequate(nodes)
        if miss is not None:
            s, w = miss
            where = "" if b.static else f" at node {s}"
            raise WorldsError(f"{name}(w{w}){where} does not contain w{w}: beliefs must be adequate "
                              "(the actual world is always considered possible); pass adequate=False "
                              "to allow false beliefs")
    return b
