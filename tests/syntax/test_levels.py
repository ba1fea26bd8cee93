"""The levels of knowledge f(P, d): the table of SPEC §2.5 for d = 0..6."""

import pytest

from kop import f_level, chain, parse

TABLE_A = {
    0: ["K_A E_A", "K_A S_A"],
    1: ["K_A E_B"],
    2: ["K_A K_B E_A"],
    3: ["K_A K_B K_A E_B"],
    4: ["K_A K_B K_A K_B E_A"],
    5: ["K_A K_B K_A K_B K_A E_B"],
    6: ["K_A K_B K_A K_B K_A K_B E_A"],
}


@pytest.mark.parametrize("d", range(7))
def test_f_table(d):
    expected = [parse(t) for i in range(d + 1) for t in TABLE_A[i]]
    assert list(f_level("A", "B", d)) == expected


@pytest.mark.parametrize("d", range(1, 7))
def test_chain_alternates_and_ends_right(d):
    c = chain("A", "B", d)
    assert c.modal_depth() == d
    agents = []
    g = c
    while g.__class__.__name__ == "Know":
        agents.append(g.agent)
        g = g.arg
    assert agents == ["A" if i % 2 == 0 else "B" for i in range(d)]
    assert g == parse("E_B" if d % 2 else "E_A")


def test_levels_are_nested_and_symmetric():
    for d in range(1, 7):
        assert set(f_level("A", "B", d - 1)) < set(f_level("A", "B", d))
    assert list(f_level("B", "A", 2)) == [parse(t) for t in ["K_B E_B", "K_B S_B", "K_B E_A", "K_B K_A E_B"]]


def test_negative_level_is_an_error():
    with pytest.raises(ValueError):
        f_level("A", "B", -1)


def _chain_by_definition(player, opponent, d):
    """Formula (4), written out: d operators alternating P, Q, P, ... over E_Q (d odd) or E_P (d even)."""
    from kop.syntax.formula import Atom, Know

    if d == 0:
        return Know(player, Atom(f"E_{player}"))
    f = Atom(f"E_{opponent}" if d % 2 else f"E_{player}")
    for i in reversed(range(d)):
        f = Know(player if i % 2 == 0 else opponent, f)
    return f


@pytest.mark.parametrize("player, opponent", [("A", "B"), ("B", "A"), ("Ann", "bob")])
def test_f_level_is_its_chains(player, opponent):
    """f(P, d) shares its inner chains and is remembered; it must still be K_P E_P, K_P S_P and the
    chains of formula (4) for i = 1..d, built here from the definition."""
    from kop.syntax.formula import Atom, Know

    for d in range(0, 40):
        expected = (Know(player, Atom(f"E_{player}")), Know(player, Atom(f"S_{player}"))) + tuple(
            _chain_by_definition(player, opponent, i) for i in range(1, d + 1))
        assert f_level(player, opponent, d) == expected
        assert chain(player, opponent, d) == _chain_by_definition(player, opponent, d)
