"""Sentences for what happened: moves, the deal, the end of a hand, the audit, a fault."""

from __future__ import annotations

import re

from rich.text import Text

from p2pcards.cli.screen import cards as cv
from p2pcards.games import AuditResult, HandState, View
from p2pcards.games.azi.result import AziResult
from p2pcards.games.azi.view import AziView
from p2pcards.games.durak.match import DurakResult
from p2pcards.games.durak.state import DurakView
from p2pcards.games.spades.scoring import HandResult
from p2pcards.games.spades.state import SpadesView
from p2pcards.local import Moved
from p2pcards.table import outputs as out

VERIFIED = "deck verified: every seat shuffled with a valid proof; no renege"
SEEDED = "seeded test deck (no shuffle proofs); every move checked: no renege"

_DURAK_VERBS = {
    "attack": "attacks with", "add": "throws in", "show": "shows the lowest trump", "take": "takes the cards",
    "pass": "passes",
}
_AZI_VERBS = {
    "fold": "folds", "call": "calls", "allin": "goes all-in", "look": "looks at the cards",
    "buyin": "buys into the azi replay", "decline": "sits out the azi replay",
}


def move(name: str, text: str) -> Text:
    """``Anna attacks with 7♥``; ``Boris beats 7♥ with 9♥``; ``You bid 4``."""
    verb, _, arg = text.partition(" ")
    line = Text(f"{name} ", style="bold")
    you = name == "You"
    if verb == "beat":
        a, d = cv.cards_in(text)
        line.append("beat " if you else "beats ")
        line.append_text(cv.card(a))
        line.append(" with ")
        line.append_text(cv.card(d))
        return line
    if text == "show none":
        line.append("show no trump" if you else "shows no trump")
        return line
    if verb in ("play", "bid", "bet", "raise", "discard"):
        if verb == "discard":
            line.append(f"discard{'' if you else 's'} a card (#{arg.removeprefix('#')}, face down)")
            return line
        if text == "bid nil":
            line.append("bid nil" if you else "bids nil")
            return line
        line.append(verb if you else _third(verb))
        line.append(" ")
        line.append_text(cv.move(arg))
        return line
    phrase = _DURAK_VERBS.get(verb) or _AZI_VERBS.get(verb)
    if phrase is None:
        line.append_text(cv.move(text))
        return line
    if you:
        phrase = _first_person(phrase)
    line.append(phrase)
    if arg:
        line.append(" ")
        line.append_text(cv.move(arg))
    return line


def _third(verb: str) -> str:
    return verb + ("es" if verb.endswith("s") else "s")


def _first_person(phrase: str) -> str:
    first, _, rest = phrase.partition(" ")
    fixed = {"goes": "go", "passes": "pass", "throws": "throw", "takes": "take", "shows": "show",
             "buys": "buy", "sits": "sit", "looks": "look", "calls": "call", "folds": "fold",
             "attacks": "attack"}.get(first, first)
    return f"{fixed} {rest}".strip()


def consequence(moved: Moved, view: View | None, names: tuple[str, ...],
                before: tuple[int, int, int]) -> Text | None:
    """A line on what ``moved`` led to: the trick it completed and who took it (Spades, Azi), or a
    Durak bout beaten off (``before`` is the hand, bout and discard size seen before the move)."""
    if isinstance(view, DurakView):
        hand, bout, discarded = before
        if hand == moved.hand and view.bout == bout + 1 and len(view.discard) > discarded:
            n = len(view.discard) - discarded
            return Text(f"The defence held: {n} cards go to the discard.", style="dim")
        return None
    if not moved.text.startswith("play ") or view is None:
        return None
    played = cv.cards_in(moved.text)[0]
    last: tuple[tuple[int, int], ...] = ()
    leader = -1
    if isinstance(view, SpadesView) and not view.trick:
        last, leader = view.last_trick, view.leader
    elif isinstance(view, AziView) and not view.trick:
        last, leader = view.played, view.leader
    if last and last[-1] == (moved.seat, played) and 0 <= leader < len(names):
        winner = names[leader]
        return Text(f"{winner} {'take' if winner == 'You' else 'takes'} the trick.", style="dim")
    return None


def audit_line(audit: AuditResult, dealer: str) -> Text:
    if not audit.ok:
        return Text(f"AUDIT FAILED: {audit}", style="bold red")
    return Text("✔ " + (VERIFIED if dealer == "mental" else SEEDED), style="green")


def audit_text(audit: AuditResult, dealer: str) -> str:
    return audit_line(audit, dealer).plain.removeprefix("✔ ")


def with_names(text: str, names: tuple[str, ...]) -> str:
    """The engines' summaries say ``seat 2``; people see ``Clara``."""

    def one(m: re.Match[str]) -> str:
        seat = int(m.group(1))
        return names[seat] if seat < len(names) else m.group(0)

    def several(m: re.Match[str]) -> str:
        seats = [int(s) for s in re.findall(r"\d+", m.group(0))]
        shown = [names[s] if s < len(names) else str(s) for s in seats]
        return ", ".join(shown[:-1]) + f" and {shown[-1]}"

    text = re.sub(r"\bseats (\d+(?:, \d+)*(?: and \d+)?)", several, text)
    text = re.sub(r"\bseat (\d+)\b", one, text)
    return re.sub(r"\bYou (\w+)\b", lambda m: "You " + _YOU.get(m.group(1), m.group(1)), text)


_YOU = {"does": "do", "has": "have", "is": "are", "was": "were", "wins": "win", "gets": "get",
        "holds": "hold", "deals": "deal", "takes": "take", "goes": "go", "plays": "play", "leads": "lead"}


def hand_result(state: HandState, names: tuple[str, ...], summary: str) -> list[Text]:
    """The result of a finished hand in a few lines, with the players' names."""
    result = state.result
    if isinstance(result, DurakResult):
        return [Text(_durak(result, names), style="bold")]
    if isinstance(result, HandResult):
        return _spades(result, names)
    if isinstance(result, AziResult):
        return [Text(_azi(result, names), style="bold")]
    return [Text(with_names(line, names)) for line in summary.splitlines()]


def _durak(r: DurakResult, names: tuple[str, ...]) -> str:
    def group(seats: tuple[int, ...]) -> str:
        shown = [names[s] for s in seats]
        return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]

    parts = []
    if r.out_order:
        parts.append(f"{group(r.out_order[0])} went out first")
        parts += [f"then {group(g)}" for g in r.out_order[1:]]
    if r.durak is None:
        return ", ".join(parts) + "; everybody ran out together: no durak."
    loser = names[r.durak]
    tail = "You are the durak (the fool)!" if loser == "You" else f"{loser} is the durak (the fool)."
    return (", ".join(parts) + ". " if parts else "") + tail


def _spades(r: HandResult, names: tuple[str, ...]) -> list[Text]:
    bids = ", ".join(f"{names[s]} {'nil' if b == 0 else b}" for s, b in enumerate(r.bids))
    tricks = ", ".join(f"{names[s]} {t}" for s, t in enumerate(r.tricks))
    lines = [Text(f"Bids: {bids}"), Text(f"Tricks: {tricks}")]
    for team in r.teams:
        a, b = ((0, 2), (1, 3))[team.team]
        body = team.line().split(": ", 1)[1]
        lines.append(Text(f"{names[a]} & {names[b]}: {body}", style="bold"))
    return lines


def _azi(r: AziResult, names: tuple[str, ...]) -> str:
    if r.azi:
        who = ", ".join(names[s] for s in r.trick_winners)
        return f"Azi! One trick each: the pot of {r.pot} is carried over; {who} play again."
    assert r.winner is not None
    w = names[r.winner]
    how = "everybody else folded" if r.uncontested else "tricks " + ", ".join(
        f"{names[s]} {t}" for s, t in enumerate(r.tricks) if t)
    text = f"{w} {'win' if w == 'You' else 'wins'} {r.payouts[r.winner]} chips of a pot of {r.pot} ({how})"
    back = [f"{names[s]} {p}" for s, p in enumerate(r.payouts) if p and s != r.winner]
    if back:
        text += "; back to " + ", ".join(back)
    return text + "."


def fault_line(fault: out.Fault, names: tuple[str, ...]) -> Text:
    who = names[fault.seat] if 0 <= fault.seat < len(names) else "no seat"
    return Text(f"The game stopped: {who} at fault ({fault.kind}) at step {fault.step}: "
                f"{with_names(fault.message, names)}", style="bold red")


def progress(kind: str, seats: tuple[int, ...], names: tuple[str, ...], hand: int) -> str:
    """The spinner's text after a sealed step of the protocol: what the table is doing now."""
    h = f"hand {hand + 1}: "
    if kind == "shuffle" and len(seats) == 1:
        seat = seats[0]
        checked = f"{names[seat]}'s proof of shuffle verified"
        if seat + 1 < len(names):
            return f"{h}{checked}; {names[seat + 1]} shuffles"
        return f"{h}{checked}; dealing"
    return {
        "genesis": "every seat signed the table; drawing the first dealer",
        "coin_commit": "drawing the first dealer",
        "coin_reveal": "first dealer drawn; committing to the deal keys",
        "key_commit": f"{h}publishing the deal keys with proofs",
        "key_reveal": f"{h}{names[0]} shuffles the deck",
        "share": f"{h}cards dealt, every decryption share verified",
        "reveal": f"{h}cards turned up",
        "audit": f"{h}the hand is opened and audited",
    }.get(kind, kind)
