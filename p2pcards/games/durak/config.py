"""Durak's options, deck and action vocabulary: what the state, the match and the rules share.

The factories (``Rules.new_match``, ``Rules.new_hand``) live in ``rules``, above the state and the
match, so that no module of the package imports one that imports it back.
"""

from __future__ import annotations

from typing import Any, ClassVar

from p2pcards.games import base
from p2pcards.games.base import Action, OptionError
from p2pcards.games.cards import SUITS, Card, deck_of
from p2pcards.games.durak import actions

DEFAULTS: dict[str, Any] = {"players": 4, "first_bout_limit_5": False, "series_hands": 1}
VARIANTS: dict[str, Any] = {"deck": 36, "transfer": False}
"""Options of the variants, recorded only when not at their default: a table of the rules of version
1.0 keeps the options (and so the game id and every hand digest) it always had."""
LOCKED = ("jokers",)
"""Variants of the rulebook that this version does not play: accepted only as False, never recorded."""
DECKS = (36, 52)
MAX_SERIES = 1000
RULE_CODES: tuple[str, ...] = tuple(f"D{i}" for i in range(1, 19))
"""The numbered rules of ``docs/rules/durak.md``; every error of the engine names one of them."""


class DurakConfig(base.Rules):
    """Throw-in Durak for 2-6 players with 36 cards (or 52), with or without transfers.

    Options: ``players`` (2-6, default 4), ``first_bout_limit_5`` (default False: at most 5 attack
    cards in the first bout), ``series_hands`` (hands in a series, 1-1000, default 1), ``deck`` (36:
    ranks 6..A, the default; or 52: ranks 2..A), ``transfer`` (default False: True plays D16-D18).
    ``jokers`` names a locked variant: False is accepted, True is an ``OptionError``.
    """

    name: ClassVar[str] = "durak"
    rule_codes: ClassVar[tuple[str, ...]] = RULE_CODES
    variants: ClassVar[dict[str, Any]] = VARIANTS
    """Options recorded only when not at their default (so not in ``options`` of a default table)."""
    deal_rule: ClassVar[str] = "D2"

    def __init__(self, **options: Any) -> None:
        values = DEFAULTS | VARIANTS
        for key in sorted(options):
            value = options[key]
            if key in LOCKED:
                if value is not False:
                    raise OptionError(f"durak option {key!r} is a locked variant this version does not play: "
                                      "it can only be off")
                continue
            if key not in DEFAULTS and key not in VARIANTS:
                known = ", ".join(sorted((*DEFAULTS, *VARIANTS)))
                raise OptionError(f"unknown durak option {key!r}; the options are: {known}")
            values[key] = value
        players = values["players"]
        if type(players) is not int or not 2 <= players <= 6:
            raise OptionError(f"durak is for 2 to 6 players, not {players!r}")
        if type(values["first_bout_limit_5"]) is not bool:
            raise OptionError("durak option 'first_bout_limit_5' is True or False")
        hands = values["series_hands"]
        if type(hands) is not int or not 1 <= hands <= MAX_SERIES:
            raise OptionError(f"durak option 'series_hands' is a whole number from 1 to {MAX_SERIES}")
        deck = values["deck"]
        if type(deck) is not int or deck not in DECKS:
            raise OptionError(f"durak option 'deck' is 36 or 52, not {deck!r}")
        if type(values["transfer"]) is not bool:
            raise OptionError("durak option 'transfer' is True or False")
        self.options = tuple(sorted((k, v) for k, v in values.items() if k in DEFAULTS or v != VARIANTS[k]))
        self.deck: tuple[Card, ...] = deck_of(range(6 if deck == 36 else 2, 15), SUITS)
        self.deck_set: frozenset[Card] = frozenset(self.deck)
        self.n: int = players
        self.first_bout_limit: int = 5 if values["first_bout_limit_5"] else 6
        self.series_hands: int = hands
        self.transfer: bool = values["transfer"]

    def __repr__(self) -> str:
        return "durak.Rules(" + ", ".join(f"{k}={v!r}" for k, v in self.options) + ")"

    @property
    def players(self) -> int:
        return self.n

    def action_text(self, action: Action) -> str:
        return actions.text(action, self.deck_set)

    def parse_action(self, text: str) -> Action:
        return actions.parse(text, self.deck)
