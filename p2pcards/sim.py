"""Tournaments between computer players, played through the replicated table (``p2pcards sim``).

Every unit of play runs on a ``p2pcards.local.LocalRoom`` with the seeded dealer: one ``Table``
replica per seat, each seat a peer with its own Ed25519 key, signing its moves into the hash-chained
log that every replica checks; the hands are dealt by a known deck order instead of mental poker, and
audited at their end like any other.  Each seat's player is the room's computer seat, so it is given
its own replica's view (``YourTurn.view``) and nothing else.

What a tournament is — deals, entries, layouts, the adapters that say what a unit of play is and how
it is judged, and the report — is defined in ``p2pcards.ai.tournament``, beside the players; this
module, a layer above the table, plays it.  A table plays its match to the end; the room is halted
where the unit ends (``UnitWatch``), which is usually sooner.  A computer player that fails (raises,
or chooses an illegal action) stops the tournament with an error naming it: the room's random
stand-in never plays in a tournament.

Results are identical whatever ``jobs`` is: every deal is played by the same code from the same seeds
(a room's keys, genesis and secrets derive from its seed), and the report is assembled in deal order.
Decision times (``time.perf_counter`` around each ``choose`` with two or more legal actions) are
measured, not replicated, and vary from run to run.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterator, Sequence

from p2pcards.ai.base import Player
from p2pcards.ai.tournament import (
    Config,
    Outcome,
    Plan,
    Report,
    Unit,
    UnitResult,
    build_report,
    deal_seed,
    entry_labels,
    make_player,
    plan,
    player_seed,
)
from p2pcards.games import Action, GameError, HandState, Match, View
from p2pcards.local import Event, HandEnded, LocalRoom, Moved, Notice
from p2pcards.table.outputs import Fault

__all__ = ["TimedPlayer", "UnitWatch", "iter_deals", "play_deal", "play_unit", "run"]


class TimedPlayer:
    """A seat's player as its room sees it: each decision among two or more legal actions is timed,
    and a failure (an exception, or an illegal action) is kept as an error naming the player, since
    the room itself would only replace the player by random play and go on."""

    def __init__(self, player: Player, kind: str, seat: int, deal: int, times: list[float]) -> None:
        self.player = player
        self.level = kind
        self.seat = seat
        self.deal = deal
        self.times = times
        self.failure: GameError | None = None

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        started = time.perf_counter()
        try:
            action = self.player.choose(view)
        except Exception as exc:
            self.failure = GameError(f"the {self.level} player of seat {self.seat} failed in deal "
                                     f"{self.deal}: {exc!r}")
            raise
        spent = time.perf_counter() - started
        if action not in legal:
            self.failure = GameError(f"the {self.level} player of seat {self.seat} chose {action!r}, "
                                     f"which is not legal (deal {self.deal})")
            raise self.failure
        if len(legal) > 1:
            self.times.append(spent)
        return action


class UnitWatch:
    """Follows the events of one unit's room and halts it where the unit ends: when the adapter says
    the unit is complete, at the hand limit, or in a hand still going after ``max_moves`` moves."""

    def __init__(self, p: Plan, deal: int, room: LocalRoom, seats: Sequence[TimedPlayer]) -> None:
        self.plan = p
        self.deal = deal
        self.room = room
        self.seats = seats
        self.hands: list[HandState] = []
        self.match: Match | None = None
        self.moves = 0
        """Moves made in the hand being played."""
        self.complete = False
        self.stopped = False
        self.abandoned = False

    def __call__(self, event: Event) -> None:
        if isinstance(event, Moved):
            self.moves += 1
            if self.moves > self.plan.config.max_moves:
                self.abandoned = True
                self.room.halt()
        elif isinstance(event, HandEnded):
            self._hand_over(event.over.state, event.over.match)
        elif isinstance(event, Notice):
            raise self._failure(event.seat, event.text)
        elif isinstance(event, Fault):
            raise GameError(f"the table stopped in deal {self.deal}: {event.describe()}")

    def _hand_over(self, state: HandState, event_match: Match | None) -> None:
        self.hands.append(state)
        self.moves = 0
        self.match = event_match  # the match settled with this hand
        assert self.match is not None
        if self.plan.adapter.unit_over(self.match, len(self.hands)):
            self.complete = True
        elif len(self.hands) >= self.plan.config.max_hands:
            self.stopped = True
        else:
            return
        if not self.match.over:  # a match that is over ends by itself, every replica at its end
            self.room.halt()

    def _failure(self, seat: int | None, text: str) -> GameError:
        """A computer player failed: never let the room's random stand-in play on in a tournament."""
        failure = None if seat is None else self.seats[seat].failure
        return failure or GameError(f"deal {self.deal}: {text}")

    def result(self, layout_index: int, times: dict[str, list[float]]) -> UnitResult:
        p, config = self.plan, self.plan.config
        if self.abandoned:
            return UnitResult(self.deal, layout_index, [Outcome(None) for _ in p.kinds], len(self.hands) + 1,
                              True, f"abandoned: hand {len(self.hands) + 1} did not end after "
                                    f"{config.max_moves} moves", times)
        if self.match is None or not (self.complete or self.stopped or self.match.over):
            raise GameError(f"the table of deal {self.deal} stopped before the unit was complete")
        unit = Unit(p.rules, p.layouts[layout_index], len(p.kinds), self.match, self.hands, self.stopped,
                    entry_labels(p.kinds))
        return UnitResult(self.deal, layout_index, p.adapter.outcome(unit), len(self.hands), self.stopped,
                          p.adapter.summary(unit), times)


def play_unit(p: Plan, deal: int, layout_index: int) -> UnitResult:
    """Deal ``deal`` in layout ``layout_index``, played on a room of table replicas with the seeded
    dealer, every seat a computer player of the layout's kind."""
    config, rules = p.config, p.rules
    kinds = [p.kinds[e] for e in p.layouts[layout_index]]
    times: dict[str, list[float]] = {k: [] for k in sorted(set(kinds))}
    seats = [TimedPlayer(make_player(rules, kinds[s], player_seed(config, deal, layout_index, s),
                                     config.think_ms),
                         kinds[s], s, deal, times[kinds[s]])
             for s in range(rules.players)]
    # The seats keep the room's default names: the genesis, and with it the game id that the
    # first-dealer coin is bound to, must not depend on who sits where.
    room = LocalRoom(rules.name, options=dict(rules.options), human=None, computers=dict(enumerate(seats)),
                     dealer="seeded", seed=deal_seed(config, deal))
    watch = UnitWatch(p, deal, room, seats)
    room.run(watch)
    return watch.result(layout_index, times)


def play_deal(p: Plan, deal: int) -> list[UnitResult]:
    return [play_unit(p, deal, lay) for lay in p.units_of(deal)]


_WORKER_PLAN: Plan | None = None


def _worker_init(p: Plan) -> None:
    global _WORKER_PLAN
    _WORKER_PLAN = p


def _worker(deal: int) -> tuple[int, list[UnitResult]]:
    assert _WORKER_PLAN is not None
    return deal, play_deal(_WORKER_PLAN, deal)


def iter_deals(p: Plan) -> Iterator[tuple[int, list[UnitResult]]]:
    """Every deal's results, in the order they finish (deal order with one job)."""
    deals = range(p.config.games)
    if p.config.jobs == 1:
        for g in deals:
            yield g, play_deal(p, g)
        return
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(min(p.config.jobs, p.config.games), initializer=_worker_init, initargs=(p,)) as pool:
        yield from pool.imap_unordered(_worker, deals, chunksize=1)


def run(config: Config, progress: Callable[[int], None] | None = None) -> Report:
    """Play the tournament; ``progress(units)`` is called as units finish."""
    p = plan(config)
    started = time.perf_counter()
    by_deal: dict[int, list[UnitResult]] = {}
    for g, results in iter_deals(p):
        by_deal[g] = results
        if progress is not None:
            progress(len(results))
    return build_report(p, by_deal, time.perf_counter() - started)
