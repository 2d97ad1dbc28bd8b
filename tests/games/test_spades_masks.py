"""The engine's masks (what a search reads) agree with its lists and its views, move by move."""

from __future__ import annotations

from p2pcards.games import TERMINAL, load
from p2pcards.games.playout import fulfil_from
from p2pcards.games.rng import Rng
from p2pcards.games.spades.state import SpadesState, cards_of, mask_of


def test_the_masks_follow_the_hand() -> None:
    rules = load("spades")
    rng = Rng("masks")
    for hand in range(30):
        state = rules.new_hand({"dealer": hand % 4})
        assert isinstance(state, SpadesState)
        deck = list(range(52))
        rng.shuffle(deck)
        fulfil_from(state, deck)
        while state.to_act != TERMINAL:
            legal = state.legal_actions()
            if state.phase_name == "play":
                assert cards_of(state.legal_mask()) == tuple(legal)
            else:
                assert state.legal_mask() == 0
            copy = state.clone()
            for seat in range(4):
                assert cards_of(state.hmask[seat]) == state.held(seat)
                view = state.view(seat)
                assert mask_of(view.hand) == state.hmask[seat]
                assert [sum(1 << s for s in v) for v in view.voids] == state.vmask
            action = rng.choice(legal)
            state.apply(action)
            if copy.to_act >= 0 and action < 52:
                assert copy.hmask[copy.to_act] == state.hmask[copy.to_act] | 1 << action  # a clone is apart
        assert state.legal_mask() == 0
