"""Levels of knowledge f(P, d), knowing, and cores of knowledge (SPEC §2.5).

Knowledge is a set of formulas true at the actual world (write common
knowledge with ``C``).  ``f(P, d) ⊆ K(P)`` means that every formula of
f(P, d) (:func:`kop.syntax.levels.f_level`) follows from it.

    >>> from kop import level, knows, is_core, chains_fragment, f_level
    >>> level(f_level("A", "B", 2), "A", "B")                 # scenario (4) of Figure 2
    2
    >>> level(["K_A E_A", "K_A S_A", "C{A,B}(E_A & E_B)"], "A", "B")
    inf
    >>> bool(knows(["K_A K_B E_A"], "A", "K_B E_A"))
    True
    >>> frag = chains_fragment("A", "B", ["E_A", "E_B", "S_A"], 2)
    >>> bool(is_core(f_level("A", "B", 2), f_level("A", "B", 2), "A", frag))
    True
    >>> bool(is_core(f_level("A", "B", 1), f_level("A", "B", 2), "A", frag))   # property (7)
    False

Reference: Sang & Chen, *Beyond Minimax*, formula (4), properties (5)-(7),
Definition 4 (cores).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from kop.reasoning.announcements import reduce_announcements
from kop.reasoning.limits import Deadline, check_agents, deep_input_guard
from kop.reasoning.entailment import consistent, follows
from kop.reasoning import prover
from kop.reasoning.prover import _formula, _premises
from kop.reasoning.verdict import Verdict
from kop.syntax import arguments
from kop.errors import ArgumentError
from kop.syntax.formula import And, Atom, Common, Formula, Know, Not, RelCommon, conj
from kop.syntax.levels import chain, f_level

__all__ = ["level", "knows", "is_core", "chains_fragment", "CoreVerdict"]


def _entailed(ps: tuple[Formula, ...], phi: Formula, agents: Iterable[str] | None, deadline: Deadline,
              method: str = "auto") -> bool:
    return follows(ps, phi, agents=agents, deadline=deadline, method=method)


@deep_input_guard
def level(knowledge: Iterable[Formula | str] | Formula | str, player: str, opponent: str,
          max_depth: int | None = None, *, timeout: float | None = None,
          agents: Iterable[str] | None = None, method: str = "auto") -> int | float:
    """The largest d with f(P, d) ⊆ K(P): every formula of f(player, d) follows from *knowledge*.

    Parameters
    ----------
    knowledge : formulas (or strings) true at the actual world.
    player, opponent : str
        P and Q.
    max_depth : int, optional
        Examine chains up to this length only: the answer is then
        ``min(level, max_depth)``, except that an unbounded level is still
        reported as infinity.
    timeout : float, optional
        Seconds for the whole computation
        (:class:`~kop.errors.ProverTimeout` when exceeded).
    agents : iterable of str, optional
        The declared agents.
    method : {"auto", "sat", "bdd"}
        The decision procedure (see :func:`kop.reasoning.prover.decide_formula`).

    Returns
    -------
    int or math.inf
        ``math.inf`` when the knowledge entails common knowledge of ``E_P``
        and ``E_Q`` among {P, Q} (and f(P, 0)); ``-1`` when not even f(P, 0)
        (``K_P E_P``, ``K_P S_P``) follows.

    The search needs no bound: if the knowledge has no common knowledge and
    is consistent, chains longer than its modal depth never follow from it (a
    world at that distance can be changed freely in a tree unravelling);
    otherwise common knowledge of ``E_P & E_Q`` is checked first, and without
    it some chain fails.

    Examples
    --------
    >>> import kop
    >>> kop.level(kop.f_level("A", "B", 2), "A", "B")
    2
    >>> kop.level(["C{A,B} (E_A & E_B)", "K_A S_A"], "A", "B")
    inf
    >>> kop.level(["K_A E_A"], "A", "B")          # K_A S_A does not follow
    -1

    References
    ----------
    T. Sang, J.-H. Chen, *Beyond Minimax: Nonzero-Sum Game Tree Search with Knowledge Oriented
    Players*, formula (4) and Definition 4 (cores).
    """
    ks = _premises(knowledge, "knowledge")
    player, opponent = arguments.agent(player, "player"), arguments.agent(opponent, "opponent")
    if player == opponent:
        raise ArgumentError(f"the player and the opponent are both {player!r}: a level of knowledge is about "
                            "two different players")
    deadline = Deadline(timeout, "the level")
    for k in ks:
        check_agents(k, agents)
    ag = None if agents is None else tuple(agents)
    if not all(_entailed(ks, f, ag, deadline, method) for f in f_level(player, opponent, 0)):
        return -1
    ck = Common((player, opponent), And(Atom(f"E_{player}"), Atom(f"E_{opponent}")))
    reduced = reduce_announcements(conj(ks)) if ks else None
    has_c = reduced is not None and any(isinstance(f, (Common, RelCommon)) for f in reduced.subformulas())
    checked_c = has_c
    if has_c:
        if _entailed(ks, ck, ag, deadline):
            return math.inf
    else:
        if not consistent(ks, agents=ag, deadline=deadline, method=method):   # it entails everything
            return math.inf
    # consistent knowledge without C entails no chain longer than its modal depth; past
    # that depth, check common knowledge anyway (cheap insurance, and it keeps the loop finite)
    bound = reduced.modal_depth() if reduced is not None else 0
    d = 0
    while max_depth is None or d < max_depth:
        if not checked_c and d > bound:
            checked_c = True
            if _entailed(ks, ck, ag, deadline):
                return math.inf
        if not _entailed(ks, chain(player, opponent, d + 1), ag, deadline, method):
            return d
        d += 1
    # every chain up to max_depth follows; the level may still be unbounded
    if not checked_c and _entailed(ks, ck, ag, deadline):
        return math.inf
    return d


def knows(knowledge: Iterable[Formula | str] | Formula | str, player: str, phi: Formula | str, *,
          timeout: float | None = None, agents: Iterable[str] | None = None) -> Verdict:
    """Does ``K_player phi`` follow from *knowledge*?  A :class:`Verdict` (truthy when it does).

    Parameters
    ----------
    knowledge : Formula, str or iterable of them
        What is true at the actual world.
    player : str
        The agent P.
    phi : Formula or str
        The formula P may know.
    timeout : float, optional
        Seconds (:class:`~kop.errors.ProverTimeout` when exceeded).
    agents : iterable of str, optional
        The declared agents.

    Returns
    -------
    Verdict
        Whether *knowledge* entails ``K_P phi``; a countermodel when it does not.

    Examples
    --------
    >>> v = knows(["K_A p"], "B", "p")
    >>> v.holds, v.countermodel.satisfies("K_A p & ~K_B p")
    (False, True)
    """
    return prover.entails(_premises(knowledge, "knowledge"), Know(arguments.agent(player, "player"), _formula(phi)),
                   timeout=timeout, agents=agents)


@dataclass(frozen=True)
class CoreVerdict:
    """The answer of :func:`is_core`.

    Attributes
    ----------
    holds : bool
    missing : tuple of Formula
        Fragment formulas that the knowledge entails but the candidate core does not.
    unsupported : tuple of Formula
        Formulas of the candidate core that the knowledge does not entail.
    """

    holds: bool
    missing: tuple[Formula, ...] = field(default=())
    unsupported: tuple[Formula, ...] = field(default=())

    def __bool__(self) -> bool:
        return self.holds


def _about(player: str, phi: Formula) -> Formula:
    return phi if isinstance(phi, Know) and phi.agent == player else Know(player, phi)


@deep_input_guard
def is_core(core: Iterable[Formula | str], knowledge: Iterable[Formula | str] | Formula | str, player: str,
            fragment: Iterable[Formula | str], *, timeout: float | None = None,
            agents: Iterable[str] | None = None) -> CoreVerdict:
    """Is *core* a core of P's knowledge over the finite *fragment*?

    P's knowledge over the fragment is the set of fragment formulas (each
    read as ``K_P φ`` unless it already starts with ``K_P``) that follow from
    *knowledge*.  *core* is a core iff it follows from the knowledge and
    entails every one of them (Definition 4 of the paper, restricted to the
    declared fragment so that the question is decidable and finite).

    Parameters
    ----------
    core : formulas
        The candidate core F.
    knowledge : formulas true at the actual world.
    player : str
    fragment : formulas, e.g. :func:`chains_fragment`.

    Returns
    -------
    CoreVerdict
        Truthy when *core* is a core; ``missing`` lists fragment formulas the knowledge entails
        but *core* does not, ``unsupported`` formulas of *core* the knowledge does not entail.

    Examples
    --------
    >>> import kop
    >>> fragment = kop.chains_fragment("A", "B", ["E_A", "E_B"], 2)
    >>> kop.is_core(kop.f_level("A", "B", 1), kop.f_level("A", "B", 1), "A", fragment)
    CoreVerdict(holds=True, missing=(), unsupported=())
    >>> kop.is_core(["K_A E_A"], kop.f_level("A", "B", 1), "A", fragment)
    CoreVerdict(holds=False, missing=(kop.parse('K_A E_B'),), unsupported=())

    References
    ----------
    T. Sang, J.-H. Chen, *Beyond Minimax: Nonzero-Sum Game Tree Search with Knowledge Oriented
    Players*, formula (4) and Definition 4 (cores).
    """
    F = _premises(core, "core")
    ks = _premises(knowledge, "knowledge")
    arguments.agent(player, "player")
    fragment = arguments.items(fragment, "fragment", "a list of formulas")
    ag = None if agents is None else tuple(agents)
    deadline = Deadline(timeout, "the core question")
    unsupported = tuple(f for f in F if not _entailed(ks, f, ag, deadline))
    missing = []
    for g in (_about(player, _formula(x, f"fragment[{i}]")) for i, x in enumerate(fragment)):
        if _entailed(ks, g, ag, deadline) and not _entailed(F, g, ag, deadline):
            missing.append(g)
    return CoreVerdict(not unsupported and not missing, tuple(missing), unsupported)


def chains_fragment(player: str, opponent: str, atoms: Iterable[str | Atom], depth: int) -> tuple[Formula, ...]:
    """Every knowledge chain ``K_P K_Q K_P … x`` with 1..*depth* alternating operators, x among *atoms*.

    Parameters
    ----------
    player, opponent : str
        P, whose operator starts each chain, and Q.
    atoms : iterable of str or Atom
        The formulas at the end of the chains (``E_A``, ``E_B``, ...).
    depth : int
        The number of operators of the longest chains.

    Returns
    -------
    tuple of Formula
        The chains, shortest first (each length in the order of *atoms*): a finite fragment for
    :func:`is_core`.

    Examples
    --------
    >>> from kop import chains_fragment, to_ascii
    >>> [to_ascii(f) for f in chains_fragment("A", "B", ["E_A"], 3)]
    ['K_A E_A', 'K_A K_B E_A', 'K_A K_B K_A E_A']
    """
    arguments.agent(player, "player")
    arguments.agent(opponent, "opponent")
    depth = arguments.integer(depth, "depth", minimum=1)
    base = [a if isinstance(a, Atom) else Atom(a) for a in arguments.items(atoms, "atoms", "a list of atoms")]
    out: list[Formula] = []
    for d in range(1, depth + 1):
        for x in base:
            f: Formula = x
            for i in range(d - 1, -1, -1):
                f = Know(player if i % 2 == 0 else opponent, f)
            out.append(f)
    return tuple(out)
