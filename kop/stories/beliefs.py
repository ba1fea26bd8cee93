"""Nested belief in a compiled story, computed without building the whole model (the fast path).

A world of the model after n steps is an initial placement followed by one
event per step whose precondition holds.  Agent a's cell at a world is every
world with the same a-block at each step (the initial worlds are all alike to
everyone); a's plausibility order is lexicographic with the *latest* step most
significant (action-priority update, applied n times).  ``B_a φ`` holds at a
world iff φ holds at a's most plausible worlds of its cell.

So a's most plausible worlds are found step by step, without the cell's other
worlds: collect the placements reachable through a's blocks (a set per step),
then walk back from the last step keeping at each step only the transitions of
least rank that still reach a kept placement, and read the kept runs forward.
A world's own beliefs depend only on its events (its placement only decides
its atoms), so the nested question is asked of each kept run of events.

:mod:`kop.stories.reference` builds the whole model with kop's product update
and checks the same formulas; the tests check that both agree on generated stories.

>>> from kop.stories.events import Event
>>> from kop.stories.compile import compile_story
>>> story = [Event("enter", 1, agent="S", agents=("S", "A"), place="room"),
...          Event("place", 2, obj="m", container="basket"), Event("exit", 3, agent="S", place="room"),
...          Event("move", 4, agent="A", obj="m", container="box")]
>>> c = compile_story(story, ["S", "A"])
>>> believed(c, ("S",), 0), believed(c, ("A",), 0), believed(c, ("A", "S"), 0)
(0, 1, 0)
"""

from __future__ import annotations

from kop.stories.compile import Compiled, Post
from kop.stories.errors import StoryError

__all__ = ["believed", "most_plausible", "MAX_RUNS", "Memo"]

#: The most runs of events a belief may keep as equally plausible before kop refuses (a limit, not a guess).
MAX_RUNS = 4096

State = tuple[int, ...]
Run = tuple[int, ...]
#: A cache of nested beliefs: (chain, object, ranked, what the chain's first agent saw) -> container.
Memo = dict[tuple[object, ...], "int | None"]


def most_plausible(story: Compiled, agent: str, run: Run, ranked: bool = True,
                   view: str | None = None) -> list[tuple[Run, frozenset[State]]]:
    """*agent*'s most plausible worlds at the world whose events are *run*.

    Parameters
    ----------
    story : Compiled
    agent : str
    run : tuple of int
        One event per step (a prefix of the story's steps).
    ranked : bool
        False: every world of the cell (knowledge ``K`` instead of belief ``B``).
    view : str, optional
        Group the runs by what agent *view* sees of them (its block at each
        step; a representative run per group, with every placement of the
        group): *view*'s beliefs are the same at all of them.  ``"*"`` puts
        every run in one group.  Default: each run on its own.

    Returns
    -------
    list of (run, placements)
        Each distinct run of events among the most plausible worlds, with the
        final placements those worlds have.

    Raises
    ------
    StoryError
        If more than :data:`MAX_RUNS` runs are equally plausible.

    Examples
    --------
    >>> from kop.stories.events import Event
    >>> from kop.stories.compile import compile_story
    >>> c = compile_story([Event("enter", 1, agent="S", place="room"),
    ...                    Event("place", 2, obj="m", container="basket")], ["S"])
    >>> most_plausible(c, "S", (0, 0))
    [((0, 0), frozenset({(0,)}))]
    """
    trans, alive = _reachable(story, agent, run, ranked)
    kept, alive = _least_ranked(trans, alive)
    groups: dict[tuple[int, ...], tuple[Run, set[State]]] = {(): ((), set(alive))}
    for i in range(len(trans)):
        groups = _extend(story, i, kept[i], groups, view)
        if len(groups) > MAX_RUNS:
            raise StoryError(f"more than {MAX_RUNS} equally plausible runs of events for {agent} "
                             f"after step {i + 1}: too many to check one by one")
    return [(r, frozenset(s)) for r, s in groups.values()]


Transition = tuple[State, int, State, int]   # (placement, event, placement after it, the event's rank)


def _reachable(story: Compiled, agent: str, run: Run, ranked: bool) -> tuple[list[list[Transition]], set[State]]:
    """The transitions through *agent*'s blocks along *run*, step by step, and the placements reached."""
    reach: set[State] = set(story.initial_states())
    trans: list[list[Transition]] = []
    for model, e in zip(story.steps[:len(run)], run):
        block = model.blocks[agent][e]
        rank = model.ranks[agent]
        out: list[Transition] = []
        nxt: set[State] = set()
        for f in model.members[agent][block]:
            pre, post, r = model.pre[f], model.post[f], (rank[f] if ranked else 0)
            for s in reach:
                if all(s[o] in allowed for o, allowed in pre):
                    s2 = _after(s, post) if post else s
                    out.append((s, f, s2, r))
                    nxt.add(s2)
        trans.append(out)
        reach = nxt
    return trans, reach


def _after(s: State, post: Post) -> State:
    """Placement *s* after an event's postconditions (object, container)."""
    t = list(s)
    for o, c in post:
        t[o] = c
    return tuple(t)


def _least_ranked(trans: list[list[Transition]], alive: set[State]) -> tuple[list[list[Transition]], set[State]]:
    """Walking back from the last step: at each, the transitions of least rank that reach a kept placement;
    and the initial placements kept."""
    kept: list[list[Transition]] = [[] for _ in trans]
    for i in range(len(trans) - 1, -1, -1):
        cand = [t for t in trans[i] if t[2] in alive]
        best = min(t[3] for t in cand)
        kept[i] = [t for t in cand if t[3] == best]
        alive = {t[0] for t in kept[i]}
    return kept, alive


def _extend(story: Compiled, i: int, kept: list[Transition], groups: dict[tuple[int, ...], tuple[Run, set[State]]],
            view: str | None) -> dict[tuple[int, ...], tuple[Run, set[State]]]:
    """The groups of runs one step (*i*) longer, by the kept transitions of the step."""
    seen = story.steps[i].blocks.get(view) if view not in (None, "*") else None
    later: dict[tuple[int, ...], tuple[Run, set[State]]] = {}
    out_of: dict[State, list[tuple[int, State]]] = {}
    for s, f, s2, _ in kept:
        out_of.setdefault(s, []).append((f, s2))
    for key, (prefix, states) in groups.items():
        for s in states:
            for f, s2 in out_of.get(s, ()):
                k2 = key + ((f,) if view is None else (seen[f],) if seen is not None else ())
                if k2 not in later:
                    later[k2] = (prefix + (f,), set())
                later[k2][1].add(s2)
    return later


def believed(story: Compiled, chain: tuple[str, ...], obj: int, steps: int | None = None,
             memo: Memo | None = None, ranked: bool = True) -> int | None:
    """The container c such that ``B_chain[0] ... B_chain[-1] in(obj, c)`` holds after *steps* steps.

    Parameters
    ----------
    story : Compiled
    chain : tuple of str
        The agents, outermost first (empty: where the object really is).
    obj : int
        The object's index.
    steps : int, optional
        How many steps have happened (default: all).
    memo : dict, optional
        A cache shared between questions about the same story.
    ranked : bool
        False: nested knowledge ``K_a K_b ...`` instead of belief.

    Returns
    -------
    int or None
        The container's index, or None when the belief is not about one container.

    Examples
    --------
    >>> from kop.stories.events import Event
    >>> from kop.stories.compile import compile_story
    >>> c = compile_story([Event("enter", 1, agent="S", place="room"), Event("place", 2, obj="m", container="basket"),
    ...                    Event("move", 3, agent="S", obj="m", container="box")], ["S"])
    >>> believed(c, ("S",), 0, steps=0) is None, believed(c, ("S",), 0, steps=2), believed(c, ("S",), 0)
    (True, 0, 1)
    """
    n = len(story.steps) if steps is None else steps
    actual: Run = tuple(m.actual for m in story.steps[:n])
    if not chain:
        return story.states[n][obj]
    return _believed(story, chain, obj, actual, {} if memo is None else memo, ranked)


def _believed(story: Compiled, chain: tuple[str, ...], obj: int, run: Run,
              memo: Memo, ranked: bool = True) -> int | None:
    key = (chain, obj, ranked, tuple(m.blocks[chain[0]][e] for m, e in zip(story.steps, run)))
    if key in memo:
        return memo[key]
    answer: int | None = -1
    view = chain[1] if len(chain) > 1 else "*"
    for r, states in most_plausible(story, chain[0], run, ranked, view):
        if len(chain) == 1:
            values = {s[obj] for s in states}
            here = values.pop() if len(values) == 1 else None
        else:
            here = _believed(story, chain[1:], obj, r, memo, ranked)
        if here is None or (answer != -1 and here != answer):
            answer = None
            break
        answer = here
    result = None if answer == -1 else answer
    memo[key] = result
    return result
