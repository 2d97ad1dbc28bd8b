"""A simulated table: every seat a peer in one process, over simulated links, on a mock clock.

The simulation is a seeded discrete-event loop, so a run is a pure function of its seed and
settings: a failing seed is printed and replays exactly.  Links carry real frames (length prefix,
``FrameDecoder`` limits), peers journal what their table tells them to, and a crash throws a peer's
memory away (possibly between two outputs of one call) and restarts it from its journal.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pcards.games import ActionError
from p2pcards.games.rng import Rng
from p2pcards.harness.byzantine import ByzantineTable, frame_attack
from p2pcards.harness.pipe_table import PipeTable
from p2pcards.room import interpret
from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis
from p2pcards.table.protocol import Replica
from p2pcards.table.replica import Table
from p2pcards.wire import MAX_MESSAGE_SIZE, FrameDecoder, WireError, encode_frame

TICK_MS = 250
JUDGED = (
    out.Fault,
    out.HandOver,
    out.MatchOver,
    out.Rejected,
    out.HandVoid,
    out.Seating,
    out.Sealed,
    out.VotesContradicted,
)
"""The events a peer keeps for the judge (``Peer.events``); the others only inform a screen."""
Chooser = Callable[[int, list[str]], str]
"""``choose(seat, legal) -> action text``: the policy of a seat, given its legal moves' texts."""
MakeTable = Callable[[int, dict[str, bytes]], Replica]
"""``make_table(seat, secrets)``: a fresh replica for a seat (with the secrets it kept, after a crash):
a ``Table`` (or ``ByzantineTable``), or a ``PipeTable`` for a seat another program runs."""


@dataclass(frozen=True)
class Faults:
    """Seeded network faults.  Probabilities are per mille of frames, so no float enters a run."""

    drop: int = 0
    duplicate: int = 0
    delay: int = 0
    """Per mille of frames held back 0.1-2 s."""
    reorder: bool = False
    """Latency jitter of 1-200 ms, so frames overtake each other."""
    partition: bool = False
    """Once, the table splits in two for 1.5-4 s, then heals."""
    crash: bool = False
    """Once, an honest peer is killed (maybe between two outputs of one call) and restarts from its
    journal 0.5-3 s later."""
    victim_first: bool = False
    """The crash fault draws its victim before its moment (by default the moment first): the same
    seed then crashes another seat at another time, so a matrix run both ways tries twice the
    crashes a seed list names."""
    leave: bool = False
    """Once, at a random moment, a peer vanishes for good (its journal is never replayed): the others
    must vote it out and play on without it."""

    @staticmethod
    def parse(spec: str) -> Faults:
        kw: dict[str, Any] = {}
        for word in [w.strip() for w in spec.split(",") if w.strip()]:
            if word in ("drop", "duplicate", "delay"):
                kw[word] = 50
            elif word in ("reorder", "partition", "crash", "leave"):
                kw[word] = True
            elif word == "victim-first":
                kw.update(crash=True, victim_first=True)
            elif word == "all":
                kw.update(drop=50, duplicate=50, delay=50, reorder=True, partition=True, crash=True)
            elif word != "none":
                raise ValueError(
                    f"unknown fault {word!r}; known: drop, duplicate, delay, reorder, partition, "
                    "crash, victim-first (a crash, its victim drawn first), leave, all (every one but "
                    "leave), none"
                )
        return Faults(**kw)


@dataclass
class Peer:
    seat: int
    table: Replica
    """A ``Table`` (or ``ByzantineTable``), or a ``PipeTable`` for a seat another program runs."""
    identity: Ed25519PrivateKey
    journal: list[bytes] = field(default_factory=list)
    secrets: dict[str, bytes] = field(default_factory=dict)
    decoders: dict[int, FrameDecoder] = field(default_factory=dict)
    up: bool = True
    crash_armed: bool = False
    errors: list[str] = field(default_factory=list)
    """Exceptions the table raised: an honest peer must have none."""
    events: list[out.Output] = field(default_factory=list)
    frame_errors: dict[int, int] = field(default_factory=dict)
    gone: bool = False
    """Left the table for good (the ``leave`` fault) or, for ``return``, until it comes back."""
    sealed_seen: int = 0
    """The most hands this peer ever held sealed: a sealed hand, once held, must never be lost."""
    lost_sealed: bool = False
    moves: int = 0
    """Moves of its player that its replica took (across restarts)."""

    # The three sorts of seat, told apart here alone: the network treats them alike but for how a
    # frame reaches a program, how a move is chosen, and what a cheater sends besides its table.

    @property
    def local(self) -> Table | None:
        """The replica, when it runs in this process (an honest or a cheating ``Table``)."""
        return self.table if isinstance(self.table, Table) else None

    @property
    def cheater(self) -> ByzantineTable | None:
        return self.table if isinstance(self.table, ByzantineTable) else None

    @property
    def pipe(self) -> PipeTable | None:
        """The seat another program runs, if it is one."""
        return self.table if isinstance(self.table, PipeTable) else None

    @property
    def behaviour(self) -> str | None:
        """How this seat misbehaves (``rollback``, ``return``, a cheat), if it does."""
        holder = self.cheater or self.pipe
        return None if holder is None else holder.behaviour


class SimNetwork:
    """Runs one game between ``tables`` (one per seat) until every honest peer is done: the scheduler
    of the room's interpreter (``p2pcards.room``), whose sends go over seeded simulated links."""

    def __init__(
        self,
        genesis: Genesis,
        identities: list[Ed25519PrivateKey],
        make_table: MakeTable,
        choose: Chooser,
        *,
        rng: Rng,
        faults: Faults = Faults(),
        honest: frozenset[int] | None = None,
        frame_attacker: tuple[int, str] | None = None,
        foreign: bytes = b"",
        limit_ms: int = 30 * 60 * 1000,
        crash_seat: int | None = None,
    ) -> None:
        self.genesis = genesis
        self.n = len(identities)
        self.rng = rng
        self.faults = faults
        self.choose = choose
        self.make_table = make_table
        self.peers = [Peer(i, make_table(i, {}), identities[i]) for i in range(self.n)]
        self.honest = honest if honest is not None else frozenset(range(self.n))
        self.now = 0
        self.limit_ms = limit_ms
        self.crash_seat = crash_seat
        """Who the ``crash`` fault kills (default: an honest seat drawn at random)."""
        self._queue: list[tuple[int, int, str, tuple[Any, ...]]] = []
        self._seq = 0
        self._cut: tuple[frozenset[int], int] | None = None
        self.frames = 0
        self.bytes = 0
        self.frame_attacker = frame_attacker
        self.foreign = foreign
        self.twins: set[bytes] = set()
        self.twin_delivered = False
        """Whether an equivocator's second message reached an honest peer (if not, nobody can know)."""
        self.left: int | None = None
        """The seat that left (``leave`` or ``return``), and when."""
        self.left_at_hand = -1
        self.returned = False
        self.watched = False
        """Whether a seat that chose to watch (``watch``) followed the others while out."""

    # ------------------------------------------------------------------ scheduling

    def _at(self, when: int, kind: str, *data: Any) -> None:
        self._seq += 1
        heapq.heappush(self._queue, (when, self._seq, kind, data))

    def run(self) -> None:
        for p in self.peers:
            self._carry_out(p, self._call(p, p.table.start))
        self._at(TICK_MS, "tick")
        f = self.faults
        if f.partition:
            start = 200 + self.rng.below(5_000)
            side = frozenset(s for s in range(self.n) if self.rng.below(2))
            self._at(start, "partition", side, start + 1_500 + self.rng.below(2_500))
        if f.crash:
            victims = sorted(self.honest)
            if f.victim_first:
                victim = victims[self.rng.below(len(victims))]
                when = 300 + self.rng.below(8_000)
            else:
                when = 300 + self.rng.below(8_000)  # drawn first, as always: a seed replays as it did
                victim = victims[self.rng.below(len(victims))]
            self._at(when, "crash", victim if self.crash_seat is None else self.crash_seat)
        if f.leave:
            self._at(2_000 + self.rng.below(20_000), "leave", self._leaver())
        for p in self.peers:
            behaviour = p.behaviour
            if behaviour == "rollback":
                self._at(3_000 + self.rng.below(20_000), "rollback", p.seat)
            elif behaviour in ("return", "watch"):
                self._at(2_000 + self.rng.below(8_000), "leave", p.seat)
        if self.frame_attacker is not None:
            self._at(1 + self.rng.below(200), "attack")
        while self._queue and not self.done():
            when, _, kind, data = heapq.heappop(self._queue)
            if when > self.limit_ms:
                break
            self.now = when
            getattr(self, f"_on_{kind}")(*data)
        self._drain()

    def _drain(self) -> None:
        """Deliver the frames still in flight when the game ended (a late twin, evidence relays): the
        judge looks at what every replica ends with once the network is quiet, as a room would be.
        Nothing else happens meanwhile (no clock, no faults), and what they cause is delivered too."""
        for _ in range(1_000_000):
            if not self._queue:
                return
            when, _, kind, data = heapq.heappop(self._queue)
            if kind == "deliver" and when <= self.limit_ms:
                self.now = when
                self._on_deliver(*data)

    def _leaver(self) -> int:
        """Who leaves for good: an honest seat (the cheaters are judged by what they did), never one
        another program runs (whose conduct is what a run through the pipe is there to judge)."""
        candidates = sorted(s for s in self.honest if self.peers[s].pipe is None)
        return candidates[self.rng.below(len(candidates))]

    def done(self) -> bool:
        if any(p.pipe is not None and p.pipe.failed for p in self.peers):
            return True  # the program under test broke the pipe: the run has shown what it can
        # A late attack sent again after the match is still part of the game: its frames are judged.
        live = (p.cheater for p in self.peers if p.up and not p.gone)
        if any(t is not None and t.sending_again for t in live):
            return False
        # An honest seat a majority went on without agrees when told (``ask_return``) and plays on:
        # the game is done only once it, too, is at the end.
        return all(
            self.peers[s].up and (self.peers[s].table.over or self.peers[s].table.stopped is not None)
            for s in self.honest
            if not self.peers[s].gone
        )

    # ------------------------------------------------------------------ events

    def _on_tick(self) -> None:
        for p in self.peers:
            if p.up and not p.gone:
                self._carry_out(p, self._call(p, partial(p.table.tick, self.now)))
                cheater = p.cheater
                if cheater is not None:
                    for extra in cheater.attack(self.now):
                        self.send(p.seat, extra.payload, extra.to)
                self._check_sealed(p)
        self._at(self.now + TICK_MS, "tick")

    def _check_sealed(self, p: Peer) -> None:
        held = len(p.table.hands_played)
        if held < p.sealed_seen:
            p.lost_sealed = True
        p.sealed_seen = max(p.sealed_seen, held)

    def _on_deliver(self, to: int, frm: int, frame: bytes) -> None:
        p = self.peers[to]
        if not p.up or p.gone:
            return
        pipe = p.pipe
        if pipe is not None:
            # Another program reads the connection's bytes itself: framing is its to get right.
            if frame[4:] in self.twins and to in self.honest:
                self.twin_delivered = True
            self._carry_out(p, self._call(p, partial(pipe.receive_frame, frm, frame)))
            return
        decoder = p.decoders.setdefault(frm, FrameDecoder(MAX_MESSAGE_SIZE))
        try:
            payloads = decoder.feed(frame)
        except WireError:
            # The connection would be closed: count it against the link, open a fresh one.
            p.frame_errors[frm] = p.frame_errors.get(frm, 0) + 1
            p.decoders[frm] = FrameDecoder(MAX_MESSAGE_SIZE)
            return
        for payload in payloads:
            if payload in self.twins and to in self.honest:
                self.twin_delivered = True
            if p.up:
                self._carry_out(p, self._call(p, partial(p.table.receive, frm, payload)))

    def _on_act(self, seat: int, step: int, head: bytes) -> None:
        p = self.peers[seat]
        t = p.table
        if not p.up or p.gone or t.stopped is not None or t.over:
            return
        if (t.chain.step, t.chain.head) != (step, head):
            return  # scheduled for a step of an attempt since voided: the same number, another head
        pipe, local, cheater = p.pipe, p.local, p.cheater
        if pipe is not None:
            if pipe.turn is None:
                return
            # Sorted, so that the harness's choice does not depend on how the program lists them.
            text = self.choose(seat, sorted(pipe.turn.legal))
        else:
            if local is None or local.state is None:
                return
            cheat = cheater.cheat_choice(local.state) if cheater is not None else None
            rules = local.rules
            legal = [rules.action_text(a) for a in local.state.view(seat).legal_actions]
            text = cheat if cheat is not None else self.choose(seat, legal)
        try:
            outputs = p.table.local_action(text)
        except ActionError as exc:
            if cheater is None:
                p.errors.append(f"own move {text!r} refused: {exc}")
            return
        except Exception as exc:
            p.errors.append(f"local_action raised {type(exc).__name__}: {exc}")
            return
        p.moves += 1
        self._carry_out(p, outputs)

    def _on_partition(self, side: frozenset[int], until: int) -> None:
        self._cut = (side, until)

    def _on_leave(self, seat: int) -> None:
        p = self.peers[seat]
        if p.gone or not p.up:
            return
        p.gone = True
        self.left = seat
        self.left_at_hand = len(p.table.hands_played)
        if p.behaviour in ("return", "watch"):
            # Comes back once the others have played on without it for a while.
            self._at(self.now + p.table.genesis.timeout_ms + 4_000 + self.rng.below(6_000), "come_back", seat)

    def _on_come_back(self, seat: int) -> None:
        p = self.peers[seat]
        p.gone = False
        p.decoders = {}
        fresh = self.make_table(seat, dict(p.secrets))
        p.table = fresh
        self._carry_out(p, self._call(p, lambda: fresh.restore(list(p.journal))))
        self._at(self.now + 2_000, self._answer(p), seat)

    @staticmethod
    def _answer(p: Peer) -> str:
        """What a seat left behind does, as its person would answer: watch (``watch``), or come back."""
        return "watch" if p.behaviour == "watch" else "ask_return"

    def _on_watch(self, seat: int) -> None:
        """The seat's person watches: its voice consents to what dealt it out, asking nothing; asked
        again while a decision still leaves it behind (a later one names it too)."""
        p = self.peers[seat]
        t = p.table
        if t.over or p.gone:
            return
        if t.left_behind:
            self._carry_out(p, self._call(p, t.watch))
            self._at(self.now + 5_000, "watch", seat)
        elif seat in t.seats_out:
            self.watched = True

    def _on_ask_return(self, seat: int) -> None:
        p = self.peers[seat]
        t = p.table
        if t.over or p.gone:
            return
        if seat in t.seats_out or t.left_behind:
            self._carry_out(p, self._call(p, t.ask_to_return))
            self._at(self.now + 5_000, "ask_return", seat)
        elif any(isinstance(e, out.Seating) and seat in e.playing for e in p.events[-50:]):
            self.returned = True

    def _on_rollback(self, seat: int) -> None:
        """The peer restarts from an older copy of its journal (half of it), as after restoring a backup."""
        p = self.peers[seat]
        if p.gone or not p.up:
            return
        p.journal = p.journal[: len(p.journal) // 2]
        p.decoders = {}
        fresh = self.make_table(seat, dict(p.secrets))
        p.table = fresh
        self._carry_out(p, self._call(p, lambda: fresh.restore(list(p.journal))))
        # The hands sealed after the copy are not held here any more (the copy never had them); from
        # now on this replica must never lose one it holds again.
        p.sealed_seen = len(fresh.hands_played)

    def _on_crash(self, seat: int) -> None:
        self.peers[seat].crash_armed = True
        self._at(self.now + 500 + self.rng.below(2_500), "restart", seat)

    def _on_restart(self, seat: int) -> None:
        p = self.peers[seat]
        p.up = True
        p.crash_armed = False
        p.decoders = {}
        fresh = self.make_table(seat, dict(p.secrets))
        p.table = fresh
        self._carry_out(p, self._call(p, lambda: fresh.restore(list(p.journal))))

    def _on_attack(self) -> None:
        assert self.frame_attacker is not None
        seat, behaviour = self.frame_attacker
        if behaviour == "oversized":
            frame = (MAX_MESSAGE_SIZE + 1).to_bytes(4, "big") + b"\x00" * 16
        else:
            frame = encode_frame(frame_attack(behaviour, self.foreign))
        for to in range(self.n):
            if to != seat:
                self._at(self.now + 1 + self.rng.below(5), "deliver", to, seat, frame)

    # ------------------------------------------------------------------ peers' outputs

    def _call(self, p: Peer, fn: Callable[[], list[out.Output]]) -> list[out.Output]:
        try:
            return fn()
        except Exception as exc:
            p.errors.append(f"{type(exc).__name__}: {exc}")
            return []

    def _carry_out(self, p: Peer, outputs: list[out.Output]) -> None:
        if p.crash_armed:
            # Killed during this call: only a prefix of its outputs happened.
            outputs = outputs[: self.rng.below(len(outputs) + 1)]
            p.up = False
        interpret(p.seat, outputs, self)
        twin = None if p.cheater is None else p.cheater.twin
        if twin:
            # An equivocator's second message goes to the upper half of the table.
            payload = twin.pop()
            self.twins.add(payload)
            for to in range(self.n):
                if to != p.seat and to >= self.n // 2:
                    self._link(p.seat, to, payload, first=True)

    # ---- the scheduler of the room's interpreter: journals and secrets in memory, seeded links

    def persist(self, seat: int, payload: bytes, own: bool) -> None:
        self.peers[seat].journal.append(payload)

    def keep(self, seat: int, label: str, secret: bytes) -> None:
        self.peers[seat].secrets[label] = secret

    def send(self, seat: int, payload: bytes, to: int | None) -> None:
        p = self.peers[seat]
        equivocating = p.cheater is not None and bool(p.cheater.twin)
        for other in range(self.n):
            if other == seat or (to is not None and to != other) or self.peers[other].gone:
                continue
            if equivocating and other >= self.n // 2:
                continue
            self._link(seat, other, payload)

    def turn(self, seat: int, turn: out.YourTurn) -> None:
        chain = self.peers[seat].table.chain
        self._at(self.now + 1 + self.rng.below(20), "act", seat, chain.step, chain.head)

    def event(self, seat: int, event: out.Event) -> None:
        if isinstance(event, JUDGED):
            self.peers[seat].events.append(event)
            gone = isinstance(event, out.VotesContradicted) and (event.majority or event.half)
            if gone and seat in self.honest:
                # A majority, or half the table, went on without this seat (it was late): like a
                # person told so, it agrees (if it is left behind) and asks to be dealt in again, or
                # watches.
                self._at(self.now + 1_000, self._answer(self.peers[seat]), seat)

    def _link(self, frm: int, to: int, payload: bytes, first: bool = False) -> None:
        f = self.faults
        if self._cut is not None:
            side, until = self._cut
            if self.now < until and (frm in side) != (to in side):
                return
            if self.now >= until:
                self._cut = None
        if f.drop and self.rng.below(1000) < f.drop:
            return
        latency = 1 + self.rng.below(5)
        if f.reorder:
            latency += self.rng.below(200)
        if f.delay and self.rng.below(1000) < f.delay:
            latency += 100 + self.rng.below(1_900)
        frame = encode_frame(payload)
        self.frames += 1
        self.bytes += len(frame)
        self._at(self.now + latency, "deliver", to, frm, frame)
        if f.duplicate and self.rng.below(1000) < f.duplicate:
            self._at(self.now + latency + self.rng.below(50), "deliver", to, frm, frame)
