"""Models by observation over numbers: variables with ranges, a condition, and observed values.

::

    model {
      number x in 2..98
      number y in 3..98
      where x < y and x + y <= 100
      observes S value x + y
      observes P value x * y
    }

The worlds are the assignments that satisfy every ``where``; an agent cannot
tell apart worlds where what it observes (a variable, or the value of an
expression) is the same.  Formulas speak of the numbers through their binary
digits: atom ``x0`` is the lowest bit of x, ``x1`` the next, and so on, so
"P knows the numbers" is ``Kw_P x0 & Kw_P x1 & ...``.  A world is named by
its values (``x4y13``).  Expressions are integers with ``+ - * // % < <= = !=
>= > and or not`` and parentheses (``/`` is integer division): nothing in a
theory runs code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from kop.errors import KopError
from kop.theory.source import Position
from kop.semantics.model import KripkeModel
from kop.syntax.grammar_cache import lalr_parser

if TYPE_CHECKING:  # pragma: no cover
    from lark import Lark, Token, Tree

    from kop.semantics.model import KripkeModel
    from kop.theory.model import ObservationSpec

__all__ = ["build_number_model", "MAX_ASSIGNMENTS", "MAX_RANGE"]

#: The most assignments (product of the ranges) a model over numbers enumerates.
MAX_ASSIGNMENTS = 2_000_000
#: The largest absolute value in a range.
MAX_RANGE = 10**9


def _parser() -> Lark:

    return lalr_parser("arith", propagate_positions=True)


def _parse(text: str, at: Position) -> Tree[Token]:
    from lark.exceptions import UnexpectedInput

    try:
        return _parser().parse(text.strip())
    except UnexpectedInput as exc:
        lead = len(text) - len(text.lstrip())
        col = at.column + lead + (exc.column or 1) - 1
        found = text.strip()[(exc.column or 1) - 1:].split(" ")[0]
        raise Position(at.text, at.line, col, at.file).error(
            "in an expression: expected a number, a variable, an operator (+ - * / % < <= = != >= > and or not) "
            "or parentheses", found) from None


def _eval(node: Tree[Token] | Token, env: dict[str, np.ndarray], at: Position, n: int) -> np.ndarray:
    from lark import Token

    if isinstance(node, Token):  # pragma: no cover - the grammar wraps every token
        raise at.error(f"unexpected {node!r}")
    kind = node.data
    kids = node.children
    if kind == "int_":
        return np.full(n, int(str(kids[0])), dtype=object)
    if kind == "var":
        name = str(kids[0])
        if name not in env:
            raise at.error(f"unknown variable {name!r} (declared: {', '.join(env) or 'none'})", name)
        return env[name]
    result: np.ndarray
    if kind == "neg_":
        result = -_eval(kids[0], env, at, n)
        return result
    if kind == "not_":
        result = ~_truth(_eval(kids[0], env, at, n), at)
        return result
    if kind in ("and_", "or_"):
        a = _truth(_eval(kids[0], env, at, n), at)
        b = _truth(_eval(kids[1], env, at, n), at)
        result = (a & b) if kind == "and_" else (a | b)
        return result
    a = _eval(kids[0], env, at, n)
    op = str(kids[1])
    b = _eval(kids[2], env, at, n)
    if kind == "cmp":
        if a.dtype == bool or b.dtype == bool:
            raise at.error("a comparison needs numbers on both sides")
        result = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal, "=": np.equal,
                  "==": np.equal, "!=": np.not_equal}[op](a, b).astype(bool)
        return result
    if a.dtype == bool or b.dtype == bool:
        raise at.error(f"'{op}' needs numbers, not truth values")
    if op in ("/", "//", "%"):
        if np.any(b == 0):
            raise at.error(f"division by zero in '{op}'", op)
        result = a // b if op != "%" else a % b
        return result
    out: np.ndarray = a + b if op == "+" else a - b if op == "-" else a * b
    if len(out) and max(abs(int(out.max())), abs(int(out.min()))) > 10**30:
        raise at.error("an expression's value exceeds 10^30")
    return out


def _truth(x: np.ndarray, at: Position) -> np.ndarray:
    if x.dtype != bool:
        raise at.error("expected a condition (a comparison), not a number")
    return x


def _bit_count(lo: int, hi: int) -> int:
    return max(1, max(abs(lo), abs(hi)).bit_length())


def number_atoms(spec: ObservationSpec) -> frozenset[str]:
    """The atoms a ``model { number ... }`` block declares: each number's bits and its sign.

    >>> from kop.theory.model import ObservationSpec
    >>> sorted(number_atoms(ObservationSpec((), (), (), (), None, None, numbers=(("x", 0, 5, None),))))
    ['x0', 'x1', 'x2', 'x_negative']
    """
    return frozenset(f"{v}{b}" for v, lo, hi, _ in spec.numbers for b in range(_bit_count(lo, hi))) | \
        frozenset(f"{v}_negative" for v, _, _, _ in spec.numbers)


def build_number_model(spec: ObservationSpec) -> KripkeModel:
    """The Kripke model of a ``model { number ... }`` block."""

    names = [v for v, _, _, _ in spec.numbers]
    total = _check_numbers(spec, names)
    env, n = _assignments(spec, names, total)
    world_names = ["".join(f"{v}{env[v][i]}" for v in names) for i in range(n)]
    if len(set(world_names)) != n:
        world_names = ["_".join(f"{v}{env[v][i]}" for v in names) for i in range(n)]
    worlds = _valuation(spec, names, env, world_names)
    partitions = _partitions(spec, env, world_names, n)
    actual = _actual(spec, worlds)
    try:
        return KripkeModel(worlds, partitions, actual=actual if actual is not None else list(worlds),
                           agents=list(partitions))
    except KopError as exc:
        raise spec.pos.error(str(exc)) from None


def _check_numbers(spec: ObservationSpec, names: list[str]) -> int:
    """The number of assignments of the declared numbers, after checking each declaration."""
    if len(set(names)) != len(names):
        dup = next(v for v in names if names.count(v) > 1)
        raise spec.numbers[names.index(dup)][3].error(f"variable {dup!r} is declared twice", dup)
    total = 1
    for v, lo, hi, at in spec.numbers:
        if not isinstance(lo, int) or not isinstance(hi, int):
            raise at.error("a range is of whole numbers: number x in 1..9", v)
        if lo > hi:
            raise at.error(f"the range {lo}..{hi} of {v} is empty", v)
        if max(abs(lo), abs(hi)) > MAX_RANGE:
            raise at.error(f"a range may not pass {MAX_RANGE} in absolute value", v)
        total *= hi - lo + 1
        if total > MAX_ASSIGNMENTS:
            raise at.error(f"more than {MAX_ASSIGNMENTS} assignments of the numbers", v)
    return total


def _assignments(spec: ObservationSpec, names: list[str], total: int) -> tuple[dict[str, np.ndarray], int]:
    """Each number's column over the assignments that satisfy every ``where``, and their count."""
    grids = np.meshgrid(*[np.arange(lo, hi + 1, dtype=np.int64) for _, lo, hi, _ in spec.numbers], indexing="ij")
    env = {v: g.reshape(-1).astype(object) for v, g in zip(names, grids)}
    keep = np.ones(total, dtype=bool)
    for text, at in spec.wheres:
        keep &= _truth(_eval(_parse(text, at), env, at, total), at)
    env = {v: col[keep] for v, col in env.items()}
    n = int(keep.sum())
    if n == 0:
        raise spec.pos.error("no assignment satisfies the conditions: the model would have no worlds")
    return env, n


def _valuation(spec: ObservationSpec, names: list[str], env: dict[str, np.ndarray],
               world_names: list[str]) -> dict[str, list[str]]:
    """Each world's true atoms: the bits of each number (``x0``, ``x1``, ...) and ``x_negative``."""
    bits = {v: _bit_count(lo, hi) for v, lo, hi, _ in spec.numbers}
    worlds: dict[str, list[str]] = {}
    for i, w in enumerate(world_names):
        worlds[w] = [f"{v}{b}" for v in names for b in range(bits[v]) if int(env[v][i]) >> b & 1] + \
                    [f"{v}_negative" for v in names if int(env[v][i]) < 0]
    return worlds


def _partitions(spec: ObservationSpec, env: dict[str, np.ndarray], world_names: list[str],
                n: int) -> dict[str, list[list[str]]]:
    """Each agent's partition: the worlds where what it observes has the same value."""
    partitions: dict[str, list[list[str]]] = {}
    for agent, text, at in spec.observes_values:
        if agent in partitions:
            raise at.error(f"what {agent} observes is given twice", agent)
        values = _eval(_parse(text, at), env, at, n)
        groups: dict[Any, list[str]] = {}
        for i, w in enumerate(world_names):
            groups.setdefault(values[i] if values.dtype != bool else bool(values[i]), []).append(w)
        partitions[agent] = list(groups.values())
    if not partitions:
        raise spec.pos.error("a model over numbers needs at least one agent: observes S value x + y")
    return partitions


def _actual(spec: ObservationSpec, worlds: dict[str, list[str]]) -> list[str] | None:
    """The actual world named by its values (``actual x4y13``), or None."""
    if spec.actual is None:
        return None
    want = "".join(spec.actual)
    if want not in worlds:
        raise spec.pos.error(f"the actual world {want!r} is not among the worlds (name it by its values, "
                             "e.g. actual x4y13)", want)
    return [want]
