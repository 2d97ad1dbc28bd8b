"""The ``help`` of a game's screen: what may be typed, with the moves of the game being played only
(Durak's help says nothing of an Azi ante), as its face (``faces``) words them."""

from __future__ import annotations

from p2pcards.cli.common import program
from p2pcards.cli.screen.faces import face_class


def help_text(game: str, *, lan: bool) -> str:
    """The help of ``game``'s screen: offline (``play``) or at a table on the network."""
    face = face_class(game)
    moves, card_note = face.moves_help, face.card_note
    lines = [
        'Answer "Your move" with:',
        "  a number    the move with that number in the list",
        f"  a move      as listed, cards as letters: {moves}",
        "  a card      10h, qs, a♠: the one legal move that uses that card",
    ]
    if card_note:
        lines.append(f"              {card_note}")
    lines.append("  table       show the table and your moves again")
    if lan:
        lines += [
            "  rules       the sections of this game's rules (rules 3: section 3;",
            "              rules all: everything)",
            "  help        this text",
            "  return      after the others went on without you: ask to be dealt in again",
            "  quit        leave the table (asks first); come back to the same game with",
            f"              {program()} resume",
            "Moves are read on your turn only; table, rules, help and quit work at any time.",
            "A question the table asks (go on without a silent player? admit a player",
            "back?) is answered with the words it shows, even during your turn.",
        ]
    else:
        lines += [
            "  rules       the rules of this game (rules 3: only its section 3)",
            "  help        this text",
            "  quit        leave the game (asks first, and whether to keep it for later)",
            "table, rules, help and quit also work while the computers play.",
        ]
    if face.out_note:
        lines.append(face.out_note)
    lines.append("Ranks 2-10, J, Q, K, A (T is ten too); suits c ♣, d ♦, h ♥, s ♠.")
    return "\n".join(lines)


__all__ = ["help_text"]
