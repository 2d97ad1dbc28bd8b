"""Durak's rules object: the options and vocabulary of ``config`` with the factories of hands and
matches."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from p2pcards.games.base import GameError
from p2pcards.games.durak.config import DEFAULTS, LOCKED, MAX_SERIES, RULE_CODES, DurakConfig
from p2pcards.games.durak.match import DurakMatch
from p2pcards.games.durak.state import DurakState

__all__ = ["DEFAULTS", "LOCKED", "MAX_SERIES", "RULE_CODES", "Rules"]

SETUP_KEYS = ("dealer", "hand", "seats", "voided")


class Rules(DurakConfig):
    __doc__ = DurakConfig.__doc__

    def new_match(self, first_dealer: int = 0) -> DurakMatch:
        return DurakMatch(self, first_dealer)

    def new_hand(self, setup: Mapping[str, Any]) -> DurakState:
        """A hand from its setup: ``dealer``, ``hand`` (its number in the series), and only when they
        say something, ``seats`` (the seats dealt in, when some are away) and ``voided`` (how many
        hands of the match were voided before it)."""
        keys = sorted(setup)
        if "dealer" not in keys or any(k not in SETUP_KEYS for k in keys):
            raise GameError(f"a durak hand's setup is dealer and hand (and seats, voided), "
                            f"not {', '.join(map(str, keys)) or 'nothing'}")
        dealer = setup["dealer"]
        hand = setup.get("hand", 0)
        n = self.n
        seats = setup.get("seats", tuple(range(n)))
        voided = setup.get("voided", 0)
        if type(dealer) is not int or not 0 <= dealer < n:
            raise GameError(f"the dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
        if type(hand) is not int or hand < 0:
            raise GameError(f"the hand number must be a whole number, not {hand!r}")
        if type(voided) is not int or voided < 0:
            raise GameError(f"the number of voided hands must be a whole number, not {voided!r}")
        if not isinstance(seats, (tuple, list)) or not all(type(s) is int and 0 <= s < n for s in seats) \
                or list(seats) != sorted(set(seats)) or len(seats) < 2:
            raise GameError(f"the seats of a hand are two or more distinct seats in order, not {seats!r}")
        if dealer not in seats:
            raise GameError(f"the dealer (seat {dealer}) does not play this hand")
        return DurakState(self, dealer, hand, tuple(seats), voided)
