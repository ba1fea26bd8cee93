"""Errors of the stories layer, defined in :mod:`kop.errors` and kept here under their old name.

Every error names the line of the story (1-based) that is at fault, and the
``kop story`` command prints it as one line and exits with status 2.
"""

from __future__ import annotations

from kop.errors import StoryError

__all__ = ["StoryError"]
