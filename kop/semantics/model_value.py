"""The value inside a Kripke model: worlds, one partition per agent, a valuation, designated worlds.

:class:`ModelValue` holds the data of an S5_n model and answers questions
about its parts (:attr:`~ModelValue.worlds`, :meth:`~ModelValue.partition`,
:meth:`~ModelValue.valuation`, ...); restricting it to some worlds is its
only update.  It imports no algorithm: the checkers, updates, bisimulation,
observations, JSON and drawing modules import it, and
:class:`~kop.semantics.model.KripkeModel` (the class users build) adds
one-line conveniences that call them, as networkx keeps ``Graph`` apart from
its algorithms.  Results built by an algorithm from a model have the class of
that model (``type(model)._raw(...)``), so they are ``KripkeModel`` again.

Internally each agent's partition is an integer array (world index -> block
id) and each atom a boolean vector, which is what makes the checker in
:mod:`kop.semantics.checker` fast.  A model built from names (the constructor,
JSON) keeps them as Python lists and integer bit sets
(:class:`~kop.semantics.bitset_checker.ModelBits`) until an array is asked
for, so that small models never import numpy.

Example
-------
>>> v = ModelValue({"w0": ["p"], "w1": []}, {"a": [["w0", "w1"]]}, actual="w0")
>>> v.partition("a"), sorted(v.valuation("w0")), v.actual
((('w0', 'w1'),), ['p'], ('w0',))
>>> v.restrict(["w1"]).actual
()
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Self

from kop.semantics.bitset_checker import SMALL_MODEL, ModelBits, members
from kop.semantics.errors import ModelError
from kop.semantics.model_build import (actual_positions, block_id_array, check_atom, index_of, is_ndarray,
                                       read_agents, read_uncertainty, read_worlds, partition_ids)
from kop.semantics.uncertainty import Uncertainty
from kop.syntax.formula import Formula

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

__all__ = ["ModelValue"]


class ModelValue:
    """An S5_n Kripke model's data: the parameters and errors are those of
    :class:`~kop.semantics.model.KripkeModel`, which adds the conveniences.

    Parameters
    ----------
    worlds : mapping of str to iterable of str, or iterable of str
        World name -> the atoms true there.
    partitions : mapping of agent to partition
        Each agent's partition of the worlds.
    actual : str or iterable of str, optional
        The designated worlds; None (the default) designates every world.
    agents : iterable of str, optional
        The agents, in order; defaults to the keys of *partitions*.
    plausibility, probability : mapping of agent to mapping of world to value, optional
        Each agent's plausibility ranks and probability weights.

    Examples
    --------
    >>> ModelValue(["u", "v"], {"a": [["u", "v"]]}).block("a", "u") == {"u", "v"}
    True
    """

    __slots__ = ("_worlds", "_names_from", "_index", "_agents", "_agent_set", "_arrays", "_nblocks", "_bits",
                 "_n", "_note", "_memo", "_submodels", "_partition_cache", "_joint_cache", "_unc", "_origin")
    _worlds: tuple[str, ...] | None  # None: read lazily from _names_from
    _names_from: _Names | None
    _unc: Uncertainty | None  # plausibility and probability (kop.semantics.uncertainty)

    def __init__(self, worlds: Mapping[str, Iterable[str]] | Iterable[str],
                 partitions: Mapping[str, Any], actual: str | Iterable[str] | None = None,
                 agents: Iterable[str] | None = None, *, plausibility: Mapping[str, Any] | None = None,
                 probability: Mapping[str, Any] | None = None):
        names, atom_lists = read_worlds(worlds)
        index = index_of(names)
        n = len(names)
        if not isinstance(partitions, Mapping):
            raise ModelError(f"partitions must map each agent to its partition, not {type(partitions).__name__}")
        agent_names = read_agents(agents, partitions)
        blocks: dict[str, list[int]] = {}
        nblocks: dict[str, int] = {}
        for a in agent_names:
            blocks[a], nblocks[a] = partition_ids(a, partitions[a], names, index)
        sets: dict[str, bytearray] = {}  # atom -> its worlds, one bit each (linear time to fill)
        for i, (w, lst) in enumerate(zip(names, atom_lists)):
            for p in lst:
                row = sets.get(p) if isinstance(p, str) else None
                if row is None:
                    check_atom(p, w)
                    row = sets[p] = bytearray((n + 7) // 8)
                row[i >> 3] |= 1 << (i & 7)
        atoms = {p: int.from_bytes(row, "little") for p, row in sets.items()}
        unc = read_uncertainty(plausibility, probability, names, index, agent_names, blocks)
        bits = ModelBits(n, blocks, nblocks, atoms, actual_positions(actual, index))
        self._init(tuple(names), index, agent_names, None, nblocks, bits, None)
        self._unc = unc

    # -- construction helpers --------------------------------------------------
    def _init(self, worlds: tuple[str, ...] | _Names, index: dict[str, int] | None, agents: tuple[str, ...],
              arrays: _Arrays | None, nblocks: dict[str, int], bits: ModelBits | None, note: str | None) -> None:
        """Set the fields from the numpy *arrays* or the pure-Python *bits* (at least one; the other is derived)."""
        if isinstance(worlds, _Names):
            self._worlds, self._names_from, self._n = None, worlds, len(worlds.keep)
        else:
            self._worlds, self._names_from, self._n = worlds, None, len(worlds)
        self._index = index
        self._agents = agents
        self._agent_set = frozenset(agents)
        self._arrays = arrays
        self._nblocks = nblocks
        self._bits = bits
        self._note = note
        self._memo: dict[Formula, np.ndarray] = {}       # truth vectors (kop.semantics.checker)
        self._submodels: dict[bytes, Self] = {}          # restrictions, by their mask's bytes
        self._partition_cache: dict[tuple[str, str | tuple[str, ...]], np.ndarray] = {}  # per agent or group
        self._joint_cache: dict[tuple[str, ...], tuple[np.ndarray, int]] = {}  # a group's joint block ids, bound
        self._unc = None
        #: (the model before the announcement that gave this one, this model's world positions there)
        self._origin: tuple[ModelValue, Any] | None = None
        if arrays is not None:
            arrays.freeze()

    @classmethod
    def _raw(cls, worlds: tuple[str, ...] | _Names, agents: tuple[str, ...], blocks: Mapping[str, np.ndarray],
             nblocks: dict[str, int], atoms: Mapping[str, np.ndarray], actual: np.ndarray,
             note: str | None = None, *, index: dict[str, int] | None = None,
             unc: Uncertainty | None = None) -> Self:
        """A model from already validated arrays (used by updates and builders; no checks)."""
        self = cls.__new__(cls)
        self._init(worlds, index, agents, _Arrays(blocks, atoms, actual), nblocks, None, note)
        self._unc = unc
        return self

    # -- the two representations ---------------------------------------------------
    @property
    def _blocks(self) -> Mapping[str, np.ndarray]:
        """Each agent's block ids per world, as a read-only int64 array."""
        return self._numpy().blocks

    @property
    def _atoms(self) -> Mapping[str, np.ndarray]:
        """Each atom's truth value per world, as a read-only boolean array (only atoms true somewhere)."""
        return self._numpy().atoms

    @property
    def _actual(self) -> np.ndarray:
        """The designated worlds' positions, as a read-only int64 array."""
        return self._numpy().actual

    def _numpy(self) -> _Arrays:
        arrays = self._arrays
        if arrays is None:
            assert self._bits is not None
            arrays = self._arrays = _Arrays(*self._bits.arrays())
            arrays.freeze()
        return arrays

    def _bitsets(self) -> ModelBits:
        """The model as Python lists and integer bit sets (see :mod:`kop.semantics.bitset_checker`)."""
        bits = self._bits
        if bits is None:
            a = self._numpy()
            bits = self._bits = ModelBits.from_arrays(self._n, a.blocks, self._nblocks, a.atoms, a.actual)
        bits.unc = self._unc
        return bits

    def _ids_list(self, agent: str) -> list[int]:
        return self._bits.ids[agent] if self._bits is not None else self._blocks[agent].tolist()

    def _actual_list(self) -> list[int]:
        return self._bits.actual if self._bits is not None else self._actual.tolist()

    def _small(self) -> bool:
        """Whether questions go to the pure-Python checker (see :data:`~kop.semantics.bitset_checker.SMALL_MODEL`)."""
        return self._n <= SMALL_MODEL

    # -- the parts ---------------------------------------------------------------
    @property
    def worlds(self) -> tuple[str, ...]:
        """The world names, in order."""
        if self._worlds is None:
            src = self._names_from
            assert src is not None
            self._worlds = tuple(src.names[i] for i in src.keep.tolist())
        return self._worlds

    @property
    def note(self) -> str | None:
        """How an update left this model empty or without designated worlds (None otherwise)."""
        return self._note

    @property
    def agents(self) -> tuple[str, ...]:
        """The agent names, in order."""
        return self._agents

    @property
    def actual(self) -> tuple[str, ...]:
        """The designated worlds."""
        w = self.worlds
        return tuple(w[i] for i in self._actual_list())

    @property
    def atoms(self) -> frozenset[str]:
        """The atoms true at some world (every other atom is false everywhere)."""
        if self._bits is not None:
            return frozenset(p for p, mask in self._bits.atoms.items() if mask)
        return frozenset(p for p, v in self._atoms.items() if v.any())

    @property
    def is_empty(self) -> bool:
        """True when the model has no worlds (e.g. after announcing a formula false everywhere)."""
        return self._n == 0

    def __len__(self) -> int:
        return self._n

    def index(self, world: str) -> int:
        """The position of *world* in :attr:`worlds`.

        Parameters
        ----------
        world : str

        Returns
        -------
        int

        Raises
        ------
        ModelError
            If the model has no such world (the message lists some of its worlds).

        Examples
        --------
        >>> from kop import KripkeModel
        >>> m = KripkeModel({"u": ["p"], "v": [], "x": ["p"]}, {"a": [["u", "v"], ["x"]]}, "u")
        >>> m.index("x")
        2
        """
        if self._index is None:
            self._index = {w: i for i, w in enumerate(self.worlds)}
        try:
            return self._index[world]
        except (KeyError, TypeError):
            raise ModelError(f"unknown world {world!r}{self._world_hint()}") from None

    def _world_hint(self) -> str:
        if self._n == 0:
            return " (the model has no worlds)"
        shown = ", ".join(repr(w) for w in self.worlds[:5])
        return f" (worlds: {shown}{', ...' if self._n > 5 else ''})"

    def _agent(self, agent: str) -> str:
        if agent not in self._agent_set:
            raise ModelError(f"unknown agent {agent!r} (the model's agents: "
                             f"{', '.join(repr(a) for a in self._agents) or 'none'})")
        return agent

    def valuation(self, world: str) -> frozenset[str]:
        """The atoms true at *world*.

        Parameters
        ----------
        world : str

        Returns
        -------
        frozenset of str

        Examples
        --------
        >>> from kop import KripkeModel
        >>> m = KripkeModel({"u": ["p"], "v": [], "x": ["p"]}, {"a": [["u", "v"], ["x"]]}, "u")
        >>> m.valuation("u"), m.valuation("v")
        (frozenset({'p'}), frozenset())
        """
        i = self.index(world)
        if self._bits is not None:
            return frozenset(p for p, mask in self._bits.atoms.items() if mask >> i & 1)
        return frozenset(p for p, v in self._atoms.items() if v[i])

    def block(self, agent: str, world: str) -> frozenset[str]:
        """The worlds that *agent* cannot tell apart from *world* (including itself).

        Parameters
        ----------
        agent : str
        world : str

        Returns
        -------
        frozenset of str

        Raises
        ------
        ModelError
            An unknown agent or world.

        Examples
        --------
        >>> from kop import KripkeModel
        >>> m = KripkeModel({"u": ["p"], "v": [], "x": ["p"]}, {"a": [["u", "v"], ["x"]]}, "u")
        >>> sorted(m.block("a", "v"))
        ['u', 'v']
        """
        ids = self._ids_list(self._agent(agent))
        i = self.index(world)
        w = self.worlds
        return frozenset(w[j] for j, b in enumerate(ids) if b == ids[i])

    def partition(self, agent: str) -> tuple[tuple[str, ...], ...]:
        """*agent*'s partition: its blocks, each in world order, ordered by first world.

        Parameters
        ----------
        agent : str

        Returns
        -------
        tuple of tuple of str

        Examples
        --------
        >>> from kop import KripkeModel
        >>> m = KripkeModel({"u": ["p"], "v": [], "x": ["p"]}, {"a": [["u", "v"], ["x"]]}, "u")
        >>> m.partition("a")
        (('u', 'v'), ('x',))
        """
        ids = self._ids_list(self._agent(agent))
        groups: dict[int, list[str]] = {}
        for w, b in zip(self.worlds, ids):
            groups.setdefault(b, []).append(w)
        return tuple(tuple(g) for g in groups.values())

    def block_ids(self, agent: str) -> np.ndarray:
        """*agent*'s block id per world (read-only; equal ids = indistinguishable; numpy).

        Parameters
        ----------
        agent : str

        Returns
        -------
        numpy.ndarray
            int64, one id per world of :attr:`worlds`.

        Examples
        --------
        >>> from kop import KripkeModel
        >>> m = KripkeModel({"u": ["p"], "v": [], "x": ["p"]}, {"a": [["u", "v"], ["x"]]}, "u")
        >>> m.block_ids("a").tolist()
        [0, 0, 1]
        """
        return self._blocks[self._agent(agent)]

    def _canonical_ids(self, agent: str) -> np.ndarray:
        """Block ids renumbered 0, 1, ... in order of first occurrence."""
        import numpy as np

        ids = self._blocks[agent]
        if self._n == 0:
            return ids
        _, first, inv = np.unique(ids, return_index=True, return_inverse=True)
        rank = np.empty(len(first), dtype=np.int64)
        rank[np.argsort(first, kind="stable")] = np.arange(len(first))
        return rank[inv.reshape(-1)]

    # -- updates -----------------------------------------------------------------
    def restrict(self, worlds: Iterable[str] | np.ndarray, note: str | None = None) -> Self:
        """The submodel on *worlds*; designated: the designated worlds that remain.

        Parameters
        ----------
        worlds : iterable of str, or numpy.ndarray of bool
            World names, or a mask with one entry per world.
        note : str, optional
            The result's :attr:`note`.

        Returns
        -------
        KripkeModel
            Of the class of this model; the worlds keep their order.

        Raises
        ------
        ModelError
            An unknown world, or a mask of the wrong length.

        Examples
        --------
        >>> from kop import KripkeModel
        >>> m = KripkeModel({"u": ["p"], "v": [], "x": ["p"]}, {"a": [["u", "v"], ["x"]]}, "u")
        >>> sub = m.restrict(["v", "x"])
        >>> sub.worlds, sub.actual, sub.partition("a")
        (('v', 'x'), (), (('v',), ('x',)))
        """
        import numpy as np

        if isinstance(worlds, np.ndarray) and worlds.dtype == bool:
            if worlds.shape != (self._n,):
                raise ModelError(f"a world mask needs {self._n} entries, got shape {worlds.shape}")
            mask = worlds
        else:
            if isinstance(worlds, str):
                worlds = [worlds]
            elif not isinstance(worlds, Iterable):
                raise ModelError(f"restrict takes world names or a boolean mask, not {worlds!r}")
            mask = np.zeros(self._n, dtype=bool)
            for w in worlds:
                mask[self.index(w)] = True
        return self._restrict(mask, note)

    def _restrict(self, mask: np.ndarray, note: str | None) -> Self:
        import numpy as np

        keep = np.flatnonzero(mask)
        new_pos = np.full(self._n, -1, dtype=np.int64)
        new_pos[keep] = np.arange(len(keep))
        actual = new_pos[self._actual]
        actual = actual[actual >= 0]
        if self._names_from is not None:
            names = _Names(self._names_from.names, self._names_from.keep[keep])
        else:
            assert self._worlds is not None
            names = _Names(self._worlds, keep)
        out = type(self)._raw(names, self._agents, _Columns.select(self._blocks, keep), dict(self._nblocks),
                              _Columns.select(self._atoms, keep), actual, note)
        if self._unc:
            out._unc = Uncertainty.view(self._unc, keep)
            out._origin = (self, keep)          # Kooi: an agent left without weight keeps its measure
        return out

    def _submodel(self, mask: np.ndarray) -> Self:
        """The restriction to *mask*, memoized (for evaluating announcements)."""
        if mask.all():
            return self
        key = mask.tobytes()
        sub = self._submodels.get(key)
        if sub is None:
            sub = self._submodels[key] = self._restrict(mask, None)
        return sub

    def _restrict_bits(self, keep: int, note: str | None) -> Self:
        """The submodel on the worlds of the bit set *keep*, built as bit sets (block ids not renumbered)."""
        b = self._bitsets()
        positions = members(keep)
        new_pos = {old: new for new, old in enumerate(positions)}
        atoms = {}
        for p, mask in b.atoms.items():
            moved = 0
            for new, old in enumerate(positions):
                if mask >> old & 1:
                    moved |= 1 << new
            atoms[p] = moved
        bits = ModelBits(len(positions), {a: [ids[i] for i in positions] for a, ids in b.ids.items()},
                         dict(b.nblocks), atoms, [new_pos[i] for i in b.actual if i in new_pos])
        all_worlds = self.worlds
        out = type(self)._with_bits(tuple(all_worlds[i] for i in positions), self._agents, dict(self._nblocks),
                                    bits, note)
        if self._unc:
            out._unc = bits.unc = self._unc.select(positions)
            out._origin = (self, positions)     # Kooi: an agent left without weight keeps its measure
        return out

    def _no_uncertainty(self, what: str) -> None:
        if self._unc:
            raise ModelError(f"{what} does not handle plausibility or probability; this model has them "
                             "(see docs/uncertainty.md)")

    # -- plausibility and probability ------------------------------------------------
    @property
    def has_uncertainty(self) -> bool:
        """Whether some agent has a plausibility order or probabilities (see :mod:`kop.semantics.uncertainty`)."""
        return bool(self._unc)

    def rank(self, agent: str, world: str) -> int:
        """*agent*'s plausibility rank of *world* (lower is more plausible; 0 for an agent without an order).

        Parameters
        ----------
        agent : str
        world : str

        Returns
        -------
        int

        Examples
        --------
        >>> from kop import KripkeModel
        >>> m = KripkeModel(["u", "v"], {"a": [["u", "v"]]}, plausibility={"a": {"u": 0, "v": 3}})
        >>> m.rank("a", "v"), m.has_uncertainty
        (3, True)

        References
        ----------
        Baltag & Smets, "A qualitative theory of dynamic interactive belief revision" (2008).
        """
        self._agent(agent)
        i = self.index(world)
        ranks = self._unc.ranks.get(agent) if self._unc else None
        return 0 if ranks is None else ranks[i]

    def with_actual(self, actual: str | Iterable[str] | None) -> Self:
        """The same model with other designated worlds.

        Parameters
        ----------
        actual : str or iterable of str, or None
            The new designated worlds; None designates every world.

        Returns
        -------
        KripkeModel
            Of the class of this model.

        Examples
        --------
        >>> from kop import KripkeModel
        >>> m = KripkeModel({"u": ["p"], "v": [], "x": ["p"]}, {"a": [["u", "v"], ["x"]]}, "u")
        >>> m.with_actual(["v", "x"]).actual, m.with_actual(None).actual
        (('v', 'x'), ('u', 'v', 'x'))
        """
        if self._index is None:
            self._index = {w: i for i, w in enumerate(self.worlds)}
        positions = actual_positions(actual, self._index)
        if self._bits is not None:
            b = self._bits
            out = type(self)._with_bits(self.worlds, self._agents, self._nblocks,
                                        ModelBits(b.n, b.ids, b.nblocks, b.atoms, positions))
        else:
            import numpy as np

            out = type(self)._raw(self.worlds, self._agents, self._blocks, self._nblocks, self._atoms,
                                  np.array(positions, dtype=np.int64), None)
        out._unc = self._unc
        out._origin = self._origin
        return out

    @classmethod
    def _with_bits(cls, worlds: tuple[str, ...], agents: tuple[str, ...], nblocks: dict[str, int],
                   bits: ModelBits, note: str | None = None) -> Self:
        """A model from already validated bit sets (no checks)."""
        self = cls.__new__(cls)
        self._init(worlds, None, agents, None, nblocks, bits, note)
        return self

    # -- comparison, display -------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        """Same worlds (in order), agents, valuation, partitions and designated worlds."""
        if not isinstance(other, ModelValue):
            return NotImplemented
        if (self.worlds, self._agents, self.actual) != (other.worlds, other._agents, other.actual):
            return False
        if self.atoms != other.atoms:
            return False
        if (self._unc or None) != (other._unc or None):
            return False
        import numpy as np

        if any(not np.array_equal(self._atoms[p], other._atoms[p]) for p in self.atoms):
            return False
        return all(np.array_equal(self._canonical_ids(a), other._canonical_ids(a)) for a in self._agents)

    def __hash__(self) -> int:
        return hash((self.worlds, self._agents, self.actual))

    def __repr__(self) -> str:
        extra = f", note={self.note!r}" if self.note else ""
        return f"{type(self).__name__}(worlds={self._n}, agents={self._agents!r}, actual={self.actual!r}{extra})"


# -- the numpy arrays --------------------------------------------------------------------

class _Arrays:
    """A model's numpy arrays: block ids per agent, truth vectors per atom, designated positions."""

    __slots__ = ("blocks", "atoms", "actual")

    def __init__(self, blocks: Mapping[str, np.ndarray], atoms: Mapping[str, np.ndarray], actual: np.ndarray):
        self.blocks, self.atoms, self.actual = blocks, atoms, actual

    def freeze(self) -> None:
        self.actual.flags.writeable = False
        for cols in (self.blocks, self.atoms):
            if isinstance(cols, dict):
                for arr in cols.values():
                    arr.flags.writeable = False


# -- lazily restricted columns ---------------------------------------------------------

class _Names:
    """The world names of a restricted model: a tuple of names and the positions kept."""

    __slots__ = ("names", "keep")

    def __init__(self, names: tuple[str, ...], keep: np.ndarray):
        self.names, self.keep = names, keep

    def __len__(self) -> int:
        return len(self.keep)


class _Columns(Mapping[str, "np.ndarray"]):
    """Per-agent or per-atom arrays of a restricted model, each cut out of the original on first use.

    Restricting a model (an announcement) costs nothing for the agents and
    atoms that later questions never look at.
    """

    __slots__ = ("_source", "_keep", "_cache")

    def __init__(self, source: Mapping[str, np.ndarray], keep: np.ndarray):
        self._source, self._keep = source, keep
        self._cache: dict[str, np.ndarray] = {}

    @classmethod
    def select(cls, source: Mapping[str, np.ndarray], keep: np.ndarray) -> _Columns:
        if isinstance(source, _Columns):  # compose with the original, not a chain of restrictions
            return cls(source._source, source._keep[keep])
        return cls(source, keep)

    def __getitem__(self, key: str) -> np.ndarray:
        arr = self._cache.get(key)
        if arr is None:
            arr = self._source[key][self._keep]
            arr.flags.writeable = False
            self._cache[key] = arr
        return arr

    def __contains__(self, key: object) -> bool:
        return key in self._source

    def __iter__(self) -> Iterator[str]:
        return iter(self._source)

    def __len__(self) -> int:
        return len(self._source)


