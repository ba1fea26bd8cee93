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
new models.  Internally each agent's partition is an integer array (world index
-> block id) and each atom a boolean vector, which is what makes the checker in
:mod:`kop.semantics.checker` fast.  A model built from names (the constructor,
JSON) keeps them as Python lists and integer bit sets until an array is asked
for: :meth:`satisfies` and :meth:`truth_set` on a model of at most
:data:`~kop.semantics.bitset_checker.SMALL_MODEL` worlds use the pure-Python
checker :mod:`kop.semantics.bitset_checker`, so checking a small model never
imports numpy.

Designated worlds and the empty model: :meth:`satisfies` with ``world=None``
asks about every designated world.  An update can leave a model with no
designated worlds (announcing something false at the actual world) or with no
worlds at all (announcing something false everywhere).  Such a model is
returned, not refused; :attr:`note` says how it came about, :attr:`is_empty`
flags the empty one, and asking :meth:`satisfies` about its designated worlds
raises :class:`~kop.semantics.errors.ModelError` with that explanation, since
the question has no meaningful answer.  :meth:`truth_set` still works (it is
empty on the empty model).

Reference: Fagin, Halpern, Moses & Vardi, *Reasoning About Knowledge* (1995),
ch. 2; van Ditmarsch, van der Hoek & Kooi, *Dynamic Epistemic Logic* (2007).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kop.semantics.bitset_checker import SMALL_MODEL, ModelBits
from kop.semantics.errors import ModelError
from kop.syntax.formula import AGENT_RE, ATOM_RE, Formula, is_reserved_atom

if TYPE_CHECKING:  # pragma: no cover
    from fractions import Fraction

    import networkx
    import numpy as np

    from kop.semantics.uncertainty import Uncertainty

    from kop.semantics.update import ActionModel

__all__ = ["KripkeModel", "FORMAT"]

#: The format tag written into JSON model files.
FORMAT = "kop-model/1"


class KripkeModel:
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
    """

    __slots__ = ("_worlds", "_names_from", "_index", "_agents", "_agent_set", "_arrays", "_nblocks", "_bits",
                 "_n", "_note", "_memo", "_submodels", "_partition_cache", "_unc")
    _worlds: tuple[str, ...] | None  # None: read lazily from _names_from
    _names_from: _Names | None
    _unc: Uncertainty | None  # plausibility and probability (kop.semantics.uncertainty)

    def __init__(self, worlds: Mapping[str, Iterable[str]] | Iterable[str],
                 partitions: Mapping[str, Any], actual: str | Iterable[str] | None = None,
                 agents: Iterable[str] | None = None, *, plausibility: Mapping[str, Any] | None = None,
                 probability: Mapping[str, Any] | None = None):
        names, atom_lists = _read_worlds(worlds)
        index = _index_of(names)
        n = len(names)
        if not isinstance(partitions, Mapping):
            raise ModelError(f"partitions must map each agent to its partition, not {type(partitions).__name__}")
        agent_names = _read_agents(agents, partitions)
        blocks: dict[str, list[int]] = {}
        nblocks: dict[str, int] = {}
        for a in agent_names:
            blocks[a], nblocks[a] = _partition_ids(a, partitions[a], names, index)
        sets: dict[str, bytearray] = {}  # atom -> its worlds, one bit each (linear time to fill)
        for i, (w, lst) in enumerate(zip(names, atom_lists)):
            for p in lst:
                row = sets.get(p) if isinstance(p, str) else None
                if row is None:
                    _check_atom(p, w)
                    row = sets[p] = bytearray((n + 7) // 8)
                row[i >> 3] |= 1 << (i & 7)
        atoms = {p: int.from_bytes(row, "little") for p, row in sets.items()}
        unc = _read_uncertainty(plausibility, probability, names, index, agent_names, blocks)
        bits = ModelBits(n, blocks, nblocks, atoms, _actual_positions(actual, index))
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
        self._memo: dict = {}
        self._submodels: dict = {}
        self._partition_cache: dict = {}
        self._unc = None
        if arrays is not None:
            arrays.freeze()

    @classmethod
    def _raw(cls, worlds: tuple[str, ...] | _Names, agents: tuple[str, ...], blocks: Mapping[str, np.ndarray],
             nblocks: dict[str, int], atoms: Mapping[str, np.ndarray], actual: np.ndarray,
             note: str | None = None) -> KripkeModel:
        """A model from already validated arrays (used by updates; no checks)."""
        self = cls.__new__(cls)
        self._init(worlds, None, agents, _Arrays(blocks, atoms, actual), nblocks, None, note)
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

    @classmethod
    def from_arrays(cls, worlds: Iterable[str] | int, partitions: Mapping[str, Any],
                    valuation: Mapping[str, Any] | None = None, actual: str | Iterable[str] | None = None,
                    agents: Iterable[str] | None = None, *, plausibility: Mapping[str, Any] | None = None,
                    probability: Mapping[str, Any] | None = None) -> KripkeModel:
        """A model from arrays, for large generated models.

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

        Examples
        --------
        >>> import numpy as np
        >>> m = KripkeModel.from_arrays(4, {"a": [0, 0, 1, 1]}, {"p": [True, False, True, True]})
        >>> sorted(m.truth_set("K_a p"))
        ['w2', 'w3']
        """
        import numpy as np

        if isinstance(worlds, (int, np.integer)):
            names = [f"w{i}" for i in range(int(worlds))]
        elif isinstance(worlds, Mapping):
            raise ModelError("from_arrays takes the world names (or their number) and the valuation as arrays; "
                             "for a mapping world -> atoms use KripkeModel(...)")
        else:
            names = _read_worlds(list(worlds))[0]
        index = _index_of(names)
        n = len(names)
        if not isinstance(partitions, Mapping):
            raise ModelError(f"partitions must map each agent to an array of block ids, not {type(partitions).__name__}")
        agent_names = _read_agents(agents, partitions)
        blocks, nblocks = {}, {}
        for a in agent_names:
            blocks[a], nblocks[a] = _block_id_array(a, partitions[a], n)
        atoms = {}
        for p, vec in (valuation or {}).items():
            _check_atom(p, None)
            arr = np.asarray(vec)
            if arr.shape != (n,):
                raise ModelError(f"atom {p!r}: expected {n} truth values, one per world, got shape {arr.shape}")
            if arr.dtype != bool:
                if not np.isin(arr, (0, 1)).all():
                    raise ModelError(f"atom {p!r}: truth values must be booleans")
                arr = arr.astype(bool)
            atoms[p] = arr.copy()
        actual_idx = _read_actual(actual, index, n)
        unc = None
        if plausibility is not None or probability is not None:
            unc = _read_uncertainty(plausibility, probability, names, index, agent_names,
                                    {a: ids.tolist() for a, ids in blocks.items()})
        self = cls.__new__(cls)
        self._init(tuple(names), index, agent_names, _Arrays(blocks, atoms, actual_idx), nblocks, None, None)
        self._unc = unc
        return self

    @classmethod
    def from_observations(cls, vocabulary: Iterable[str], law: Formula | str,
                          observables: Mapping[str, Iterable[str]], actual: Any = None,
                          **options: Any) -> KripkeModel:
        """A model from observations, SMCDEL style.

        The worlds are the valuations of *vocabulary* that satisfy the
        propositional *law*; an agent cannot tell apart two worlds that agree
        on the atoms it observes.  See :func:`kop.semantics.observations.build_from_observations`.
        """
        from kop.semantics.observations import build_from_observations

        return build_from_observations(vocabulary, law, observables, actual=actual, **options)

    # -- JSON ------------------------------------------------------------------
    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str, source: str | None = None) -> KripkeModel:
        """A model from the JSON format ``kop-model/1`` (a parsed dict, or JSON text).

        The document is validated against ``kop/schemas/model.schema.json``;
        errors give the JSON path (``$.relations.a[1]``) and, for model
        errors, the agent and world.  Duplicate keys (e.g. two worlds with the
        same name) are reported.

        Examples
        --------
        >>> m = KripkeModel.from_json('{"agents": ["a"], "worlds": {"w0": ["p"], "w1": []},'
        ...                           ' "relations": {"a": [["w0", "w1"]]}, "actual": ["w0"]}')
        >>> m.satisfies("p & ~K_a p")
        True
        """
        from kop.semantics import model_json

        return model_json.model_from_json(cls, data, source)

    @classmethod
    def load(cls, path: str | Path) -> KripkeModel:
        """Read a model from a ``kop-model/1`` JSON file."""
        from kop.semantics import model_json

        return cls.from_json(model_json.read_text(path), source=str(path))

    def to_json(self) -> dict[str, Any]:
        """The model in the JSON format ``kop-model/1`` (a dict ready for ``json.dump``)."""
        val: list[list[str]] = [[] for _ in range(self._n)]
        if self._bits is not None:
            for p, mask in sorted(self._bits.atoms.items()):
                for i in _members(mask):
                    val[i].append(p)
        else:
            import numpy as np

            for p in sorted(self._atoms):
                for i in np.flatnonzero(self._atoms[p]).tolist():
                    val[i].append(p)
        doc = {
            "format": FORMAT,
            "agents": list(self._agents),
            "worlds": {w: val[i] for i, w in enumerate(self.worlds)},
            "relations": {a: [list(b) for b in self.partition(a)] for a in self._agents},
            "actual": list(self.actual),
        }
        if self._unc:
            doc.update(self._unc.to_json(self.worlds))
        return doc

    def save(self, path: str | Path) -> None:
        """Write the model to *path* as ``kop-model/1`` JSON."""
        from kop.semantics.model_json import dumps

        Path(path).write_text(dumps(self.to_json()) + "\n", encoding="utf-8")

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
        """The position of *world* in :attr:`worlds`."""
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
        """The atoms true at *world*."""
        i = self.index(world)
        if self._bits is not None:
            return frozenset(p for p, mask in self._bits.atoms.items() if mask >> i & 1)
        return frozenset(p for p, v in self._atoms.items() if v[i])

    def block(self, agent: str, world: str) -> frozenset[str]:
        """The worlds that *agent* cannot tell apart from *world* (including itself)."""
        ids = self._ids_list(self._agent(agent))
        i = self.index(world)
        w = self.worlds
        return frozenset(w[j] for j, b in enumerate(ids) if b == ids[i])

    def partition(self, agent: str) -> tuple[tuple[str, ...], ...]:
        """*agent*'s partition: its blocks, each in world order, ordered by first world."""
        ids = self._ids_list(self._agent(agent))
        groups: dict[int, list[str]] = {}
        for w, b in zip(self.worlds, ids):
            groups.setdefault(b, []).append(w)
        return tuple(tuple(g) for g in groups.values())

    def block_ids(self, agent: str) -> np.ndarray:
        """*agent*'s block id per world (read-only; equal ids = indistinguishable)."""
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

    # -- model checking ----------------------------------------------------------
    def truth_mask(self, phi: Formula | str) -> np.ndarray:
        """Where *phi* holds, as a read-only boolean vector over :attr:`worlds`."""
        from kop.semantics.checker import truth_vector

        return truth_vector(self, _formula(phi))

    def truth_set(self, phi: Formula | str) -> frozenset[str]:
        """The worlds where *phi* holds.

        Examples
        --------
        >>> m = KripkeModel({"u": ["p"], "v": []}, {"a": [["u"], ["v"]]})
        >>> m.truth_set("K_a p")
        frozenset({'u'})
        """
        phi = _formula(phi)
        w = self.worlds
        if self._small():
            from kop.semantics.bitset_checker import truth_bits

            return frozenset(w[i] for i in _members(truth_bits(self, phi)))
        import numpy as np

        return frozenset(w[i] for i in np.flatnonzero(self.truth_mask(phi)).tolist())

    def satisfies(self, phi: Formula | str, world: str | None = None) -> bool:
        """Whether *phi* holds at *world*, or at every designated world when *world* is None.

        Raises
        ------
        ModelError
            If *phi* names an agent the model lacks, *world* is unknown, or
            ``world=None`` and the model has no designated worlds (an empty
            model, or one whose designated worlds an update removed).
        """
        phi = _formula(phi)
        if world is None:
            actual = self._actual_list()
            if not actual:
                raise ModelError(self._no_designated())
            if self._small():
                from kop.semantics.bitset_checker import truth_bits

                bits = truth_bits(self, phi)
                return all(bits >> i & 1 for i in actual)
            mask = self.truth_mask(phi)
            return bool(mask[self._actual].all())
        i = self.index(world)
        if self._small():
            from kop.semantics.bitset_checker import truth_bits

            return bool(truth_bits(self, phi) >> i & 1)
        return bool(self.truth_mask(phi)[i])

    def _no_designated(self) -> str:
        why = f": {self.note}" if self.note else ""
        if self._n == 0:
            return f"the model is empty{why}; there is no designated world to check"
        return f"the model has no designated worlds{why}; name a world to check"

    # -- updates -----------------------------------------------------------------
    def restrict(self, worlds: Iterable[str] | np.ndarray, note: str | None = None) -> KripkeModel:
        """The submodel on *worlds* (names, or a boolean mask); designated = the surviving designated ones."""
        import numpy as np

        if isinstance(worlds, np.ndarray) and worlds.dtype == bool:
            if worlds.shape != (self._n,):
                raise ModelError(f"a world mask needs {self._n} entries, got shape {worlds.shape}")
            mask = worlds
        else:
            if isinstance(worlds, str):
                worlds = [worlds]
            mask = np.zeros(self._n, dtype=bool)
            for w in worlds:
                mask[self.index(w)] = True
        return self._restrict(mask, note)

    def _restrict(self, mask: np.ndarray, note: str | None) -> KripkeModel:
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
        out = KripkeModel._raw(names, self._agents, _Columns.select(self._blocks, keep), dict(self._nblocks),
                               _Columns.select(self._atoms, keep), actual, note)
        if self._unc:
            from kop.semantics.uncertainty import Uncertainty

            out._unc = Uncertainty.view(self._unc, keep)
        return out

    def _submodel(self, mask: np.ndarray) -> KripkeModel:
        """The restriction to *mask*, memoized (for evaluating announcements)."""
        if mask.all():
            return self
        key = mask.tobytes()
        sub = self._submodels.get(key)
        if sub is None:
            sub = self._submodels[key] = self._restrict(mask, None)
        return sub

    def announce(self, phi: Formula | str) -> KripkeModel:
        """The model after the public announcement of *phi*: the restriction to the *phi*-worlds.

        If *phi* is false everywhere, the result is the empty model (``is_empty``)
        with a :attr:`note` saying so; if it is false at every designated world,
        the result has no designated worlds.  Either way asking
        :meth:`satisfies` about the designated worlds then raises
        :class:`ModelError` with that note.

        Examples
        --------
        >>> m = KripkeModel({"w0": ["p"], "w1": []}, {"a": [["w0", "w1"]]}, "w0")
        >>> m.announce("p").satisfies("K_a p")
        True
        >>> m.announce("~p & p").is_empty
        True
        """
        phi = _formula(phi)
        if self._small():  # without numpy (see kop.semantics.bitset_checker)
            from kop.semantics.bitset_checker import truth_bits

            keep = truth_bits(self, phi)
            actual = self._actual_list()
            if not keep:
                note: str | None = f"the announcement {_show(phi)} is false at every world"
            elif actual and not any(keep >> i & 1 for i in actual):
                note = f"the announcement {_show(phi)} is false at every designated world"
            else:
                note = None
            return self._restrict_bits(keep, note)
        mask = self.truth_mask(phi)
        note = None
        if not mask.any():
            note = f"the announcement {_show(phi)} is false at every world"
        elif len(self._actual) and not mask[self._actual].any():
            note = f"the announcement {_show(phi)} is false at every designated world"
        return self._restrict(mask, note)

    def _restrict_bits(self, keep: int, note: str | None) -> KripkeModel:
        """The submodel on the worlds of the bit set *keep*, built as bit sets (block ids not renumbered)."""
        b = self._bitsets()
        positions = _members(keep)
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
        out = KripkeModel._with_bits(tuple(all_worlds[i] for i in positions), self._agents, dict(self._nblocks),
                                     bits, note)
        if self._unc:
            out._unc = bits.unc = self._unc.select(positions)
        return out

    def product_update(self, action: ActionModel, rename: Any = None) -> KripkeModel:
        """The product update with an action model; see :func:`kop.semantics.update.product_update`."""
        from kop.semantics.update import product_update

        self._no_uncertainty("the product update with an action model")
        return product_update(self, action, rename=rename)

    def generated_submodel(self) -> KripkeModel:
        """The submodel of the worlds reachable from the designated worlds (by any agents' steps)."""
        from kop.semantics.bisimulation import generated_submodel

        return generated_submodel(self)

    def minimize(self) -> KripkeModel:
        """The bisimulation contraction: one world per class of bisimilar worlds."""
        from kop.semantics.bisimulation import minimize

        self._no_uncertainty("the bisimulation contraction")
        return minimize(self)

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
        """*agent*'s plausibility rank of *world* (lower is more plausible; 0 for an agent without an order)."""
        self._agent(agent)
        i = self.index(world)
        ranks = self._unc.ranks.get(agent) if self._unc else None
        return 0 if ranks is None else ranks[i]

    def probability(self, agent: str, phi: Formula | str, world: str | None = None) -> Fraction:
        """*agent*'s probability of *phi* at *world* (default: the only designated world), exactly.

        The weight of the *phi*-worlds of *agent*'s cell divided by the weight
        of the cell (0 when the cell has no weight left after an announcement;
        see :mod:`kop.semantics.uncertainty`).

        Examples
        --------
        >>> m = KripkeModel({"u": ["p"], "v": [], "x": []}, {"a": [["u", "v", "x"]]}, "u",
        ...                 probability={"a": {"u": "1/2", "v": "1/4", "x": "1/4"}})
        >>> m.probability("a", "p"), m.announce("~p").probability("a", "true", "v")
        (Fraction(1, 2), Fraction(1, 1))
        """
        from fractions import Fraction

        phi = _formula(phi)
        if world is None:
            if len(self.actual) != 1:
                raise ModelError("name the world: the model has "
                                 f"{len(self.actual) or 'no'} designated worlds")
            world = self.actual[0]
        cell = self.block(agent, world)
        true_at = self.truth_set(phi)
        ints = self._unc.int_weights(agent) if self._unc else None
        weight = (lambda i: 1) if ints is None else ints.__getitem__
        total = sum(weight(self.index(w)) for w in cell)
        good = sum(weight(self.index(w)) for w in cell if w in true_at)
        return Fraction(good, total) if total else Fraction(0)

    def upgrade(self, phi: Formula | str, kind: str = "radical") -> KripkeModel:
        """The model after a public belief upgrade with *phi*: every agent's plausibility changes, no world goes.

        * ``"radical"`` (van Benthem's ⇑φ, the lexicographic upgrade): in every
          cell, every φ-world becomes more plausible than every ¬φ-world; within
          the two zones the old order stays.
        * ``"conservative"`` (↑φ): in every cell, the most plausible φ-worlds
          become the most plausible worlds; the rest of the order stays.

        Knowledge and probabilities do not change.  See ``docs/uncertainty.md``.

        Examples
        --------
        >>> m = KripkeModel({"u": ["p"], "v": []}, {"a": [["u", "v"]]}, "u", plausibility={"a": {"u": 1, "v": 0}})
        >>> m.satisfies("B_a ~p"), m.upgrade("p").satisfies("B_a p")
        (True, True)
        """
        from kop.semantics.uncertainty import Uncertainty

        if kind not in ("radical", "conservative"):
            raise ModelError(f"unknown upgrade {kind!r}: use 'radical' or 'conservative'")
        phi = _formula(phi)
        true_at = self.truth_set(phi)
        good = [w in true_at for w in self.worlds]
        unc = self._unc or Uncertainty({}, {})
        for a in self._agents:
            old = unc.ranks.get(a) or (0,) * self._n
            if kind == "radical":
                shift = (max(old) - min(old) + 1) if old else 0
                new = tuple(r if g else r + shift for r, g in zip(old, good))
            else:
                ids = self._ids_list(a)
                best: dict[int, int] = {}
                low: dict[int, int] = {}
                for b, r, g in zip(ids, old, good):
                    low[b] = min(low.get(b, r), r)
                    if g:
                        best[b] = min(best.get(b, r), r)
                new = tuple(low[b] - 1 if g and r == best[b] else r for b, r, g in zip(ids, old, good))
            unc = unc.with_ranks(a, new)
        out = self.with_actual(self.actual)
        if out._bits is not None:  # a model of its own: memoized truth sets depend on the ranks
            old_bits = out._bits
            out._bits = ModelBits(old_bits.n, old_bits.ids, old_bits.nblocks, old_bits.atoms, old_bits.actual)
        out._unc = unc
        if out._bits is not None:
            out._bits.unc = unc
        return out

    def with_actual(self, actual: str | Iterable[str] | None) -> KripkeModel:
        """The same model with other designated worlds (None = every world)."""
        if self._index is None:
            self._index = {w: i for i, w in enumerate(self.worlds)}
        positions = _actual_positions(actual, self._index)
        if self._bits is not None:
            b = self._bits
            out = KripkeModel._with_bits(self.worlds, self._agents, self._nblocks,
                                         ModelBits(b.n, b.ids, b.nblocks, b.atoms, positions))
        else:
            import numpy as np

            out = KripkeModel._raw(self.worlds, self._agents, self._blocks, self._nblocks, self._atoms,
                                   np.array(positions, dtype=np.int64), None)
        out._unc = self._unc
        return out

    @classmethod
    def _with_bits(cls, worlds: tuple[str, ...], agents: tuple[str, ...], nblocks: dict[str, int],
                   bits: ModelBits, note: str | None = None) -> KripkeModel:
        """A model from already validated bit sets (no checks)."""
        self = cls.__new__(cls)
        self._init(worlds, None, agents, None, nblocks, bits, note)
        return self

    # -- views ---------------------------------------------------------------------
    @property
    def graph(self) -> networkx.MultiGraph:
        """A fresh networkx view: nodes are worlds (attributes ``atoms``, ``actual``),
        one edge per agent and pair of distinct worlds it cannot tell apart
        (key and attribute ``agent``); the reflexive loops of S5 are left out."""
        return self.to_networkx()

    def to_networkx(self, loops: bool = False) -> networkx.MultiGraph:
        """The model as a networkx MultiGraph; *loops* adds each world's reflexive edges."""
        import networkx as nx

        g = nx.MultiGraph()
        actual = set(self.actual)
        for w in self.worlds:
            g.add_node(w, atoms=self.valuation(w), actual=w in actual)
        for a in self._agents:
            for block in self.partition(a):
                for i, u in enumerate(block):
                    if loops:
                        g.add_edge(u, u, key=a, agent=a)
                    for v in block[i + 1:]:
                        g.add_edge(u, v, key=a, agent=a)
        return g

    # -- comparison, display -------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        """Same worlds (in order), agents, valuation, partitions and designated worlds."""
        if not isinstance(other, KripkeModel):
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

    def _repr_svg_(self) -> str | None:
        """The picture in Jupyter (:func:`kop.semantics.draw.draw_model`); None without matplotlib."""
        from kop.semantics.draw import draw_model, repr_svg

        return repr_svg(draw_model, self)

    def draw(self, file: str | Path | None = None, **options: Any) -> Any:
        """Draw the model (:func:`kop.semantics.draw.draw_model`); save it to *file* when given.

        Returns the matplotlib Figure.  Needs the ``draw`` extra (matplotlib).
        """
        from kop.semantics.draw import draw_model, save_figure

        fig = draw_model(self, **options)
        if file is not None:
            save_figure(fig, file)
        return fig

    def __repr__(self) -> str:
        extra = f", note={self.note!r}" if self.note else ""
        return f"KripkeModel(worlds={self._n}, agents={self._agents!r}, actual={self.actual!r}{extra})"


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


def _members(mask: int) -> list[int]:
    """The positions of the set bits of *mask*, in increasing order."""
    out = []
    for k, byte in enumerate(mask.to_bytes((mask.bit_length() + 7) // 8, "little")):
        if byte:
            base = k * 8
            for j in range(8):
                if byte >> j & 1:
                    out.append(base + j)
    return out


def _is_ndarray(x: object) -> bool:
    """Whether *x* is a numpy array (without importing numpy: an array means numpy is loaded)."""
    np_ = sys.modules.get("numpy")
    return np_ is not None and isinstance(x, np_.ndarray)


# -- lazily restricted columns ---------------------------------------------------------

class _Names:
    """The world names of a restricted model: a tuple of names and the positions kept."""

    __slots__ = ("names", "keep")

    def __init__(self, names: tuple[str, ...], keep: np.ndarray):
        self.names, self.keep = names, keep

    def __len__(self) -> int:
        return len(self.keep)


class _Columns(Mapping):
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

    def __iter__(self):
        return iter(self._source)

    def __len__(self) -> int:
        return len(self._source)


# -- reading the constructor's arguments ---------------------------------------------

def _formula(phi: Formula | str) -> Formula:
    if isinstance(phi, Formula):
        return phi
    if isinstance(phi, str):
        from kop.syntax.parser import parse

        return parse(phi)
    raise TypeError(f"expected a formula or a string, not {type(phi).__name__}")


def _show(phi: Formula) -> str:
    from kop.syntax.printer import to_ascii

    text = to_ascii(phi)
    return repr(text if len(text) <= 80 else text[:77] + "...")


def _read_worlds(worlds: Any) -> tuple[list[str], list[Iterable[str]]]:
    if isinstance(worlds, Mapping):
        names = list(worlds.keys())
        atom_lists = []
        for w in names:
            atoms = worlds[w]
            if isinstance(atoms, str) or not isinstance(atoms, Iterable):
                raise ModelError(f"world {w!r}: its atoms must be a list of atom names, "
                                 f"not {type(atoms).__name__}")
            atom_lists.append(atoms)
    elif isinstance(worlds, str) or not isinstance(worlds, Iterable):
        raise ModelError(f"worlds must be a mapping from world names to atoms, or a list of names, "
                         f"not {type(worlds).__name__}")
    else:
        names = list(worlds)
        atom_lists = [()] * len(names)
    for w in names:
        if not isinstance(w, str) or not w:
            raise ModelError(f"world names must be non-empty strings, not {w!r}")
    return names, atom_lists


def _index_of(names: list[str]) -> dict[str, int]:
    index: dict[str, int] = {}
    for i, w in enumerate(names):
        if w in index:
            raise ModelError(f"duplicate world name {w!r} (worlds {index[w]} and {i})")
        index[w] = i
    return index


def _read_agents(agents: Iterable[str] | None, partitions: Mapping[str, Any]) -> tuple[str, ...]:
    if agents is None:
        names = tuple(partitions.keys())
    else:
        if isinstance(agents, str):
            agents = [agents]
        names = tuple(agents)
    seen: set[str] = set()
    for a in names:
        if not isinstance(a, str) or not AGENT_RE.fullmatch(a):
            raise ModelError(f"invalid agent name {a!r}: use letters, digits and underscores")
        if a in seen:
            raise ModelError(f"agent {a!r} is listed twice")
        seen.add(a)
    for a in partitions:
        if a not in seen:
            raise ModelError(f"a partition is given for agent {a!r}, which is not among the agents "
                             f"({', '.join(repr(x) for x in names) or 'none'})")
    for a in names:
        if a not in partitions:
            raise ModelError(f"agent {a!r} has no partition")
    return names


def _check_atom(p: object, world: str | None) -> None:
    where = f"world {world!r}: " if world is not None else ""
    if not isinstance(p, str) or not ATOM_RE.fullmatch(p):
        raise ModelError(f"{where}invalid atom name {p!r}: start with a letter, then letters, digits, '_'")
    if is_reserved_atom(p):
        raise ModelError(f"{where}{p!r} cannot be an atom name: it reads as an operator or a constant")


def _read_partition(agent: str, part: Any, names: list[str], index: dict[str, int],
                    noun: str = "world") -> tuple[np.ndarray, int]:
    """As :func:`_partition_ids`, the block ids as an int64 array."""
    import numpy as np

    ids, nb = _partition_ids(agent, part, names, index, noun)
    return np.array(ids, dtype=np.int64), nb


def _partition_ids(agent: str, part: Any, names: list[str], index: dict[str, int],
                   noun: str = "world") -> tuple[list[int], int]:
    """Block ids from a list of blocks or a mapping name -> label; errors name the agent and the *noun*."""
    n = len(names)
    if _is_ndarray(part):
        arr, nb = _block_id_array(agent, part, n)
        return arr.tolist(), nb
    ids = [-1] * n
    if isinstance(part, Mapping):
        labels: dict[Any, int] = {}
        for w, label in part.items():
            i = index.get(w) if isinstance(w, str) else None
            if i is None:
                raise ModelError(f"agent {agent!r}: the partition names unknown {noun} {w!r}")
            try:
                ids[i] = labels.setdefault(label, len(labels))
            except TypeError:
                raise ModelError(f"agent {agent!r}: {noun} {w!r} has an unhashable block label {label!r}") from None
        nb = len(labels)
    elif isinstance(part, str) or not isinstance(part, Iterable):
        raise ModelError(f"agent {agent!r}: a partition must be a list of blocks (lists of {noun} names), "
                         f"not {type(part).__name__}")
    else:
        nb = 0
        for k, block in enumerate(part):
            if isinstance(block, str) or not isinstance(block, Iterable):
                raise ModelError(f"agent {agent!r}: block {k} must be a list of {noun} names, not {block!r}")
            empty = True
            for w in block:
                empty = False
                i = index.get(w) if isinstance(w, str) else None
                if i is None:
                    raise ModelError(f"agent {agent!r}: block {k} names unknown {noun} {w!r}")
                if ids[i] >= 0:
                    if ids[i] == k:
                        raise ModelError(f"agent {agent!r}: {noun} {w!r} is listed twice in block {k}")
                    raise ModelError(f"agent {agent!r}: {noun} {w!r} is in two blocks ({ids[i]} and {k}); "
                                     "blocks of a partition must not overlap")
                ids[i] = k
            if empty:
                raise ModelError(f"agent {agent!r}: block {k} is empty")
            nb = k + 1
    missing = [i for i, b in enumerate(ids) if b < 0]
    if missing:
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        raise ModelError(f"agent {agent!r}: {noun} {names[missing[0]]!r} is in no block of the partition{more}")
    return ids, nb


def _block_id_array(agent: str, part: Any, n: int) -> tuple[np.ndarray, int]:
    import numpy as np

    arr = np.asarray(part)
    if arr.shape != (n,):
        raise ModelError(f"agent {agent!r}: expected {n} block ids, one per world, got shape {arr.shape}")
    if n and (arr.dtype.kind not in "iub" or arr.min() < 0):
        raise ModelError(f"agent {agent!r}: block ids must be non-negative integers")
    arr = arr.astype(np.int64)
    return arr, (int(arr.max()) + 1 if n else 0)


def _read_uncertainty(plausibility: Any, probability: Any, names: list[str], index: dict[str, int],
                      agents: tuple[str, ...], ids: Mapping[str, Any]) -> Uncertainty | None:
    if plausibility is None and probability is None:
        return None
    from kop.semantics.uncertainty import read_uncertainty

    return read_uncertainty(plausibility, probability, names, index, agents, ids)


def _read_actual(actual: Any, index: dict[str, int], n: int) -> np.ndarray:
    """As :func:`_actual_positions`, as an int64 array."""
    import numpy as np

    return np.array(_actual_positions(actual, index), dtype=np.int64)


def _actual_positions(actual: Any, index: dict[str, int]) -> list[int]:
    """The positions of the designated worlds *actual* (None: every world), each once."""
    if actual is None:
        return list(range(len(index)))
    if isinstance(actual, str):
        actual = [actual]
    out: list[int] = []
    for w in actual:
        i = index.get(w) if isinstance(w, str) else None
        if i is None:
            raise ModelError(f"designated world {w!r} does not exist")
        if i not in out:
            out.append(i)
    return out
