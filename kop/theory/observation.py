"""Kripke models by observation in a theory: vocabulary, laws, and what each agent observes.

::

    model {
      vocabulary m1 m2 m3
      law m1 | m2 | m3
      exactly 2 of m1, m2, m3
      observes c1: m2 m3
      observes c2: m1 m3
      observes c3: m1 m2
      actual m1 m2
    }

The worlds are the valuations of the vocabulary that satisfy every law; an
agent cannot tell apart worlds that agree on what it observes (see
:mod:`kop.semantics.observations`).  ``exactly k of ATOMS`` is a law too.
"""

from __future__ import annotations

from itertools import combinations

from kop.semantics.model import KripkeModel
from kop.errors import KopError
from kop.syntax.formula import Atom, Formula, Not, conj, disj, TRUE
from kop.theory.model import ObservationSpec
from kop.theory.numbers import build_number_model
from kop.theory.numbers import number_atoms

__all__ = ["build_observation_model", "exactly"]

#: The most cubes an ``exactly k of`` law may expand to.
MAX_CUBES = 100_000


def exactly(k: int, atoms: tuple[str, ...]) -> Formula:
    """Exactly *k* of *atoms* are true.

    >>> print(exactly(1, ("p", "q")))
    p & ~q | ~p & q
    """
    from math import comb

    n = len(atoms)
    if not 0 <= k <= n:
        return conj([Atom(atoms[0]), Not(Atom(atoms[0]))]) if atoms else (TRUE if k == 0 else Not(TRUE))
    if comb(n, k) > MAX_CUBES:
        raise KopError(f"'exactly {k} of' {n} atoms has more than {MAX_CUBES} cases")
    return disj(conj(Atom(a) if a in on else Not(Atom(a)) for a in atoms)
                for on in (set(c) for c in combinations(atoms, k)))


def model_atoms(spec: ObservationSpec) -> frozenset[str]:
    """The atoms a ``model { ... }`` block declares: its vocabulary, or its numbers' bits and signs.

    >>> from kop.theory.model import ObservationSpec
    >>> sorted(model_atoms(ObservationSpec(("p", "q"), (), (), (), None, None)))
    ['p', 'q']
    """
    if spec.numbers:

        return number_atoms(spec)
    return frozenset(spec.vocabulary)


def build_observation_model(spec: ObservationSpec) -> KripkeModel:
    """The model a ``model { ... }`` block states; errors located at the offending item."""
    if spec.numbers or spec.wheres or spec.observes_values:
        if spec.vocabulary or spec.laws or spec.counts or spec.observes:
            raise spec.pos.error("a model is over atoms (vocabulary, law, observes a: p) or over numbers "
                                 "(number, where, observes a value ...), not both")

        return build_number_model(spec)
    vocab = spec.vocabulary
    if not vocab:
        raise spec.pos.error("a model by observation needs a vocabulary: vocabulary p q r")
    known = set(vocab)
    laws = _laws(spec, known)
    observes = _observes(spec, known)
    if spec.actual is not None:
        bad = [a for a in spec.actual if a not in known]
        if bad:
            raise spec.pos.error(f"the actual world makes {bad[0]!r} true, which is not in the vocabulary", bad[0])
    try:
        return KripkeModel.from_observations(list(vocab), conj(laws), observes,
                                             actual=None if spec.actual is None else list(spec.actual))
    except KopError as exc:
        raise spec.pos.error(str(exc)) from None


def _laws(spec: ObservationSpec, known: set[str]) -> list[Formula]:
    """The block's laws (``law``, and ``exactly k of``), each checked against the vocabulary."""
    for f, pos in spec.laws:
        if not f.is_propositional():
            raise pos.error("a law must be propositional (no knowledge or announcement operators)")
        bad = sorted(f.atoms() - known)
        if bad:
            raise pos.error(f"the law mentions {bad[0]!r}, which is not in the vocabulary", bad[0])
    laws = [f for f, _ in spec.laws]
    for k, atoms, pos in spec.counts:
        missing = [a for a in atoms if a not in known]
        if missing:
            raise pos.error(f"{missing[0]!r} is not in the vocabulary", missing[0])
        try:
            laws.append(exactly(k, atoms))
        except KopError as exc:
            raise pos.error(str(exc)) from None
    return laws


def _observes(spec: ObservationSpec, known: set[str]) -> dict[str, list[str]]:
    """What each agent observes (``observes a: p q``), each atom checked against the vocabulary."""
    observes: dict[str, list[str]] = {}
    for agent, atoms, pos in spec.observes:
        if agent in observes:
            raise pos.error(f"what {agent} observes is given twice", agent)
        bad = [a for a in atoms if a not in known]
        if bad:
            raise pos.error(f"{agent} observes {bad[0]!r}, which is not in the vocabulary", bad[0])
        observes[agent] = list(atoms)
    if not observes:
        raise spec.pos.error("a model by observation needs at least one agent: observes a: p q")
    return observes
