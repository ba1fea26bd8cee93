"""All satisfying assignments of a propositional formula (all-SAT).

The worlds of a model built from observations are the models of its *law*
(SMCDEL's knowledge structures; van Benthem, van Eijck, Gattinger & Su,
*Symbolic model checking for Dynamic Epistemic Logic*, 2015).  This module
lists them as rows of a boolean matrix.

Two back ends, chosen by cost:

* a vectorized truth table (numpy), evaluated in chunks, for formulas over few
  atoms;
* a SAT solver (python-sat, MiniSat 2.2) with blocking clauses, over a Tseitin
  encoding, for formulas over many atoms with comparatively few models.

Measured on this machine (2 cores, shared; CPU time, best of 3):

======================================  ===========  =========  ==========
law                                     truth table  SAT        sympy [1]_
======================================  ===========  =========  ==========
Russian cards (21 atoms, 140 models)    0.60 s       0.008 s    16 s
``x0 | ... | x15`` (65,535 models)      0.003 s      6.6 s      0.42 s
exactly one of 12 atoms (12 models)     0.001 s      0.001 s    0.009 s
======================================  ===========  =========  ==========

"auto" picks the truth table when (2^atoms x formula nodes) is at most
:data:`TABLE_BUDGET`, else the solver.  The solver costs about 0.1 ms per
model, so a law over more than ~22 atoms that also has hundreds of thousands
of models is slow to enumerate (a known limit; no such law occurs in the
puzzles).

.. [1] ``sympy.logic.inference.satisfiable(all_models=True)``, for comparison
   only; it is not used.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kop.syntax import formula as F
from kop.errors import KopError, LimitError

__all__ = ["propositional_models", "evaluate_rows", "TABLE_BUDGET"]

#: A truth table is used when (rows x formula nodes) is at most this.
TABLE_BUDGET = 1 << 27
_CHUNK_BITS = 16


def propositional_models(
    formula: F.Formula,
    atoms: Sequence[str],
    *,
    limit: int | None = None,
    method: str = "auto",
) -> np.ndarray:
    """The assignments to *atoms* that make the propositional *formula* true.

    Parameters
    ----------
    formula : Formula
        A propositional formula (no modal operators) whose atoms are among *atoms*.
    atoms : sequence of str
        The atoms to assign, in column order.
    limit : int, optional
        Raise :class:`~kop.errors.LimitError` if there are more models.
    method : {"auto", "table", "sat"}
        Force a back end; "auto" picks by estimated cost.

    Returns
    -------
    numpy.ndarray
        A ``(models, len(atoms))`` boolean matrix, rows in lexicographic order
        of the assignments (the first atom is the most significant; false < true).

    Example
    -------
    >>> from kop import parse
    >>> propositional_models(parse("p | q"), ["p", "q"]).astype(int).tolist()
    [[0, 1], [1, 0], [1, 1]]
    """
    atoms = list(atoms)
    if len(set(atoms)) != len(atoms):
        raise KopError("the atoms to enumerate contain duplicates")
    if not formula.is_propositional():
        raise KopError(f"the formula {formula} is not propositional")
    unknown = sorted(formula.atoms() - set(atoms))
    if unknown:
        raise KopError(f"the formula mentions atom(s) {', '.join(unknown)} outside the given atoms")
    n = len(atoms)
    if method == "auto":
        nodes = sum(1 for _ in formula.subformulas())
        method = "table" if n <= 40 and (1 << n) * nodes <= TABLE_BUDGET else "sat"
    if method == "table":
        return _by_table(formula, atoms, limit)
    if method == "sat":
        return _by_sat(formula, atoms, limit)
    raise ValueError(f"unknown method {method!r}: use 'auto', 'table' or 'sat'")


def evaluate_rows(formula: F.Formula, columns: dict[str, np.ndarray], rows: int) -> np.ndarray:
    """Evaluate a propositional formula on many assignments at once.

    *columns* maps each atom to a boolean vector of length *rows*.
    """
    values: dict[F.Formula, np.ndarray] = {}
    for f in formula.subformulas():
        if isinstance(f, F.Atom):
            v = columns[f.name]
        elif isinstance(f, F.Top):
            v = np.ones(rows, dtype=bool)
        elif isinstance(f, F.Bottom):
            v = np.zeros(rows, dtype=bool)
        elif isinstance(f, F.Not):
            v = ~values[f.arg]
        elif isinstance(f, F.And):
            v = values[f.args[0]].copy()
            for a in f.args[1:]:
                v &= values[a]
        elif isinstance(f, F.Or):
            v = values[f.args[0]].copy()
            for a in f.args[1:]:
                v |= values[a]
        elif isinstance(f, F.Implies):
            v = ~values[f.left] | values[f.right]
        elif isinstance(f, F.Iff):
            v = values[f.left] == values[f.right]
        else:
            raise KopError(f"{type(f).__name__} is not propositional")
        values[f] = v
    return values[formula]


def _by_table(formula: F.Formula, atoms: list[str], limit: int | None) -> np.ndarray:
    n = len(atoms)
    total = 1 << n
    chunk = min(total, 1 << _CHUNK_BITS)
    shifts = np.arange(n - 1, -1, -1, dtype=np.int64)
    found: list[np.ndarray] = []
    count = 0
    for start in range(0, total, chunk):
        idx = np.arange(start, start + chunk, dtype=np.int64)
        bits = ((idx[:, None] >> shifts[None, :]) & 1).astype(bool)
        mask = evaluate_rows(formula, {a: bits[:, j] for j, a in enumerate(atoms)}, chunk)
        rows = bits[mask]
        count += len(rows)
        if limit is not None and count > limit:
            raise LimitError(f"the formula has more than {limit} models over {n} atoms")
        found.append(rows)
    return np.concatenate(found) if found else np.zeros((0, n), dtype=bool)


def _tseitin(formula: F.Formula, var: dict[str, int]) -> tuple[int, list[list[int]]]:
    """A literal equivalent to *formula* and clauses defining the auxiliary variables."""
    clauses: list[list[int]] = []
    lit: dict[F.Formula, int] = {}
    top = [max(var.values(), default=0)]

    def fresh() -> int:
        top[0] += 1
        return top[0]

    true_var: list[int] = []

    def constant_true() -> int:
        if not true_var:
            true_var.append(fresh())
            clauses.append([true_var[0]])
        return true_var[0]

    for f in formula.subformulas():
        if isinstance(f, F.Atom):
            x = var[f.name]
        elif isinstance(f, F.Top):
            x = constant_true()
        elif isinstance(f, F.Bottom):
            x = -constant_true()
        elif isinstance(f, F.Not):
            x = -lit[f.arg]
        elif isinstance(f, (F.And, F.Or, F.Implies)):
            if isinstance(f, F.Implies):
                parts, is_and = [-lit[f.left], lit[f.right]], False
            else:
                parts, is_and = [lit[a] for a in f.args], isinstance(f, F.And)
            x = fresh()
            if is_and:  # x <-> AND parts
                clauses.extend([-x, p] for p in parts)
                clauses.append([x, *(-p for p in parts)])
            else:  # x <-> OR parts
                clauses.extend([x, -p] for p in parts)
                clauses.append([-x, *parts])
        elif isinstance(f, F.Iff):
            a, b = lit[f.left], lit[f.right]
            x = fresh()
            clauses.extend([[-x, -a, b], [-x, a, -b], [x, a, b], [x, -a, -b]])
        else:
            raise KopError(f"{type(f).__name__} is not propositional")
        lit[f] = x
    return lit[formula], clauses


def _by_sat(formula: F.Formula, atoms: list[str], limit: int | None) -> np.ndarray:
    from pysat.solvers import Solver

    n = len(atoms)
    var = {a: i + 1 for i, a in enumerate(atoms)}
    root, clauses = _tseitin(formula, var)
    clauses.append([root])
    rows: list[list[bool]] = []
    with Solver(name="m22", bootstrap_with=clauses) as solver:
        while solver.solve():
            value = {abs(x): x > 0 for x in solver.get_model()}
            assignment = [value.get(i + 1, False) for i in range(n)]
            rows.append(assignment)
            if limit is not None and len(rows) > limit:
                raise LimitError(f"the formula has more than {limit} models over {n} atoms")
            if n == 0:
                break
            solver.add_clause([-(i + 1) if b else i + 1 for i, b in enumerate(assignment)])
    if not rows:
        return np.zeros((0, n), dtype=bool)
    out = np.array(rows, dtype=bool)
    return out[np.lexsort(out.T[::-1])] if n else out
