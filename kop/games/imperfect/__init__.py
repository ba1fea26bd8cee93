"""Extensive-form games with information sets: reading them, their epistemic model, recall, beliefs.

:mod:`~kop.games.imperfect.game` holds the game (:class:`~kop.games.imperfect.game.InfoGame`) and the
``.efg`` reading; :mod:`~kop.games.imperfect.openspiel` reads OpenSpiel games;
:mod:`~kop.games.imperfect.epistemic` builds the Kripke model of a game;
:mod:`~kop.games.imperfect.recall` checks perfect recall, reports the kinds of imperfect recall and
computes beliefs; :mod:`~kop.games.imperfect.reference` holds the brute-force references and
:mod:`~kop.games.imperfect.random_games` random games for tests.  See docs/imperfect-information.md.
"""
