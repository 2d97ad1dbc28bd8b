"""Durak's actions as small integers, with their stable text forms.

=================  =================================================  ==========================
text               meaning                                            integer
=================  =================================================  ==========================
``attack 7H``      the main attacker leads a card (D4)                ``ATTACK + card``
``add 7H``         a throw-in (D6)                                    ``ADD + card``
``beat 7H 9H``     the defender covers the attack card 7H with 9H     ``BEAT + 64*attack + defence``
``take``           the defender picks the table up (D5, D8)           ``TAKE``
``pass``           an attacker adds nothing in this throw-in round    ``PASS``
``show 7H``        the lowest trump shown before the first bout (D3)  ``SHOW + card``
``show none``      "I hold no trump" (D3)                             ``SHOW_NONE``
``transfer 7H``    the defender passes the attack on (D16-D18)        ``TRANSFER + card``
=================  =================================================  ==========================
"""

from __future__ import annotations

from p2pcards.games.base import Action, ActionError
from p2pcards.games.cards import Card, CardError, card_text, parse_card

ATTACK = 0
ADD = 64
SHOW = 128
SHOW_NONE = 192
PASS = 193
TAKE = 194
BEAT = 256
TRANSFER = 4096
"""Above every ``beat`` (whose largest is ``BEAT + 64 * 51 + 51``)."""

# kinds returned by ``decode``
K_ATTACK, K_ADD, K_SHOW, K_SHOW_NONE, K_PASS, K_TAKE, K_BEAT, K_TRANSFER = range(8)

FORMS = ("attack CARD, add CARD, beat ATTACK DEFENCE (e.g. beat 7H 9H), take, pass, show CARD, show none, "
         "transfer CARD")


def attack(c: Card) -> Action:
    return ATTACK + c


def add(c: Card) -> Action:
    return ADD + c


def show(c: Card) -> Action:
    return SHOW + c


def beat(attack_card: Card, defence_card: Card) -> Action:
    return BEAT + attack_card * 64 + defence_card


def transfer(c: Card) -> Action:
    return TRANSFER + c


def decode(action: Action, deck: frozenset[Card]) -> tuple[int, Card, Card]:
    """``(kind, card, second card)``; raises ``ActionError`` for an integer that is no action."""
    if isinstance(action, int) and not isinstance(action, bool):
        if action >= TRANSFER:
            if action - TRANSFER in deck:
                return K_TRANSFER, action - TRANSFER, -1
        elif action >= BEAT:
            a, d = divmod(action - BEAT, 64)
            if a in deck and d in deck:
                return K_BEAT, a, d
        elif action >= SHOW_NONE:
            if action == SHOW_NONE:
                return K_SHOW_NONE, -1, -1
            if action == PASS:
                return K_PASS, -1, -1
            if action == TAKE:
                return K_TAKE, -1, -1
        elif action >= 0:
            kind, c = divmod(action, 64)
            if c in deck:
                return (K_ATTACK, K_ADD, K_SHOW)[kind], c, -1
    raise ActionError(f"{action!r} is not a Durak action; the forms are: {FORMS}")


def text(action: Action, deck: frozenset[Card]) -> str:
    kind, a, d = decode(action, deck)
    if kind == K_BEAT:
        return f"beat {card_text(a)} {card_text(d)}"
    if kind == K_ATTACK:
        return f"attack {card_text(a)}"
    if kind == K_ADD:
        return f"add {card_text(a)}"
    if kind == K_SHOW:
        return f"show {card_text(a)}"
    if kind == K_TRANSFER:
        return f"transfer {card_text(a)}"
    return ("show none", "pass", "take")[kind - K_SHOW_NONE]


def parse(raw: str, deck: tuple[Card, ...]) -> Action:
    """Read an action's text form (case-insensitive; ``10h`` and ``A♠`` are read as cards)."""
    words = raw.strip().lower().split()
    if len(words) == 3 and words[0] == "beat":
        return beat(_card(words[1], deck), _card(words[2], deck))
    if len(words) == 4 and words[0] == "beat" and words[2] in ("with", "by"):
        return beat(_card(words[1], deck), _card(words[3], deck))
    if len(words) == 1 and words[0] in ("take", "pass"):
        return TAKE if words[0] == "take" else PASS
    if len(words) == 2:
        verb, arg = words
        if verb == "show":
            return SHOW_NONE if arg == "none" else show(_card(arg, deck))
        if verb == "attack":
            return attack(_card(arg, deck))
        if verb == "add":
            return add(_card(arg, deck))
        if verb == "transfer":
            return transfer(_card(arg, deck))
    raise ActionError(f"cannot read {raw!r}; the forms are: {FORMS}")


def _card(word: str, deck: tuple[Card, ...]) -> Card:
    try:
        return parse_card(word, deck)
    except CardError as exc:
        raise ActionError(f"{exc}; the forms are: {FORMS}") from exc
