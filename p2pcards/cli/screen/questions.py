"""The questions the table puts to a person while the game goes on, and how an answer is read.

The table asks (``SilentSeats``, ``ReturnAsked``) or the screen sees that the person's own seat is no
longer playing (voted out, or out of chips in Azi); each becomes one ``Question``: the lines that
explain it, the prompt the answer is typed after, the words that answer it, and what a program reads
in ``--json``.  Asking and reading the answer is the driver's business (``play`` offline, the LAN
game): the screen only hands the question over (``GameScreen.ask``).

Answers are words that are never moves (``y``, ``n``, ``wait``, ``return``, ``watch``...), so a
person who has a question open and a turn at the same time can answer either, in any order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from p2pcards.cli.screen import words

SILENT = "silent"
"""Seats silent past the timeout: go on without them (the hand is void), or keep waiting."""
ADMIT = "admit"
"""A seat voted out asks to play again: admit it from the next hand, or not."""
RETURN = "return"
"""This seat was voted out: ask the others to deal it in again, or only watch."""
OUT = "out"
"""This seat is out of the match (Azi A15, or a verdict it cannot come back from): watch or leave."""

YES = ("y", "yes")
NO = ("n", "no")


@dataclass(frozen=True)
class Question:
    kind: str
    prompt: str
    """The text the answer is typed after (one line)."""
    lines: tuple[Text, ...]
    """What the person should know before answering, each on a line of its own above the prompt."""
    answers: Mapping[str, str]
    """Typed word -> its meaning (``go``/``wait``, ``yes``/``no``, ``ask``/``watch``, ``watch``/``leave``)."""
    seats: tuple[int, ...] = ()
    """The seats the question is about (silent seats, the seat asking to return)."""
    step: int = -1
    """For a silent seat: the step it is silent at (the question is moot once the table moves on)."""
    auto_at: int | None = None
    """For a silent seat: the table's local time (ms) at which it goes on by itself."""
    fields: dict[str, Any] = field(default_factory=dict)
    """The question as a program reads it (``--json``)."""

    def read(self, raw: str) -> str | None:
        """What ``raw`` answers (one of ``answers``' meanings), or None if it is not an answer."""
        return self.answers.get(" ".join(raw.strip().lower().split()))

    @property
    def hint(self) -> str:
        """How to answer, for a line that was not an answer."""
        shown = sorted({word for word in self.answers if len(word) > 1})
        return f"Answer the question with {', '.join(shown[:-1])} or {shown[-1]}." if len(shown) > 1 else ""


def _words(**meanings: tuple[str, ...]) -> dict[str, str]:
    return {word: meaning for meaning, words in meanings.items() for word in words}


def silent(names: str, plural: bool, waited_s: int, end_match: bool, auto_in_s: int | None,
           seats: tuple[int, ...], step: int, auto_at: int | None, quiet: str = "",
           connected: tuple[int, ...] = (), connected_names: str = "") -> Question:
    """Keep waiting for ``names`` (silent ``waited_s`` seconds), or go on without them?  ``quiet``:
    those named whom the step does not await, but who sent nothing at it either.  ``connected``: the
    awaited seats whose laptops still send (``connected_names``): thinking, so the program never goes
    on without them by itself — only if the person answers y."""
    them = "them"
    everyone = f"{names} and {quiet}" if quiet else names
    if quiet:
        first = Text(f"{names}: the game has waited {words.duration(waited_s)}, and nothing came from "
                     f"{quiet} at this step either.", style="bold yellow")
    else:
        has = "have" if plural else "has"
        first = Text(f"{names} {has} not answered for {words.duration(waited_s)}.", style="bold yellow")
    if end_match:
        what = Text(f"Half the table or fewer is left here, so no vote can decide for {them}: going on "
                    f"without {them} is your own word (unconfirmed), which does not bind {them}. The hand "
                    "is dealt again without them, or, with too few players left, the match ends here for "
                    "you (recorded as abandoned).", style="yellow")
        prompt = f"Go on without {everyone} by your own word? [y = go on, n = keep waiting]"
    else:
        what = Text(f"Going on without {them} voids this hand: it is dealt again without {them}, and they "
                    "may ask to come back later.", style="yellow")
        prompt = f"Go on without {everyone}? [y = go on, n = keep waiting]"
    lines = [first, what]
    if connected:
        # What the program does on its person's behalf, said plainly: nothing, against a player whose
        # laptop is there (SPEC §10).
        # The laptop may have just died (its link closed): the deadline still holds if it stays quiet.
        laptop = f"the laptops of {connected_names} have" if len(connected) > 1 else \
            f"{words.possessive(connected_names)} laptop has"
        when = "at the deadline" if auto_in_s is None else f"in {words.duration(auto_in_s)}"
        lines.append(Text(f"The table goes on without {them} by itself {when} only if {laptop} gone quiet by "
                          f"then: while it still sends, {connected_names} may be thinking, and your program "
                          f"does not go on without {them} unless you answer y.", style="yellow"))
    elif auto_in_s is not None:
        # Said once, as a line: the prompt stays as it is while the countdown lines count down.
        goes = "goes on without them" if not end_match else "goes on by your word"
        lines.append(Text(f"The table {goes} by itself in {words.duration(auto_in_s)} unless you answer.",
                          style="yellow"))
    return Question(
        SILENT, prompt + " ", tuple(lines), _words(go=(*YES, "go", "go on"), wait=(*NO, "w", "wait")),
        seats, step, auto_at,
        {"waited_s": waited_s, "end_match": end_match, "auto_in_s": auto_in_s, "connected": list(connected)},
    )


def admit(name: str, seat: int) -> Question:
    line = Text(f"{name} asks to play again (voted out while silent). If every player still at the table "
                "agrees, they are dealt in from the next hand with what they had.", style="bold yellow")
    return Question(ADMIT, f"Admit {name}? [y/n] ", (line,), _words(yes=YES, no=NO), (seat,))


def come_back(hand: int) -> Question:
    """This seat was voted out: ask to be dealt in again?"""
    line = Text("The others play on without you: you are dealt in again only if you ask (now, or later "
                "with `return`). The players still at the table sign your return at the end of the hand "
                f"being played (hand {hand + 1}), and you play from the next one.", style="bold yellow")
    return Question(RETURN, "Ask to play again? [y = ask, n = only watch; `return` asks later] ", (line,),
                    _words(ask=(*YES, "return"), watch=(*NO, "w", "watch")))


def ended_without_you() -> Question:
    """The others' word, half the table, ended the match without this seat (too few players left):
    agreeing records the same end on this laptop; there is nothing to be dealt in at."""
    line = Text("Your laptop still holds the match as it was when you left. Agree, and it records the same "
                "end as theirs (abandoned); `quit` leaves it as it is.", style="bold yellow")
    return Question(RETURN, "Agree that the match ended? [y = agree; `return` agrees later] ", (line,),
                    _words(ask=(*YES, "return"), watch=("w", "watch")))


def out_of_match(lines: tuple[Text, ...]) -> Question:
    """This seat takes no further part in the match: watch the others, or leave?"""
    return Question(OUT, "Watch the others play on, or leave? [w = watch, l = leave] ", lines,
                    _words(watch=("w", "watch"), leave=("l", "leave", "q", "quit")))


__all__ = ["ADMIT", "OUT", "RETURN", "SILENT", "Question", "admit", "come_back", "ended_without_you",
           "out_of_match", "silent"]
