"""Matrix games: the value and optimal mixed strategies of a two-player zero-sum stage (§3.2).

The row player maximizes, the column player minimizes.  :func:`solve_matrix` first looks
for a saddle point (an entry that is the least of its row and the greatest of its column:
a pure equilibrium, no LP needed), then solves the stage LP with scipy's HiGHS:

    maximize w  subject to  sum_i x_i A_ij >= w for every column j,  sum x = 1,  x >= 0,

and the column player's LP likewise.  Floating point gives an epsilon-equilibrium
(HiGHS's tolerances, about 1e-9 relative).  With ``exact=True`` the answer is exact
rational arithmetic (:class:`fractions.Fraction`): supports are guessed from the float
solution and the equalizing equations solved exactly, falling back to enumerating square
supports; the result is verified exactly, so it is a true equilibrium.

Example
-------
The digest's example: row 3 is dominated by half of row 1 plus half of row 2.

>>> from kop.games.simultaneous.matrix import solve_matrix
>>> s = solve_matrix([[4, 0], [0, 4], [1, 1]], exact=True)
>>> s.value, s.row, s.col
(Fraction(2, 1), (Fraction(1, 2), Fraction(1, 2), Fraction(0, 1)), (Fraction(1, 2), Fraction(1, 2)))
>>> round(solve_matrix([[4, 0], [0, 4], [1, 1]]).value, 9)
2.0
>>> solve_matrix([[3, 1], [4, 2]]).saddle
(1, 1)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from kop.games.errors import LimitError, TreeError
from kop.errors import MatrixError

__all__ = ["MatrixSolution", "solve_matrix", "saddle_point", "MatrixError", "EXACT_LIMIT"]

#: exact solving enumerates supports only up to this many rows or columns
EXACT_LIMIT = 10


@dataclass(frozen=True)
class MatrixSolution:
    """``value``, the row player's ``row`` strategy, the column player's ``col`` strategy,
    the ``saddle`` point (row, column) if the game has one, and whether an LP was solved.

    Parameters
    ----------
    value
        The game's value.
    row, col : tuple
        The players' optimal mixed strategies.
    saddle : (int, int) or None
        A saddle point.
    lp : bool
        Whether an LP was solved.

    Examples
    --------
    >>> import kop
    >>> s = kop.solve_matrix([[3, 1], [4, 2]])
    >>> s.saddle, s.value
    ((1, 1), 2.0)
    """

    value: Any
    row: tuple[Any, ...]
    col: tuple[Any, ...]
    saddle: tuple[int, int] | None
    lp: bool

    def __repr__(self) -> str:
        return (f"MatrixSolution(value={self.value}, row={tuple(map(_short, self.row))}, "
                f"col={tuple(map(_short, self.col))}, saddle={self.saddle})")


def _short(x: Any) -> str:
    return str(x) if isinstance(x, Fraction) else f"{float(x):.6g}"


def _as_array(A: Any) -> np.ndarray:
    if isinstance(A, np.ndarray):
        arr = np.asarray(A, dtype=np.float64)
    else:
        if not isinstance(A, Sequence) or not A:
            raise MatrixError("a matrix game needs at least one row")
        widths = {len(r) if isinstance(r, Sequence) else -1 for r in A}
        if -1 in widths:
            raise MatrixError("every row of a matrix game must be a list")
        if len(widths) != 1:
            lens = [len(r) for r in A]
            bad = next(i for i, n in enumerate(lens) if n != lens[0])
            raise MatrixError(f"ragged matrix: row 0 has {lens[0]} entries, row {bad} has {lens[bad]}")
        try:
            arr = np.array([[float(x) for x in r] for r in A], dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise MatrixError(f"matrix entries must be numbers: {exc}") from None
    if arr.ndim != 2 or arr.size == 0:
        raise MatrixError(f"a matrix game is a non-empty 2-d table, got shape {arr.shape}")
    nonfinite = ~np.isfinite(arr)
    if nonfinite.any():
        i, j = map(int, np.argwhere(nonfinite)[0])
        raise MatrixError(f"entry ({i}, {j}) is {arr[i, j]}: matrix entries must be finite")
    return arr


def saddle_point(A: Any) -> tuple[int, int] | None:
    """The first (row, column) whose entry is least in its row and greatest in its column, or None.

    Parameters
    ----------
    A : array-like
        The row player's payoffs.

    Returns
    -------
    tuple of (int, int) or None
        The first saddle point, row-major.

    Examples
    --------
    >>> saddle_point([[1, 2], [3, 4]]), saddle_point([[1, 0], [0, 1]])
    ((1, 0), None)
    """
    arr = _as_array(A)
    rmin = arr.min(axis=1, keepdims=True)
    cmax = arr.max(axis=0, keepdims=True)
    hit = np.argwhere((arr == rmin) & (arr == cmax))
    return (int(hit[0][0]), int(hit[0][1])) if len(hit) else None


def _lp(arr: np.ndarray) -> tuple[float, np.ndarray]:
    """(value, row strategy) of the row player (maximizer) by HiGHS."""
    from scipy.optimize import linprog

    r, c = arr.shape
    shift = 1.0 - float(arr.min())          # positive payoffs (thesis §3.3.5), better conditioned
    B = arr + shift
    # variables (x_1..x_r, w): minimize -w; for each column: w - sum_i x_i B_ij <= 0
    cost = np.zeros(r + 1)
    cost[-1] = -1.0
    a_ub = np.hstack([-B.T, np.ones((c, 1))])
    a_eq = np.hstack([np.ones((1, r)), np.zeros((1, 1))])
    res = linprog(cost, A_ub=a_ub, b_ub=np.zeros(c), A_eq=a_eq, b_eq=[1.0],
                  bounds=[(0, None)] * r + [(None, None)], method="highs")
    if res.status != 0:
        raise LimitError(f"the LP solver failed on a {r}x{c} stage: {res.message}")
    x = np.clip(res.x[:r], 0.0, None)
    x /= x.sum()
    return float(-res.fun) - shift, x


def solve_matrix(A: Any, *, exact: bool = False) -> MatrixSolution:
    """Value and optimal strategies of the matrix game *A* (see the module docstring).

    Parameters
    ----------
    A : array-like
        The row player's payoffs (rows: its moves; the column player minimizes).
    exact : bool
        Rational arithmetic and an exactly verified equilibrium, instead of scipy's LP.

    Returns
    -------
    MatrixSolution
        The value, both players' optimal mixed strategies and the saddle point if any.

    Examples
    --------
    >>> import kop
    >>> kop.solve_matrix([[4, 0], [0, 4], [1, 1]], exact=True)
    MatrixSolution(value=2, row=('1/2', '1/2', '0'), col=('1/2', '1/2'), saddle=None)

    References
    ----------
    R. J. Bodkin, *Extending Computational Game Theory: Simultaneity, Multiple Agents, Chance
    and Metareasoning*, MIT (1992), §3.2; J. von Neumann, *Zur Theorie der Gesellschaftsspiele*,
    Math. Ann. 100 (1928).
    """
    arr = _as_array(A)
    r, c = arr.shape
    sp = saddle_point(arr)
    if exact:
        return _exact(A, arr, sp)
    if sp is not None:
        i, j = sp
        return MatrixSolution(float(arr[i, j]), tuple(float(k == i) for k in range(r)),
                              tuple(float(k == j) for k in range(c)), sp, False)
    v, x = _lp(arr)
    _, y = _lp(-arr.T)
    return MatrixSolution(v, tuple(map(float, x)), tuple(map(float, y)), None, True)


def _fractions(A: Any, arr: np.ndarray) -> list[list[Fraction]]:
    if isinstance(A, np.ndarray):
        return [[Fraction(float(x)) for x in row] for row in arr]
    return [[x if isinstance(x, Fraction) else Fraction(x) for x in row] for row in A]


def _solve_square(M: list[list[Fraction]]) -> list[Fraction] | None:
    """x with x M = v 1 (same v for all columns), sum x = 1; None if singular.  Returns x + [v]."""
    k = len(M)
    # unknowns x_0..x_{k-1}, v: for each column j: sum_i x_i M_ij - v = 0; sum x = 1
    rows = [[M[i][j] for i in range(k)] + [Fraction(-1), Fraction(0)] for j in range(k)]
    rows.append([Fraction(1)] * k + [Fraction(0), Fraction(1)])
    n = k + 1
    for col in range(n):
        piv = next((r for r in range(col, n) if rows[r][col] != 0), None)
        if piv is None:
            return None
        rows[col], rows[piv] = rows[piv], rows[col]
        p = rows[col][col]
        rows[col] = [x / p for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                f = rows[r][col]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[col])]
    return [rows[i][n] for i in range(n)]


def _check_exact(F: list[list[Fraction]], x: list[Fraction], y: list[Fraction], v: Fraction) -> bool:
    r, c = len(F), len(F[0])
    if any(t < 0 for t in x) or any(t < 0 for t in y):
        return False
    if any(sum(x[i] * F[i][j] for i in range(r)) < v for j in range(c)):
        return False
    return all(sum(F[i][j] * y[j] for j in range(c)) <= v for i in range(r))


def _exact(A: Any, arr: np.ndarray, sp: tuple[int, int] | None) -> MatrixSolution:
    F = _fractions(A, arr)
    r, c = len(F), len(F[0])
    unit = [Fraction(0), Fraction(1)]
    if sp is not None:
        i, j = sp
        return MatrixSolution(F[i][j], tuple(unit[k == i] for k in range(r)), tuple(unit[k == j] for k in range(c)),
                              sp, False)

    def attempt(rows: Sequence[int], cols: Sequence[int]) -> MatrixSolution | None:
        sub = [[F[i][j] for j in cols] for i in rows]
        xs = _solve_square(sub)
        ys = _solve_square([list(col) for col in zip(*[[-t for t in row] for row in sub])])
        if xs is None or ys is None:
            return None
        v = xs[-1]
        x = [Fraction(0)] * r
        y = [Fraction(0)] * c
        for k, i in enumerate(rows):
            x[i] = xs[k]
        for k, j in enumerate(cols):
            y[j] = ys[k]
        if -ys[-1] != v or not _check_exact(F, x, y, v):
            return None
        return MatrixSolution(v, tuple(x), tuple(y), None, True)

    fl = solve_matrix(arr)
    srows = [i for i, t in enumerate(fl.row) if t > 1e-9]
    scols = [j for j, t in enumerate(fl.col) if t > 1e-9]
    if len(srows) == len(scols):
        got = attempt(srows, scols)
        if got is not None:
            return got
    if max(r, c) > EXACT_LIMIT:
        raise LimitError(f"exact solving enumerates supports of matrices up to {EXACT_LIMIT}x{EXACT_LIMIT}; "
                         f"this one is {r}x{c}")
    for k in range(1, min(r, c) + 1):
        for rows in itertools.combinations(range(r), k):
            for cols in itertools.combinations(range(c), k):
                got = attempt(rows, cols)
                if got is not None:
                    return got
    raise LimitError("no exact equilibrium found on square supports (degenerate game)")  # pragma: no cover
