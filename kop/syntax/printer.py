"""Print formulas as ASCII, Unicode or LaTeX.

ASCII and Unicode output parse back to the same formula
(``parse(to_ascii(f)) == f``), with the fewest parentheses the precedence
rules allow.

    >>> from kop import parse, to_unicode, to_latex
    >>> to_unicode(parse("~K_B E_A -> p & q"))
    '¬K_B E_A → p ∧ q'
    >>> print(to_latex(parse("C{A,B} E_A")))
    C_{\\{A,B\\}} E_{A}
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from kop.syntax import arguments
from kop.syntax import formula as F

__all__ = ["to_ascii", "to_unicode", "to_latex", "render"]

# precedence levels (higher binds tighter)
_IFF, _IMP, _OR, _AND, _UNARY, _PRIMARY = 1, 2, 3, 4, 5, 6


@dataclass(frozen=True)
class _Style:
    not_: str
    and_: str
    or_: str
    imp: str
    iff: str
    true: str
    false: str
    dia_open: str
    dia_close: str
    ge: str
    le: str
    lt: str
    gt: str
    latex: bool = False


_ASCII = _Style("~", " & ", " | ", " -> ", " <-> ", "true", "false", "<!", ">", ">=", "<=", "<", ">")
_UNICODE = _Style("¬", " ∧ ", " ∨ ", " → ", " ↔ ", "⊤", "⊥", "⟨!", "⟩", "≥", "≤", "<", ">")
_LATEX = _Style("\\lnot ", " \\land ", " \\lor ", " \\rightarrow ", " \\leftrightarrow ",
                "\\top", "\\bot", "\\langle !", "\\rangle ", "\\geq", "\\leq", "<", ">", latex=True)
_STYLES = {"ascii": _ASCII, "unicode": _UNICODE, "latex": _LATEX}

_SIMPLE_AGENT = re.compile(r"[A-Za-z0-9]+")


def _agent(a: str, st: _Style) -> str:
    if st.latex:
        return "_{" + _latex_name(a) + "}"
    return "_" + a if _SIMPLE_AGENT.fullmatch(a) else "_{" + a + "}"


def _group(g: tuple[str, ...], st: _Style) -> str:
    if st.latex:
        return "{\\{" + ",".join(_latex_name(a) for a in g) + "\\}}"
    return "{" + ",".join(g) + "}"


def _latex_name(name: str) -> str:
    m = re.fullmatch(r"([A-Za-z])_([A-Za-z0-9]+)", name)
    if m:
        return f"{m.group(1)}_{{{m.group(2)}}}"
    if len(name) == 1:
        return name
    return "\\mathit{" + name.replace("_", "\\_") + "}"


def _number(r: Fraction, st: _Style) -> str:
    if r.denominator == 1:
        return str(r.numerator)
    if st.latex:
        return "\\frac{" + str(r.numerator) + "}{" + str(r.denominator) + "}"
    return f"{r.numerator}/{r.denominator}"


def _prec(f: F.Formula) -> int:
    if isinstance(f, F.Iff):
        return _IFF
    if isinstance(f, F.Implies):
        return _IMP
    if isinstance(f, F.Or):
        return _OR
    if isinstance(f, F.And):
        return _AND
    if isinstance(f, (F.Atom, F.Top, F.Bottom, F.RelCommon, F.CondBelief, F.Probability)):
        return _PRIMARY
    return _UNARY


def render(f: F.Formula, style: str = "ascii") -> str:
    """Print *f* in ``"ascii"``, ``"unicode"`` or ``"latex"`` notation (a string *f* is parsed first)."""
    f = arguments.formula(f, "f")
    try:
        st = _STYLES[style]
    except (KeyError, TypeError):
        raise arguments.fail("style", "'ascii', 'unicode' or 'latex'", style) from None
    out: dict[F.Formula, str] = {}

    def sub(child: F.Formula, need: int) -> str:
        s = out[child]
        if _prec(child) < need:
            return ("\\left(" + s + "\\right)") if st.latex else "(" + s + ")"
        return s

    for g in f.subformulas():  # post-order: children are printed first
        if isinstance(g, F.Atom):
            s = _latex_name(g.name) if st.latex else g.name
        elif isinstance(g, F.Top):
            s = st.true
        elif isinstance(g, F.Bottom):
            s = st.false
        elif isinstance(g, F.Not):
            s = st.not_ + sub(g.arg, _UNARY)
        elif isinstance(g, F.And):
            s = st.and_.join(sub(a, _UNARY) for a in g.args)
        elif isinstance(g, F.Or):
            s = st.or_.join(sub(a, _AND) for a in g.args)
        elif isinstance(g, F.Implies):
            s = sub(g.left, _OR) + st.imp + sub(g.right, _IMP)
        elif isinstance(g, F.Iff):
            s = sub(g.left, _IFF) + st.iff + sub(g.right, _IMP)
        elif isinstance(g, F.Know):
            s = "K" + _agent(g.agent, st) + " " + sub(g.arg, _UNARY)
        elif isinstance(g, F.Possible):
            s = "M" + _agent(g.agent, st) + " " + sub(g.arg, _UNARY)
        elif isinstance(g, F.KnowWhether):
            s = ("\\mathit{Kw}" if st.latex else "Kw") + _agent(g.agent, st) + " " + sub(g.arg, _UNARY)
        elif isinstance(g, F.Belief):
            s = "B" + _agent(g.agent, st) + " " + sub(g.arg, _UNARY)
        elif isinstance(g, F.CondBelief):
            s = "B" + _agent(g.agent, st) + "(" + out[g.cond] + ", " + out[g.arg] + ")"
        elif isinstance(g, F.Probability):
            rel = {">=": st.ge, "<=": st.le, "<": st.lt, ">": st.gt, "=": "="}[g.relation]
            s = "P" + _agent(g.agent, st) + "(" + out[g.arg] + ") " + rel + " " + _number(g.bound, st)
        elif isinstance(g, F.RelCommon):
            s = "C" + ("_" if st.latex else "") + _group(g.group, st) + "(" + out[g.cond] + ", " + out[g.arg] + ")"
        elif isinstance(g, F._GroupOp):
            letter = {"Everyone": "E", "Common": "C", "Distributed": "D"}[type(g).__name__]
            s = letter + ("_" if st.latex else "") + _group(g.group, st) + " " + sub(g.arg, _UNARY)
        elif isinstance(g, F.Announce):
            s = "[!" + out[g.ann] + "] " + sub(g.arg, _UNARY)
        elif isinstance(g, F.AnnounceDual):
            s = st.dia_open + out[g.ann] + st.dia_close + (" " if not st.latex else "") + sub(g.arg, _UNARY)
        else:  # pragma: no cover - every formula class is handled above
            raise TypeError(f"cannot print {type(g).__name__}")
        out[g] = s
    return out[f]


def to_ascii(f: F.Formula) -> str:
    """ASCII notation, e.g. ``K_A (p -> q)``; parses back to *f*.

    Parameters
    ----------
    f : Formula
        The formula to print.

    Returns
    -------
    str
        The text, with the fewest parentheses that keep :func:`kop.parse` giving *f* back.

    Examples
    --------
    >>> import kop
    >>> f = kop.parse("K_A (p -> q) & ~C{A,B} r")
    >>> kop.to_ascii(f)
    'K_A (p -> q) & ~C{A,B} r'
    >>> kop.parse(kop.to_ascii(f)) == f
    True
    """
    return render(f, "ascii")


def to_unicode(f: F.Formula) -> str:
    """Unicode notation, e.g. ``K_A (p → q)``; parses back to *f*.

    Parameters
    ----------
    f : Formula
        The formula to print.

    Returns
    -------
    str
        The text in logic symbols (``¬ ∧ ∨ → ↔``), which :func:`kop.parse` reads back to *f*.

    Examples
    --------
    >>> import kop
    >>> f = kop.parse("K_A (p -> q) & ~C{A,B} r")
    >>> kop.to_unicode(f)
    'K_A (p → q) ∧ ¬C{A,B} r'
    >>> kop.parse(kop.to_unicode(f)) == f
    True
    """
    return render(f, "unicode")


def to_latex(f: F.Formula) -> str:
    """LaTeX math-mode notation, e.g. ``K_{A} \\left(p \\rightarrow q\\right)``.

    Parameters
    ----------
    f : Formula
        The formula to print.

    Returns
    -------
    str
        Math-mode LaTeX without the ``$`` delimiters (a notebook's ``_repr_latex_`` adds them).

    Examples
    --------
    >>> import kop
    >>> print(kop.to_latex(kop.parse("K_A (p -> q)")))
    K_{A} \\left(p \\rightarrow q\\right)
    """
    return render(f, "latex")
