"""Stories: hand-checked answers, the fast path against the reference (kop's product update), the CLI."""

import json
from dataclasses import replace
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from profiles import examples

from kop.stories.beliefs import believed
from kop.stories.compile import compile_story
from kop.stories.conventions import HITOM, KOP, TOMI, Conventions
from kop.stories.errors import StoryError
from kop.stories.generate import generate_story, render
from kop.stories.events import ParsedStory, story_agents
from kop.stories.minimal import plausibility_classes
from kop.stories.reference import Reference
from kop.io.stories import read_stories, read_story
from kop.stories.story import Story

SALLY_ANNE = """\
Sally, Anne enter room
marble in basket
Sally exits room
Anne moves marble to box
? initially marble = basket
? marble = box
? Sally: marble = basket
? Anne: marble = box
? Anne, Sally: marble = basket
? Sally, Anne: marble = basket
"""


def test_sally_anne_first_and_second_order():
    s = read_story(SALLY_ANNE)
    answers = [s.answer(q) for q in s.questions]
    assert [a.container for a in answers] == ["basket", "box", "basket", "box", "basket", "basket"]
    assert all(a.agrees for a in answers)
    assert answers[4].formula == "B_Anne (B_Sally (marble_in_basket))"


def test_reference_agrees_on_sally_anne():
    s = read_story(SALLY_ANNE)
    assert [s.answer(q, reference=True).container for q in s.questions] == \
        [s.answer(q).container for q in s.questions]


def test_trusted_lie_is_believed_untrusted_is_not():
    # B leaves first, then C; A (who stays longest) lies to B (B trusts A: A left later) and to C via claim
    text = """A, B, C enter room
ball in box
B exits room
A moves ball to basket
C exits room
A exits room
A tells B: ball in crate
B tells A: ball in box
? B: ball = crate
? A: ball = basket
? B, A: ball = crate
? A, B: ball = crate
"""
    s = read_story(text)
    got = [s.answer(q).container for q in s.questions]
    # B trusts A (A exited later): believes the lie (a move it did not see explains it); A's own belief unchanged;
    # A does not trust B (B exited earlier): A's belief unchanged by B's claim.
    assert got == ["crate", "basket", "crate", "crate"]


def test_never_seen_object_has_no_belief():
    s2 = read_story("A enter hall\nB enter kitchen\nx in cup\nA moves x to box\n? B: x")
    assert s2.answer(0).container is None and "not about one container" in s2.answer(0).reason


@pytest.mark.parametrize("text,line,words", [
    ("A enter room\nx in cup\nA exits hall\n", 3, "exits the hall but is in the room"),
    ("A enter room\nx in cup\nx in box\n", 3, "two containers"),
    ("A enter room\nx in cup\n? A: y\n", 3, "the y"),
    ("A enter room\nx in cup\nA juggles\n", 3, "expected"),
    ("A enter room\nB exits room\n", 2, "in no place"),
])
def test_located_errors(text, line, words):
    with pytest.raises(StoryError) as err:
        read_story(text)
    assert err.value.line == line and words in str(err.value)


def test_tomi_reader_and_label_error_shape():
    text = ("1 Amelia entered the closet.\n2 James entered the closet.\n3 The tomato is in the blue_container.\n"
            "4 James exited the closet.\n5 Amelia moved the tomato to the green_basket.\n"
            "6 Where does Amelia think that James searches for the tomato?\tgreen_basket\t1\n")
    [s] = read_stories(text, "tomi")
    assert s.answer(0).container == "blue_container"   # ToMi's label says green_basket: James had left
    with pytest.raises(StoryError) as err:
        read_stories("1 A entered the hall.\n2 A sings.\n", "tomi")
    assert err.value.line == 2


def test_hitom_reader():
    item = {"story": "1 Ann, Bo and Cy entered the hall.\n2 The pea is in the red_box.\n3 Ann exited the hall.\n"
                     "4 Bo moved the pea to the blue_box.\n5 Bo exited the hall.\n6 Cy exited the hall.\n"
                     "7 Cy privately told Ann that the pea is in the green_box.",
            "question": "Where does Ann think Cy thinks the pea is?", "answer": "green_box",
            "question_order": 2, "deception": True}
    [s] = read_stories(json.dumps({"data": [item]}), "hitom")
    assert s.answer(0).container == "green_box"
    assert s.answer(0).agrees


def _reference(story):
    """The explicit reference of *story*, or None where its model is past 3,000 worlds (or the limit)."""
    ref = Reference(story.compiled)
    try:
        return ref if len(ref.model()) <= 3000 else None
    except StoryError:   # beyond the reference's limit
        return None


def _story(events, questions, conv):
    return Story(ParsedStory(tuple(events), story_agents(events, questions, 1), tuple(questions)), conv)


@settings(max_examples=examples(2000, quick=60), deadline=None)
@given(seed=st.integers(0, 10**6), agents=st.integers(1, 3), length=st.integers(0, 6),
       conv=st.sampled_from([TOMI, HITOM, KOP, Conventions(trust="never", hidden="any"),
                             Conventions(entry="news", outsiders="oblivious"),
                             Conventions(telling="hitom"), Conventions(telling="hitom", hidden="any"),
                             Conventions(telling="hitom", trust="never"), replace(HITOM, telling="revise")]),
       extra=st.booleans())
def test_fast_path_agrees_with_reference(seed, agents, length, conv, extra):
    events, questions = generate_story(agents, order=3, length=length, seed=seed, extra=extra)
    s = _story(events, questions, conv)
    ref = _reference(s)
    if ref is None:
        return
    small = Reference(s.compiled, contract=True)
    assert len(small.model()) == plausibility_classes(ref.model())
    for q in questions:
        if q.kind == "memory":
            continue
        o = s.compiled.objects.index(q.obj)
        assert believed(s.compiled, q.chain, o) == ref.believed(q.chain, o), (q, render(events, questions))
        assert small.believed(q.chain, o) == ref.believed(q.chain, o), (q, render(events, questions))


@settings(max_examples=examples(600, quick=40), deadline=None)
@given(seed=st.integers(0, 10**6), agents=st.integers(2, 4), order=st.integers(4, 7), length=st.integers(0, 7),
       conv=st.sampled_from([TOMI, HITOM, KOP, Conventions(telling="hitom", trust="never")]))
def test_high_orders_agree_with_reference(seed, agents, order, length, conv):
    """Questions of order 4 to 7 (issue 25: "orders up to at least 6, checked against the reference"):
    the fast path's belief chain and the explicit product update's agree on every question."""
    events, questions = generate_story(agents, order=order, length=length, seed=seed, questions=8)
    s = _story(events, questions, conv)
    ref = _reference(s)
    if ref is None:
        return
    for q in questions:
        if q.kind == "memory":
            continue
        o = s.compiled.objects.index(q.obj)
        assert believed(s.compiled, q.chain, o) == ref.believed(q.chain, o), (q, render(events, questions))
    assert max(q.order for q in questions) <= order


def test_order_six_on_eight_agents():
    events, questions = generate_story(8, order=6, length=12, seed=3)
    s = _story(events, questions, KOP)
    q = questions[2]
    assert q.order == 6
    s.answer(q)  # answered (a container or an explicit 'no single container')


def test_generated_answers_round_trip_through_every_format():
    events, questions = generate_story(3, order=2, length=6, seed=5, tells=False)
    s = _story(events, questions, KOP)
    answers = [s.answer(q).container for q in questions]
    for fmt in ("kop", "hitom"):
        again = read_stories(render(events, questions, fmt, answers), fmt, KOP)
        assert all(a.agrees for st_ in again for a in st_.answers() if a.question.gold)


def test_minimal_size_and_model():
    s = read_story(SALLY_ANNE)
    assert s.minimal_size() <= len(s.model_after())
    assert s.model_after(0) is not None


def _kop(*args, cwd=None):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = {**os.environ, "PYTHONPATH": root}
    return subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, cwd=cwd, env=env)


def test_cli_json_and_text(tmp_path):
    f = tmp_path / "s.story"
    f.write_text(SALLY_ANNE)
    out = _kop("story", str(f), "--json")
    assert out.returncode == 0
    rows = [json.loads(x) for x in out.stdout.splitlines()]
    assert set(rows[0]) >= {"index", "question", "answer", "order", "gold", "agrees"}
    assert rows[-1]["summary"] and rows[-1]["agree"] == 6
    text = _kop("story", str(f), "--trace")
    assert text.stdout.rstrip().endswith("6 of 6 answers agree with the file's answers")


def test_cli_bad_input_exit_2(tmp_path):
    f = tmp_path / "bad.story"
    f.write_text("A enter room\nx in cup\nx in box\n")
    out = _kop("story", str(f))
    assert out.returncode == 2 and "line 3" in out.stderr and "Traceback" not in out.stderr


def test_cli_generate_and_file_named_generate(tmp_path):
    out = _kop("story", "generate", "--agents", "3", "--order", "3", "--length", "5", "--seed", "1")
    assert out.returncode == 0 and "? " in out.stdout
    (tmp_path / "generate").write_text(out.stdout)
    again = _kop("story", "./generate", "--json", cwd=tmp_path)
    assert again.returncode == 0
    assert json.loads(again.stdout.splitlines()[-1])["disagree"] == 0


def test_hitom_prompt_file():
    text = ("Read the following story and answer the multiple-choice question.\nStory:\n"
            "1 Ann and Bo entered the hall.\n2 The pea is in the red_box.\n3 Ann exited the hall.\n"
            "4 Bo moved the pea to the blue_box.\n5 Bo exited the hall.\n"
            "Question: Where does Bo think Ann thinks the pea is?\nAnswer: red_box\n"
            "Choices: A. red_box, B. blue_box\n\nNote: You should assume the following.")
    [s] = read_stories(text, "hitom")
    assert s.questions[0].gold == "red_box" and s.questions[0].line == 8 and s.answer(0).agrees


def test_peek_and_distraction():
    s = read_story("A, B enter room\nx in cup\nB is distracted\nA moves x to box\n? B: x = cup\n"
                   "B attends\nB peeks into box\n? B: x = box\n? A, B: x = box")
    assert all(a.agrees for a in s.answers())


def test_trust_conventions():
    text = "A, B enter room\nx in cup\nB exits room\nA moves x to box\nA exits room\nA tells B: x in box\n? B: x"
    assert read_story(text).answer(0).container == "box"                       # B left first: trusts A
    assert read_story(text, conventions=Conventions(hidden="any", trust="never")).answer(0).container == "cup"
    # with only the actual move as B's alternative, the truth is believable too
    assert read_story(text, conventions=Conventions(trust="always")).answer(0).container == "box"


def test_entry_news_keeps_beliefs_about_others():
    text = ("A, B enter room\nx in cup\nA exits room\nB moves x to box\nB exits room\nA enter room\n"
            "? A: x = box\n? A, B: x")
    assert read_story(text, conventions=Conventions(hidden="any")).answer(1).container == "box"   # explained by B
    news = Conventions(hidden="any", entry="news", outsiders="oblivious")
    assert read_story(text, conventions=news).answer(1).container == "cup"      # Hi-ToM: news to A alone
    assert read_story(text, conventions=news).answer(0).container == "box"


def test_generated_stories_in_kop_syntax_read_back_with_the_same_answers():
    for seed in range(5):
        events, questions = generate_story(3, order=3, length=8, seed=seed, extra=True)
        s = _story(events, questions, KOP)
        answers = [s.answer(q).container for q in questions]
        [again] = read_stories(render(events, questions, "kop", answers), "kop")
        assert [a.container for a in again.answers()] == answers


def test_two_objects_in_one_story_do_not_share_answers():
    s = read_story("A, B enter room\nx in cup\ny in box\nB exits room\nA moves x to box\nA moves y to cup\n"
                   "? B: x = cup\n? B: y = box\n? A, B: x = cup\n? A, B: y = box\n? A: x = box\n? A: y = cup")
    assert [a.container for a in s.answers()] == ["cup", "box", "cup", "box", "box", "cup"]
    assert [r.beliefs[("B",)] for r in s.trace(obj="y")][-1] == "box"


# A Hi-ToM-style story where the two telling rules differ, each answer worked out by hand.
# Exit order A, B, C: A trusts C (C left later), C does not trust A.
LIE = ("A, B, C enter room\nx in cup\nA exits room\nB moves x to box\nB exits room\nC exits room\n"
       "C tells A: x in jar\n"      # a lie C tells A, who trusts C
       "A tells C: x in jar\n"      # A passes it on to C, who does not trust A
       "? A: x\n? A, B: x\n? A, C: x\n? C: x\n? C, A: x\n? B, A: x\n? A, C, B: x")


@pytest.mark.parametrize("telling, expected", [
    # revise: A believes jar and must explain it by a move it missed; the only one is B's
    # (line 4), which B and C saw: so A thinks B and C believe jar.  C knows A trusts it
    # (exit order is common knowledge): jar.  B heard nothing: it thinks A saw x in the cup.
    # A's tell to C: A knows C distrusts it, and A's most plausible world has C seeing the
    # move to the jar, so A thinks C thinks B thinks jar.
    ("revise", ["jar", "jar", "jar", "box", "jar", "cup", "jar"]),
    # hitom: A believes jar (trusts C) and that C believes it (C is the speaker), but A's belief
    # about B is untouched (cup: A left before B's move).  A thinks C believes A's own tell (the
    # speaker thinks it is trusted): jar.  C's belief is not changed by A (distrusted) nor by its
    # own tell: box; C thinks A believes C: jar.  B: cup.  Third order: A thinks C thinks B
    # thinks cup (A's fiction involves only A and C; its old view of B stays).
    ("hitom", ["jar", "cup", "jar", "box", "jar", "cup", "cup"]),
])
def test_telling_options_by_hand(telling, expected):
    s = read_story(LIE, conventions=replace(KOP, telling=telling))
    assert [s.answer(q).container for q in s.questions] == expected
    ref = Reference(s.compiled)
    for q in s.questions:
        o = s.compiled.objects.index(q.obj)
        found = ref.believed(q.chain, o)
        assert (None if found is None else s.compiled.containers[found]) == s.answer(q).container


def test_hitom_reader_uses_hitoms_telling_rule():
    item = {"story": "1 Ann, Bo and Cy entered the hall.\n2 The pea is in the red_box.\n3 Ann exited the hall.\n"
                     "4 Bo moved the pea to the blue_box.\n5 Bo exited the hall.\n6 Cy exited the hall.\n"
                     "7 Cy privately told Ann that the pea is in the green_box.",
            "question": "Where does Ann think Bo thinks the pea is?", "answer": "red_box"}
    [s] = read_stories(json.dumps({"data": [item]}), "hitom")
    assert s.conventions.telling == "hitom" and s.answer(0).container == "red_box"
    [r] = read_stories(json.dumps({"data": [item]}), "hitom", replace(HITOM, telling="revise", hidden="any"))
    assert r.answer(0).container == "green_box"     # explained by Bo's move, which Bo saw


def test_generated_hitom_stories_with_tells_read_back_under_hitoms_rule():
    for seed in range(4):
        events, questions = generate_story(4, order=3, length=10, seed=seed)
        s = _story(events, questions, HITOM)
        answers = [s.answer(q).container for q in questions]
        again = read_stories(render(events, questions, "hitom", answers), "hitom")
        assert again and all(st_.conventions == HITOM for st_ in again)
        assert all(a.agrees for st_ in again for a in st_.answers() if a.question.gold)
