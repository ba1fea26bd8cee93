"""StrategyName: one value per strategy or search name; one registry; one result shape."""

from __future__ import annotations

import importlib.util

import pytest
from hypothesis import given
from hypothesis import strategies as st

import kop
from kop.games.names import MAX_D, SEARCH_NAMES, StrategyName
from kop.games.result import Result
from kop.games.strategies.reference import ref_hm0m, ref_mh, ref_minimax, ref_mstar

_PLAIN = ["minimax", "alphabeta", "Mh", "PrOM", "PrOM-Bayes", *SEARCH_NAMES]


def names() -> st.SearchStrategy[StrategyName]:
    """Every kind of name: the plain ones and M<d>, HM0M<d> over the whole range of d."""
    return st.one_of(st.sampled_from(_PLAIN).map(StrategyName),
                     st.builds(StrategyName, st.sampled_from(["M", "HM0M"]), st.integers(0, MAX_D)))


def spellings(name: StrategyName) -> st.SearchStrategy[str]:
    """Ways a user may write *name*: any letter case, spaces around it."""
    text = str(name)
    return st.tuples(st.lists(st.booleans(), min_size=len(text), max_size=len(text)),
                     st.sampled_from(["", " ", "\t"]), st.sampled_from(["", " ", "\n"])).map(
        lambda t: t[1] + "".join(c.upper() if up else c.lower() for c, up in zip(text, t[0])) + t[2])


@given(names())
def test_the_canonical_name_reads_back_and_repr_rebuilds(name: StrategyName) -> None:
    assert StrategyName.parse(str(name)) == name
    assert eval(repr(name), {"StrategyName": StrategyName}) == name
    assert hash(StrategyName.parse(str(name))) == hash(name)


@given(names().flatmap(lambda n: st.tuples(st.just(n), spellings(n))))
def test_case_and_spaces_do_not_matter(pair: tuple[StrategyName, str]) -> None:
    name, text = pair
    assert StrategyName.parse(text) == name


@given(st.text(max_size=12))
def test_parse_accepts_exactly_the_listed_names(text: str) -> None:
    """The reference: a name is one of the plain names, M<d> or HM0M<d> (d a decimal up to MAX_D) or an alias."""
    key = text.strip().lower()
    aliases = {"max^n", "lower-eval", "lowereval", "branch-and-bound", "bimodal_unimodal", "bimodal-unimodal",
               "star-1", "star-2", "pure_substructure", "prom_bayes"}
    plain = {n.lower() for n in _PLAIN} | aliases
    digits = None
    for prefix in ("hm0m", "m"):
        rest = key[len(prefix):]
        if key.startswith(prefix) and rest and rest.isascii() and rest.isdigit():
            digits = int(rest)
            break
    expected = key in plain or (digits is not None and digits <= MAX_D)
    try:
        StrategyName.parse(text)
        ok = True
    except kop.KopError:
        ok = False
    assert ok == expected, text


def test_families_and_constructors() -> None:
    assert StrategyName.parse("Mh").family == "kop" and StrategyName.parse("prom").family == "prom"
    assert StrategyName.parse("max^n") == StrategyName("maxn") and StrategyName("maxn").family == "bodkin"
    assert StrategyName.mstar(3) == StrategyName.parse("M3") and StrategyName.hm0m(0) == StrategyName.parse("hm0m0")
    with pytest.raises(kop.KopError, match="unknown strategy 'maxn'"):
        StrategyName.parse("maxn", "kop")
    with pytest.raises(kop.KopError, match="above kop's limit"):
        StrategyName.parse(f"M{MAX_D + 1}")
    for bad in (("M",), ("Mh", 2), ("nonsense",), ("HM0M", -1), ("M", True)):
        with pytest.raises(kop.KopError):
            StrategyName(*bad)


def test_one_registry() -> None:
    assert importlib.util.find_spec("kop.games.searches") is None
    t = kop.figure2()
    for text in ("minimax", "alphabeta", "M0", "M2", "Mh", "HM0M1"):
        assert kop.strategy(t, text, "A").value == kop.strategy(t, StrategyName.parse(text), "A").value
        assert kop.search(t, text, player="A").value == kop.strategy(t, text, "A").value
    assert kop.search(t, "max^n").value == kop.search(t, StrategyName("maxn")).value


def test_every_result_has_the_same_shape() -> None:
    t = kop.figure2()
    results = [kop.minimax(t, "A"), kop.alphabeta(t, "A"), kop.mh(t), kop.mstar(t, 2, "A"), kop.hm0m(t, 1, "A"),
               ref_minimax(t, "A"), ref_mh(t), ref_mstar(t, 2, "A"), ref_hm0m(t, 1, "A"),
               kop.search(t, "M2", player="A"), kop.search(kop.nim(), "alphabeta")]
    for r in results:
        assert isinstance(r, Result), r
        assert len(r.value) == 2 and r.nodes >= 1
    for s in results[:9]:
        assert s.move == s.next() and s.path[0] == t.root and s.path[1] == s.move  # type: ignore[attr-defined]
        assert s.value == s.value_at(s.path[-1])  # type: ignore[attr-defined]
        assert s.path_from(s.move) == s.path[1:]  # type: ignore[attr-defined]
    r = kop.search(t, "M2", player="A")
    assert r.path == r.pv and r.value == kop.mstar(t, 2, "A").value
