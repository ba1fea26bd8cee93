"""Entailment questions, memoized per knowledge set, with the chain shortcut.

The selector, Decide and the theory language ask the prover the same few
questions many times (``kop dominates theories/figure2.kop`` asked 293, 58 of
them distinct), nearly all of them knowledge chains over knowledge chains.
:func:`cached_entails` answers like :func:`kop.reasoning.prover.entails`, but

1. remembers each answer per knowledge set (the premises as a set, the
   declared agents and the method), in a bounded table (oldest out first)
   of the caches in force (:mod:`kop.config`: shared by default, a block's own
   within ``with kop.config.fresh_caches():``);
2. decides questions whose premises and conclusion are all conjunctions of
   chains by the subsequence rule (:mod:`kop.reasoning.chains`), exact there,
   with the rule's line model as the (checked) countermodel;
3. leaves everything else to the prover.

:func:`follows` is the same question when only the answer is needed (no
countermodel minimization); :func:`consistent` asks whether a knowledge set
is satisfiable.

    >>> from kop import parse
    >>> cached_entails(["K_A K_B E_A", "K_B E_B"], "K_A E_A").holds
    True
    >>> v = cached_entails(["K_A E_A"], "K_A K_B E_A")
    >>> v.holds, v.stats["method"], v.countermodel.satisfies("K_A E_A & ~K_A K_B E_A")
    (False, 'chains', True)
    >>> follows(["C{A,B} p"], "K_A K_B p")                  # not chains: the prover
    True
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from kop import config
from kop.reasoning.chains import chain_countermodel, chain_entails, chains_of
from kop.reasoning.limits import Deadline, check_agents, check_depth
from kop.reasoning.prover import _formula, _premises
from kop.reasoning.verdict import Verdict
from kop.syntax.formula import Formula, Not, conj

if TYPE_CHECKING:  # pragma: no cover
    from kop.semantics.model import KripkeModel

__all__ = ["cached_entails", "follows", "consistent", "clear_cache", "cache_info", "MAX_ENTRIES"]

#: The most answers remembered (the oldest go first): the size of the table this module asks
#: :meth:`kop.config.Caches.memo` for.
MAX_ENTRIES = 4096
#: The name of the table of answers in :class:`kop.config.Caches`.
MEMO = "kop.reasoning.entailment"

# key -> (holds, countermodel or None, stats, countermodel computed?)
Key = tuple[frozenset[Formula], Formula, frozenset[str] | None, str]
Answer = tuple[bool, 'KripkeModel | None', dict[str, Any], bool]


def _memo() -> config.Memo:
    """The table of answers of the caches in force here."""
    return config.current().caches.memo(MEMO, MAX_ENTRIES)


def clear_cache() -> None:
    """Forget every remembered answer of the caches in force (and zero :func:`cache_info`'s counts).

    Outside a :func:`kop.config.fresh_caches` block these are the caches every
    such context shares.

    >>> clear_cache(); cache_info()["entries"]
    0
    """
    _memo().clear()


def cache_info() -> dict[str, int]:
    """``entries``, ``hits``, ``misses`` and ``chains`` (questions the subsequence rule decided) of the caches in force.

    >>> from kop import config
    >>> with config.fresh_caches():
    ...     _ = follows(["K_a p"], "p"); _ = follows(["K_a p"], "p"); cache_info()
    {'hits': 1, 'misses': 1, 'chains': 1, 'entries': 1}
    """
    return {"hits": 0, "misses": 0, "chains": 0, **_memo().info()}


class _Agents:
    """Stands in for a formula in :func:`check_agents`, which reads only ``agents()``."""

    def __init__(self, agents: frozenset[str]) -> None:
        self._agents = agents

    def agents(self) -> frozenset[str]:
        return self._agents


#: premises -> the agents they name, for premise sets whose depth was checked (a pure memo, shared)
_PREMISES = config.Memo(256)


def _check_limits(ps: tuple[Formula, ...], f: Formula, agents: tuple[str, ...] | None) -> None:
    """The prover's depth and agent checks on ``conj(ps + (~f,))``, the premises' part done once per set."""
    from kop.syntax.formula import TRUE, And

    if ps:
        names = _PREMISES.get(ps)
        if names is config.MISSING:
            check_depth(And(*ps, TRUE))              # the depth the premises give the conjunction
            names = frozenset().union(*(p.agents() for p in ps))
            _PREMISES.put(ps, names)
        check_depth(And(Not(f), TRUE))
    else:
        names = frozenset()
        check_depth(Not(f))
    check_agents(_Agents(names | f.agents()), agents)  # type: ignore[arg-type]


def _ask(ps: tuple[Formula, ...], f: Formula, agents: Iterable[str] | None, timeout: float | None,
         method: str, want_model: bool, deadline: Deadline | None = None
         ) -> tuple[bool, KripkeModel | None, dict[str, Any]]:
    ag = None if agents is None else tuple(agents)
    key = (frozenset(ps), f, None if ag is None else frozenset(ag), method)
    memo = _memo()
    hit = memo.get(key)
    if hit is not config.MISSING and (hit[0] or hit[3] or not want_model):
        return hit[0], hit[1], hit[2]
    if hit is not config.MISSING:   # remembered without the countermodel now wanted: asked again
        memo.count("hits", -1)
        memo.count("misses")
    from kop.reasoning.prover import decide_formula

    phi = conj(ps + (Not(f),))
    if method == "auto":
        limit = deadline or Deadline(timeout)
        limit.check()   # the prover's own checks, so errors stay the same
        _check_limits(ps, f, ag)
        start = time.perf_counter()
        ans = chain_entails(ps, f)
        if ans is not None:
            memo.count("chains")
            model = None if ans else chain_countermodel(ps, f, ag or ())
            stats = {"method": "chains", "time": time.perf_counter() - start, "cpu_seconds": limit.used(),
                     **({"limit_seconds": limit.seconds} if limit.seconds is not None else {})}
            if model is not None:
                from kop.reasoning.prover import _check

                _check(model, phi, "w0")
                stats["worlds"] = len(model)
            memo.put(key, (ans, model, stats, True))
            return ans, model, stats
    model, stats = decide_formula(phi, agents=ag, timeout=timeout, method=method, minimize=want_model, deadline=deadline)
    memo.put(key, (model is None, model, stats, want_model))
    return model is None, model, stats


def cached_entails(premises: Iterable[Formula | str] | Formula | str, phi: Formula | str, *,
                   agents: Iterable[str] | None = None, timeout: float | None = None,
                   method: str = "auto") -> Verdict:
    """:func:`kop.reasoning.prover.entails`, memoized per knowledge set, chains by the subsequence rule.

    The same parameters and answer; a remembered answer is returned even
    when *timeout* would now be too short to find it again.  With
    ``method="auto"`` a question on chains only is decided by
    :func:`kop.reasoning.chains.chain_entails` (``stats["method"]`` is
    ``"chains"``; the countermodel is the rule's line model, checked).

    Examples
    --------
    >>> v = cached_entails(["K_a K_b p"], "K_b K_a p")
    >>> v.holds, len(v.countermodel)
    (False, 3)
    """
    ps = _premises(premises)
    f = _formula(phi)
    holds, model, stats = _ask(ps, f, agents, timeout, method, True)
    return Verdict(holds, "entails", f, ps, model, dict(stats))


def follows(premises: Iterable[Formula | str] | Formula | str, phi: Formula | str, *,
            agents: Iterable[str] | None = None, timeout: float | None = None, method: str = "auto",
            deadline: Deadline | None = None) -> bool:
    """Does *phi* follow from *premises*?  :func:`cached_entails` without the countermodel's minimization.

    *deadline* (a :class:`~kop.reasoning.limits.Deadline`) shares one time
    limit among several questions; it overrides *timeout*.

    >>> follows(["K_a K_b p"], "K_a p"), follows(["K_a p"], "K_a K_b p")
    (True, False)
    """
    return _ask(_premises(premises), _formula(phi), agents, timeout, method, False, deadline)[0]


def consistent(premises: Iterable[Formula | str] | Formula | str, *, agents: Iterable[str] | None = None,
               timeout: float | None = None, method: str = "auto", deadline: Deadline | None = None) -> bool:
    """Is the conjunction of *premises* satisfiable?  Chains always are (every atom true at one world).

    >>> consistent(["K_a p", "K_b K_a q"]), consistent(["K_a p", "~p"])
    (True, False)
    """
    ps = _premises(premises)
    if not ps:
        return True
    if method == "auto" and all(chains_of(p) is not None for p in ps):
        check_agents(conj(ps), None if agents is None else tuple(agents))
        return True
    return not follows(ps, Not(conj(ps)), agents=agents, timeout=timeout, method=method, deadline=deadline)
