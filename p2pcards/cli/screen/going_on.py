"""The game going on without a seat, on the screen: who was removed and why, a void hand dealt again,
who plays each deal (open dummies included), who comes back, the questions the table puts to a person
(keep waiting for a silent seat? admit a seat back?), and a seat out of the match (Azi, rule A15).

Only ``Table.stopped`` is "the game stopped"; every other verdict voids at most one hand and the
match goes on, and the screen says how.  ``RENDERERS`` maps each of these events to what shows it
(``screen.events`` registers them on every game screen).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text

from p2pcards.cli.screen import describe, questions, words
from p2pcards.cli.screen.screen import GameScreen, Renderer
from p2pcards.games import Match
from p2pcards.table import outputs as out

AWAY = "played without you"
"""How a hand is summed up while this seat catches up with what it missed (voted out)."""


# ============================================================================ verdicts


def _fault(screen: GameScreen, event: out.Fault) -> None:
    if screen.table.stopped is event:
        _stopped(screen, event)
        return
    seats = event.seats or (event.seat,)
    names = [screen.real_names[s] for s in seats if 0 <= s < screen.n]
    if event.kind == "return":
        return  # said with the seating of the hand the seat is dealt in again at (``_seating``)
    screen.term.emit({"event": "fault", "seat": event.seat, "kind": event.kind, "step": event.step,
                      "message": event.message, "hand": event.hand, "seats": list(seats), "names": names,
                      "stopped": False, "unconfirmed": event.unconfirmed})
    goes_on = screen.face.goes_on_without(seats)
    # A word of half the table or fewer binds nobody it names — but a voice that consented to half
    # the table's word, restoring or by its `return` (SPEC §6.5): its own replica takes nothing else
    # naming it.
    consented = event.kind == "silent" and event.unconfirmed and screen.me in seats
    if consented and event.seat != screen.me:
        return  # (one verdict per seat named: this seat's says it)
    lines = describe.verdict_lines(event, screen.names, screen.genesis.timeout_ms // 1000, goes_on, consented,
                                   screen.restoring)
    screen.term.hide_status()
    if screen.replaying:
        screen.say(Text(lines[0].plain, style="dim"))
    else:
        for line in lines:
            screen.say(line)
    if screen.me not in seats:
        return
    screen.removed = event.kind
    if not screen.replaying:
        # What the others played meanwhile may come in one burst (a seat that was cut off catches
        # up): one line a hand, until the command driving the screen says what happened and asks
        # what to do (``GameScreen.ask_if_out``).
        screen.summing_up = AWAY


def _stopped(screen: GameScreen, event: out.Fault) -> None:
    seats = event.seats or ((event.seat,) if event.seat >= 0 else ())
    screen.term.emit({"event": "fault", "seat": event.seat, "kind": event.kind, "step": event.step,
                      "message": event.message, "hand": event.hand, "seats": list(seats),
                      "names": [screen.real_names[s] for s in seats if 0 <= s < screen.n], "stopped": True,
                      "unconfirmed": event.unconfirmed})
    screen.term.hide_status()
    screen.say(describe.fault_line(event, screen.names))


def _hand_void(screen: GameScreen, event: out.HandVoid) -> None:
    seats = tuple(s for v in event.verdicts for s in (v.seats or (v.seat,)) if 0 <= s < screen.n)
    screen.term.emit({"event": "hand_void", "hand": event.hand, "seats": list(seats),
                      "names": [screen.real_names[s] for s in seats],
                      "kinds": [v.kind for v in event.verdicts]})
    screen.restart_hand(event.hand)
    screen.voided = event.hand
    if not screen.replaying:
        screen.say(describe.void_line(event.hand, screen.face.dealt_again(seats)))


# ============================================================================ who plays


def _seating(screen: GameScreen, event: out.Seating) -> None:
    before, screen.seating = screen.seating, event
    screen.face.away = dict(event.out)
    screen.term.emit({
        "event": "seating", "hand": event.hand, "playing": list(event.playing),
        "dummies": list(event.dummies),
        "out": [{"seat": s, "name": screen.real_names[s], "why": w} for s, w in event.out],
    })
    if screen.me in event.playing:
        screen.removed = None
    if before is None or screen.replaying:
        return
    was_out = {*dict(before.out), *before.dummies}
    back = [s for s in event.playing if s not in before.playing and s in was_out]
    dummies = [s for s in event.dummies if s not in before.dummies]
    if back:
        screen.term.emit({"event": "returned", "seats": back, "names": [screen.real_names[s] for s in back],
                          "hand": event.hand})
        screen.say(describe.back_line(back, screen.names, event.hand))
    for seat in dummies if screen.voided != event.hand else ():  # the void hand's line said so
        whose = words.possessive(screen.names[seat])
        screen.say(Text(f"Hand {event.hand + 1}: {whose} seat is an open dummy (cards face up, played by the "
                        "dummy policy).", style="dim"))
    changed = set(event.playing) != set(before.playing)
    if changed and not dummies and not back and screen.voided != event.hand:
        screen.say(describe.playing_line(event.hand, event.playing, screen.names))


def _sealed(screen: GameScreen, event: out.Sealed) -> None:
    screen.term.emit({"event": "sealed", "hand": event.hand, "seats": list(event.seats)})


def _restoring(screen: GameScreen, event: out.Restoring) -> None:
    # A seat back from its journal (maybe an older copy of it) signs nothing new until the others sent
    # all they hold (SPEC §9.6): its person must see why nothing happens, and when it is over.
    names = [screen.real_names[s] for s in event.seats if 0 <= s < screen.n]
    screen.term.emit({"event": "restoring", "step": event.step, "seats": list(event.seats), "names": names})
    if event.seats:
        screen.restoring = True
        screen.say(describe.restoring_line(event.seats, screen.names))
    elif screen.restoring:
        screen.restoring = False
        # "You play on" only where it is so: not to a seat left behind, out of the hand, or whose match
        # is over (what it holds now says so, and is told on its own line).
        out_of_it = screen.table.left_behind or screen.me in screen.face.away or screen.table.over
        then = "." if out_of_it else ", and you play on."
        screen.say(Text(f"Caught up: the others sent all they hold{then}", style="dim"))


def _contradicted(screen: GameScreen, event: out.VotesContradicted) -> None:
    # Half the table's word leaves this seat behind as a majority's does while it is still at the step
    # they went on from (``Table.left_behind``): its moves there count for nothing, and only its
    # `return` (its consent to their word) takes it where they are.
    behind = event.majority or (event.half and screen.table.left_behind)
    screen.term.emit({"event": "votes_contradicted", "step": event.step, "voters": list(event.voters),
                      "named": list(event.named), "majority": event.majority, "half": event.half,
                      "left_behind": behind})
    match = screen.table.match
    last_hand = (left := None if match is None else match.hands_left()) is not None and left <= 1
    if event.half and behind:
        screen.say(half_line(event.voters, event.named, event.step, screen.names, last_hand,
                             ends_without(screen, event.named)))
    else:
        screen.say(describe.contradicted_line(event.voters, event.named, event.step, screen.names,
                                              event.majority, last_hand, screen.restoring))
    if behind and not screen.replaying:
        ask_if_out(screen)


def half_line(voters: Sequence[int], named: Sequence[int], step: int, names: Sequence[str],
              last_hand: bool, ends: bool = False) -> Text:
    """Half the table went on without this seat by their word, from the step it is still at (``ends``:
    too few players were left, so their word ended the match there)."""
    who, gone = describe.seat_names(voters, names), describe.seat_names(named, names)
    if ends:
        text = (f"{who}, half of the table, ended the match without {gone} at step {step}: they did not hear "
                "from you in time, and without you too few players were left to play on (recorded as "
                "abandoned). Nothing you play at that step counts any more.")
        return Text(words.you_case(text), style="yellow")
    then = ("This is the match's last hand: you may watch it to its end, or leave." if last_hand else
            "You play again only if you ask: type `return` to agree and be dealt in again from the next "
            "hand.")
    text = (f"{who}, half of the table, went on without {gone} at step {step}: they did not hear from you in "
            f"time. Nothing you play at that step counts any more. {then}")
    return Text(words.you_case(text), style="yellow")


def ends_without(screen: GameScreen, voices: Sequence[int]) -> bool:
    """Whether the match ends, too few players left, once ``voices`` are out of it (each with the
    computer players its machine runs)."""
    match = screen.table.match
    if match is None or match.over:
        return False
    for seat in range(screen.n):
        if seat in voices or screen.genesis.runner_of(seat) in voices:
            match = match.without(seat)
    return match.over


# ============================================================================ the table's questions


def _silent(screen: GameScreen, event: out.SilentSeats) -> None:
    names = [screen.real_names[s] for s in event.seats]
    auto_in = None if event.auto_at is None else max(0, (event.auto_at - screen.now_ms()) // 1000)
    waited = event.waited_ms // 1000
    awaited = event.awaited or event.seats
    # The awaited (voices, as the question names them) whose frames arrive: a person thinking, whom
    # the program never deals out by itself (SPEC §10).
    connected = tuple(s for s in awaited if s in screen.table.back)
    screen.term.emit({"event": "silent", "step": event.step, "seats": list(event.seats), "names": names,
                      "waited_s": waited, "ask": event.ask, "auto_in_s": auto_in,
                      "end_match": event.end_match, "connected": list(connected)})
    if not event.ask:
        return
    quiet = tuple(s for s in event.seats if s not in awaited)
    shown = describe.seat_names(awaited, screen.names)
    quiet_shown = describe.seat_names(quiet, screen.names) if quiet else ""
    screen.ask(questions.silent(shown, len(awaited) > 1, waited, event.end_match, auto_in, event.seats,
                                event.step, event.auto_at, quiet_shown, connected,
                                describe.seat_names(connected, screen.names) if connected else ""))


def _return_asked(screen: GameScreen, event: out.ReturnAsked) -> None:
    screen.term.emit({"event": "return_asked", "seat": event.seat, "name": screen.real_names[event.seat]})
    screen.ask(questions.admit(screen.names[event.seat], event.seat))


# ============================================================================ out of the match (Azi A15)


def newly_out(screen: GameScreen, match: Match | None) -> list[tuple[int, int]]:
    """Seats the match has just put out for good (Azi A15: cannot pay the ante), with their score;
    each is reported once."""
    if match is None:
        return []
    found = []
    for standing in match.standings().seats:
        if standing.status == "out" and standing.seat not in screen.out_of_match:
            screen.out_of_match.add(standing.seat)
            found.append((standing.seat, standing.score))
    return found


def announce_out(screen: GameScreen, hand: int, match: Match | None) -> None:
    """After hand ``hand``: say who is out of the match now, and ask this seat's person, if it is
    out while the others play on, whether to watch or leave."""
    found = newly_out(screen, match)
    for seat, score in found:
        screen.term.emit({"event": "out_of_match", "hand": hand, "seat": seat,
                          "name": screen.real_names[seat], "score": score, "you": seat == screen.me,
                          "rule": screen.face.out_rule})
        if not screen.replaying:
            style = "bold yellow" if seat == screen.me else "yellow"
            screen.say(Text(screen.face.out_line(seat, score), style=style))
    if any(seat == screen.me for seat, _ in found) and not screen.replaying:
        ask_if_out(screen, match)


def ask_if_out(screen: GameScreen, match: Match | None = None) -> None:
    """This seat does not play now (voted out, out of chips): ask its person what to do (not once
    the match is over: ``match``, the match after the hand just played, may say so)."""
    question = None if match is not None and match.over else out_question(screen)
    if question is not None:
        screen.ask(question)


def out_question(screen: GameScreen) -> questions.Question | None:
    """What to ask this seat's person now that it does not play: come back (voted out), or watch
    or leave (out of chips, or named a cheater); None while it plays, or once the match is over."""
    table = screen.table
    if table.over or table.stopped is not None:
        return None
    if screen.me in screen.out_of_match:
        return questions.out_of_match((Text("You may watch the others play the match to its end, or leave "
                                            "now: the result is in your journal either way.", style="dim"),))
    why = table.seats_out.get(screen.me)
    if table.left_behind and ends_without(screen, (screen.me,)):
        return None if table.returning else questions.ended_without_you()
    if why in ("silent", "unconfirmed") or table.left_behind:
        match = table.match
        left = None if match is None else match.hands_left()
        if left is not None and left <= 1:
            return questions.out_of_match((Text("This is the last hand of the match: there is no next hand "
                                                "to be dealt in at. You may watch it to its end, or leave "
                                                "now.", style="dim"),))
        return None if table.returning else questions.come_back(max(table.hand_number, 0))
    if why == "cheat":
        return questions.out_of_match((Text("A seat named a cheater cannot come back to this match.",
                                            style="dim"),))
    return None


RENDERERS: Mapping[type, Renderer] = {
    out.Fault: _fault,
    out.HandVoid: _hand_void,
    out.Seating: _seating,
    out.Sealed: _sealed,
    out.Restoring: _restoring,
    out.VotesContradicted: _contradicted,
    out.SilentSeats: _silent,
    out.ReturnAsked: _return_asked,
}
"""The events of the game going on without a seat, and what shows each."""

__all__ = ["AWAY", "RENDERERS", "announce_out", "ask_if_out", "newly_out", "out_question"]
