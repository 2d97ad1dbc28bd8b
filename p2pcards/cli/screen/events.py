"""The table's own events on the game screen: the moves, the deal, a hand's result and the match's end;
and the screen itself, built with every renderer of the table's events (``game_screen``): these and
those of the game going on without a seat (``going_on``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from rich.rule import Rule
from rich.text import Text

from p2pcards.cli.screen import describe, going_on
from p2pcards.cli.screen.screen import GameScreen, Renderer
from p2pcards.cli.terminal import Terminal
from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis
from p2pcards.table.replica import Table


def game_screen(term: Terminal, genesis: Genesis, me: int, table: Callable[[], Table],
                names: Sequence[str]) -> GameScreen:
    """One seat's screen, showing every event of the table (``RENDERERS``)."""
    return GameScreen(term, genesis, me, table, names, RENDERERS)


def _state_changed(screen: GameScreen, event: out.StateChanged) -> None:
    kind = event.kind
    if not kind or not event.seats:
        return
    if kind not in ("action", "dummy"):
        _progress(screen, kind, event.seats)
        return
    text = event.text or "?"
    seat = event.seats[0]
    if screen.dealer != "mental" and screen.hand not in screen._shuffles:
        screen._shuffles[screen.hand] = 0
        _deal_line(screen)
    before, now = screen._before, screen.view()
    screen._before = now
    screen.term.emit({"event": "move", "hand": screen.hand, "seat": seat, "name": screen.real_names[seat],
                      "move": text, "table": None if now is None else screen.face.view_json(now)})
    if screen.summing or screen.term.json:
        return
    for line in screen.face.before_move(seat, text, before):
        screen.log(line, alone=True)
    forced, screen._forced = screen._forced, None
    if not (seat == screen.me and text == forced):
        screen.log(screen.face.move(seat, text))
    for line in screen.face.after(seat, text, before, now):
        screen.log(line)
    if screen.face.ends_group(seat, text, before, now):
        screen.flush()


def _progress(screen: GameScreen, kind: str, seats: tuple[int, ...]) -> None:
    if kind in ("share", "reveal"):  # cards dealt or turned up: the next move starts from here
        screen._before = screen.view()
    if kind == "shuffle":
        screen._shuffles[screen.hand] = screen._shuffles.get(screen.hand, 0) + 1
        if screen._shuffles[screen.hand] == screen.shufflers:
            _deal_line(screen)
    if not screen.summing:
        screen.activity(describe.progress(kind, seats, screen.names, screen.hand) + "…")


def _deal_line(screen: GameScreen) -> None:
    view = screen.view()
    dealer = getattr(view, "dealer", None)
    screen.term.emit({"event": "deal", "hand": screen.hand, "dealer": dealer, "dealt_by": screen.dealer,
                      "shuffles": screen._shuffles.get(screen.hand, 0)})
    if not screen.summing:
        screen.say(Text(describe.deal_line(screen.hand, screen.shufflers, screen.dealer), style="dim"))


def _hand_over(screen: GameScreen, event: out.HandOver) -> None:
    audit = event.audit
    face = screen.face
    result = face.hand_result(event.state, event.summary)
    screen.term.emit({
        "event": "hand_over", "hand": event.hand, "summary": event.summary, "replayed": screen.replaying,
        "result": "\n".join(t.plain for t in result), "outcome": face.result_json(event.state),
        "audit": {"ok": audit.ok, "seat": audit.seat, "rule": audit.rule, "move": audit.step,
                  "message": audit.message},
        "verified": describe.audit_text(audit, screen.dealer), **screen.result_json(event.match),
    })
    screen.hand = event.hand + 1
    screen._before = None
    screen.face.new_hand()
    if not screen.term.json:
        _hand_result(screen, event, result)
    going_on.announce_out(screen, event.hand, event.match)


def _hand_result(screen: GameScreen, event: out.HandOver, result: list[Text]) -> None:
    screen.flush()
    if screen.summing:  # a hand played before a resume, or without this seat: one line
        first = result[0].plain if result else ""
        how = "replayed from the journal" if screen.replaying else screen.summing_up
        screen.say(Text(f"Hand {event.hand + 1} ({how}): {first}", style="dim"))
        return
    screen.term.hide_status()
    screen.say(Rule(Text(f"Hand {event.hand + 1} over", style="bold")))
    for line in result:
        screen.say(line)
    screen.say(describe.audit_line(event.audit, screen.dealer, screen.names))
    if event.match is None or not event.match.over:  # the match's end gives the standings as its result
        screen.say(Text(screen.standings(event.match), style="dim"))


def _match_over(screen: GameScreen, event: out.MatchOver) -> None:
    lines = screen.face.match_result(screen.match, event.summary)
    screen.summing_up = ""
    screen.term.emit({"event": "match_over", "summary": event.summary, "digest": screen.table.digest().hex(),
                      "result": "\n".join(t.plain for t in lines), "abandoned": event.abandoned,
                      **screen.result_json()})
    if screen.term.json:
        return
    screen.flush()
    screen.term.hide_status()
    screen.say(Rule(Text("Match over", style="bold")))
    if event.abandoned:
        screen.say(Text("The match ended early: the last two players were left and one of them was silent, "
                        "so the other ended it. It is recorded as abandoned.", style="bold yellow"))
    for line in lines:
        screen.say(line)


RENDERERS: Mapping[type, Renderer] = {
    out.StateChanged: _state_changed,
    out.HandOver: _hand_over,
    out.MatchOver: _match_over,
    **going_on.RENDERERS,
}
"""Every event of the table a screen shows.  None for a turn (the seat that reads the answer shows it)
nor for waiting and refused frames (who the game waits for is the network's own line)."""

__all__ = ["RENDERERS", "game_screen"]
