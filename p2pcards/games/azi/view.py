"""What one seat may know of a hand of Azi."""

from __future__ import annotations

from dataclasses import dataclass

from p2pcards.games.base import View
from p2pcards.games.cards import Card


@dataclass(slots=True)
class AziView(View):
    """The public state of the hand, plus the seat's own cards (``hand``, in dealt order).

    Per-seat tuples have one entry per seat of the table.  ``phase`` is one of ``buy-in``, ``deal``,
    ``trump``, ``discard``, ``bidding``, ``disclose``, ``play``, ``over``.  ``trump`` is ``UNKNOWN``
    (-1) until it is turned up; ``top_card`` is the six of trumps when it is on stage (A3), else
    ``NO_CARD`` (-1: there is no such card, as opposed to a card not known).
    """

    azi: int
    """How many azi replays led to this hand (0 for a first deal)."""
    trump: Card
    trump_suit: int
    top_card: Card
    stacks: tuple[int, ...]
    contributions: tuple[int, ...]
    pot: int
    level: int
    """The highest bet of the bidding (what payments count for; blind ones count double)."""
    bets: tuple[int, ...]
    raises: tuple[int, ...]
    blind: tuple[bool, ...]
    in_hand: tuple[bool, ...]
    """Dealt into the hand and not folded."""
    folded: tuple[bool, ...]
    all_in: tuple[bool, ...]
    lead_claim: int
    """The seat that bet or raised last (-1: nobody yet)."""
    leader: int
    """The seat that leads the current trick (-1 before the play)."""
    trick: tuple[tuple[int, Card], ...]
    """(seat, card) of the cards on the table, in the order played."""
    played: tuple[tuple[int, Card], ...]
    """(seat, card) of the cards of the finished tricks, in the order played (each trick has one
    card per seat in ``in_hand``)."""
    voids: tuple[tuple[int, ...], ...]
    """Per seat, the suits it has shown it does not hold (by not following suit, or not trumping)."""
    tricks: tuple[int, ...]
    call_cost: int
    """What this seat pays to call now (0 when it is not this seat's bidding turn)."""
    min_bet: int
    """The smallest opening bet of this seat (the ante; half of it, rounded up, while blind)."""
    buy_in_price: int
