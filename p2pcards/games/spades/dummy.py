"""The open dummy: how a seat whose player left is played, the same way on every replica.

``choose(view, seed)`` is a pure function of the dummy seat's view (its own cards, which are public,
the bids, the current trick and every card played): it reads nothing hidden, uses no float and no
``random``, and so every replica, fed the same public history, makes the same move.  The normative
text is the section "The open dummy" of ``docs/rules/spades.md``; this module follows it step by step,
and a test holds it to being legal, deterministic and blind to every hidden card.

The policy makes no random choice: ``seed`` (public data of the hand, such as the game id and the
hand number) is accepted so that every caller passes what a future tie-break would need, and a
``games.rng.Rng`` seeded from it is the only randomness such a version may use.
"""

from __future__ import annotations

from p2pcards.games.base import Action, GameError, View
from p2pcards.games.cards import ACE, KING, Card
from p2pcards.games.spades.config import BID0
from p2pcards.games.spades.state import SPADE0, SpadesView

SPADES_SUIT = 3


def rank(c: Card) -> int:
    return c % 13 + 2


def suit(c: Card) -> int:
    return c // 13


def low_key(c: Card) -> tuple[int, int, int]:
    """The order "lowest first": every non-spade before every spade, then by rank, then by suit
    (clubs, diamonds, hearts)."""
    return (1 if c >= SPADE0 else 0, rank(c), suit(c))


def bid(hand: tuple[Card, ...]) -> int:
    """Aces, plus kings in suits of two or more cards, plus spades beyond the third; 1 to 13."""
    per_suit = [0, 0, 0, 0]
    for c in hand:
        per_suit[suit(c)] += 1
    count = sum(1 for c in hand if rank(c) == ACE)
    count += sum(1 for c in hand if rank(c) == KING and per_suit[suit(c)] >= 2)
    count += max(0, per_suit[SPADES_SUIT] - 3)
    return min(13, max(1, count))


def beats(card: Card, best: Card) -> bool:
    """Whether ``card`` played now would take the lead of a trick whose best card is ``best`` (S8)."""
    if suit(card) == suit(best):
        return card > best
    return card >= SPADE0


def trick_leader(trick: tuple[tuple[int, Card], ...]) -> tuple[int, Card]:
    """The (seat, card) winning the trick so far."""
    seat, best = trick[0]
    for s, c in trick[1:]:
        if beats(c, best):
            seat, best = s, c
    return seat, best


def is_master(c: Card, gone: set[Card]) -> bool:
    """Every higher card of ``c``'s suit has been played or is in the dummy's own hand (``gone``)."""
    top = suit(c) * 13 + 12
    return all(h in gone for h in range(c + 1, top + 1))


def choose(view: View, seed: bytes = b"") -> Action:
    """The open dummy's move in ``view`` (see the module docstring and the rules page)."""
    if not isinstance(view, SpadesView) or view.to_act != view.seat or not view.legal_actions:
        raise GameError("the dummy chooses only when its own seat is to act")
    legal = view.legal_actions
    if view.phase == "bidding":
        return BID0 + bid(view.hand)
    cards = sorted(legal, key=low_key)
    trick = view.trick
    if not trick:
        gone = set(view.played) | set(view.hand)
        masters = [c for c in cards if c < SPADE0 and is_master(c, gone)]
        if masters:
            return max(masters, key=lambda c: (rank(c), -suit(c)))
        return cards[0]
    partner = (view.seat + 2) % 4
    winner, best = trick_leader(trick)
    if winner == partner and view.bids[partner] != 0:
        return cards[0]
    winners = [c for c in cards if beats(c, best)]
    return winners[0] if winners else cards[0]
