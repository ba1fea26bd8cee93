"""Theory files (``.kop``): a knowledge specification and the questions to ask about it.

The theory layer sits between selection and the command line: it parses a
theory (grammar ``grammar/theory.lark``; guide ``docs/theories.md``), builds
the trees, models and knowledge it states, and answers its questions with
structured results that the command line only formats.

>>> import kop
>>> th = kop.parse_theory("agents A, B\\ncore A = 2\\nask level A\\n")
>>> [a.text for a in kop.run_theory(th)]
['level A: 2']
"""

from kop.theory.grammar import load_theory, parse_theory
from kop.theory.model import Answer, Statement, Theory
from kop.theory.questions import run_theory

__all__ = ["Answer", "Statement", "Theory", "load_theory", "parse_theory", "run_theory"]
