"""Semantics layer: S5_n Kripke models, model checking, updates (announcements, action models)."""
