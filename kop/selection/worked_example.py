"""The paper's worked example end to end (SPEC §3.4), with every number checked.

:func:`worked_example` builds the Figure 2 tree, computes each scenario's
knowledge levels with the prover, the nodes its knowledge decides, the play
the paper reports, the selector's choice with and without communication, A's
strategy values and both players' M^0 node values.  Each figure is paired with
the value SPEC §3.4 states, so a mismatch is visible (and ``kop demo`` exits
non-zero).

>>> from kop.selection.worked_example import worked_example
>>> result = worked_example()
>>> result.all_ok
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kop.syntax import arguments
from kop.games.strategies.hm0m import hm0m
from kop.games.strategies.mh import mh
from kop.games.strategies.minimax import minimax
from kop.games.strategies.play import play
from kop.selection.decide import decide
from kop.selection.examples import SCENARIOS, figure2
from kop.selection.selector import select

__all__ = ["Check", "ScenarioResult", "WorkedExample", "worked_example", "EXPECTED_LEVELS"]

#: levels of A and B in scenarios (1)-(4) (SPEC §3.4, issue "prover")
EXPECTED_LEVELS = {"(1)": (0, 0), "(2)": (1, 0), "(3)": (1, 1), "(4)": (2, 1)}
_EXPECTED_HM0M = {0: (4, 7), 1: (9, 4), 2: (9, 4), 3: (10, 3), 4: (10, 3)}
_EXPECTED_B_M0 = {"W": (7, 4), "X": (10, 3), "Y": (3, 8), "Z": (2, 2), "U": (7, 4), "V": (3, 8), "S": (7, 4)}
_EXPECTED_A_M0 = {"Y": (1, 9), "Z": (2, 2), "V": (2, 2)}


@dataclass(frozen=True)
class Check:
    """One computed figure next to the value the specification states."""

    what: str
    computed: object
    expected: object

    @property
    def ok(self) -> bool:
        return self.computed == self.expected


@dataclass(frozen=True)
class ScenarioResult:
    name: str
    level_a: float
    level_b: float
    decided: tuple[str, ...]
    play: tuple[str, str]
    outcome: tuple
    recommended: str
    recommended_outcome: tuple
    communication_outcome: tuple | None
    explanation: str


@dataclass(frozen=True)
class WorkedExample:
    scenarios: tuple[ScenarioResult, ...]
    checks: tuple[Check, ...] = field(default=())

    @property
    def all_ok(self) -> bool:
        return all(c.ok for c in self.checks)


def worked_example(timeout: float | None = 60.0) -> WorkedExample:
    """Run SPEC §3.4: the four scenarios of Figure 2, A's strategies and the M^0 node values.

    Parameters
    ----------
    timeout : float, optional
        Seconds for each of the prover's questions (None: no limit).

    Returns
    -------
    WorkedExample
        Per scenario the levels, decided nodes, play, outcome and recommendation; ``checks``
        compares each figure with the paper's (``all_ok`` when they all match).

    Examples
    --------
    >>> import kop
    >>> w = kop.worked_example()
    >>> w.all_ok, [s.outcome for s in w.scenarios]
    (True, [(4, 7), (10, 3), (3, 8), (9, 4)])

    References
    ----------
    T. Sang, J.-H. Chen, *Beyond Minimax: Nonzero-Sum Game Tree Search with Knowledge Oriented
    Players*, Figure 2 and its scenarios (1)-(4).
    """
    if timeout is not None:
        timeout = arguments.real(timeout, "timeout", minimum=0)
    t = figure2()
    checks: list[Check] = []
    results = []
    for sc in SCENARIOS:
        sel = select(t, sc.knowledge, "A", timeout=timeout)
        out = play(t, {"A": sc.play[0], "B": sc.play[1]}).value
        comm = sel.best_with_communication
        rec = sel.recommended
        results.append(ScenarioResult(
            sc.name, sel.level, sel.opponent_level,
            tuple(n.name for n in decide(t, sc.knowledge, timeout=timeout).decided_nodes()),
            sc.play, out, rec.strategy, rec.guaranteed or rec.estimate,
            None if comm is None else comm.outcome, sel.explain()))
        checks.append(Check(f"scenario {sc.name}: levels of A and B", (sel.level, sel.opponent_level),
                            EXPECTED_LEVELS[sc.name]))
        checks.append(Check(f"scenario {sc.name}: play({sc.play[0]}, {sc.play[1]})", out, sc.outcome))
        if sc.name != "(1)":
            checks.append(Check(f"scenario {sc.name}: outcome with communication",
                                None if comm is None else comm.outcome, (10, 3)))
            checks.append(Check(f"scenario {sc.name}: HM0M^d without communication",
                                rec.guaranteed, (9, 4)))
    s_mh = mh(t)
    checks.append(Check("M^h value at the root", s_mh.value, (10, 3)))
    checks.append(Check("play(M^h, M^h)", play(t, {"A": s_mh, "B": s_mh}).value, (10, 3)))
    for d, v in _EXPECTED_HM0M.items():
        checks.append(Check(f"HM0M^{d} value at the root", hm0m(t, d, "A").value, v))
    b0 = minimax(t, "B")
    for label, v in _EXPECTED_B_M0.items():
        checks.append(Check(f"B's M^0 value at {label}", b0.value_at(label), v))
    a0 = minimax(t, "A")
    for label, v in _EXPECTED_A_M0.items():
        checks.append(Check(f"A's M^0 value at {label}", a0.value_at(label), v))
    checks.append(Check("A's M^0 root choices: R = 4, S <= 2, T = 1",
                        (a0.value_at("R")[0], a0.value_at("S")[0] <= 2, a0.value_at("T")[0]), (4, True, 1)))
    return WorkedExample(tuple(results), tuple(checks))
