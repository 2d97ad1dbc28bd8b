"""Sentences that every game shares: the deal's progress, the audit verdict, the verdicts of the table
(a seat voted out or named a cheater), a void hand, a seat coming back, a fault that stops the game."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from p2pcards.cli.common import program
from p2pcards.cli.screen import words
from p2pcards.games import AuditResult
from p2pcards.table import outputs as out
from p2pcards.wire import SignedMessage, WireError

VERIFIED = "deck verified: every seat shuffled with a valid proof; no renege"
SEEDED = "seeded test deck (no shuffle proofs); every move checked: no renege"


def audit_line(audit: AuditResult, dealer: str, names: Sequence[str] = ()) -> Text:
    if not audit.ok:
        return Text(words.with_names(f"AUDIT FAILED: {audit}", names), style="bold red")
    return Text("✔ " + (VERIFIED if dealer == "mental" else SEEDED), style="green")


def audit_text(audit: AuditResult, dealer: str) -> str:
    return audit_line(audit, dealer).plain.removeprefix("✔ ")


CHEATS: dict[str, str] = {
    "equivocation": "signed two different messages for one step",
    "bad-message": "sent a signed message that fails its checks",
    "illegal-action": "made a move the rules do not allow",
    "renege": "reneged: did not follow suit while holding it",
}
"""What each kind of cheat is, in the players' words (``Fault.kind``)."""


def fault_line(fault: out.Fault, names: Sequence[str]) -> Text:
    """The verdict that stopped the game (``Table.stopped``): nothing can go on after it."""
    who = names[fault.seat] if 0 <= fault.seat < len(names) else "no seat"
    return Text(words.you_case(f"The game stopped: {who} at fault ({fault.kind}) at step {fault.step}: "
                               f"{words.with_names(fault.message, names)}"), style="bold red")


def seat_names(seats: Sequence[int], names: Sequence[str]) -> str:
    return words.join([names[s] if 0 <= s < len(names) else f"seat {s}" for s in seats])


def signers(fault: out.Fault) -> tuple[int, ...]:
    """Who signed the claims behind a ``silent`` verdict (the votes, or the abandons), ascending."""
    found = set()
    for data in fault.evidence:
        try:
            found.add(SignedMessage.from_bytes(data).seat)
        except WireError:
            continue
    return tuple(sorted(found))


def verdict_lines(fault: out.Fault, names: Sequence[str], timeout_s: int, goes_on: str,
                  consented: bool = False, restoring: bool = False) -> list[Text]:
    """A seat voted out or named a cheater, why, and what the match does now (``goes_on``: the
    game's own sentence, from its face).  ``consented``: the verdict is half the table's word naming
    this seat, which its own replica took only because its voice consented to it (SPEC §6.5, half and
    consent): by itself while ``restoring``, or by its person's `return`; it binds this seat, which is
    out of that hand."""
    seats = fault.seats or (fault.seat,)
    who = seat_names(seats, names)
    plural = len(seats) > 1 or who == words.YOU
    was = "were" if plural else "was"
    where = f"in hand {fault.hand + 1}" if fault.hand >= 0 else "before the first hand"
    if fault.kind == "silent":
        them = "you" if who == words.YOU else "them"
        if fault.unconfirmed and consented:
            by = seat_names(signers(fault), names)
            by = f"{by}, half the table," if by else "Half the table"
            how = ("you consented to it while back from the saved game (you could not play on before "
                   "the others answered)" if restoring else "your `return` agreed to it")
            head = (f"{by} went on without {who} {where} by their word, and {how}: you are out of that "
                    "hand, and ask to be dealt in again from the next.")
            return [Text(words.you_case(head), style="bold yellow"), Text(goes_on, style="yellow")]
        if fault.unconfirmed:
            head = (f"{who} {was} left behind {where}: silent, and this side of the table, half of it or "
                    f"fewer, went on without {them} by its own word (unconfirmed: it binds nobody named).")
        else:
            head = (f"{who} {was} voted out {where}: silent past the move clock "
                    f"({words.duration(timeout_s)}) or disconnected, and more than half of the table "
                    f"voted to go on without {them}.")
        return [Text(words.you_case(head), style="bold yellow"), Text(goes_on, style="yellow")]
    what = CHEATS.get(fault.kind, fault.kind)
    is_ = "are" if plural else "is"
    head = f"{who} {is_} out of the match, caught cheating {where}: {who} {what}."
    why = words.with_names(fault.message, names)
    proof = Text(words.you_case(f"Step {fault.step}: {why}. The signed evidence is kept in every journal: "
                                f"`{program()} verify` shows it."), style="dim")
    return [Text(words.you_case(head), style="bold red"), proof, Text(goes_on, style="yellow")]


def void_line(hand: int, dealt_again: str) -> Text:
    """Hand ``hand`` is void; ``dealt_again``: how the game deals it again (the face's words)."""
    text = f"Hand {hand + 1} is void: nothing of it counts, and it is dealt again{dealt_again}."
    return Text(words.you_case(text), style="yellow")


def back_line(seats: Sequence[int], names: Sequence[str], hand: int) -> Text:
    who = seat_names(seats, names)
    are = "are" if len(seats) > 1 or who == words.YOU else "is"
    return Text(words.you_case(f"{who} {are} back at the table: admitted by every player still playing, "
                               f"and dealt in again from hand {hand + 1}."), style="bold green")


def playing_line(hand: int, playing: Sequence[int], names: Sequence[str]) -> Text:
    return Text(f"Hand {hand + 1} is dealt to {seat_names(playing, names)}.", style="dim")


def contradicted_line(voters: Sequence[int], named: Sequence[int], step: int, names: Sequence[str],
                      majority: bool = False, last_hand: bool = False, restoring: bool = False) -> Text:
    """The others went on without this seat's voice: by more than half of the table, or by their own
    word (half the table or fewer, which binds nobody named).  ``last_hand``: the match's last hand is
    being played, so there is no next hand to be dealt in at.  ``restoring``: this seat waits for the
    others' answers after a restore, so it cannot stay in the game on its own: it goes with half the
    table's word if one comes (SPEC §6.5, half and consent)."""
    who, gone = seat_names(voters, names), seat_names(named, names)
    if majority:
        then = ("This is the match's last hand: you may watch it to its end." if last_hand else
                "Type `return` to ask to be dealt in again from the next hand.")
        text = (f"{who}, more than half of the table, went on without {gone} at step {step}: they did not "
                f"hear from you in time. {then}")
    elif restoring:
        text = (f"Note: {who} went on without {gone} at step {step} by their own word, which binds nobody "
                "named. Back from the saved game, you cannot play on before the others answer: if half "
                "the table goes on by one word, you go with it, out of that hand.")
    else:
        text = (f"Note: {who} went on without {gone} at step {step} by their own word. Half the table or "
                "fewer binds nobody named: you stay in this game.")
    return Text(words.you_case(text), style="yellow")


def restoring_line(seats: Sequence[int], names: Sequence[str]) -> Text:
    """A seat back from its saved game waits for the others before it plays on."""
    text = (f"Back from the saved game: waiting for {seat_names(seats, names)} to send what they hold, so "
            "that you never play otherwise than you did before the restart. The others may go on without "
            "you meanwhile.")
    return Text(text, style="yellow")


def deal_line(hand: int, seats: int, dealer: str) -> str:
    if dealer == "mental":
        return (f"Hand {hand + 1}: the deck was shuffled by {words.all_seats(seats)} "
                f"({words.count(seats, 'proof')} of shuffle checked).")
    return f"Hand {hand + 1}: dealt from the seeded test deck."


def progress(kind: str, seats: tuple[int, ...], names: Sequence[str], hand: int) -> str:
    """The spinner's text after a sealed step of the protocol: what the table is doing now."""
    h = f"hand {hand + 1}: "
    if kind == "shuffle" and len(seats) == 1:
        seat = seats[0]
        checked = f"{words.possessive(names[seat])} proof of shuffle verified"
        if seat + 1 < len(names):
            return f"{h}{checked}; {names[seat + 1]} {words.verb(names[seat + 1], 'shuffles')}"
        return f"{h}{checked}; dealing"
    first = names[0] if names else "seat 0"
    return {
        "genesis": "every seat signed the table; drawing the first dealer",
        "coin_commit": "drawing the first dealer",
        "coin_reveal": "first dealer drawn; committing to the deal keys",
        "key_commit": f"{h}publishing the deal keys with proofs",
        "key_reveal": f"{h}{first} {words.verb(first, 'shuffles')} the deck",
        "share": f"{h}cards dealt, every decryption share verified",
        "reveal": f"{h}cards turned up",
        "audit": f"{h}the hand is opened and audited",
    }.get(kind, kind)


__all__ = ["CHEATS", "SEEDED", "VERIFIED", "audit_line", "audit_text", "back_line", "contradicted_line",
           "deal_line", "fault_line", "playing_line", "progress", "seat_names", "verdict_lines",
           "void_line"]
