"""Azi's actions as small integers, and their stable text forms.

=============  ==================  ====================================================
action         text                meaning
=============  ==================  ====================================================
``FOLD``       ``fold``            leave the hand, losing what you paid (A6)
``CALL``       ``call``            pay up to the highest bet (A6, A7)
``ALLIN``      ``allin``           pay everything you have when you cannot call (A9)
``LOOK``       ``look``            a blind player looks at their cards (A7)
``BUYIN``      ``buyin``           join an azi replay for half the pot (A14)
``DECLINE``    ``decline``         do not join the azi replay (A14)
``discard(k)`` ``discard #k``      discard the k-th card of your hand, 1-based, in the
                                   order it was dealt (A4); the card itself stays secret
``play(c)``    ``play AS``         play a card (A10)
``bet(n)``     ``bet N``           open the bidding by paying N chips (A6)
``rais(n)``    ``raise N``         pay the call and N chips more (A6); N counts double
                                   while blind (A7)
=============  ==================  ====================================================
"""

from __future__ import annotations

from p2pcards.games.base import Action, ActionError
from p2pcards.games.cards import Card, card_text

FOLD, CALL, ALLIN, LOOK, BUYIN, DECLINE = 0, 1, 2, 3, 4, 5
DISCARD0 = 8
"""``discard #1`` .. ``discard #4`` are ``DISCARD0 + 0`` .. ``DISCARD0 + 3``."""
PLAY0 = 16
"""``play c`` is ``PLAY0 + c`` for a card id ``c`` (0..51)."""
AMOUNT0 = 256
"""``bet N`` is ``AMOUNT0 + 2N``, ``raise N`` is ``AMOUNT0 + 2N + 1``."""
MAX_AMOUNT = 10**9
MAX_SLOTS = 4

WORDS = ("fold", "call", "allin", "look", "buyin", "decline")
SYNONYMS = {"all-in": ALLIN, "all in": ALLIN, "buy-in": BUYIN, "buy in": BUYIN}
FORMS = ("fold, call, allin, look, buyin, decline, discard #1..#4, play <card> (like play 10H), "
         "bet N, raise N")


def discard(slot: int) -> Action:
    """Discard the card in ``slot`` (0-based) of the hand."""
    return DISCARD0 + slot


def play(c: Card) -> Action:
    return PLAY0 + c


def bet(n: int) -> Action:
    return AMOUNT0 + 2 * n


def rais(n: int) -> Action:
    return AMOUNT0 + 2 * n + 1


def is_amount(a: Action) -> bool:
    return a >= AMOUNT0


def amount_of(a: Action) -> int:
    return (a - AMOUNT0) >> 1


def is_raise(a: Action) -> bool:
    return a >= AMOUNT0 and (a - AMOUNT0) & 1 == 1


def valid(a: Action) -> bool:
    """Whether ``a`` is the number of some action (not whether it is legal now)."""
    if a < 0:
        return False
    if a < AMOUNT0:
        return a <= DECLINE or DISCARD0 <= a < DISCARD0 + MAX_SLOTS or PLAY0 <= a < PLAY0 + 52
    return 1 <= amount_of(a) <= MAX_AMOUNT


def text(a: Action) -> str:
    if not isinstance(a, int) or isinstance(a, bool) or not valid(a):
        raise ActionError(f"{a!r} is not an action of azi")
    if a <= DECLINE:
        return WORDS[a]
    if a < PLAY0:
        return f"discard #{a - DISCARD0 + 1}"
    if a < AMOUNT0:
        return "play " + card_text(a - PLAY0)
    return f"{'raise' if is_raise(a) else 'bet'} {amount_of(a)}"


def parse_amount(word: str, arg: str) -> int:
    if not arg.isdigit():
        raise ActionError(f"{word} needs a whole number of chips, like '{word} 20'; the forms are: {FORMS}")
    n = int(arg)
    if not 1 <= n <= MAX_AMOUNT:
        raise ActionError(f"{word} needs at least 1 chip (and at most {MAX_AMOUNT})")
    return n


def parse_slot(arg: str) -> int:
    """The 0-based slot of ``#k`` or ``k``; raises ``ActionError`` on anything else."""
    digits = arg[1:] if arg.startswith("#") else arg
    if digits.isdigit() and 1 <= int(digits) <= MAX_SLOTS:
        return int(digits) - 1
    raise ActionError(
        f"discard names a place in your hand, 'discard #1' .. 'discard #{MAX_SLOTS}' (the order the "
        "cards were dealt), so that the discarded card stays secret")
