"""The table as one seat sees it, for each game: who sits where, what lies on the table, the hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from p2pcards.cli.screen import cards as cv
from p2pcards.games import UNKNOWN, View
from p2pcards.games.azi.view import AziView
from p2pcards.games.cards import SUIT_NAMES, SUIT_SYMBOLS
from p2pcards.games.durak.state import DurakView
from p2pcards.games.spades.state import SpadesView

TURN = "▶"


@dataclass(frozen=True)
class Seats:
    """Who sits at the table: names by seat, and the seat whose screen this is."""

    names: tuple[str, ...]
    me: int

    def name(self, seat: int) -> str:
        return self.names[seat]

    def label(self, seat: int) -> str:
        return f"{self.names[seat]} (seat {seat})"


def render(view: View, seats: Seats, title: str) -> RenderableType:
    """The whole table for ``view`` under a ``title`` line."""
    if isinstance(view, DurakView):
        body = durak(view, seats)
    elif isinstance(view, SpadesView):
        body = spades(view, seats)
    elif isinstance(view, AziView):
        body = azi(view, seats)
    else:  # a game this screen does not know: its hand at least
        body = [hand_line(view.hand)]
    return Group(Text(title, style="bold underline"), *body)


def suit_text(suit: int) -> Text:
    if suit < 0:
        return Text("not turned yet", style="dim")
    return Text(f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}", style=cv.RED if suit in (1, 2) else cv.BLACK)


def hand_line(hand: Sequence[int], trump_suit: int = -1, unseen: int = 0) -> Text:
    line = Text("Your hand: ", style="bold")
    line.append_text(cv.cards(cv.sorted_hand(hand, trump_suit), empty="(no cards)" if not unseen else ""))
    if unseen:
        line.append(f"{' ' if hand else ''}+ {unseen} unseen card{'s' if unseen != 1 else ''}", style="dim")
    return line


def _seat_grid(*headers: str) -> Table:
    grid = Table(box=None, show_header=True, header_style="dim", pad_edge=False, padding=(0, 2, 0, 0))
    grid.add_column("")
    for h in headers:
        grid.add_column(h)
    return grid


def _who(view: View, seats: Seats, seat: int) -> Text:
    text = Text()
    text.append(TURN + " " if view.to_act == seat else "  ", style="bold yellow")
    text.append(seats.name(seat), style="bold" if seat == seats.me else "")
    return text


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ============================================================================ Durak


def durak(v: DurakView, seats: Seats) -> list[RenderableType]:
    head = Text("Trump: ")
    if v.trump != UNKNOWN:
        head.append_text(cv.card(v.trump))
        head.append("  ")
    head.append_text(suit_text(v.trump_suit))
    head.append(f"   talon: {v.talon_size}" + (" (the trump card is the last)" if v.talon_size else ""))
    head.append(f"   discarded: {len(v.discard)}")
    grid = _seat_grid("cards", "")
    out_seats = {s for group in v.out_order for s in group}
    for seat in range(len(v.hand_sizes)):
        role = ""
        if seat in out_seats:
            role = "out"
        elif seat == v.attacker:
            role = "attacks"
        elif seat == v.defender:
            role = "defends" + (" (taking)" if v.taking else "")
        if seat == v.dealer:
            role += (", " if role else "") + "dealer"
        known = v.known_cards[seat] if seat != seats.me else ()
        extra = Text(role)
        if known:
            extra.append("  known: ")
            extra.append_text(cv.cards(known))
        grid.add_row(_who(v, seats, seat), str(v.hand_sizes[seat]), extra)
    table: RenderableType
    if not v.table:
        table = Text.assemble(("Table: ", "bold"), ("empty", "dim"))
    else:
        table = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1, 0, 0))
        for _ in range(len(v.table) + 2):
            table.add_column()
        attacks = [cv.card(a) for a, _ in v.table]
        defences = [cv.card(d) if d != UNKNOWN else Text("—", style="yellow") for _, d in v.table]
        table.add_row(Text("Table:", style="bold"), Text("attack", style="dim"), *attacks)
        used = f"{len(v.table)} of {v.limit} attack cards"
        table.add_row(Text(""), Text("defence", style="dim"), *defences)
        if any(d == UNKNOWN for _, d in v.table):
            used += "; — is not beaten yet"
        table = Group(table, Text(f"       ({used})", style="dim"))
    return [head, grid, table, hand_line(v.hand, v.trump_suit)]


# ============================================================================ Spades


SPADES_TEAMS = ((0, 2), (1, 3))


def spades(v: SpadesView, seats: Seats) -> list[RenderableType]:
    head = Text(f"Dealer: {seats.name(v.dealer)}   spades ")
    head.append("broken" if v.spades_broken else "not broken yet")
    teams = Table(box=None, show_header=True, header_style="dim", pad_edge=False, padding=(0, 2, 0, 0))
    for h in ("team", "score", "bags", "bid", "tricks"):
        teams.add_column(h)
    for t, (a, b) in enumerate(SPADES_TEAMS):
        took = v.tricks_won[a] + v.tricks_won[b]
        teams.add_row(
            f"{seats.name(a)} & {seats.name(b)}", str(v.scores[t]), str(v.bags[t]),
            str(v.contracts[t]), str(took),
        )
    grid = _seat_grid("bid", "tricks", "cards", "")
    played = {seat: c for seat, c in v.trick}
    for seat in range(4):
        bid = v.bids[seat]
        bid_text = "—" if bid is None else ("nil" if bid == 0 else str(bid))
        in_trick = Text()
        if seat in played:
            in_trick.append("plays ")
            in_trick.append_text(cv.card(played[seat]))
            if v.trick and v.trick[0][0] == seat:
                in_trick.append(" (led)", style="dim")
        cards_left = 13 - sum(v.tricks_won) - (1 if seat in played else 0)
        grid.add_row(_who(v, seats, seat), bid_text, str(v.tricks_won[seat]), str(cards_left), in_trick)
    lines: list[RenderableType] = [head, teams, grid]
    if v.last_trick:
        last = Text("Last trick: ", style="dim")
        for i, (seat, c) in enumerate(v.last_trick):
            if i:
                last.append("  ")
            last.append(f"{seats.name(seat)} ")
            last.append_text(cv.card(c))
        lines.append(last)
    lines.append(hand_line(v.hand, 3))
    return lines


# ============================================================================ Azi


def azi(v: AziView, seats: Seats) -> list[RenderableType]:
    head = Text("Trump: ")
    if v.trump != UNKNOWN:
        head.append_text(cv.card(v.trump))
        head.append("  ")
    head.append_text(suit_text(v.trump_suit))
    head.append(f"   pot: {v.pot}   dealer: {seats.name(v.dealer)}")
    if v.level:
        head.append(f"   bet to match: {v.level}")
    if v.azi:
        head.append(f"   azi replay #{v.azi}", style="bold magenta")
    grid = _seat_grid("chips", "in pot", "bet", "tricks", "")
    in_trick = {seat: c for seat, c in v.trick}
    for seat in range(len(v.stacks)):
        notes = Text()
        if v.folded[seat]:
            notes.append("folded", style="dim")
        elif not v.in_hand[seat]:
            notes.append("not in this hand", style="dim")
        else:
            if v.blind[seat]:
                notes.append("blind ", style="magenta")
            if v.all_in[seat]:
                notes.append("all-in ", style="bold")
            if v.phase == "bidding" and seat == v.lead_claim:
                notes.append("highest bet ", style="dim")
            if v.phase == "bidding" and v.raises[seat]:
                notes.append("raised ", style="dim")
            if seat in in_trick:
                notes.append("plays ")
                notes.append_text(cv.card(in_trick[seat]))
                if v.trick and v.trick[0][0] == seat:
                    notes.append(" (led)", style="dim")
        bet = str(v.bets[seat]) if v.bets[seat] else ""
        grid.add_row(
            _who(v, seats, seat), str(v.stacks[seat]), str(v.contributions[seat]), bet,
            str(v.tricks[seat]) if v.phase in ("play", "over") else "", notes,
        )
    phase = Text(f"Phase: {v.phase}", style="dim")
    if v.call_cost and v.to_act == seats.me:
        phase.append(f"   to call: {v.call_cost}", style="dim")
    if v.top_card != UNKNOWN and v.top_card >= 0:
        phase.append("   six of trumps on stage: ", style="dim")
        phase.append_text(cv.card(v.top_card))
    unseen = max(0, v.hand_sizes[seats.me] - len(v.hand)) if seats.me < len(v.hand_sizes) else 0
    return [head, grid, phase, hand_line(v.hand, v.trump_suit, unseen)]
