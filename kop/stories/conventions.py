"""The conventions on which theory-of-mind datasets differ, as one immutable value.

Each field is a choice the story text does not settle.  :data:`TOMI` and
:data:`HITOM` are the choices that reproduce those datasets' answers;
``docs/theory-of-mind.md`` explains each one.

>>> TOMI.hidden, HITOM.hidden, HITOM.trust
('actual', 'actual', 'exit-order')
>>> Conventions(trust="always")
Conventions(enter_sees=True, hidden='actual', trust='always', outsiders='partial', entry='sense', telling='revise')
>>> HITOM.telling, TOMI.telling, KOP.telling
('hitom', 'revise', 'revise')
"""

from __future__ import annotations

from dataclasses import dataclass

from kop.stories.errors import StoryError
from kop.syntax import arguments

__all__ = ["Conventions", "TOMI", "HITOM", "KOP", "HIDDEN", "TRUST", "OUTSIDERS", "ENTRY", "TELLING"]

#: What an agent that does not observe an event considers may have happened instead of nothing:
#: ``"actual"`` only the event that did happen; ``"any"`` any move of an object of the place, by the
#: agent that acted, to any container of the place.
HIDDEN = ("actual", "any")

#: What agents elsewhere think an entrant sees: ``"partial"`` (that it sees, not what) or ``"oblivious"`` (nothing).
OUTSIDERS = ("partial", "oblivious")

#: What an entrant makes of where it sees an object: ``"sense"`` or ``"news"`` (see :class:`Conventions`).
ENTRY = ("sense", "news")

#: What a tell does: ``"revise"`` (a soft upgrade of the claim: a trusting listener revises to the most
#: plausible world where it is true) or ``"hitom"`` (Hi-ToM's rule: a private fiction of listener and
#: speaker; see :class:`Conventions`).
TELLING = ("revise", "hitom")

#: Whom a listener trusts: ``"exit-order"`` (Hi-ToM: an agent trusts an agent that exited the room
#: later than itself, or never exited), ``"always"``, ``"never"``.
TRUST = ("exit-order", "always", "never")


@dataclass(frozen=True)
class Conventions:
    """The options that decide how a story becomes a model.

    Parameters
    ----------
    enter_sees : bool
        An agent who enters a place sees where the objects of that place are
        (and everyone present sees that it sees).  ToMi and Hi-ToM: yes.
    hidden : {"actual", "any"}
        What an agent that misses an event thinks may have happened instead of
        nothing (it believes nothing happened; these are its less plausible
        alternatives).  ``"any"`` lets a told agent explain a claim by a move it
        did not see.
    trust : {"exit-order", "always", "never"}
        Whom a listener believes (a soft upgrade); an untrusted claim changes nothing.
    outsiders : {"partial", "oblivious"}
        What the agents who are not in the place think of what an entrant sees
        there: ``"partial"``, they know it sees where the objects are (not where);
        ``"oblivious"``, they believe it saw nothing (ToMi's and Hi-ToM's oracles
        update only the beliefs of the agents in the room).
    entry : {"sense", "news"}
        What an entrant makes of where it sees an object: ``"sense"``, it learns
        where the object is and explains a change by the moves it missed (so it
        also learns what those who saw them believe); ``"news"`` (Hi-ToM), the
        sight is news to the entrants alone: they believe the object got there
        unseen by anyone else, so their beliefs about the others' beliefs stay.
    telling : {"revise", "hitom"}
        What a tell of "the X is in the C" does.  ``"revise"``: a soft upgrade;
        a trusting listener revises to its most plausible world where the claim
        is true, so it explains a lie by a move it missed, and what it thinks of
        the agents who would have seen that move changes too.  ``"hitom"``
        (Hi-ToM's ``PrivateTellAction`` / ``PublicTellAction``): only a trusting
        listener's belief, its belief about the speaker, and the speaker's belief
        about each listener (trusting or not) change.  As an event model: the
        actual event changes nothing; each trusting listener L prefers a
        *fiction* event ``f_L`` that puts the X in the C and that only L and the
        speaker take part in (every other agent believes nothing happened there);
        the speaker cannot tell the actual event from an imagined one ``t*`` in
        which every listener trusts it (and prefers ``t*``); an untrusting
        listener, like an agent who does not hear, believes nothing happened.

    Raises
    ------
    StoryError
        An unknown choice.

    Examples
    --------
    >>> Conventions(hidden="some")
    Traceback (most recent call last):
    ...
    kop.errors.StoryError: unknown convention hidden='some': use one of actual, any
    """

    enter_sees: bool = True
    hidden: str = "actual"
    trust: str = "always"
    outsiders: str = "partial"
    entry: str = "sense"
    telling: str = "revise"

    def __post_init__(self) -> None:
        arguments.flag(self.enter_sees, "enter_sees")
        for name, allowed in (("hidden", HIDDEN), ("trust", TRUST), ("outsiders", OUTSIDERS),
                              ("entry", ENTRY), ("telling", TELLING)):
            value = getattr(self, name)
            if value not in allowed:
                raise StoryError(f"unknown convention {name}={value!r}: use one of {', '.join(allowed)}")


#: ToMi's oracle (facebookresearch/ToMi): no telling in its test split; absent agents keep their beliefs.
TOMI = Conventions(enter_sees=True, hidden="actual", trust="always", outsiders="partial")
#: Hi-ToM's generator (ying-hui-he/Hi-ToM_dataset): its telling rule, entrants' sights as news (no
#: hidden alternatives: under ``telling='hitom'`` a believed claim needs no missed move to explain it).
HITOM = Conventions(enter_sees=True, hidden="actual", trust="exit-order", outsiders="oblivious", entry="news",
                    telling="hitom")
#: kop's own syntax: Hi-ToM's trust, DEL's revision on a tell, and agents elsewhere know that an entrant looks around.
KOP = Conventions(enter_sees=True, hidden="any", trust="exit-order", outsiders="partial")
