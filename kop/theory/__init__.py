"""Theory files (``.kop``): a knowledge specification and the questions to ask about it.

The theory layer sits between selection and the command line: it parses a
theory (grammar ``grammar/theory.lark``; guide ``docs/theories.md``), builds
the trees, models and knowledge it states, and answers its questions with
structured results that the command line only formats.

This package is the layer's façade: the command line and the playground
import from ``kop.theory`` only (``tests/cli/test_theory_facade.py``
checks it), never from its modules.  :class:`TheoryRun` runs a theory once
and answers what its callers ask: its scenarios, what a player knows,
the evaluations, the model after some announcements, the dominance report.

>>> import kop
>>> th = kop.parse_theory("agents A, B\\ncore A = 2\\nask level A\\n")
>>> [a.text for a in kop.run_theory(th)]
['level A: 2']
"""

from kop.theory.api import TheoryRun, belongs
from kop.theory.beliefs import tables_text
from kop.theory.dominance import Dominance
from kop.theory.files import read_confined, read_regular, resolve_confined
from kop.theory.grammar import load_theory, parse_theory
from kop.theory.knowledge import Context, core_for
from kop.theory.model import Answer, Theory
from kop.theory.questions import run_statements, run_theory
from kop.theory.state import TheoryState
from kop.theory.statements import Statement

__all__ = ["Answer", "Context", "Dominance", "Statement", "Theory", "TheoryRun", "TheoryState", "belongs",
           "core_for", "load_theory", "parse_theory", "read_confined", "read_regular", "resolve_confined",
           "run_statements", "run_theory", "tables_text"]
