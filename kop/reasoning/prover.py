"""Satisfiability, validity and entailment in S5_n with common knowledge and announcements.

    >>> from kop import satisfiable, valid, entails
    >>> valid("C{a,b} p -> E{a,b}(p & C{a,b} p)").holds              # fixed point
    True
    >>> v = valid("E{a,b} p -> C{a,b} p")
    >>> v.holds, v.countermodel.satisfies("E{a,b} p & ~C{a,b} p")
    (False, True)
    >>> entails(["K_a p", "K_a (p -> q)"], "K_a q").holds
    True
    >>> satisfiable("p & [!p] ~K_a p").holds                         # announcing p makes it known
    False

The pipeline, for ``satisfiable(phi)``:

1. limits: nesting depth (:data:`~kop.reasoning.limits.MAX_NESTING`), the
   declared agents, the time limit;
2. announcements are eliminated by the reduction axioms
   (:func:`~kop.reasoning.announcements.reduce_announcements`);
3. the formula is compiled to the core language and its closure
   (:mod:`kop.reasoning.core`);
4. a decision procedure runs: without common and distributed knowledge, a
   SAT-driven tableau with learned clauses (:mod:`kop.reasoning.satengine`);
   with them, symbolic type elimination on BDDs (:mod:`kop.reasoning.bddengine`).  Both are sound and
   complete without any bound on the model size;
5. the surviving types become a Kripke model
   (:mod:`kop.reasoning.countermodel`), contracted by bisimulation (with
   distributed knowledge, only when the contraction still satisfies the
   formula), and *checked* by the model checker
   on the original formula (announcements included): a model that fails the
   check raises :class:`~kop.errors.ProverBug`, never returns.

``valid(phi)`` asks whether ``~phi`` is satisfiable; ``entails(premises,
phi)`` whether ``premises & ~phi`` is (premises are true at the actual world;
write common-knowledge facts with ``C``).

Time limits: ``timeout=`` seconds.  A question not decided in time raises
:class:`~kop.errors.ProverTimeout` ("unknown within the limit"); the
CLI reports it with exit status 3.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from kop.reasoning.announcements import reduce_announcements
from kop.reasoning.core import Closure, Core
from kop.reasoning.errors import ProverBug
from kop.reasoning.pseudomodel import PseudoModel
from kop.reasoning.limits import Deadline, check_agents, check_depth, check_type_space, deep_input_guard
from kop.reasoning.verdict import Verdict
from kop.syntax import arguments
from kop.syntax.budget import check_timeout
from kop.syntax.formula import Distributed, Formula, Not, conj
from kop.syntax.fragments import has_belief, refuse_probability
from kop.errors import KopError
from kop.reasoning.bddengine import BddEngine
from kop.syntax.printer import to_ascii

if TYPE_CHECKING:  # pragma: no cover
    from kop.semantics.model import KripkeModel

__all__ = ["satisfiable", "valid", "entails", "decide_formula", "METHODS"]

#: ``method=`` values: "auto" (SAT without C and D, BDD with them), "sat", "bdd" (type
#: elimination on CUDD when ``dd.cudd`` is available, else on the pure-Python BDDs),
#: "bdd-python" (type elimination on the pure-Python BDDs).
METHODS = ("auto", "sat", "bdd", "bdd-python")

_TOOL = "the prover"


def _formula(phi: Formula | str, name: str = "phi") -> Formula:
    if isinstance(phi, str):
        from kop.syntax.parser import parse

        f = parse(phi)
        refuse_probability(f, _TOOL, phi)   # located in the text as written
        return f
    if not isinstance(phi, Formula):
        raise arguments.fail(name, "a formula (a Formula or a string such as 'K_a p')", phi)
    refuse_probability(phi, _TOOL)
    return phi


def _premises(premises: Iterable[Formula | str] | Formula | str, name: str = "premises") -> tuple[Formula, ...]:
    if isinstance(premises, (str, Formula)):
        premises = [premises]
    items = arguments.items(premises, name, "a formula or a list of formulas (Formula objects or strings)")
    return tuple(_formula(p, f"{name}[{i}]") for i, p in enumerate(items))


def decide_formula(phi: Formula, *, agents: Iterable[str] | None = None, timeout: float | None = None,
           method: str = "auto", deadline: Deadline | None = None, minimize: bool = True
           ) -> tuple[KripkeModel | None, dict[str, Any]]:
    """Satisfiability of *phi*: ``(model or None, stats)``; the model is checked.

    The workhorse of :func:`satisfiable`, :func:`valid` and :func:`entails`
    (which add parsing and the :class:`~kop.reasoning.verdict.Verdict`).

    Parameters
    ----------
    phi : Formula
        A formula of S5_n: belief and probability (``B_a``, ``P_a``) are a
        :class:`~kop.errors.LanguageError` (the prover has no semantics for them).
    agents : iterable of str, optional
        The declared agents: *phi* may name no others, and the model has them all.
    timeout : float, optional
        Seconds; :class:`~kop.errors.ProverTimeout` when exceeded.
    method : {"auto", "sat", "bdd", "bdd-python"}
        The decision procedure ("sat" refuses common and distributed knowledge;
        "bdd-python" is type elimination on the pure-Python BDD package).
    deadline : Deadline, optional
        A shared time limit (overrides *timeout*).
    minimize : bool
        Contract the model by bisimulation.  Bisimulation does not preserve
        distributed knowledge, so with ``D`` the contraction is kept only when
        the model checker confirms it.
    """
    if method not in METHODS:
        raise KopError(f"unknown method {method!r}: use one of {', '.join(METHODS)}")
    check_depth(phi)
    refuse_probability(phi, _TOOL)
    return _decide(phi, agents, timeout, method, deadline, minimize)


@deep_input_guard
def _decide(phi: Formula, agents: Iterable[str] | None, timeout: float | None, method: str,
            deadline: Deadline | None, minimize: bool) -> tuple[KripkeModel | None, dict[str, Any]]:
    start = time.perf_counter()
    deadline = deadline or Deadline(timeout)
    agent_list = None if agents is None else tuple(agents)
    check_agents(phi, agent_list)
    reduced = reduce_announcements(phi)
    deadline.check()
    original, translation = phi, None
    if has_belief(reduced):            # plausibility models: belief becomes knowledge of level atoms
        from kop.reasoning.plausibility import to_knowledge

        translation = to_knowledge(reduced)
        if method == "auto" and any(len(g) > 1 for g in translation.levels.values()):
            quick = _few_levels(original, reduced, agent_list, deadline, minimize, start)
            if quick is not None:
                return quick
        phi = reduced = translation.formula
        deadline.check()
    core = Core(deadline.check)
    root = core.compile(reduced)
    closure = Closure(core, [root], deadline.check)
    deadline.check()
    stats: dict[str, Any] = {"closure": len(closure.nodes)}
    pm, model = _pseudo_model(phi, method, core, closure, root, deadline, stats, agent_list)
    deadline.check()
    if pm is not None and model is None:
        from kop.reasoning.countermodel import build_model

        deadline.check()
        model = build_model(pm, set(phi.agents()) | set(agent_list or ()), deadline.check)
        deadline.check()
        _check(model, phi, "w0")
        deadline.check()
    if model is not None:
        model = _final_model(model, phi, original, translation, minimize, deadline)
        stats["worlds"] = len(model)
    stats["time"] = time.perf_counter() - start
    stats["cpu_seconds"] = deadline.used()
    if deadline.seconds is not None:
        stats["limit_seconds"] = deadline.seconds
    return model, stats


def _pseudo_model(phi: Formula, method: str, core: Core, closure: Closure, root: int, deadline: Deadline,
                  stats: dict[str, Any], agents: tuple[str, ...] | None
                  ) -> tuple[PseudoModel | None, KripkeModel | None]:
    """Run the engine *method* names (``auto`` picks one) on the closure: a pseudo-model, or a model the type
    search found, or neither (unsatisfiable); the engine used goes into *stats* (``method``)."""
    use = method
    model: KripkeModel | None = None
    pm: PseudoModel | None
    if method == "auto":
        use = "bdd" if closure.has_rc or closure.dgroups else "sat"
    if use == "sat":
        if closure.has_rc or closure.dgroups:
            raise KopError("method 'sat' handles neither common nor distributed knowledge; use 'bdd' or 'auto'")
        from kop.reasoning.satengine import SatEngine

        pm = SatEngine(core, closure, root, deadline, stats).run()
    else:
        check_type_space(closure)
        found, model = _search(phi, core, closure, root, deadline, stats, agents) \
            if method == "auto" and not closure.dgroups else (_ELIMINATE, None)
        if isinstance(found, PseudoModel) or found is None:
            pm = found
        else:
            deadline.check()
            pm = BddEngine(core, closure, root, deadline, stats,
                           backend="python" if use == "bdd-python" else None).run()
        use = "bdd"
    stats["method"] = use
    return pm, model


def _final_model(model: KripkeModel, phi: Formula, original: Formula, translation: Any, minimize: bool,
                 deadline: Deadline) -> KripkeModel:
    """The model of *phi* found, minimized (if asked, and time allows) and, for a formula with beliefs,
    turned back into a plausibility model of the *original* formula (checked)."""
    if minimize and len(model) > 1 and not deadline.expired():   # optional: never past the limit
        small = model.minimize()
        if len(small) < len(model):
            if not any(isinstance(f, Distributed) for f in phi.subformulas()):
                _check(small, phi, None)            # bisimulation preserves the formula
                model = small
            elif small.satisfies(phi):              # it need not preserve D: keep it only if it works
                model = small
    if translation is not None:
        from kop.reasoning.plausibility import plausibility_model

        model = plausibility_model(model, translation)
        _check(model, original, None)
    return model


#: How many of the type search's tries :func:`_few_levels` makes (two ranks per cell) before the full levels.
QUICK_TRIES = 4


def _few_levels(original: Formula, reduced: Formula, agents: tuple[str, ...] | None, deadline: Deadline,
               minimize: bool, start: float) -> tuple[KripkeModel, dict[str, Any]] | None:
    """A model with one level atom per agent (two plausibility ranks), or None.

    With conditional beliefs the full translation needs one level per condition, and its
    search space grows with them; but a model of the translation with fewer levels is
    still a plausibility model of the formula (the translation is exact on the ranks it
    can express).  So a satisfiable formula is first tried with two ranks per cell, by
    the SAT tableau (no C, D) or the type search's tries (C); an unsatisfiable answer
    there proves nothing, and the caller goes on with every level.
    """
    from kop.reasoning.plausibility import plausibility_model, to_knowledge

    small = to_knowledge(reduced, max_levels=1)
    core = Core(deadline.check)
    root = core.compile(small.formula)
    closure = Closure(core, [root], deadline.check)
    stats: dict[str, Any] = {"closure": len(closure.nodes), "levels": "two ranks"}
    if closure.dgroups:
        return None
    model: KripkeModel | None = None
    if not closure.has_rc:
        from kop.reasoning.satengine import SatEngine

        pm = SatEngine(core, closure, root, deadline, stats).run()
        if pm is None:
            return None
        from kop.reasoning.countermodel import build_model

        model = build_model(pm, set(small.formula.agents()) | set(agents or ()), deadline.check)
        stats["method"] = "sat"
    else:
        check_type_space(closure)
        found, model = _search(small.formula, core, closure, root, deadline, stats, agents, QUICK_TRIES)
        if not isinstance(found, PseudoModel) or model is None:
            return None
        stats["method"] = "bdd"
    _check(model, small.formula, "w0")
    if minimize and len(model) > 1 and not deadline.expired():
        reduced_model = model.minimize()
        _check(reduced_model, small.formula, None)
        model = reduced_model
    model = plausibility_model(model, small)
    _check(model, original, None)
    stats["worlds"] = len(model)
    stats["time"] = time.perf_counter() - start
    return model, stats


#: The type search's tries before type elimination, in order: ``(know_first, settle,
#: phase_seed, max_types)`` (see :class:`~kop.reasoning.typesearch.TypeSearch`).  Each
#: settles questions the others lose (a candidate model that leaves a ``~C`` looping, or
#: a search that keeps opening classes), and a try that finds a model mostly needs well
#: under 1,000 types, so many short tries (restarts) beat a few long ones; one that gives
#: up costs about half a second.
SEARCH_TRIES: tuple[tuple[bool, bool, int | None, int], ...] = (
    (False, False, None, 1000), (True, False, None, 1000), (False, True, None, 1000), (True, True, None, 1000),
    *((seed >= 8, seed % 2 == 0, seed, 1000) for seed in range(12)))


class _Eliminate:
    """_search's answer "leave it to type elimination"."""


_ELIMINATE = _Eliminate()


def _search(phi: Formula, core: Core, closure: Closure, root: int, deadline: Deadline, stats: dict[str, Any],
            agents: tuple[str, ...] | None, tries: int | None = None
            ) -> tuple[PseudoModel | None | _Eliminate, KripkeModel | None]:
    """The type search's answer: ``(pseudo-model, checked model)``, ``(None, None)`` for
    unsatisfiable, or ``(_ELIMINATE, None)`` when it gave up or its candidate fails the check."""
    from kop.reasoning.typesearch import TypeSearch

    for know_first, settle, seed, most in SEARCH_TRIES[:tries]:
        pm = TypeSearch(core, closure, root, deadline, stats, max_types=most, know_first=know_first,
                        settle=settle, phase_seed=seed).run()
        if pm is None:
            stats["search"] = "unsatisfiable"
            return None, None
        if isinstance(pm, PseudoModel):
            from kop.reasoning.countermodel import build_model   # numpy: only for a model

            model = build_model(pm, set(phi.agents()) | set(agents or ()), deadline.check)
            deadline.check()
            if model.satisfies(phi, "w0"):
                stats["search"] = "model"
                return pm, model
    stats["search"] = "gave up"
    return _ELIMINATE, None


def _check(model: KripkeModel, phi: Formula, world: str | None) -> None:
    if not model.satisfies(phi, world):
        raise ProverBug(f"the model built for {to_ascii(phi)!r} does not satisfy it "
                        f"(model: {model.to_json()})")


def satisfiable(phi: Formula | str, *, agents: Iterable[str] | None = None, timeout: float | None = None,
                method: str = "auto") -> Verdict:
    """Is *phi* true at some world of some S5_n model?  The verdict carries a checked model.

    Parameters
    ----------
    phi : Formula or str
    agents : iterable of str, optional
        The declared agents (a formula naming another one is an
        :class:`~kop.errors.AgentError`).
    timeout : float, optional
        Seconds; raises :class:`~kop.errors.ProverTimeout` when exceeded.
    method : {"auto", "sat", "bdd"}

    Returns
    -------
    Verdict
        Truthy when *phi* is satisfiable; then ``verdict.model`` is a model whose designated
        world satisfies *phi* (checked by the model checker).

    Examples
    --------
    >>> v = satisfiable("M_a p & M_a ~p")
    >>> v.holds, v.model.satisfies("M_a p & M_a ~p")
    (True, True)

    References
    ----------
    J. Y. Halpern, Y. Moses, *A guide to completeness and complexity for modal logics of knowledge
    and belief*, Artificial Intelligence 54 (1992).
    """
    timeout = check_timeout(timeout)
    f = _formula(phi)
    model, stats = decide_formula(f, agents=agents, timeout=timeout, method=method)
    return Verdict(model is not None, "satisfiable", f, (), model, stats)


def valid(phi: Formula | str, *, agents: Iterable[str] | None = None, timeout: float | None = None,
          method: str = "auto") -> Verdict:
    """Is *phi* true at every world of every S5_n model?  If not, the verdict has a checked countermodel.

    Parameters
    ----------
    phi : Formula or str
        The formula (a string is parsed).
    agents : iterable of str, optional
        The declared agents (a formula naming another one is an
        :class:`~kop.errors.AgentError`).
    timeout : float, optional
        Seconds; raises :class:`~kop.errors.ProverTimeout` when exceeded.
    method : {"auto", "sat", "bdd"}
        The decision procedure.

    Returns
    -------
    Verdict
        Truthy when *phi* is valid; otherwise ``verdict.countermodel`` refutes it at its
        designated world.

    Examples
    --------
    >>> valid("~K_a p -> K_a ~K_a p").holds        # negative introspection
    True
    >>> v = valid("M_a p -> K_a p")
    >>> v.holds, v.countermodel.satisfies("M_a p & ~K_a p")
    (False, True)

    References
    ----------
    J. Y. Halpern, Y. Moses, *A guide to completeness and complexity for modal logics of knowledge
    and belief*, Artificial Intelligence 54 (1992).
    """
    timeout = check_timeout(timeout)
    f = _formula(phi)
    model, stats = decide_formula(Not(f), agents=agents, timeout=timeout, method=method)
    return Verdict(model is None, "valid", f, (), model, stats)


def entails(premises: Iterable[Formula | str] | Formula | str, phi: Formula | str, *,
            agents: Iterable[str] | None = None, timeout: float | None = None, method: str = "auto") -> Verdict:
    """Does *phi* hold at every world where all *premises* hold?

    The countermodel, when there is one, satisfies the premises and refutes
    *phi* at its designated world.

    Parameters
    ----------
    premises : Formula, str or iterable of them
        What is assumed true at the world.
    phi : Formula or str
        The conclusion.
    agents : iterable of str, optional
        The declared agents.
    timeout : float, optional
        Seconds; raises :class:`~kop.errors.ProverTimeout` when exceeded.
    method : {"auto", "sat", "bdd"}
        The decision procedure.

    Returns
    -------
    Verdict
        Truthy when the premises entail *phi* (locally: at the same world of an S5_n model).

    Examples
    --------
    >>> entails(["C{a,b} p"], "K_a K_b p").holds
    True
    >>> v = entails(["K_a p"], "K_b p")
    >>> v.holds, v.countermodel.satisfies("K_a p & ~K_b p")
    (False, True)

    References
    ----------
    J. Y. Halpern, Y. Moses, *A guide to completeness and complexity for modal logics of knowledge
    and belief*, Artificial Intelligence 54 (1992).
    """
    timeout = check_timeout(timeout)
    ps = _premises(premises)
    f = _formula(phi)
    model, stats = decide_formula(conj(ps + (Not(f),)), agents=agents, timeout=timeout, method=method)
    return Verdict(model is None, "entails", f, ps, model, stats)
