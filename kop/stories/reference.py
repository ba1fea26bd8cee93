"""The reference: the explicit model of a story, built world by world with kop's product update.

Written from the definitions, for checking :mod:`kop.stories.beliefs` on small
stories.  The initial model is a :class:`~kop.semantics.model.KripkeModel` with
one world per placement (atoms ``<object>_in_<container>``); each step is a kop
:class:`~kop.semantics.update.ActionModel` (its events' pre- and postconditions
as formulas, each agent's blocks as its partition) applied by
:func:`~kop.semantics.update.product_update`; the plausibility order of the new
world (w, e) is Baltag & Smets's action-priority order: e's rank first, then
w's rank.  A question is a formula ``B_a (B_b (... x_in_c))`` checked by kop's
model checker at the actual world.

>>> from kop.stories.events import Event
>>> from kop.stories.compile import compile_story
>>> story = [Event("enter", 1, agent="S", agents=("S", "A"), place="room"),
...          Event("place", 2, obj="m", container="basket"), Event("exit", 3, agent="S", place="room"),
...          Event("move", 4, agent="A", obj="m", container="box")]
>>> ref = Reference(compile_story(story, ["S", "A"]))
>>> m = ref.model()
>>> len(m), m.satisfies("B_S m_in_basket & B_A m_in_box & B_A B_S m_in_basket")
(6, True)
>>> ref.believed(("A", "S"), 0)
0
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kop.stories.compile import Compiled, EventModel
from kop.stories.errors import StoryError
from kop.semantics.update import ActionModel, product_update
from kop.stories.minimal import contract

if TYPE_CHECKING:  # pragma: no cover
    from kop.semantics.model import KripkeModel

__all__ = ["Reference", "belief_formula", "MAX_WORLDS"]

#: The largest explicit model the reference builds (a limit: beyond it, a StoryError).
MAX_WORLDS = 50_000


def belief_formula(chain: tuple[str, ...], atom: str) -> str:
    """The formula ``B_a (B_b (... atom))`` for *chain* (a, b, ...).

    >>> belief_formula(("Sally", "Anne"), "marble_in_basket")
    'B_Sally (B_Anne (marble_in_basket))'
    """
    text = atom
    for a in reversed(chain):
        text = f"B_{a} ({text})"
    return text


class Reference:
    """The explicit plausibility model of a compiled story after each step.

    Parameters
    ----------
    story : Compiled
    contract : bool
        Contract the model by bisimulation after every step (the same answers, a far smaller
        model: :func:`kop.stories.minimal.contract`).

    Examples
    --------
    >>> from kop.stories.events import Event
    >>> from kop.stories.compile import compile_story
    >>> ref = Reference(compile_story([Event("enter", 1, agent="S", place="room"),
    ...                                Event("place", 2, obj="m", container="box")], ["S"]))
    >>> ref.atom(0, 0), len(ref.model(0)), len(ref.model())
    ('m_in_box', 1, 1)
    """

    def __init__(self, story: Compiled, contract: bool = False):
        self.story = story
        self.contract = contract
        self._models: list[KripkeModel] = []

    def atom(self, obj: int, container: int) -> str:
        """The atom 'object *obj* is in container *container*'."""
        return f"{self.story.objects[obj]}_in_{self.story.containers[container]}"

    def model(self, steps: int | None = None) -> KripkeModel:
        """The model after *steps* steps (default: all), with plausibility."""
        n = len(self.story.steps) if steps is None else steps
        if not self._models:
            first = self._initial()
            if self.contract:
                first = contract(first)
            self._models.append(first)
        while len(self._models) <= n:
            after = self._update(self._models[-1], self.story.steps[len(self._models) - 1])
            if self.contract:
                after = contract(after)
            self._models.append(after)
        return self._models[n]

    def believed(self, chain: tuple[str, ...], obj: int, steps: int | None = None) -> int | None:
        """The container c with ``B_chain in(obj, c)`` true at the actual world, or None."""
        m = self.model(steps)
        found = [c for c in self.story.candidates[obj]
                 if m.satisfies(belief_formula(chain, self.atom(obj, c)))]
        return found[0] if len(found) == 1 else None

    # -- building --------------------------------------------------------------------------------
    def _initial(self) -> KripkeModel:
        from kop.semantics.model import KripkeModel
        states = self.story.initial_states()
        worlds = {f"w{i}": [self.atom(o, c) for o, c in enumerate(s)] for i, s in enumerate(states)}
        parts = {a: [list(worlds)] for a in self.story.agents}
        actual = f"w{states.index(self.story.initial)}"
        return KripkeModel(worlds, parts, actual, plausibility={a: {w: 0 for w in worlds} for a in self.story.agents})

    def _formula(self, pre: tuple[tuple[int, frozenset[int]], ...]) -> str:
        parts = []
        for o, allowed in pre:
            parts.append("(" + " | ".join(self.atom(o, c) for c in sorted(allowed)) + ")" if allowed else "false")
        return " & ".join(parts) if parts else "true"

    def _update(self, model: KripkeModel, step: EventModel) -> KripkeModel:
        from kop.semantics.model import KripkeModel
        if len(model) * len(step.names) > 4 * MAX_WORLDS:
            raise StoryError(f"the model after this event could have {len(model) * len(step.names)} worlds, more "
                             f"than the reference's limit of {MAX_WORLDS}", step.source.line)
        events = [f"e{i}" for i in range(len(step.names))]
        pre = {e: self._formula(step.pre[i]) for i, e in enumerate(events)}
        post: dict[str, dict[str, str]] = {}
        for i, e in enumerate(events):
            effects: dict[str, str] = {}
            for o, c in step.post[i]:
                for c2 in self.story.candidates[o]:
                    effects[self.atom(o, c2)] = "true" if c2 == c else "false"
            if effects:
                post[e] = effects
        action = ActionModel(events, pre=pre, post=post,
                             partitions={a: {e: step.blocks[a][i] for i, e in enumerate(events)}
                                         for a in self.story.agents},
                             actual=events[step.actual])
        plain = KripkeModel.from_arrays(model.worlds, {a: model.block_ids(a) for a in model.agents},
                                        {p: model.truth_mask(p) for p in sorted(model.atoms)},
                                        model.actual, model.agents)
        index = {w: i for i, w in enumerate(model.worlds)}
        after = product_update(plain, action, rename=lambda w, e: f"{w}.{e[1:]}")
        if len(after) > MAX_WORLDS:
            raise StoryError(f"the model after this event has {len(after)} worlds, more than the reference's "
                             f"limit of {MAX_WORLDS}", step.source.line)
        ranks: dict[str, dict[str, int]] = {}
        for a in model.agents:
            old = {w: model.rank(a, w) for w in model.worlds}
            keys = {}
            for w2 in after.worlds:
                w, e = w2.rsplit(".", 1)
                keys[w2] = (step.ranks[a][int(e)], old[w])
            dense = {k: i for i, k in enumerate(sorted(set(keys.values())))}
            ranks[a] = {w2: dense[k] for w2, k in keys.items()}
        del index
        return KripkeModel.from_arrays(after.worlds, {a: after.block_ids(a) for a in after.agents},
                                       {p: after.truth_mask(p) for p in sorted(after.atoms)},
                                       after.actual, after.agents,
                                       plausibility={a: [ranks[a][w] for w in after.worlds] for a in after.agents})
