"""Extensive-form games with information sets: reading them, their epistemic model, recall, beliefs.

:mod:`~kop.games.imperfect.game` holds the game (:class:`~kop.games.imperfect.game.InfoGame`) and the
``.efg`` reading; :mod:`~kop.io.openspiel` reads OpenSpiel games;
:mod:`~kop.games.imperfect.epistemic` builds the Kripke model of a game;
:mod:`~kop.games.imperfect.recall` checks perfect recall and reports the kinds of imperfect recall;
:mod:`~kop.games.imperfect.beliefs` computes realisation probabilities and beliefs; :mod:`~kop.games.imperfect.reference` holds the brute-force references and
:mod:`~kop.games.imperfect.random_games` random games for tests.  See docs/imperfect-information.md.
"""
