"""Sentences that every game shares: the deal's progress, the audit verdict, a fault."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from p2pcards.cli.screen import words
from p2pcards.games import AuditResult
from p2pcards.table import outputs as out

VERIFIED = "deck verified: every seat shuffled with a valid proof; no renege"
SEEDED = "seeded test deck (no shuffle proofs); every move checked: no renege"


def audit_line(audit: AuditResult, dealer: str, names: Sequence[str] = ()) -> Text:
    if not audit.ok:
        return Text(words.with_names(f"AUDIT FAILED: {audit}", names), style="bold red")
    return Text("✔ " + (VERIFIED if dealer == "mental" else SEEDED), style="green")


def audit_text(audit: AuditResult, dealer: str) -> str:
    return audit_line(audit, dealer).plain.removeprefix("✔ ")


def fault_line(fault: out.Fault, names: Sequence[str]) -> Text:
    who = names[fault.seat] if 0 <= fault.seat < len(names) else "no seat"
    return Text(words.you_case(f"The game stopped: {who} at fault ({fault.kind}) at step {fault.step}: "
                               f"{words.with_names(fault.message, names)}"), style="bold red")


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


__all__ = ["SEEDED", "VERIFIED", "audit_line", "audit_text", "deal_line", "fault_line", "progress"]
