"""Reasoning layer: the S5_n prover (satisfiable / valid / entails) and knowledge levels and cores.

* :mod:`kop.reasoning.prover` -- ``satisfiable``, ``valid``, ``entails``: sound and
  complete for K, M, Kw, E, C, D, relativized C and announcements, with checked
  (counter)models (:class:`~kop.reasoning.verdict.Verdict`);
* :mod:`kop.reasoning.knowledge` -- ``level``, ``knows``, ``is_core``, ``chains_fragment``
  (SPEC §2.5);
* the machinery: :mod:`~kop.reasoning.announcements` (reduction axioms),
  :mod:`~kop.reasoning.core` (core language and closure), :mod:`~kop.reasoning.satengine`
  (SAT tableau with learned clauses), :mod:`~kop.reasoning.bddengine` (symbolic type
  elimination, on the BDDs of :mod:`kop.bdd.manager`), :mod:`~kop.reasoning.countermodel`
  (pseudo-model to Kripke model), :mod:`~kop.reasoning.reference` (naive small-model
  search for cross-checks), :mod:`~kop.reasoning.generators` (benchmark formulas).

See ``docs/prover.md``.
"""
