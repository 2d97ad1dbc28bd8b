"""Spades' blind nil through the real tables (S16-S18): at every step of a match each seat's replica
holds only what its seat may see, and the audit at the end of every hand passes."""

from __future__ import annotations

import pytest

from p2pcards.games import UNKNOWN, Disclose
from p2pcards.games.spades import SpadesMatch, SpadesState
from p2pcards.local import HandEnded, LocalRoom

# (dealer, seed, target): quick matches of Normal players in which a seat bids blind nil
MATCHES = [("mental", 7, 250), ("seeded", 6, 250)]


@pytest.mark.parametrize(("dealer", "seed", "target"), MATCHES)
def test_each_replica_sees_only_what_blind_nil_allows_and_every_hand_is_audited(dealer, seed, target):
    room = LocalRoom("spades", options={"blind_nil": "on", "target": target}, human=None, level="normal",
                     seed=seed, dealer=dealer)
    checked = {"face_down": 0, "shown": 0}

    def check(_event: object) -> None:
        for me, table in enumerate(room.tables):
            st = table.state
            if not isinstance(st, SpadesState) or st.phase_name == "deal":
                continue
            played = {c for _, c in st.moves if c < 52}
            mine = st.hand_positions(me)
            if st.face_down(me):
                # S16/S18: nobody gave this seat the shares of its own cards
                assert all(st.card_at[p] == UNKNOWN for p in mine)
                assert st.view(me).hand == ()
                checked["face_down"] += 1
            elif not (isinstance(st.need, Disclose) and st.need.seat == me):
                assert all(st.card_at[p] != UNKNOWN for p in mine)
                checked["shown"] += 1
            for other in range(4):
                if other != me:  # nobody ever sees another hand's cards before they are played
                    assert all(st.card_at[p] in (UNKNOWN, *played) for p in st.hand_positions(other))

    room.run(check)
    ended = [e for e in room.take_events() if isinstance(e, HandEnded)]
    assert room.over and room.fault is None
    assert ended and all(h.over.audit.ok for h in ended)
    match = room.tables[0].match
    assert isinstance(match, SpadesMatch)
    assert any(r.blind for r in match.results), "a seat bid blind nil"
    assert checked["face_down"] > 0 and checked["shown"] > 0
    assert len({t.digest() for t in room.tables}) == 1
