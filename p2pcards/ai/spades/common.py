"""What the Spades players share: masks of cards, and who played what in a seat's view.

A card is the engine's id (``suit * 13 + rank - 2``, spades are suit 3, ids 39..51); a set of cards
is an ``int`` bitmask (bit ``c`` set when card ``c`` is in it), the representation the engine keeps
each hand in (``SpadesState.hmask``).  The players read the engine's state and ask it for the legal
cards (``legal_mask``) and for the play itself (``apply``): no rule of play is repeated here.
"""

from __future__ import annotations

from p2pcards.games.spades.state import NON_SPADES, SUIT_MASK, SpadesView, mask_of, trick_winner

SPADE_MASK = SUIT_MASK[3]

__all__ = ["NON_SPADES", "SPADE_MASK", "SUIT_MASK", "count", "highest", "lowest", "mask_of", "played_by"]


def lowest(m: int) -> int:
    """The lowest card of a non-empty mask."""
    return (m & -m).bit_length() - 1


def highest(m: int) -> int:
    """The highest card of a non-empty mask."""
    return m.bit_length() - 1


def count(m: int) -> int:
    return m.bit_count()


def played_by(view: SpadesView) -> list[list[int]]:
    """Per seat, the cards it played this hand (from the order of play, each trick led by the winner
    of the one before, ``trick_winner`` of the engine)."""
    out: list[list[int]] = [[], [], [], []]
    leader = (view.dealer + 1) % 4
    played = view.played
    for k in range(0, len(played), 4):
        trick = [((leader + i) % 4, c) for i, c in enumerate(played[k:k + 4])]
        for seat, c in trick:
            out[seat].append(c)
        if len(trick) == 4:
            leader = trick_winner(trick)
    return out
