"""EPDDL's syntax in its grammar: errors by example, located syntax errors, layout that means nothing.

* (every entry of ``grammar/epddl.errors.toml`` gives its message for each of its examples:
  ``tests/syntax/test_error_examples.py``, with the other grammars' tables);
* syntax errors are located (line, column) where Lark stops, with what was expected;
* random tasks, libraries and plans, written out as EPDDL text with random layout and comments,
  mean what the same text means with its comments dropped and its layout one space: the same
  initial state, goal, event models and plan verdicts, or an error of the same kind and words.
  (When the grammar took over EPDDL's syntax, issue 24, the same generators checked the new
  reader against the old one on these summaries: they agreed.)
"""

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import kop.io.epddl as new
from kop.io.epddl import EpddlError
from kop.io.epddl.syntax import read_nodes


@pytest.mark.parametrize("text,line,column,expected,found", [
    ("(define (domain d)\n  (:predicates (p ?x agent)))", 2, 22, "a typed list", "agent"),
    ("(define (domain d)\n  (:action a\n    :precondition (p)))", 3, 5, "an action's :parameters", ":precondition"),
    ("(define (problem p)\n (:goal ([a b] (p))))", 2, 13, "a modal operator", "b"),
    ("(define (problem p) (:goal (p)))\n(define (problem q))", 2, 1, "one (define ...) in the file", "("),
    ("(define (domain d) (:event e :precondition (and (p) @)))", 1, 53, "an EPDDL name, ?variable, :keyword or bracket",
     "@"),
    ("(define (domain d) (:types a - b - c))", 1, 34, "one of ')', a name", "-"),
    ("(define (domain d) (:action-types (p)))", 1, 21, "a domain section kop reads", ":action-types"),
    ("(define (domainx d))", 1, 10, "(define (domain NAME) ...)", "domainx"),
    ("(define (domain d)\n  (:predicates (p)\n", 3, 1, "a ')' closing the '(' of line 2, column 3", ""),
    ("", 1, 1, "(define (domain NAME) ...)", ""),
])
def test_syntax_errors_are_located(text, line, column, expected, found):
    with pytest.raises(EpddlError) as info:
        read_nodes(text, "f.epddl")
    e = info.value
    assert (e.line, e.column, e.found) == (line, column, found), str(e)
    assert e.expected.startswith(expected) and str(e).startswith(f"f.epddl: line {line}, column {column}: "), str(e)


def test_cli_syntax_error_exits_2_with_a_located_message(tmp_path, capsys):
    from kop.cli.app import main

    bad = tmp_path / "d.epddl"
    bad.write_text("(define (domain d)\n  (:action a :precondition (p)))\n")
    problem = tmp_path / "p.epddl"
    problem.write_text("(define (problem p) (:domain d) (:agents a) (:init (:and)) (:goal true))")
    with pytest.raises(SystemExit) as info:
        main(["epddl", "show", str(bad), str(problem)])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "Traceback" not in "\n".join(err)
    assert f"{bad}: line 2, column 14: an action's :parameters, :action-type or :observability-conditions" in err[0]
    assert err[1:] == ["    (:action a :precondition (p)))", "               ^"]  # the line, and a caret under the column


def test_the_file_kind_is_checked_after_the_grammar():
    lib = "(define (action-type-library x) (:action-type t :events (?e) :observability-types (Fully)\n" \
          " :relations (Fully (?e ?e)) :designated (?e)))"
    with pytest.raises(EpddlError, match="give it to kop with --library") as info:
        new.parse_domain(lib)
    assert (info.value.line, info.value.column) == (1, 9)
    with pytest.raises(EpddlError, match=r"\(problem NAME\)"):
        new.parse_problem(new.DOMAIN_EXAMPLE)


# -- the new reader against the old one, on random well-formed tasks --------------------------------

AGENTS = ("a", "b", "c")
TYPES_OF = {"sensing": ("Fully", "Partially", "Oblivious")}


def _sp(draw):
    """Random layout between items: spaces, newlines, a comment."""
    return draw(st.sampled_from([" ", "  ", "\n  ", " ; note (\n ", "\t"]))


@st.composite
def formulas(draw, depth=2, variables=(), modal=True):
    """An EPDDL formula over p, (q ROOM) and (r AGENT), with modal operators when *modal*."""
    terms_r = list(AGENTS[:2]) + [v for v, t in variables if t == "agent"]
    terms_q = ["r1", "r2"] + [v for v, t in variables if t == "room"]
    atoms = ["(p)", "true", "false"] + [f"(q {x})" for x in terms_q] + [f"(r {x})" for x in terms_r]
    if depth == 0:
        return draw(st.sampled_from(atoms))
    kinds = ["atom", "not", "and", "or", "imply", "forall", "exists", "eq"] + (["box", "dia", "kw", "ck"] if modal else [])
    kind = draw(st.sampled_from(kinds))
    sub = formulas(depth=depth - 1, variables=variables, modal=modal)
    s = _sp(draw)
    if kind == "atom":
        return draw(st.sampled_from(atoms))
    if kind == "not":
        return f"(not{s}{draw(sub)})"
    if kind in ("and", "or"):
        return f"({kind}{s}" + s.join(draw(st.lists(sub, max_size=3))) + ")"
    if kind == "imply":
        return f"(imply {draw(sub)}{s}{draw(sub)})"
    if kind in ("forall", "exists"):
        var = draw(st.sampled_from(["?x", "?y"]))
        t = draw(st.sampled_from(["agent", "room"]))
        cond = draw(st.sampled_from(["", f" | (/= {var} a)" if t == "agent" else f" | (= {var} r1)"]))
        body = draw(formulas(depth=depth - 1, variables=(*variables, (var, t)), modal=modal))
        return f"({kind} ({var} - {t}{cond}){s}{body})"
    if kind == "eq":
        return f"({draw(st.sampled_from(['=', '/=']))} {draw(st.sampled_from(terms_r))} {draw(st.sampled_from(terms_r))})"
    group = draw(st.sampled_from(terms_r + ["All", "(a b)"]))
    if kind == "box":
        return f"([{group}] {draw(sub)})"
    if kind == "dia":
        return f"(<{group}>{s}{draw(sub)})"
    if kind == "kw":
        op = draw(st.sampled_from(["[Kw. {}]", "<Kw. {}>", "[D. {}]", "<C. {}>"]))
        return f"({op.format(group)} {draw(sub)})"
    return f"([C. All] {draw(sub)})"


@st.composite
def effects(draw, variables=()):
    atoms = ["(p)", "(q r1)", "(q r2)"] + [f"(r {x})" for x in ("a", "b", *[v for v, t in variables if t == "agent"])]
    parts = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["add", "del", "when", "forall"]))
        lit = draw(st.sampled_from(atoms))
        if kind == "add":
            parts.append(lit)
        elif kind == "del":
            parts.append(f"(not {lit})")
        elif kind == "when":
            parts.append(f"(when {draw(formulas(depth=1, variables=variables, modal=False))} {lit})")
        else:
            parts.append(draw(st.sampled_from(["(:forall (?z - room) (when (q ?z) (not (q ?z))))",
                                               "(:forall (?x ?y - room | (adj ?x ?y)) (when (q ?x) (:and (not (q ?x)) (q ?y))))"])))
    return parts[0] if len(parts) == 1 else "(:and " + " ".join(parts) + ")"


@st.composite
def tasks(draw):
    """A domain and a problem: events, actions of the standard types, a theory or explicit worlds."""
    sp = _sp(draw)
    events = [f"(:event nil)"]
    ontic_pre = draw(formulas(depth=1, variables=(("?i", "agent"),)))
    events.append(f"(:event e-do :parameters (?i - agent){sp}:precondition {ontic_pre}{sp}"
                  f":effects {draw(effects(variables=(('?i', 'agent'),)))})")
    sense = draw(formulas(depth=1, variables=(("?i", "agent"),), modal=False))
    events.append(f"(:event e-yes :parameters (?i - agent) :precondition {sense})")
    events.append(f"(:event e-no :parameters (?i - agent) :precondition (not {sense}))")
    cond = draw(formulas(depth=1, variables=(("?i", "agent"), ("?j", "agent")), modal=False))
    actions = [
        "(:action act :parameters (?i - agent) :action-type (public-ontic (e-do ?i)))",
        f"(:action sneak :parameters (?i - agent) :action-type (private-ontic (e-do ?i) (nil))\n"
        f"  :observability-conditions (:and (?i Fully) (default Oblivious)))",
        f"(:action look :parameters (?i ?j - agent | (/= ?i ?j))\n"
        f"  :action-type ({draw(st.sampled_from(['quasi-private-sensing', 'private-sensing']))} (e-yes ?i) (e-no ?i) (nil))\n"
        f"  :observability-conditions (:and (?i Fully) (:forall (?k - agent | (/= ?k ?i))"
        f" (?k (if {cond.replace('?j', '?k')} {draw(st.sampled_from(['Oblivious', 'Fully']))} else Oblivious)))))",
        f"(:action tell :parameters (?i - agent) :action-type (semi-private-announcement (e-yes ?i) (e-no ?i))\n"
        f"  :observability-conditions (:and (?i Fully) (default Partially)))",
    ]
    domain = ("; a random task\n(define (domain rnd)\n  (:requirements :strips)\n  (:types room)\n"
              "  (:constants r1 r2 - room)\n  (:predicates (p) (q ?x - room) (r ?i - agent) (:fact adj ?x ?y - room))\n  "
              + "\n  ".join(draw(st.permutations(events + actions))) + ")\n")
    agents = AGENTS[:draw(st.integers(1, 3))]
    if draw(st.booleans()):
        items = [draw(st.sampled_from(["(p)", "(not (p))", "(q r1)", "(r a)"]))]
        items += [f"([C. All] {draw(formulas(depth=1, modal=False))})" for _ in range(draw(st.integers(0, 2)))]
        items += [f"([C. All] ([Kw. {a}] {draw(st.sampled_from(['(p)', '(q r1)', '(r b)']))}))"
                  for a in draw(st.lists(st.sampled_from(agents), max_size=2))]
        items.append("(:forall (?i - agent) ([C. All] (<Kw. ?i> (q r2))))")
        init = "(:init (:and " + sp.join(items) + "))"
    else:
        worlds = ["w1", "w2", "w3"][:draw(st.integers(1, 3))]
        rel = " ".join(f"{a} {draw(st.sampled_from(['(:forall (?x ?y - world) (?x ?y))', '(:forall (?x - world) (?x ?x))', f'(:and (w1 w1) ({worlds[-1]} w1))']))}"
                       for a in agents)
        labels = " ".join(f"{w} (:and {' '.join(draw(st.lists(st.sampled_from(['(p)', '(q r1)', '(r a)']), unique=True)))})"
                          for w in worlds)
        init = (f"(:init :worlds ({' '.join(worlds)}){sp}:relations ({rel})\n :labels ({labels}) "
                f":designated ({worlds[0]}))")
    rooms = ["r1", "r2"] + draw(st.lists(st.just("r3"), max_size=1))
    objects = "(:objects r3 - room)" if "r3" in rooms else ""
    facts = " ".join(f"(adj {x} {y})" for x, y in draw(st.lists(st.tuples(st.sampled_from(rooms), st.sampled_from(rooms)),
                                                                    max_size=3)))
    problem = (f"(define (problem rnd-1) (:domain rnd) (:agents {' '.join(agents)}) {objects}\n  (:facts-init {facts})\n  {init}\n"
               f"  (:goal {draw(formulas(depth=2))}))\n")
    return domain, problem


@st.composite
def slot_conditions(draw, variables, depth=2):
    kind = draw(st.sampled_from(["=", "/=", "not", "and", "or", "imply"] if depth else ["=", "/="]))
    if kind in ("=", "/="):
        return f"({kind} {draw(st.sampled_from(variables))} {draw(st.sampled_from(variables))})"
    sub = slot_conditions(variables, depth - 1)
    if kind == "not":
        return f"(not {draw(sub)})"
    if kind == "imply":
        return f"(imply {draw(sub)} {draw(sub)})"
    return f"({kind} " + " ".join(draw(st.lists(sub, max_size=3))) + ")"


@st.composite
def libraries(draw):
    """An action-type library: event slots, observability types, relations by pairs, :and and :forall."""
    types = []
    for k in range(draw(st.integers(1, 2))):
        slots = ["?s", "?t", "?nil"][:draw(st.integers(1, 3))]
        otypes = draw(st.lists(st.sampled_from(["Fully", "Partially", "Oblivious"]), min_size=1, unique=True))
        rel = []
        for t in otypes:
            pairs = draw(st.lists(st.one_of(
                st.tuples(st.sampled_from(slots), st.sampled_from(slots)).map(lambda p: f"({p[0]} {p[1]})"),
                slot_conditions(["?e", "?f", *slots]).map(lambda c: f"(:forall (?e ?f - event | {c}) (?e ?f))"),
                st.just("(:forall (?e - event) (?e ?e))")), min_size=1, max_size=3))
            rel.append(f"{t} " + (pairs[0] if len(pairs) == 1 else "(:and " + " ".join(pairs) + ")"))
        designated = " ".join(draw(st.lists(st.sampled_from(slots), unique=True)))
        conditions = " ".join(f"{e} ({draw(st.sampled_from([':trivial-event', ':trivial-postconditions', ':non-trivial-postconditions']))})"
                              for e in draw(st.lists(st.sampled_from(slots), unique=True)))
        types.append(f"(:action-type at{k} :events ({' '.join(slots)}) :observability-types ({' '.join(otypes)})\n"
                     f"  :relations ({' '.join(rel)}) :designated ({designated}) :conditions ({conditions}))")
    return "(define (action-type-library lib) (:requirements :x)\n" + "\n".join(types) + ")"


def _plain(text):
    """*text* with its comments dropped and every run of layout one space (what EPDDL's syntax ignores)."""
    return re.sub(r"\s+", " ", re.sub(r";[^\n]*", " ", text)).strip()


def _unlocated(result):
    """An error's words without its line and column (they move with the layout)."""
    if isinstance(result, list) and result and result[0] == "error":
        return [re.sub(r"line \d+, column \d+", "line L, column C", str(x)) for x in result if not isinstance(x, int)]
    return result


@given(libraries())
def test_random_libraries_mean_the_same_in_any_layout(text):
    import dataclasses

    def read(text):
        try:
            name, types = new.parse_library(text, "l.epddl")
        except Exception as e:
            return ["error", str(e)]
        return [name, {k: dataclasses.astuple(v) for k, v in types.items()}]

    assert _unlocated(read(text)) == _unlocated(read(_plain(text)))


def _summary(domain, problem):
    """The task as JSON: its initial state, goal and every ground action's event model there (or the error)."""
    try:
        task = new.load_task(domain, problem, "d.epddl", "p.epddl")
    except Exception as e:
        return ["error", type(e).__name__, getattr(e, "line", None), getattr(e, "column", None), str(e)]
    out = {"initial": task.initial.to_json(), "goal": str(task.goal), "agents": list(task.agents),
           "atoms": task.atoms, "actions": {}}
    for name, (action, args) in sorted(task.ground_names().items()):
        try:
            em, obs = task.action(action, args).event_model(task.initial)
            out["actions"][name] = [em.to_json(), obs]
        except Exception as e:
            out["actions"][name] = ["error", type(e).__name__, str(e)]
    return json.loads(json.dumps(out, sort_keys=True, default=str))


@given(tasks())
def test_random_tasks_mean_the_same_in_any_layout(task):
    domain, problem = task
    assert _unlocated(_summary(domain, problem)) == _unlocated(_summary(_plain(domain), _plain(problem)))


@given(tasks(), st.sampled_from(["(act a)\n(look a b)", "(sneak b)\n(tell a)", "tell_a\nact_a", "(look a a)"]))
def test_random_plans_validate_the_same_in_any_layout(task, plan):
    def verdict(domain, problem):
        try:
            t = new.load_task(domain, problem)
            v = new.validate_plan(t, new.parse_plan(plan), plan)
            return [v.explain(), v.model.to_json()]
        except Exception as e:
            return ["error", str(e)]

    domain, problem = task
    assert _unlocated(verdict(domain, problem)) == _unlocated(verdict(_plain(domain), _plain(problem)))


def test_the_generator_makes_tasks_kop_reads():
    """Most random tasks are read (not refused): the comparisons above are not only of errors."""
    from hypothesis import find, settings

    read = find(tasks(), lambda t: isinstance(_summary(*t), dict), settings=settings(max_examples=200, database=None))
    assert "initial" in _summary(*read)
