"""English attitude reports read as knowledge and belief, and entailment items answered by the prover.

A sentence of the form "X verb that Y verb that ... S" is read as a chain of
operators over one atom, the innermost sentence S:

* **factive** verbs (knows, understands, sees, remembers, learns, recognizes,
  in any tense) presuppose that their complement is true: "Ann knows that it
  rains" is false when it does not rain.  They are read as knowledge ``K_x``,
  whose axiom T (``K_x φ → φ``) is exactly factivity;
* **non-factive** verbs (believes, thinks, suspects, assumes) report an
  attitude that may be wrong: read as belief ``B_x`` (KD45 in plausibility
  models, ``B_x φ → φ`` not valid).

The innermost sentences of a premise and a hypothesis become the same atom
when their texts are equal (up to spacing, a final full stop and the case of
the first letter); otherwise the item needs *textual* entailment (does "a man
plays a guitar" follow from "a man plays an instrument"?), which is not
logic: :func:`judge` says so and never guesses.

    >>> r = reading("Ann knows that Bob thinks that it is raining.")
    >>> r.formula(), r.core
    (kop.parse('K_Ann B_Bob S'), 'it is raining')
    >>> judge("Ann knows that Bob thinks that it is raining.", "Bob thinks that it is raining").label
    'entailment'
    >>> judge("Ann thinks that Bob knows that it is raining.", "Bob knows that it is raining").label
    'non-entailment'

Each answer carries the prover's verdict (its countermodel, checked by the
model checker, for "non-entailment") and, for "entailment", a derivation by
named valid principles (:func:`derivation`) when one of at most a few steps
exists.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass

from kop.errors import KopError
from kop.reasoning.verdict import Verdict
from kop.syntax import formula as F
from kop.syntax.printer import to_ascii

__all__ = ["FACTIVE", "NON_FACTIVE", "Reading", "reading", "ItemAnswer", "judge", "derivation", "show_derivation",
           "LABELS", "background"]

#: Factive verbs (read as ``K_x``), every form kop reads.
FACTIVE = {
    "know": ("know", "knows", "knew", "known", "knowing"),
    "understand": ("understand", "understands", "understood", "understanding"),
    "see": ("see", "sees", "saw", "seen", "seeing"),
    "remember": ("remember", "remembers", "remembered", "remembering"),
    "learn": ("learn", "learns", "learned", "learnt", "learning"),
    "recognize": ("recognize", "recognizes", "recognized", "recognizing",
                  "recognise", "recognises", "recognised", "recognising"),
}
#: Non-factive verbs (read as ``B_x``), every form kop reads.
NON_FACTIVE = {
    "believe": ("believe", "believes", "believed", "believing"),
    "think": ("think", "thinks", "thought", "thinking"),
    "suspect": ("suspect", "suspects", "suspected", "suspecting"),
    "assume": ("assume", "assumes", "assumed", "assuming"),
}
#: The labels :func:`judge` gives.
LABELS = ("entailment", "non-entailment", "needs textual entailment")

_FORMS = {form: ("K", verb) for verb, forms in FACTIVE.items() for form in forms}
_FORMS.update({form: ("B", verb) for verb, forms in NON_FACTIVE.items() for form in forms})
_AUX = r"(?:(?:does|did|do|has|have|had|will|would|is|was|are|were)\s+)?"
_ATTITUDE = re.compile(
    r"\s*(?P<subject>[A-Z][\w'\-]*(?:\s+[A-Z][\w'\-]*){0,3})\s+" + _AUX +
    r"(?P<verb>" + "|".join(sorted(_FORMS, key=len, reverse=True)) + r")\s+that\s+(?P<rest>.*)$", re.S)


@dataclass(frozen=True)
class Reading:
    """A sentence read as attitudes over an innermost sentence.

    ``attitudes`` lists ``(operator, agent, verb)`` from the outside in
    (operator ``"K"`` or ``"B"``, the agent as a kop agent name, the verb as
    written); ``core`` is the innermost sentence, normalized.

    >>> reading("Mia remembers that Noah assumed that the door is open").attitudes
    (('K', 'Mia', 'remembers'), ('B', 'Noah', 'assumed'))
    """

    attitudes: tuple[tuple[str, str, str], ...]
    core: str

    def formula(self, atom: str = "S") -> F.Formula:
        """The formula, with the innermost sentence as the atom *atom*.

        >>> reading("Liam sees that a dog runs").formula("dog")
        kop.parse('K_Liam dog')
        """
        f: F.Formula = F.Atom(atom)
        for op, agent, _ in reversed(self.attitudes):
            f = F.Know(agent, f) if op == "K" else F.Belief(agent, f)
        return f


def _normalize(text: str) -> str:
    text = " ".join(text.split()).rstrip(" .!")
    return text[:1].lower() + text[1:] if text else text


def _agent(subject: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "", subject) or "X"


def reading(sentence: str) -> Reading:
    """Read "X verb that Y verb that ... S" (see the module docstring).

    Parameters
    ----------
    sentence : str
        An English sentence.  A sentence that does not start with an
        attitude ("X verb that") is read as its own innermost sentence.

    Returns
    -------
    Reading

    Raises
    ------
    KopError
        When the sentence is empty, or an attitude has nothing after "that".

    Examples
    --------
    >>> reading("Olivia suspects that Emma understands that a cat sleeps.").formula()
    kop.parse('B_Olivia K_Emma S')
    >>> reading("A cat sleeps.").core
    'a cat sleeps'
    """
    if not isinstance(sentence, str) or not sentence.strip():
        raise KopError(f"expected an English sentence, found {sentence!r}")
    attitudes = []
    rest = sentence
    while True:
        m = _ATTITUDE.match(rest)
        if m is None:
            break
        op, _ = _FORMS[m.group("verb")]
        attitudes.append((op, _agent(m.group("subject")), m.group("verb")))
        rest = m.group("rest")
    core = _normalize(rest)
    if not core:
        raise KopError(f"nothing follows 'that' in {sentence!r}: expected the sentence that is known or believed")
    return Reading(tuple(attitudes), core)


@dataclass(frozen=True)
class ItemAnswer:
    """The answer to a premise/hypothesis item.

    ``label`` is one of :data:`LABELS`; ``verdict`` the prover's
    :class:`~kop.reasoning.verdict.Verdict` (None for "needs textual
    entailment"); ``premise``, ``hypothesis`` the formulas (atom ``S``, or
    ``S`` and ``T`` when the innermost sentences differ); ``reason`` a line of
    explanation (a derivation, the countermodel's story, or why logic alone
    cannot answer).

    >>> a = judge("Ann believes that it snows", "it snows")
    >>> a.label, a.verdict.countermodel.satisfies("B_Ann S & ~S")
    ('non-entailment', True)
    """

    label: str
    premise: F.Formula
    hypothesis: F.Formula
    verdict: Verdict | None
    reason: str


def judge(premise: str, hypothesis: str, *, timeout: float | None = None) -> ItemAnswer:
    """Does the English *premise* entail the *hypothesis*?  Decided by the prover.

    Parameters
    ----------
    premise, hypothesis : str
        Sentences of the form "X verb that ... S".
    timeout : float, optional
        Seconds for the prover.

    Returns
    -------
    ItemAnswer
        "entailment" or "non-entailment" with the prover's verdict, or "needs
        textual entailment" when the innermost sentences differ and the answer depends on
        what they mean (never a guess): an item whose answer is the same whatever the
        textual relation between its sentences (unrelated, one entailing the other,
        equivalent) is decided.

    Examples
    --------
    >>> judge("Ann knows that Bob knows that it rains", "Ann knows that it rains").label
    'entailment'
    >>> print(judge("Ann knows that Bob knows that it rains", "Ann knows that it rains").reason)
    K_Ann K_Bob S  ⊢  K_Ann S   (T: knowledge is true, under K_Ann)
    >>> judge("Ann believes that a man sleeps", "Ann believes that a person sleeps").label
    'needs textual entailment'
    >>> judge("Ann believes that a man sleeps", "Bob believes that a person sleeps").label
    'non-entailment'
    """
    from kop.reasoning.prover import entails

    p, h = reading(premise), reading(hypothesis)
    if p.core != h.core:
        return _two_sentences(p, h, timeout)
    pf, hf = p.formula(), h.formula()
    v = entails([pf], hf, timeout=timeout)
    if v.holds:
        steps = derivation(pf, hf)
        reason = show_derivation(steps) if steps is not None else \
            "no plausibility model makes the premise true and the hypothesis false (the prover's search is complete)"
        return ItemAnswer(LABELS[0], pf, hf, v, reason)
    m = v.countermodel
    size = len(m) if m is not None else 0
    return ItemAnswer(LABELS[1], pf, hf, v,
                      f"a plausibility model with {size} world{'s' * (size != 1)} makes the premise true and "
                      "the hypothesis false (checked by the model checker)")


def background(relation: str, agents: list[str]) -> F.Formula:
    """What a textual *relation* between the sentences S and T says in every world the agents consider.

    *relation* is ``"S->T"``, ``"T->S"`` or ``"S<->T"``; the link holds at the actual world and is
    common knowledge among *agents* (the worlds a chain of their attitudes reaches), which is what
    "the sentence S entails the sentence T" means for sentences whose meaning every agent shares.

    >>> background("S->T", ["Ann", "Bob"])
    kop.parse('(S -> T) & C{Ann,Bob} (S -> T)')
    """
    s, t = F.Atom("S"), F.Atom("T")
    link: F.Formula = {"S->T": F.Implies(s, t), "T->S": F.Implies(t, s), "S<->T": F.Iff(s, t)}[relation]
    return F.And(link, F.Common(tuple(agents), link)) if agents else link


def _two_sentences(p: Reading, h: Reading, timeout: float | None) -> ItemAnswer:
    """An item whose innermost sentences differ: decided only where no textual relation can change it.

    With S and T independent atoms, an entailment holds whatever S and T mean (more premises keep
    it).  If it fails even when S and T are equivalent in every world the agents consider, it fails
    for every weaker relation too (the countermodel satisfies them all).  In between, the answer
    depends on what the sentences mean: "needs textual entailment", saying which way.
    """
    from kop.reasoning.prover import entails

    pf, hf = p.formula("S"), h.formula("T")
    agents = sorted({a for _, a, _ in p.attitudes + h.attitudes})
    free = entails([pf], hf, timeout=timeout)
    if free.holds:
        return ItemAnswer(LABELS[0], pf, hf, free,
                          f"entailed whatever {p.core!r} and {h.core!r} mean: no plausibility model makes the "
                          "premise true and the hypothesis false, even with the two sentences unrelated")
    same = entails([pf, background("S<->T", agents)], hf, timeout=timeout)
    if not same.holds:
        m = same.countermodel
        size = len(m) if m is not None else 0
        return ItemAnswer(LABELS[1], pf, hf, same,
                          f"not entailed whatever {p.core!r} and {h.core!r} mean: even where they are "
                          f"equivalent, a plausibility model with {size} world{'s' * (size != 1)} makes the "
                          "premise true and the hypothesis false (checked by the model checker)")
    forward = entails([pf, background("S->T", agents)], hf, timeout=timeout).holds
    backward = entails([pf, background("T->S", agents)], hf, timeout=timeout).holds
    which = ("entailment if either sentence entails the other" if forward and backward else
             "entailment exactly if the first sentence entails the second" if forward else
             "entailment exactly if the second sentence entails the first" if backward else
             "entailment only if the two sentences are equivalent")
    return ItemAnswer(LABELS[2], pf, hf, None,
                      f"the innermost sentences differ ({p.core!r} and {h.core!r}) and the answer depends on "
                      f"what they mean: {which}; that is textual entailment, not logic")


# -- derivations between chains ----------------------------------------------------------
Chain = tuple[tuple[str, str], ...]          # (operator "K"/"B", agent), outside in


def _chain(f: F.Formula) -> tuple[Chain, F.Formula]:
    ops = []
    while isinstance(f, (F.Know, F.Belief)):
        ops.append(("K" if isinstance(f, F.Know) else "B", f.agent))
        f = f.arg
    return tuple(ops), f


def _moves(c: Chain, longest: int) -> list[tuple[Chain, str, int]]:
    out = []
    for i, (op, x) in enumerate(c):
        if op == "K":
            out.append((c[:i] + c[i + 1:], "T: knowledge is true", i))
            out.append((c[:i] + (("B", x),) + c[i + 1:], "knowledge implies belief", i))
        if i + 1 < len(c) and c[i + 1][1] == x:      # O_x O'_x = O'_x: the inner operator wins
            inner = c[i + 1][0]
            why = {("K", "K"): "4 for K", ("K", "B"): "T for K", ("B", "K"): "K_x φ is cell-wide: B_x K_x = K_x",
                   ("B", "B"): "4 for B"}[(op, inner)]
            out.append((c[:i] + c[i + 1:], why, i))
        if len(c) < longest:                           # the converse: insert an operator of the same agent
            ins = [("K", "strong introspection: B_x = K_x B_x" if op == "B" else "4 for K")]
            ins.append(("B", "K_x φ is cell-wide: K_x = B_x K_x" if op == "K" else "4 for B"))
            for new, why in ins:
                out.append((c[:i] + ((new, x),) + c[i:], why, i))
    return out


def derivation(premise: F.Formula, conclusion: F.Formula, max_steps: int = 6) -> list[tuple[F.Formula, str]] | None:
    """A derivation of *conclusion* from *premise*, both chains of ``K``/``B`` over one formula.

    Each step applies one valid principle inside the chain (every operator is
    monotone, so a principle holds under any prefix): T (drop a ``K``),
    ``K_x φ → B_x φ``, and the collapses ``O_x O'_x φ ↔ O'_x φ`` (4 for K and B,
    T for K, strong introspection, and ``B_x K_x φ ↔ K_x φ``).  Returns the
    steps ``[(premise, ""), (formula, principle), ...]``, or None when no
    derivation of at most *max_steps* steps exists (the prover's answer stands
    either way; this is only its explanation).

    Examples
    --------
    >>> from kop import parse
    >>> [why for _, why in derivation(parse("B_a K_b p"), parse("B_a p"))]
    ['', 'T: knowledge is true, under B_a']
    >>> derivation(parse("K_a B_b p"), parse("B_b K_a p")) is None
    True
    """
    (c0, core0), (c1, core1) = _chain(premise), _chain(conclusion)
    if core0 != core1:
        return None
    longest = max(len(c0), len(c1)) + 1
    prev: dict[Chain, tuple[Chain, str, int] | None] = {c0: None}
    queue = deque([(c0, 0)])
    while queue:
        c, d = queue.popleft()
        if c == c1:
            steps: list[tuple[Chain, str, int]] = []
            cur: Chain | None = c
            while cur is not None and prev[cur] is not None:
                before, why, at = prev[cur]   # type: ignore[misc]
                steps.append((cur, why, at))
                cur = before
            steps.reverse()
            out = [(_formula(c0, core0), "")]
            for ch, why, at in steps:
                out.append((_formula(ch, core0), why + _under(c0 if not out else _chain(out[-1][0])[0], at)))
            return out
        if d == max_steps:
            continue
        for nxt, why, at in _moves(c, longest):
            if nxt not in prev:
                prev[nxt] = (c, why, at)
                queue.append((nxt, d + 1))
    return None


def _under(before: Chain, at: int) -> str:
    if at == 0:
        return ""
    return ", under " + " ".join(f"{op}_{x}" for op, x in before[:at])


def _formula(c: Chain, core: F.Formula) -> F.Formula:
    f = core
    for op, x in reversed(c):
        f = F.Know(x, f) if op == "K" else F.Belief(x, f)
    return f


def show_derivation(steps: list[tuple[F.Formula, str]]) -> str:
    """A derivation of :func:`derivation`, one step a line.

    >>> from kop import parse
    >>> print(show_derivation(derivation(parse("K_a K_b p"), parse("B_b p"))))
    K_a K_b p  ⊢  K_b p   (T: knowledge is true)
    K_b p  ⊢  B_b p   (knowledge implies belief)
    """
    lines = []
    for (before, _), (after, why) in zip(steps, steps[1:]):
        lines.append(f"{to_ascii(before)}  ⊢  {to_ascii(after)}   ({why})")
    return "\n".join(lines) if lines else f"{to_ascii(steps[0][0])} is the hypothesis itself"
