"""Russian cards, deal 012|345|6: 102 safe announcements (60 of 5 hands, 36 of 6, 6 of 7).

What is counted: Alice's candidate announcements are all sets of 5, 6 or 7
three-card hands in which no two hands share two cards (1290 sets; 192 contain
her hand 012).  An announcement is safe when, at the actual deal, it is true
and afterwards (1) Bob knows Alice's hand, (2) Alice and Bob commonly know
that, (3) all three commonly know that Cath knows no card's owner, and after
Bob then announces "Cath holds 6", (4) Alice and Bob commonly know each
other's hands and (5) all three commonly know Cath still knows no card's owner
(SMCDEL's checkSet).  The count is checked against set arithmetic on the 140
deals, independent of the model checker.
"""

from __future__ import annotations

from itertools import combinations

from kop.puzzles import russian_cards as rc

CARDS = frozenset(range(7))
HANDS = [frozenset(h) for h in combinations(range(7), 3)]
DEALS = [(a, b, CARDS - a - b) for a in HANDS for b in HANDS if not a & b]
ACTUAL = (frozenset({0, 1, 2}), frozenset({3, 4, 5}), frozenset({6}))


def _block(ws, who, w):
    return [v for v in ws if v[who] == w[who]]


def _reach(ws, group, w):
    seen, todo = {w}, [w]
    while todo:
        u = todo.pop()
        for g in group:
            for v in _block(ws, g, u):
                if v not in seen:
                    seen.add(v)
                    todo.append(v)
    return seen


def _knows_hand(ws, knower, owner, w):
    return len({v[owner] for v in _block(ws, knower, w)}) == 1


def _cath_ignorant(ws, w):
    bl = _block(ws, 2, w)
    return not any(all(q in v[0] for v in bl) or all(q in v[1] for v in bl) for q in range(7))


def reference_safe(hands) -> bool:
    hands = {frozenset(h) for h in hands}
    if ACTUAL[0] not in hands:
        return False
    ws = [d for d in DEALS if d[0] in hands]
    if not all(_knows_hand(ws, 1, 0, v) for v in _reach(ws, (0, 1), ACTUAL)):
        return False
    if not all(_cath_ignorant(ws, v) for v in _reach(ws, (0, 1, 2), ACTUAL)):
        return False
    ws2 = [w for w in ws if all(6 in v[2] for v in _block(ws, 1, w))]
    if ACTUAL not in ws2:
        return False
    if not all(_knows_hand(ws2, 1, 0, v) and _knows_hand(ws2, 0, 1, v) for v in _reach(ws2, (0, 1), ACTUAL)):
        return False
    return all(_cath_ignorant(ws2, v) for v in _reach(ws2, (0, 1, 2), ACTUAL))


def test_model_has_140_deals():
    m = rc.model()
    assert len(m) == len(DEALS) == 140
    assert m.satisfies("K_Alice (a0 & a1 & a2) & K_Bob (b3 & b4 & b5) & K_Cath c6")


def test_safe_announcement_count():
    r = rc.solve()
    assert r.candidates == 1290
    assert r.with_actual_hand == 192
    assert len(r.safe) == 102
    assert r.safe_by_size == {5: 60, 6: 36, 7: 6}
    assert all(rc.DEAL[0] in hs for hs in r.safe)


def test_matches_set_arithmetic_on_every_candidate():
    r = rc.solve()
    expected = tuple(hs for hs in rc.hand_lists() if reference_safe(hs))
    assert r.safe == expected


def test_the_classic_solution_is_safe_and_a_bad_one_is_not():
    m = rc.model()
    classic = [(0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (2, 4, 6)]
    assert rc.is_safe(classic, m)
    assert all(m.satisfies(phi) for phi in rc.conditions(classic))
    # changing the last hand to 146 breaks only condition 4: Cath's ignorance is no longer
    # common knowledge after Alice's announcement
    unsafe = [(0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (1, 4, 6)]
    assert [m.satisfies(phi) for phi in rc.conditions(unsafe)] == [True, True, True, False, True, True]
    assert not rc.is_safe(unsafe, m)
    assert not reference_safe(unsafe)


def test_every_unsafe_candidate_with_the_actual_hand_fails_cath_ignorance():
    m = rc.model()
    r = rc.solve()
    for hs in rc.hand_lists():
        if rc.DEAL[0] in hs and hs not in r.safe:
            assert not m.satisfies(rc.conditions(hs)[3])


def test_hand_lists_never_share_two_cards():
    for hs in rc.hand_lists():
        assert 5 <= len(hs) <= 7
        for h1, h2 in combinations(hs, 2):
            assert len(set(h1) & set(h2)) < 2
