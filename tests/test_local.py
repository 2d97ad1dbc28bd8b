"""``LocalRoom``: whole matches of every game with every seat a peer in one process, over the real
tables and (mostly) the real mental-poker dealer; the pull API of the human's seat."""

from __future__ import annotations

from typing import Any

import pytest

from p2pcards import games, local
from p2pcards.ai.base import RandomPlayer
from p2pcards.games import ActionError, OptionError, View
from p2pcards.local import HandEnded, LocalRoom, Moved, Notice, Progress
from p2pcards.store import MemoryStore
from p2pcards.table import outputs as out
from p2pcards.table.replica import Table

# Small, quick matches: one Durak hand, Spades to 100, Azi with three antes each.
MATCHES: list[tuple[str, int, dict[str, Any], str]] = [
    ("durak", 3, {}, "mental"),
    ("spades", 4, {"target": 100}, "seeded"),
    ("azi", 3, {"bankroll": 30, "ante": 10}, "mental"),
]


def hands(events: list[Any]) -> list[HandEnded]:
    return [e for e in events if isinstance(e, HandEnded)]


@pytest.mark.parametrize(("game", "players", "options", "dealer"), MATCHES)
def test_a_whole_match_of_computer_seats_agrees_and_every_hand_is_audited(
    game: str, players: int, options: dict[str, Any], dealer: str
) -> None:
    room = LocalRoom(game, players=players, options=options, human=None, level="easy", dealer=dealer, seed=11)
    room.run()
    events = room.take_events()
    assert room.over and room.fault is None and room.finished
    assert len({t.digest() for t in room.tables}) == 1, "every replica reached the same state"
    assert all(t.over for t in room.tables)
    ended = hands(events)
    assert ended and all(h.over.audit.ok for h in ended)
    assert [h.over.hand for h in ended] == list(range(len(ended)))
    assert sum(isinstance(e, out.MatchOver) for e in events) == 1
    assert not [e for e in events if isinstance(e, Notice)], "every computer player was available"
    assert any(isinstance(e, Moved) for e in events)
    if dealer == "mental":
        # Every seat dealt into a hand shuffled it with a proof: the seats of its key round, in turn.
        rounds = [e for e in events if isinstance(e, Progress) and e.kind in ("key_commit", "shuffle")]
        for hand in {e.hand for e in rounds}:
            keys = [e.seats for e in rounds if e.hand == hand and e.kind == "key_commit"]
            shuffles = [e.seats for e in rounds if e.hand == hand and e.kind == "shuffle"]
            assert keys and [(s,) for s in keys[-1]] == shuffles[-len(keys[-1]):]



def test_spades_with_the_mental_dealer() -> None:
    room = LocalRoom("spades", options={"target": 1, "floor": -1}, human=None, level="easy", seed=2)
    room.run()
    ended = hands(room.take_events())
    assert room.over and len(ended) == 1 and ended[0].over.audit.ok
    assert len({t.digest() for t in room.tables}) == 1


def test_the_human_seat_is_pulled_and_an_illegal_move_is_refused_with_the_tables_reason() -> None:
    room = LocalRoom("durak", players=2, human=1, level="easy", dealer="seeded", seed=5)
    with pytest.raises(ActionError, match="not your turn"):
        room.human_action("take")
    turns = 0
    refused = False
    turn = room.run_until_human()
    while turn is not None:
        assert room.turn is turn and turn.view.seat == 1 and turn.view.to_act == 1
        if not refused:
            with pytest.raises(ActionError):
                room.human_action("attack 2C")  # not even in a Durak deck
            with pytest.raises(ActionError):
                room.human_action("nonsense")
            refused = True
            assert room.turn is turn, "a refused move leaves the turn open"
        legal = turn.view.legal_actions
        room.human_action(room.rules.action_text(legal[-1]))
        turns += 1
        turn = room.run_until_human()
    events = room.take_events()
    assert room.over and turns > 3
    assert sum(1 for e in events if isinstance(e, out.YourTurn)) == turns
    assert sum(1 for e in events if isinstance(e, Moved) and e.seat == 1) == turns
    assert len({t.digest() for t in room.tables}) == 1
    with pytest.raises(ActionError):
        room.human_action("take")


def test_the_listener_sees_events_as_they_happen_and_view_follows_the_viewing_seat() -> None:
    seen: list[Any] = []
    room = LocalRoom("azi", players=2, options={"bankroll": 20, "ante": 10}, human=0, level="easy",
                     dealer="seeded", seed=3)
    room.listener = seen.append
    assert room.view() is None
    turn = room.run_until_human()
    assert turn is not None
    view = room.view()
    assert isinstance(view, View) and view.seat == 0 and view.legal_actions == turn.view.legal_actions
    room.human_action(room.rules.action_text(turn.view.legal_actions[0]))
    assert seen and seen == room.take_events()
    assert any(isinstance(e, Moved) and e.seat == 0 for e in seen), "the human's own move is an event too"


def test_a_seed_makes_the_room_reproducible_and_no_seed_gives_fresh_keys() -> None:
    def final(seed: int | None) -> tuple[bytes, bytes]:
        room = LocalRoom("durak", players=2, human=None, level="easy", seed=seed)
        room.run()
        return room.game_id, room.table.digest()

    assert final(4) == final(4)
    assert final(None)[0] != final(None)[0]


def test_the_viewing_seats_journal_replays_to_the_same_verdicts() -> None:
    kept: list[MemoryStore] = []

    def journal(game_id: bytes) -> MemoryStore:
        kept.append(MemoryStore())
        return kept[0]

    room = LocalRoom("durak", players=2, human=None, viewpoint=1, level="easy", seed=8, journal=journal)
    room.run()
    assert room.over and len(kept) == 1 and "master" in kept[0].kept
    assert all(label.endswith("master") for label in kept[0].kept), "one secret per seat, derived from"


    observer = Table(room.genesis, None, None)
    verdicts = observer.restore(kept[0].payloads())
    assert observer.over and observer.fault is None
    assert [type(v).__name__ for v in verdicts if isinstance(v, (out.HandOver, out.MatchOver))] == [
        "HandOver", "MatchOver"]


def test_a_missing_computer_player_is_replaced_by_a_random_one(monkeypatch: pytest.MonkeyPatch) -> None:
    def unavailable(*args: Any) -> Any:
        raise ImportError("no module named p2pcards.ai.durak.hard")

    monkeypatch.setattr(local, "ai_player", unavailable)
    room = LocalRoom("durak", players=2, human=None, level="hard", dealer="seeded", seed=1)
    assert room.level_of(0) == "random" and room.level_of(1) == "random"
    room.run()
    notices = [e for e in room.take_events() if isinstance(e, Notice)]
    assert room.over and len(notices) == 2 and "random legal moves" in notices[0].text


class _Broken:
    level = "broken"

    def choose(self, view: View) -> int:
        return -12345


def test_a_computer_player_that_breaks_is_replaced_and_the_game_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(local, "ai_player", lambda rules, level, seed: _Broken())
    room = LocalRoom("durak", players=2, human=None, level="easy", dealer="seeded", seed=1)
    room.run()
    notices = [e for e in room.take_events() if isinstance(e, Notice)]
    assert room.over and len(notices) == 2 and all("failed" in n.text for n in notices)
    assert room.level_of(0) == "random"


class _Recording:
    """Random play that keeps every view it was given."""

    level = "recording"

    def __init__(self, seed: int) -> None:
        self.inner = RandomPlayer(games.load("durak", players=2), seed)
        self.views: list[View] = []

    def choose(self, view: View) -> int:
        self.views.append(view)
        return self.inner.choose(view)


def test_ready_made_players_take_their_seats_and_halt_stops_a_running_room() -> None:
    seats = {0: _Recording(1), 1: _Recording(2)}
    room = LocalRoom("durak", players=2, human=None, computers=seats, dealer="seeded", seed=9)
    assert [room.level_of(s) for s in range(2)] == ["recording", "recording"]
    moved: list[Moved] = []

    def on_event(event: Any) -> None:
        if isinstance(event, Moved):
            moved.append(event)
            if len(moved) == 4:
                room.halt()

    room.run(on_event)
    assert room.halted and not room.finished and len(moved) == 4
    assert all(p.views and {v.seat for v in p.views} == {s} for s, p in seats.items())
    decisions = [len(p.views) for p in seats.values()]
    room.run()
    assert len(moved) == 4 and [len(p.views) for p in seats.values()] == decisions, "it stays halted"


def test_time_passing_does_not_disturb_a_room_that_loses_nothing() -> None:
    room = LocalRoom("durak", players=2, human=0, level="easy", dealer="seeded", seed=6)
    turn = room.run_until_human()
    room.tick(10_000)
    room.tick(20_000)
    assert room.run_until_human() is turn and room.fault is None


@pytest.mark.parametrize(("game", "players"), [("durak", 3), ("spades", 4), ("durak", 2)])
def test_a_person_thinking_for_hours_is_never_voted_out_by_the_computer_seats(
    game: str, players: int
) -> None:
    room = LocalRoom(game, players=players, human=0, level="easy", dealer="seeded", seed=3)
    turn = room.run_until_human()
    assert turn is not None
    for hours in range(1, 11):  # ten hours, the table's timeout (one hour) ten times over
        room.tick(hours * local.LOCAL_TIMEOUT_MS + 1)
        assert room.run_until_human() is turn
    assert room.table.verdicts == [] and room.table.seats_out == {} and not room.table.over
    room.human_action(room.rules.action_text(turn.view.legal_actions[0]))
    assert room.run_until_human() is not None or room.over  # and the game simply goes on


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "durak", "players": 2, "human": 2}, "no seat 2"),
        ({"game": "durak", "players": 2, "level": "grandmaster"}, "unknown level"),
        ({"game": "spades", "players": 3}, "exactly 4"),
        ({"game": "durak", "players": 2, "dealer": "honest"}, "unknown dealer"),
        ({"game": "durak", "players": 2, "levels": {0: "easy"}}, "not a computer seat"),
        ({"game": "poker"}, "unknown game"),
        ({"game": "durak", "players": 2, "computers": {0: _Recording(1)}}, "not a computer seat"),
        ({"game": "durak", "players": 2, "levels": {1: "easy"}, "computers": {1: _Recording(1)}},
         "both a level and a player"),
    ],
)
def test_bad_settings_are_refused_with_a_clear_message(kwargs: dict[str, Any], message: str) -> None:
    game = kwargs.pop("game")
    with pytest.raises(OptionError, match=message):
        LocalRoom(game, **kwargs)
