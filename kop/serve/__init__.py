"""The playground: kop in the browser, served locally (``kop serve``; see docs/playground.md).

Five pages, each a view of what the library computes: Theory (an editor with
errors underlined as you type, the dominance report and the game's picture),
Model (a Kripke, plausibility or probability model drawn; click a world to make
it actual, highlight where a formula holds, step through announcements and
upgrades), Story (theory-of-mind stories, when ``kop.read_story`` exists),
Match (agents playing move by move, with their reasons) and Experiment (a
small Bodkin sweep or Jamroga figure with its plot, updated as tasks finish).

Needs the ``serve`` extra (Starlette and uvicorn): ``pip install '.[serve]'`` in kop's source folder (see :func:`kop.errors.install_hint`).

>>> from kop.serve import make_app
>>> from starlette.testclient import TestClient
>>> TestClient(make_app("."), base_url="http://127.0.0.1").get("/").status_code
200
"""

from kop.serve.app import make_app, serve

__all__ = ["make_app", "serve"]

#: the doctests need these optional packages (kop/conftest.py skips them without them)
__doctest_requires__ = ("starlette", "uvicorn", "matplotlib")
