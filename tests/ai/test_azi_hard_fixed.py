"""Hard's decisions at a fixed budget are fixed: every action of whole Azi matches (Hard in one or two
seats against Normal), hashed, must stay the same.  The budget is in work units, so the hash holds on
any machine; it changes only when Hard's strategy (or what a unit is) changes."""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any

import pytest

from p2pcards.ai.azi import HardPlayer, NormalPlayer
from p2pcards.games import CHANCE, TERMINAL
from p2pcards.games.azi import actions as act
from p2pcards.games.playout import fulfil_from
from p2pcards.games.rng import Rng
from tests.games.test_azi_support import rules

HANDS = 40


def decisions(opts: dict[str, Any], hard: tuple[int, ...], budget: int) -> tuple[str, Counter[str]]:
    """The hash of every action of ``HANDS`` hands of one match (azi replays included), and a count of
    what happened in them (blind bets, raises, replays), to show what the hash covers."""
    r = rules(**opts)
    rng = Rng(f"azi-hard-fixed/{sorted(opts.items())}/{hard}/{budget}")
    seats = [HardPlayer(r, s, budget=budget) if s in hard else NormalPlayer(r, s) for s in range(r.n)]
    m = r.new_match(0)
    h = hashlib.sha256()
    seen: Counter[str] = Counter()
    for _ in range(HANDS):
        if m.over:
            break
        deck = list(r.deck)
        rng.shuffle(deck)
        st = m.new_hand()
        seen["hand"] += 1
        seen["replay"] += st.azi > 0
        while st.to_act != TERMINAL:
            if st.to_act == CHANCE:
                fulfil_from(st, deck)
                continue
            s = st.to_act
            a = seats[s].choose(st.view(s))
            seen["hard"] += s in hard
            if st.phase_name == "bidding" and act.is_amount(a):
                seen["blind bet" if st.blind[s] else ("raise" if act.is_raise(a) else "bet")] += 1
            h.update(f"{s}:{a};".encode())
            st.apply(a)
        m = m.settle(st)
    return h.hexdigest()[:16], seen


CASES: list[tuple[dict[str, Any], tuple[int, ...], int, str]] = [
    # 40 hands, 3 azi replays, 38 blind bets, 31 raises; since A16 was amended an all-in winner of
    # hand 20 takes only what it matched, so the stacks (and the bets) of the later hands changed
    ({"players": 4}, (0,), 3_000, "afc34ce84b5868d5"),
    # 21 hands (the match ends), 20 blind bets, 22 raises
    ({"players": 4}, (1, 3), 30_000, "0acbc39a43c28874"),
    ({"players": 3}, (2,), 30_000, "a71b9df0ffcd790d"),
    # four cards dealt, one discarded (A4)
    ({"players": 3, "deal": 4}, (0, 1), 3_000, "401f90cd15dfd860"),
    # 39 hands, one azi replay
    ({"players": 5, "ante": 5, "bankroll": 200}, (0, 2), 30_000, "51d5a7cd5875218a"),
]


@pytest.mark.parametrize(("opts", "hard", "budget", "expected"), CASES)
def test_hard_decides_as_it_always_did(opts: dict[str, Any], hard: tuple[int, ...], budget: int,
                                       expected: str) -> None:
    assert decisions(opts, hard, budget)[0] == expected
