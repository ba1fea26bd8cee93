"""``define NAME = FORMULA``: a name for a formula, used as an atom in the statements after it.

Definitions are expanded where they are used (a definition may use earlier
ones), so the questions see ordinary formulas.

>>> import kop
>>> th = kop.parse_theory("define both = p & q\\nask valid both -> p\\n")
>>> [a.text for a in kop.run_theory(th)]
['valid p & q -> p: yes']
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from kop.syntax.formula import ATOM_RE, And, Atom, Formula, Or, is_reserved_atom
from kop.theory import statements as S
from kop.theory.model import ObservationSpec
from kop.theory.statements import Statement

__all__ = ["substitute", "apply_defines"]


def substitute(f: Formula, defs: dict[str, Formula], memo: dict[int, Formula] | None = None) -> Formula:
    """*f* with every atom named in *defs* replaced by its formula (shared subformulas stay shared)."""
    memo = {} if memo is None else memo
    if id(f) in memo:
        return memo[id(f)]
    if isinstance(f, Atom):
        out: Formula = defs.get(f.name, f)
    elif not f.children:
        out = f
    else:
        values = []
        changed = False
        for v in f._values():
            if isinstance(v, Formula):
                nv: Any = substitute(v, defs, memo)
            elif isinstance(v, tuple) and v and isinstance(v[0], Formula):
                nv = tuple(substitute(x, defs, memo) for x in v)
            else:
                nv = v
            changed = changed or nv is not v and nv != v
            values.append(nv)
        if not changed:
            out = f
        elif isinstance(f, (And, Or)):
            out = type(f)(*values[0])
        else:
            out = type(f)(*values)
    memo[id(f)] = out
    return out


def _deep(x: Any, defs: dict[str, Formula]) -> Any:
    if isinstance(x, Formula):
        return substitute(x, defs)
    if isinstance(x, tuple):
        return tuple(_deep(v, defs) for v in x)
    if isinstance(x, S.STATEMENTS):   # what it states (compared fields), not where it is written
        return replace(x, **{f.name: _deep(getattr(x, f.name), defs) for f in fields(x) if f.compare and f.init})
    if isinstance(x, ObservationSpec):
        return replace(x, laws=_deep(x.laws, defs))
    return x


def apply_defines(statements: tuple[Statement, ...]) -> tuple[Statement, ...]:
    """The statements with every ``define`` expanded (and removed); errors located at the definition."""
    if not any(isinstance(s, S.Define) for s in statements):
        return statements
    defs: dict[str, Formula] = {}
    out: list[Statement] = []
    for st in statements:
        if isinstance(st, S.Define):
            name, f = st.name, st.formula
            if not ATOM_RE.fullmatch(name) or is_reserved_atom(name):
                raise st.error(f"{name!r} cannot name a formula: use a name that could be an atom "
                               "(a letter first; not E_..., S_... or an operator)", name)
            if name in defs:
                raise st.error(f"{name!r} is defined twice", name)
            defs[name] = substitute(f, defs)
            continue
        out.append(_deep(st, defs) if defs else st)
    return tuple(out)
