"""Durak on the screen: the trump and the talon, who attacks and defends, the table, the last bout."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from p2pcards.cli.screen import cards as cv
from p2pcards.cli.screen import faces, words
from p2pcards.cli.screen.words import YOU
from p2pcards.games import UNKNOWN, HandState, Match, View
from p2pcards.games.cards import card_display, card_text
from p2pcards.games.durak.match import DurakMatch, DurakResult
from p2pcards.games.durak.state import DurakView

_VERBS = {"attack": ("attack with", "attacks with"), "add": ("throw in", "throws in"),
          "take": ("take the cards", "takes the cards"), "pass": ("pass", "passes"),
          "transfer": ("transfer with", "transfers with")}
_PLAYS = ("attack", "add", "beat")


class Face(faces.Face):
    example = "attack 7h"
    moves_help = "attack 7h, add 8h, beat 7h 9h, take, pass"
    card_note = "(two cards for a beat: 7h 9h)"

    def __init__(self, names: Sequence[str], me: int) -> None:
        super().__init__(names, me)
        self.last_bout: tuple[tuple[tuple[int, int], ...], str] | None = None
        """The cards of the bout just over and how it ended (``beaten``, or the defender's name)."""
        self._bout_end: View | None = None
        """The view when the last bout ended, until the next move (to tell what was drawn)."""
        self._passed_to = -1
        """The seat a transfer being told passes the bout to (D16), else -1."""

    def new_hand(self) -> None:
        self.last_bout = None
        self._bout_end = None

    # ------------------------------------------------------------------ drawing

    def table(self, view: View) -> list[RenderableType]:
        v = _durak(view)
        head = Text("Trump: ")
        if v.trump != UNKNOWN:
            head.append_text(cv.card(v.trump))
            head.append(" ")
        head.append_text(_suit(v.trump_suit))
        head.append(f"   talon: {v.talon_size}" + (" (the trump is drawn last)" if v.talon_size else ""))
        head.append(f"   discarded: {len(v.discard)}")
        grid = Table(box=None, show_header=False, pad_edge=False, padding=(0, 2, 0, 0))
        for _ in range(3):
            grid.add_column()
        out_seats = {s for group in v.out_order for s in group}
        for seat in range(len(v.hand_sizes)):
            role = ""
            gone = self.away_mark(seat)
            if gone:
                grid.add_row(self.who(v, seat), Text("—", style="dim"), Text(gone, style="dim"))
                continue
            if seat in out_seats:
                role = "out"
            elif seat == v.attacker:
                role = "attacks"
            elif seat == v.defender:
                role = "defends" + (" (taking)" if v.taking else "")
            if seat == v.dealer:
                role += (", " if role else "") + "dealer"
            extra = Text(role)
            known = v.known_cards[seat] if seat != self.me else ()
            if known:
                extra.append("  known: ")
                extra.append_text(cv.cards(known))
            grid.add_row(self.who(v, seat), words.count(v.hand_sizes[seat], "card"), extra)
        lines: list[RenderableType] = [head, grid, self._table_cards(v)]
        if self.last_bout is not None:
            lines.append(self._last_bout_line())
        lines.append(self.hand_line(v, v.trump_suit))
        return lines

    def _table_cards(self, v: DurakView) -> RenderableType:
        if not v.table:
            return Text.assemble(("Table: ", "bold"), ("empty", "dim"))
        grid = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1, 0, 0))
        for _ in range(len(v.table) + 2):
            grid.add_column()
        attacks = [cv.card(a) for a, _ in v.table]
        defences = [cv.card(d) if d != UNKNOWN else Text("—", style="yellow") for _, d in v.table]
        used = f"{len(v.table)} of {v.limit} attack cards"
        if any(d == UNKNOWN for _, d in v.table):
            used += "; — not beaten yet"
        grid.add_row(Text("Table:", style="bold"), Text("attack", style="dim"), *attacks,
                     Text(f"({used})", style="dim"))
        grid.add_row(Text(""), Text("defence", style="dim"), *defences)
        return Group(grid)

    def _last_bout_line(self) -> Text:
        assert self.last_bout is not None
        pairs, ending = self.last_bout
        line = Text("Last bout: ", style="dim")
        for i, (a, d) in enumerate(pairs):
            if i:
                line.append("  ")
            line.append_text(cv.card(a))
            if d != UNKNOWN:
                line.append("/", style="dim")
                line.append_text(cv.card(d))
        line.append(f"  ({ending})", style="dim")
        return line

    # ------------------------------------------------------------------ wording

    def move(self, seat: int, text: str) -> Text:
        name = self.name(seat)
        you = name == YOU
        verb, _, arg = text.partition(" ")
        line = Text(f"{name} ", style="bold")
        if verb == "beat":
            a, d = cv.cards_in(text)
            line.append("beat " if you else "beats ")
            line.append_text(cv.card(a))
            line.append(" with ")
            line.append_text(cv.card(d))
        elif verb == "show":
            if arg == "none":
                line.append("hold no trump" if you else "holds no trump")
            else:
                line.append("show your lowest trump " if you else "shows their lowest trump ")
                line.append_text(cv.move(arg))
        elif verb in _VERBS:
            line.append(_VERBS[verb][0 if you else 1])
            if arg:
                line.append(" ")
                line.append_text(cv.move(arg))
            if verb == "transfer" and self._passed_to >= 0:
                defender = self.name(self._passed_to)
                line.append(f" — {defender} now {'defend' if defender == YOU else 'defends'}")
        else:
            line.append_text(cv.move(text))
        return line

    def after(self, seat: int, text: str, before: View | None, now: View | None) -> list[Text]:
        if not _bout_ended(before, now):
            return []
        assert isinstance(before, DurakView) and isinstance(now, DurakView)
        pairs = _final_table(before, text)
        took = before.taking or text == "take"
        defender = self.name(before.defender)
        self.last_bout = (pairs, f"{defender} took them" if took else "beaten off")
        cards = 2 * len(pairs) - sum(1 for _, d in pairs if d == UNKNOWN)
        if took:
            said = f"{defender} {words.verb(defender, 'picks')} up {words.count(cards, 'card')}."
        else:
            goes = "goes" if cards == 1 else "go"
            said = f"The defence held: {words.count(cards, 'card')} {goes} to the discard."
        self._bout_end = now
        return [Text(said, style="dim")]

    def before_move(self, seat: int, text: str, before: View | None) -> list[Text]:
        """The cards drawn from the talon since the last bout ended (the draw follows the bout)."""
        self._passed_to = _next_defender(before, seat) if text.startswith("transfer") else -1
        end, self._bout_end = self._bout_end, None
        if not isinstance(end, DurakView) or not isinstance(before, DurakView) or end.bout > before.bout + 1:
            return []
        if before.talon_size >= end.talon_size:
            return []
        parts: list[Text] = []
        for s in range(len(before.hand_sizes)):
            n = before.hand_sizes[s] - end.hand_sizes[s]
            if n <= 0:
                continue
            name = self.name(s)
            part = Text(f"{'you' if name == YOU else name} {words.verb(name, 'draws')} {n}")
            if s == self.me:
                new = [c for c in before.hand if c not in end.hand]
                if new:
                    part.append(" (")
                    part.append_text(cv.cards(cv.sorted_hand(new, before.trump_suit)))
                    part.append(")")
            parts.append(part)
        if not parts:
            return []
        line = Text("From the talon: ", style="dim")
        for i, part in enumerate(parts):
            if i:
                line.append(", ")
            line.append_text(part)
        line.append(f"; {before.talon_size} left." if before.talon_size else "; the talon is empty.")
        return [line]

    def ends_group(self, seat: int, text: str, before: View | None, now: View | None) -> bool:
        return _bout_ended(before, now)

    def hint(self, text: str, view: View) -> str:
        verb, _, arg = text.partition(" ")
        if verb == "beat":
            a, d = cv.cards_in(text)
            return f"cover {card_display(a)} with {card_display(d)}"
        if verb == "transfer":
            nxt = _next_defender(view, view.seat)
            who = self.name(nxt) if nxt >= 0 else "the next player"
            return f"pass the attack on: {'you defend' if who == YOU else who + ' defends'} every card"
        return {
            "add": "throw it in",
            "take": "pick up every card on the table",
            "pass": "throw in nothing more",
            "show": "you hold no trump" if arg == "none" else "your lowest trump (the lowest leads)",
        }.get(verb, "")

    def goes_on_without(self, seats: Sequence[int]) -> str:
        them, their = self.them(seats)
        return f"The series goes on without {them}; {their} points stay in the standings, frozen."

    def hand_result(self, state: HandState, summary: str) -> list[Text]:
        r = state.result
        if not isinstance(r, DurakResult):
            return super().hand_result(state, summary)
        parts = []
        if r.out_order:
            first = words.join([self.name(s) for s in r.out_order[0]])
            parts.append(f"{first} went out first")
            parts += [f"then {words.join([self.name(s) for s in g])}" for g in r.out_order[1:]]
        if r.durak is None:
            text = ", ".join(parts) + "; everybody ran out together: no durak."
        else:
            loser = self.name(r.durak)
            tail = "You are the durak (the fool)!" if loser == YOU else f"{loser} is the durak (the fool)."
            text = (", ".join(parts) + ". " if parts else "") + tail
        return [Text(words.you_case(text), style="bold")]

    # ------------------------------------------------------------------ for programs

    def view_json(self, view: View) -> dict[str, Any]:
        v = _durak(view)
        return {
            **super().view_json(v), "phase": v.phase, "dealer": v.dealer,
            "trump": faces.card_or_none(v.trump),
            "trump_suit": "CDHS"[v.trump_suit] if v.trump_suit >= 0 else None,
            "talon": v.talon_size, "discarded": len(v.discard),
            "table": [[card_text(a), faces.card_or_none(d)] for a, d in v.table],
            "attacker": v.attacker, "defender": v.defender, "taking": v.taking, "limit": v.limit,
            "bout": v.bout, "hand_sizes": list(v.hand_sizes),
            "known": [[card_text(c) for c in known] for known in v.known_cards],
            "out": [list(group) for group in v.out_order],
        }

    def result_json(self, state: HandState) -> dict[str, Any]:
        r = state.result
        if not isinstance(r, DurakResult):
            return {}
        return {"out_order": [list(g) for g in r.out_order], "durak": r.durak}

    def standings_json(self, match: Match | None) -> dict[str, Any]:
        if not isinstance(match, DurakMatch):
            return {}
        return {"scores": list(match.scores), "hands_played": match.hands_played,
                "series_hands": match.series_hands, "dealer": match.dealer, "over": match.over}


def _durak(view: View) -> DurakView:
    assert isinstance(view, DurakView), "the Durak face draws Durak views"
    return view


def _suit(suit: int) -> Text:
    if suit < 0:
        return Text("not turned yet", style="dim")
    from p2pcards.games.cards import SUIT_NAMES, SUIT_SYMBOLS

    return Text(f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}", style=cv.RED if suit in (1, 2) else cv.BLACK)


def _next_defender(view: View | None, seat: int) -> int:
    """The seat a transfer by ``seat`` passes the bout to: the next seat clockwise still in the hand
    (D16), or -1 when the view does not say."""
    if not isinstance(view, DurakView):
        return -1
    n = len(view.hand_sizes)
    out = {s for group in view.out_order for s in group}
    for i in range(1, n):
        s = (seat + i) % n
        if s in view.seats and s not in out:
            return s
    return -1


def _bout_ended(before: View | None, now: View | None) -> bool:
    """The move between these views ended a bout: cards were on the table and now it is clear."""
    return (isinstance(before, DurakView) and isinstance(now, DurakView) and bool(before.table)
            and not now.table)


def _final_table(before: DurakView, text: str) -> tuple[tuple[int, int], ...]:
    """The bout's cards once ``text`` (the move that ended it) was played on ``before``'s table."""
    pairs = list(before.table)
    verb = text.split()[0]
    played = cv.cards_in(text)
    if verb == "beat" and len(played) == 2:
        pairs = [(a, played[1]) if a == played[0] else (a, d) for a, d in pairs]
    elif verb in ("add", "attack") and played:
        pairs.append((played[0], UNKNOWN))
    return tuple(pairs)
