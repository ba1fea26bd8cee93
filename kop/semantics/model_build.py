"""Building Kripke models: reading and checking the constructor's arguments.

The functions here turn what a user passes to
:class:`~kop.semantics.model.KripkeModel` (world names and their atoms, each
agent's partition, the designated worlds, plausibility and probability) into
the integer block ids and bit sets a model holds, with an error that names the
agent and the world at fault.  :func:`from_arrays` builds a model from numpy
arrays.  :class:`~kop.semantics.update.ActionModel` reads its events with the
same functions.

Example
-------
>>> names, atoms = read_worlds({"w0": ["p"], "w1": []})
>>> index = index_of(names)
>>> partition_ids("a", [["w0", "w1"]], names, index)
([0, 0], 1)
>>> partition_ids("a", [["w0"]], names, index)
Traceback (most recent call last):
...
kop.errors.ModelError: agent 'a': world 'w1' is in no block of the partition
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from kop.semantics.errors import ModelError
from kop.semantics.uncertainty import Uncertainty, read_uncertainty as _read_uncertainty
from kop.syntax import arguments
from kop.syntax.formula import AGENT_RE, ATOM_RE, Formula, is_reserved_atom
from kop.syntax.printer import to_ascii

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from kop.semantics.model_value import ModelValue

    M = TypeVar("M", bound=ModelValue)

__all__ = ["as_formula", "show_formula", "read_worlds", "index_of", "read_agents", "check_atom", "read_partition",
           "partition_ids", "block_id_array", "read_uncertainty", "read_actual", "actual_positions", "from_arrays"]


def from_arrays(cls: type[M], worlds: Iterable[str] | int, partitions: Mapping[str, Any],
                valuation: Mapping[str, Any] | None = None, actual: str | Iterable[str] | None = None,
                agents: Iterable[str] | None = None, *, plausibility: Mapping[str, Any] | None = None,
                probability: Mapping[str, Any] | None = None) -> M:
    """A model of class *cls* from numpy arrays (see :meth:`KripkeModel.from_arrays
    <kop.semantics.model.KripkeModel.from_arrays>`, which documents the parameters).

    Examples
    --------
    >>> from kop import KripkeModel
    >>> from_arrays(KripkeModel, 2, {"a": [0, 0]}, {"p": [True, False]}).truth_set("p")
    frozenset({'w0'})
    """
    import numpy as np

    if isinstance(worlds, (int, np.integer)):
        names = [f"w{i}" for i in range(int(worlds))]
    elif isinstance(worlds, Mapping):
        raise ModelError("from_arrays takes the world names (or their number) and the valuation as arrays; "
                         "for a mapping world -> atoms use KripkeModel(...)")
    else:
        names = read_worlds(list(worlds))[0]
    index = index_of(names)
    n = len(names)
    if not isinstance(partitions, Mapping):
        raise ModelError(f"partitions must map each agent to an array of block ids, not {type(partitions).__name__}")
    agent_names = read_agents(agents, partitions)
    blocks: dict[str, np.ndarray] = {}
    nblocks: dict[str, int] = {}
    for a in agent_names:
        blocks[a], nblocks[a] = block_id_array(a, partitions[a], n)
    atoms: dict[str, np.ndarray] = {}
    if valuation is not None and not isinstance(valuation, Mapping):
        raise ModelError(f"the valuation must map each atom to its truth values, not {type(valuation).__name__}")
    for p, vec in (valuation or {}).items():
        check_atom(p, None)
        arr = np.asarray(vec)
        if arr.shape != (n,):
            raise ModelError(f"atom {p!r}: expected {n} truth values, one per world, got shape {arr.shape}")
        if arr.dtype != bool:
            if not np.isin(arr, (0, 1)).all():
                raise ModelError(f"atom {p!r}: truth values must be booleans")
            arr = arr.astype(bool)
        atoms[p] = arr.copy()
    actual_idx = read_actual(actual, index, n)
    unc = None
    if plausibility is not None or probability is not None:
        unc = read_uncertainty(plausibility, probability, names, index, agent_names,
                               {a: ids.tolist() for a, ids in blocks.items()})
    return cls._raw(tuple(names), agent_names, blocks, nblocks, atoms, actual_idx, None, index=index, unc=unc)


def as_formula(phi: Formula | str, name: str = "phi") -> Formula:
    """*phi*, parsed when it is a string; anything else is an :class:`~kop.errors.ArgumentError` naming *name*."""
    f: Formula = arguments.formula(phi, name)
    return f


def show_formula(phi: Formula) -> str:
    """*phi* in ASCII, quoted, cut at 80 characters (for notes and messages)."""
    text = to_ascii(phi)
    return repr(text if len(text) <= 80 else text[:77] + "...")


def read_worlds(worlds: object) -> tuple[list[str], list[Iterable[str]]]:
    """The world names and each world's atoms, from a mapping name -> atoms or a list of names."""
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


def index_of(names: list[str]) -> dict[str, int]:
    """Each name's position; a duplicate name is an error."""
    index: dict[str, int] = {}
    for i, w in enumerate(names):
        if w in index:
            raise ModelError(f"duplicate world name {w!r} (worlds {index[w]} and {i})")
        index[w] = i
    return index


def read_agents(agents: Iterable[str] | None, partitions: Mapping[str, Any]) -> tuple[str, ...]:
    """The agents (default: the keys of *partitions*), checked: valid names, each once, each with a partition."""
    if agents is None:
        names = tuple(partitions.keys())
    else:
        if isinstance(agents, str):
            agents = [agents]
        elif not isinstance(agents, Iterable):
            raise ModelError(f"agents must be a list of agent names, not {agents!r}")
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


def check_atom(p: object, world: str | None) -> None:
    """Raise :class:`ModelError` unless *p* is a valid atom name (the message names *world* when given)."""
    where = f"world {world!r}: " if world is not None else ""
    if not isinstance(p, str) or not ATOM_RE.fullmatch(p):
        raise ModelError(f"{where}invalid atom name {p!r}: start with a letter, then letters, digits, '_'")
    if is_reserved_atom(p):
        raise ModelError(f"{where}{p!r} cannot be an atom name: it reads as an operator or a constant")


def read_partition(agent: str, part: object, names: list[str], index: dict[str, int],
                    noun: str = "world") -> tuple[np.ndarray, int]:
    """As :func:`partition_ids`, the block ids as an int64 array."""
    import numpy as np

    ids, nb = partition_ids(agent, part, names, index, noun)
    return np.array(ids, dtype=np.int64), nb


def partition_ids(agent: str, part: object, names: list[str], index: dict[str, int],
                   noun: str = "world") -> tuple[list[int], int]:
    """Block ids from a list of blocks or a mapping name -> label; errors name the agent and the *noun*."""
    n = len(names)
    if is_ndarray(part):
        arr, nb = block_id_array(agent, part, n)
        return arr.tolist(), nb
    ids = [-1] * n
    if isinstance(part, Mapping):
        labels: dict[object, int] = {}
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


def block_id_array(agent: str, part: object, n: int) -> tuple[np.ndarray, int]:
    """An array of *n* block ids, checked, as int64, and a bound on the ids."""
    import numpy as np

    arr = np.asarray(part)
    if arr.shape != (n,):
        raise ModelError(f"agent {agent!r}: expected {n} block ids, one per world, got shape {arr.shape}")
    if n and (arr.dtype.kind not in "iub" or arr.min() < 0):
        raise ModelError(f"agent {agent!r}: block ids must be non-negative integers")
    arr = arr.astype(np.int64)
    return arr, (int(arr.max()) + 1 if n else 0)


def read_uncertainty(plausibility: object, probability: object, names: list[str], index: dict[str, int],
                      agents: tuple[str, ...], ids: Mapping[str, Sequence[int]]) -> Uncertainty | None:
    """The plausibility and probability arguments read (see :mod:`kop.semantics.uncertainty`); None when both are."""
    if plausibility is None and probability is None:
        return None
    return _read_uncertainty(plausibility, probability, names, index, agents, ids)


def read_actual(actual: object, index: dict[str, int], n: int) -> np.ndarray:
    """As :func:`actual_positions`, as an int64 array."""
    import numpy as np

    return np.array(actual_positions(actual, index), dtype=np.int64)


def is_ndarray(x: object) -> bool:
    """Whether *x* is a numpy array (without importing numpy: an array means numpy is loaded)."""
    np_ = sys.modules.get("numpy")
    return np_ is not None and isinstance(x, np_.ndarray)


def actual_positions(actual: object, index: dict[str, int]) -> list[int]:
    """The positions of the designated worlds *actual* (None: every world), each once."""
    if actual is None:
        return list(range(len(index)))
    if isinstance(actual, str):
        actual = [actual]
    elif not isinstance(actual, Iterable):
        raise ModelError(f"the designated worlds must be a world name or a list of names, not {actual!r}")
    out: list[int] = []
    for w in actual:
        i = index.get(w) if isinstance(w, str) else None
        if i is None:
            raise ModelError(f"designated world {w!r} does not exist")
        if i not in out:
            out.append(i)
    return out
