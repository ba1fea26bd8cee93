"""OpenSpiel games with information sets (issue 27): every history, sets and states, the game model."""

import pytest

pyspiel = pytest.importorskip("pyspiel")

import kop  # noqa: E402
from kop.errors import LimitError  # noqa: E402
from kop.games.imperfect.reference import histories, knowledge_reference  # noqa: E402

SMALL = ["kuhn_poker", "liars_dice(dice_sides=2)", "goofspiel(num_cards=3)", "kuhn_poker(players=3)"]


def _state(game, node):
    s = game.new_initial_state()
    for a in node:
        s = s.child(a)
    return s


@pytest.mark.parametrize("name", SMALL)
def test_sets_and_states_are_openspiels(name):
    g = kop.game_from_openspiel(name)
    raw = pyspiel.load_game(name)
    if raw.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        raw = pyspiel.convert_to_turn_based(raw)
    assert len(set(g.histories)) == len(g)
    for i, h in enumerate(g.histories):
        s = _state(raw, h)
        assert g.node_of(s) == i
        k = int(g.tree.kind[i])
        if k >= 0:
            assert s.current_player() == k
            assert g.set_of(i).label == s.information_state_string(k)
        for j, p in enumerate(g.players):   # equal states <=> equal information state strings
            same = [x for x in range(len(g)) if g.states[p][x] == g.states[p][i]]
            for x in same[:5]:
                assert _state(raw, g.histories[x]).information_state_string(j) == s.information_state_string(j)
        if s.is_terminal():
            assert list(g.tree.node(i).payoff) == pytest.approx(s.returns())


@pytest.mark.parametrize("name", SMALL[:2])
def test_knowledge_everywhere_matches_brute_force(name):
    g = kop.game_from_openspiel(name)
    m = kop.game_model(g)
    atoms = sorted(a for a in m.atoms if a.startswith(("chance_", "move_")))
    assert atoms
    for p in g.players:
        for atom in atoms:
            word = atom.split("_", 1)[1]

            def pred(path, node, word=word, kind=atom.split("_", 1)[0]):
                return any((who == "chance") == (kind == "chance") and
                           kop.games.imperfect.epistemic.atom_word(g.action_name(g.tree.offsets[n] + r)) == word
                           for n, r, who in path)
            ref = knowledge_reference(g, p, pred, states=True)
            mask = m.truth_mask(f"K_{p} {atom}")
            assert {x: bool(mask[x]) for x in ref} == ref
        truth = {x: pred(path, x) for x, path in histories(g)}
        assert all(ref[x] == all(truth[y] for y in g.cell(p, x)) for x in ref)


def test_kuhn_knowledge():
    g = kop.game_from_openspiel("kuhn_poker")
    m = kop.game_model(g)
    raw = pyspiel.load_game("kuhn_poker")
    w = g.node_of(raw.new_initial_state().child(2).child(0))   # P0 holds the king, P1 the jack
    assert m.satisfies("K_P0 chance_Deal_2", f"w{w}") and not m.satisfies("K_P1 chance_Deal_2", f"w{w}")
    assert m.satisfies("K_P1 chance_Deal_0", f"w{w}")
    assert kop.perfect_recall(g) and all(kop.recall_report(g, p).perfect_recall for p in g.players)
    # after P0 passes it is P1's turn: P0's information state still hides P1's jack; P0's information
    # sets say nothing about P1's nodes (a cell of its own there)
    w1 = g.node_of(raw.new_initial_state().child(2).child(0).child(0))
    assert not m.satisfies("K_P0 chance_Deal_0", f"w{w1}") and not m.satisfies("K_P0 chance_Deal_0", f"w{w}")
    sets_model = kop.game_model(g, knowledge="sets")
    assert sets_model.satisfies("K_P0 chance_Deal_0", f"w{w1}") and not sets_model.satisfies("K_P0 chance_Deal_0", f"w{w}")


def test_leduc_model_and_limit():
    g = kop.game_from_openspiel("leduc_poker")
    assert (len(g), len(g.sets)) == (9457, 936)
    m = kop.game_model(g)
    assert m.truth_mask("turn_P0 -> K_P0 turn_P0").all()
    assert kop.perfect_recall(g)
    with pytest.raises(LimitError, match="more than 100 histories"):
        kop.game_from_openspiel("leduc_poker", max_nodes=100)


def test_histories_enumerated():
    g = kop.game_from_openspiel("kuhn_poker")
    assert sum(1 for _ in histories(g)) == len(g) == 58
