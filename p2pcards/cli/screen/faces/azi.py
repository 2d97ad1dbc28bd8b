"""Azi on the screen: the trump, the pot and each player's chips and bets, the trick, the discards."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from p2pcards.cli.screen import cards as cv
from p2pcards.cli.screen import faces, words
from p2pcards.cli.screen.words import YOU
from p2pcards.games import UNKNOWN, HandState, Match, View
from p2pcards.games.azi.match import AziMatch
from p2pcards.games.azi.play import power
from p2pcards.games.azi.result import AziResult
from p2pcards.games.azi.view import AziView
from p2pcards.games.cards import SUIT_NAMES, SUIT_SYMBOLS, card_display, card_text

_VERBS = {
    "fold": ("fold", "folds"), "call": ("call", "calls"), "allin": ("go all-in", "goes all-in"),
    "look": ("look at your cards", "looks at the cards"), "buyin": ("buy into the azi replay", "buys in"),
    "decline": ("sit out the azi replay", "sits out the azi replay"),
}


class Face(faces.Face):
    example = "call"
    moves_help = "bet 5, raise (then the amount), call, fold, look, discard 8s, play qs"
    out_note = ("Out of the match (no chips left for the ante), you are asked whether to\n"
                "watch the others play on (w) or leave (l).")

    # ------------------------------------------------------------------ drawing

    def unseen(self, view: View) -> int:
        v = _azi(view)
        return max(0, v.hand_sizes[self.me] - len(v.hand)) if self.me < len(v.hand_sizes) else 0

    def table(self, view: View) -> list[RenderableType]:
        v = _azi(view)
        head = Text("Trump: ")
        if v.trump != UNKNOWN:
            head.append_text(cv.card(v.trump))
            head.append(" ")
        if v.trump_suit < 0:
            head.append("not turned yet", style="dim")
        else:
            suit = v.trump_suit
            colour = cv.RED if suit in (1, 2) else cv.BLACK
            head.append(f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}", style=colour)
        head.append(f"   pot: {v.pot}   dealer: {self.name(v.dealer)}")
        if v.level:
            head.append(f"   bet to match: {v.level}")
        if v.azi:
            head.append(f"   azi replay #{v.azi}", style="bold magenta")
        grid = Table(box=None, show_header=True, header_style="dim", pad_edge=False, padding=(0, 2, 0, 0))
        for h in ("", "chips", "in pot", "bet", "tricks", ""):
            grid.add_column(h)
        in_trick = dict(v.trick)
        for seat in range(len(v.stacks)):
            grid.add_row(self.who(v, seat), str(v.stacks[seat]), str(v.contributions[seat]),
                         str(v.bets[seat]) if v.bets[seat] else "",
                         str(v.tricks[seat]) if v.phase in ("play", "over") else "",
                         self._notes(v, seat, in_trick))
        phase = Text(f"Phase: {v.phase}", style="dim")
        if v.call_cost and v.to_act == self.me:
            phase.append(f"   to call: {v.call_cost}", style="dim")
        if v.top_card != UNKNOWN and v.top_card >= 0:
            phase.append("   six of trumps on stage: ", style="dim")
            phase.append_text(cv.card(v.top_card))
        lines: list[RenderableType] = [head, grid, phase]
        last = self._last_trick(v)
        if last is not None:
            lines.append(last)
        lines.append(self.hand_line(v, v.trump_suit))
        return lines

    def _notes(self, v: AziView, seat: int, in_trick: dict[int, int]) -> Text:
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
        return notes

    def _last_trick(self, v: AziView) -> Text | None:
        players = sum(1 for x in v.in_hand if x)
        if not v.played or players == 0 or len(v.played) % players:
            return None
        trick = v.played[-players:]
        line = Text("Last trick: ", style="dim")
        for i, (seat, c) in enumerate(trick):
            if i:
                line.append("  ")
            line.append(f"{self.name(seat)} ")
            line.append_text(cv.card(c))
        if not v.trick:
            line.append(f"  ({self.name(_taker(v, trick))} took it)", style="dim")
        return line

    # ------------------------------------------------------------------ the menu

    def _slot_card(self, text: str, view: View) -> int | None:
        """The card a ``discard #k`` throws away, if this seat knows it."""
        v = _azi(view)
        slot = int(text.removeprefix("discard #")) - 1
        size = v.hand_sizes[v.seat]
        if len(v.hand) == size and 0 <= slot < size:
            return v.hand[slot]
        if v.seat == v.dealer and v.trump in v.hand and slot == size - 1:
            return v.trump  # the dealer's last card is the face-up trump (A2), seen by everybody
        return None

    def move_cards(self, text: str, view: View) -> tuple[int, ...]:
        if text.startswith("discard #"):
            c = self._slot_card(text, view)
            return () if c is None else (c,)
        return super().move_cards(text, view)

    def label(self, text: str, view: View) -> str:
        if text.startswith("discard #"):
            c = self._slot_card(text, view)
            if c is not None:
                return f"discard {card_display(c)}"
        return text

    def menu_key(self, text: str, view: View) -> tuple[Any, ...]:
        """Discards in the order the hand is shown (sorted), the cards not seen after them."""
        if not text.startswith("discard #"):
            return super().menu_key(text, view)
        v = _azi(view)
        c = self._slot_card(text, view)
        shown = cv.sorted_hand(v.hand, v.trump_suit)
        if c is not None and c in shown:
            return (0, shown.index(c))
        return (1, int(text.removeprefix("discard #")))

    def hint(self, text: str, view: View) -> str:
        v = _azi(view)
        me = v.seat
        verb = text.partition(" ")[0]
        if verb == "discard":
            if self._slot_card(text, view) is not None:
                return "face down, kept secret"
            return f"your card #{text.removeprefix('discard #')} as dealt, not looked at"
        if verb == "bet":
            return "open the betting" + (" (a blind bet counts double)" if v.blind[me] else "")
        if verb == "raise":
            blind = " (counts double: blind)" if v.blind[me] else ""
            return f"pay {v.call_cost} to call and N more{blind}"
        return {
            "fold": "give up the hand (what you paid stays in the pot)",
            "call": f"pay {v.call_cost} to match the bet",
            "allin": f"pay all your {v.stacks[me]} chips",
            "look": "look at your cards (you stop playing blind)",
            "buyin": f"pay {v.buy_in_price} to join the azi replay",
            "decline": "sit out the azi replay",
        }.get(verb, "")

    # ------------------------------------------------------------------ wording

    def move(self, seat: int, text: str) -> Text:
        name = self.name(seat)
        you = name == YOU
        verb, _, arg = text.partition(" ")
        line = Text(f"{name} ", style="bold")
        if verb == "discard":
            line.append("discard a card, face down" if you else "discards a card, face down")
        elif verb in ("bet", "raise", "play"):
            line.append(verb if you else verb + "s")
            line.append(" ")
            line.append_text(cv.move(arg))
        elif verb in _VERBS:
            line.append(_VERBS[verb][0 if you else 1])
        else:
            line.append_text(cv.move(text))
        return line

    def after(self, seat: int, text: str, before: View | None, now: View | None) -> list[Text]:
        if not text.startswith("play ") or not isinstance(now, AziView) or now.trick or not now.played:
            return []
        players = sum(1 for x in now.in_hand if x)
        if now.played[-1] != (seat, cv.cards_in(text)[0]) or not players or len(now.played) % players:
            return []
        winner = self.name(_taker(now, now.played[-players:]))
        return [Text(f"{winner} {words.verb(winner, 'takes')} the trick.", style="dim")]

    def ends_group(self, seat: int, text: str, before: View | None, now: View | None) -> bool:
        if self.after(seat, text, before, now):
            return True
        return isinstance(before, AziView) and isinstance(now, AziView) and before.phase != now.phase

    out_rule = "A15"

    def out_line(self, seat: int, score: int) -> str:
        name = self.name(seat)
        whose = "your" if seat == self.me else words.possessive(name)
        return words.you_case(
            f"{name} cannot pay the ante: {name} {words.verb(name, 'is')} out of the match (rule A15); "
            f"{whose} {words.count(score, 'chip')} stay in the standings.")

    def goes_on_without(self, seats: Sequence[int]) -> str:
        them, their = self.them(seats)
        return f"The match goes on without {them}; {their} chips stay in the standings, frozen."

    def hand_result(self, state: HandState, summary: str) -> list[Text]:
        r = state.result
        if not isinstance(r, AziResult):
            return super().hand_result(state, summary)
        if r.azi:
            who = words.join([self.name(s) for s in r.trick_winners])
            return [Text(words.you_case(f"Azi! One trick each: the pot of {r.pot} is carried over; {who} "
                                        "play again."), style="bold")]
        assert r.winner is not None
        w = self.name(r.winner)
        how = "everybody else folded" if r.uncontested else "tricks " + ", ".join(
            f"{self.name(s)} {t}" for s, t in enumerate(r.tricks) if t)
        text = f"{w} {words.verb(w, 'wins')} {r.payouts[r.winner]} chips of a pot of {r.pot} ({how})"
        back = [f"{self.name(s)} {p}" for s, p in enumerate(r.payouts) if p and s != r.winner]
        if back:
            text += "; back to " + ", ".join(back)
        return [Text(words.you_case(text + "."), style="bold")]

    def match_result(self, match: Match | None, summary: str) -> list[Text]:
        """Who won, then the standings: every player's chips, highest first, those out included
        (the rules' "End of the match")."""
        if not isinstance(match, AziMatch):
            return super().match_result(match, summary)
        stacks = match.stacks
        ranking = sorted(range(len(stacks)), key=lambda s: (-stacks[s], s))
        top = stacks[ranking[0]] if ranking else 0
        first = [self.name(s) for s in ranking if stacks[s] == top]
        who = words.join(first)
        if match.winner is not None:
            head = f"{who} {words.verb(who, 'wins')} the match, holding every chip ({top})."
        elif match.abandoned:
            head = f"The match was abandoned; most chips: {who} ({top})."
        elif len(first) > 1:
            head = f"{who} share first place, with {words.count(top, 'chip')} each."
        else:
            head = f"{who} {words.verb(who, 'wins')} the match, with {words.count(top, 'chip')}."
        out, away = match.out, match.away
        parts = [f"{self.name(s)} {stacks[s]}" + (" (away)" if s in away else " (out)" if s in out else "")
                 for s in ranking]
        return [Text(words.you_case(head), style="bold"), Text(words.you_case("Chips: " + ", ".join(parts)))]

    # ------------------------------------------------------------------ for programs

    def view_json(self, view: View) -> dict[str, Any]:
        v = _azi(view)
        return {
            **super().view_json(v), "phase": v.phase, "dealer": v.dealer, "azi": v.azi,
            "trump": faces.card_or_none(v.trump),
            "trump_suit": "CDHS"[v.trump_suit] if v.trump_suit >= 0 else None,
            "top_card": faces.card_or_none(v.top_card), "pot": v.pot, "level": v.level,
            "chips": list(v.stacks), "in_pot": list(v.contributions), "bets": list(v.bets),
            "blind": list(v.blind), "in_hand": list(v.in_hand), "folded": list(v.folded),
            "all_in": list(v.all_in), "trick": [[s, card_text(c)] for s, c in v.trick],
            "tricks": list(v.tricks), "call_cost": v.call_cost, "unseen": self.unseen(v),
        }

    def result_json(self, state: HandState) -> dict[str, Any]:
        r = state.result
        if not isinstance(r, AziResult):
            return {}
        return {"winner": r.winner, "azi": r.azi, "uncontested": r.uncontested, "pot": r.pot,
                "tricks": list(r.tricks), "payouts": list(r.payouts), "chips": list(r.stacks)}

    def standings_json(self, match: Match | None) -> dict[str, Any]:
        if not isinstance(match, AziMatch):
            return {}
        return {"chips": list(match.stacks), "carried_pot": match.pot, "dealer": match.dealer,
                "out": [s for s, c in enumerate(match.stacks) if c < match.rules.ante],
                "winner": match.winner, "over": match.over}


def _taker(v: AziView, trick: Sequence[tuple[int, int]]) -> int:
    """The seat that took a finished trick.  Not ``v.leader``: after the last trick of a hand
    nobody leads, and the leader stays the one of that trick."""
    led = trick[0][1] // 13
    return max(trick, key=lambda play: power(play[1], led, v.trump_suit, v.top_card))[0]


def _azi(view: View) -> AziView:
    assert isinstance(view, AziView), "the Azi face draws Azi views"
    return view
