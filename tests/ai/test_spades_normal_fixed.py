"""Normal's and Easy's decisions are fixed: every action of many whole hands, hashed, must stay the same
(Normal is Hard's rollout policy, and Normal against Easy is a measured result)."""

from __future__ import annotations

import hashlib

import pytest

from p2pcards.ai import player
from p2pcards.games import TERMINAL, load
from p2pcards.games.playout import fulfil_from
from p2pcards.games.rng import Rng
from p2pcards.games.spades import dummy

DEALS = 60


def decisions(failed_nil: str, levels: tuple[str, str], dummies: tuple[int, ...] = ()) -> str:
    """The hash of every action of ``DEALS`` hands (seats alternate between the two levels; an open
    dummy plays by ``dummy.choose``), with bags carried into some of them."""
    rules = load("spades", failed_nil_tricks=failed_nil)
    rng = Rng(f"golden/{failed_nil}/{levels}/{dummies}")
    h = hashlib.sha256()
    for d in range(DEALS):
        players = [player(rules, levels[s % 2], seed=s) for s in range(4)]
        setup: dict[str, object] = {"dealer": d % 4, "bags": (d % 10, (3 * d) % 10)}
        if dummies:
            setup["dummies"] = dummies
        state = rules.new_hand(setup)
        deck = list(range(52))
        rng.shuffle(deck)
        fulfil_from(state, deck)
        while state.to_act != TERMINAL:
            seat = state.to_act
            view = state.view(seat)
            action = dummy.choose(view) if seat in dummies else players[seat].choose(view)
            h.update(bytes([action]))
            state.apply(action)
    return h.hexdigest()[:16]


@pytest.mark.parametrize(("failed_nil", "levels", "dummies", "expected"), [
    ("count", ("normal", "normal"), (), "049491a7d1e86986"),
    ("count", ("normal", "easy"), (), "df3c646a897ba911"),
    ("bags_only", ("normal", "normal"), (), "ea10bf86fcf77886"),
    ("bags_only", ("normal", "easy"), (), "9b5121c725301a1f"),
    ("ignored", ("normal", "normal"), (), "b1a5e485f1ff10b7"),
    ("ignored", ("easy", "normal"), (), "519c8c9a9c6aca2a"),
    ("count", ("normal", "easy"), (1,), "9394f5c3fd36255a"),
])
def test_normal_and_easy_decide_as_they_always_did(failed_nil: str, levels: tuple[str, str],
                                                   dummies: tuple[int, ...], expected: str) -> None:
    assert decisions(failed_nil, levels, dummies) == expected
