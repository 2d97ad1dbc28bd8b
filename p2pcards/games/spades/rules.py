"""Spades' rules object: the options and vocabulary of ``config`` with the factories of hands and
matches."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from p2pcards.games.base import GameError
from p2pcards.games.spades.config import DEFAULTS, LOCKED, RULE_CODES, SpadesConfig, _is_int
from p2pcards.games.spades.layout import SEATS
from p2pcards.games.spades.match import SpadesMatch
from p2pcards.games.spades.state import SpadesState

__all__ = ["DEFAULTS", "LOCKED", "RULE_CODES", "Rules"]


class Rules(SpadesConfig):
    __doc__ = SpadesConfig.__doc__

    def new_match(self, first_dealer: int = 0) -> SpadesMatch:
        if isinstance(first_dealer, bool) or not isinstance(first_dealer, int) \
                or not 0 <= first_dealer < SEATS:
            raise GameError(f"the first dealer must be a seat 0-3, not {first_dealer!r}")
        return SpadesMatch(self, first_dealer)

    def new_hand(self, setup: Mapping[str, Any]) -> SpadesState:
        """A hand from its setup: ``dealer``, ``scores``, ``bags``, ``hand`` and, only when they say
        something, ``dummies`` (the open dummies) and ``voided`` (hands voided before it)."""
        extra = sorted(str(k) for k in setup if k not in ("dealer", "scores", "bags", "hand", "dummies",
                                                            "voided"))
        if extra:
            raise GameError(f"unknown setup key(s) for Spades: {', '.join(map(str, extra))}")
        dealer = setup.get("dealer", 0)
        try:
            scores = tuple(setup.get("scores", (0, 0)))
            bags = tuple(setup.get("bags", (0, 0)))
        except TypeError:
            raise GameError("setup scores and bags must be pairs of whole numbers") from None
        hand = setup.get("hand", 0)
        if not _is_int(dealer) or not 0 <= dealer < SEATS:
            raise GameError(f"setup dealer must be a seat 0-3, not {dealer!r}")
        if len(scores) != 2 or not all(_is_int(s) for s in scores):
            raise GameError(f"setup scores must be two whole numbers, not {scores!r}")
        if len(bags) != 2 or not all(_is_int(b) and 0 <= b < 10 for b in bags):
            raise GameError(f"setup bags must be two numbers 0-9, not {bags!r}")
        if not _is_int(hand) or hand < 0:
            raise GameError(f"setup hand must be a hand number >= 0, not {hand!r}")
        dummies = setup.get("dummies", ())
        if not isinstance(dummies, (tuple, list)) or not all(_is_int(d) and 0 <= d < SEATS for d in dummies) \
                or list(dummies) != sorted(set(dummies)) or len(dummies) >= SEATS:
            raise GameError(f"setup dummies must list at most three distinct seats in order, not {dummies!r}")
        voided = setup.get("voided", 0)
        if not _is_int(voided) or voided < 0:
            raise GameError(f"setup voided must be a whole number >= 0, not {voided!r}")
        return SpadesState(self, dealer, (scores[0], scores[1]), (bags[0], bags[1]), hand, tuple(dummies),
                           voided)
