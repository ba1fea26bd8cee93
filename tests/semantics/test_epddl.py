"""EPDDL: reading domains and problems, grounding, product update, plan validation, located errors.

Checked against the definitions: the initial states against models built by hand, each
product update against a brute-force product written here from the definition, S5 cases
against kop's own ActionModel product update (compared by bisimulation).
"""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kop import ActionModel, KripkeModel, bisimilar
from kop.cli.app import run
from kop.io.epddl import (DOMAIN_EXAMPLE, PROBLEM_EXAMPLE, EpddlError, load_task, parse_domain, parse_plan,
                                 parse_problem, validate_plan)
from kop.semantics.relational import EventModel, RelationalModel, relational_product

TH = Path(__file__).resolve().parents[2] / "theories" / "epddl"


def _task(name):
    return load_task((TH / f"{name}-domain.epddl").read_text(), (TH / f"{name}-problem.epddl").read_text())


def _validate(name, plan):
    task = _task(name)
    return validate_plan(task, parse_plan((TH / f"{name}-plan-{plan}.txt").read_text()))


# -- brute force product update, straight from the definition ---------------------------------

def brute_product(m, e):
    """Sets of pairs: worlds (w, f) with w |= pre(f); (w,f) R_a (v,g) iff w R_a v and f Q_a g."""
    worlds = [(w, f) for w in m.worlds for f in e.events if m.holds(e.pre[e.events.index(f)], w)]
    rel = {a: {(x, y) for x in worlds for y in worlds
               if (x[0], y[0]) in set(m.pairs(a)) and (x[1], y[1]) in set(e.pairs(a))} for a in m.agents}
    val = {}
    for w, f in worlds:
        atoms = set(m.valuation[m.worlds.index(w)])
        for p, phi in e.post[e.events.index(f)].items():
            (atoms.add if m.holds(phi, w) else atoms.discard)(p)
        val[(w, f)] = frozenset(atoms)
    des = {(w, f) for w, f in worlds if m.worlds.index(w) in m.designated and e.events.index(f) in e.designated}
    return worlds, rel, val, des


def same_as_brute(got, m, e):
    worlds, rel, val, des = brute_product(m, e)
    name = {f"({w},{f})": (w, f) for w, f in worlds}
    assert [name[w] for w in got.worlds] == worlds
    for a in m.agents:
        assert {(name[u], name[v]) for u, v in got.pairs(a)} == rel[a]
    assert {name[w]: v for w, v in zip(got.worlds, got.valuation)} == val
    assert {name[got.worlds[i]] for i in got.designated} == des


def rel_bisimilar(m1, m2):
    """Brute-force bisimulation (greatest fixpoint) between the designated worlds of two relational models."""
    pairs = {(i, j) for i in range(len(m1)) for j in range(len(m2)) if m1.valuation[i] == m2.valuation[j]}
    changed = True
    while changed:
        changed = False
        for i, j in list(pairs):
            ok = all(all(any((x, y) in pairs for y in m2.succ[a][j]) for x in m1.succ[a][i])
                     and all(any((x, y) in pairs for x in m1.succ[a][i]) for y in m2.succ[a][j]) for a in m1.agents)
            if not ok:
                pairs.discard((i, j))
                changed = True
    return (all(any((i, j) in pairs for j in m2.designated) for i in m1.designated)
            and all(any((i, j) in pairs for i in m1.designated) for j in m2.designated))


@st.composite
def models(draw, s5=False):
    n = draw(st.integers(1, 4))
    worlds = [f"w{i}" for i in range(n)]
    agents = ["a", "b"]
    rel = {}
    for a in agents:
        if s5:
            block = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
            rel[a] = [(u, v) for u, bu in zip(worlds, block) for v, bv in zip(worlds, block) if bu == bv]
        else:
            rel[a] = [(u, v) for u in worlds for v in worlds if draw(st.booleans())]
    val = {w: [p for p in "pq" if draw(st.booleans())] for w in worlds}
    des = draw(st.lists(st.sampled_from(worlds), min_size=1, unique=True))
    return RelationalModel(worlds, rel, val, des)


FORMULAS = ["true", "p", "~p", "q", "p & q", "K_a p", "M_b q", "Kw_a q", "~K_b p"]


@st.composite
def event_models(draw, s5=False):
    k = draw(st.integers(1, 3))
    events = [f"e{i}" for i in range(k)]
    pre = {e: draw(st.sampled_from(FORMULAS)) for e in events}
    post = {e: {p: draw(st.sampled_from(FORMULAS)) for p in draw(st.sets(st.sampled_from("pq")))} for e in events}
    rel = {}
    for a in ["a", "b"]:
        if s5:
            block = draw(st.lists(st.integers(0, 1), min_size=k, max_size=k))
            rel[a] = [(u, v) for u, bu in zip(events, block) for v, bv in zip(events, block) if bu == bv]
        else:
            rel[a] = [(u, v) for u in events for v in events if draw(st.booleans())]
    des = draw(st.lists(st.sampled_from(events), min_size=1, unique=True))
    return EventModel(events, pre, post, rel, des)


@settings(max_examples=150, deadline=None)
@given(models(), event_models())
def test_product_update_matches_the_definition(m, e):
    same_as_brute(relational_product(m, e), m, e)


@settings(max_examples=150, deadline=None)
@given(models(s5=True), event_models(s5=True))
def test_s5_product_equals_kops_action_model_update(m, e):
    got = relational_product(m, e)
    km = m.to_kripke()
    am = ActionModel(e.events, pre=dict(zip(e.events, e.pre)), post=dict(zip(e.events, e.post)),
                     partitions={a: [list(b) for b in {frozenset(e.events[j] for j in s) for s in e.succ[a]}]
                                 for a in e.agents},
                     actual=[e.events[i] for i in sorted(e.designated)])
    want = km.product_update(am)
    assert got.is_s5()
    assert sorted(got.worlds) == sorted(want.worlds)
    for f in FORMULAS:
        assert got.truth_set(f) == want.truth_set(f)
    if got.designated and want.actual:
        assert bisimilar(got.to_kripke(), want)


@settings(max_examples=100, deadline=None)
@given(models(), event_models())
def test_generated_submodel_is_bisimilar(m, e):
    full = relational_product(m, e)
    assert rel_bisimilar(full, full.generated())


# -- the example and the classic domains ---------------------------------------------------------

def test_example_peek_is_kops_semi_private_update():
    task = load_task(DOMAIN_EXAMPLE, PROBLEM_EXAMPLE)
    hand = KripkeModel({"H": ["heads"], "T": []}, {"a": [["H", "T"]], "b": [["H", "T"]]}, "H")
    assert bisimilar(task.initial.to_kripke(), hand)
    em, obs = task.action("peek", ["a"]).event_model(task.initial)
    assert obs == {"a": "Fully", "b": "Partially"}
    same_as_brute(relational_product(task.initial, em), task.initial, em)
    after = relational_product(task.initial, em).generated()
    want = hand.product_update(ActionModel.semi_private("heads", ["a"], agents=["a", "b"]))
    assert bisimilar(after.to_kripke(), want)


def test_coin_initial_state_by_hand():
    task = _task("coin")
    fixed = ["has_key_A", "looking_A"]
    everyone = [["t", "h"]]
    hand = KripkeModel({"t": ["tails", *fixed], "h": fixed}, {a: everyone for a in "ABC"}, "t")
    assert bisimilar(task.initial.to_kripke(), hand)


def test_coin_open_is_private_with_oblivious_observers():
    task = _task("coin")
    em, obs = task.action("open", ["A"]).event_model(task.initial)
    assert obs == {"A": "Fully", "B": "Oblivious", "C": "Oblivious"}
    assert em.pairs("B") == [("(e-open A)", "(nil)"), ("(nil)", "(nil)")]
    after = relational_product(task.initial, em)
    same_as_brute(after, task.initial, em)
    assert not after.is_s5()
    # A knows the box is open; B and C believe it is still closed
    assert after.holds("K_A opened & K_B ~opened & K_C ~opened & opened")


@pytest.mark.parametrize("name,plan,valid,failed,goal", [
    ("coin", "valid", True, None, True),
    ("coin", "closed", False, 1, None),
    ("coin", "shout", False, 5, False),
    ("grapevine", "valid", True, None, True),
    ("grapevine", "overheard", False, 2, False),
    ("grapevine", "left", False, 2, None),
])
def test_plans(name, plan, valid, failed, goal):
    v = _validate(name, plan)
    assert (v.valid, v.failed_step, v.goal) == (valid, failed, goal)


def test_grapevine_step_by_step_against_brute_force():
    task = _task("grapevine")
    m = task.initial
    assert len(m) == 8 and m.is_s5()
    for name, args in [("right", ["C"]), ("tell", ["A", "A"])]:
        em, _ = task.action(name, args).event_model(m)
        nxt = relational_product(m, em)
        same_as_brute(nxt, m, em)
        m = nxt.generated()
    assert m.holds("K_B secret_A & ~Kw_C secret_A & K_C ~Kw_B secret_A")


SC_DOMAIN = """
(define (domain sc)
  (:types room)
  (:predicates (info) (at ?i - agent ?r - room) (:fact next ?a ?b - room))
  (:event nil)
  (:event e-right :parameters (?i - agent)
    :precondition (not (at ?i r3))
    :effects (:forall (?a ?b - room | (next ?a ?b)) (when (at ?i ?a) (:and (not (at ?i ?a)) (at ?i ?b)))))
  (:action right :parameters (?i - agent) :action-type (public-ontic (e-right ?i)))
  (:event e-tell :parameters (?i - agent) :precondition ([?i] (info)))
  (:action tell :parameters (?i - agent)
    :action-type (private-announcement (e-tell ?i) (nil))
    :observability-conditions
      (:and (?i Fully)
            (:forall (?j - agent | (/= ?i ?j))
              (?j (if (exists (?r - room) (and (at ?i ?r) (at ?j ?r))) Fully else Oblivious))))))
"""
SC_PROBLEM = """
(define (problem sc-1) (:domain sc) (:agents A B C)
  (:objects r1 r2 r3 - room)
  (:facts-init (next r1 r2) (next r2 r3))
  (:init
    :worlds (yes no)
    :relations (A (:forall (?x - world) (?x ?x))
                B (:forall (?x ?y - world) (?x ?y))
                C (:forall (?x ?y - world) (?x ?y)))
    :labels (yes (:and (info) (at A r1) (at B r2) (at C r1))
             no  (:and (at A r1) (at B r2) (at C r1)))
    :designated (yes))
  (:goal (and ([B] (info)) (not ([Kw. C] (info))))))
"""


def test_selective_communication_explicit_state_and_conditional_effects():
    task = load_task(SC_DOMAIN, SC_PROBLEM)
    assert task.initial.holds("K_A info & ~Kw_B info")
    v = validate_plan(task, parse_plan("(right A)\n(tell A)"))
    assert v.valid and [s.observability["C"] for s in v.steps] == ["Fully", "Oblivious"]
    assert v.model.holds("at_A_r2 & ~at_A_r1")
    v = validate_plan(task, parse_plan("(tell A)"))
    assert (v.valid, v.goal) == (False, False)     # B is in another room, C hears
    v = validate_plan(task, parse_plan("(tell B)"))
    assert (v.valid, v.failed_step) == (False, 1)  # B does not know info


# -- located errors --------------------------------------------------------------------------------

@pytest.mark.parametrize("domain,line,col,words", [
    ("(define (domain d)\n  (:predicates (p))\n  (:event e :precondition (q)))", 3, 28, "predicate of the domain"),
    ("(define (domain d)\n  (:predicates (p)\n", 3, 1, "closing the '(' of line 2"),
    ("(define (domain d) (:action a :action-type (secret-ontic (e))))", 1, 45, "action type kop knows"),
    ("(define (domain d) (:derived (p)))", 1, 21, "domain section kop reads"),
    ("(define (action-type-library x))", 1, 9, "give it to kop with --library"),
])
def test_domain_errors_are_located(domain, line, col, words):
    with pytest.raises(EpddlError) as info:
        load_task(domain, "(define (problem p) (:domain d) (:agents a) (:init (:and (p))) (:goal (p)))")
    e = info.value
    assert (e.line, e.column) == (line, col) and words in str(e), str(e)


def test_problem_errors_are_located():
    bad = SC_PROBLEM.replace("C (:forall (?x ?y - world) (?x ?y)))", "A (:forall (?x ?y - world) (?x ?y)))")
    with pytest.raises(EpddlError, match="one relation for agent A") as info:
        load_task(SC_DOMAIN, bad, problem_source="p.epddl")
    assert info.value.line == 9 and str(info.value).startswith("p.epddl: line 9, column 17")
    with pytest.raises(EpddlError, match="holds in the model"):
        load_task(DOMAIN_EXAMPLE, PROBLEM_EXAMPLE.replace("(heads) (:forall", "(heads) ([C. All] ([Kw. a] (heads))) (:forall"))
    with pytest.raises(EpddlError, match="argument"):
        validate_plan(load_task(DOMAIN_EXAMPLE, PROBLEM_EXAMPLE), parse_plan("\n(peek c)"))


def test_cli_validate_show_and_exit_codes(capsys, tmp_path):
    d, p = str(TH / "coin-domain.epddl"), str(TH / "coin-problem.epddl")
    assert run(["epddl", "validate", d, p, str(TH / "coin-plan-valid.txt")]) == 0
    assert "plan valid" in capsys.readouterr().out
    assert run(["epddl", "validate", d, p, str(TH / "coin-plan-closed.txt"), "--json", "--show-model"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["failed_step"] == 1 and out["steps"][0]["applicable"] is False and len(out["model"]["worlds"]) == 2
    assert run(["epddl", "show", d, p, "-a", "(open A)"]) == 0
    assert "private-ontic" in capsys.readouterr().out
    plan = tmp_path / "bad.txt"
    plan.write_text("(open A)\n(fly A)\n")
    with pytest.raises(EpddlError) as info:
        run(["epddl", "validate", d, p, str(plan)])
    assert info.value.line == 2 and "action of the domain" in str(info.value)


def test_parse_domain_and_problem_fields():
    d, p = parse_domain(DOMAIN_EXAMPLE), parse_problem(PROBLEM_EXAMPLE)
    assert d.predicates["heads"].types == () and p.agents == ("a", "b")


# -- docs/epddl.md runs as shown ------------------------------------------------------------------

DOC = (Path(__file__).resolve().parents[2] / "docs" / "epddl.md").read_text(encoding="utf-8")


def test_docs_python_examples(monkeypatch):
    from doc_examples import run_python_blocks

    monkeypatch.chdir(TH.parents[1])
    failed, tried = run_python_blocks(DOC, "docs/epddl.md", ellipsis=False)
    assert failed == 0 and tried >= 6


def test_docs_command_transcript(monkeypatch, capsys):
    import shlex

    monkeypatch.chdir(TH.parents[1])
    from doc_examples import shell_block, transcript

    commands = transcript(shell_block(DOC))
    assert len(commands) == 3
    for command, shown in commands:
        argv = shlex.split(command)
        assert argv[0] == "kop"
        run(argv[1:])
        assert capsys.readouterr().out.splitlines() == shown, command


LIBRARY = """
; two action types written out as a library: the same relations as kop's built-in ones
(define (action-type-library mine)
  (:action-type whisper
    :events (?said ?nil)
    :observability-types (Fully Oblivious)
    :relations (Fully (:and (?said ?said) (?nil ?nil))
                Oblivious (:forall (?e - event) (?e ?nil)))
    :designated (?said)
    :conditions (?said (:trivial-postconditions) ?nil (:trivial-event)))
  (:action-type glimpse
    :events (?yes ?no ?nil)
    :observability-types (Fully Partially Oblivious)
    :relations (Fully (:forall (?e - event) (?e ?e))
                Partially (:forall (?e ?f - event | (or (= ?e ?f) (and (/= ?e ?nil) (/= ?f ?nil)))) (?e ?f))
                Oblivious (:forall (?e - event) (?e ?nil)))
    :designated (?yes ?no)
    :conditions (?yes (:trivial-postconditions) ?no (:trivial-postconditions) ?nil (:trivial-event))))
"""


def test_library_types_equal_the_built_in_ones_and_run():
    from kop.io.epddl import ACTION_TYPES, parse_library

    name, types = parse_library(LIBRARY)
    assert name == "mine"
    for mine, builtin in (("whisper", "private-announcement"), ("glimpse", "quasi-private-sensing")):
        a, b = types[mine], ACTION_TYPES[builtin]
        assert (dict(a.relations), a.designated, a.trivial, a.static) == \
            (dict(b.relations), b.designated, b.trivial, b.static)
    domain = (TH / "coin-domain.epddl").read_text().replace("intermediate", "mine") \
        .replace("quasi-private-sensing", "glimpse")
    task = load_task(domain, (TH / "coin-problem.epddl").read_text(), libraries=[(LIBRARY, "mine.epddl")])
    v = validate_plan(task, parse_plan((TH / "coin-plan-valid.txt").read_text()))
    assert v.valid and [s.worlds for s in v.steps] == [4, 3]
    with pytest.raises(EpddlError, match="a library given to kop"):
        load_task(domain, (TH / "coin-problem.epddl").read_text())


def test_cli_bad_input_exits_2_with_a_located_message(capsys, tmp_path):
    from kop.cli.app import main

    bad = tmp_path / "d.epddl"
    bad.write_text("(define (domain coin-in-the-box)\n  (:predicates (tails)\n")
    for argv in (["epddl", "validate", str(bad), str(TH / "coin-problem.epddl"), str(TH / "coin-plan-valid.txt")],
                 ["epddl"]):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2
    err = capsys.readouterr().err
    assert f"{bad}: line 3, column 1: a ')' closing the '(' of line 2, column 3" in err
    assert "kop epddl needs a command" in err


@st.composite
def prop_formulas(draw, depth=3):
    from kop.syntax.formula import And, Atom, Implies, Not, Or

    if depth == 0 or draw(st.booleans()):
        return Atom(draw(st.sampled_from("pqrs")))
    kind = draw(st.sampled_from(["not", "and", "or", "imply"]))
    if kind == "not":
        return Not(draw(prop_formulas(depth=depth - 1)))
    a, b = draw(prop_formulas(depth=depth - 1)), draw(prop_formulas(depth=depth - 1))
    return {"and": And, "or": Or, "imply": Implies}[kind](a, b)


@settings(max_examples=200, deadline=None)
@given(st.lists(prop_formulas(), max_size=3), st.dictionaries(st.sampled_from("pqrs"), st.booleans(), max_size=2))
def test_theory_worlds_are_exactly_the_models_of_the_common_knowledge(law, base):
    """The backtracking enumeration of a finitary S5 theory's worlds equals trying every valuation."""
    import itertools

    from kop.io.epddl import _models

    free = [p for p in "pqrs" if p not in base]
    got = _models(law, free, base)
    want = []
    for bits in itertools.product((False, True), repeat=len(free)):
        true = frozenset([p for p, v in base.items() if v] + [p for p, b in zip(free, bits) if b])
        m = RelationalModel(["w"], {}, {"w": true})
        if all(m.holds(f) for f in law):
            want.append(true)
    assert got == want
