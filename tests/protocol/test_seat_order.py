"""GAMES §1.8: seats sit clockwise in ascending order; "from the dealer's left" is dealer + 1, + 2, …"""

from p2pcards import games


def test_durak_deals_from_the_dealers_left_the_dealer_last_skipping_a_seat_away() -> None:
    rules = games.load("durak", players=4)
    hand = rules.new_match(2).without(0).new_hand()
    need = hand.need
    assert isinstance(need, games.Deal)
    assert [seat for seat, _ in need.hands] == [3, 1, 2]  # 3, (0 away), 1, the dealer 2 last
    assert need.hands[0][1][:2] == (0, 3)  # position k goes to ring[k mod m]


def test_spades_gives_position_0_to_the_dealers_left_and_bids_clockwise() -> None:
    rules = games.load("spades")
    hand = rules.new_match(1).new_hand()
    need = hand.need
    assert isinstance(need, games.Deal)
    first = {seat: positions[0] for seat, positions in need.hands}
    assert first == {2: 0, 3: 1, 0: 2, 1: 3}
    hand.fulfil({p: p for p in range(52)})  # position p holds card p
    bidders = []
    for _ in range(4):
        bidders.append(hand.to_act)
        hand.apply_text("bid 1")
    assert bidders == [2, 3, 0, 1]
