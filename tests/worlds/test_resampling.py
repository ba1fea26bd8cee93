"""kop.check_resampling (issue 27 item 3): correct samplers pass, samplers that leave the cell or copy the hidden
state are caught with what they leaked; kop's exact sampler draws exactly the cells of the definition."""

from __future__ import annotations

import random

import pytest

import kop
from kop.worlds.resampling import cell_key

pyspiel = pytest.importorskip("pyspiel")

SMALL = ["kuhn_poker", "leduc_poker", "liars_dice(dice_sides=3)", "coordinated_mp",
         "turn_based_simultaneous_game(game=goofspiel(num_cards=3,imp_info=True,points_order=descending))"]


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_openspiel_resamples_kuhn_and_leduc_inside_the_cell(name):
    r = kop.check_resampling(name, histories=100)
    assert r.violations == 0 and r.first is None and r.checks > 100 and r.samples == r.checks * 24


@pytest.mark.parametrize("name", SMALL)
def test_kops_exact_sampler_stays_in_the_cell(name):
    r = kop.check_resampling(name, sampler="exact", histories=40)
    assert r.violations == 0, r.first


def _reference_groups(name):
    """From the definition: player -> information state -> the histories (where someone moves) that have it."""
    game = pyspiel.load_game(name)
    out = {}

    def walk(s):
        if s.is_terminal():
            return
        if s.is_chance_node():
            for a, p in s.chance_outcomes():
                walk(s.child(a))
            return
        for p in range(2):
            out.setdefault((p, s.information_state_string(p)), set()).add(tuple(s.history()))
        for a in s.legal_actions():
            walk(s.child(a))

    walk(game.new_initial_state())
    return out


@pytest.mark.parametrize("name", ["kuhn_poker", "liars_dice(dice_sides=3)"])
def test_exact_sampler_draws_every_history_of_the_cell_and_nothing_else(name):
    groups = _reference_groups(name)
    game = pyspiel.load_game(name)
    draw = kop.exact_sampler(game)
    rng = random.Random(0)
    for (p, key), cell in sorted(groups.items())[:60]:
        h = sorted(cell)[0]
        s = game.new_initial_state()
        for a in h:
            s.apply_action(a)
        seen = {tuple(draw(s, p, rng).history()) for _ in range(40 * len(cell))}
        assert seen == cell


def test_a_sampler_that_copies_the_true_state_is_caught_with_the_opponents_card():
    r = kop.check_resampling("kuhn_poker", sampler=lambda s, p, rng: s.clone(), histories=10)
    assert r.kinds.get("copied", 0) > 0 and r.kinds.get("outside", 0) == 0
    f = r.first
    assert f.kind == "copied" and f.history != f.sample and len(f.history) == len(f.sample)
    # the leaked position is the opponent's card: player 0's card is position 0, player 1's position 1
    assert f"at position {1 - f.player}" in f.leaked and "Deal:" in f.leaked


def test_a_sampler_that_copies_for_one_player_only_is_caught_for_that_player():
    def half(s, p, rng):
        return s.clone() if p == 1 else s.resample_from_infostate(p, rng.random)

    r = kop.check_resampling("leduc_poker", sampler=half, histories=30)
    assert r.violations > 0 and r.first.player == 1 and r.first.kind == "copied"
    assert kop.check_resampling("leduc_poker", player=0, sampler=half, histories=30).violations == 0


def test_a_sampler_that_leaves_the_cell_is_caught_with_the_information_state_it_changed():
    def swap_own_card(s, p, rng):     # deals player p another card: p would know
        g = s.get_game()
        h = list(s.history())
        h[p] = next(c for c in range(3) if c not in h[:2])
        out = g.new_initial_state()
        for a in h:
            out.apply_action(a)
        return out

    r = kop.check_resampling("kuhn_poker", sampler=swap_own_card, histories=5)
    assert r.first.kind == "outside" and r.kinds["outside"] == r.checks
    assert "information state differs" in r.first.leaked
    game = pyspiel.load_game("kuhn_poker")
    true, sample = game.new_initial_state(), game.new_initial_state()
    for a in r.first.history:
        true.apply_action(a)
    for a in r.first.sample:
        sample.apply_action(a)
    assert cell_key(sample, r.first.player) != cell_key(true, r.first.player)   # a real history, outside the cell


def test_bad_arguments():
    with pytest.raises(kop.KopError, match="sampler"):
        kop.check_resampling("kuhn_poker", sampler="mine")
    with pytest.raises(kop.KopError, match="histories"):
        kop.check_resampling("kuhn_poker", histories=0)
    with pytest.raises(kop.KopError, match="player"):
        kop.check_resampling("kuhn_poker", player=2)


def test_cpu_limit_stops_early_and_says_how_many_histories():
    r = kop.check_resampling("leduc_poker", histories=10_000, cpu_limit=0.2)
    assert 1 <= r.histories < 10_000


@pytest.mark.slow
def test_installed_openspiel_gin_rummy_still_copies_hands():
    """google-deepmind/open_spiel#1613 (open): gin rummy's resampling returns the true hands in the knock/layoff
    phases; found with OpenSpiel's own sampler (about 30 s of CPU)."""
    r = kop.check_resampling("gin_rummy", histories=60, draws=4)
    assert r.kinds.get("copied", 0) > 0 and "instead of" in r.first.leaked
