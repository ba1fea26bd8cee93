"""Partial knowledge of evaluation functions: the knowing-value semantics (SPEC §2.4, issue 8 item 3).

* the two semantics agree where both apply: with all-or-nothing knowledge, the
  levels, decided nodes and recommendations of the knowing-value reading equal
  those of the propositional one (random trees drawn as structures);
* the prover path of ``decide(..., evaluations=)`` agrees with Algorithm 3
  model-checked on the knowing-value Kripke model, for every kind of knowledge;
* the exact rules for infinite candidate sets (order, ±k, subtree) agree with
  brute force over finite grids of candidates;
* partial knowledge decides nodes that atomic knowledge cannot;
* bad input gets a clear error naming what and where.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

import kop
import kop.reasoning.knowledge as knowledge_mod
from kop.selection.decide import decide
from kop.selection.evaluation_model import KnowingValueModel
from kop.selection.evaluations import (EvaluationError, knowledge_formulas, leaf_order, resolve_all)
from kop.syntax.levels import f_level

@pytest.fixture(scope="module", autouse=True)
def _remember_prover_answers():
    """The random trees of one height ask the prover the same questions over and over: remember
    the answers (the prover is a pure function of its inputs), so thousands of cases stay fast."""
    import kop.reasoning.prover as prover_mod

    entails, level = prover_mod.entails, knowledge_mod.level
    seen: dict = {}

    def remembered_entails(premises, phi, **kw):
        key = ("entails", tuple(premises) if not isinstance(premises, (str, kop.Formula)) else premises, phi,
               tuple(sorted(kw.items())))
        if key not in seen:
            seen[key] = entails(premises, phi, **kw)
        return seen[key]

    def remembered_level(knowledge, player, opponent, max_depth=None, **kw):
        key = ("level", tuple(knowledge), player, opponent, max_depth, tuple(sorted(kw.items())))
        if key not in seen:
            seen[key] = level(knowledge, player, opponent, max_depth, **kw)
        return seen[key]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(prover_mod, "entails", remembered_entails)
        mp.setattr(knowledge_mod, "level", remembered_level)
        yield


FAST = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=examples(3000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
LEVEL_DEPTH = 6

FIG2_A = [4, 8, 7, 5, 10, 6, 3, 1, 2, 11, 9, 1]          # A's payoffs, leaves left to right
FIG2_B = [7, 9, 4, 6, 3, 10, 8, 9, 2, 12, 4, 5]


# -- random trees, drawn as structures ---------------------------------------------------

def _subtree(depth: int, values: st.SearchStrategy):
    leaf = st.tuples(values, values)
    if depth == 0:
        return leaf
    inner = st.tuples(st.sampled_from(["A", "B"]), st.lists(_subtree(depth - 1, values), min_size=1, max_size=3))
    return st.one_of(leaf, inner) if depth < 3 else inner


@st.composite
def trees(draw, depth: int = 3, values: st.SearchStrategy | None = None):
    """A two-player tree (A max, B min) with small integer payoffs, so ties happen."""
    vals = values if values is not None else st.integers(0, 5)
    first = draw(st.sampled_from(["A", "B"]))
    kids = draw(st.lists(_subtree(depth - 1, vals), min_size=1, max_size=3))
    players = ["A", "B"] if first == "A" else [kop.Player("A", "max"), kop.Player("B", "min")]
    return kop.GameTree.build(players, (first, kids))


ATOMIC = st.sampled_from(["exact", "nothing"])


def _atomic(kind: str, knower: str, owner: str):
    return kop.knows_exactly(knower, owner) if kind == "exact" else kop.knows_nothing(knower, owner)


def _movers(t):
    first = t.root.player
    return first, next(p for p in t.player_names if p != first)


# -- the two semantics agree on all-or-nothing knowledge --------------------------------------

def _check_atomic_decide(t, ba, ab):
    specs = [_atomic(ba, "B", "A"), _atomic(ab, "A", "B")]
    prop = decide(t, knowledge_formulas(t, resolve_all(t, specs)))           # Algorithm 3 through the prover
    kv = decide(t, [], evaluations=specs)                                     # knowing-value, prover path
    model = KnowingValueModel.build(t, specs).decided()                       # knowing-value, model checking
    assert prop.decided == kv.decided == tuple(model.tolist())
    assert not any(kv.partial_only)


def _check_atomic_levels(t, ba, ab):
    specs = [_atomic(ba, "B", "A"), _atomic(ab, "A", "B")]
    p, q = _movers(t)
    ks = knowledge_formulas(t, resolve_all(t, specs))
    prover_level = knowledge_mod.level
    assert KnowingValueModel.build(t, specs).levels(max_depth=LEVEL_DEPTH) == (
        prover_level(ks, p, q, max_depth=LEVEL_DEPTH), prover_level(ks, q, p, max_depth=LEVEL_DEPTH))


def _check_atomic_select(t, ba, ab):
    specs = [_atomic(ba, "B", "A"), _atomic(ab, "A", "B")]
    ks = knowledge_formulas(t, resolve_all(t, specs))
    prop = kop.select(t, ks)
    kv = kop.select(t, [], evaluations=specs)
    assert (prop.level, prop.opponent_level) == (kv.level, kv.opponent_level)
    assert [n.index for n in prop.decision.decided_nodes()] == [n.index for n in kv.decision.decided_nodes()]
    assert prop.recommended.strategy == kv.recommended.strategy
    assert [(c.strategy, c.applicable, c.guaranteed, c.verified) for c in prop.candidates] == \
        [(c.strategy, c.applicable, c.guaranteed, c.verified) for c in kv.candidates]


@settings(FAST, max_examples=examples(250))
@given(trees(), ATOMIC, ATOMIC)
def test_atomic_knowledge_decides_like_the_propositional_semantics(t, ba, ab):
    _check_atomic_decide(t, ba, ab)


@pytest.mark.slow
@settings(SLOW, max_examples=examples(3000))
@given(trees(depth=4), ATOMIC, ATOMIC)
def test_atomic_knowledge_decides_like_the_propositional_semantics_slow(t, ba, ab):
    _check_atomic_decide(t, ba, ab)


@FAST
@given(trees(depth=4), ATOMIC, ATOMIC)
def test_atomic_knowledge_levels_agree(t, ba, ab):
    _check_atomic_levels(t, ba, ab)


@pytest.mark.slow
@SLOW
@given(trees(depth=5), ATOMIC, ATOMIC)
def test_atomic_knowledge_levels_agree_slow(t, ba, ab):
    _check_atomic_levels(t, ba, ab)


@settings(FAST, max_examples=examples(25))
@given(trees(), ATOMIC, ATOMIC)
def test_atomic_knowledge_recommends_like_the_propositional_semantics(t, ba, ab):
    _check_atomic_select(t, ba, ab)


@pytest.mark.slow
@settings(SLOW, max_examples=examples(400))
@given(trees(depth=4), ATOMIC, ATOMIC)
def test_atomic_knowledge_recommends_like_the_propositional_semantics_slow(t, ba, ab):
    _check_atomic_select(t, ba, ab)


# -- every kind of partial knowledge: the prover path and the model agree ----------------------

@st.composite
def partial(draw, t, knower: str, owner: str):
    kind = draw(st.sampled_from(["exact", "nothing", "candidates", "order", "within", "subtree"]))
    oi = t.player_names.index(owner)
    actual = [t.node(int(i)).payoff[oi] for i in leaf_order(t)]
    if kind == "candidates":
        others = draw(st.lists(st.lists(st.integers(0, 5), min_size=len(actual), max_size=len(actual)),
                               max_size=3))
        pos = draw(st.integers(0, len(others)))
        return kop.knows_candidates(knower, owner, others[:pos] + [actual] + others[pos:])
    if kind == "within":
        return kop.knows_within(knower, owner, draw(st.sampled_from([0, 0.5, 1, 1.5, 2])))
    if kind == "subtree":
        return kop.knows_on_subtree(knower, owner, draw(st.integers(0, len(t) - 1)))
    return {"exact": kop.knows_exactly, "nothing": kop.knows_nothing, "order": kop.knows_order}[kind](knower, owner)


def _check_partial(data, depth):
    t = data.draw(trees(depth=depth))
    specs = [data.draw(partial(t, "B", "A")), data.draw(partial(t, "A", "B"))]
    kv = decide(t, [], evaluations=specs)
    model = KnowingValueModel.build(t, specs)
    assert kv.decided == tuple(model.decided().tolist())
    # partial knowledge only adds decided nodes to its all-or-nothing reading
    atomic = [s if resolve_all(t, [s])[(t.player_names.index(s.knower), t.player_names.index(s.owner))].exact
              else kop.knows_nothing(s.knower, s.owner) for s in specs]
    plain = decide(t, [], evaluations=atomic)
    assert all(p <= d for p, d in zip(plain.decided, kv.decided))
    assert kv.partial_only == tuple(d and not p and not n.is_leaf
                                    for d, p, n in zip(kv.decided, plain.decided, t.nodes()))


@FAST
@given(st.data())
def test_partial_knowledge_prover_path_agrees_with_the_model(data):
    _check_partial(data, 3)


@pytest.mark.slow
@SLOW
@given(st.data())
def test_partial_knowledge_prover_path_agrees_with_the_model_slow(data):
    _check_partial(data, 4)


# -- the exact rules for infinite candidate sets, against brute force ------------------------

def _brute_fixed(t, owner: str, cands: list[list[float]]) -> list[str]:
    """Height-1 nodes of *owner* whose first-best child (value, if forced) is the same for all candidates."""
    oi = t.player_names.index(owner)
    sign = t.players[oi].sign
    pos = {int(leaf): j for j, leaf in enumerate(leaf_order(t))}
    out = []
    for n in t.nodes():
        if n.is_leaf or n.player != owner or n.height != 1:
            continue
        seen = set()
        for c in cands:
            vals = [c[pos[k.index]] for k in n.children]
            if len(vals) == 1:
                seen.add(vals[0])
            else:
                best = max(sign * v for v in vals)
                seen.add(next(j for j, v in enumerate(vals) if sign * v == best))
        if len(seen) == 1:
            out.append(n.name)
    return out


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees(depth=2), st.sampled_from([0, 0.5, 1, 1.5, 2, 3]), st.sampled_from(["A", "B"]))
def test_within_k_matches_a_grid_of_candidates(t, k, owner):
    """Worst cases sit at the corners of the box, so the grid {e-k, e, e+k}^leaves decides exactly."""
    if t.n_leaves > 7:
        return
    oi = t.player_names.index(owner)
    actual = [float(t.node(int(i)).payoff[oi]) for i in leaf_order(t)]
    grid = [list(c) for c in itertools.product(*[(v - k, v, v + k) for v in actual])]
    knower = "A" if owner == "B" else "B"
    assert kop.knows_within(knower, owner, k).resolve(t).fixed_names() == _brute_fixed(t, owner, grid)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees(depth=2), st.sampled_from(["A", "B"]))
def test_order_knowledge_matches_order_preserving_candidates(t, owner):
    oi = t.player_names.index(owner)
    actual = np.array([float(t.node(int(i)).payoff[oi]) for i in leaf_order(t)])
    # strictly increasing maps of the actual values: the candidates with the same order
    maps = [lambda x: x, lambda x: 3 * x - 7, lambda x: x ** 3, lambda x: np.exp(x), lambda x: x + 0.5]
    cands = [list(f(actual)) for f in maps]
    knower = "A" if owner == "B" else "B"
    got = kop.knows_order(knower, owner).resolve(t).fixed_names()
    brute = _brute_fixed(t, owner, cands)
    # forced moves: the value is not known from the order alone (different maps move it)
    assert got == [n for n in brute if len(t.node(n).children) > 1]


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees(depth=3), st.data())
def test_subtree_knowledge_matches_candidates_that_vary_outside(t, data):
    node = data.draw(st.integers(0, len(t) - 1))
    owner = data.draw(st.sampled_from(["A", "B"]))
    oi = t.player_names.index(owner)
    order = leaf_order(t)
    below = set()
    stack = [node]
    while stack:
        i = stack.pop()
        below.add(i)
        stack.extend(c.index for c in t.node(i).children)
    actual = [float(t.node(int(i)).payoff[oi]) for i in order]
    outside = [j for j, leaf in enumerate(order) if int(leaf) not in below]
    cands = [actual]
    for values in itertools.islice(itertools.product([-10.0, 0.0, 10.0], repeat=len(outside)), 3 ** 6):
        c = list(actual)
        for j, v in zip(outside, values):
            c[j] = v
        cands.append(c)
    if len(outside) > 6:
        return
    knower = "A" if owner == "B" else "B"
    assert kop.knows_on_subtree(knower, owner, node).resolve(t).fixed_names() == _brute_fixed(t, owner, cands)


# -- partial knowledge decides what atomic knowledge cannot -----------------------------------

def test_partial_knowledge_decides_nodes_atomic_knowledge_cannot():
    # B moves at the root; A then picks a leaf.  B does not know E_A, only its order.
    t = kop.GameTree.build(["A", "B"], ("B", [("A", [(1, 0), (5, 0)], "x"), ("A", [(3, 0), (2, 0)], "y")]))
    atomic = decide(t, [], evaluations=[kop.knows_nothing("B", "A"), kop.knows_exactly("A", "B")])
    partial = decide(t, [], evaluations=[kop.knows_order("B", "A"), kop.knows_exactly("A", "B")])
    assert atomic.decided_nodes() == []
    assert [n.name for n in partial.decided_nodes()] == ["root", "x", "y"]
    assert [n.name for n in partial.decided_by_partial_knowledge()] == ["root", "x", "y"]
    # the propositional semantics cannot say it: K_B E_A is false, so x and y stay open there
    assert decide(t, ["K_A E_B", "~K_B E_A"]).decided_nodes() == []


def test_two_candidates_that_agree_on_every_choice_decide_everything_below():
    t = kop.GameTree.build(["A", "B"], ("A", [("B", [(1, 3), (2, 1)], "p"), ("B", [(4, 2), (0, 5)], "q")]))
    # A knows E_B only up to two candidates that order p's and q's leaves alike
    spec = kop.knows_candidates("A", "B", [[3, 1, 2, 5], [30, 10, 2, 9]])
    d = decide(t, [], evaluations=[spec, kop.knows_nothing("B", "A")])
    # B knows nothing of E_A, so B cannot predict A's choice at the root: undecided (Definition 6;
    # Algorithm 3 as printed decided it, SPEC §2.6 erratum)
    assert [n.name for n in d.decided_by_partial_knowledge()] == ["p", "q"]
    both = decide(t, [], evaluations=[spec, kop.knows_order("B", "A")])
    assert [n.name for n in both.decided_by_partial_knowledge()] == ["root", "p", "q"]
    s = kop.select(t, [], evaluations=[spec, kop.knows_nothing("B", "A")])
    # A's level is 0 (it does not know E_B), yet it predicts every move of B: M^h applies, and wins
    assert s.level == 0 and s.recommended.strategy == "Mh" and s.recommended.guaranteed == (4, 2)
    assert s.candidates[0].verified is True
    assert kop.minimax(t, "A").value == (1, 3) and s.candidates[-1].guaranteed == (2, 1)


# -- Figure 2: B knows E_A only up to two candidates ----------------------------------------------

def test_figure2_with_two_candidates_for_b():
    t = kop.figure2()
    alt = list(FIG2_A)
    alt[4], alt[5] = 6, 10                     # at X, A might prefer (6,10) to (10,3)
    evals = [kop.knows_candidates("B", "A", [FIG2_A, alt])]
    s = kop.select(t, f_level("A", "B", 1) + f_level("B", "A", 0), evaluations=evals)
    assert (s.level, s.opponent_level) == (1, 0)
    assert s.recommended.strategy == "HM0M1" and s.recommended.guaranteed == (9, 4)
    model = kop.evaluation_model(t, evals + [kop.knows_exactly("A", "B")])
    assert model.satisfies("~K_B E_A & M_B E_A & K_A E_B & K_A ~K_B E_A")


# -- bad input -----------------------------------------------------------------------------------

def test_candidate_with_the_wrong_number_of_payoffs():
    with pytest.raises(EvaluationError, match=r"candidate 2 has 3 payoffs; the tree has 12 leaves"):
        decide(kop.figure2(), [], evaluations=[kop.knows_candidates("B", "A", [FIG2_A, [1, 2, 3]])])


def test_partial_knowledge_excluding_the_actual_evaluation():
    alt = list(FIG2_A)
    alt[0] = 99
    with pytest.raises(EvaluationError, match="partial knowledge excludes the actual evaluation"):
        kop.knows_candidates("B", "A", [alt]).resolve(kop.figure2())


def test_unknown_player_is_named():
    with pytest.raises(EvaluationError, match=r"unknown player 'C' as the owner \(players A, B\)"):
        kop.select(kop.figure2(), [], evaluations=[kop.knows_order("B", "C")])


def test_negative_k():
    with pytest.raises(EvaluationError, match=r"k must be >= 0"):
        kop.knows_within("B", "A", -1)


def test_unknown_subtree_node():
    with pytest.raises(EvaluationError, match=r"knows_on_subtree\('B', 'A', 'Q'\): no node labelled 'Q'"):
        kop.knows_on_subtree("B", "A", "Q").resolve(kop.figure2())
    with pytest.raises(EvaluationError, match=r"no node at root/7"):
        kop.knows_on_subtree("B", "A", "root/7").resolve(kop.figure2())


def test_mapping_candidates_and_their_errors():
    t = kop.GameTree.build(["A", "B"], ("A", [{"label": "l", "payoff": [1, 2]}, {"label": "r", "payoff": [3, 4]}]))
    r = kop.knows_candidates("B", "A", [{"l": 1, "r": 3}, {"l": 5, "r": 3}]).resolve(t)
    assert r.fixed_names() == []
    with pytest.raises(EvaluationError, match=r"candidate 1: no leaf labelled 'z'"):
        kop.knows_candidates("B", "A", [{"l": 1, "z": 3}]).resolve(t)
    with pytest.raises(EvaluationError, match=r"candidate 1: no value for the leaf root/1 \('r'\)"):
        kop.knows_candidates("B", "A", [{"l": 1}]).resolve(t)


def test_contradiction_with_the_formulas_is_named():
    with pytest.raises(EvaluationError, match=r"knows_order\('B', 'A'\) contradicts the knowledge formulas"):
        decide(kop.figure2(), f_level("B", "A", 1), evaluations=[kop.knows_order("B", "A")])


def test_two_statements_about_one_pair():
    with pytest.raises(EvaluationError, match="two statements of what B knows of A's evaluation"):
        decide(kop.figure2(), [], evaluations=[kop.knows_order("B", "A"), kop.knows_within("B", "A", 1)])


def test_partial_self_knowledge_is_refused():
    with pytest.raises(EvaluationError, match="knows its own evaluation exactly"):
        kop.knows_order("A", "A").resolve(kop.figure2())


def test_values_are_immutable_with_clean_reprs():
    k = kop.knows_within("B", "A", 2)
    assert repr(k) == "kop.knows_within('B', 'A', 2)" and eval(repr(k)) == k
    assert k == kop.knows_within("B", "A", 2.0) and hash(k) == hash(kop.knows_within("B", "A", 2))
    with pytest.raises(AttributeError):
        k.k = 3  # type: ignore[misc]
    assert k.to_json() == {"knower": "B", "owner": "A", "kind": "within", "k": 2.0}


# -- the shipped example and the command line -------------------------------------------------------

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]


def test_the_python_example_runs(capsys):
    import runpy

    runpy.run_path(str(ROOT / "theories" / "partial_knowledge.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "all checks passed" in out
    assert "decided only thanks to partial knowledge: root R S T U V W X Y Z" in out


def _kop(*args):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)


def test_kop_select_with_partial_knowledge():
    r = _kop("select", "theories/figure2.json", "-c", "A=0", "-c", "B=0", "-e", "A:B=order", "-e", "B:A=order",
             "--json")
    assert r.returncode == 0, r.stderr
    import json

    out = json.loads(r.stdout)
    assert out["recommended"] == "Mh" and out["outcome"] == [10, 3]
    assert out["decided_by_partial_knowledge"] == ["root", "R", "S", "T", "U", "V", "W", "X", "Y", "Z"]
    assert out["evaluations"] == [{"knower": "A", "owner": "B", "kind": "order"},
                                  {"knower": "B", "owner": "A", "kind": "order"}]


@pytest.mark.parametrize("spec,message", [
    ("A:B=within:-1", "k must be >= 0"),
    ("B:A=candidates:1,2", "candidate 1 has 2 payoffs; the tree has 12 leaves"),
    ("B:C=order", "unknown player 'C' as the owner"),
    ("B:A=subtree:Q", "no node labelled 'Q'"),
    ("B:A=sometimes", "expected KNOWER:OWNER=KIND"),
])
def test_kop_select_bad_partial_knowledge(spec, message):
    r = _kop("select", "theories/figure2.json", "-e", spec)
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr


def test_the_docs_examples_run():
    from doc_examples import page, run_python_blocks, section

    partial = section(page("selection.md"), "## Partial knowledge of evaluation functions", end="## Limits")
    failed, tried = run_python_blocks(partial, "selection.md: Partial knowledge", ellipsis=False)
    assert failed == 0 and tried >= 4


def test_no_statements_is_the_propositional_semantics():
    t = kop.figure2()
    ks = f_level("A", "B", 2) + f_level("B", "A", 1)
    assert decide(t, ks, evaluations=[]).decided == decide(t, ks).decided
    assert kop.select(t, ks, evaluations=[]).to_json() == kop.select(t, ks).to_json()


def test_select_at_a_node_restricts_the_statements_to_its_subtree():
    t = kop.figure2()
    alt = list(FIG2_A)
    alt[4], alt[5] = 6, 10
    evals = [kop.knows_candidates("B", "A", [FIG2_A, alt]), kop.knows_on_subtree("A", "B", "U")]
    s = kop.select(t, [], "B", node="S", evaluations=evals)
    assert [e.describe() for e in s.decision.evaluations] == [
        "knows_on_subtree('A', 'B', 'root/0')", "knows_candidates('B', 'A', [2 candidates])"]
    # on S's subtree, A knows E_B below U: W and X are decided (publicly); U is not, since B's two
    # candidates give A different choices there (X's outcome is worth 10 or 6 to A, W's 7)
    assert [n.name for n in s.decision.decided_nodes()] == ["W", "X"]


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees(), st.sampled_from(["A", "B"]), st.data())
def test_knowing_more_fixes_more(t, owner, data):
    """Fewer candidates, a smaller k, a larger known subtree: never fewer fixed choices."""
    knower = "A" if owner == "B" else "B"
    k1, k2 = sorted(data.draw(st.lists(st.sampled_from([0, 0.5, 1, 2, 3]), min_size=2, max_size=2)))
    wide = set(kop.knows_within(knower, owner, k2).resolve(t).fixed_names())
    assert wide <= set(kop.knows_within(knower, owner, k1).resolve(t).fixed_names())
    oi = t.player_names.index(owner)
    actual = [t.node(int(i)).payoff[oi] for i in leaf_order(t)]
    n = len(actual)
    others = data.draw(st.lists(st.lists(st.integers(0, 5), min_size=n, max_size=n), max_size=4))
    keep = data.draw(st.integers(0, len(others)))
    few = set(kop.knows_candidates(knower, owner, [actual] + others[:keep]).resolve(t).fixed_names())
    many = set(kop.knows_candidates(knower, owner, [actual] + others).resolve(t).fixed_names())
    assert many <= few
    assert set(kop.knows_order(knower, owner).resolve(t).fixed_names()) >= \
        {nm for nm in set(kop.knows_nothing(knower, owner).resolve(t).fixed_names())}
    node = data.draw(st.integers(0, len(t) - 1))
    parent = t.parent_index(node)
    inner = set(kop.knows_on_subtree(knower, owner, node).resolve(t).fixed_names())
    if parent >= 0:
        assert inner <= set(kop.knows_on_subtree(knower, owner, parent).resolve(t).fixed_names())
