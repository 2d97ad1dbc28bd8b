"""Spades on the screen: the two partnerships, bids and tricks, the trick on the table, the last one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from p2pcards.cli.screen import cards as cv
from p2pcards.cli.screen import faces, words
from p2pcards.cli.screen.words import YOU
from p2pcards.games import HandState, Match, View
from p2pcards.games.cards import SPADES, card_text
from p2pcards.games.spades.match import SpadesMatch
from p2pcards.games.spades.scoring import TEAMS, HandResult
from p2pcards.games.spades.state import BLIND_NIL, SpadesState, SpadesView, trick_winner


class Face(faces.Face):
    example = "play 7h"
    moves_help = "bid 4, bid nil, play qs"
    trump_suit = SPADES

    def team(self, t: int) -> str:
        a, b = TEAMS[t]
        return f"{self.name(a)} & {self.name(b)}"

    # ------------------------------------------------------------------ drawing

    def table(self, view: View) -> list[RenderableType]:
        v = _spades(view)
        head = Text(f"Dealer: {self.name(v.dealer)}   spades ")
        head.append("broken" if v.spades_broken else "not broken yet")
        if v.eligible:
            who = words.join([self.name(s) for s in v.eligible])
            head.append(f"   blind nil open to {who} (100 or more behind)", style="dim")
        grid = Table(box=None, show_header=True, header_style="dim", pad_edge=False, padding=(0, 2, 0, 0))
        for h in ("", "bid", "tricks", "cards", "team score", ""):
            grid.add_column(h)
        played = dict(v.trick)
        for seat in range(4):
            bid = v.bids[seat]
            in_trick = Text()
            if seat in played:
                in_trick.append("plays ")
                in_trick.append_text(cv.card(played[seat]))
                if v.trick and v.trick[0][0] == seat:
                    in_trick.append(" (led)", style="dim")
            t = 0 if seat in TEAMS[0] else 1
            team = f"{v.scores[t]}, {words.count(v.bags[t], 'bag')}" if seat == TEAMS[t][0] else ""
            cards_left = 13 - sum(v.tricks_won) - (1 if seat in played else 0)
            grid.add_row(self.who(v, seat), "—" if bid is None else bid_text(v, seat),
                         str(v.tricks_won[seat]), str(cards_left), team, in_trick)
        contracts = Text("Contracts: ", style="dim")
        for t in (0, 1):
            a, b = TEAMS[t]
            took = v.tricks_won[a] + v.tricks_won[b]
            gap = "   " if t else ""
            contracts.append(f"{gap}{self.team(t)} {v.contracts[t]} (taken {took})", style="dim")
        lines: list[RenderableType] = [head, grid, contracts]
        if v.last_trick:
            last = Text("Last trick: ", style="dim")
            for i, (seat, c) in enumerate(v.last_trick):
                if i:
                    last.append("  ")
                last.append(f"{self.name(seat)} ")
                last.append_text(cv.card(c))
            last.append(f"  ({self.name(v.leader)} took it)", style="dim")
            lines.append(last)
        for seat in v.dummies:
            if seat != self.me:
                lines.append(self.dummy_line(v, seat))
        lines.append(self.hand_line(v))
        if self.me in v.dummies:
            lines.append(Text("Your seat is an open dummy: your cards are face up and played by the dummy "
                              "policy (`return` asks to play again).", style="dim"))
        return lines

    def hand_line(self, view: View, trump_suit: int | None = None) -> Text:
        v = _spades(view)
        if not v.face_down:
            return super().hand_line(view, trump_suit)
        line = Text("Your hand: ", style="bold")
        line.append("your cards are face down", style="bold magenta")
        if BLIND_NIL in v.legal_actions:
            line.append(" - look at them and bid, or bid blind nil without looking (±200)", style="dim")
        elif v.seat in v.blind_nil:
            line.append(" - you bid blind nil: you see them once the bidding is over", style="dim")
        else:
            line.append(" - at your turn to bid you may look at them, or bid blind nil", style="dim")
        return line

    def dummy_line(self, v: SpadesView, seat: int) -> Text:
        """An open dummy's cards, face up for everyone."""
        line = Text(f"{words.possessive(self.name(seat))} cards (open dummy): ", style="bold")
        held = dummy_cards(v, seat)
        if held:
            line.append_text(cv.cards(cv.sorted_hand(held, SPADES)))
        else:
            line.append("none left", style="dim")
        return line

    def who(self, view: View, seat: int) -> Text:
        text = super().who(view, seat)
        if seat in _spades(view).dummies:
            text.append(" (dummy)", style="dim")
        return text

    def dealt_again(self, seats: Sequence[int]) -> str:
        if not seats:
            return ""
        whose = words.possessive(words.join([self.name(s) for s in seats]))
        return f", with {whose} {'seat' if len(seats) == 1 else 'seats'} as an open dummy"

    def goes_on_without(self, seats: Sequence[int]) -> str:
        _, their = self.them(seats)
        whose = "your" if their == "your" else words.possessive(words.join([self.name(s) for s in seats]))
        seat = "seat is" if len(seats) == 1 else "seats are"
        return (f"From the next deal {whose} {seat} an open dummy: {their} cards are dealt face up to "
                f"everyone and played by the dummy policy that every player's program runs the same way; "
                f"{their} team keeps its score.")

    # ------------------------------------------------------------------ wording

    def move(self, seat: int, text: str) -> Text:
        name = self.name(seat)
        you = name == YOU
        verb, _, arg = text.partition(" ")
        line = Text(f"{name} ", style="bold")
        if text == "bid nil":
            line.append("bid nil" if you else "bids nil")
        elif text == "bid blind nil":
            line.append("bid blind nil" if you else "bids blind nil", style="magenta")
        elif text == "look":
            line.append("look at your cards" if you else "looks at their cards")
        elif verb in ("bid", "play"):
            line.append(verb if you else verb + "s")
            line.append(" ")
            line.append_text(cv.move(arg))
        else:
            line.append_text(cv.move(text))
        return line

    def __init__(self, names: Sequence[str], me: int) -> None:
        super().__init__(names, me)
        self._trick: list[tuple[int, int]] = []
        """The plays of the trick being played, as the moves were shown.  Kept here rather than read
        from the views: an open dummy's moves are made in the same breath as the move before them,
        so the view after one of them may already show the next."""
        self._bids = 0
        self._took: int | None = None

    def after(self, seat: int, text: str, before: View | None, now: View | None) -> list[Text]:
        self._took = None
        if text.startswith("bid"):
            self._trick = []
            self._bids += 1
            return []
        if not text.startswith("play "):
            return []
        self._bids = 0
        played = cv.cards_in(text)[0]
        if not self._trick and isinstance(before, SpadesView) and before.trick and len(before.trick) < 4 \
                and all(c != played for _, c in before.trick):
            self._trick = list(before.trick)  # shown from the middle of a trick (a resumed game)
        self._trick.append((seat, played))
        if len(self._trick) < 4:
            return []
        self._took = trick_winner(self._trick)
        self._trick = []
        winner = self.name(self._took)
        return [Text(f"{winner} {words.verb(winner, 'takes')} the trick.", style="dim")]

    def ends_group(self, seat: int, text: str, before: View | None, now: View | None) -> bool:
        return self._took is not None or (text.startswith("bid") and self._bids % 4 == 0)

    def hint(self, text: str, view: View) -> str:
        return {"bid nil": "take no trick: ±100",
                "bid blind nil": "take no trick, without seeing your cards: ±200",
                "look": "see your cards, then bid"}.get(text, "")

    def hand_result(self, state: HandState, summary: str) -> list[Text]:
        r = state.result
        if not isinstance(r, HandResult):
            return super().hand_result(state, summary)
        bids = ", ".join(f"{self.name(s)} {r.bid_text(s)}" for s in range(len(r.bids)))
        tricks = ", ".join(f"{self.name(s)} {t}" for s, t in enumerate(r.tricks))
        lines = [Text(f"Bids: {bids}"), Text(f"Tricks: {tricks}")]
        for team in r.teams:
            body = team.line().split(": ", 1)[1]
            lines.append(Text(f"{self.team(team.team)}: {body}", style="bold"))
        return lines

    def match_result(self, match: Match | None, summary: str) -> list[Text]:
        if not isinstance(match, SpadesMatch):
            return super().match_result(match, summary)
        n = match.hands_played
        scores = "; ".join(f"{self.team(t)} {match.scores[t]} points, {words.count(match.bags[t], 'bag')}"
                           for t in (0, 1))
        line = Text(f"After {words.count(n, 'hand')}: {scores}.", style="bold")
        if match.winner is None:
            return [line]
        winners = self.team(match.winner)
        ours = self.me in TEAMS[match.winner]
        loser = 1 - match.winner
        floor, target = match.rules.floor, match.rules.target
        # S15: a team at the floor loses, whatever the other scored; say which way the match ended
        why = (f" ({self.team(loser)} fell to {floor} or below)" if match.scores[loser] <= floor
               and match.scores[match.winner] < target else f" (reaching {target})")
        return [line, Text(f"{winners} win{why}." + (" Well played!" if ours else ""), style="bold")]

    # ------------------------------------------------------------------ for programs

    def view_json(self, view: View) -> dict[str, Any]:
        v = _spades(view)
        return {
            **super().view_json(v), "dealer": v.dealer, "bids": list(v.bids), "tricks": list(v.tricks_won),
            "trick": [[s, card_text(c)] for s, c in v.trick], "leader": v.leader,
            "last_trick": [[s, card_text(c)] for s, c in v.last_trick], "spades_broken": v.spades_broken,
            "scores": list(v.scores), "bags": list(v.bags), "contracts": list(v.contracts),
            "dummies": {str(d): [card_text(c) for c in dummy_cards(v, d)] for d in v.dummies},
            "blind_nil": list(v.blind_nil), "eligible": list(v.eligible), "face_down": v.face_down,
        }

    def result_json(self, state: HandState) -> dict[str, Any]:
        r = state.result
        if not isinstance(r, HandResult):
            return {}
        return {"bids": list(r.bids), "blind_nil": list(r.blind), "tricks": list(r.tricks),
                "teams": [{"seats": list(TEAMS[t.team]), "points": t.points, "score": t.score, "bags": t.bags,
                           "contract": t.contract, "made": t.made} for t in r.teams]}

    def standings_json(self, match: Match | None) -> dict[str, Any]:
        if not isinstance(match, SpadesMatch):
            return {}
        return {"teams": [{"seats": list(TEAMS[t]), "score": match.scores[t], "bags": match.bags[t]}
                          for t in (0, 1)],
                "hands_played": match.hands_played, "target": match.rules.target, "winner": match.winner}


def bid_text(view: SpadesView, seat: int) -> str:
    """A bid made, as the public bids show it: ``blind nil``, ``nil`` or the number (S17)."""
    b = view.bids[seat]
    if b == 0:
        return "blind nil" if seat in view.blind_nil else "nil"
    return str(b)


def dummy_cards(view: SpadesView, seat: int) -> tuple[int, ...]:
    """The cards an open dummy still holds: dealt face up, so every seat's replica knows them."""
    masked = view.masked
    return masked.held(seat) if isinstance(masked, SpadesState) else ()


def _spades(view: View) -> SpadesView:
    assert isinstance(view, SpadesView), "the Spades face draws Spades views"
    return view
