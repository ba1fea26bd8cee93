"""Knowledge structures: symbolic S5_n models (SMCDEL style), checked with BDDs.

A knowledge structure is a vocabulary V of atoms, a propositional *state law*
θ over V and, for each agent i, the atoms O_i ⊆ V it observes.  Its states
are the assignments to V that satisfy θ; agent i cannot tell apart two
states that agree on O_i.  It is the same model as
:meth:`KripkeModel.from_observations <kop.semantics.model.KripkeModel.from_observations>`
builds explicitly, but the states are never listed: θ and the truth set of
every formula are binary decision diagrams (see
:mod:`kop.semantics.symbolic_checker`), so 2^400 states cost no more than
the formulas' BDDs.

Example
-------
>>> from kop import KnowledgeStructure
>>> ks = KnowledgeStructure(["p", "q"], "p | q", {"a": ["p"], "b": ["q"]}, actual={"p", "q"})
>>> ks
KnowledgeStructure(['p', 'q'], 'p | q', {'a': ['p'], 'b': ['q']}, actual={'p', 'q'})
>>> ks.count(), ks.satisfies("K_a p & ~K_a q & K_b q")
(3, True)
>>> ks.satisfies("K_a q", state={"p"}), ks.valid("p | q"), ks.valid("K_a p")
(False, True, False)
>>> after = ks.announce("~K_a q")        # θ := θ ∧ ‖~K_a q‖
>>> after.count(), after.valid("C{a,b} ~K_a q")
(2, True)

Large structures: drinking logicians with 400 atoms (2^400 states):

>>> from kop.puzzles import drinking_logicians as dl
>>> dl.structure(400).satisfies(dl.smcdel_formula(400))
True

Reference: van Benthem, van Eijck, Gattinger & Su, *Symbolic model checking
for Dynamic Epistemic Logic* (LORI 2015), Definitions 1-3 (knowledge
structures, their semantics, public announcements) and Theorem 1 (every one
is equivalent to an S5_n Kripke model); Gattinger's SMCDEL.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from operator import lt
from typing import TYPE_CHECKING, Any

from kop.semantics.errors import ModelError
from kop.semantics.vocabulary import _names, _vocabulary
from kop.bdd.manager import Function, Manager, manager
from kop.semantics.symbolic_checker import Translator
from kop.errors import LanguageError, LimitError
from kop.syntax.formula import _RESERVED, AGENT_RE, ATOM_RE, TRUE, Atom, Formula, Not, conj, disj
from kop.syntax.printer import to_ascii

if TYPE_CHECKING:
    from kop.semantics.model import KripkeModel

__all__ = ["KnowledgeStructure", "MAX_KRIPKE_STATES"]

#: The most states :meth:`KnowledgeStructure.to_kripke` makes explicit unless told otherwise.
MAX_KRIPKE_STATES = 1 << 20

_State = frozenset[str]


class KnowledgeStructure:
    """A knowledge structure (V, θ, O_1..O_n) with designated states.

    Parameters
    ----------
    vocabulary : iterable of str, or str
        The atoms V, in order (a string is split at spaces and commas).  The
        order is the initial BDD variable order.
    law : Formula or str
        The state law θ, a propositional formula over the vocabulary.
    observables : mapping of agent to atoms
        O_i for each agent i (a list of atoms or a space-separated string).
    actual : optional
        The designated state, as the set of atoms true there (the others are
        false), or a list of such sets for several; None (the default)
        designates every state.  Designated states must satisfy the law.
    backend : {"cudd", "python"}, optional
        The BDD package: CUDD (``dd.cudd``, the default when it is
        importable) or kop's own (see :func:`kop.bdd.manager.backend_name`;
        ``"autoref"`` is an old name of ``"python"``).

    Raises
    ------
    ModelError
        An invalid or repeated atom name, an agent observing an atom outside
        the vocabulary, a modal law or one with atoms outside the vocabulary,
        a designated state that violates the law.

    Notes
    -----
    Formulas asked about a structure may use only its vocabulary and its
    agents; anything else raises :class:`ModelError`.  Structures are
    immutable; :meth:`announce` and :meth:`with_actual` return new ones.

    Examples
    --------
    Two atoms, at least one true; a observes p and b observes q; actually only p holds:

    >>> import kop
    >>> ks = kop.KnowledgeStructure("p q", "p | q", {"a": "p", "b": "q"}, actual={"p"})
    >>> ks.satisfies("K_a p"), ks.satisfies("K_b q"), ks.satisfies("K_b p")
    (True, False, True)

    References
    ----------
    J. van Benthem, J. van Eijck, M. Gattinger, K. Su, *Symbolic model checking for Dynamic
    Epistemic Logic*, LORI 2015.
    """

    __slots__ = ("_vocab", "_vocab_set", "_agents", "_obs", "_law", "_law_formula", "_actual", "_tr", "_note")

    def __init__(self, vocabulary: Iterable[str] | str, law: Formula | str,
                 observables: Mapping[str, Iterable[str] | str], actual: Any = None, *,
                 backend: str | None = None):
        vocab = _read_vocabulary(vocabulary)
        obs = _read_observables(observables, vocab)
        law_f = _read_law(law)
        mgr = manager(backend, vocab)
        tr = Translator(mgr, vocab, {a: frozenset(o) for a, o in obs.items()})
        if not tr.prepare(law_f, "the law"):
            raise ModelError("the law must be propositional (no knowledge or announcement operators)")
        law_bdd = tr.truth(mgr.true, law_f)
        states = _read_actual(actual, vocab)
        if states is not None:
            for s in states:
                if not mgr.evaluate(law_bdd, s):
                    raise ModelError(f"the actual state (true atoms: {_show_state(s, vocab)}) violates the law")
        note = None if law_bdd != mgr.false else "the law has no models, so the structure has no states"
        self._init(vocab, tuple(obs), obs, law_bdd, law_f, states, tr, note)

    def _init(self, vocab: tuple[str, ...], agents: tuple[str, ...], obs: dict[str, tuple[str, ...]], law: Function,
              law_formula: Formula | None, actual: tuple[_State, ...] | None, tr: Translator,
              note: str | None) -> None:
        self._vocab, self._vocab_set, self._agents, self._obs = vocab, frozenset(vocab), agents, obs
        self._law, self._law_formula, self._actual, self._tr, self._note = law, law_formula, actual, tr, note

    def _derive(self, law: Function, law_formula: Formula | None, actual: tuple[_State, ...] | None,
                note: str | None) -> KnowledgeStructure:
        new = KnowledgeStructure.__new__(KnowledgeStructure)
        new._init(self._vocab, self._agents, self._obs, law, law_formula, actual, self._tr, note)
        return new

    @classmethod
    def from_observations(cls, vocabulary: Iterable[str] | str, law: Formula | str,
                          observables: Mapping[str, Iterable[str] | str], actual: Any = None,
                          **options: Any) -> KnowledgeStructure:
        """The structure with the arguments of :meth:`KripkeModel.from_observations
        <kop.semantics.model.KripkeModel.from_observations>`.

        *actual* is the atoms true at the actual world, or a list of such
        lists; None designates every state.  The explicit builder's options
        ``max_worlds`` and ``method`` are accepted and ignored (nothing is
        enumerated); ``backend`` chooses the BDD package.
        """
        unknown = set(options) - {"max_worlds", "method", "backend"}
        if unknown:
            raise TypeError(f"unexpected keyword argument(s): {', '.join(sorted(unknown))}")
        return cls(vocabulary, law, observables, actual, backend=options.get("backend"))

    # -- what it is -----------------------------------------------------------------
    @property
    def vocabulary(self) -> tuple[str, ...]:
        return self._vocab

    @property
    def agents(self) -> tuple[str, ...]:
        return self._agents

    @property
    def observables(self) -> dict[str, tuple[str, ...]]:
        """Each agent's observed atoms, in vocabulary order."""
        return dict(self._obs)

    @property
    def law_bdd(self) -> Function:
        """The state law θ as a BDD (a ``dd.cudd`` function on CUDD)."""
        return self._law

    @property
    def law(self) -> Formula:
        """The state law as a propositional formula.

        The formula given to the constructor; after an announcement, a
        disjunction of the BDD's disjoint cubes.  Raises :class:`LimitError`
        past 10,000 cubes.
        """
        if self._law_formula is None:
            self._law_formula = _cubes_formula(self._tr.mgr, self._law, self._vocab, 10_000)
        return self._law_formula

    @property
    def actual(self) -> tuple[_State, ...] | None:
        """The designated states (each the set of its true atoms), or None when every state is designated."""
        return self._actual

    @property
    def backend(self) -> str:
        """The BDD package: "cudd" or "python"."""
        return self._tr.mgr.backend

    @property
    def note(self) -> str | None:
        """How an update left the structure without states or designated states, if it did."""
        return self._note

    @property
    def is_empty(self) -> bool:
        """True when no state satisfies the law."""
        return self._law == self._tr.mgr.false

    # -- model checking -----------------------------------------------------------------
    def _formula(self, phi: Formula | str) -> Formula:
        text = phi if isinstance(phi, str) else None
        if isinstance(phi, str):
            from kop.syntax.parser import parse

            phi = parse(phi)
        elif not isinstance(phi, Formula):
            raise TypeError(f"expected a formula or a string, not {type(phi).__name__}")
        phi = self._tr.canonical(phi)
        try:
            self._tr.prepare(phi)
        except LanguageError:  # located in the text as written (or in the formula printed)
            from kop.syntax.fragments import refuse_uncertainty

            refuse_uncertainty(phi, "a knowledge structure (symbolic model)", text)
            raise
        return phi

    def _truth(self, phi: Formula | str) -> Function:
        """‖phi‖, exact on the states satisfying the law."""
        return self._tr.truth(self._law, self._formula(phi))

    def truth_bdd(self, phi: Formula | str) -> Function:
        """The states where *phi* holds, as a BDD over the vocabulary (θ ∧ ‖phi‖)."""
        return self._law & self._truth(phi)

    def count(self, phi: Formula | str = TRUE) -> int:
        """The number of states where *phi* holds (by default, all states).

        >>> KnowledgeStructure("p q r", "p -> q", {"a": "p"}).count("K_a q")   # p true: q too
        2
        """
        return self._tr.mgr.count(self.truth_bdd(phi), self._vocab)

    def valid(self, phi: Formula | str) -> bool:
        """Whether *phi* holds at every state (vacuously true on an empty structure)."""
        return (self._law & ~self._truth(phi)) == self._tr.mgr.false

    def satisfies(self, phi: Formula | str, state: Iterable[str] | str | None = None) -> bool:
        """Whether *phi* holds at *state* (the set of its true atoms), or at every
        designated state when *state* is None.

        Raises
        ------
        ModelError
            If *state* violates the law or names an atom outside the
            vocabulary; if *state* is None and there is no designated state
            (an empty structure, or one whose designated states an
            announcement removed); if *phi* names an unknown agent or atom.
        """
        u = self._truth(phi)
        mgr = self._tr.mgr
        if state is None:
            if self._actual is None:
                if self.is_empty:
                    raise ModelError(self._no_designated())
                return (self._law & ~u) == mgr.false
            if not self._actual:
                raise ModelError(self._no_designated())
            return all(mgr.evaluate(u, s) for s in self._actual)
        s = self.state(state)
        return mgr.evaluate(u, s)

    def state(self, atoms: Iterable[str] | str) -> _State:
        """The state where exactly *atoms* are true, checked against the vocabulary and the law."""
        s = frozenset(_names(atoms, "a state"))
        unknown = s - self._vocab_set
        if unknown:
            raise ModelError(f"the state makes atom(s) {', '.join(map(repr, sorted(unknown)))} true, "
                             "which are not in the vocabulary")
        if not self._tr.mgr.evaluate(self._law, s):
            raise ModelError(f"the state (true atoms: {_show_state(s, self._vocab)}) violates the law")
        return s

    def states(self, phi: Formula | str = TRUE) -> Iterator[_State]:
        """The states where *phi* holds, each as the set of its true atoms (in no set order).

        A formula the structure cannot check is refused at the call, not when the states are iterated.

        >>> sorted(map(sorted, KnowledgeStructure("p q", "p | q", {"a": "p"}).states("K_a q")))
        [['q']]
        """
        mgr = self._tr.mgr
        truth = self.truth_bdd(phi)

        def each() -> Iterator[_State]:
            for cube in mgr.cubes(truth):
                fixed = frozenset(p for p, v in cube.items() if v)
                free = [p for p in self._vocab if p not in cube]
                for bits in range(1 << len(free)):
                    yield fixed | {p for j, p in enumerate(free) if bits >> j & 1}
        return each()

    def _no_designated(self) -> str:
        why = f": {self._note}" if self._note else ""
        if self.is_empty:
            return f"the structure is empty{why}; there is no designated state to check"
        return f"the structure has no designated states{why}; name a state to check"

    # -- updates --------------------------------------------------------------------------
    def announce(self, phi: Formula | str) -> KnowledgeStructure:
        """The structure after the public announcement of *phi*: θ := θ ∧ ‖phi‖.

        If *phi* is false at every state the result is empty, and if it is
        false at every designated state the result has none; :attr:`note`
        says so and :meth:`satisfies` without a state then raises
        :class:`ModelError`.

        >>> ks = KnowledgeStructure("p q", "true", {"a": "p"}, actual={"p"})
        >>> ks.announce("~q").satisfies("K_a ~q"), ks.announce("q").note
        (True, "the announcement 'q' is false at every designated state")
        """
        f = self._formula(phi)
        u = self._tr.truth(self._law, f)
        law = self._law & u
        mgr = self._tr.mgr
        actual = self._actual
        if actual is not None:
            actual = tuple(s for s in actual if mgr.evaluate(u, s))
        note = None
        if law == mgr.false:
            note = f"the announcement {_show(f)} is false at every state"
        elif actual == ():
            note = f"the announcement {_show(f)} is false at every designated state"
        law_formula = None
        if self._law_formula is not None and self._tr.prepare(f):    # (noted when it was read)
            law_formula = conj([self._law_formula, f]) if self._law_formula != TRUE else f
        return self._derive(law, law_formula, actual, note)

    def with_actual(self, actual: Any) -> KnowledgeStructure:
        """The same structure with other designated states (None: every state)."""
        states = _read_actual(actual, self._vocab)
        if states is not None:
            states = tuple(self.state(s) for s in states)
        return self._derive(self._law, self._law_formula, states, self._note)

    # -- explicit models --------------------------------------------------------------------
    def to_kripke(self, max_states: int = MAX_KRIPKE_STATES) -> KripkeModel:
        """The equivalent explicit :class:`~kop.semantics.model.KripkeModel`.

        Worlds are named and ordered as :meth:`KripkeModel.from_observations
        <kop.semantics.model.KripkeModel.from_observations>` names and orders
        them (``w`` and one digit per atom), so the two agree world for world.

        Raises
        ------
        LimitError
            If the structure has more than *max_states* states.
        """
        import numpy as np

        from kop.semantics.model import KripkeModel

        n = self.count()
        if n > max_states:
            raise LimitError(f"the structure has {_show_count(n)} states, more than the limit {max_states} "
                             "for an explicit model (pass max_states to raise it)")
        vocab, col = self._vocab, {p: j for j, p in enumerate(self._vocab)}
        blocks = []
        for cube in self._tr.mgr.cubes(self._law):
            free = [col[p] for p in vocab if p not in cube]
            rows = np.zeros((1 << len(free), len(vocab)), dtype=bool)
            for p, v in cube.items():
                rows[:, col[p]] = v
            for j, c in enumerate(free):
                rows[:, c] = (np.arange(1 << len(free)) >> j) & 1
            blocks.append(rows)
        bits = np.concatenate(blocks) if blocks else np.zeros((0, len(vocab)), dtype=bool)
        if len(vocab) and len(bits):
            bits = bits[np.lexsort(bits.T[::-1])]
        names = ["w" + "".join("1" if b else "0" for b in row) for row in bits.tolist()]
        partitions = {}
        for a in self._agents:
            cols = [col[p] for p in self._obs[a]]
            if cols and len(bits):
                _, ids = np.unique(bits[:, cols], axis=0, return_inverse=True)
                partitions[a] = ids.reshape(-1)
            else:
                partitions[a] = np.zeros(len(bits), dtype=np.int64)
        valuation = {p: bits[:, j] for j, p in enumerate(vocab)}
        actual = None
        if self._actual is not None:
            actual = ["w" + "".join("1" if p in s else "0" for p in vocab) for s in self._actual]
        return KripkeModel.from_arrays(names, partitions, valuation, actual=actual, agents=self._agents)

    # -- value -----------------------------------------------------------------------------
    def _law_in(self, mgr: Manager[str]) -> Function:
        if mgr is self._tr.mgr:
            return self._law
        out = mgr.false
        for cube in self._tr.mgr.cubes(self._law):
            term = mgr.true
            for p, v in cube.items():
                term = term & (mgr.var(p) if v else ~mgr.var(p))
            out = out | term
        return out

    def __eq__(self, other: object) -> bool:
        """Same vocabulary (in order), agents (in order), observables, law (as a
        boolean function) and designated states."""
        if not isinstance(other, KnowledgeStructure):
            return NotImplemented
        if (self._vocab, self._agents, self._obs) != (other._vocab, other._agents, other._obs):
            return False
        if (None if self._actual is None else set(self._actual)) != \
                (None if other._actual is None else set(other._actual)):
            return False
        return self._law == other._law_in(self._tr.mgr)

    def __hash__(self) -> int:
        return hash((self._vocab, self._agents, None if self._actual is None else frozenset(self._actual)))

    def __repr__(self) -> str:
        vocab, obs = self._vocab, self._obs
        law_text = None
        if self._law_formula is not None or len(self._law) <= 12:
            try:
                law_text = _ascii(self.law)
            except LimitError:  # pragma: no cover - 12 nodes never give 10,000 cubes
                law_text = None
        small = len(vocab) <= 12 and len(obs) <= 8 and law_text is not None and len(law_text) <= 120
        actual = "" if self._actual is None else f", actual={_show_actual(self._actual, vocab, small)}"
        note = f", note={self._note!r}" if self._note else ""
        if small:
            obs_txt = "{" + ", ".join(f"{a!r}: {list(o)!r}" for a, o in obs.items()) + "}"
            return f"KnowledgeStructure({list(vocab)!r}, {law_text!r}, {obs_txt}{actual}{note})"
        law_txt = repr(law_text) if law_text is not None and len(law_text) <= 60 else \
            f"<law: {len(self._law)} BDD nodes>"
        return (f"KnowledgeStructure(<{len(vocab)} atoms: {_ends(vocab)}>, {law_txt}, "
                f"<{len(obs)} agents: {_ends(self._agents)}>, states={_show_count(self.count())}{actual}{note})")


# -- reading the constructor's arguments ---------------------------------------------------

def _read_vocabulary(vocabulary: Any) -> tuple[str, ...]:
    if type(vocabulary) is list or type(vocabulary) is tuple:
        # the common case, checked with two regular expressions over all the names at once
        # (dining cryptographers n = 50: 1,276 atoms); anything amiss: the reader below says what
        vocab = tuple(vocabulary)
        if vocab and all(type(a) is str for a in vocab) and len(set(vocab)) == len(vocab):
            names = "\n".join(vocab)
            if names.count("\n") == len(vocab) - 1 and _ATOMS_RE.fullmatch(names) \
                    and not _RESERVED_LINE_RE.search(names):
                return vocab
    return tuple(_vocabulary(vocabulary))


#: Names, one a line, each an atom name (:data:`~kop.syntax.formula.ATOM_RE`); and a line
#: holding a reserved one (:func:`~kop.syntax.formula.is_reserved_atom`).
_ATOMS_RE = re.compile(rf"(?:{ATOM_RE.pattern}\n)*{ATOM_RE.pattern}")
_RESERVED_LINE_RE = re.compile(rf"^(?:{_RESERVED.pattern})$", re.MULTILINE)


def _read_observables(observables: Any, vocab: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    if not isinstance(observables, Mapping):
        raise ModelError(f"observables must map each agent to the atoms it observes, not {type(observables).__name__}")
    index = {p: i for i, p in enumerate(vocab)}
    out = {}
    for agent, atoms in observables.items():
        if not isinstance(agent, str) or not AGENT_RE.fullmatch(agent):
            raise ModelError(f"invalid agent name {agent!r}: use letters, digits and underscores")
        if type(atoms) is list or type(atoms) is tuple:
            # the common case, without a check per atom: the positions of atoms of the
            # vocabulary, in order (an atom outside it, or something else: the reader below)
            try:
                at = list(map(index.__getitem__, atoms))
            except (KeyError, TypeError):
                pass
            else:
                if all(map(lt, at, at[1:])):                # listed in order, once each
                    out[agent] = tuple(atoms)
                else:
                    out[agent] = tuple(map(vocab.__getitem__, sorted(set(at))))
                continue
        seen = set(_names(atoms, f"the observables of agent {agent!r}"))
        for a in sorted(seen - index.keys()):
            raise ModelError(f"agent {agent!r} observes atom {a!r}, which is not in the vocabulary")
        # in vocabulary order (sorting what the agent sees, not walking the whole vocabulary)
        out[agent] = tuple(sorted(seen, key=index.__getitem__))
    return out


def _read_law(law: Any) -> Formula:
    if isinstance(law, str):
        from kop.syntax.parser import parse

        law = parse(law)
    if not isinstance(law, Formula):
        raise ModelError(f"the law must be a formula or a string, not {type(law).__name__}")
    return law


def _read_actual(actual: Any, vocab: tuple[str, ...]) -> tuple[_State, ...] | None:
    """None, or the designated states (one set of true atoms each), without repeats."""
    if actual is None:
        return None
    if isinstance(actual, str):
        valuations: list[Any] = [actual]
    else:
        if not isinstance(actual, Iterable):
            raise ModelError(f"actual must list the atoms true at the actual state, not {type(actual).__name__}")
        items = list(actual)
        several = any(not isinstance(x, str) for x in items)
        if several and not all(not isinstance(x, str) and isinstance(x, Iterable) for x in items):
            raise ModelError("actual must be a set of atoms (one state) or a list of sets of atoms (several)")
        valuations = items if several else [items]
    known = set(vocab)
    out: list[_State] = []
    for val in valuations:
        s = frozenset(_names(val, "an actual state"))
        for a in sorted(s - known):
            raise ModelError(f"the actual state makes atom {a!r} true, but it is not in the vocabulary")
        if s not in out:
            out.append(s)
    return tuple(out)


# -- display -----------------------------------------------------------------------------------

def _ascii(f: Formula) -> str:
    return to_ascii(f)


def _show(f: Formula) -> str:
    text = _ascii(f)
    return repr(text if len(text) <= 80 else text[:77] + "...")


def _show_state(s: _State, vocab: tuple[str, ...]) -> str:
    return ", ".join(p for p in vocab if p in s) or "none"


def _show_count(n: int) -> str:
    if n < 10 ** 12:
        return str(n)
    exp = n.bit_length() - 1
    return f"2**{exp}" if n == 1 << exp else f"~2**{n.bit_length() - 1}"


def _show_actual(states: tuple[_State, ...], vocab: tuple[str, ...], small: bool) -> str:
    def one(s: _State) -> str:
        if not small and len(s) > 6:
            return f"<{len(s)} true atoms>"
        return "{" + ", ".join(repr(p) for p in vocab if p in s) + "}" if s else "set()"

    if len(states) == 1:
        return one(states[0])
    if len(states) > 4:
        return f"<{len(states)} states>"
    return "[" + ", ".join(one(s) for s in states) + "]"


def _ends(names: tuple[str, ...]) -> str:
    if len(names) <= 3:
        return " ".join(names)
    return f"{names[0]} {names[1]} ... {names[-1]}"


def _cubes_formula(mgr: Manager[str], u: Function, vocab: tuple[str, ...], limit: int) -> Formula:
    """A disjunction of the disjoint cubes of *u* (``true``/``false`` for the constants)."""
    if u == mgr.true:
        return TRUE
    terms: list[Formula] = []
    for cube in mgr.cubes(u):
        if len(terms) >= limit:
            raise LimitError(f"the law's BDD has more than {limit} cubes; use law_bdd")
        terms.append(conj(Atom(p) if cube[p] else Not(Atom(p)) for p in vocab if p in cube))
    return disj(terms)
