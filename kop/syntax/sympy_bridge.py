"""The propositional skeleton of a formula, to and from sympy Boolean expressions.

Atoms become sympy symbols of the same name.  Each maximal modal subformula
(``K_A p``, ``C{A,B} q``, ``[!p] q``, ...) becomes a fresh symbol whose name is
the formula's ASCII text, so skeletons print readably and :func:`from_sympy`
can read the formula back.  Use it for simplification and truth tables::

    >>> from kop import parse, to_sympy, from_sympy
    >>> to_sympy(parse("K_A p & ~~K_A p"))
    K_A p
    >>> from kop.syntax.sympy_bridge import simplify
    >>> print(simplify(parse("(p -> q) & p")))
    p & q
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping

import sympy
from sympy.logic import boolalg

from kop.syntax import arguments
from kop.syntax import formula as F
from kop.errors import KopError
from kop.syntax.parser import parse
from kop.syntax.printer import to_ascii

__all__ = ["to_sympy", "from_sympy", "simplify", "truth_table", "modal_atoms"]


def modal_atoms(f: F.Formula) -> list[F.Formula]:
    """The maximal modal subformulas of *f* (its propositional skeleton's extra atoms)."""
    out: list[F.Formula] = []
    stack = [f]
    while stack:
        g = stack.pop()
        if isinstance(g, F._Modal):
            if g not in out:
                out.append(g)
        else:
            stack.extend(reversed(g.children))
    return out


def to_sympy(f: F.Formula) -> sympy.Basic:
    """The propositional skeleton of *f* as a sympy Boolean expression.

    Parameters
    ----------
    f : Formula
        Any kop formula.

    Returns
    -------
    sympy.Basic
        The expression: atoms are symbols of the same name, each maximal modal subformula a
        symbol named by its ASCII text (``K_A p``), ``TRUE``/``FALSE`` sympy's ``true``/``false``.

    Examples
    --------
    >>> import kop, sympy
    >>> e = kop.to_sympy(kop.parse("K_A p & (q | ~q) & p"))
    >>> e
    K_A p & p & (q | ~q)
    >>> sympy.simplify_logic(e)
    K_A p & p
    """
    f = arguments.formula(f, "f")

    done: dict[F.Formula, sympy.Basic] = {}
    for g in _skeleton_postorder(f):
        if isinstance(g, F.Atom):
            e = sympy.Symbol(g.name)
        elif isinstance(g, F._Modal):
            e = sympy.Symbol(to_ascii(g))
        elif isinstance(g, F.Top):
            e = sympy.true
        elif isinstance(g, F.Bottom):
            e = sympy.false
        elif isinstance(g, F.Not):
            e = sympy.Not(done[g.arg])
        elif isinstance(g, F.And):
            e = sympy.And(*(done[a] for a in g.args))
        elif isinstance(g, F.Or):
            e = sympy.Or(*(done[a] for a in g.args))
        elif isinstance(g, F.Implies):
            e = sympy.Implies(done[g.left], done[g.right])
        elif isinstance(g, F.Iff):
            e = sympy.Equivalent(done[g.left], done[g.right])
        else:  # pragma: no cover
            raise TypeError(type(g).__name__)
        done[g] = e
    return done[f]


def _skeleton_postorder(f: F.Formula) -> Iterator[F.Formula]:
    """Post-order over the propositional part only (modal subformulas are leaves)."""
    seen: set[F.Formula] = set()
    stack: list[tuple[F.Formula, bool]] = [(f, False)]
    while stack:
        g, expanded = stack.pop()
        if g in seen:
            continue
        if expanded or isinstance(g, F._Modal):
            seen.add(g)
            yield g
        else:
            stack.append((g, True))
            stack.extend((c, False) for c in reversed(g.children))


def from_sympy(expr: sympy.Basic, symbols: Mapping[sympy.Symbol, F.Formula] | None = None) -> F.Formula:
    """A kop formula from a sympy Boolean expression.

    Symbols are looked up in *symbols* first; otherwise their name is parsed as
    a kop formula (so skeletons made by :func:`to_sympy` come back intact).
    Xor, ITE and other sympy connectives are rewritten to and/or/not first.

    Parameters
    ----------
    expr : sympy.Basic
        A Boolean expression over symbols.
    symbols : mapping of sympy.Symbol to Formula, optional
        The formula each symbol stands for, when its name is not one.

    Returns
    -------
    Formula
        The formula; :class:`~kop.errors.KopError` when a symbol's name is no formula or the
        expression is not Boolean.

    Examples
    --------
    >>> import kop, sympy
    >>> f = kop.parse("K_A p & (q | ~q) & p")
    >>> kop.from_sympy(sympy.simplify_logic(kop.to_sympy(f)))
    kop.parse('K_A p & p')
    >>> a, b = sympy.symbols("a b")
    >>> kop.from_sympy(a & ~b, {a: kop.parse("K_A p")})
    kop.parse('K_A p & ~b')
    """
    known: dict[sympy.Symbol, F.Formula] = dict(symbols or {})

    def conv(e: sympy.Basic) -> F.Formula:
        if e is sympy.true or isinstance(e, boolalg.BooleanTrue):
            return F.TRUE
        if e is sympy.false or isinstance(e, boolalg.BooleanFalse):
            return F.FALSE
        if isinstance(e, sympy.Symbol):
            if e in known:
                return known[e]
            try:
                return parse(e.name)
            except KopError as exc:
                raise KopError(f"sympy symbol {e.name!r} is not a kop formula: {exc}") from None
        if isinstance(e, boolalg.Not):
            return F.Not(conv(e.args[0]))
        if isinstance(e, boolalg.And):
            return F.conj(conv(a) for a in _ordered(e.args))
        if isinstance(e, boolalg.Or):
            return F.disj(conv(a) for a in _ordered(e.args))
        if isinstance(e, boolalg.Implies):
            return F.Implies(conv(e.args[0]), conv(e.args[1]))
        if isinstance(e, boolalg.Equivalent):
            args = [conv(a) for a in e.args]
            if len(args) == 2:
                return F.Iff(*args)
            return F.conj(F.Iff(args[i], args[i + 1]) for i in range(len(args) - 1))
        if isinstance(e, boolalg.BooleanFunction):
            return conv(e.to_nnf())
        raise KopError(f"cannot convert sympy expression {e!r} to a formula")

    return conv(expr)


def _ordered(args: Iterable[sympy.Basic]) -> list[sympy.Basic]:
    return sorted(args, key=sympy.default_sort_key)


def simplify(f: F.Formula, form: str | None = None) -> F.Formula:
    """A simplest equivalent of *f*'s propositional skeleton (sympy's ``simplify_logic``).

    Modal subformulas are kept as they are (they are treated as atoms), so the
    result is equivalent to *f* in every model.  *form* may be ``"cnf"``,
    ``"dnf"`` or None (whichever is smaller).
    """
    skeleton = to_sympy(f)
    return from_sympy(boolalg.simplify_logic(skeleton, form=form, force=True))


def truth_table(f: F.Formula) -> tuple[list[str], list[tuple[tuple[bool, ...], bool]]]:
    """The truth table of *f*'s propositional skeleton.

    Returns the column names (atoms and modal subformulas, in sorted order) and
    the rows ``(assignment, value)``.  At most 16 columns.
    """
    skeleton = to_sympy(f)
    syms = sorted(skeleton.free_symbols, key=lambda s: s.name)
    if len(syms) > 16:
        raise KopError(f"a truth table of {len(syms)} columns is too large (limit 16)")
    rows = []
    for values in itertools.product((False, True), repeat=len(syms)):
        v = skeleton.subs(dict(zip(syms, values)))
        rows.append((values, bool(v)))
    return [s.name for s in syms], rows
