"""Reading and writing game trees: the ``kop-tree/1`` JSON format and Gambit ``.efg``.

``load_tree(path)`` picks the format by extension (``.json`` or ``.efg``);
``loads_tree(text)`` and ``dumps_tree(tree)`` work on JSON text.  The JSON
format is documented in ``docs/formats.md`` and described by the JSON Schema
``kop/schemas/tree.schema.json``.  Reading and writing are iterative, so a tree
of any depth round-trips; errors name the file, and the line and column or the
node path at fault.

Example
-------
>>> import kop
>>> t = kop.figure2()
>>> kop.loads_tree(kop.dumps_tree(t)) == t
True
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from kop.games.errors import TreeError
from kop.games.trees.tree import CHANCE, LEAF, SIMULTANEOUS, GameTree, format_number
from kop.syntax import arguments
from kop.errors import KopError
from kop.io.efg import dumps_efg, loads_efg, read_efg_file
from kop.io.treejson import loads_tree_json
from kop.syntax.files import read_text

__all__ = ["load_tree", "loads_tree", "dumps_tree", "save_tree"]

_MAX_INDENT = 40


def loads_tree(text: str) -> GameTree:
    """A tree from ``kop-tree/1`` JSON text (errors located by line and column, or node path).

    Parameters
    ----------
    text : str
        A kop-tree/1 JSON document.

    Returns
    -------
    GameTree
        The tree.

    Examples
    --------
    >>> import kop
    >>> kop.loads_tree(kop.dumps_tree(kop.figure2())) == kop.figure2()
    True
    >>> try:
    ...     kop.loads_tree('{"format": "kop-tree/1", "players": ["A"], "root": {"player": "Z", '
    ...                    '"children": [{"payoff": [1]}]}}')
    ... except kop.TreeError as err:
    ...     print(err)
    root: unknown player 'Z' (players A)
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise arguments.fail("text", "kop-tree/1 JSON text (a str; load_tree reads a file)", text)
    return loads_tree_json(text)


def load_tree(path: str | os.PathLike[str]) -> GameTree:
    """A tree from a ``.json`` (kop-tree/1) or ``.efg`` (Gambit) file.

    Parameters
    ----------
    path : str or os.PathLike
        A ``.json`` (kop-tree/1) or ``.efg`` file.

    Returns
    -------
    GameTree
        The tree; errors are located (file, line and column, or node path).

    Examples
    --------
    >>> import kop, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "figure2.json")
    >>> kop.save_tree(kop.figure2(), path)
    >>> kop.load_tree(path) == kop.figure2()
    True
    """
    p = Path(arguments.path(path, "path"))
    if p.suffix.lower() == ".kop":
        raise TreeError(f"{p} is a theory file, not a game tree: run a theory with 'kop run' (its questions), "
                        "'kop dominates' (which strategy dominates) or 'kop match'")
    if not p.exists() and not p.is_symlink():
        raise TreeError(f"{p}: no such file")
    try:
        if p.suffix.lower() == ".efg":  # first a piece at a time, the text never held whole
            tree = read_efg_file(p)
            if tree is not None:
                return tree
        # the guarded reader: regular files only, within the size cap (kop.syntax.files)
        text = read_text(p, what="tree file")
    except KopError as exc:
        raise TreeError(str(exc)) from None
    try:
        if p.suffix.lower() == ".efg" or (p.suffix.lower() != ".json" and text.lstrip().startswith("EFG")):
            return loads_efg(text)
        return loads_tree(text)
    except TreeError as exc:
        raise type(exc)(f"{p}: {exc}") from None


def save_tree(tree: GameTree, path: str | os.PathLike[str]) -> None:
    """Write *tree* as ``.json`` or ``.efg`` (by extension).

    Parameters
    ----------
    tree : GameTree
        The game tree.
    path : str or os.PathLike
        Ending in ``.json`` (kop-tree/1) or ``.efg`` (Gambit).

    Examples
    --------
    >>> import kop, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "figure2.efg")
    >>> kop.save_tree(kop.figure2(), path)
    >>> kop.load_tree(path) == kop.figure2()
    True
    """
    arguments.instance(tree, GameTree, "tree", "a GameTree")
    p = Path(arguments.path(path, "path"))
    if p.suffix.lower() == ".efg":
        p.write_text(dumps_efg(tree), encoding="utf-8")
    else:
        p.write_text(dumps_tree(tree), encoding="utf-8")


def _num(x: float, integral: bool) -> str:
    return json.dumps(format_number(x, integral))


def dumps_tree(tree: GameTree) -> str:
    """``kop-tree/1`` JSON text of *tree*, one node per line.

    Parameters
    ----------
    tree : GameTree
        The game tree.

    Returns
    -------
    str
        The kop-tree/1 JSON document (``docs/formats.md``).

    Examples
    --------
    >>> import kop
    >>> print(kop.dumps_tree(kop.GameTree.build(["A", "B"], ("A", [(1, 2), (3, 4)]))))
    {"format": "kop-tree/1",
     "players": [{"name": "A", "goal": "max"}, {"name": "B", "goal": "min"}],
     "root":
     {"player": "A", "children": [
      {"payoff": [1, 2]},
      {"payoff": [3, 4]}
     ]}
    }
    <BLANKLINE>
    """
    arguments.instance(tree, GameTree, "tree", "a GameTree")
    players = ", ".join(json.dumps({"name": p.name, "goal": p.goal}) for p in tree.players)
    parts = ['{"format": "kop-tree/1",\n "players": [', players, '],\n "root":\n']
    kind, offsets, probs = tree.kind, tree.offsets, tree.probs
    rows = tree.leaf_rows()
    stack: list[tuple[int, int] | str] = [(0, 0)]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
            continue
        i, depth = item
        pad = " " * min(depth + 1, _MAX_INDENT)
        fields = []
        if i in tree.moves:
            fields.append(f'"move": {json.dumps(tree.moves[i])}')
        if i in tree.labels:
            fields.append(f'"label": {json.dumps(tree.labels[i])}')
        k = int(kind[i])
        if k == LEAF:
            pay = ", ".join(_num(x, tree.integral) for x in tree.payoffs[rows[i]])
            fields.append(f'"payoff": [{pay}]')
            parts.append(pad + "{" + ", ".join(fields) + "}")
            continue
        lo, hi = int(offsets[i]), int(offsets[i + 1])
        if k == SIMULTANEOUS:
            who, dims = tree.simultaneous[i]
            names = ", ".join(json.dumps(tree.players[w].name) for w in who)
            parts.append(pad + "{" + ", ".join([*fields, f'"simultaneous": {{"players": [{names}], "children": ']))
            stack.extend(reversed(_joint_tokens(lo, dims, depth + 1)))
            continue
        if k == CHANCE:
            assert probs is not None
            fields.append(f'"chance": [{", ".join(repr(float(p)) for p in probs[lo:hi])}]')
        else:
            fields.append(f'"player": {json.dumps(tree.players[k].name)}')
        parts.append(pad + "{" + ", ".join(fields) + ', "children": [\n')
        stack.append("\n" + pad + "]}")
        for c in range(hi - 1, lo - 1, -1):
            stack.append((c, depth + 1))
            if c > lo:
                stack.append(",\n")
    parts.append("\n}\n")
    return "".join(parts)


def _joint_tokens(first: int, dims: tuple[int, ...], depth: int) -> list[tuple[int, int] | str]:
    """The nested lists of a simultaneous node's children (row-major from *first*), closing it."""
    out: list[tuple[int, int] | str] = []
    size = 1
    for d in dims:
        size *= d

    def block(start: int, level: int) -> None:
        out.append("[")
        if level == len(dims) - 1:
            for k in range(dims[level]):
                out.append("\n" if k == 0 else ",\n")
                out.append((start + k, depth))
        else:
            step = 1
            for d in dims[level + 1:]:
                step *= d
            for k in range(dims[level]):
                if k:
                    out.append(", ")
                block(start + k * step, level + 1)
        out.append("]")

    block(first, 0)
    out.append("}}")
    return out
