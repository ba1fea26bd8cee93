"""Gambit ``.efg`` (extensive form, version 2) import and export for perfect-information trees.

Supported: personal (``p``), chance (``c``) and terminal (``t``) nodes in
prefix order, outcomes with payoffs at any node (payoffs along a path add up,
as in Gambit), rational (``1/3``) and decimal numbers, node names (kop labels)
and action names (kop move labels; an action named by its 0-based position,
``"0"``, ``"1"``, ..., is an unlabelled move, which is how export names them:
open-spiel needs distinct action names).  A personal information set with more than
one node makes the game one of imperfect information, which kop's strategies
do not cover yet: such a file is rejected with a message naming the set.

Gambit players maximize their payoffs.  On export, the payoffs of a kop player
whose goal is ``min`` are negated, and the comment line records the goals
(``kop-goals: A=max B=min``) so that import restores the original numbers and
goals; a file without that line gives every player the goal ``max``.

Example
-------
>>> import kop
>>> t = kop.load_tree("theories/figure2.json")
>>> kop.loads_efg(kop.dumps_efg(t)) == t
True
"""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np

from kop.games.errors import EfgError
from kop.games.tree import CHANCE, LEAF, GameTree, Player
from kop.syntax.jsontext import location

__all__ = ["loads_efg", "dumps_efg"]

_TOKEN = re.compile(r"""\s*(?:
    (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<brace>[{}])
  | (?P<number>[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?(?:/\d+)?)
  | (?P<word>[A-Za-z]+)
)""", re.VERBOSE | re.DOTALL)
_GOALS = re.compile(r"kop-goals:\s*((?:\S+=(?:max|min)\s*)+)")


class _Tokens:
    def __init__(self, text: str):
        self.text = text
        self.toks: list[tuple[str, str, int]] = []
        pos = 0
        end = len(text.rstrip())
        while pos < end:
            m = _TOKEN.match(text, pos)
            if m is None or m.end() == pos:
                at = len(text) - len(text[pos:].lstrip())
                raise EfgError(f"{location(text, at)}: unexpected {text[at:at + 10]!r}")
            kind = m.lastgroup
            assert kind is not None  # every alternative of _TOKEN is a named group
            self.toks.append((kind, m.group(kind), m.start(kind)))
            pos = m.end()
        self.i = 0

    def where(self) -> str:
        at = self.toks[self.i][2] if self.i < len(self.toks) else len(self.text)
        return location(self.text, at)

    def peek(self) -> tuple[str, str] | None:
        return self.toks[self.i][:2] if self.i < len(self.toks) else None

    def take(self, kind: str, what: str) -> str:
        t = self.peek()
        if t is None or t[0] != kind:
            found = "end of file" if t is None else repr(t[1])
            raise EfgError(f"{self.where()}: expected {what}, found {found}")
        self.i += 1
        return t[1]

    def string(self, what: str) -> str:
        s = self.take("string", what)
        return s[1:-1].replace('\\"', '"').replace("\\\\", "\\")

    def number(self, what: str) -> Fraction:
        where = self.where()
        s = self.take("number", what)
        try:
            return Fraction(s)
        except (ValueError, ZeroDivisionError):
            raise EfgError(f"{where}: bad number {s!r} for {what}") from None

    def opt(self, kind: str, value: str | None = None) -> bool:
        t = self.peek()
        return t is not None and t[0] == kind and (value is None or t[1] == value)


def loads_efg(text: str) -> GameTree:
    """A tree from the text of a Gambit ``.efg`` file (perfect information, with chance)."""
    tk = _Tokens(text)
    if tk.take("word", "'EFG'") != "EFG":
        raise EfgError(f"{location(text, 0)}: an .efg file starts with 'EFG 2 R'")
    version = tk.number("the version 2")
    if version != 2:
        raise EfgError(f"{tk.where()}: only EFG version 2 is supported, not {version}")
    rd = tk.take("word", "R or D")
    if rd not in ("R", "D"):
        raise EfgError(f"{tk.where()}: expected R or D after the version, found {rd!r}")
    tk.string("the title")
    tk.take("brace", "'{' before the player names")
    names: list[str] = []
    while tk.opt("string"):
        names.append(tk.string("a player name"))
    tk.take("brace", "'}' after the player names")
    if not names:
        raise EfgError(f"{tk.where()}: the game has no players")
    comment = tk.string("the comment") if tk.opt("string") else ""
    goals = ["max"] * len(names)
    m = _GOALS.search(comment)
    if m:
        pairs = dict(p.split("=") for p in m.group(1).split())
        goals = [pairs.get(n, "max") for n in names]
    players = tuple(Player(n, g) for n, g in zip(names, goals))
    outcomes: dict[int, list[Fraction]] = {}
    infosets: dict[tuple[int, int], tuple[str, list[str], list[Fraction] | None]] = {}
    seen_personal: dict[tuple[int, int], str] = {}
    n_players = len(names)
    zero = [Fraction(0)] * n_players

    def outcome(what: str) -> list[Fraction]:
        where = tk.where()
        k = int(tk.number(f"the outcome number of {what}"))
        if k == 0:
            return zero
        if tk.opt("string"):
            tk.string("the outcome name")
        if tk.opt("brace", "{"):
            tk.take("brace", "'{'")
            pays = []
            while tk.opt("number"):
                pays.append(tk.number("a payoff"))
            if tk.opt("string"):
                raise EfgError(f"{tk.where()}: payoffs must be numbers")
            tk.take("brace", "'}' after the payoffs")
            if len(pays) != n_players:
                raise EfgError(f"{where}: outcome {k} has {len(pays)} payoffs, expected {n_players} "
                               f"(players {', '.join(names)})")
            if k in outcomes and outcomes[k] != pays:
                raise EfgError(f"{where}: outcome {k} is defined twice with different payoffs")
            outcomes[k] = pays
        if k not in outcomes:
            raise EfgError(f"{where}: outcome {k} is used before its payoffs are given")
        return outcomes[k]

    root: dict | None = None
    # stack of [node dict, children still expected, accumulated payoff, action names]
    stack: list[list] = []
    while True:
        if stack and stack[-1][1] == 0:
            stack.pop()
            if not stack:
                break
            continue
        if root is not None and not stack:
            break
        t = tk.peek()
        if t is None:
            raise EfgError(f"{tk.where()}: the file ends before the tree is complete")
        where = tk.where()
        kind = tk.take("word", "a node type p, c or t")
        name = tk.string("the node name")
        node: dict = {}
        if name:
            node["label"] = name
        acc = stack[-1][2] if stack else zero
        if stack:
            parent = stack[-1]
            k = len(parent[0]["children"])
            if parent[3][k] and parent[3][k] != str(k):
                node["move"] = parent[3][k]
            parent[0]["children"].append(node)
            parent[1] -= 1
        else:
            root = node
        if kind == "t":
            pays = outcome("a terminal node")
            node["payoff"] = [a + b for a, b in zip(acc, pays)]
            continue
        if kind not in ("p", "c"):
            raise EfgError(f"{where}: unknown node type {kind!r} (expected p, c or t)")
        if kind == "p":
            pl = int(tk.number("the player number"))
            if not 1 <= pl <= n_players:
                raise EfgError(f"{where}: player {pl} does not exist (players 1..{n_players})")
            node["player"] = names[pl - 1]
        else:
            pl = 0
        iset = int(tk.number("the information set number"))
        iname = tk.string("the information set name") if tk.opt("string") else None
        actions: list[str] | None = None
        probs: list[Fraction] | None = None
        if tk.opt("brace", "{"):
            tk.take("brace", "'{'")
            actions, probs = [], []
            while tk.opt("string"):
                actions.append(tk.string("an action name"))
                if kind == "c":
                    probs.append(tk.number("an action probability"))
            tk.take("brace", "'}' after the actions")
            if not actions:
                raise EfgError(f"{where}: a {'chance' if kind == 'c' else 'personal'} node needs at least one action")
        key = (pl, iset)
        if kind == "p":
            if key in seen_personal:
                raise EfgError(
                    f"{where}: information set {iset} of player {pl} ({names[pl - 1]}) contains more than one "
                    f"node (also at node {seen_personal[key]!r}); kop supports perfect-information trees "
                    "only, where every information set is a single node")
            seen_personal[key] = name or where
        if actions is None:
            if key not in infosets:
                raise EfgError(f"{where}: information set {iset} is used before its actions are listed")
            _, actions, probs = infosets[key]
        else:
            infosets[key] = (iname or "", actions, probs)
        pays = outcome("a node")
        if kind == "c":
            assert probs is not None  # a chance node's information set lists probabilities
            total = sum(probs, Fraction(0))
            if abs(total - 1) > Fraction(1, 10**9):
                raise EfgError(f"{where}: chance probabilities sum to {float(total):g}, not 1")
            if any(p < 0 for p in probs):
                raise EfgError(f"{where}: a chance probability is negative")
            node["chance"] = [float(p) for p in probs]
        node["children"] = []
        stack.append([node, len(actions), [a + b for a, b in zip(acc, pays)], actions])
    if tk.peek() is not None:
        raise EfgError(f"{tk.where()}: extra text after the tree")
    if root is None:
        raise EfgError(f"{tk.where()}: the file has no nodes")
    tree = GameTree.from_dict({"format": "kop-tree/1",
                               "players": [{"name": p.name, "goal": p.goal} for p in players],
                               "root": _to_numbers(root, players)})
    return tree


def _to_numbers(root: dict, players: tuple[Player, ...]) -> dict:
    """Fractions to ints/floats, undoing the negation of min players' payoffs (iteratively)."""
    stack = [root]
    signs = [p.sign for p in players]
    while stack:
        node = stack.pop()
        if "payoff" in node:
            vals = [s * x for s, x in zip(signs, node["payoff"])]
            node["payoff"] = [int(x) if x.denominator == 1 else float(x) for x in vals]
        else:
            stack.extend(node["children"])
    return root


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _num(x: float, integral: bool) -> str:
    """A plain decimal that reads back as the same float (open-spiel reads no fractions or exponents)."""
    if integral and float(x).is_integer():
        return str(int(x))
    return np.format_float_positional(float(x), unique=True, trim="-")


def dumps_efg(tree: GameTree, title: str = "kop tree") -> str:
    """Gambit ``.efg`` text of *tree* (see the module docstring for the payoff convention)."""
    tree.require_sequential("the .efg writer")
    goals = " ".join(f"{p.name}={p.goal}" for p in tree.players)
    lines = [f"EFG 2 R {_q(title)} {{ {' '.join(_q(p.name) for p in tree.players)} }}",
             _q(f"kop-goals: {goals} (payoffs of min players are negated: Gambit players maximize)"), ""]
    kind, offsets, probs = tree.kind, tree.offsets, tree.probs
    rows = tree.leaf_rows()
    signs = np.array([p.sign for p in tree.players], dtype=np.float64)
    infoset = [0] * len(tree.players)
    chance_set = 0
    n_outcomes = 0
    stack = [0]
    while stack:
        i = stack.pop()
        name = _q(tree.labels.get(i, ""))
        k = int(kind[i])
        if k == LEAF:
            n_outcomes += 1
            pays = " ".join(_num(x, tree.integral) for x in tree.payoffs[rows[i]] * signs)
            lines.append(f"t {name} {n_outcomes} \"\" {{ {pays} }}")
            continue
        lo, hi = int(offsets[i]), int(offsets[i + 1])
        acts = [_q(tree.moves.get(c) or str(c - lo)) for c in range(lo, hi)]
        if k == CHANCE:
            assert probs is not None
            chance_set += 1
            body = " ".join(f"{a} {_num(p, False)}" for a, p in zip(acts, probs[lo:hi]))
            lines.append(f"c {name} {chance_set} \"\" {{ {body} }} 0")
        else:
            infoset[k] += 1
            lines.append(f"p {name} {k + 1} {infoset[k]} \"\" {{ {' '.join(acts)} }} 0")
        stack.extend(range(hi - 1, lo - 1, -1))
    return "\n".join(lines) + "\n"

