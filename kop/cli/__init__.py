"""Interfaces layer: the ``kop`` command line."""
