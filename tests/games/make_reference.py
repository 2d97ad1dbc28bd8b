"""Build (and with ``python tests/games/make_reference.py``, write) the engines' reference hands.

Each case is a whole match (or the first hands of one) of one game under fixed options, played by
uniformly random legal moves from a seeded ``Rng``, the dealer's needs fulfilled from a shuffled deck.
For every hand the file keeps its ``record()`` (setup, deck and moves as text), its final ``digest()``
and a hash over the digest after every step.  ``test_reference.py`` replays each record through the
current engines and insists on the same setups, digests and records: a change of the engines that
moves any replicated byte fails there, unless a rule says so (then the file is rebuilt and the commit
says which rule).

The references were first written by the engines as they were before the shared vocabulary of the
games.  Azi's were rebuilt once, when its option list gained ``hands`` (A15: the options enter the
digest of every hand) and A16 made only a *short* all-in limit what a winner takes (the stacks, and so
the next hands' setups, change where a player called with exactly what it had; a replay's setup names
its short all-in seats).  Before that rebuild every Azi reference record was replayed, move for move,
under the new rules.  The last Azi case was rebuilt once more when A16 was amended (every all-in
winner takes ``min(c_i, c_w)``, its blind payments counting double): its replay's setup carries
``blind_paid`` instead of ``short``, and the short blind winner of that replay takes 49 from each seat
instead of 27, which changes the stacks of the two hands after it.  The old records of that case
replay move for move under the amended rules; every other case is unchanged.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from p2pcards import games
from p2pcards.games.base import CHANCE, TERMINAL, Deal, HandState
from p2pcards.games.rng import Rng

REFERENCE = Path(__file__).resolve().parent / "reference_hands.json"

CASES: tuple[tuple[str, dict[str, Any], int, int, int], ...] = (
    # game, options, first dealer, seed, hands
    ("durak", {"players": 2, "series_hands": 2}, 0, 11, 2),
    ("durak", {"players": 3, "series_hands": 2}, 1, 12, 2),
    ("durak", {"players": 4, "series_hands": 3}, 2, 13, 3),
    ("durak", {"players": 5, "first_bout_limit_5": True}, 4, 14, 1),
    ("durak", {"players": 6, "series_hands": 2}, 5, 15, 2),
    ("spades", {}, 0, 21, 3),
    ("spades", {"failed_nil_tricks": "bags_only", "target": 150}, 3, 22, 4),
    ("spades", {"failed_nil_tricks": "ignored"}, 1, 23, 1),
    ("azi", {"players": 2}, 0, 31, 4),
    ("azi", {"players": 3, "ante": 20, "bankroll": 300}, 1, 32, 8),
    ("azi", {"players": 4, "deal": 4}, 2, 33, 4),
    ("azi", {"players": 5, "blind": False, "six_on_stage": False}, 3, 34, 5),
    ("azi", {"players": 6, "azi_buy_in": False, "ante": 5}, 0, 35, 6),
)


def step_hash(state: HandState, hasher: Any) -> None:
    hasher.update(state.digest())


def play_hand(state: HandState, rng: Rng) -> tuple[HandState, str]:
    """Play ``state`` to its end at random; returns it and the hash of its digest after every step."""
    deck = list(state.rules.deck)
    rng.shuffle(deck)
    steps = hashlib.sha256()
    step_hash(state, steps)
    while state.to_act != TERMINAL:
        if state.to_act == CHANCE:
            need = state.need
            assert need is not None
            ps = need.positions() if isinstance(need, Deal) else need.positions
            state.fulfil({p: deck[p] for p in ps})
        else:
            state.apply(rng.choice(state.legal_actions()))
        step_hash(state, steps)
    return state, steps.hexdigest()


def build() -> list[dict[str, Any]]:
    out = []
    for game, options, first_dealer, seed, hands in CASES:
        rules = games.load(game, **options)
        match = rules.new_match(first_dealer)
        rng = Rng(seed)
        played = []
        for _ in range(hands):
            if match.over:
                break
            state, steps = play_hand(match.new_hand(), rng)
            played.append({"record": state.record().to_dict(), "digest": state.digest().hex(),
                           "steps": steps})
            match = match.settle(state)
        out.append({"game": game, "options": options, "first_dealer": first_dealer, "seed": seed,
                    "hands": played})
    return out


def main() -> None:
    REFERENCE.write_text(json.dumps(build(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {REFERENCE}", file=sys.stderr)


if __name__ == "__main__":
    main()
