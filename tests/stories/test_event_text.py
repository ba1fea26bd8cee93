"""Event.text: the one renderer of events, for kop's story syntax and for a story's trace."""

from __future__ import annotations

import pytest

from kop.io.story_syntax import read_kop
from kop.stories.errors import StoryError
from kop.stories.events import Event
from kop.stories.generate import generate_story, render


def _fields(e: Event) -> tuple[object, ...]:
    # "A stays" names no place: the reader gives none back
    return (e.kind, e.agent, e.agents if e.kind == "enter" else (), "" if e.kind == "stay" else e.place,
            e.obj, e.container, e.listeners)


@pytest.mark.parametrize("seed", range(40))
def test_the_syntax_written_reads_back_as_the_same_events(seed: int) -> None:
    events, questions = generate_story(agents=3, order=2, length=12, seed=seed, extra=True)
    parsed = read_kop(render(events, questions, "kop"))
    assert [_fields(e) for e in parsed.events] == [_fields(e) for e in events]


@pytest.mark.parametrize("seed", range(40))
def test_the_trace_says_what_the_syntax_says_but_for_the_plain_kinds(seed: int) -> None:
    events, _ = generate_story(agents=3, order=2, length=12, seed=seed, extra=True)
    for e in events:
        if e.kind in ("stay", "distracted", "attentive"):
            assert e.text(trace=True) == f"{e.agent} {e.kind}"
        elif e.kind == "enter" or not e.agents:
            assert e.text(trace=True) == e.text()


def test_the_trace_names_what_the_syntax_cannot_say() -> None:
    assert Event("exit", 1, agent="A").text(trace=True) == "A exits"
    assert Event("tell", 1, agent="A", obj="x").text(trace=True) == "A claims: x in (where it is)"
    assert Event("exit", 1, agent="A", agents=("A", "B"), place="room").text(trace=True) == "A, B exits room"
    assert Event("jump", 1, agent="A").text(trace=True) == "A jump"
    with pytest.raises(StoryError, match="cannot write a jump event"):
        Event("jump", 1, agent="A").text()
