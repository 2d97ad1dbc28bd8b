"""A model checker of the table's rule: every interleaving of a small table, up to a bounded depth.

It drives the real replicas (``table.Table``, through the explorer's room, ``explore_room.Room``) —
not a second model of them — from one state to every state an *event* leads to, depth first, and
checks the room's invariants (``explore_room.INVARIANTS``: the predicates of ``table/claims.py`` on
every honest replica, and the room's own oracle) after every event.  The events:

* ``d`` the next frame on a link reaches an honest seat (one connection per pair of peers, in order,
  as TCP carries it; the links in any order), ``D`` everything on a link does (one event, so that
  what arrives late costs no depth).  A frame lost is no event of its own: the invariants are about
  what happened, and a prefix of a run that lost a frame is a prefix of one where it is late;
* ``t`` time passes for every machine (``TICK_MS``): seats retry, vote, go on, stop waiting for a
  catch-up answer;
* ``m`` an honest seat whose turn it is moves (a seat that does not is slow): its first legal action,
  or, restored from an older journal copy, one of its first ``Bounds.moves`` (it may say otherwise);
* ``r`` an honest machine restarts from its journal, or from an older copy of it (missing up to
  ``Bounds.back`` of each seat's own last messages), losing what was on its way to it;
* for the cheating voices, a minority: ``v``/``a`` sign a vote or an abandon at the last step and
  head they saw naming any set of voices, ``q`` sign a return, ``e`` sign a second, different
  message for the last step they spoke at.  Whatever a cheater sends is a frame in flight like any
  other.  A cheater sees everything at once (frames to it are delivered as soon as sent) and its
  replica makes its own moves and keeps time; what it sends is still the checker's to deliver or hold.

What makes it feasible:

* *The deal is abstracted away.*  The table is set up and dealt once (the seeded dealer, every setup
  frame delivered) and each state is a copy of that room (``CheckedRoom.copy``: it shares every
  replica an event does not change, and what nobody changes), so no deal is redone per state.
* *State hashing.*  A replica's state is a function of what it was given since it last started: its
  journal, then every frame, tick and action in order.  A state's digest (``Search._digest``) is a
  hash of each seat's such history, the frames in flight, what the cheaters signed
  and the restarts spent; a state reached again (at no greater depth) is not explored again.  So the
  interleavings of events at different seats, which commute, are explored once.
* *Symmetry.*  Events that are the same event are one choice: copies of one frame to one seat in
  flight, or a cheater's claim that names the same voices at the same head.  (Seats themselves are
  not interchangeable: each holds its own cards and its place in the turn order, so no permutation
  of seats maps a dealt table to another state of itself.)

A violation is shrunk (events removed while the same invariant still breaks) and printed as a
command that replays it: ``p2pcards harness GAME --model-check ... --replay EVENTS``.
"""

from __future__ import annotations

import copy
import hashlib
import re
import time
import types
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from p2pcards.games import ActionError
from p2pcards.harness.explore_room import INVARIANTS, Room, Shape, Violation
from p2pcards.table import decide
from p2pcards.table.genesis import Genesis
from p2pcards.table.voices import Voices
from p2pcards.wire import Envelope, SignedMessage
from p2pcards.wire.chain import Accepted, Sealed, Step

TICK_MS = 3_000
"""One clock event: time passes for every honest machine at once (a machine is slow by what it
hears late, or by not moving), so the move clock (2 s) of the explored tables runs out in one
event.  (No clock ends a restored seat's wait for its peers' answers: SPEC §9.6.)"""

SHAPES = {
    3: Shape("3", 3, (2,)),
    4: Shape("4", 4, (3,)),
    5: Shape("5c", 5, (2,), ((3, 2), (4, 2))),
}
"""By voices: 3 (one cheater), 4 (one cheater), 5 seats of 3 voices (the cheater's machine runs two
computer players).  ``--voices 5`` is five people, two of them cheating: ``FIVE``."""

FIVE = Shape("5", 5, (3, 4))

REINTRODUCE = ("naive-restore",)
"""Broken behaviours the checker can be asked to put back, to show it finds what they break:
``naive-restore``: a restarted machine reads its journal back as if it were new frames from nobody,
so it does not know it may have signed what its old copy lacks (SPEC §6.5's restore horizon)."""


@dataclass(frozen=True)
class Bounds:
    depth: int = 8
    moves: int = 2
    """How many of its legal actions an honest seat restored from an older journal copy may choose
    among (so it may say otherwise than it did); every other honest move is its first legal action
    (which action a seat plays is the game's business, not the rule's)."""
    restarts: int = 1
    """Restarts per path."""
    back: int = 1
    """How many of its own last messages an older journal copy may lack."""
    heads: int = 1
    """At how many of the last steps a cheater they saw may sign claims."""
    cheats: int = 1
    """Cheater's messages (claims, returns, equivocations, old messages) per path."""
    states: int = 2_000_000
    """Distinct states kept (a bound on memory): past it the search stops, reported as not exhaustive."""


Event = str


@dataclass
class Report:
    game: str
    voices: int
    shape: str
    bounds: Bounds
    states: int = 0
    """Distinct states reached (the start included)."""
    events: int = 0
    """Events tried (each a transition from a state)."""
    revisits: int = 0
    """Events that led to a state already explored."""
    deepest: int = 0
    exhaustive: bool = True
    seconds: float = 0.0
    violation: str | None = None
    invariant: str | None = None
    path: list[Event] = field(default_factory=list)
    replay: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "voices": self.voices,
            "shape": self.shape,
            "depth": self.bounds.depth,
            "bounds": self.bounds.__dict__,
            "states": self.states,
            "events": self.events,
            "revisits": self.revisits,
            "deepest": self.deepest,
            "exhaustive": self.exhaustive,
            "seconds": self.seconds,
            "violation": self.violation,
            "invariant": self.invariant,
            "path": self.path,
            "replay": self.replay,
        }


# ====================================================================== the room, as states


@dataclass
class CheckedRoom(Room):
    """The explorer's room with every seat's history hashed, so that a state has a digest."""

    histories: list[bytes] = field(default_factory=list)
    restarts: int = 0
    cheats: int = 0
    reintroduce: tuple[str, ...] = ()
    restored: frozenset[int] = frozenset()
    """Honest seats restarted from an older copy of their journal."""
    owned: set[int] | None = None
    """Seats whose replica this room owns (None: all); the others it shares with the room it was
    copied from or into, until it changes them (``own``): an event changes one or two replicas, and
    only those are copied."""

    def copy(self) -> CheckedRoom:
        """An independent copy of this room (see ``owned``)."""
        other = copy.copy(self)
        other.rng = copy.copy(self.rng)
        other.tables = list(self.tables)
        other.owned = set()
        self.owned = set()
        other.pending = list(self.pending)
        other.urgent = deque(self.urgent)
        other.journals = [list(j) for j in self.journals]
        other.secrets = [dict(x) for x in self.secrets]
        other.clocks = list(self.clocks)
        other.slow = set(self.slow)
        other.turns = set(self.turns)
        other.seen = list(self.seen)
        other.certificates = list(self.certificates)
        other.own_steps = list(self.own_steps)
        other.honest_votes = set(self.honest_votes)
        other.honest_words = set(self.honest_words)
        other.honest_claims = dict(self.honest_claims)
        other.worded = set(self.worded)
        other.abandoners = set(self.abandoners)
        other.sealed = [list(x) for x in self.sealed]
        other.histories = list(self.histories)
        return other

    def own(self, seat: int) -> None:
        if self.owned is not None and seat not in self.owned:
            self.tables[seat] = _deep(self.tables[seat])
            self.owned.add(seat)

    def _call(self, seat: int, call: Callable[[], list[Any]]) -> None:
        self.own(seat)
        super()._call(seat, call)

    def move(self, seat: int) -> bool:
        self.own(seat)
        return super().move(seat)

    def restart(self, voice: int, back: int = 0) -> None:
        # (Its seats get fresh replicas of their own.)
        if self.owned is not None:
            self.owned |= set(self.voices.seats_of((voice,), range(self.shape.seats)))
        super().restart(voice, back)

    def note(self, seat: int, *what: bytes) -> None:
        while len(self.histories) < self.shape.seats:
            self.histories.append(hashlib.sha256(f"seat {len(self.histories)}".encode()).digest())
        h = hashlib.sha256(self.histories[seat])
        for part in what:
            h.update(len(part).to_bytes(4, "big") + part)
        self.histories[seat] = h.digest()

    def deliver(self, frame: tuple[int, int, bytes]) -> None:
        to, frm, payload = frame
        self.note(to, b"r", bytes([frm]), hashlib.sha256(payload).digest())
        super().deliver(frame)

    def tick(self, seat: int) -> None:
        self.note(seat, b"t")
        super().tick(seat)

    def _send(self, seat: int, o: Any) -> None:
        super()._send(seat, o)
        # A cheater sees everything at once (``model_check``): frames to it skip the queue.
        keep = []
        for frame in self.pending:
            if frame[0] in self.cheat:
                self.urgent.append(frame)
            else:
                keep.append(frame)
        self.pending = keep

    def inject(self, frm: int, payload: bytes, to: int | None) -> None:
        self.cheats += 1
        super().inject(frm, payload, to)


def start(
    game: str, shape: Shape, seed: int, options: dict[str, Any], reintroduce: Sequence[str] = ()
) -> CheckedRoom:
    """The table set up and dealt: every setup frame delivered, the first hand waiting for a move."""
    room = CheckedRoom.make(game, shape, seed, options, sure=False)
    assert isinstance(room, CheckedRoom)
    room.reintroduce = tuple(reintroduce)
    room.slow = set(room.honest)  # an honest seat moves only when the checker says so
    for _ in range(100_000):
        room.settle()
        if not room.pending:
            break
        room.deliver(room.pending.pop(0))
    room.check()
    return room


def _atomic(x: Any, memo: dict[int, Any]) -> Any:
    return x


_IMMUTABLE: tuple[type, ...] = (
    types.MappingProxyType,
    SignedMessage,
    Envelope,
    Step,
    Accepted,
    Sealed,
    Genesis,
    Voices,
    Shape,
    Ed25519PublicKey,
    Ed25519PrivateKey,
)
"""What a copy of a room shares with the room (frozen, never changed in place): the messages and
their envelopes, the steps a chain sealed, the genesis, the keys."""


def clone(room: CheckedRoom) -> CheckedRoom:
    """An independent copy of ``room``."""
    return room.copy()


def _deep(x: Any) -> Any:
    """A deep copy of ``x`` sharing what no one changes (``_IMMUTABLE``)."""
    dispatch: dict[type, Any] = copy._deepcopy_dispatch  # type: ignore[attr-defined]
    saved = {t: dispatch.get(t) for t in _IMMUTABLE}
    for t in _IMMUTABLE:
        dispatch[t] = _atomic
    try:
        return copy.deepcopy(x)
    finally:
        for t, was in saved.items():
            if was is None:
                del dispatch[t]
            else:
                dispatch[t] = was


# ====================================================================== events


def _h(payload: bytes) -> str:
    return hashlib.sha256(payload).hexdigest()[:8]


def events(room: CheckedRoom, bounds: Bounds) -> list[Event]:
    """Every event enabled in ``room``, each once, in a fixed order: what the seats do first (moves,
    restarts, the clock, the cheaters' messages), then what the network does."""
    found: list[Event] = []
    for seat in room.honest:
        found += [f"m{seat}.{k}" for k in range(_choices(room, seat, bounds))]
    machines = sorted({room.voices.voice(s) for s in room.honest})
    if room.restarts < bounds.restarts:
        found += [f"r{v}.{k}" for k in range(bounds.back, -1, -1) for v in machines]
    found.append("t")
    if room.cheats < bounds.cheats:
        found += _cheats(room, bounds)
    # One connection per pair of peers, in order (TCP): the next frame of each link may arrive ...
    heads: dict[tuple[int, int], bytes] = {}
    for to, frm, payload in room.pending:
        heads.setdefault((to, frm), payload)
    # ... or all of it, in order: one event, so that what a link carries late costs no depth.
    found += [f"D{to}.{frm}" for (to, frm) in sorted(heads) if _on_link(room, to, frm) > 1]
    found += [f"d{to}.{frm}.{_h(p)}" for (to, frm), p in sorted(heads.items())]
    return found


def _on_link(room: Room, to: int, frm: int) -> int:
    return sum(1 for f in room.pending if f[:2] == (to, frm))


def _choices(room: Room, seat: int, bounds: Bounds) -> int:
    t = room.tables[seat]
    att = t.attempt
    due = None if att is None else att.own_due()
    if att is None or due is None or due.kind != "action" or t.over or t.stopped is not None:
        return 0
    legal = len(att.state.view(seat).legal_actions)
    restored = isinstance(room, CheckedRoom) and seat in room.restored
    return min(bounds.moves if restored else 1, legal)


def _heads(room: Room, bounds: Bounds) -> list[tuple[int, bytes]]:
    return sorted(set(room.seen), key=lambda k: (k[0], k[1]))[-bounds.heads :]


def _cheats(room: CheckedRoom, bounds: Bounds) -> list[Event]:
    found: list[Event] = []
    people = [s for s in range(room.shape.seats) if room.voices.is_person(s)]
    heads = _heads(room, bounds)
    for signer in sorted(s for s in room.cheat if room.voices.is_person(s)):
        t = room.tables[signer]
        att = t.attempt
        playing = len(decide.playing(room.voices, att)) if att is not None else len(people)
        others = [p for p in people if p != signer]
        for step, prev in heads:
            for mask in range(1, 1 << len(others)):
                named = [p for b, p in enumerate(others) if mask >> b & 1]
                kind = "v" if 2 * len(named) < playing else "a"
                found.append(f"{kind}{signer}.{step}.{prev.hex()[:8]}.{mask}")
            found.append(f"q{signer}.{step}.{prev.hex()[:8]}")
    if room.own_steps:
        found.append(f"e{room.own_steps[-1].seat}.{len(room.own_steps) - 1}")
    return found


def apply(room: CheckedRoom, event: Event) -> bool:
    """Make ``event`` happen in ``room``; whether it was enabled there (a replay may name one that
    is not).  Raises ``Violation`` if an invariant breaks."""
    kind, rest = event[0], event[1:]
    parts = rest.split(".")
    try:
        done = _apply(room, kind, parts)
    except (ValueError, IndexError):
        return False
    if done:
        room.settle()
        # Copies of one frame to one seat in flight are one frame (a replica takes a copy of bytes it
        # holds for nothing): one choice, not one per copy.
        room.pending = list(dict.fromkeys(room.pending))
        room.check()
    return done


def _apply(room: CheckedRoom, kind: str, parts: list[str]) -> bool:
    if kind == "d":
        to, frm, h = int(parts[0]), int(parts[1]), parts[2]
        i = next((i for i, (t, f, p) in enumerate(room.pending) if (t, f, _h(p)) == (to, frm, h)), None)
        if i is None:
            return False
        room.deliver(room.pending.pop(i))
        return True
    if kind == "D":
        to, frm = int(parts[0]), int(parts[1])
        if _on_link(room, to, frm) < 2:
            return False
        for _ in range(_on_link(room, to, frm)):
            i = next(i for i, f in enumerate(room.pending) if f[:2] == (to, frm))
            room.deliver(room.pending.pop(i))
        return True
    if kind == "t":
        # (The cheaters' replicas too: what they then sign, a vote when a seat is silent, is the
        # checker's to deliver or hold.)
        for _ in range(TICK_MS // 500):
            for seat in range(room.shape.seats):
                room.tick(seat)
        return True
    if kind == "m":
        return _move(room, int(parts[0]), int(parts[1]))
    if kind == "r":
        return _restart(room, int(parts[0]), int(parts[1]))
    return _cheat(room, kind, parts)


def _move(room: CheckedRoom, seat: int, k: int) -> bool:
    if seat in room.cheat or k >= _choices(room, seat, Bounds(moves=max(k + 1, 2))):
        return False
    room.own(seat)
    t = room.tables[seat]
    att = t.attempt
    assert att is not None
    text = t.rules.action_text(list(att.state.view(seat).legal_actions)[k])
    try:
        outputs = t.local_action(text)
    except ActionError:
        return False  # (still catching up after a restart: it may not move yet)
    except Exception as exc:
        raise Violation(f"an honest replica raised: seat {seat} moving: {exc}", INVARIANTS[0]) from exc
    room.turns.discard(seat)
    room.note(seat, b"m", text.encode())
    room._carry_out(seat, outputs)
    return True


def _restart(room: CheckedRoom, voice: int, back: int) -> bool:
    seats = [s for s in room.honest if room.voices.voice(s) == voice]
    if not seats:
        return False
    room.restarts += 1
    if back:
        room.restored |= frozenset(seats)
    cut = {s: room.older_copy(s, back) if back else len(room.journals[s]) for s in seats}
    for s in seats:
        room.journals[s] = room.journals[s][: cut[s]]
        room.histories[s] = hashlib.sha256(b"restored" + b"".join(room.journals[s])).digest()
    if "naive-restore" in room.reintroduce:
        _naive_restart(room, seats)
    else:
        room.restart(voice)
    return True


def _naive_restart(room: CheckedRoom, seats: list[int]) -> None:
    """A machine that reads its journal back as frames from nobody: a fresh replica, started, fed
    them — with no idea that its old copy may lack what it signed."""
    room.pending = [f for f in room.pending if f[0] not in seats]
    room.turns -= set(seats)
    for seat in seats:
        fresh = room._fresh(seat)
        journal = list(room.journals[seat])
        room.journals[seat] = []
        room.tables[seat] = fresh
        if room.owned is not None:
            room.owned.add(seat)
        room._call(seat, fresh.start)
        for payload in journal:
            room._call(seat, lambda payload=payload, fresh=fresh: fresh.receive(None, payload))  # type: ignore[misc]


def _cheat(room: CheckedRoom, kind: str, parts: list[str]) -> bool:
    signer = int(parts[0])
    if signer not in room.cheat:
        return False
    if kind in "vaq":
        step, prefix = int(parts[1]), parts[2]
        prev = next((p for s, p in set(room.seen) if s == step and p.hex()[:8] == prefix), None)
        if prev is None:
            return False
        if kind == "q":
            payload = room.sign_as(signer, "return", {}, step, prev)
        else:
            people = [s for s in range(room.shape.seats) if room.voices.is_person(s) and s != signer]
            mask = int(parts[3])
            named = [p for b, p in enumerate(people) if mask >> b & 1]
            if not named:
                return False
            claim = decide.VOTE if kind == "v" else decide.ABANDON
            payload = room.sign_as(signer, claim, {"silent": named}, step, prev)
            room.certificates.append((signer, payload))
        room.inject(signer, payload, None)
        return True
    k = int(parts[1])
    if not 0 <= k < len(room.own_steps) or room.own_steps[k].seat != signer:
        return False
    msg = room.own_steps[k]
    if kind == "e":
        body = {"again": room.cheats} | (msg.body if isinstance(msg.body, dict) else {})
        room.inject(signer, room.sign_as(signer, msg.kind, body, msg.step, msg.prev), None)
        return True
    return False


# ====================================================================== the search


class Search:
    def __init__(self, root: CheckedRoom, bounds: Bounds, report: Report,
                 progress: Callable[[Report], None] | None) -> None:
        self.root = root
        self.bounds = bounds
        self.report = report
        self.progress = progress
        self.best: dict[bytes, int] = {}
        """Per state digest, the least depth it was reached at."""
        self.started = time.perf_counter()
        self.shown = self.started

    def _digest(self, room: CheckedRoom) -> bytes:
        h = hashlib.sha256(b"p2pcards/model-check/state")
        for history in room.histories:
            h.update(history)
        for frame in sorted((to, frm, hashlib.sha256(p).digest()) for to, frm, p in room.pending):
            h.update(bytes(frame[:2]) + frame[2])
        for _, payload in sorted(room.certificates):
            h.update(hashlib.sha256(payload).digest())
        h.update(bytes([room.restarts, min(room.cheats, 255), *sorted(room.restored)]))
        h.update(copy.copy(room.rng).next64().to_bytes(8, "big"))  # (what the next fork draws)
        return h.digest()

    def run(self) -> None:
        self.best[self._digest(self.root)] = 0
        self.report.states = 1
        path: list[Event] = []
        self._visit(self.root, path)

    def _visit(self, room: CheckedRoom, path: list[Event]) -> None:
        depth = len(path)
        self.report.deepest = max(self.report.deepest, depth)
        if depth >= self.bounds.depth:
            return
        for event in events(room, self.bounds):
            if self.report.violation is not None or not self.report.exhaustive:
                return
            child = clone(room)
            self.report.events += 1
            path.append(event)
            try:
                enabled = apply(child, event)
            except Violation as exc:
                self.report.exhaustive = False
                self.report.violation = str(exc)
                self.report.invariant = exc.invariant
                self.report.path = list(path)
                return
            finally:
                self._tick()
            if enabled:
                key = self._digest(child)
                seen_at = self.best.get(key)
                if seen_at is not None and seen_at <= depth + 1:
                    self.report.revisits += 1
                else:
                    if seen_at is None:
                        self.report.states += 1
                        if self.report.states >= self.bounds.states:
                            self.report.exhaustive = False
                    self.best[key] = depth + 1
                    self._visit(child, path)
            path.pop()

    def _tick(self) -> None:
        now = time.perf_counter()
        if self.progress is not None and now - self.shown >= 1.0:
            self.shown = now
            self.report.seconds = round(now - self.started, 1)
            self.progress(self.report)


def shape_for(game: str, voices: int) -> Shape:
    """The table checked at ``voices`` voices: 3 and 4 people (one cheating); at 5, Azi's five seats
    of three voices (the cheater's machine runs two computer players, watchers to be), else five
    people, two cheating."""
    return FIVE if voices == 5 and game != "azi" else SHAPES[voices]


_EVENT = re.compile(r"[dDtmrvaqe][0-9a-f.]{0,40}")


def well_formed(event: str) -> bool:
    return _EVENT.fullmatch(event) is not None


def check(
    game: str,
    voices: int,
    *,
    bounds: Bounds | None = None,
    seed: int = 1,
    options: dict[str, Any] | None = None,
    reintroduce: Sequence[str] = (),
    progress: Callable[[Report], None] | None = None,
    shrink_budget: int = 400,
) -> Report:
    """Every interleaving of the table of ``voices`` voices up to ``bounds.depth`` events from the
    dealt table; a violation is shrunk and given as a command that replays it."""
    b = bounds or Bounds()
    shape = shape_for(game, voices)
    opts = dict(options or {})
    report = Report(game, voices, shape.name, b)
    started = time.perf_counter()
    root = start(game, shape, seed, opts, reintroduce)
    Search(root, b, report, progress).run()
    if report.violation is not None:
        small = shrink(root, report.path, report.invariant or "", shrink_budget)
        report.path = small
        replayed = replay(root, small)
        report.violation = replayed[1] or report.violation
        report.replay = replay_command(game, voices, seed, opts, small, reintroduce)
    report.seconds = round(time.perf_counter() - started, 1)
    return report


def replay(root: CheckedRoom, path: Sequence[Event]) -> tuple[str | None, str | None]:
    """The invariant ``path`` breaks from ``root`` and how (None, None if it breaks none)."""
    room = clone(root)
    try:
        for event in path:
            apply(room, event)
    except Violation as exc:
        return exc.invariant, str(exc)
    return None, None


def shrink(root: CheckedRoom, path: Sequence[Event], invariant: str, budget: int = 400) -> list[Event]:
    """A shorter path that breaks the same invariant: events removed one at a time while it still
    does (an event the shorter path does not enable is skipped in the replay)."""
    best = list(path)
    runs = 0
    changed = True
    while changed and runs < budget:
        changed = False
        for i in reversed(range(len(best))):
            if runs >= budget:
                break
            candidate = best[:i] + best[i + 1 :]
            runs += 1
            if replay(root, candidate)[0] == invariant:
                best = candidate
                changed = True
    return best


def replay_command(
    game: str, voices: int, seed: int, options: dict[str, Any], path: Sequence[Event],
    reintroduce: Sequence[str] = (),
) -> str:
    opts = "".join(f" -o {k}={v}" for k, v in sorted(options.items()))
    extra = "".join(f" --reintroduce {r}" for r in reintroduce)
    seed_text = f" --seed {seed}" if seed != 1 else ""
    return (f"p2pcards harness {game}{opts} --model-check --voices {voices}{seed_text}{extra} "
            f"--replay {','.join(path) or chr(39) * 2}")


def run_replay(
    game: str, voices: int, path: Sequence[Event], *, seed: int = 1, options: dict[str, Any] | None = None,
    reintroduce: Sequence[str] = (),
) -> Report:
    """Replay one path (as printed for a violation)."""
    shape = shape_for(game, voices)
    opts = dict(options or {})
    report = Report(game, voices, shape.name, Bounds(depth=len(path)))
    started = time.perf_counter()
    root = start(game, shape, seed, opts, reintroduce)
    invariant, message = replay(root, path)
    report.states = len(path) + 1
    report.events = len(path)
    report.deepest = len(path)
    report.violation, report.invariant, report.path = message, invariant, list(path)
    if message is not None:
        report.replay = replay_command(game, voices, seed, opts, path, reintroduce)
    report.seconds = round(time.perf_counter() - started, 1)
    return report


def iter_events(text: str) -> Iterator[Event]:
    for part in text.split(","):
        part = part.strip()
        if part:
            yield part


__all__ = [
    "REINTRODUCE",
    "SHAPES",
    "Bounds",
    "CheckedRoom",
    "Report",
    "apply",
    "check",
    "clone",
    "events",
    "iter_events",
    "replay",
    "replay_command",
    "run_replay",
    "shape_for",
    "shrink",
    "start",
    "well_formed",
]
