"""``kop recall``: perfect recall and the kinds of imperfect recall of a game's players.

    kop recall theories/forgetful_cards.efg
    kop recall theories/driver.efg --json
    kop recall openspiel:kuhn_poker --player P0
"""

from __future__ import annotations

import argparse

from kop.cli.app import Commands, plural, print_json


def register(cli: Commands) -> None:
    p = cli.add("recall", _recall, json_help='Print one line: {"players": [{"name", "perfect_recall", "kinds", '
                                              '"witnesses"}, ...]}, players in the game\'s order.')
    p.add_argument("game", metavar="GAME", help="A Gambit .efg file, or openspiel:NAME[(params)] (a kop-tree/1 .json: perfect information).")
    p.add_argument("--player", "-p", metavar="P", help="Only this player (a name, or an index from 0).")


def _recall(args: argparse.Namespace) -> int | None:
    """Perfect recall (Kuhn) and the kinds of imperfect recall, per player.

    For each player: whether it has perfect recall, and else the kinds present
    (forgets-information, forgets-action, absent-minded), each with a witness: two
    nodes of one information set, what was forgotten, and the epistemic formula over
    the game model (kop.game_model) that fails there.
    """
    from kop.games.imperfect.game import game_argument
    from kop.games.imperfect.recall import recall_report

    game = game_argument(args.game)
    if args.player is None:
        players = list(range(len(game.players)))
    else:
        who = args.player
        players = [game.player_index(int(who) if who.isdigit() and who not in game.players else who)]
    reports = [recall_report(game, k) for k in players]
    if args.json:
        print_json({"players": [r.to_json() for r in reports]})
        return None
    print(f"{args.game}: {plural(len(game), 'node')}, {plural(len(game.sets), 'information set')}")
    for r in reports:
        if r.perfect_recall:
            print(f"{r.player}: perfect recall")
            continue
        print(f"{r.player}: imperfect recall ({', '.join(r.kinds)})")
        for w in r.witnesses:
            where = w.infoset if len(w.infoset) <= 40 and "\n" not in w.infoset else repr(w.infoset[:40] + "...")
            print(f"  {w.kind} at information set {where} ({w.sets} set{'s' if w.sets != 1 else ''}): "
                  f"nodes {w.nodes[0]} and {w.nodes[1]}; forgot {w.forgotten}")
            print(f"    formula {w.formula}  fails at {', '.join(w.fails_at)}")
    return None
