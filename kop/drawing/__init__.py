"""Every picture kop draws (matplotlib, the ``draw`` extra): models in :mod:`~kop.drawing.models`,
game trees in :mod:`~kop.drawing.trees`.

The values keep ``.draw()`` and ``_repr_svg_`` (python-chess's ``Board._repr_svg_``): they import
the drawing inside the method, so that ``import kop`` imports no matplotlib.

>>> import kop.drawing
>>> kop.drawing.models.__name__
'kop.drawing.models'
"""

from kop.drawing import models, trees

__all__ = ["models", "trees"]
