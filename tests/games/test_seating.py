"""The game goes on without a seat (DESIGN "Faults, finality and the game going on"; issue 12).

Every game's ``Match`` has the same seating contract: ``seated``, ``dummies``, ``without``,
``with_seat``, ``void_hand``, ``abandon`` and ``standings``.
"""

from __future__ import annotations

from typing import Any

import pytest

from p2pcards import games
from p2pcards.games import CHANCE, TERMINAL, Deal, GameError, Match
from p2pcards.games.azi import AziMatch, AziRules
from p2pcards.games.base import canonical
from p2pcards.games.durak import DurakMatch, DurakState
from p2pcards.games.durak.config import DurakConfig
from p2pcards.games.playout import fulfil_from, random_hand
from p2pcards.games.rng import Rng
from p2pcards.games.spades import SpadesMatch
from p2pcards.games.spades.config import SpadesConfig

# ----------------------------------------------------------------------------- every game


@pytest.mark.parametrize(("game", "options"), [("durak", {"players": 4, "series_hands": 5}), ("spades", {}),
                                               ("azi", {"players": 4})])
def test_every_match_answers_the_seating_questions_and_is_immutable(game: str,
                                                                     options: dict[str, Any]) -> None:
    rules = games.load(game, **options)
    m: Match = rules.new_match(0)
    assert m.seated == (0, 1, 2, 3) and m.dummies == () and not m.abandoned and not m.over
    before = m.standings()
    away = m.without(1)
    assert m.seated == (0, 1, 2, 3) and m.standings() == before  # the old match is untouched
    if game == "spades":
        assert away.seated == (0, 1, 2, 3) and away.dummies == (1,)
    else:
        assert away.seated == (0, 2, 3) and away.dummies == ()
    assert away.with_seat(1).seated == (0, 1, 2, 3) and away.with_seat(1).dummies == ()
    gone = m.abandon()
    assert gone.over and gone.abandoned and [s.score for s in gone.standings().seats] == [
        s.score for s in before.seats]
    with pytest.raises(GameError):
        m.without(4)
    with pytest.raises(GameError):
        m.without(True)


@pytest.mark.parametrize(("game", "options"), [("durak", {"players": 3, "series_hands": 4}), ("spades", {}),
                                               ("azi", {"players": 3})])
def test_standings_have_a_canonical_encoding(game: str, options: dict[str, Any]) -> None:
    rules = games.load(game, **options)
    m = rules.new_match(1)
    m = m.settle(random_hand(m.new_hand(), Rng(4)))
    a, b = m.standings(), m.without(2).standings()
    assert canonical(a.encode()) == canonical(m.standings().encode()) and a.digest() == m.standings().digest()
    assert a.digest() != b.digest()  # a seat's status is part of what is signed
    assert len(a.seats) == rules.players and [s.seat for s in a.seats] == list(range(rules.players))
    assert a.hands_played == 1 and [s.score for s in a.ranking()] == sorted((s.score for s in a.seats),
                                                                            reverse=True)


@pytest.mark.parametrize(("game", "options"), [("durak", {"players": 4, "series_hands": 5}), ("spades", {}),
                                               ("azi", {"players": 4})])
def test_a_void_hand_counts_for_nothing_and_its_dealer_deals_again(game: str,
                                                                    options: dict[str, Any]) -> None:
    rules = games.load(game, **options)
    m = rules.new_match(2)
    first = m.new_hand()
    random_hand(first.clone(), Rng(1))  # played, then voided: nothing of it is settled
    v = m.void_hand()
    assert v.standings().seats == m.standings().seats and v.standings().hands_played == 0
    nxt = v.new_hand()
    assert dict(nxt.setup)["dealer"] == 2 and dict(nxt.setup)["voided"] == 1
    assert dict(nxt.setup).get("hand", 0) == dict(first.setup).get("hand", 0)
    assert nxt.digest() != first.digest()  # the hand dealt again is another hand
    v.settle(random_hand(nxt, Rng(2)))


# ----------------------------------------------------------------------------- Durak


def test_durak_without_a_seat_deals_the_others_by_the_subset_layout() -> None:
    rules = games.load("durak", players=5, series_hands=3)
    m = rules.new_match(2).without(3)
    st = m.new_hand()
    assert isinstance(st, DurakState)
    assert st.setup == (("dealer", 2), ("hand", 0), ("seats", (0, 1, 2, 4)))
    need = st.need
    assert isinstance(need, Deal)
    # ring: the playing seats clockwise from the dealer's left, the dealer last; position k to ring[k % 4]
    assert need.hands == ((4, tuple(range(0, 24, 4))), (0, tuple(range(1, 24, 4))),
                          (1, tuple(range(2, 24, 4))), (2, tuple(range(3, 24, 4))))
    assert st.trump_pos == 24  # 6m with m = 4
    deck = list(rules.deck)
    Rng(9).shuffle(deck)
    fulfil_from(st, deck)
    assert st.talon[0] == 24 and sorted(st.talon) == list(range(24, 36))
    rng = Rng(3)
    while st.to_act != TERMINAL:
        if st.to_act == CHANCE:
            fulfil_from(st, deck)
        else:
            assert st.to_act != 3  # the seat away is never asked
            st.apply(rng.choice(st.legal_actions()))
    assert st.hands[3] == [] and st.result is not None and st.result.playing == (0, 1, 2, 4)
    after = m.settle(st)
    assert isinstance(after, DurakMatch)
    assert after.scores[3] == 0 and after.standings().seats[3].status == "away"
    assert after.hands_played == 1


def test_durak_with_every_seat_playing_the_layout_is_the_old_one() -> None:
    rules = games.load("durak", players=4)
    need = rules.new_hand({"dealer": 1}).need
    assert isinstance(need, Deal)
    assert need.hands == tuple(((1 + 1 + i) % 4, tuple(range(i, 24, 4))) for i in range(4))


def test_durak_a_durak_who_left_does_not_deal_the_next_seat_clockwise_does() -> None:
    rules = games.load("durak", players=4, series_hands=5)
    assert isinstance(rules, DurakConfig)
    m = DurakMatch(rules, 2, hands_played=1)
    assert m.without(2).dealer == 3 and m.without(2).without(3).dealer == 0
    assert m.without(2).new_hand().dealer == 3


def test_durak_fewer_than_two_seats_end_the_series() -> None:
    rules = games.load("durak", players=3, series_hands=9)
    m = rules.new_match(0).without(0).without(1)
    assert m.over and m.seated == (2,) and "fewer than two" in m.summary()
    with pytest.raises(GameError):
        m.new_hand()


# ----------------------------------------------------------------------------- Spades


def test_spades_a_seat_that_left_becomes_an_open_dummy_and_its_team_keeps_its_score() -> None:
    rules = games.load("spades")
    assert isinstance(rules, SpadesConfig)
    m = SpadesMatch(rules, 0, dealer=1, scores=(120, -40), bags=(3, 1), hands_played=4)
    d = m.without(3)
    st = d.new_hand()
    assert dict(st.setup)["dummies"] == (3,) and d.scores == (120, -40)
    rows = d.standings().seats
    assert [(r.score, r.team, r.status) for r in rows] == [
        (120, 0, "playing"), (-40, 1, "playing"), (120, 0, "playing"), (-40, 1, "dummy")]
    assert dict(d.standings().extra) == {"bags 0": 3, "bags 1": 1}
    assert not d.without(1).over and d.without(1).without(0).over  # every seat but one a dummy
    assert d.with_seat(3).new_hand().setup == m.new_hand().setup


# ----------------------------------------------------------------------------- Azi


def test_azi_a_free_seat_that_leaves_an_azi_pot_leaves_its_stake_in_it() -> None:
    rules = games.load("azi", players=4)
    assert isinstance(rules, AziRules)
    m = AziMatch(rules, (900, 900, 900, 1000), 2, hand_number=1, carried=(60, 60, 60, 0),
                 free=(0, 1, 2), azi=1)
    left = m.without(1)
    assert left.free == (0, 2) and left.carried == (60, 60, 60, 0) and left.pot == 180
    st = left.new_hand()
    assert dict(st.setup)["seats"] == (0, 2, 3) and st.inhand == [True, False, True, False]
    assert st.queue == (3,)  # seat 3 may buy in; seat 1, away, is not asked
    # a free seat left alone wins the carried pot at once, as when everybody else folds (A8)
    alone = left.without(2)
    assert alone.pot == 0 and alone.chips == (1080, 900, 900, 1000) and alone.dealer == 0
    assert alone.hands_played == 1 and sum(alone.chips) + alone.pot == sum(m.chips) + m.pot


def test_azi_a_void_hand_puts_every_stack_back_and_carries_the_pot_again() -> None:
    rules = games.load("azi", players=3)
    assert isinstance(rules, AziRules)
    m = AziMatch(rules, (950, 950, 900), 0, hand_number=3, carried=(50, 50, 100), free=(0, 2), azi=1)
    v = m.void_hand()
    assert v.chips == m.chips and v.carried == m.carried and v.free == m.free and v.dealer == 0
    assert dict(v.new_hand().setup)["voided"] == 1 and dict(v.new_hand().setup)["hand"] == 3
    gone = m.abandon()
    assert gone.abandoned and gone.pot == 0 and gone.chips == (1000, 1000, 1000)
