"""Every public function checks its arguments (issue 16, item 12): a wrong argument raises a KopError
(never a bare TypeError, AttributeError, IndexError or KeyError from deep inside) whose message names
the argument or says what was expected."""

from __future__ import annotations

from pathlib import Path

import inspect
from typing import Any

import numpy as np
import pytest

import kop
from kop import KopError

THEORIES = Path(__file__).resolve().parents[1] / "theories"   # wherever pytest runs from

#: results kop hands back (or raw-array constructors with a documented public constructor beside them):
#: users do not build these from arguments, so they are not checked here
RECORDS = {
    "ChanceResult", "SimResult", "NPlayerResult", "SearchResult", "MatrixSolution", "Outcome", "MatchResult",
    "Selection", "Verdict", "Plan", "Strategy", "Node", "Formula", "Top", "Bottom", "ImplicitGame",
    "GameTree",   # users call GameTree.build / from_dict / kop.load_tree; __init__ takes checked arrays
    "Beliefs",    # users call Beliefs.partition / common / sets / ...; __init__ wraps validated arrays
    "EvaluationBelief",   # users call kop.believes_candidates, which checks its arguments
    "OpenSpielWorlds",    # what kop.worlds_from_openspiel returns
    # games with information sets: users call kop.load_game / loads_game / InfoGame.from_tree /
    # game_from_openspiel (which check); InfoGame.__init__ takes their checked arrays; the rest are results
    "InfoGame", "InfoSet", "RecallReport", "RecallWitness",
    "Cell", "InfoDecision", "ResamplingReport",   # what knowledge_cell, decide_openspiel, check_resampling return
    "Story",              # what kop.read_story returns
}

WRONG = [object(), None]


def _public_callables() -> list[str]:
    out = []
    for name in kop.__all__:
        obj = getattr(kop, name)
        if not callable(obj) or name in RECORDS:
            continue
        if inspect.isclass(obj) and issubclass(obj, BaseException):
            continue
        out.append(name)
    return out


def _required(obj: Any) -> list[inspect.Parameter]:
    return [p for p in inspect.signature(obj).parameters.values()
            if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def _optional(obj: Any) -> list[inspect.Parameter]:
    return [p for p in inspect.signature(obj).parameters.values()
            if p.default is not p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def test_the_list_covers_the_api() -> None:
    names = _public_callables()
    assert len(names) > 100 and {"f_level", "select", "loads_tree", "truth_vector", "Agent"} <= set(names)


@pytest.mark.parametrize("name", _public_callables())
@pytest.mark.parametrize("wrong", WRONG, ids=["object", "None"])
def test_every_required_argument_wrong(name: str, wrong: Any) -> None:
    obj = getattr(kop, name)
    required = _required(obj)
    if not required:
        pytest.skip("no required arguments (see test_every_optional_argument_wrong)")
    with pytest.raises(KopError):
        obj(*[wrong] * len(required))


NO_ARGS = [n for n in _public_callables() if not _required(getattr(kop, n)) and _optional(getattr(kop, n))]


@pytest.mark.parametrize("name", NO_ARGS)
def test_every_optional_argument_wrong(name: str) -> None:
    obj = getattr(kop, name)
    for p in _optional(obj):
        with pytest.raises(KopError, match=p.name):
            obj(**{p.name: object()})


def _model() -> Any:
    return kop.KripkeModel.load(str(THEORIES / "muddy3.model.json"))


def _worlds() -> Any:
    return kop.random_worlds_game(3, 4, seed=1)


#: a valid call of each function that takes arguments: (args, kwargs); each positional argument in turn
#: is then replaced by something of the wrong type
VALID: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "f_level": (("A", "B", 1), {}),
    "chain": (("A", "B", 1), {}),
    "K": (("a", "p"), {}), "M": (("a", "p"), {}), "Kw": (("a", "p"), {}),
    "E": ((["a", "b"], "p"), {}), "C": ((["a", "b"], "p"), {}), "D": ((["a", "b"], "p"), {}),
    "Know": (("a", kop.parse("p")), {}), "Not": ((kop.parse("p"),), {}),
    "Implies": ((kop.parse("p"), kop.parse("q")), {}), "Iff": ((kop.parse("p"), kop.parse("q")), {}),
    "Announce": ((kop.parse("p"), kop.parse("q")), {}),
    "Common": ((["a"], kop.parse("p")), {}), "RelCommon": ((["a"], kop.parse("p"), kop.parse("q")), {}),
    "parse": (("K_a p",), {}), "to_ascii": ((kop.parse("p"),), {}), "to_latex": ((kop.parse("p"),), {}),
    "to_unicode": ((kop.parse("p"),), {}), "to_sympy": ((kop.parse("p & q"),), {}),
    "satisfiable": (("p",), {}), "valid": (("p | ~p",), {}), "entails": ((["p"], "p"), {}),
    "level": ((["K_A E_A"], "A", "B"), {}), "knows": ((["K_A p"], "A", "p"), {}),
    "is_core": ((["K_A E_A"], ["K_A E_A"], "A", ["E_A"]), {}),
    "chains_fragment": (("A", "B", ["E_A"], 2), {}),
    "reduce_announcements": (("[!p] K_a p",), {}),
    "truth_vector": ((_model(), "m_a"), {}),
    "minimize": ((_model(),), {}), "bisimulation_classes": ((_model(),), {}),
    "bisimilar": ((_model(), _model()), {}), "generated_submodel": ((_model(),), {}),
    "minimax": ((kop.figure2(),), {}), "alphabeta": ((kop.figure2(),), {}), "mh": ((kop.figure2(),), {}),
    "mstar": ((kop.figure2(), 1), {}), "hm0m": ((kop.figure2(), 1), {}),
    "strategy": ((kop.figure2(), "Mh"), {}),
    "global_optimum": ((kop.figure2(),), {}), "random_strategy": ((kop.figure2(),), {}),
    "dumps_tree": ((kop.figure2(),), {}), "dumps_efg": ((kop.figure2(),), {}),
    "loads_tree": ((kop.dumps_tree(kop.figure2()),), {}), "load_tree": ((str(THEORIES / "figure2.json"),), {}),
    "decide": ((kop.figure2(), []), {}), "select": ((kop.figure2(), kop.f_level("A", "B", 1)), {}),
    "leaf_order": ((kop.figure2(),), {}),
    "maxn": ((kop.figure2(),), {}), "expectimax": ((kop.figure2(),), {}),
    "search": ((kop.nim(), "minimax"), {}),
    "mc": ((_worlds(),), {}), "vm": ((_worlds(),), {}), "prm": ((_worlds(),), {}), "optbd": ((_worlds(),), {}),
    "gvm": ((_worlds(),), {}), "findoptimal": ((_worlds(),), {}),
    "play_round": ((_worlds(), "MC", "vm"), {}), "supremacy": (([1.0, -1.0, 0.5],), {}),
    "random_worlds_game": ((3, 4), {}), "random_belief_sets": ((4,), {}), "card_game": ((5, 2), {}),
    "spawn_seeds": ((1, 3), {}), "read_results": (("/nonexistent/results.csv",), {}),
    "best_case_tree": ((3, 2, 3), {}), "random_sim_tree": ((1, 2, 2), {}),
    "Agent": (("A",), {}), "TreeGame": ((kop.figure2(),), {}),
    "PayoffBounds": (((0.0, 0.0), (1.0, 1.0), 0.0, 2.0), {}),
    "knows_exactly": (("A", "B"), {}), "knows_order": (("A", "B"), {}), "knows_nothing": (("A", "B"), {}),
}


def test_the_valid_calls_are_valid() -> None:
    for name, (args, kwargs) in VALID.items():
        getattr(kop, name)(*args, **kwargs)


@pytest.mark.parametrize("name", sorted(VALID))
def test_each_argument_wrong_in_turn(name: str) -> None:
    obj = getattr(kop, name)
    args, kwargs = VALID[name]
    params = [p.name for p in inspect.signature(obj).parameters.values()]
    for i in range(len(args)):
        for wrong in (object(), None, 2.5j):
            bad = list(args)
            bad[i] = wrong
            with pytest.raises(KopError, match=params[i]):   # the message names the argument
                obj(*bad, **kwargs)


# -- the cases of the issue ------------------------------------------------------------------------------
def test_f_level_negative() -> None:
    with pytest.raises(KopError, match="'d'.*>= 0"):
        kop.f_level("A", "B", -1)


def test_agent_knowledge_not_formulas() -> None:
    with pytest.raises(KopError, match="knowledge"):
        kop.Agent("A", knowledge=42)


def test_select_without_a_tree() -> None:
    with pytest.raises(KopError, match="'tree'.*GameTree"):
        kop.select(None, kop.f_level("A", "B", 1))


def test_loads_tree_without_text() -> None:
    with pytest.raises(KopError, match="'text'"):
        kop.loads_tree(None)


def test_truth_vector_parses_a_string() -> None:
    m = _model()
    assert np.array_equal(kop.truth_vector(m, "m_a"), kop.truth_vector(m, kop.parse("m_a")))
    with pytest.raises(KopError, match="'phi'"):
        kop.truth_vector(m, 42)


def test_level_of_a_player_against_itself() -> None:
    with pytest.raises(KopError, match="'Z'"):
        kop.level(["K_Z E_Z"], "Z", "Z")


def test_argument_errors_are_also_type_errors() -> None:
    """Code that caught Python's own TypeError or ValueError keeps working."""
    with pytest.raises(TypeError):
        kop.minimax(None)
    with pytest.raises(ValueError):
        kop.minimax(None)
