"""kop.theory.TheoryRun against references written from what each query means.

* the scenarios *as stated* are the knowledge of the theory without its questions,
  expectations and announcements (the reference runs exactly those statements);
* ``knowledge(s, P)`` is the formulas of scenario s that start with K_P, or are E / C
  over a group with P (written out here from the definition);
* ``model_after(k)`` is the stated model with the first k announced formulas announced
  one after the other (``KripkeModel.announce``);
* ``dominance(s, P)`` is :func:`kop.theory.dominance.dominance` on the stated knowledge,
  computed once and shared with the theory's own ``ask dominates``;
* ``kop dominates`` runs the theory's statements once.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kop
from kop.syntax.formula import Common, Everyone, Know
from kop.theory import Theory, TheoryRun, run_statements
from kop.theory import statements as S

THEORIES = Path(__file__).resolve().parents[2] / "theories"
GAME_THEORIES = ["figure2.kop", "figure2_scenario4.kop", "partial_knowledge.kop", "strict_reading.kop",
                 "figure2_belief.kop", "figure2_uncertain.kop"]


def stated_reference(th: Theory):
    """The old way, from the definition: run the theory without its questions and announcements."""
    from kop.theory.questions import prepared

    kept = tuple(s for s in prepared(th) if not isinstance(s, (S.Announce, *S.QUESTIONS, *S.EXPECTATIONS)))
    return run_statements(Theory(kept, th.base, th.text, th.allow_outside), questions=True)


def _view(ctxs):
    return [(c.name, c.formulas, c.partials, c.beliefs) for c in ctxs]


@pytest.mark.parametrize("name", GAME_THEORIES)
def test_stated_scenarios_of_the_shipped_theories_match_the_reference(name):
    th = kop.load_theory(THEORIES / name)
    ref = stated_reference(th)
    for questions in (True, False):
        run = TheoryRun(th, questions=questions)
        assert _view(run.scenarios()) == _view(ref.contexts())
        assert run.tree == ref.tree and run.strict == ref.strict


GAME = """players A max, B min
game A { L: B { (1,5) (3,2) }  R: B { (2,1) (0,0) } }
"""


def test_announcements_change_the_answers_but_not_the_stated_scenarios():
    th = kop.parse_theory(GAME + "core A = 0\nknow K_B E_A\nscenario s { core B = 0 }\nask level A\nannounce K_B E_A\n"
                          "ask level A\nknow K_A E_A\n")
    run = TheoryRun(th)
    assert [a.text.split(":")[0] for a in run.answers][:1] == ["level A"]
    stated = run.scenarios()
    ref = stated_reference(th)
    assert _view(stated) == _view(ref.contexts())
    after = run.state.contexts()          # the knowledge after the run: C K_B E_A added
    assert len(after[0].formulas) == len(stated[0].formulas) + 1
    assert any(isinstance(f, Common) for f in after[0].formulas if f not in stated[0].formulas)


def belongs_reference(f, p):
    if type(f).__name__ == "Know":
        return f.agent == p
    if type(f).__name__ in ("Common", "Everyone"):
        return p in f.group
    return False


@pytest.mark.parametrize("name", ["figure2.kop", "partial_knowledge.kop", "figure2_belief.kop"])
def test_knowledge_is_the_players_own_formulas(name):
    run = TheoryRun(kop.load_theory(THEORIES / name), questions=False)
    for ctx in run.scenarios():
        for p in run.tree.player_names:
            got = run.knowledge(ctx.name, p)
            assert got == tuple(f for f in ctx.formulas if belongs_reference(f, p))
            assert all(isinstance(f, (Know, Common, Everyone)) for f in got)


formulas = st.sampled_from(["K_A p", "K_B p", "C{A,B} q", "E{B} q", "E{A,B} p", "p", "~K_A q", "K_A K_B p",
                            "p & q", "C{B} p"])


@settings(max_examples=60, deadline=None)
@given(st.lists(formulas, min_size=1, max_size=6))
def test_belongs_against_the_definition(texts):
    th = kop.parse_theory("agents A, B\n" + "".join(f"know {t}\n" for t in texts))
    run = TheoryRun(th, questions=False)
    for p in ("A", "B"):
        assert run.knowledge(None, p) == tuple(f for f in run.context(None).formulas if belongs_reference(f, p))


MODEL = """agents a, b
model {
  vocabulary p q
  observes a: p
  observes b: q
  actual p q
}
announce p | q
ask worlds
announce p
announce K_a p
"""


def test_model_after_each_announcement_is_the_stated_model_announced_step_by_step():
    th = kop.parse_theory(MODEL)
    announced = [s.formula for s in th.statements if isinstance(s, S.Announce)]
    for questions in (True, False):
        run = TheoryRun(th, questions=questions)
        assert run.announcements == 3
        model = run.model
        assert len(model) == 4
        for k in range(4):
            assert run.model_after(k) == model, k
            if k < 3:
                model = model.announce(announced[k])
    with pytest.raises(kop.KopError, match="step 4"):
        TheoryRun(th).model_after(4)


@pytest.mark.parametrize("name", ["figure2.kop", "partial_knowledge.kop"])
def test_dominance_is_the_reports_of_the_stated_knowledge(name):
    from kop.theory.dominance import dominance

    th = kop.load_theory(THEORIES / name)
    run = TheoryRun(th)
    for ctx in run.scenarios()[:2]:
        evs = run.evaluations(ctx.name)
        ref = dominance(run.tree, ctx.formulas, None, scenario=ctx.name, evaluations=evs)
        assert run.dominance(ctx.name).to_json() == ref.to_json()
        assert run.dominance(ctx.name, ref.player) is run.dominance(ctx.name)   # remembered


def test_kop_dominates_runs_the_theory_once_and_each_report_once(monkeypatch, capsys):
    import kop.theory.api as api
    import kop.theory.dominance as dom
    from kop.cli.app import main

    runs, reports = [], []
    real_run, real_dominance = api.run_statements, dom.dominance

    def counting_run(*a, **kw):
        runs.append(kw.get("questions", True))
        return real_run(*a, **kw)

    def counting_dominance(tree, knowledge, player=None, **kw):
        reports.append((kw.get("scenario"), player))
        return real_dominance(tree, knowledge, player, **kw)

    monkeypatch.setattr(api, "run_statements", counting_run)
    monkeypatch.setattr(dom, "dominance", counting_dominance)
    with pytest.raises(SystemExit) as done:
        main(["dominates", str(THEORIES / "figure2.kop")])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "40 of 40 expected figures match." in out
    assert runs == [True]                                   # the theory's statements, once
    scenarios = [s for s, _ in reports]
    assert sorted(set(scenarios)) == ["s1", "s2", "s3", "s4"] and len(scenarios) == len(set(scenarios))


def test_kop_dominates_prints_what_the_reports_say(capsys):
    from kop.cli.app import main

    with pytest.raises(SystemExit):
        main(["dominates", str(THEORIES / "figure2.kop"), "-s", "s4", "--json"])
    import json

    doc = json.loads(capsys.readouterr().out)
    run = TheoryRun(kop.load_theory(THEORIES / "figure2.kop"), scenario="s4")
    assert doc["scenarios"] == [run.dominance("s4").to_json()]
    assert doc["expectations"] == [a.to_json() for a in run.expectations]


def test_unknown_scenario_is_named():
    run = TheoryRun(kop.load_theory(THEORIES / "figure2.kop"), scenario="nosuch", questions=False)
    with pytest.raises(kop.KopError, match=r"no scenario 'nosuch' \(scenarios: s1, s2, s3, s4\)"):
        run.scenarios()
    with pytest.raises(kop.KopError, match="no scenario 'zz'"):
        run.knowledge("zz", "A")


def test_a_run_refuses_what_is_not_a_theory():
    with pytest.raises(kop.KopError):
        TheoryRun("players A, B\n")  # type: ignore[arg-type]
