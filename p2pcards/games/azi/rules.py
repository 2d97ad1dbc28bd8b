"""Azi's rules object: options, the deck, the action vocabulary, and the factories."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from p2pcards.games import base
from p2pcards.games.azi import actions as act
from p2pcards.games.azi.hand import AziHand
from p2pcards.games.azi.match import AziMatch
from p2pcards.games.base import Action, ActionError, OptionError
from p2pcards.games.cards import DIAMONDS, HEARTS, SPADES, Card, deck_of

DEFAULTS: dict[str, Any] = {
    "players": 4,
    "deal": 3,
    "ante": 10,
    "bankroll": 1000,
    "blind": True,
    "six_on_stage": True,
    "azi_buy_in": True,
    "hands": 0,
}
MAX_BANKROLL = 100_000
MAX_HANDS = 100_000
_TRUE = ("on", "true", "yes", "1")
_FALSE = ("off", "false", "no", "0")


def _as_int(name: str, value: Any) -> int:
    if isinstance(value, bool):
        raise OptionError(f"option {name} takes a whole number, not {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    raise OptionError(f"option {name} takes a whole number, not {value!r}")


def _as_bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
        return value.strip().lower() in _TRUE
    if isinstance(value, int) and value in (0, 1):
        return value == 1
    raise OptionError(f"option {name} is on or off, not {value!r}")


def read_options(given: Mapping[str, Any]) -> dict[str, Any]:
    """All options with defaults filled in, checked; ``OptionError`` names what is wrong."""
    unknown = sorted(k for k in given if k not in DEFAULTS)
    if unknown:
        raise OptionError(f"azi has no option {', '.join(unknown)}; its options are: "
                          + ", ".join(f"{k} (default {v})" for k, v in DEFAULTS.items()))
    opts = dict(DEFAULTS)
    for k, v in given.items():
        opts[k] = _as_bool(k, v) if isinstance(DEFAULTS[k], bool) else _as_int(k, v)
    if not 2 <= opts["players"] <= 6:
        raise OptionError(f"azi is for 2 to 6 players, not {opts['players']}")
    if opts["deal"] not in (3, 4):
        raise OptionError(f"option deal is 3 or 4 cards per player, not {opts['deal']}")
    if not 1 <= opts["bankroll"] <= MAX_BANKROLL:
        raise OptionError(f"option bankroll is 1 to {MAX_BANKROLL} chips, not {opts['bankroll']}")
    if not 1 <= opts["ante"] <= opts["bankroll"]:
        raise OptionError(f"option ante is 1 chip up to the bankroll ({opts['bankroll']}), "
                          f"not {opts['ante']}")
    if not 0 <= opts["hands"] <= MAX_HANDS:
        raise OptionError(f"option hands is 0 (no limit) to {MAX_HANDS} hands, not {opts['hands']}")
    return opts


class AziRules(base.Rules):
    """Azi with its table options (see ``DEFAULTS``)."""

    name: ClassVar[str] = "azi"

    def __init__(self, **options: Any) -> None:
        opts = read_options(options)
        self.options = tuple(sorted(opts.items()))
        self.deck: tuple[Card, ...] = deck_of(range(6, 15), (DIAMONDS, HEARTS, SPADES))
        self.n: int = opts["players"]
        self.cards_dealt: int = opts["deal"]
        self.ante: int = opts["ante"]
        self.bankroll: int = opts["bankroll"]
        self.blind: bool = opts["blind"]
        self.six_on_stage: bool = opts["six_on_stage"]
        self.azi_buy_in: bool = opts["azi_buy_in"]
        self.hands: int = opts["hands"]
        """The match ends after this many hands (A15); 0: no limit."""
        self.in_deck: tuple[bool, ...] = tuple(c in self.deck for c in range(52))

    @property
    def players(self) -> int:
        return self.n

    def new_match(self, first_dealer: int = 0) -> AziMatch:
        if not 0 <= first_dealer < self.n:
            raise OptionError(f"the first dealer is a seat from 0 to {self.n - 1}, not {first_dealer}")
        return AziMatch(self, (self.bankroll,) * self.n, first_dealer)

    def new_hand(self, setup: Mapping[str, Any]) -> AziHand:
        return AziHand(self, setup)

    def action_text(self, action: Action) -> str:
        return act.text(action)

    def parse_action(self, text: str) -> Action:
        words = " ".join(text.strip().lower().split())
        if words in act.SYNONYMS:
            return act.SYNONYMS[words]
        if words in act.WORDS:
            return act.WORDS.index(words)
        verb, _, arg = words.partition(" ")
        if verb == "play" and arg:
            return act.play(self.parse_card(arg))
        if verb in ("bet", "raise") and arg:
            n = act.parse_amount(verb, arg)
            return act.bet(n) if verb == "bet" else act.rais(n)
        if verb == "discard" and arg:
            return act.discard(act.parse_slot(arg))
        raise ActionError(f"{text.strip()!r} is not an azi action; the forms are: {act.FORMS}")
