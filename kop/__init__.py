"""kop: Knowledge Oriented Players.

A reasoning engine for what players in a game know (the multi-agent logic of
knowledge S5_n with common knowledge and public announcements) and for the
game-tree strategies that this knowledge justifies (Sang & Chen, *Beyond
Minimax*).

The public API is flat, networkx style: ``kop.parse``, ``kop.KripkeModel``,
``kop.valid``, ``kop.minimax``, ... Names are imported lazily so that
``import kop`` and the ``kop`` command start fast.

Layers (data flows one way; no layer imports one above it)::

    syntax -> semantics -> reasoning -> games -> worlds -> selection -> agents
    -> theory -> experiments -> cli
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

# public name -> module that defines it.  Each layer adds its own names here.
_EXPORTS: dict[str, str] = {
    # syntax
    "Formula": "kop.syntax.formula",
    "Atom": "kop.syntax.formula",
    "Top": "kop.syntax.formula",
    "Bottom": "kop.syntax.formula",
    "TRUE": "kop.syntax.formula",
    "FALSE": "kop.syntax.formula",
    "Not": "kop.syntax.formula",
    "And": "kop.syntax.formula",
    "Or": "kop.syntax.formula",
    "Implies": "kop.syntax.formula",
    "Iff": "kop.syntax.formula",
    "Know": "kop.syntax.formula",
    "Possible": "kop.syntax.formula",
    "KnowWhether": "kop.syntax.formula",
    "Everyone": "kop.syntax.formula",
    "Common": "kop.syntax.formula",
    "Distributed": "kop.syntax.formula",
    "RelCommon": "kop.syntax.formula",
    "Announce": "kop.syntax.formula",
    "AnnounceDual": "kop.syntax.formula",
    "symbols": "kop.syntax.formula",
    "K": "kop.syntax.formula",
    "M": "kop.syntax.formula",
    "Kw": "kop.syntax.formula",
    "E": "kop.syntax.formula",
    "C": "kop.syntax.formula",
    "D": "kop.syntax.formula",
    "conj": "kop.syntax.formula",
    "Belief": "kop.syntax.formula",
    "CondBelief": "kop.syntax.formula",
    "Probability": "kop.syntax.formula",
    "B": "kop.syntax.formula",
    "P": "kop.syntax.formula",
    "LanguageError": "kop.errors",
    "Config": "kop.config",
    "disj": "kop.syntax.formula",
    "parse": "kop.syntax.parser",
    "ParseError": "kop.errors",
    "KopError": "kop.errors",
    "ArgumentError": "kop.errors",
    "to_ascii": "kop.syntax.printer",
    "to_unicode": "kop.syntax.printer",
    "to_latex": "kop.syntax.printer",
    "to_sympy": "kop.syntax.sympy_bridge",
    "from_sympy": "kop.syntax.sympy_bridge",
    "f_level": "kop.syntax.levels",
    "chain": "kop.syntax.levels",
    # semantics (Kripke models, model checking, updates, puzzles)
    "KripkeModel": "kop.semantics.model",
    "ModelError": "kop.errors",
    "truth_vector": "kop.semantics.checker",
    "ActionModel": "kop.semantics.update",
    "product_update": "kop.semantics.update",
    "bisimilar": "kop.semantics.bisimulation",
    "bisimulation_classes": "kop.semantics.bisimulation",
    "minimize": "kop.semantics.bisimulation",
    "generated_submodel": "kop.semantics.bisimulation",
    "KnowledgeStructure": "kop.semantics.symbolic",
    # reasoning (prover, levels, cores)
    "satisfiable": "kop.reasoning.prover",
    "valid": "kop.reasoning.prover",
    "entails": "kop.reasoning.prover",
    "Verdict": "kop.reasoning.verdict",
    "level": "kop.reasoning.knowledge",
    "knows": "kop.reasoning.knowledge",
    "is_core": "kop.reasoning.knowledge",
    "chains_fragment": "kop.reasoning.knowledge",
    "reduce_announcements": "kop.reasoning.announcements",
    "reading": "kop.reasoning.reading",
    "judge": "kop.reasoning.reading",
    "ProverTimeout": "kop.errors",
    "ProverBug": "kop.errors",
    # games (trees, formats, strategies, play)
    "GameTree": "kop.games.trees.tree",
    "Node": "kop.games.trees.tree",
    "Player": "kop.games.trees.tree",
    "load_tree": "kop.io.trees",
    "loads_tree": "kop.io.trees",
    "dumps_tree": "kop.io.trees",
    "save_tree": "kop.io.trees",
    "loads_efg": "kop.io.efg",
    "from_gambit": "kop.io.gambit",
    "to_gambit": "kop.io.gambit",
    "dumps_efg": "kop.io.efg",
    "random_tree": "kop.games.trees.random_trees",
    "random_strategy": "kop.games.strategies.random_strategy",
    "Strategy": "kop.games.strategies.strategy",
    "minimax": "kop.games.strategies.minimax",
    "alphabeta": "kop.games.strategies.alphabeta",
    "mstar": "kop.games.strategies.mstar",
    "prom": "kop.games.strategies.prom",
    "prom_bayes": "kop.games.strategies.prom",
    "mh": "kop.games.strategies.mh",
    "hm0m": "kop.games.strategies.hm0m",
    "strategy": "kop.games.registry",
    "StrategyName": "kop.games.names",
    "play": "kop.games.strategies.play",
    "Outcome": "kop.games.strategies.play",
    "global_optimum": "kop.games.strategies.play",
    "TreeError": "kop.errors",
    # selection (decided nodes, the strategy selector, the worked example)
    "decide": "kop.selection.decide",
    "reference_decide": "kop.selection.reference_decide",
    "reference_claims": "kop.selection.reference_claims",
    "select": "kop.selection.selector",
    "Selection": "kop.selection.selector",
    "figure2": "kop.games.trees.examples",
    "figure2_game": "kop.selection.examples",
    "worked_example": "kop.selection.worked_example",
    # selection: partial knowledge of evaluation functions (knowing-value semantics)
    "EvaluationKnowledge": "kop.selection.evaluations",
    "EvaluationError": "kop.errors",
    "KnowsExactly": "kop.selection.evaluations", "KnowsNothing": "kop.selection.evaluations",
    "KnowsCandidates": "kop.selection.evaluations", "KnowsOrder": "kop.selection.evaluations",
    "KnowsWithin": "kop.selection.evaluations", "KnowsOnSubtree": "kop.selection.evaluations",
    "knows_exactly": "kop.selection.evaluations",
    "knows_nothing": "kop.selection.evaluations",
    "knows_candidates": "kop.selection.evaluations",
    "knows_order": "kop.selection.evaluations",
    "knows_within": "kop.selection.evaluations",
    "knows_on_subtree": "kop.selection.evaluations",
    "leaf_order": "kop.selection.evaluations",
    "evaluation_model": "kop.selection.evaluation_model",
    "believes_candidates": "kop.selection.beliefs",
    "EvaluationBelief": "kop.selection.beliefs",
    "outcomes_under_belief": "kop.selection.beliefs",
    # games: implicit games, search on them, the OpenSpiel bridge
    "search": "kop.games.registry",
    "SearchResult": "kop.games.search.result",
    "ImplicitGame": "kop.games.search.implicit",
    "TreeGame": "kop.games.search.treegame",
    "Nim": "kop.games.search.implicit",
    "nim": "kop.games.search.implicit",
    "GameError": "kop.errors",
    "from_openspiel": "kop.games.search.openspiel",
    # games: n players, chance and simultaneous moves (Bodkin)
    "maxn": "kop.games.nplayer.maxn",
    "bnb": "kop.games.nplayer.bnb",
    "lower_eval": "kop.games.nplayer.lower_eval",
    "bimodal": "kop.games.nplayer.bimodal",
    "paranoid": "kop.games.nplayer.paranoid",
    "PayoffBounds": "kop.games.nplayer.bounds",
    "BoundsError": "kop.errors",
    "NPlayerResult": "kop.games.nplayer.core",
    "bodkin_tree": "kop.games.nplayer.random_trees",
    "best_case_tree": "kop.games.nplayer.best_case",
    "expectimax": "kop.games.chance.expectimax",
    "star1": "kop.games.chance.star1",
    "star2": "kop.games.chance.star2",
    "cscout": "kop.games.chance.cscout",
    "ChanceResult": "kop.games.chance.core",
    "solve_matrix": "kop.games.simultaneous.matrix",
    "saddle_point": "kop.games.simultaneous.matrix",
    "MatrixSolution": "kop.games.simultaneous.matrix",
    "sim_tree": "kop.games.simultaneous.core",
    "random_sim_tree": "kop.games.simultaneous.core",
    "naive": "kop.games.simultaneous.naive",
    "substructure": "kop.games.simultaneous.substructure",
    "dominating": "kop.games.simultaneous.dominating",
    "SimResult": "kop.games.simultaneous.core",
    # worlds (possible-worlds games: Jamroga, Frank & Basin)
    "WorldsGame": "kop.worlds.game",
    "Beliefs": "kop.worlds.game",
    "WorldsError": "kop.errors",
    "Plan": "kop.worlds.plan",
    "mc": "kop.worlds.mc",
    "vm": "kop.worlds.vm",
    "prm": "kop.worlds.prm",
    "optbd": "kop.worlds.optbd",
    "gvm": "kop.worlds.gvm",
    "findoptimal": "kop.worlds.findoptimal",
    "random_worlds_game": "kop.worlds.generators",
    "random_belief_sets": "kop.worlds.generators",
    "card_game": "kop.worlds.generators",
    "worlds_from_openspiel": "kop.worlds.openspiel",
    "OpenSpielWorlds": "kop.worlds.openspiel",
    "play_round": "kop.worlds.competition",
    "supremacy": "kop.worlds.competition",
    # worlds: play from information states (issue 27, items 3 and 4)
    "knowledge_cell": "kop.worlds.infostates",
    "decide_openspiel": "kop.worlds.infostates",
    "Cell": "kop.worlds.infostates",
    "InfoDecision": "kop.worlds.infostates",
    "check_resampling": "kop.worlds.resampling",
    "ResamplingReport": "kop.worlds.resampling",
    "exact_sampler": "kop.worlds.resampling",
    "play_openspiel": "kop.agents.imperfect",
    # agents (kop.Agent, kop.Match, kop.tournament)
    "Agent": "kop.agents.agent",
    "Match": "kop.agents.match",
    "MatchResult": "kop.agents.match",
    "tournament": "kop.agents.tournament",
    "LearningAgent": "kop.agents.learning",
    # experiments (the experiment runner and the papers' experiments)
    "run_tasks": "kop.experiments.runner",
    "spawn_seeds": "kop.experiments.runner",
    "read_results": "kop.experiments.runner",
    "ExperimentError": "kop.errors",
    # theory (theory files: the language, its questions)
    "load_theory": "kop.theory",
    "parse_theory": "kop.theory",
    "run_theory": "kop.theory",
    # games with information sets (issue 27: knowledge in the game, recall)
    "InfoGame": "kop.games.imperfect.game",
    "InfoSet": "kop.games.imperfect.game",
    "load_game": "kop.io.infogame",
    "loads_game": "kop.io.infogame",
    "dumps_game": "kop.io.infogame",
    "random_info_game": "kop.games.imperfect.random_games",
    "from_pygambit": "kop.io.gambit",
    "game_from_openspiel": "kop.io.openspiel",
    "game_model": "kop.games.imperfect.epistemic",
    "perfect_recall": "kop.games.imperfect.recall",
    "recall_report": "kop.games.imperfect.recall",
    "RecallReport": "kop.games.imperfect.recall",
    "RecallWitness": "kop.games.imperfect.recall",
    "beliefs": "kop.games.imperfect.beliefs",
    "absent_minded_driver": "kop.games.imperfect.examples",
    "forgetful_cards": "kop.games.imperfect.examples",
    # stories (theory of mind)
    "read_story": "kop.io.stories",
    "read_stories": "kop.io.stories",
    "Story": "kop.stories.story",
    "StoryError": "kop.errors",
    "Conventions": "kop.stories.conventions",
    # every error class (kop.errors)
    "LimitError": "kop.errors",
    "MissingDependency": "kop.errors",
    "OutOfTime": "kop.errors",
    "TimeoutArgumentError": "kop.errors",
    "DeadlineInterrupt": "kop.errors",
    "AgentError": "kop.errors",
    "TheoryError": "kop.errors",
    "SmcdelError": "kop.errors",
    "EpddlError": "kop.errors",
    "JsonError": "kop.errors",
    "EfgError": "kop.errors",
    "StrategyError": "kop.errors",
    "MatrixError": "kop.errors",
    "ClusterLost": "kop.errors",
    "Stopped": "kop.errors",
}


#: modules of kop reachable as attributes without an import of their own: ``kop.config.using(...)``
_MODULES = ("config",)


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        return importlib.import_module(f"kop.{name}")
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'kop' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS) | set(_MODULES))


__all__ = sorted(_EXPORTS)
