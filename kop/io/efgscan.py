"""The whole-file fast path of the ``.efg`` reader, and the arrays-to-tree step both paths share.

:func:`scan_nodes` reads the nodes of a Gambit ``.efg`` file (after its header) with array
operations over the bytes of the text instead of a Python step per node.  It covers the
common case: names without backslashes, numbers without exponents (fractions and probabilities
of at most 15 characters), every personal and chance node listing its actions, outcomes only
at terminal nodes, every information set a single node.  On anything else -- including every error -- it returns
None, and :func:`kop.io.efg.loads_efg` reads the file with its token-level reader, which
accepts the same files (giving the same tree) and words the errors.

The text is read a piece at a time (about :data:`_CHUNK` characters, cut just before a node
letter outside a string), each piece into compact per-node arrays, so the temporaries are a
multiple of the piece, not of the file; the checks that span pieces (the shape, information
sets, outcomes defined once) run on those arrays.  Within those bounds the
numbers read as floats are exact: an integer below 10^15 is a float exactly; a decimal of at
most 15 digits is whole, at most 1, or equal to another exactly when its nearest float is; a
fraction of such integers is whole or at most 1 exactly when its nearest float is (two
fractions are compared only by the token-level reader).

:func:`~kop.games.trees.prefix.tree_from_prefix` turns per-node arrays in prefix (file) order into a
:class:`~kop.games.trees.tree.GameTree` (breadth-first layout).

Example
-------
>>> from kop.games.trees.tree import Player
>>> t = scan_nodes('t "" 1 "o" { 3, 4 }', 0, (Player("A"), Player("B")))
>>> t.payoffs.tolist(), t.integral
([[3.0, 4.0]], True)
>>> scan_nodes('t "a\\\\"b" 0', 0, (Player("A"),)) is None   # a backslash
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import BinaryIO, NamedTuple

import numpy as np

from kop.games.trees.prefix import tree_from_prefix
from kop.games.trees.tree import CHANCE, LEAF, PROB_TOLERANCE, GameTree, Player

__all__ = ["scan_nodes", "scan_file", "scan_pieces", "scan_sets", "Scanned"]

#: longest number token the fast path reads as digits (longer ones by ``float()``, up to
#: ``_MAX_CHARS``: the token-level reader's limit)
_MAX_DIGITS = 15
_MAX_CHARS = 200
_DECIMAL = re.compile(rb"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")

# byte classes outside strings: 0 anything else (not the fast path), 1 space, 2 quote,
# 3 brace or comma, 4 digit, 5 a node letter, 6 sign or decimal point
_CLASS = np.zeros(256, dtype=np.uint8)
for _c in b" \t\n\r":
    _CLASS[_c] = 1
_CLASS[ord('"')] = 2
for _c in b"{},":
    _CLASS[_c] = 3
for _c in b"0123456789":
    _CLASS[_c] = 4
for _c in b"pct":
    _CLASS[_c] = 5
for _c in b".+-/":
    _CLASS[_c] = 6
# token kind of a token's first byte: numbers become 'n'
_KIND = np.arange(256, dtype=np.uint8)
for _c in b"0123456789.+-/":
    _KIND[_c] = ord("n")
_Q, _OPEN, _CLOSE = ord('"'), ord("{"), ord("}")
_NODE = np.zeros(256, dtype=bool)  # the token kinds that start a node
_NODE[list(b"pct")] = True


def _grammar(n_players: int) -> re.Pattern[bytes]:
    """The token-kind sequence of the nodes the fast path reads (`"` a string, n a number)."""
    # possessive throughout: no part can give back a token the next part could take
    pays = rb'(?:"\{n(?:,?n){%d}\})?+' % (n_players - 1)
    node = rb'(?:(?:t"n|p"nn"\{"++\}n|c"n"\{(?:"n)++\}n)' + pays + rb')'
    return re.compile(node + rb"*+")


#: bytes of text the fast path reads at a time (its temporaries are some tens of times this;
#: a node longer than this is read in a larger piece)
_CHUNK = 1 << 19
_CUT_BEFORE = np.zeros(256, dtype=bool)  # bytes a node may follow directly where a piece is cut
for _c in b' \t\n\r"{},':
    _CUT_BEFORE[_c] = True


class _Piece:
    """What one piece of the file holds, node by node (see :func:`_scan_piece`)."""

    __slots__ = ("kind", "arity", "outcome", "has_pays", "matrix", "loose", "keys", "c_set", "probs",
                 "chance", "labels", "moves", "integral", "partial")
    kind: np.ndarray  # per node: LEAF, CHANCE or the player's index
    arity: np.ndarray  # per node: the number of children
    outcome: np.ndarray  # per terminal node: its outcome number
    has_pays: np.ndarray  # per terminal node: whether it gives payoffs
    matrix: np.ndarray  # per terminal node: the payoffs it gives (zeros if none)
    loose: np.ndarray  # per terminal node: whether a payoff is a fraction or a long number
    keys: np.ndarray  # per personal node: (information set, player) as one integer, or the pair
    c_set: np.ndarray  # per chance node: its information set
    probs: np.ndarray  # the chance nodes' probabilities in turn
    chance: np.ndarray  # the chance nodes (in the whole file)
    labels: dict[int, str]  # labelled nodes (in the whole file)
    moves: list[tuple[int, int, str]]  # labelled moves: (parent in the whole file, rank, name)
    integral: bool  # whether every payoff given is whole
    partial: bool  # whether a long payoff has digits other than 0 after its point


def scan_nodes(text: str, pos: int, players: Sequence[Player], chunk: int = _CHUNK) -> GameTree | None:
    """The tree of the nodes in ``text[pos:]``, or None when the fast path does not cover them.

    The text is read *chunk* characters (or a little less, up to a node's start) at a time, so
    the temporaries stay a small multiple of the piece, not of the file.
    """
    if text.find("\\", pos) >= 0:
        return None
    return scan_pieces(_pieces(text, pos, max(chunk, 1)), players)


def scan_file(f: BinaryIO, players: Sequence[Player], chunk: int = _CHUNK) -> GameTree | None:
    """:func:`scan_nodes` of the rest of the binary file *f* (the nodes after its header), read a
    piece at a time, so the file's text is never held whole; None also for a file that is not
    plain UTF-8 with line feeds (a backslash, a carriage return, a bad byte): the caller reads
    those as text."""
    return scan_pieces(_file_pieces(f, max(chunk, 1)), players)


def _file_pieces(f: BinaryIO, size: int) -> Iterator[tuple[bytes | None, int]]:
    """The rest of *f* in pieces of about *size* bytes, cut as :func:`_pieces` cuts."""
    rest = b""
    while True:
        more = f.read(size)
        raw = rest + more if rest else more
        at_end = not more
        if not at_end:
            cut = _last_cut(raw)
            while not cut:  # no node starts in it: read on
                more = f.read(len(raw))
                if not more:
                    at_end = True
                    break
                raw += more
                cut = _last_cut(raw)
        if at_end:
            cut = len(raw)
        if b"\\" in raw or b"\r" in raw:
            yield None, 0
            return
        try:
            raw[:cut].decode("utf-8")
        except UnicodeDecodeError:
            yield None, 0
            return
        yield raw, cut
        if at_end:
            return
        rest = raw[cut:]


def scan_sets(text: str, pos: int, players: Sequence[Player], chunk: int = _CHUNK) -> Scanned | None:
    """:func:`scan_nodes` keeping the personal information sets (several nodes each), or None.

    The caller checks that the nodes of a set have the same actions (the tree has them).

    >>> r = scan_sets('p "" 1 1 "" { "x" "y" } 0 t "" 1 "" { 1 } t "" 2 "" { 2 }', 0, (Player("A"),))
    >>> r.keys.tolist(), r.kind.tolist(), r.depth.tolist()
    ([1], [0, -1, -1], [0, 1, 1])
    """
    if text.find("\\", pos) >= 0:
        return None
    return _scan(_pieces(text, pos, max(chunk, 1)), players, keep_sets=True)


class Scanned(NamedTuple):
    """The fast path's reading with the information sets kept (:func:`scan_sets`)."""

    tree: GameTree
    keys: np.ndarray  # per personal node in file order: set * n_players + player index, or (player, set) rows
    kind: np.ndarray  # per node in file order: LEAF, CHANCE or the player's index
    depth: np.ndarray  # per node in file order: its depth


def scan_pieces(pieces_in: Iterable[tuple[bytes | None, int]], players: Sequence[Player]) -> GameTree | None:
    """The tree of the nodes in the pieces (bytes, the length of the piece in them), or None."""
    out = _scan(pieces_in, players, keep_sets=False)
    return None if out is None else out.tree


def _scan(pieces_in: Iterable[tuple[bytes | None, int]], players: Sequence[Player], keep_sets: bool
          ) -> Scanned | None:
    n_players = len(players)
    grammar = _grammar(n_players)
    pieces: list[_Piece] = []
    base = 0
    for raw, length in pieces_in:
        if raw is None:
            return None
        piece = _scan_piece(raw, length, n_players, grammar, base)
        if piece is None:
            return None
        if len(piece.kind):
            pieces.append(piece)
            base += len(piece.kind)
    if not base:
        return None
    return _assemble(players, pieces, keep_sets)


def _pieces(text: str, pos: int, size: int) -> Iterator[tuple[bytes | None, int]]:
    """The bytes of ``text[pos:]`` in pieces of about *size* characters, each cut just before a
    node letter (p, c or t outside a string, after a space, quote, brace or comma): (bytes, the
    length of the piece in them); None for a text that is not UTF-8 (a lone surrogate)."""
    n = len(text)
    lo = pos
    while lo < n:
        hi = lo + size
        while True:
            try:
                raw = text[lo:hi].encode("utf-8")
            except UnicodeEncodeError:
                yield None, 0
                return
            if hi >= n:
                yield raw, len(raw)
                return
            cut = _last_cut(raw)
            if cut > 0:
                break
            hi = lo + 2 * (hi - lo)
        yield raw, cut
        lo += cut if len(raw) == hi - lo else len(raw[:cut].decode("utf-8"))  # the cut in characters


def _last_cut(raw: bytes) -> int:
    """The byte offset of the last node letter of *raw* that may start a piece (0: none)."""
    b = np.frombuffer(raw, dtype=np.uint8)
    start = max(0, len(b) - 4096)  # near the end first
    while True:
        letters = start + np.flatnonzero(_NODE[b[start:]])
        letters = letters[letters > 0]
        letters = letters[_CUT_BEFORE[b[letters - 1]]]
        if len(letters):
            quotes = start + np.flatnonzero(b[start:] == _Q)
            parity = raw.count(b'"', 0, start) + np.searchsorted(quotes, letters)
            outside = letters[parity % 2 == 0]
            if len(outside):
                return int(outside[-1])
        if not start:
            return 0
        start = max(0, start - 4 * (len(b) - start))


class _Numbers(NamedTuple):
    """The number tokens of a piece in turn (see :func:`_numbers`)."""

    values: np.ndarray  # each one's value
    plain: np.ndarray  # digits only: a whole number without a sign
    signed: np.ndarray  # written with a sign
    loose: np.ndarray  # a fraction or long: equal floats need not mean equal numbers
    long: np.ndarray  # more than _MAX_DIGITS characters
    partial: np.ndarray  # long, with digits other than 0 after its point


class _Tokens(NamedTuple):
    """The tokens of a piece: their kinds, where its strings stand, and its numbers."""

    kinds: np.ndarray  # per token: its first byte, or 'n' for a number (see _KIND)
    s_open: np.ndarray  # per string: the byte offset of its opening quote
    s_close: np.ndarray  # per string: the byte offset of its closing quote
    numbers: _Numbers


class _Nodes(NamedTuple):
    """Where the parts of each node of a piece stand among its tokens (see :func:`_nodes`)."""

    is_p: np.ndarray  # per node: a personal node
    is_c: np.ndarray  # per node: a chance node
    is_t: np.ndarray  # per node: a terminal node
    arity: np.ndarray  # per node: the number of children
    has_pays: np.ndarray  # per node: whether it gives an outcome's payoffs
    first_str: np.ndarray  # per node: the ordinal of its first string among the piece's strings
    first_num: np.ndarray  # per node: the ordinal of its first number among the piece's numbers
    out_num: np.ndarray  # per node: the ordinal of its outcome number


def _scan_piece(raw: bytes, length: int, n_players: int, grammar: re.Pattern[bytes], base: int
                ) -> _Piece | None:
    """The nodes of one piece (``raw[:length]``, whole nodes) as compact arrays, or None when the
    fast path does not cover them (*base*: the number of nodes before the piece).

    Each step below runs over the whole piece at once: the tokens, where each node's parts
    stand among them, then each part of the nodes in turn.
    """
    b = np.frombuffer(raw, dtype=np.uint8, count=length)
    tokens = _tokens(b, grammar)
    if tokens is None:
        return None
    nodes = _nodes(tokens.kinds, n_players)
    nums = tokens.numbers
    out = _Piece()
    if not (_read_leaves(out, nodes, nums, n_players) and _read_players(out, nodes, nums, n_players)
            and _read_chance(out, nodes, nums, base)):
        return None
    out.labels, out.moves = _names(raw, b, tokens, nodes, base)
    out.arity = nodes.arity.astype(np.int32 if len(raw) < 2**31 else np.int64)
    return out


def _classes(b: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The class (see :data:`_CLASS`) of each byte of *b*, each string standing at its closing
    quote (its opening quote and content are spaces), and the offsets of the quotes; None for an
    odd number of quotes or a byte outside strings that the fast path does not read."""
    is_quote = b == _Q
    quotes = np.flatnonzero(is_quote)
    if len(quotes) % 2:
        return None
    cls = np.take(_CLASS, b)
    if len(quotes):
        s_open = quotes[0::2]
        lengths = quotes[1::2] - s_open - 1
        total = int(lengths.sum())
        if total <= len(b) // 8:  # short strings (the common case): their bytes alone
            cls[s_open] = 1
            if total:
                named = np.flatnonzero(lengths)
                lengths = lengths[named]
                inner = np.repeat(s_open[named] + 1 - (np.cumsum(lengths) - lengths), lengths)
                inner += np.arange(total)
                cls[inner] = 1
        else:
            inside = np.cumsum(is_quote, dtype=np.uint8)  # the parity survives the wrap-around
            inside &= 1
            spaced = cls - np.uint8(1)  # cls - (cls - 1) * inside: 1 inside, cls outside (modulo 256)
            spaced *= inside
            cls -= spaced
    return (cls, quotes) if cls.all() else None


def _tokens(b: np.ndarray, grammar: re.Pattern[bytes]) -> _Tokens | None:
    """The tokens of the bytes *b*, or None unless their kinds follow *grammar* and every
    number is one the fast path reads."""
    classes = _classes(b)
    if classes is None:
        return None
    cls, quotes = classes
    # atoms: maximal runs of digits, signs, points and letters (as the token-level reader's words
    # and numbers run); a letter must be an atom of its own (p, c or t)
    edge = np.zeros(len(cls) + 2, dtype=bool)
    np.greater_equal(cls, 4, out=edge[1:-1])
    np.not_equal(edge[1:], edge[:-1], out=edge[:-1])  # in place: each reads its right neighbour first
    bounds = np.flatnonzero(edge[:-1])
    del edge
    a_start, a_end = bounds[0::2], bounds[1::2]
    word = cls[a_start] == 5
    if (a_end[word] - a_start[word] > 1).any() or int(word.sum()) != int(np.count_nonzero(cls == 5)):
        return None  # a word other than p, c, t, or a letter inside a number
    token = (cls - np.uint8(2)) <= 1  # strings, braces, commas
    token[a_start] = True
    kinds = np.take(_KIND, np.compress(token, b))  # (compress: faster than a mask index)
    del token
    if not grammar.fullmatch(kinds.tobytes()):
        return None
    number = ~word
    num_start, num_end = np.compress(number, a_start), np.compress(number, a_end)
    # how many signs, decimal points and slashes each number holds
    n_special = np.bincount(np.searchsorted(num_start, np.flatnonzero(cls == 6), side="right") - 1,
                            minlength=len(num_start))
    del cls, bounds, a_start, a_end, word, number
    numbers = _numbers(b, num_start, num_end, n_special)
    if numbers is None:
        return None
    return _Tokens(kinds, quotes[0::2], quotes[1::2], numbers)


def _nodes(kinds: np.ndarray, n_players: int) -> _Nodes:
    """Where the parts of each node stand among the tokens of *kinds* (which follow the grammar).

    A node holds ``t "name" outcome ["name" {payoffs}]``, ``p "name" player set "name"
    {"actions"} outcome [...]`` or ``c "name" set "name" {"action" prob ...} outcome [...]``.
    """
    kinds_t = np.append(kinds, np.uint8(0))  # a sentinel after the last token
    g_open = np.flatnonzero(kinds_t == _OPEN)
    g_close = np.flatnonzero(kinds_t == _CLOSE)
    node_at = np.flatnonzero(np.take(_NODE, kinds_t))
    node_kind = kinds_t[node_at]
    is_p, is_c, is_t = node_kind == ord("p"), node_kind == ord("c"), node_kind == ord("t")
    # actions: the group right after the information set's name
    a_open = np.where(is_p, node_at + 5, node_at + 4)
    a_close = np.zeros(len(node_at), dtype=np.int64)
    inner = ~is_t
    a_close[inner] = g_close[np.searchsorted(g_open, a_open[inner])]
    arity = np.where(is_p, a_close - a_open - 1, (a_close - a_open - 1) // 2)
    arity[is_t] = 0
    out_tok = np.where(is_t, node_at + 2, a_close + 1)
    has_pays = kinds_t[out_tok + 1] == _Q
    # each node's first string and first number (ordinals in the piece), from what each holds
    n_str = np.where(is_t, 1, 2 + arity) + has_pays
    n_num = np.where(is_p, 3, np.where(is_c, 2 + arity, 1)) + n_players * has_pays
    first_str = np.cumsum(n_str) - n_str
    first_num = np.cumsum(n_num) - n_num
    out_num = np.where(is_p, first_num + 2, np.where(is_c, first_num + 1 + arity, first_num))
    return _Nodes(is_p, is_c, is_t, arity, has_pays, first_str, first_num, out_num)


def _read_leaves(out: _Piece, nodes: _Nodes, nums: _Numbers, n_players: int) -> bool:
    """Fill the terminal nodes' fields of *out* (outcome, has_pays, matrix, loose, partial,
    integral); False for an outcome number not a plain integer or an outcome at an inner node."""
    is_t, has_pays = nodes.is_t, nodes.has_pays
    outcome = nums.values[nodes.out_num]
    if not nums.plain[nodes.out_num].all() or (~is_t & ((outcome != 0) | has_pays)).any():
        return False
    t_pays = has_pays[is_t]
    out.outcome = outcome[is_t].astype(np.int64)
    out.has_pays = t_pays
    cells = (nodes.out_num[is_t] + 1)[t_pays][:, None] + np.arange(n_players)
    out.matrix = np.zeros((len(t_pays), n_players), dtype=np.float64)
    out.matrix[t_pays] = nums.values[cells]
    out.loose = np.zeros(len(t_pays), dtype=bool)
    out.loose[t_pays] = nums.loose[cells].any(axis=1)
    out.partial = bool(nums.partial.any() and nums.partial[cells].any())
    out.integral = bool(np.all(np.floor(out.matrix) == out.matrix))
    return True


def _read_players(out: _Piece, nodes: _Nodes, nums: _Numbers, n_players: int) -> bool:
    """Fill ``out.kind`` and the personal nodes' keys (player, information set); False for a
    player or set number not a plain integer, or a player not in the header."""
    is_p = nodes.is_p
    kind = np.full(len(is_p), LEAF, dtype=np.int8)
    kind[nodes.is_c] = CHANCE
    out.keys = np.zeros(0, dtype=np.int64)
    if is_p.any():
        k = nodes.first_num[is_p]
        player, infoset = nums.values[k], nums.values[k + 1]
        if not (nums.plain[k].all() and nums.plain[k + 1].all() and player.min() >= 1 and player.max() <= n_players):
            return False
        kind[is_p] = (player.astype(np.int64) - 1).astype(np.int8)
        # (player, information set) as one integer: the set is a plain integer below 10^15
        if n_players < 9000:
            out.keys = infoset.astype(np.int64) * n_players + (player.astype(np.int64) - 1)
        else:
            out.keys = np.stack([player.astype(np.int64), infoset.astype(np.int64)], axis=1)
    out.kind = kind
    return True


def _read_chance(out: _Piece, nodes: _Nodes, nums: _Numbers, base: int) -> bool:
    """Fill the chance nodes' fields of *out* (chance, c_set, probs); False for a set number not
    a plain integer, a signed or long probability, or probabilities not summing to 1."""
    chance_nodes = np.flatnonzero(nodes.is_c)
    out.chance = chance_nodes + base
    out.c_set = np.zeros(0, dtype=np.int64)
    out.probs = np.zeros(0)
    if not len(chance_nodes):
        return True
    first = nodes.first_num[chance_nodes]
    if not nums.plain[first].all():
        return False
    out.c_set = nums.values[first].astype(np.int64)
    # the probabilities: numbers, consecutive within a node's actions
    counts = nodes.arity[chance_nodes]
    before = np.cumsum(counts) - counts
    k = np.repeat(first + 1 - before, counts) + np.arange(int(counts.sum()))
    if nums.signed[k].any() or nums.long[k].any():
        return False  # a sign (-0 is a probability kop reads as 0), or more digits than a float holds
    probs = nums.values[k]
    # exact sums within half the tolerance are accepted; a float sum errs by < 3e-16 a term
    if probs.max() > 1 or (np.abs(np.add.reduceat(probs, before) - 1) > PROB_TOLERANCE / 2 * counts).any():
        return False
    out.probs = probs
    return True


def _names(raw: bytes, b: np.ndarray, tokens: _Tokens, nodes: _Nodes, base: int
           ) -> tuple[dict[int, str], list[tuple[int, int, str]]]:
    """The labelled nodes and the labelled moves (parent, rank, name) of the piece, numbered in
    the whole file (an action named "" or by its rank is unlabelled)."""
    s_open, s_close, first_str = tokens.s_open, tokens.s_close, nodes.first_str
    s_len = s_close - s_open - 1
    named = np.flatnonzero(s_len[first_str] > 0)
    labels = {base + int(i): raw[s_open[k] + 1:s_close[k]].decode("utf-8")
              for i, k in zip(named.tolist(), first_str[named].tolist())}
    parents = np.flatnonzero(~nodes.is_t)
    counts = nodes.arity[parents]
    before = np.cumsum(counts) - counts
    rank = np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(before, counts)
    act = np.repeat(first_str[parents] + 2, counts) + rank  # action names are consecutive strings
    odd = np.flatnonzero(~_unlabelled(b, s_open[act] + 1, s_len[act], rank))
    moves = [(base + i, r, raw[s_open[k] + 1:s_close[k]].decode("utf-8"))
             for i, r, k in zip(np.repeat(parents, counts)[odd].tolist(), rank[odd].tolist(), act[odd].tolist())]
    return labels, moves


_NOTHING = np.zeros(0)


def _concat(pieces: list[_Piece], field: str) -> np.ndarray:
    """One field of every piece, joined (each piece's array dropped as it is copied)."""
    parts = [getattr(p, field) for p in pieces]
    for p in pieces:
        setattr(p, field, _NOTHING)
    if len(parts) == 1:
        return np.asarray(parts[0])
    joined = np.concatenate(parts)
    return joined


def _assemble(players: Sequence[Player], pieces: list[_Piece], keep_sets: bool = False) -> Scanned | None:
    """The tree of the pieces' nodes, after the checks that span pieces (None if one fails); with
    *keep_sets*, personal information sets may hold several nodes, and their keys are kept."""
    n_players = len(players)
    labels: dict[int, str] = {}
    moves: list[tuple[int, int, str]] = []
    for p in pieces:
        labels.update(p.labels)
        moves.extend(p.moves)
        p.labels, p.moves = {}, []
    integral = all(p.integral for p in pieces)
    partial = any(p.partial for p in pieces)
    # an information set with more than one node
    keys = _concat(pieces, "keys")
    kept = keys if keep_sets else None  # kept: sets of several nodes allowed
    if kept is None and _shared_set(keys, n_players):
        return None
    del keys
    c_set = _concat(pieces, "c_set")
    if len(c_set) > 1:
        c_set.sort()
        if (c_set[1:] == c_set[:-1]).any():
            return None  # a chance set used twice (its actions listed once)
    del c_set
    # the shape: complete exactly at the last node (children still expected before each node)
    pending = 1
    for p in pieces:
        expect = np.cumsum(p.arity, dtype=np.int64)
        expect -= np.arange(1, len(p.arity) + 1)
        expect += pending
        pending = int(expect[-1])
        if expect[:-1].min(initial=1) <= 0 or (pending <= 0 and p is not pieces[-1]):
            return None
    if pending != 0:
        return None
    arity = _concat(pieces, "arity")
    outcome, has_pays = _concat(pieces, "outcome"), _concat(pieces, "has_pays")
    loose = _concat(pieces, "loose")
    matrix = _leaf_payoffs(outcome, has_pays, _concat(pieces, "matrix"), loose)
    if matrix is None:
        return None
    del outcome, has_pays, loose
    probs, chance = _concat(pieces, "probs"), _concat(pieces, "chance")
    kind = _concat(pieces, "kind")
    del pieces
    integral = integral and not partial
    depth = _depths(arity)
    tree = tree_from_prefix(players, depth, kind, arity, matrix, integral, labels, moves, chance, probs)
    if kept is None:
        return Scanned(tree, _NOTHING, _NOTHING, _NOTHING)
    return Scanned(tree, kept, kind, depth)


def _shared_set(keys: np.ndarray, n_players: int) -> bool:
    """Whether two personal nodes share an information set (*keys* as in :class:`_Piece`; sorted
    in place when it must be)."""
    if len(keys) < 2:
        return False
    if keys.ndim == 2:
        key = np.lexsort((keys[:, 1], keys[:, 0]))
        return bool(((np.diff(keys[key, 0]) == 0) & (np.diff(keys[key, 1]) == 0)).any())
    if _rising_by_player(keys, n_players):
        return False
    keys.sort()
    return bool((keys[1:] == keys[:-1]).any())


def _rising_by_player(keys: np.ndarray, n_players: int) -> bool:
    """Whether each player's information sets (*keys*: set * n_players + player index) rise in
    file order, as kop and Gambit number them: then no set holds two nodes, without a sort."""
    if n_players > 4:
        return False
    player = keys % n_players
    return all(bool((np.diff(keys[player == j]) > 0).all()) for j in range(n_players))


def _unlabelled(b: np.ndarray, start: np.ndarray, length: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """Whether each action name (bytes ``b[start:start+length]``) is empty or its rank in digits."""
    digits = np.ones(len(rank), dtype=np.int64)
    top = int(rank.max()) if len(rank) else 0
    p = 10
    while p <= top:
        digits += rank >= p
        p *= 10
    out = length == 0
    cand = np.flatnonzero(length == digits)
    at, n, want = start[cand], digits[cand], rank[cand]
    value = np.zeros(len(cand), dtype=np.int64)
    good = np.ones(len(cand), dtype=bool)
    for d in range(int(n.max()) if len(cand) else 0):
        sel = np.flatnonzero(d < n)
        ch = b[at[sel] + d].astype(np.int64)
        good[sel] &= (ch >= 48) & (ch <= 57)
        value[sel] = value[sel] * 10 + ch - 48
    out[cand] = good & (value == want)
    return np.asarray(out)


_POW10 = 10.0 ** np.arange(_MAX_DIGITS + 1)
_POW10_INT = 10 ** np.arange(_MAX_DIGITS + 1, dtype=np.int64)


_DIGIT = np.zeros(256, dtype=np.int64)  # the value of each digit; 0 for every other byte
_DIGIT[48:58] = np.arange(10)


def _digit_values(skel: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The integers of the digits ``skel[s:e]`` for each s, e in *starts*, *ends* (at most
    :data:`_MAX_DIGITS` digits each, the byte before each not a digit), summed from the right:
    each position past a number's start reads the byte before it, which counts 0."""
    out = np.zeros(len(starts), dtype=np.int64)
    if not len(starts):
        return out
    floor = starts - 1
    at = ends - 1
    for k in range(int((ends - starts).max())):
        np.maximum(at, floor, out=at)
        out += np.take(_DIGIT, np.take(skel, at)) * _POW10_INT[k]
        at -= 1
    return out


def _by_length(rows: np.ndarray, lengths: np.ndarray) -> Iterator[tuple[int, np.ndarray]]:
    """*rows* grouped by their *lengths*: (length, the rows of that length) in turn."""
    if not len(rows):
        return
    widths = lengths[rows].astype(np.uint8)  # at most _MAX_CHARS: a radix sort
    rows = rows[np.argsort(widths, kind="stable")]
    counts = np.bincount(widths)
    at = 0
    for width in np.flatnonzero(counts).tolist():
        yield width, rows[at:at + counts[width]]
        at += int(counts[width])


def _numbers(skel: np.ndarray, starts: np.ndarray, ends: np.ndarray, n_special: np.ndarray
             ) -> _Numbers | None:
    """Values of the number tokens ``skel[starts[k]:ends[k]]``, and whether each is a plain
    integer, has a sign, is loose (a fraction or long: equal floats need not mean equal
    numbers), is long (more than :data:`_MAX_DIGITS` characters) and is long with digits other
    than 0 after its point (*n_special* counts the signs, points and slashes of each token; the
    other characters are digits).  None unless each is ``[+-]?(D+(.D*)?|.D+|D+/D+)`` (no fraction when long)
    of at most :data:`_MAX_CHARS` characters, with no zero denominator.

    A short value is the integer of its digits (exact in a float below 10^15) divided by a
    power of ten or by its denominator: one correctly rounded division, as ``float()`` of the
    exact value gives; a long one is ``float()`` of its text.
    """
    runs = len(starts)
    lengths = ends - starts
    values = np.zeros(runs)
    plain = n_special == 0
    signed = np.zeros(runs, dtype=bool)
    ratio = np.zeros(runs, dtype=bool)
    long = lengths > _MAX_DIGITS
    partial = np.zeros(runs, dtype=bool)
    if runs and int(lengths.max()) > _MAX_CHARS:
        return None
    first = skel[starts]
    sign_only = (n_special == 1) & ((first == 43) | (first == 45)) & (lengths > 1)  # [+-]D+
    for k, lo, hi in zip(np.flatnonzero(long).tolist(), starts[long].tolist(), ends[long].tolist()):
        tok = skel[lo:hi].tobytes()
        if not _DECIMAL.fullmatch(tok):
            return None
        values[k] = float(tok)
        plain[k] = False
        signed[k] = tok[:1] in (b"+", b"-")
        partial[k] = tok.partition(b".")[2].strip(b"0") != b""
    short = lengths <= _MAX_DIGITS
    sign_only &= short
    rows = np.flatnonzero((plain & short) | sign_only)  # digits, after a sign or not
    if len(rows):
        v = _digit_values(skel, starts[rows] + sign_only[rows], ends[rows]).astype(np.float64)
        np.negative(v, out=v, where=first[rows] == 45)
        values[rows] = v
    signed |= sign_only
    for width, rows in _by_length(np.flatnonzero(~plain & ~sign_only & short), lengths):
        ch = skel[starts[rows][:, None] + np.arange(width)]
        digit = ch <= 57
        digit &= ch >= 48
        dot = ch == 46
        sign = (ch == 43) | (ch == 45)
        if width > 1 and sign[:, 1:].any():
            return None  # a sign inside a number
        slash = ch == 47
        dots, slashes = dot.sum(axis=1), slash.sum(axis=1)
        if (dots + slashes).max() > 1:
            return None  # two points or slashes, or both
        power: np.ndarray = np.cumsum(digit[:, ::-1], axis=1)[:, ::-1] - digit  # the digits to the right of each
        below = np.where(slash, power, 0).sum(axis=1)  # the digits after the slash
        if (digit.sum(axis=1) == below).any() or ((slashes > 0) & (below == 0)).any():
            return None  # no digit (before the slash), or none after it
        lower = np.cumsum(slash, axis=1) > 0  # the slash and the denominator
        d = ch.astype(np.int64) - 48
        top = np.where(digit & ~lower, d * _POW10_INT[np.maximum(power - below[:, None], 0)], 0).sum(axis=1)
        denominator = np.where(digit & lower, d * _POW10_INT[power], 0).sum(axis=1)
        if ((slashes > 0) & (denominator == 0)).any():
            return None  # a zero denominator
        scale = np.where(dot, power, 0).sum(axis=1)  # the digits after the point
        v = top.astype(np.float64) / np.where(slashes > 0, denominator.astype(np.float64), _POW10[scale])
        neg = ch[:, 0] == 45
        v[neg] = -v[neg]
        values[rows] = v
        signed[rows] = sign[:, 0]
        ratio[rows] = slashes > 0
    return _Numbers(values, plain, signed, ratio | long, long, partial)


def _leaf_payoffs(outcome: np.ndarray, has_pays: np.ndarray, matrix: np.ndarray, loose: np.ndarray
                  ) -> np.ndarray | None:
    """Payoff rows of the terminal nodes (in file order): *matrix* holds the rows of those that
    give payoffs (whether each does: *has_pays*; whether a row has a fraction or long number:
    *loose*); the others take the rows of their outcome.  None for an outcome kop must word."""
    if (has_pays & (outcome == 0)).any():
        return None
    refer = ~has_pays & (outcome != 0)
    if not refer.any():
        numbers = outcome[has_pays]
        if (np.diff(numbers) > 0).all() or len(np.unique(numbers)) == len(numbers):
            return matrix  # each outcome defined once
    defined = np.flatnonzero(has_pays)
    if not len(defined):
        return None
    rows = matrix[defined]
    keys, first_def, inverse, count = np.unique(outcome[defined], return_index=True, return_inverse=True,
                                                return_counts=True)
    if loose[defined][count[inverse] > 1].any():
        return None  # an outcome defined twice with fractions or long numbers: equal floats need not
        # be equal numbers
    if not np.array_equal(rows, rows[first_def[inverse]]):
        return None  # an outcome defined again with other payoffs
    users = np.flatnonzero(refer)
    at = np.searchsorted(keys, outcome[users])
    at[at == len(keys)] = 0
    if not (keys[at] == outcome[users]).all() or (defined[first_def[at]] > users).any():
        return None  # an outcome used before its payoffs are given
    matrix[users] = rows[first_def[at]]
    return matrix


def _depths(arity: np.ndarray) -> np.ndarray:
    """Depth of each node in prefix order, from the number of children of each (a whole tree).

    Before node j, ``p_j`` children are still expected (``p_0 = 1``, ``p_m = 0``); j's subtree
    ends at the first k > j with ``p_k = p_j - 1``, and the depth of i counts the subtrees open
    at i.  Sorting the keys ``p_j (m + 1) + j`` puts each end right after its queries.
    """
    m = len(arity)
    span = m + 1
    keys = np.zeros(m + 1, dtype=np.int64)
    np.cumsum(arity, dtype=np.int64, out=keys[1:])
    idx = np.arange(m + 1, dtype=np.int64)
    keys -= idx
    keys += 1  # p_j
    if keys.max() < 2**15:  # small: a stable radix sort of p gives the keys in order
        small = keys.astype(np.int16)
        del keys, idx
        idx = np.argsort(small, kind="stable")
        keys = small[idx].astype(np.int64)
        del small
        keys *= span
        keys += idx
        del idx
    else:
        keys *= span
        keys += idx
        del idx
        keys.sort()
    ends = np.empty(m + 1, dtype=np.int32 if span < 2**31 else np.int64)
    block = 1 << 16
    for lo in range(0, m + 1, block):  # in blocks: the temporaries stay small
        q = keys[lo:lo + block] - span
        ends[lo:lo + block] = keys[np.searchsorted(keys, q, side="right")] % span
    del keys, q
    closed = np.bincount(ends, minlength=m + 1)[:m]
    del ends
    np.cumsum(closed, out=closed)
    np.subtract(np.arange(m, dtype=np.int64), closed, out=closed)
    return closed.astype(np.int16 if m and closed.max() < 2**15 else np.int32)
