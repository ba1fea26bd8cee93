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


class _Printer:
    """Prints the subformulas of one formula in one style, children first (each once)."""

    def __init__(self, st: _Style):
        self.st = st
        self.out: dict[F.Formula, str] = {}

    def sub(self, child: F.Formula, need: int) -> str:
        """The text of *child*, in parentheses if it binds less tightly than *need*."""
        s = self.out[child]
        if _prec(child) < need:
            return ("\\left(" + s + "\\right)") if self.st.latex else "(" + s + ")"
        return s

    def modal(self, letter: str, agent: str, arg: F.Formula) -> str:
        return letter + _agent(agent, self.st) + " " + self.sub(arg, _UNARY)

    def atom(self, g: F.Atom) -> str:
        return _latex_name(g.name) if self.st.latex else g.name

    def top(self, g: F.Top) -> str:
        return self.st.true

    def bottom(self, g: F.Bottom) -> str:
        return self.st.false

    def not_(self, g: F.Not) -> str:
        return self.st.not_ + self.sub(g.arg, _UNARY)

    def and_(self, g: F.And) -> str:
        return self.st.and_.join(self.sub(a, _UNARY) for a in g.args)

    def or_(self, g: F.Or) -> str:
        return self.st.or_.join(self.sub(a, _AND) for a in g.args)

    def implies(self, g: F.Implies) -> str:
        return self.sub(g.left, _OR) + self.st.imp + self.sub(g.right, _IMP)

    def iff(self, g: F.Iff) -> str:
        return self.sub(g.left, _IFF) + self.st.iff + self.sub(g.right, _IMP)

    def know(self, g: F.Know) -> str:
        return self.modal("K", g.agent, g.arg)

    def possible(self, g: F.Possible) -> str:
        return self.modal("M", g.agent, g.arg)

    def know_whether(self, g: F.KnowWhether) -> str:
        return self.modal("\\mathit{Kw}" if self.st.latex else "Kw", g.agent, g.arg)

    def belief(self, g: F.Belief) -> str:
        return self.modal("B", g.agent, g.arg)

    def cond_belief(self, g: F.CondBelief) -> str:
        return "B" + _agent(g.agent, self.st) + "(" + self.out[g.cond] + ", " + self.out[g.arg] + ")"

    def probability(self, g: F.Probability) -> str:
        st = self.st
        rel = {">=": st.ge, "<=": st.le, "<": st.lt, ">": st.gt, "=": "="}[g.relation]
        return "P" + _agent(g.agent, st) + "(" + self.out[g.arg] + ") " + rel + " " + _number(g.bound, st)

    def rel_common(self, g: F.RelCommon) -> str:
        st = self.st
        return "C" + ("_" if st.latex else "") + _group(g.group, st) + "(" + self.out[g.cond] + ", " + \
            self.out[g.arg] + ")"

    def group_op(self, g: F._GroupOp) -> str:
        letter = {"Everyone": "E", "Common": "C", "Distributed": "D"}[type(g).__name__]
        return letter + ("_" if self.st.latex else "") + _group(g.group, self.st) + " " + self.sub(g.arg, _UNARY)

    def announce(self, g: F.Announce) -> str:
        return "[!" + self.out[g.ann] + "] " + self.sub(g.arg, _UNARY)

    def announce_dual(self, g: F.AnnounceDual) -> str:
        st = self.st
        return st.dia_open + self.out[g.ann] + st.dia_close + (" " if not st.latex else "") + self.sub(g.arg, _UNARY)

    def text(self, g: F.Formula) -> str:
        """The text of *g*, whose children are printed already."""
        for cls in type(g).__mro__:  # RelCommon before _GroupOp
            method = _METHODS.get(cls)
            if method is not None:
                s: str = getattr(self, method)(g)
                return s
        raise TypeError(f"cannot print {type(g).__name__}")  # pragma: no cover - every formula class is listed


#: the method of :class:`_Printer` that prints each formula class
_METHODS: dict[type, str] = {
    F.Atom: "atom", F.Top: "top", F.Bottom: "bottom", F.Not: "not_", F.And: "and_", F.Or: "or_",
    F.Implies: "implies", F.Iff: "iff", F.Know: "know", F.Possible: "possible", F.KnowWhether: "know_whether",
    F.Belief: "belief", F.CondBelief: "cond_belief", F.Probability: "probability", F.RelCommon: "rel_common",
    F._GroupOp: "group_op", F.Announce: "announce", F.AnnounceDual: "announce_dual",
}


def render(f: F.Formula, style: str = "ascii") -> str:
    """Print *f* in ``"ascii"``, ``"unicode"`` or ``"latex"`` notation (a string *f* is parsed first).

    >>> render("K_a (p -> q)", "unicode")
    'K_a (p → q)'
    """
    f = arguments.formula(f, "f")
    try:
        st = _STYLES[style]
    except (KeyError, TypeError):
        raise arguments.fail("style", "'ascii', 'unicode' or 'latex'", style) from None
    printer = _Printer(st)
    for g in f.subformulas():  # post-order: children are printed first
        printer.out[g] = printer.text(g)
    return printer.out[f]


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
