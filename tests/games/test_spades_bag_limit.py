"""Rule S13 at its edge: the tenth bag, not the eleventh, costs 100 points, and the count starts again
from nothing."""

from __future__ import annotations

from p2pcards.games.spades.scoring import score_hand


def test_the_bag_that_makes_ten_costs_100_and_leaves_none():
    # Team 0 (seats 0 and 2) bids 2 and takes 3: one bag on top of nine.
    t0, t1 = score_hand((1, 1, 1, 1), (3, 5, 0, 5), bags=(9, 0), scores=(200, 0))
    assert t0.bags_taken == 1 and t0.bag_penalty == -100 and t0.bags == 0
    assert t0.points == 21 - 100 and t0.score == 121
    # Nine bags are no penalty yet: team 1 took eight, on top of one.
    t0, t1 = score_hand((1, 1, 1, 1), (3, 5, 0, 5), bags=(0, 1))
    assert t1.bags_taken == 8 and t1.bag_penalty == 0 and t1.bags == 9


def test_twenty_bags_cost_200_and_leave_none():
    t0, _ = score_hand((0, 0, 0, 0), (13, 0, 0, 0), bags=(7, 0))
    assert t0.bags_taken == 13 and t0.bag_penalty == -200 and t0.bags == 0
