"""Spades' options, deck and action vocabulary: what the state, the match and the rules share.

The factories (``Rules.new_match``, ``Rules.new_hand``) live in ``rules``, above the state and the
match, so that no module of the package imports one that imports it back.
"""

from __future__ import annotations

from typing import Any, ClassVar

from p2pcards.games import base
from p2pcards.games.base import Action, ActionError, Deal, OptionError
from p2pcards.games.cards import card_text
from p2pcards.games.spades.layout import CARDS, SEATS, deal_for
from p2pcards.games.spades.scoring import FAILED_NIL_MODES

BID0 = 52
"""The action ``bid n`` is ``BID0 + n``; ``play c`` is the card id ``c``."""
MAX_BID = 13
BLIND_NIL = 66
"""``bid blind nil`` (S16): a nil bid by a seat that has not seen its cards."""
LOOK = 67
"""``look`` (S16): a seat that may bid blind nil sees its cards instead, and then bids."""
RULE_CODES: tuple[str, ...] = tuple(f"S{i}" for i in range(1, 19))
"""The numbered rules of ``docs/rules/spades.md``; every error of the engine names one of them."""

LOCKED: tuple[str, ...] = ("deuces_high", "jokers", "suicide")
"""Variants that exist as options but that this version does not play: they can only be off."""

DEFAULTS: dict[str, Any] = {
    "players": 4,
    "target": 500,
    "floor": -200,
    "failed_nil_tricks": "count",
    "blind_nil": False,
    "deuces_high": False,
    "jokers": False,
    "suicide": False,
}

_FALSE = (False, 0, "false", "off", "no", "0")
_TRUE = (True, 1, "true", "on", "yes", "1")
_ACTION_FORMS = "bid 0-13 (or bid nil), or play <card> such as play AS, play 10H"
_BLIND_FORMS = "; with blind nil: bid blind nil, or look"


def _int_option(name: str, value: Any) -> int:
    if isinstance(value, bool):
        raise OptionError(f"option {name} must be a whole number, not {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            pass
    raise OptionError(f"option {name} must be a whole number, not {value!r}")


class SpadesConfig(base.Rules):
    """Partnership Spades: nil and bags, to 500.

    Options: ``players`` (4 only), ``target`` (500), ``floor`` (-200), ``failed_nil_tricks``
    (``count`` | ``bags_only`` | ``ignored``), ``blind_nil`` (off | on, S16-S18), and the locked
    variants ``deuces_high``, ``jokers``, ``suicide`` (off; turning one on raises ``OptionError``).
    """

    name: ClassVar[str] = "spades"
    rule_codes: ClassVar[tuple[str, ...]] = RULE_CODES
    deal_rule: ClassVar[str] = "S1"

    def __init__(self, **options: Any) -> None:
        opts = dict(DEFAULTS)
        for key, value in options.items():
            if key not in DEFAULTS:
                raise OptionError(f"unknown Spades option {key!r}; the options are: "
                                  + ", ".join(sorted(DEFAULTS)))
            opts[key] = value
        players = _int_option("players", opts["players"])
        if players != SEATS:
            raise OptionError(f"Spades is played by exactly 4 players, not {players}")
        target = _int_option("target", opts["target"])
        floor = _int_option("floor", opts["floor"])
        if not 0 < target <= 100_000:
            raise OptionError(f"option target must be between 1 and 100000, not {target}")
        if not -100_000 <= floor < 0:
            raise OptionError(f"option floor must be between -100000 and -1, not {floor}")
        failed = opts["failed_nil_tricks"]
        if not isinstance(failed, str) or failed.strip().lower() not in FAILED_NIL_MODES:
            raise OptionError(f"option failed_nil_tricks must be one of {', '.join(FAILED_NIL_MODES)}, "
                              f"not {failed!r}")
        failed = failed.strip().lower()
        blind = opts["blind_nil"]
        if isinstance(blind, str):
            blind = blind.strip().lower()
        if not isinstance(blind, (bool, int, str)):  # 1.0 == 1: a float is no switch
            raise OptionError(f"option blind_nil is on or off, not {blind!r}")
        if blind in _FALSE:
            blind = False
        elif blind in _TRUE:
            blind = True
        else:
            raise OptionError(f"option blind_nil is on or off, not {opts['blind_nil']!r}")
        for key in LOCKED:
            value = opts[key]
            if isinstance(value, str):
                value = value.strip().lower()
            if value not in _FALSE:
                raise OptionError(f"Spades option {key!r} is a locked variant this version does not play: "
                                  "it can only be off")
            opts[key] = False
        opts.update(players=players, target=target, floor=floor, failed_nil_tricks=failed, blind_nil=blind)
        self.options = tuple(sorted(opts.items()))
        self.deck = tuple(range(CARDS))
        self.target = target
        self.floor = floor
        self.failed_nil_tricks = failed
        self.blind_nil: bool = blind
        self._deals: tuple[Deal, ...] = tuple(deal_for(d) for d in range(SEATS))
        self._blind_deals: tuple[Deal, ...] = tuple(deal_for(d, disclose=False) for d in range(SEATS))
        """The deals of a hand in which a seat may bid blind nil: every hand face down (S16)."""

    # ------------------------------------------------------------------ actions

    def action_text(self, action: Action) -> str:
        if _is_int(action):
            if 0 <= action < CARDS:
                return "play " + card_text(action)
            if action == BID0:
                return "bid nil"
            if BID0 < action <= BID0 + MAX_BID:
                return f"bid {action - BID0}"
            if action == BLIND_NIL:
                return "bid blind nil"
            if action == LOOK:
                return "look"
        raise ActionError(f"{action!r} is not a Spades action")

    def parse_action(self, text: str) -> Action:
        words = text.strip().lower().split()
        if words == ["nil"]:
            return BID0
        if words in (["bid", "blind", "nil"], ["blind", "nil"]):
            return BLIND_NIL
        if words == ["look"]:
            return LOOK
        if len(words) == 2 and words[0] == "bid":
            arg = words[1]
            if arg == "nil":
                return BID0
            if arg.isdigit() and int(arg) <= MAX_BID:
                return BID0 + int(arg)
            raise ActionError(f"{text.strip()!r}: a bid is a number of tricks from 0 to 13, or nil")
        if len(words) == 2 and words[0] == "play":
            return self.parse_card(words[1])
        forms = _ACTION_FORMS + (_BLIND_FORMS if self.blind_nil else "")
        raise ActionError(f"{text.strip()!r} is not a Spades action; write {forms}")


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)
