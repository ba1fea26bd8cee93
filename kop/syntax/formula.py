"""The formula AST of S5_n with common knowledge and public announcements.

Formulas are small immutable values (frozen, slotted dataclasses) with structural
equality and a hash cached when they are built, so they can be dictionary keys (the
model checker memoizes truth sets by formula) and ``match`` can take them apart.  Build them by parsing (:func:`kop.parse`) or in Python::

    >>> from kop import symbols, K, C
    >>> p, q = symbols("p q")
    >>> (K("a", p) & ~q) >> C(["a", "b"], p)
    kop.parse('K_a p & ~q -> C{a,b} p')

A formula's ``repr`` is code in kop's syntax that rebuilds it (as python-chess's values
do); :meth:`Formula.structure` shows the constructors:

    >>> ((K("a", p) & ~q) >> C(["a", "b"], p)).structure()
    "Implies(And(Know('a', Atom('p')), Not(Atom('q'))), Common(('a', 'b'), Atom('p')))"

Operators: ``~`` (not), ``&`` (and), ``|`` (or), ``>>`` (implies); ``a.iff(b)``.
They keep Python's precedence, in which ``>>`` binds tighter than ``&`` and
``|`` (the reverse of logic's convention), so parenthesize an implication's
antecedent:

    >>> K("a", p) & ~q >> p
    kop.parse('K_a p & (~q -> p)')

Conjunction and disjunction are n-ary (``And(p, q, r)``) so that long flat
chains stay shallow.  Groups are stored sorted and without duplicates, so
``E{B,A} p`` and ``E{A,B} p`` are the same formula.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from numbers import Rational
from operator import attrgetter
from typing import Any, TypeVar, cast

from kop.errors import ArgumentError

__all__ = [
    "Formula", "Atom", "Top", "Bottom", "TRUE", "FALSE", "Not", "And", "Or",
    "Implies", "Iff", "Know", "Possible", "KnowWhether", "Everyone", "Common",
    "Distributed", "RelCommon", "Announce", "AnnounceDual", "Belief", "CondBelief", "Probability",
    "symbols", "K", "M", "Kw", "E", "C", "D", "B", "P", "conj", "disj", "RELATIONS",
    "AGENT_RE", "ATOM_RE", "is_reserved_atom", "parse_fraction",
]

#: Agent names: letters, digits and underscores.
AGENT_RE = re.compile(r"[A-Za-z0-9_]+")
#: Atom names: a letter, then letters, digits and underscores.
ATOM_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
# Identifiers the parser reads as operators or constants, so not usable as atoms.
_RESERVED = re.compile(r"(?:K|M|Kw)_[A-Za-z0-9]+|(?:K|M|Kw|E|C|D)_|[KM][a-z]|true|false")

_T = TypeVar("_T")


def is_reserved_atom(name: str) -> bool:
    """True when *name* would be read as an operator (``K_a``, ``Ka``, ``Kw_a``) or a constant."""
    return _RESERVED.fullmatch(name) is not None


def _check_agent(agent: object) -> str:
    if not isinstance(agent, str) or not AGENT_RE.fullmatch(agent):
        raise ArgumentError(f"invalid agent name {agent!r}: use letters, digits and underscores")
    return agent


def _group(agents: Iterable[str] | str) -> tuple[str, ...]:
    if isinstance(agents, str):
        agents = [agents]
    if not isinstance(agents, Iterable):
        raise ArgumentError(f"a group of agents must be a string or an iterable of agent names, "
                            f"not {type(agents).__name__}")
    group = tuple(sorted({_check_agent(a) for a in agents}))
    if not group:
        raise ArgumentError("a group operator needs at least one agent")
    return group


def _check_formula(x: object, where: str) -> Formula:
    if not isinstance(x, Formula):
        raise ArgumentError(f"{where} must be a Formula, not {type(x).__name__}")
    return x


def _structure(v: object) -> str:
    if isinstance(v, Formula):
        return v.structure()
    if isinstance(v, tuple):
        return "(" + ", ".join(_structure(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    return repr(v)


#: becomes True when a belief or probability formula is first built: until then no formula holds one
_UNCERTAIN_BUILT = [False]


def uncertainty_built() -> bool:
    """Whether a belief or probability formula (``B_a``, ``P_a``) has been built in this process.

    Until one has, no formula contains one, so :mod:`kop.syntax.fragments` need not look.

    >>> _ = B("a", "p"); uncertainty_built()
    True
    """
    return _UNCERTAIN_BUILT[0]


#: formula class -> a function giving its fields in the order of ``__match_args__`` (see :func:`_getter`)
_GETTERS: dict[type, Callable[[Any], tuple[object, ...]]] = {}


def _getter(cls: type) -> Callable[[Any], tuple[object, ...]]:
    """The (remembered) function that reads the fields of a *cls* formula, as a tuple."""
    names: tuple[str, ...] = cls.__match_args__  # type: ignore[attr-defined]
    if len(names) > 1:
        get: Callable[[Any], tuple[object, ...]] = attrgetter(*names)
    elif names:
        one = attrgetter(names[0])

        def get(f: Any) -> tuple[object, ...]:
            return (one(f),)
    else:
        def get(f: Any) -> tuple[object, ...]:
            return ()
    _GETTERS[cls] = get
    return get


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Formula:
    """Base class of all formulas.  Immutable; equality is structural.

    Every formula class is a frozen, slotted dataclass whose fields are its constructor's
    arguments, in order (``__match_args__``), so ``match`` takes formulas apart:

    Examples
    --------
    >>> import kop
    >>> from kop.syntax.formula import Atom, Know
    >>> match kop.parse("K_a p"):
    ...     case Know(agent, Atom(name)):
    ...         print(agent, name)
    a p

    Its ``repr`` is code in kop's syntax that rebuilds it (``kop.parse('K_a p')``), and
    :meth:`structure` shows the constructors.

    >>> kop.parse("C{A,B} (E_A & E_B) -> K_A K_B E_A")
    kop.parse('C{A,B} (E_A & E_B) -> K_A K_B E_A')
    """

    # Computed once, when the formula is built (its children's are cached already), so that
    # hashing and comparing formulas of any depth costs no recursion.
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._check()
        object.__setattr__(self, "_hash", hash((type(self).__name__, *self._values())))

    def _check(self) -> None:
        """Validate the fields the constructor stored; raise ArgumentError or TypeError."""

    def _values(self) -> tuple[object, ...]:
        """The fields, in the order of ``__match_args__``."""
        get = _GETTERS.get(type(self)) or _getter(type(self))
        return get(self)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is not type(self) or not isinstance(other, Formula) or other._hash != self._hash:
            return False
        # compare without recursion, so formulas of any depth can be compared
        stack: list[tuple[Formula, Formula]] = [(self, other)]
        getters = _GETTERS
        while stack:
            a, b = stack.pop()
            if a is b:
                continue
            cls = type(a)
            if cls is not type(b) or a._hash != b._hash:
                return False
            get = getters.get(cls) or _getter(cls)
            for x, y in zip(get(a), get(b)):
                if x is y:
                    continue
                if isinstance(x, Formula):
                    stack.append((x, cast(Formula, y)))
                elif isinstance(x, tuple) and x and isinstance(x[0], Formula):
                    ys = cast("tuple[Formula, ...]", y)
                    if len(x) != len(ys):
                        return False
                    stack.extend(zip(x, ys))
                elif x != y:
                    return False
        return True

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __reduce__(self) -> tuple[type[Formula], tuple[object, ...]]:
        # rebuilt by the constructor, which hashes anew: string hashes differ between processes
        return (type(self), self._init_args())

    def _init_args(self) -> tuple[object, ...]:
        """The constructor's positional arguments that rebuild the formula."""
        return self._values()

    def __repr__(self) -> str:
        """The formula in kop's syntax, as code that rebuilds it: ``kop.parse('K_a p')``.

        Formulas too deep for the printer fall back to the constructor form, ``Know('a', Atom('p'))``
        (:meth:`structure`).
        """
        from kop.syntax.printer import to_ascii

        try:
            return f"kop.parse({to_ascii(self)!r})"
        except (RecursionError, ValueError):
            return self.structure()

    def structure(self) -> str:
        """The formula as nested constructors: ``Know('a', Atom('p'))``.

        >>> import kop
        >>> kop.parse("K_a p").structure()
        "Know('a', Atom('p'))"
        """
        return f"{type(self).__name__}({', '.join(_structure(v) for v in self._init_args())})"

    def _repr_latex_(self) -> str:
        """LaTeX for Jupyter: notebooks show the formula typeset."""
        from kop.syntax.printer import to_latex

        return f"${to_latex(self)}$"

    def __str__(self) -> str:
        from kop.syntax.printer import to_ascii

        return to_ascii(self)

    # -- building ----------------------------------------------------------
    def __invert__(self) -> Formula:
        return Not(self)

    def __and__(self, other: Formula) -> Formula:
        return And(self, other)

    def __or__(self, other: Formula) -> Formula:
        return Or(self, other)

    def __rshift__(self, other: Formula) -> Formula:
        return Implies(self, other)

    def implies(self, other: Formula) -> Formula:
        return Implies(self, other)

    def iff(self, other: Formula) -> Formula:
        return Iff(self, other)

    # -- structure -----------------------------------------------------------
    @property
    def children(self) -> tuple[Formula, ...]:
        """The immediate subformulas, in order."""
        return ()

    def subformulas(self) -> Iterator[Formula]:
        """Every distinct subformula, each after its own subformulas (post-order)."""
        seen: set[Formula] = set()
        stack: list[tuple[Formula, bool]] = [(self, False)]
        while stack:
            f, expanded = stack.pop()
            if f in seen:
                continue
            if expanded:
                seen.add(f)
                yield f
            else:
                stack.append((f, True))
                stack.extend((c, False) for c in reversed(f.children))

    def atoms(self) -> frozenset[str]:
        """The names of the atoms that occur in the formula."""
        return frozenset(f.name for f in self.subformulas() if isinstance(f, Atom))

    def agents(self) -> frozenset[str]:
        """The agents named by the formula's modal operators."""
        out: set[str] = set()
        for f in self.subformulas():
            out.update(f._own_agents())
        return frozenset(out)

    def _own_agents(self) -> tuple[str, ...]:
        return ()

    def size(self) -> int:
        """The number of nodes of the formula tree (shared subformulas counted each time)."""
        return 1 + sum(c.size() for c in self.children)

    def modal_depth(self) -> int:
        """The nesting depth of epistemic operators (announcements count too)."""
        depth: dict[Formula, int] = {}
        for f in self.subformulas():
            inner = max((depth[c] for c in f.children), default=0)
            depth[f] = inner + (1 if isinstance(f, _Modal) else 0)
        return depth[self]

    def nnf(self) -> Formula:
        """An equivalent formula in negation normal form.

        Implications and equivalences are expanded, ``E_G`` becomes the
        conjunction of the members' ``K``, ``Kw`` becomes ``K φ | K ~φ``, and
        negations are pushed inward to atoms through the dualities
        K/M and [!]/<!>.  Common and distributed knowledge have no dual in the
        language, so a negation may remain directly in front of ``C``, ``D``
        and relativized ``C``.
        """
        return _nnf(self, False)

    def is_propositional(self) -> bool:
        return all(not isinstance(f, _Modal) for f in self.subformulas())


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Atom(Formula):
    """A propositional atom, e.g. ``p`` or a player's evaluation function ``E_A``.

    Parameters
    ----------
    name : str
        Letters, digits and underscores, not an operator's name (``K_a``, ``true``).

    Examples
    --------
    >>> import kop
    >>> kop.Atom("E_A"), kop.Atom("p") == kop.parse("p")
    (kop.parse('E_A'), True)
    """

    name: str

    def _check(self) -> None:
        name = self.name
        if not isinstance(name, str) or not ATOM_RE.fullmatch(name):
            raise ArgumentError(f"invalid atom name {name!r}: start with a letter, then letters, digits, '_'")
        if is_reserved_atom(name):
            raise ArgumentError(f"{name!r} cannot be an atom: it reads as an operator or constant")


class _Constant(Formula):
    __slots__ = ()   # a dataclass through its base (fields, __init__, frozen): nothing to generate


class Top(_Constant):
    """The constant true.

    Examples
    --------
    >>> import kop
    >>> kop.Top(), kop.Top() == kop.TRUE == kop.parse("true")
    (kop.parse('true'), True)
    """

    __slots__ = ()   # a dataclass through its base (fields, __init__, frozen): nothing to generate


class Bottom(_Constant):
    """The constant false.

    Examples
    --------
    >>> import kop
    >>> kop.Bottom(), kop.Bottom() == kop.FALSE == kop.parse("false")
    (kop.parse('false'), True)
    """

    __slots__ = ()   # a dataclass through its base (fields, __init__, frozen): nothing to generate


TRUE = Top()
FALSE = Bottom()


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Not(Formula):
    """Negation.

    Parameters
    ----------
    arg : Formula
        The formula φ in its scope.

    Examples
    --------
    >>> import kop
    >>> p = kop.Atom("p")
    >>> kop.Not(p), ~p == kop.Not(p)
    (kop.parse('~p'), True)
    """

    arg: Formula

    def _check(self) -> None:
        _check_formula(self.arg, "the argument of Not")

    @property
    def children(self) -> tuple[Formula, ...]:
        return (self.arg,)


@dataclass(frozen=True, slots=True, eq=False, repr=False, init=False)
class _NAry(Formula):
    args: tuple[Formula, ...]

    def __init__(self, *args: Formula):
        if len(args) < 2:
            raise ArgumentError(f"{type(self).__name__} needs at least two arguments; use conj()/disj()")
        where = f"an argument of {type(self).__name__}"
        object.__setattr__(self, "args", tuple([_check_formula(a, where) for a in args]))
        self.__post_init__()

    def _init_args(self) -> tuple[object, ...]:
        return self.args

    @property
    def children(self) -> tuple[Formula, ...]:
        return self.args


class And(_NAry):
    """Conjunction of two or more formulas: ``And(p, q, r)``.

    Parameters
    ----------
    *args : Formula
        Two or more conjuncts.

    Examples
    --------
    >>> import kop
    >>> p, q, r = kop.symbols("p q r")
    >>> kop.And(p, q, r), (p & q) == kop.And(p, q)
    (kop.parse('p & q & r'), True)
    """

    __slots__ = ()   # a dataclass through its base (fields, __init__, frozen): nothing to generate


class Or(_NAry):
    """Disjunction of two or more formulas: ``Or(p, q, r)``.

    Parameters
    ----------
    *args : Formula
        Two or more disjuncts.

    Examples
    --------
    >>> import kop
    >>> p, q, r = kop.symbols("p q r")
    >>> kop.Or(p, q, r), (p | q) == kop.Or(p, q)
    (kop.parse('p | q | r'), True)
    """

    __slots__ = ()   # a dataclass through its base (fields, __init__, frozen): nothing to generate


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class _Binary(Formula):
    left: Formula
    right: Formula

    def _check(self) -> None:
        _check_formula(self.left, f"the left side of {type(self).__name__}")
        _check_formula(self.right, f"the right side of {type(self).__name__}")

    @property
    def children(self) -> tuple[Formula, ...]:
        return (self.left, self.right)


class Implies(_Binary):
    """Implication ``left -> right``.

    Parameters
    ----------
    left, right : Formula
        The antecedent and the consequent.

    Examples
    --------
    >>> import kop
    >>> p, q = kop.symbols("p q")
    >>> kop.Implies(p, q), p.implies(q) == kop.Implies(p, q)
    (kop.parse('p -> q'), True)
    """

    __slots__ = ()   # a dataclass through its base (fields, __init__, frozen): nothing to generate


class Iff(_Binary):
    """Equivalence ``left <-> right``.

    Parameters
    ----------
    left, right : Formula
        The two sides.

    Examples
    --------
    >>> import kop
    >>> p, q = kop.symbols("p q")
    >>> kop.Iff(p, q), p.iff(q) == kop.Iff(p, q)
    (kop.parse('p <-> q'), True)
    """

    __slots__ = ()   # a dataclass through its base (fields, __init__, frozen): nothing to generate


class _Modal(Formula):
    """Marker base class of the epistemic and dynamic operators."""

    __slots__ = ()   # a dataclass through its base (fields, __init__, frozen): nothing to generate


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class _Individual(_Modal):
    agent: str
    arg: Formula

    def _check(self) -> None:
        _check_agent(self.agent)
        _check_formula(self.arg, f"the argument of {type(self).__name__}")

    @property
    def children(self) -> tuple[Formula, ...]:
        return (self.arg,)

    def _own_agents(self) -> tuple[str, ...]:
        return (self.agent,)


class Know(_Individual):
    """``K_a φ``: agent a knows φ.

    Parameters
    ----------
    agent : str
        The agent's name (letters, digits and underscores).
    arg : Formula
        The formula φ in its scope.

    Examples
    --------
    >>> import kop
    >>> m = kop.KripkeModel({"w": ["p"], "v": []}, {"a": [["w", "v"]], "b": [["w"], ["v"]]}, "w")
    >>> f = kop.Know("b", kop.Atom("p"))
    >>> f, m.satisfies(f), m.satisfies(kop.Know("a", kop.Atom("p")))
    (kop.parse('K_b p'), True, False)

    References
    ----------
    R. Fagin, J. Y. Halpern, Y. Moses, M. Y. Vardi, *Reasoning About Knowledge*, MIT Press (1995), ch. 2.
    """

    __slots__ = ()   # a dataclass through its base (fields, __init__, frozen): nothing to generate


class Possible(_Individual):
    """``M_a φ``: agent a considers φ possible (the dual of K_a).

    Parameters
    ----------
    agent : str
        The agent's name (letters, digits and underscores).
    arg : Formula
        The formula φ in its scope.

    Examples
    --------
    >>> import kop
    >>> m = kop.KripkeModel({"w": ["p"], "v": []}, {"a": [["w", "v"]], "b": [["w"], ["v"]]}, "w")
    >>> f = kop.Possible("a", kop.parse("~p"))
    >>> f, m.satisfies(f), f == kop.parse("~K_a ~~p")
    (kop.parse('M_a ~p'), True, False)

    References
    ----------
    R. Fagin, J. Y. Halpern, Y. Moses, M. Y. Vardi, *Reasoning About Knowledge*, MIT Press (1995), ch. 2.
    """

    __slots__ = ()   # a dataclass through its base (fields, __init__, frozen): nothing to generate


class KnowWhether(_Individual):
    """``Kw_a φ``: agent a knows whether φ, i.e. ``K_a φ | K_a ~φ``.

    Parameters
    ----------
    agent : str
        The agent's name (letters, digits and underscores).
    arg : Formula
        The formula φ in its scope.

    Examples
    --------
    >>> import kop
    >>> m = kop.KripkeModel({"w": ["p"], "v": []}, {"a": [["w", "v"]], "b": [["w"], ["v"]]}, "w")
    >>> kop.KnowWhether("b", kop.Atom("p")), m.satisfies("Kw_b p & ~Kw_a p")
    (kop.parse('Kw_b p'), True)
    """

    __slots__ = ()   # a dataclass through its base (fields, __init__, frozen): nothing to generate


@dataclass(frozen=True, slots=True, eq=False, repr=False, init=False)
class _GroupOp(_Modal):
    group: tuple[str, ...]
    arg: Formula

    def __init__(self, group: Iterable[str] | str, arg: Formula):
        object.__setattr__(self, "group", _group(group))
        object.__setattr__(self, "arg", _check_formula(arg, f"the argument of {type(self).__name__}"))
        self.__post_init__()

    @property
    def children(self) -> tuple[Formula, ...]:
        return (self.arg,)

    def _own_agents(self) -> tuple[str, ...]:
        return self.group


class Everyone(_GroupOp):
    """``E_G φ``: everybody in G knows φ.

    Parameters
    ----------
    group : str or iterable of str
        The agents of G (a string is one agent).
    arg : Formula
        The formula φ in its scope.

    Examples
    --------
    >>> import kop
    >>> m = kop.KripkeModel({"w": ["p"], "v": []}, {"a": [["w", "v"]], "b": [["w"], ["v"]]}, "w")
    >>> f = kop.Everyone(["a", "b"], kop.Atom("p"))
    >>> f, m.satisfies(f), m.satisfies(kop.Everyone(["b"], kop.Atom("p")))
    (kop.parse('E{a,b} p'), False, True)

    References
    ----------
    R. Fagin, J. Y. Halpern, Y. Moses, M. Y. Vardi, *Reasoning About Knowledge*, MIT Press (1995), ch. 2.
    """

    __slots__ = ()   # a dataclass through its base (fields, __init__, frozen): nothing to generate


class Common(_GroupOp):
    """``C_G φ``: φ is common knowledge in G.

    Parameters
    ----------
    group : str or iterable of str
        The agents of G (a string is one agent).
    arg : Formula
        The formula φ in its scope.

    Examples
    --------
    >>> import kop
    >>> m = kop.KripkeModel({"w": ["p"], "v": []}, {"a": [["w", "v"]], "b": [["w"], ["v"]]}, "w")
    >>> f = kop.Common(["a", "b"], kop.parse("p | ~p"))
    >>> f, m.satisfies(f), m.satisfies(kop.Common(["b"], kop.Atom("p")))
    (kop.parse('C{a,b} (p | ~p)'), True, True)

    References
    ----------
    R. Fagin, J. Y. Halpern, Y. Moses, M. Y. Vardi, *Reasoning About Knowledge*, MIT Press (1995),
    ch. 2 and 11.
    """

    __slots__ = ()   # a dataclass through its base (fields, __init__, frozen): nothing to generate


class Distributed(_GroupOp):
    """``D_G φ``: φ is distributed knowledge in G.

    Parameters
    ----------
    group : str or iterable of str
        The agents of G (a string is one agent).
    arg : Formula
        The formula φ in its scope.

    Examples
    --------
    >>> import kop
    >>> m = kop.KripkeModel({"w": ["p"], "u": [], "v": []},
    ...                     {"a": [["w", "u"], ["v"]], "b": [["w", "v"], ["u"]]}, "w")
    >>> f = kop.Distributed(["a", "b"], kop.Atom("p"))
    >>> f, m.satisfies(f), m.satisfies("K_a p | K_b p")
    (kop.parse('D{a,b} p'), True, False)

    References
    ----------
    R. Fagin, J. Y. Halpern, Y. Moses, M. Y. Vardi, *Reasoning About Knowledge*, MIT Press (1995), ch. 2.
    """

    __slots__ = ()   # a dataclass through its base (fields, __init__, frozen): nothing to generate


@dataclass(frozen=True, slots=True, eq=False, repr=False, init=False)
class RelCommon(_Modal):
    """``C_G(φ, ψ)``: along every G-path through φ-worlds, ψ holds.

    Relativized common knowledge (van Benthem, van Eijck & Kooi 2005): true at
    w iff ψ holds at every world reachable from w by a non-empty chain of
    G-steps in which every world after w satisfies φ.

    Parameters
    ----------
    group : str or iterable of str
        The agents of G (a string is one agent).
    cond : Formula
        φ, the condition every world along the path satisfies.
    arg : Formula
        ψ.

    Examples
    --------
    >>> import kop
    >>> p, q = kop.symbols("p q")
    >>> kop.RelCommon(["a", "b"], p, q)
    kop.parse('C{a,b}(p, q)')
    >>> kop.to_ascii(kop.reduce_announcements(kop.parse("[!p] C{a,b} q")))
    'p -> C{a,b}(p, q)'

    References
    ----------
    J. van Benthem, J. van Eijck, B. Kooi, *Logics of communication and change*, Information and
    Computation 204 (2006).
    """

    group: tuple[str, ...]
    cond: Formula
    arg: Formula

    def __init__(self, group: Iterable[str] | str, cond: Formula, arg: Formula):
        object.__setattr__(self, "group", _group(group))
        object.__setattr__(self, "cond", _check_formula(cond, "the condition of RelCommon"))
        object.__setattr__(self, "arg", _check_formula(arg, "the argument of RelCommon"))
        self.__post_init__()

    @property
    def children(self) -> tuple[Formula, ...]:
        return (self.cond, self.arg)

    def _own_agents(self) -> tuple[str, ...]:
        return self.group


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class _Announcement(_Modal):
    ann: Formula
    arg: Formula

    def _check(self) -> None:
        _check_formula(self.ann, "the announced formula")
        _check_formula(self.arg, f"the argument of {type(self).__name__}")

    @property
    def children(self) -> tuple[Formula, ...]:
        return (self.ann, self.arg)


class Announce(_Announcement):
    """``[!φ]ψ``: after every truthful public announcement of φ, ψ holds.

    Parameters
    ----------
    ann : Formula
        φ, the announced formula.
    arg : Formula
        ψ.

    Examples
    --------
    >>> import kop
    >>> m = kop.KripkeModel({"w": ["p"], "v": []}, {"a": [["w", "v"]], "b": [["w"], ["v"]]}, "w")
    >>> f = kop.Announce(kop.Atom("p"), kop.parse("K_a p"))
    >>> f, m.satisfies(f), m.satisfies("K_a p")
    (kop.parse('[!p] K_a p'), True, False)

    References
    ----------
    J. Plaza, *Logics of public communications*, ISMIS 1989; H. van Ditmarsch, W. van der Hoek,
    B. Kooi, *Dynamic Epistemic Logic* (2007), ch. 4.
    """

    __slots__ = ()   # a dataclass through its base (fields, __init__, frozen): nothing to generate


class AnnounceDual(_Announcement):
    """``<!φ>ψ``: φ is true and after announcing it, ψ holds.

    Parameters
    ----------
    ann : Formula
        φ, the announced formula (true where this holds).
    arg : Formula
        ψ.

    Examples
    --------
    >>> import kop
    >>> m = kop.KripkeModel({"w": ["p"], "v": []}, {"a": [["w", "v"]], "b": [["w"], ["v"]]}, "w")
    >>> f = kop.AnnounceDual(kop.parse("~p"), kop.parse("K_a ~p"))
    >>> f, m.satisfies(f), m.satisfies("[!~p] K_a ~p")
    (kop.parse('<!~p> K_a ~p'), False, True)

    References
    ----------
    J. Plaza, *Logics of public communications*, ISMIS 1989; H. van Ditmarsch, W. van der Hoek,
    B. Kooi, *Dynamic Epistemic Logic* (2007), ch. 4.
    """

    __slots__ = ()   # a dataclass through its base (fields, __init__, frozen): nothing to generate


class Belief(_Individual):
    """``B_a φ``: agent a believes φ (φ holds at the most plausible worlds of a's cell).

    Plausibility models (Baltag & Smets 2008); see ``docs/uncertainty.md``.
    Unlike knowledge, belief can be false at the actual world.

    Parameters
    ----------
    agent : str
        The agent's name (letters, digits and underscores).
    arg : Formula
        The formula φ in its scope.

    Examples
    --------
    >>> import kop
    >>> kop.Belief("a", kop.Atom("p")), kop.B("a", "p") == kop.Belief("a", kop.Atom("p"))
    (kop.parse('B_a p'), True)

    References
    ----------
    A. Baltag, S. Smets, *A qualitative theory of dynamic interactive belief revision*, LOFT 7
    (2008).
    """

    __slots__ = ()   # a dataclass through its base (fields, __init__, frozen): nothing to generate

    def _check(self) -> None:
        _UNCERTAIN_BUILT[0] = True
        _Individual._check(self)


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class CondBelief(_Modal):
    """``B_a(ψ, φ)``: agent a believes φ on the condition ψ.

    φ holds at the most plausible ψ-worlds of a's cell (true when the cell
    has no ψ-world).  ``B_a φ`` is ``B_a(true, φ)``.  The condition comes
    first, as in relativized common knowledge ``C{G}(ψ, φ)``.

    Parameters
    ----------
    agent : str
        The agent's name (letters, digits and underscores).
    cond : Formula
        ψ, the condition.
    arg : Formula
        φ.

    Examples
    --------
    >>> import kop
    >>> p, q = kop.symbols("p q")
    >>> kop.CondBelief("a", p, q), kop.B("a", q, given=p) == kop.CondBelief("a", p, q)
    (kop.parse('B_a(p, q)'), True)

    References
    ----------
    A. Baltag, S. Smets, *A qualitative theory of dynamic interactive belief revision*, LOFT 7
    (2008).
    """

    agent: str
    cond: Formula
    arg: Formula

    def _check(self) -> None:
        _UNCERTAIN_BUILT[0] = True
        _check_agent(self.agent)
        _check_formula(self.cond, "the condition of CondBelief")
        _check_formula(self.arg, "the argument of CondBelief")

    @property
    def children(self) -> tuple[Formula, ...]:
        return (self.cond, self.arg)

    def _own_agents(self) -> tuple[str, ...]:
        return (self.agent,)


#: The comparisons of a probability formula, and their negations.
RELATIONS = {">=": "<", ">": "<=", "<": ">=", "<=": ">", "=": None}


_NUMBER = re.compile(r"\s*(-?)\s*([0-9]{1,300}(?:\.[0-9]{1,300})?)\s*(?:/\s*([0-9]{1,300}(?:\.[0-9]{1,300})?)\s*)?")


def parse_fraction(text: str) -> Fraction:
    """A decimal or a fraction written as text (``"0.25"``, ``"1/3"``, ``"-2"``), exactly.

    No exponents and at most 300 digits per part, so that a hostile text cannot
    ask for a huge number.  Raises ``ValueError`` otherwise (and for ``x/0``).

    >>> parse_fraction("2/6"), parse_fraction(" 0.5 ")
    (Fraction(1, 3), Fraction(1, 2))
    """
    m = _NUMBER.fullmatch(text)
    if m is None:
        raise ValueError(f"{text!r} is not a number: write a decimal or a fraction such as \"1/3\"")
    sign, top, bottom = m.groups()
    value = Fraction(top)
    if bottom is not None:
        if Fraction(bottom) == 0:
            raise ValueError(f"{text!r} divides by zero")
        value /= Fraction(bottom)
    return -value if sign else value


def _bound(r: object) -> Fraction:
    if isinstance(r, bool):
        raise TypeError("a probability bound must be a number, not a bool")
    if isinstance(r, Fraction):
        return r
    if isinstance(r, int):
        return Fraction(r)
    if isinstance(r, float):
        if r != r or r in (float("inf"), float("-inf")):
            raise ValueError(f"invalid probability bound {r!r}")
        return Fraction(repr(r))          # the decimal as written, not the binary float
    if isinstance(r, str):
        return parse_fraction(r)
    try:
        if isinstance(r, Decimal):
            return Fraction(r)
        if isinstance(r, Rational):
            return Fraction(r)
    except ValueError:  # a Decimal NaN
        pass
    raise TypeError(f"a probability bound must be a number or a string, not {type(r).__name__}")


@dataclass(frozen=True, slots=True, eq=False, repr=False, init=False)
class Probability(_Modal):
    """``P_a(φ) >= r``: agent a's probability of φ compares to r (Kooi 2003).

    *relation* is one of ``>=``, ``>``, ``<``, ``<=``, ``=``; *bound* is
    kept as an exact :class:`fractions.Fraction` (give a Fraction, an int,
    a string such as ``"1/3"`` or ``"0.25"``, or a float, read as the
    decimal it prints as).  The probability is a's measure of the φ-worlds
    of its cell, renormalized within the cell, in exact arithmetic.

    Parameters
    ----------
    agent : str
        The agent's name (letters, digits and underscores).
    arg : Formula
        The formula φ in its scope.
    relation : {">=", ">", "<", "<=", "="}
        The comparison.
    bound : Fraction, int, float or str
        r, kept exact.

    Examples
    --------
    >>> Probability("a", Atom("p"), ">=", "0.5")
    kop.parse('P_a(p) >= 1/2')

    References
    ----------
    B. Kooi, *Probabilistic dynamic epistemic logic*, Journal of Logic, Language and Information 12
    (2003).
    """

    agent: str
    arg: Formula
    relation: str
    bound: Fraction

    def __init__(self, agent: str, arg: Formula, relation: str, bound: Fraction | int | float | str):
        agent = _check_agent(agent)
        arg = _check_formula(arg, "the argument of Probability")
        if relation not in RELATIONS:
            raise ArgumentError(f"argument 'relation': invalid comparison {relation!r}: use one of "
                                f"{', '.join(RELATIONS)}")
        b = _bound(bound)
        if b < 0:
            raise ValueError(f"a probability bound must not be negative, not {b}")
        object.__setattr__(self, "agent", agent)
        object.__setattr__(self, "arg", arg)
        object.__setattr__(self, "relation", relation)
        object.__setattr__(self, "bound", b)
        self.__post_init__()

    def _check(self) -> None:
        _UNCERTAIN_BUILT[0] = True

    @property
    def children(self) -> tuple[Formula, ...]:
        return (self.arg,)

    def _own_agents(self) -> tuple[str, ...]:
        return (self.agent,)

    def holds_for(self, value: Fraction) -> bool:
        """Whether a probability of *value* satisfies the comparison."""
        r, rel = self.bound, self.relation
        if rel == ">=":
            return value >= r
        if rel == ">":
            return value > r
        if rel == "<":
            return value < r
        if rel == "<=":
            return value <= r
        return value == r


# -- convenience constructors ---------------------------------------------------

def symbols(names: str | Iterable[str]) -> tuple[Atom, ...]:
    """Atoms from a space- or comma-separated string: ``p, q = symbols("p q")``.

    Parameters
    ----------
    names : str or iterable of str
        Atom names, separated by spaces or commas.

    Returns
    -------
    tuple of Atom
        One atom per name, in order.

    Examples
    --------
    >>> import kop
    >>> p, q = kop.symbols("p, q")
    >>> p & ~q
    kop.parse('p & ~q')
    """
    if isinstance(names, str):
        names = names.replace(",", " ").split()
    return tuple(Atom(n) for n in _iterable(names, "names", "symbols()"))


def _iterable(x: Iterable[_T], name: str, where: str) -> tuple[_T, ...]:
    # the annotation is what callers should pass; at run time anything may come, and is checked
    if isinstance(x, Iterable):
        return tuple(x)
    raise ArgumentError(f"argument {name!r} of {where}: expected an iterable, got a {type(x).__name__}")


def _as_formula(x: Formula | str) -> Formula:
    if isinstance(x, str):
        from kop.syntax.parser import parse

        return parse(x)
    if not isinstance(x, Formula):
        raise ArgumentError(f"argument 'phi': expected a formula (a Formula or a string such as 'K_a p'), "
                            f"got a {type(x).__name__}")
    return x


def K(agent: str, phi: Formula | str) -> Know:
    """``K_agent phi``; *phi* may be a formula or a string to parse.

    Parameters
    ----------
    agent : str
        The agent's name (letters, digits and underscores).
    phi : Formula or str
        The formula φ (a string is parsed).

    Returns
    -------
    Know
        ``K_agent phi``.

    Examples
    --------
    >>> import kop
    >>> kop.K("a", "p -> q"), kop.K("a", kop.K("b", "p"))
    (kop.parse('K_a (p -> q)'), kop.parse('K_a K_b p'))
    """
    return Know(agent, _as_formula(phi))


def M(agent: str, phi: Formula | str) -> Possible:
    """``M_agent phi``; *phi* may be a formula or a string to parse.

    Parameters
    ----------
    agent : str
        The agent's name (letters, digits and underscores).
    phi : Formula or str
        The formula φ (a string is parsed).

    Returns
    -------
    Possible
        ``M_agent phi``: agent considers phi possible.

    Examples
    --------
    >>> import kop
    >>> kop.M("a", "p")
    kop.parse('M_a p')
    """
    return Possible(agent, _as_formula(phi))


def Kw(agent: str, phi: Formula | str) -> KnowWhether:
    """``Kw_agent phi``; *phi* may be a formula or a string to parse.

    Parameters
    ----------
    agent : str
        The agent's name (letters, digits and underscores).
    phi : Formula or str
        The formula φ (a string is parsed).

    Returns
    -------
    KnowWhether
        ``Kw_agent phi``.

    Examples
    --------
    >>> import kop
    >>> kop.Kw("a", "p")
    kop.parse('Kw_a p')
    """
    return KnowWhether(agent, _as_formula(phi))


def E(group: Iterable[str] | str, phi: Formula | str) -> Everyone:
    """``E_G phi``; *phi* may be a formula or a string to parse.

    Parameters
    ----------
    group : str or iterable of str
        The agents of G (a string is one agent).
    phi : Formula or str
        The formula φ (a string is parsed).

    Returns
    -------
    Everyone
        ``E_G phi``: everybody in G knows phi.

    Examples
    --------
    >>> import kop
    >>> kop.E(["a", "b"], "p")
    kop.parse('E{a,b} p')
    """
    return Everyone(group, _as_formula(phi))


def C(group: Iterable[str] | str, phi: Formula | str, psi: Formula | str | None = None) -> Formula:
    """``C_G phi``, or relativized ``C_G(phi, psi)`` when *psi* is given.

    Parameters
    ----------
    group : str or iterable of str
        The agents of G (a string is one agent).
    phi : Formula or str
        The formula φ (a string is parsed).
    psi : Formula or str, optional
        With it, relativized common knowledge ``C_G(phi, psi)``.

    Returns
    -------
    Common or RelCommon
        ``C_G phi``, or ``C_G(phi, psi)``.

    Examples
    --------
    >>> import kop
    >>> kop.C(["a", "b"], "p"), kop.C(["a", "b"], "p", "q")
    (kop.parse('C{a,b} p'), kop.parse('C{a,b}(p, q)'))
    """
    if psi is None:
        return Common(group, _as_formula(phi))
    return RelCommon(group, _as_formula(phi), _as_formula(psi))


def D(group: Iterable[str] | str, phi: Formula | str) -> Distributed:
    """``D_G phi``; *phi* may be a formula or a string to parse.

    Parameters
    ----------
    group : str or iterable of str
        The agents of G (a string is one agent).
    phi : Formula or str
        The formula φ (a string is parsed).

    Returns
    -------
    Distributed
        ``D_G phi``: phi is distributed knowledge in G.

    Examples
    --------
    >>> import kop
    >>> kop.D(["a", "b"], "p")
    kop.parse('D{a,b} p')
    """
    return Distributed(group, _as_formula(phi))


def B(agent: str, phi: Formula | str, given: Formula | str | None = None) -> Formula:
    """``B_agent phi``, or the conditional belief ``B_agent(given, phi)`` when *given* is given.

    Parameters
    ----------
    agent : str
        The agent's name (letters, digits and underscores).
    phi : Formula or str
        The formula φ (a string is parsed).
    given : Formula or str, optional
        The condition of a conditional belief.

    Returns
    -------
    Belief or CondBelief
        ``B_agent phi``, or ``B_agent(given, phi)``.

    Examples
    --------
    >>> B("a", "p"), B("a", "q", given="p")
    (kop.parse('B_a p'), kop.parse('B_a(p, q)'))

    References
    ----------
    A. Baltag, S. Smets, *A qualitative theory of dynamic interactive belief revision*, LOFT 7
    (2008).
    """
    if given is None:
        return Belief(agent, _as_formula(phi))
    return CondBelief(agent, _as_formula(given), _as_formula(phi))


class _ProbTerm:
    """``P(agent, phi)``: compare it with a number to get a :class:`Probability` formula."""

    __slots__ = ("agent", "arg")
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, agent: str, arg: Formula):
        self.agent, self.arg = agent, arg

    def __ge__(self, r: object) -> Probability:
        return Probability(self.agent, self.arg, ">=", r)  # type: ignore[arg-type]

    def __gt__(self, r: object) -> Probability:
        return Probability(self.agent, self.arg, ">", r)  # type: ignore[arg-type]

    def __le__(self, r: object) -> Probability:
        return Probability(self.agent, self.arg, "<=", r)  # type: ignore[arg-type]

    def __lt__(self, r: object) -> Probability:
        return Probability(self.agent, self.arg, "<", r)  # type: ignore[arg-type]

    def __eq__(self, r: object) -> Probability:  # type: ignore[override]
        return Probability(self.agent, self.arg, "=", r)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return f"P({self.agent!r}, {self.arg!r})"


def P(agent: str, phi: Formula | str) -> _ProbTerm:
    """Agent *agent*'s probability of *phi*, to compare with a number.

    Parameters
    ----------
    agent : str
        The agent's name (letters, digits and underscores).
    phi : Formula or str
        The formula φ (a string is parsed).

    Returns
    -------
    object
        A term that compares (``>=``, ``>``, ``<``, ``<=``, ``==``) with a number into a
        :class:`Probability` formula.

    Examples
    --------
    >>> from fractions import Fraction
    >>> P("a", "p") >= Fraction(1, 3)
    kop.parse('P_a(p) >= 1/3')
    >>> str(P("a", "p & q") < "0.5")
    'P_a(p & q) < 1/2'

    References
    ----------
    B. Kooi, *Probabilistic dynamic epistemic logic*, Journal of Logic, Language and Information 12
    (2003).
    """
    return _ProbTerm(_check_agent(agent), _as_formula(phi))


def conj(formulas: Iterable[Formula]) -> Formula:
    """The conjunction of the formulas: ``true`` if none, the formula itself if one.

    Parameters
    ----------
    formulas : iterable of Formula
        The conjuncts.

    Returns
    -------
    Formula
        ``true`` for none, the formula itself for one, else their :class:`And`.

    Examples
    --------
    >>> import kop
    >>> kop.conj(kop.symbols("p q")), kop.conj([kop.Atom("p")]), kop.conj([])
    (kop.parse('p & q'), kop.parse('p'), kop.parse('true'))
    """
    fs = _iterable(formulas, "formulas", "conj()")
    if not fs:
        return TRUE
    return _check_formula(fs[0], "the formula of conj()") if len(fs) == 1 else And(*fs)


def disj(formulas: Iterable[Formula]) -> Formula:
    """The disjunction of the formulas: ``false`` if none, the formula itself if one.

    Parameters
    ----------
    formulas : iterable of Formula
        The disjuncts.

    Returns
    -------
    Formula
        ``false`` for none, the formula itself for one, else their :class:`Or`.

    Examples
    --------
    >>> import kop
    >>> kop.disj(kop.symbols("p q")), kop.disj([kop.Atom("p")]), kop.disj([])
    (kop.parse('p | q'), kop.parse('p'), kop.parse('false'))
    """
    fs = _iterable(formulas, "formulas", "disj()")
    if not fs:
        return FALSE
    return _check_formula(fs[0], "the formula of disj()") if len(fs) == 1 else Or(*fs)


# -- negation normal form -------------------------------------------------------

def _nnf(f: Formula, neg: bool) -> Formula:
    """The negation normal form of *f* (of ``~f`` if *neg*): one rule per operator (``_NNF``)."""
    rule = _NNF.get(type(f))
    if rule is None:
        rule = _nnf_rule(type(f))
    return rule(f, neg)


def _nnf_rule(kind: type) -> Callable[[Any, bool], Formula]:
    """The rule of a subclass of an operator: its first base class that has one."""
    for base in kind.__mro__:
        if base in _NNF:
            return _NNF[base]
    raise TypeError(f"unknown formula type {kind.__name__}")


def _nnf_atom(f: Atom, neg: bool) -> Formula:
    return Not(f) if neg else f


def _nnf_top(f: Top, neg: bool) -> Formula:
    return FALSE if neg else TRUE


def _nnf_bottom(f: Bottom, neg: bool) -> Formula:
    return TRUE if neg else FALSE


def _nnf_not(f: Not, neg: bool) -> Formula:
    return _nnf(f.arg, not neg)


def _nnf_and(f: And, neg: bool) -> Formula:
    parts = tuple(_nnf(a, neg) for a in f.args)
    return Or(*parts) if neg else And(*parts)


def _nnf_or(f: Or, neg: bool) -> Formula:
    parts = tuple(_nnf(a, neg) for a in f.args)
    return And(*parts) if neg else Or(*parts)


def _nnf_implies(f: Implies, neg: bool) -> Formula:
    return _nnf(Or(Not(f.left), f.right), neg)


def _nnf_iff(f: Iff, neg: bool) -> Formula:
    a, b = f.left, f.right
    return _nnf(Or(And(a, b), And(Not(a), Not(b))), neg)


def _nnf_know(f: Know, neg: bool) -> Formula:
    return Possible(f.agent, _nnf(f.arg, True)) if neg else Know(f.agent, _nnf(f.arg, False))


def _nnf_possible(f: Possible, neg: bool) -> Formula:
    return Know(f.agent, _nnf(f.arg, True)) if neg else Possible(f.agent, _nnf(f.arg, False))


def _nnf_know_whether(f: KnowWhether, neg: bool) -> Formula:
    pos, negd = _nnf(f.arg, False), _nnf(f.arg, True)
    if neg:
        return And(Possible(f.agent, pos), Possible(f.agent, negd))
    return Or(Know(f.agent, pos), Know(f.agent, negd))


def _nnf_everyone(f: Everyone, neg: bool) -> Formula:
    return _nnf(conj(Know(a, f.arg) for a in f.group), neg)


def _nnf_group(f: Common | Distributed, neg: bool) -> Formula:
    inner: Formula = type(f)(f.group, _nnf(f.arg, False))
    return Not(inner) if neg else inner


def _nnf_rel_common(f: RelCommon, neg: bool) -> Formula:
    inner = RelCommon(f.group, _nnf(f.cond, False), _nnf(f.arg, False))
    return Not(inner) if neg else inner


def _nnf_belief(f: Belief, neg: bool) -> Formula:
    bel = Belief(f.agent, _nnf(f.arg, False))
    return Not(bel) if neg else bel


def _nnf_cond_belief(f: CondBelief, neg: bool) -> Formula:
    bel = CondBelief(f.agent, _nnf(f.cond, False), _nnf(f.arg, False))
    return Not(bel) if neg else bel


def _nnf_probability(f: Probability, neg: bool) -> Formula:
    rel = RELATIONS[f.relation] if neg else f.relation
    if rel is None:
        return Not(Probability(f.agent, _nnf(f.arg, False), f.relation, f.bound))
    return Probability(f.agent, _nnf(f.arg, False), rel, f.bound)


def _nnf_announce(f: Announce, neg: bool) -> Formula:
    ann = _nnf(f.ann, False)
    return AnnounceDual(ann, _nnf(f.arg, True)) if neg else Announce(ann, _nnf(f.arg, False))


def _nnf_announce_dual(f: AnnounceDual, neg: bool) -> Formula:
    ann = _nnf(f.ann, False)
    return Announce(ann, _nnf(f.arg, True)) if neg else AnnounceDual(ann, _nnf(f.arg, False))


_NNF: dict[type, Callable[[Any, bool], Formula]] = {
    Atom: _nnf_atom, Top: _nnf_top, Bottom: _nnf_bottom, Not: _nnf_not, And: _nnf_and, Or: _nnf_or,
    Implies: _nnf_implies, Iff: _nnf_iff, Know: _nnf_know, Possible: _nnf_possible,
    KnowWhether: _nnf_know_whether, Everyone: _nnf_everyone, Common: _nnf_group, Distributed: _nnf_group,
    RelCommon: _nnf_rel_common, Belief: _nnf_belief, CondBelief: _nnf_cond_belief,
    Probability: _nnf_probability, Announce: _nnf_announce, AnnounceDual: _nnf_announce_dual,
}
