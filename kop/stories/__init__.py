"""Stories for theory of mind: event sequences compiled to dynamic epistemic models (SPEC §6).

Read a story (ToMi, Hi-ToM or kop's own syntax) with :func:`kop.read_story` (:mod:`kop.io.stories`), ask it
questions at any order, and get the deciding formula, a belief trace and the model.
"""
