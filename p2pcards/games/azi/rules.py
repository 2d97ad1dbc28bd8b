"""Azi's rules object: the options and vocabulary of ``config`` with the factories of hands and
matches."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from p2pcards.games.azi.config import DEFAULTS, MAX_BANKROLL, MAX_HANDS, RULE_CODES, AziConfig, read_options
from p2pcards.games.azi.hand import AziHand
from p2pcards.games.azi.match import AziMatch
from p2pcards.games.base import OptionError

__all__ = ["DEFAULTS", "MAX_BANKROLL", "MAX_HANDS", "RULE_CODES", "AziRules", "read_options"]


class AziRules(AziConfig):
    __doc__ = AziConfig.__doc__

    def new_match(self, first_dealer: int = 0) -> AziMatch:
        if first_dealer.__class__ is not int or not 0 <= first_dealer < self.n:
            raise OptionError(f"the first dealer is a seat from 0 to {self.n - 1}, not {first_dealer!r}")
        return AziMatch(self, (self.bankroll,) * self.n, first_dealer)

    def new_hand(self, setup: Mapping[str, Any]) -> AziHand:
        return AziHand(self, setup)
