"""English attitude reports read as K/B chains; items answered by the prover, never guessed."""

from __future__ import annotations

import itertools

import pytest

import kop
from kop.reasoning.reading import derivation, judge, reading
from kop.syntax import formula as F


@pytest.mark.parametrize("sentence, formula, core", [
    ("Ann knows that it rains.", "K_Ann S", "it rains"),
    ("Ann thinks that Bob knows that it rains", "B_Ann K_Bob S", "it rains"),
    ("Mia understands that Liam suspects that Emma sees that a dog runs.", "K_Mia B_Liam K_Emma S", "a dog runs"),
    ("Noah remembered that Ava assumed that The cat sleeps", "K_Noah B_Ava S", "the cat sleeps"),
    ("Ava learns that Mia recognizes that Liam believes that x", "K_Ava K_Mia B_Liam S", "x"),
    ("A man thinks about lunch", "S", "a man thinks about lunch"),       # not "X verb that": a sentence
])
def test_reading(sentence, formula, core):
    r = reading(sentence)
    assert r.formula() == kop.parse(formula) and r.core == core


def test_names_of_several_words():
    r = reading("Mary Ann believes that snow is white")
    assert r.formula() == kop.parse("B_MaryAnn S")


def test_items():
    assert judge("Ann knows that it rains", "it rains").label == "entailment"
    assert judge("Ann believes that it rains", "it rains").label == "non-entailment"
    assert judge("Ann thinks that Bob knows that it rains", "Ann thinks that it rains").label == "entailment"
    a = judge("Ann knows that Bob thinks that it rains", "Bob thinks that Ann knows that it rains")
    assert a.label == "non-entailment"
    assert a.verdict.countermodel.satisfies("K_Ann B_Bob S & ~B_Bob K_Ann S")
    t = judge("Ann knows that a man sleeps", "a person sleeps")
    assert t.label == "needs textual entailment" and t.verdict is None


def test_bad_input():
    with pytest.raises(kop.KopError):
        reading("   ")
    with pytest.raises(kop.KopError):
        reading("Ann knows that ")


OPS = [(o, a) for o in "KB" for a in "ab"]
CHAINS = [()] + [c for n in (1, 2) for c in itertools.product(OPS, repeat=n)]


def _f(chain):
    f = F.Atom("p")
    for op, x in reversed(chain):
        f = F.Know(x, f) if op == "K" else F.Belief(x, f)
    return f


def test_derivations_exactly_where_the_prover_says_entailed():
    # every step is a valid principle, and on all chains up to length 2 over two agents a derivation
    # exists exactly when the prover finds no countermodel (checked up to length 3 by hand: 7,225 pairs)
    for c0, c1 in itertools.product(CHAINS, CHAINS):
        f0, f1 = _f(c0), _f(c1)
        v = kop.entails([f0], f1)
        d = derivation(f0, f1)
        assert (d is not None) == v.holds, (f0, f1)
        if d is not None:
            for (a, _), (b, _) in zip(d, d[1:]):
                assert kop.entails([a], b).holds


def _sentence(chain, core):
    verbs = {"K": "knows", "B": "thinks"}
    names = {"a": "Ann", "b": "Bob"}
    return " ".join(f"{names[x]} {verbs[op]} that" for op, x in chain) + f" {core}"


#: every textual relation between the premise's sentence S and the hypothesis's T, as the definition
#: of "decided whatever the sentences mean": unrelated, either entailing the other, equivalent
RELATIONS = (None, "S->T", "T->S", "S<->T")


@pytest.mark.parametrize("pc", CHAINS[1:7])
def test_two_sentences_decided_only_where_every_relation_agrees(pc):
    """An item whose sentences differ is answered exactly when the prover gives the same answer under
    every textual relation between them (each relation written out here as its own premise)."""
    from kop.reasoning.reading import background

    for hc in CHAINS:
        a = judge(_sentence(pc, "a man sleeps"), _sentence(hc, "a person sleeps"))
        agents = sorted({x for _, x in pc + hc})
        names = {"a": "Ann", "b": "Bob"}
        agents = [names[x] for x in agents]
        answers = set()
        for rel in RELATIONS:
            premises = [a.premise] + ([background(rel, agents)] if rel else [])
            answers.add(kop.entails(premises, a.hypothesis).holds)
        if len(answers) == 1:
            assert a.label == ("entailment" if answers.pop() else "non-entailment"), (pc, hc)
            if a.label == "non-entailment":
                assert a.verdict.countermodel.satisfies(a.premise & ~a.hypothesis)
        else:
            assert a.label == "needs textual entailment" and a.verdict is None, (pc, hc)
