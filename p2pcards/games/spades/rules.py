"""Spades' options, action vocabulary and the factory of matches and hands."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from p2pcards.games import base
from p2pcards.games.base import Action, ActionError, Deal, GameError, OptionError
from p2pcards.games.cards import card_text
from p2pcards.games.spades.match import SpadesMatch
from p2pcards.games.spades.scoring import FAILED_NIL_MODES
from p2pcards.games.spades.state import BID0, CARDS, MAX_BID, SEATS, SpadesState, deal_for

LOCKED: tuple[str, ...] = ("blind_nil", "deuces_high", "jokers", "suicide")
"""Variants that exist as options but are disabled in version 1.0."""

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
_ACTION_FORMS = "bid 0-13 (or bid nil), or play <card> such as play AS, play 10H"


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


class Rules(base.Rules):
    """Partnership Spades: nil and bags, to 500.

    Options: ``players`` (4 only), ``target`` (500), ``floor`` (-200), ``failed_nil_tricks``
    (``count`` | ``bags_only`` | ``ignored``), and the locked variants ``blind_nil``, ``deuces_high``,
    ``jokers``, ``suicide`` (off; turning one on raises ``OptionError``).
    """

    name: ClassVar[str] = "spades"

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
        for key in LOCKED:
            value = opts[key]
            if isinstance(value, str):
                value = value.strip().lower()
            if value not in _FALSE:
                raise OptionError(f"option {key} is disabled in Spades 1.0 (it can only be off)")
            opts[key] = False
        opts.update(players=players, target=target, floor=floor, failed_nil_tricks=failed)
        self.options = tuple(sorted(opts.items()))
        self.deck = tuple(range(CARDS))
        self.target = target
        self.floor = floor
        self.failed_nil_tricks = failed
        self._deals: tuple[Deal, ...] = tuple(deal_for(d) for d in range(SEATS))

    # ------------------------------------------------------------------ factories

    def new_match(self, first_dealer: int = 0) -> SpadesMatch:
        if isinstance(first_dealer, bool) or not isinstance(first_dealer, int) \
                or not 0 <= first_dealer < SEATS:
            raise GameError(f"the first dealer must be a seat 0-3, not {first_dealer!r}")
        return SpadesMatch(self, first_dealer)

    def new_hand(self, setup: Mapping[str, Any]) -> SpadesState:
        extra = sorted(set(setup) - {"dealer", "scores", "bags", "hand"})
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
        return SpadesState(self, dealer, (scores[0], scores[1]), (bags[0], bags[1]), hand)

    # ------------------------------------------------------------------ actions

    def action_text(self, action: Action) -> str:
        if _is_int(action):
            if 0 <= action < CARDS:
                return "play " + card_text(action)
            if action == BID0:
                return "bid nil"
            if BID0 < action <= BID0 + MAX_BID:
                return f"bid {action - BID0}"
        raise ActionError(f"{action!r} is not a Spades action")

    def parse_action(self, text: str) -> Action:
        words = text.strip().lower().split()
        if words == ["nil"]:
            return BID0
        if len(words) == 2 and words[0] == "bid":
            arg = words[1]
            if arg == "nil":
                return BID0
            if arg.isdigit() and int(arg) <= MAX_BID:
                return BID0 + int(arg)
            raise ActionError(f"{text.strip()!r}: a bid is a number of tricks from 0 to 13, or nil")
        if len(words) == 2 and words[0] == "play":
            return self.parse_card(words[1])
        raise ActionError(f"{text.strip()!r} is not a Spades action; write {_ACTION_FORMS}")


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)
