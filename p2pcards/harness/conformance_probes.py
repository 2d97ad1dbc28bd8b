"""Conformance cases played move by move: the program in one seat, our replicas in the others, every
message delivered at once and in order — and, at one chosen moment, a crafted frame, or a restart from
an old copy of the program's journal (HARNESS.md §5, groups 3.2.3 and 5.4).

The simulated network of ``run`` plays whole games; a probe stops a game where it wants to: seat 1
has signed its move and the program has not seen it yet, or the program has moved since a copy of its
journal was taken.  What the program must do there is one of SPEC's promises, judged by what the
harness sees (a ``rejected`` naming the reason, a ``close``, what it journals and sends), never by what
it says of itself.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from p2pcards.games import ActionError
from p2pcards.harness.pipe_table import PipeTable
from p2pcards.harness.run import _identity_seeds
from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis, make_genesis
from p2pcards.table.replica import Table
from p2pcards.wire import (
    Envelope,
    SignedMessage,
    WireError,
    encode_frame,
    key_from_seed,
    public_bytes,
    sign,
)

MAX_DELIVERIES = 20_000
"""A bound on one settling of the table (a program that answers every message with new ones)."""


def _source(seat: int, seed: int) -> Callable[[int], bytes]:
    count = [0]

    def draw(n: int) -> bytes:  # reproducible secrets for our replicas: a probe replays exactly
        count[0] += 1
        return hashlib.shake_256(f"probe/{seed}/{seat}/{count[0]}".encode()).digest(n)

    return draw


@dataclass
class Lockstep:
    """A table of our replicas with the program in seat ``under``: every ``send`` is delivered at once,
    in the order it was made, to every seat it names."""

    game: str
    peers: int
    command: str
    under: int = 0
    seed: int = 1
    options: dict[str, Any] = field(default_factory=dict)
    computers: tuple[tuple[int, int], ...] = ()
    """(seat, runner) of the seats a computer plays, the genesis' ``computers``."""
    genesis: Genesis = field(init=False)
    keys: list[Any] = field(init=False)
    tables: dict[int, Table | PipeTable] = field(init=False)
    journal: list[bytes] = field(init=False, default_factory=list)
    """What the program told the harness to persist, in order."""
    secrets: dict[str, bytes] = field(init=False, default_factory=dict)
    seen: list[out.Output] = field(init=False, default_factory=list)
    """Everything the program answered, in order."""
    turns: dict[int, list[str]] = field(init=False, default_factory=dict)
    """Per seat, the legal moves of its last ``your_turn`` (sorted), while it has not moved."""
    moves: dict[int, list[tuple[int, str]]] = field(init=False, default_factory=dict)
    """Per seat, (step, text) of every move it made."""
    runs: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        seeds = _identity_seeds(self.peers, self.seed)
        self._seeds = seeds
        self.keys = [key_from_seed(s) for s in seeds]
        self.genesis = make_genesis(
            self.game, [(f"seat {i}", public_bytes(k)) for i, k in enumerate(self.keys)],
            options=self.options, dealer="seeded", seed=self.seed, nonce=b"probe", timeout_ms=10_000,
            computers=self.computers,
        )
        self.tables = {}
        for seat in range(self.peers):
            if seat != self.under:
                key = self.keys[seat]
                self.tables[seat] = Table(self.genesis, seat, key, source=_source(seat, self.seed))
        self._queue: deque[tuple[int, int, bytes]] = deque()
        self.withheld: set[int] = set()
        """Seats whose messages the program does not get, from them or relayed (until ``release``)."""
        self._held: list[tuple[int, bytes]] = []
        self.gone: set[int] = set()
        """Seats cut off for good: nothing reaches them, nothing of theirs reaches anyone, they never move."""
        self.cut: set[int] = set()
        """Seats cut off for a while: what they send, and what is sent to them, waits for ``reconnect``."""
        self._cut_held: list[tuple[int, int, bytes]] = []
        self.now = 0

    # ------------------------------------------------------------------ running

    def start(self, journal: list[bytes] | None = None) -> list[out.Output]:
        """Start (or, with a journal, restart) the program, and our replicas the first time."""
        self.runs += 1
        old = self.tables.get(self.under)
        if isinstance(old, PipeTable):
            old.kill()
        program = PipeTable(
            self.genesis, self.under, self.command, identity_seed=self._seeds[self.under],
            entropy=hashlib.sha256(f"probe/{self.seed}/entropy/{self.runs}".encode()).digest(),
            secrets=dict(self.secrets),
        )
        self.tables[self.under] = program
        outputs = program.restore(journal) if journal else program.start()
        self._take(self.under, outputs)
        if self.runs == 1:
            for seat in sorted(self.tables):
                if seat != self.under:
                    self._take(seat, self.tables[seat].start())
        return outputs

    @property
    def program(self) -> PipeTable:
        table = self.tables[self.under]
        assert isinstance(table, PipeTable)
        return table

    def close(self) -> None:
        table = self.tables.get(self.under)
        if isinstance(table, PipeTable):
            table.close()

    def _take(self, seat: int, outputs: list[out.Output]) -> None:
        table = self.tables[seat]
        for o in outputs:
            if isinstance(o, out.Send):
                for to in ([o.to] if o.to is not None else range(self.peers)):
                    if to != seat:
                        self._queue.append((seat, to, o.payload))
            elif isinstance(o, out.YourTurn):
                if isinstance(table, PipeTable):
                    legal = list(table.turn.legal) if table.turn is not None else []
                else:
                    legal = [table.rules.action_text(a) for a in o.view.legal_actions]
                self.turns[seat] = sorted(legal)
            if seat == self.under:
                self.seen.append(o)
                if isinstance(o, out.Persist):
                    self.journal.append(o.payload)
                elif isinstance(o, out.KeepSecret):
                    self.secrets[o.label] = o.secret

    def settle(self) -> None:
        """Deliver everything sent, and what that makes the seats send, until nothing is left."""
        for _ in range(MAX_DELIVERIES):
            if not self._queue:
                return
            src, to, payload = self._queue.popleft()
            if src in self.gone or to in self.gone:
                continue
            if src in self.cut or to in self.cut:
                self._cut_held.append((src, to, payload))
                continue
            if to == self.under and self.withheld and _author(payload) in self.withheld:
                self._held.append((src, payload))
                continue
            self._deliver(src, to, payload)

    def release(self) -> None:
        self.withheld.clear()
        held, self._held = self._held, []
        for src, payload in held:
            self._deliver(src, self.under, payload)
        self.settle()

    def reconnect(self, seats: set[int] | None = None) -> None:
        """The seats cut off (or ``seats`` of them) are back: what waited for them is delivered, in order."""
        self.cut -= self.cut if seats is None else seats
        back = [(src, to, p) for src, to, p in self._cut_held if src not in self.cut and to not in self.cut]
        self._cut_held = [h for h in self._cut_held if h[0] in self.cut or h[1] in self.cut]
        self._queue.extendleft(reversed(back))
        self.settle()

    def run_for(self, ms: int) -> None:
        """The clock runs ``ms`` on, ticking every seat every 250 ms; seats with a turn move."""
        end = self.now + ms
        while self.now < end:
            self.now += 250
            for seat in sorted(self.tables):
                if seat not in self.gone:
                    self._take(seat, self.tables[seat].tick(self.now))
            self.settle()
            for seat in [s for s in sorted(self.turns) if self.turns[s] and s not in self.gone]:
                self.move(seat)
                self.settle()

    def _deliver(self, src: int, to: int, payload: bytes) -> None:
        table = self.tables[to]
        if isinstance(table, PipeTable):
            self._take(to, table.receive_frame(src, encode_frame(payload)))
        else:
            self._take(to, table.receive(src, payload))

    def inject(self, src: int, data: bytes) -> list[out.Output]:
        """Bytes on the program's connection from ``src``; its answer."""
        before = len(self.seen)
        self._take(self.under, self.program.receive_frame(src, data))
        return self.seen[before:]

    def move(self, seat: int, text: str | None = None) -> bool:
        """``seat`` makes a move (``text``, or the first of its legal moves); False if it has no turn or
        the move is refused."""
        legal = self.turns.pop(seat, None)
        if not legal:
            return False
        choice = legal[0] if text is None else text
        try:
            outputs = self.tables[seat].local_action(choice)
        except ActionError:
            return False
        step = self.step(seat)
        self._take(seat, outputs)
        self.moves.setdefault(seat, []).append((step, choice))
        return True

    def step(self, seat: int) -> int:
        return self.tables[seat].chain.step

    def sign_as(self, seat: int, *, step: int, prev: bytes, kind: str, body: Any) -> bytes:
        env = Envelope(game_id=self.genesis.game_id, step=step, seat=seat, prev=prev, kind=kind, body=body)
        return sign(env, self.keys[seat]).data

    def play_until(self, done: Callable[[], bool], limit: int = 400) -> bool:
        """Every seat with a turn moves (the first of its legal moves) until ``done``."""
        self.settle()
        for _ in range(limit):
            if done():
                return True
            seats = [s for s in sorted(self.turns) if self.turns[s] and s not in self.gone]
            if not seats:
                return done()
            for seat in seats:
                self.move(seat)
                self.settle()
                if done():
                    return True
        return done()


class _quiet:
    """Skip what does not parse (a probe reads its own journal only to find messages)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, exc: object, tb: object) -> bool:
        return isinstance(exc, WireError | ValueError | TypeError)


# --------------------------------------------------------------------------- the probes


def _journaled(ls: Lockstep, payload: bytes) -> bool:
    return payload in ls.journal


def _refused(answer: list[out.Output], peer: int, reason: str) -> bool:
    return any(isinstance(o, out.Rejected) and o.peer == peer and o.reason == reason for o in answer)


def _closed(answer: list[out.Output], peer: int) -> bool:
    """A ``close`` of ``peer``'s connection (the pipe reads it as a rejection for ``closed``)."""
    return _refused(answer, peer, "closed")


def _said(answer: list[out.Output]) -> str:
    shown = []
    for o in answer:
        if isinstance(o, out.Rejected):
            what = "close" if o.reason == "closed" else "rejected"
            shown.append(f"{what} ({o.peer}: {o.reason})")
        else:
            shown.append(type(o).__name__.lower())
    return ", ".join(shown) or "nothing"


def _seat_one_moves(ls: Lockstep) -> bytes | None:
    """Play until seat 1 (ours) has a turn, then make its move without the program seeing it: the
    move's payload, which the program's replica must take when it comes whole and well formed."""
    if not ls.play_until(lambda: bool(ls.turns.get(1))):
        return None
    ls.withheld.add(1)
    before = {p for p in ls._held}
    ls.move(1)
    ls.settle()
    for src, payload in ls._held:
        if (src, payload) in before:
            continue
        with _quiet():
            m = SignedMessage.from_bytes(payload)
            if m.seat == 1 and m.kind == "action":
                return payload
    return None


@dataclass(frozen=True)
class Probe:
    run: Callable[[Lockstep], list[str]]
    game: str = "durak"
    peers: int = 3
    computers: tuple[tuple[int, int], ...] = ()
    options: tuple[tuple[str, Any], ...] = ()
    seed: int = 1


def _then_the_real_move(ls: Lockstep, move: bytes, problems: list[str]) -> list[str]:
    """After the crafted frames, seat 1's real move comes, on a new connection: the program takes it, and
    the game is played to its end, where the program must be where our replicas are."""
    ls.release()
    if not problems and not _journaled(ls, move):
        problems.append("the program never journaled seat 1's real move when it came after the probe")
    return problems + _to_the_end(ls)


def _to_the_end(ls: Lockstep) -> list[str]:
    ls.play_until(lambda: all(t.over or t.stopped is not None for t in ls.tables.values()), limit=2_000)
    problems = []
    if not ls.moves.get(ls.under):
        problems.append(f"seat {ls.under} (the program) made no move of its own in the whole game")
    if not ls.program.over:
        problems.append("the program's game is not over where our replicas' is")
    return problems + _ends(ls, 1)


def _at_seat_ones_move(probe: Callable[[Lockstep, bytes], list[str]]) -> Callable[[Lockstep], list[str]]:
    """A probe run at seat 1's first move, held back from the program (``_seat_one_moves``)."""

    def run(ls: Lockstep) -> list[str]:
        move = _seat_one_moves(ls)
        if move is None:
            return ["seat 1 never had a move to make (the probe could not be set up)"]
        return probe(ls, move)

    run.__doc__ = probe.__doc__
    return run


def _refused_then_real(
    ls: Lockstep, move: bytes, sender: int, crafted: bytes, reason: str, demand: str
) -> list[str]:
    """``sender``'s crafted message must be refused for ``reason`` (``demand`` says what the rule is) and
    never journaled; then seat 1's real move comes and the game is played to its end."""
    answer = ls.inject(sender, encode_frame(crafted))
    problems = []
    if _journaled(ls, crafted) or not _refused(answer, sender, reason):
        problems.append(f"{demand} and never journaled; the program answered: {_said(answer)}")
    return _then_the_real_move(ls, move, problems)


@_at_seat_ones_move
def _non_canonical(ls: Lockstep, move: bytes) -> list[str]:
    # The same signed message, its outer array written with a 16-bit length: msgpack, not canonical.
    bent = b"\xdc\x00\x02" + move[1:]
    demand = "seat 1's move in a non-canonical msgpack encoding must be refused as 'malformed' (WIRE.md §2)"
    return _refused_then_real(ls, move, 1, bent, "malformed", demand)


@_at_seat_ones_move
def _not_awaited(ls: Lockstep, move: bytes) -> list[str]:
    m = SignedMessage.from_bytes(move)
    # Seat 2 signs the same move for the step that awaits seat 1 alone.
    stray = ls.sign_as(2, step=m.step, prev=m.prev, kind=m.kind, body=m.body)
    demand = "a move from seat 2 at a step that awaits seat 1 must be refused as 'not awaited' (SPEC §9.2)"
    return _refused_then_real(ls, move, 2, stray, "not awaited", demand)


@_at_seat_ones_move
def _wrong_head(ls: Lockstep, move: bytes) -> list[str]:
    m = SignedMessage.from_bytes(move)
    other = ls.sign_as(1, step=m.step, prev=bytes(32), kind=m.kind, body=m.body)
    answer = ls.inject(1, encode_frame(other))
    problems = []
    if _journaled(ls, other):
        problems.append(f"seat 1's move bound to a head that is not the log's must never be taken (SPEC §9.2 "
                        f"'wrong head'); the program journaled it and answered: {_said(answer)}")
    return _then_the_real_move(ls, move, problems)


@_at_seat_ones_move
def _twin_to_program_alone(ls: Lockstep, move: bytes) -> list[str]:
    """Seat 1 signs two different moves for its step; our replicas get the first only, the program both:
    it alone can see the equivocation, and must name it (SPEC §5.8), and its evidence convinces ours."""
    m = SignedMessage.from_bytes(move)
    body = dict(m.body) if isinstance(m.body, dict) else {}
    other = body | {"a": str(body.get("a", "")) + " "}  # another text: another message, same step
    twin = ls.sign_as(1, step=m.step, prev=m.prev, kind=m.kind, body=other)
    ls.release()
    ls.inject(1, encode_frame(twin))
    ls.settle()
    problems = []
    if not any(f.seat == 1 and f.kind == "equivocation" for f in ls.program.verdicts):
        problems.append("seat 1 signed two different moves for one step and the program, which alone got "
                        "both, never named it for equivocation (SPEC §5.8)")
    elif not any(f.seat == 1 and f.kind == "equivocation" for f in ls.tables[2].verdicts):
        problems.append("our replica in seat 2 never got the program's evidence of seat 1's equivocation "
                        "(SPEC §9.4: it is relayed)")
    return problems


@_at_seat_ones_move
def _old_step(ls: Lockstep, move: bytes) -> list[str]:
    m = SignedMessage.from_bytes(move)
    # A move of seat 1 for step 1 — the setup, long sealed — after a head nobody knows.
    stale = ls.sign_as(1, step=1, prev=bytes([9]) * 32, kind=m.kind, body=m.body)
    demand = ("seat 1's move for step 1, before the hand being played, must be refused as 'old step' "
              "(SPEC §9.2)")
    return _refused_then_real(ls, move, 1, stale, "old step", demand)


@_at_seat_ones_move
def _zero_length(ls: Lockstep, move: bytes) -> list[str]:
    answer = ls.inject(1, b"\0\0\0\0")
    problems = []
    if not _closed(answer, 1):
        problems.append(f"a frame of length 0 breaks WIRE.md §3: the program must close seat 1's connection; "
                        f"it answered: {_said(answer)}")
    return _then_the_real_move(ls, move, problems)


@_at_seat_ones_move
def _whole_then_bad(ls: Lockstep, move: bytes) -> list[str]:
    answer = ls.inject(1, encode_frame(move) + b"\0\0\0\0")
    problems = []
    if not _journaled(ls, move):
        problems.append(f"seat 1's whole frame before a bad length in the same bytes must be read "
                        f"(WIRE.md §3); the program answered: {_said(answer)}")
    if not _closed(answer, 1):
        problems.append(f"the bad length after it must close seat 1's connection; the program answered: "
                        f"{_said(answer)}")
    ls.release()
    return problems + _to_the_end(ls)


def _restored_from_old_copy(ls: Lockstep) -> list[str]:
    """The program moves, is killed, and comes back from the copy of its journal taken before that
    move: it must sign nothing new until every other seat answered its catch-up (SPEC §9.6, §12)."""
    me = ls.under
    if not ls.play_until(lambda: len(ls.turns.get(me, [])) >= 2):
        return ["the program never had a choice of two moves (the probe could not be set up)"]
    old_journal = list(ls.journal)
    step = ls.step(me)
    made = ls.turns[me][0]
    ls.move(me)
    ls.settle()
    ls.play_until(lambda: len(ls.moves.get(me, [])) >= 2)
    signed_before = set(ls.journal)
    ls.withheld = {s for s in range(ls.peers) if s != me}  # nothing reaches it until it is asked for
    answer = ls.start(old_journal)
    problems = []
    fresh = [o for o in answer if isinstance(o, out.Send) and o.payload not in signed_before
             and _author(o.payload) == me and _kind(o.payload) != "catchup_request"]
    if fresh:
        problems.append(f"restarted from an old copy of its journal, the program signed {len(fresh)} new "
                        "message(s) before any other seat answered its catch-up (SPEC §9.6: it may have "
                        "signed what the copy lacks)")
    other = [t for t in ls.turns.get(me, []) if t != made]
    # If it offers a move at once, the harness takes the other one, as a person who forgot would.
    if ls.turns.get(me) and other and ls.step(me) == step and ls.move(me, other[0]):
        sent = [o for o in ls.seen[-50:] if isinstance(o, out.Send) and o.payload not in signed_before
                and _author(o.payload) == me and _kind(o.payload) == "action"]
        if sent:
            problems.append(f"restarted from an old copy of its journal, the program took the move "
                            f"{other[0]!r} for step {step}, where it had signed {made!r}: two moves for one "
                            "step (an equivocation of its own)")
    ls.release()
    ls.play_until(lambda: False, limit=60)
    named = sorted({(f.seat, f.kind) for s, t in ls.tables.items() if s != me for f in t.verdicts
                    if f.seat == me and f.kind != "return"})
    if named:
        problems.append(f"our replicas named the program's seat: {named}")
    return problems


def _ends(ls: Lockstep, ours: int) -> list[str]:
    """How the program's replica ended against our replica in seat ``ours`` at the same table: over or
    not, by its own word or not, the seats out of the hand, every verdict, and the digest."""
    me = ls.under
    program, table = ls.program, ls.tables[ours]
    problems = []
    if program.failed:
        return []  # said first, by run_probe
    mine = (program.over, program.abandoned, sorted(program.seats_out))
    theirs = (table.over, table.abandoned, sorted(table.seats_out))
    if mine != theirs:
        problems.append(f"the program ended (over, by its own word, seats out) {mine}; our replica in seat "
                        f"{ours} {theirs}")
    named = {(f.seat, f.kind) for f in program.verdicts if f.kind != "return"}
    want = {(f.seat, f.kind) for f in table.verdicts if f.kind != "return"}
    if named != want:
        problems.append(f"the program named {sorted(named)}; our replica in seat {ours} {sorted(want)}")
    named_me = sorted({(s, f.kind) for s, t in ls.tables.items() if s not in (me, *ls.gone)
                       for f in t.verdicts if f.seat == me and f.kind != "return"})
    if named_me:
        problems.append(f"our replicas named the program's seat: {named_me}")
    if not problems and not table.abandoned and program.digest() != table.digest():
        problems.append(f"the program's table digest is not our replica's in seat {ours}")
    return problems


def _half_silent(ls: Lockstep) -> list[str]:
    """Two seats of four go silent for good once the cards are dealt: the two left are half of the
    voices, no majority (SPEC §6.5): no vote of theirs decides, and each ends the match by its own word."""
    if not ls.play_until(lambda: any(ls.turns.get(s) for s in (2, 3))):
        return ["seats 2 and 3 never had a turn (the probe could not be set up)"]
    ls.gone = {2, 3}
    ls.run_for(90_000)
    return _ends(ls, 1)


def _machine_silent(ls: Lockstep) -> list[str]:
    """Seat 3 is a computer that seat 2's machine runs: three voices, four keys. Once the cards are dealt
    seat 2's machine goes silent for good, both its seats with it: the two voices left are a majority of
    the three (SPEC §6.5: votes are counted by voice, never by key), and they go on without it."""
    if not ls.play_until(lambda: any(ls.turns.get(s) for s in (2, 3))):
        return ["seats 2 and 3 never had a turn (the probe could not be set up)"]
    ls.gone = {2, 3}
    ls.run_for(60_000)
    return _ends(ls, 1)


def _late_vote(ls: Lockstep) -> list[str]:
    """At seat 2's turn (four seats) seat 2 is slow and seat 3 cut off: the program and seat 1 vote seat 2
    silent, two of four, no decision. Then seat 2 moves and the game goes on, which spends those votes
    (SPEC §6.5: every voice spends); only then does seat 3's vote for that step arrive. Three votes, two
    of them spent: no decision."""
    if not ls.play_until(lambda: bool(ls.turns.get(2))):
        return ["seat 2 never had a turn (the probe could not be set up)"]
    slow = ls.turns.pop(2)
    ls.cut = {2, 3}
    ls.run_for(12_000)
    if not any(_kind(p) == "void_vote" for p in ls.journal):
        return ["the program never voted seat 2 silent (the probe could not be set up)"]
    ls.turns[2] = slow
    ls.reconnect({2})
    ls.run_for(3_000)
    ls.reconnect()
    ls.run_for(30_000)
    return _ends(ls, 1)


def _voted_out_while_cut_off(ls: Lockstep) -> list[str]:
    """The program is cut off for a while at its turn: the two other seats of three (a majority) vote it
    silent and play on. When it is back, it must say so (``told``), be left behind, and sign nothing for
    the game before its person agrees (SPEC §6.5: consent names a decision)."""
    me = ls.under
    if not ls.play_until(lambda: bool(ls.turns.get(me))):
        return ["the program never had a turn (the probe could not be set up)"]
    ls.turns.pop(me, None)
    ls.cut = {me}
    ls.run_for(30_000)
    decided = [s for s in (1, 2) if me in ls.tables[s].seats_out]
    if not decided:
        return ["our replicas never voted the program out (the probe could not be set up)"]
    ls.turns.pop(me, None)
    signed = set(ls.journal)
    before = len(ls.seen)
    ls.reconnect()
    ls.turns.pop(me, None)  # the harness does not move for it now
    ls.run_for(5_000)
    ls.turns.pop(me, None)
    answer = ls.seen[before:]
    problems = []
    if not any(isinstance(o, out.VotesContradicted) and o.majority and me in o.named for o in answer):
        problems.append(f"back after the others voted it out, the program never said so (told, with "
                        f"majority); it answered: {_said(answer[:30])}")
    if not ls.program.left_behind:
        problems.append("back after the others voted it out, the program's status is not left_behind: it "
                        "took a decision naming its own voice without its person's consent (SPEC §6.5)")
    fresh = [o for o in answer if isinstance(o, out.Send) and o.payload not in signed
             and _author(o.payload) == me and _kind(o.payload) in ("action", "void_vote", "abandon", "seal")]
    if fresh:
        problems.append(f"back after the others voted it out, the program signed {_kind(fresh[0].payload)} "
                        "messages before its person agreed to the decision")
    return problems


def _anothers_abandon(ls: Lockstep) -> list[str]:
    """Seat 3 of four goes silent once the cards are dealt, and signs an abandon naming seats 1 and 2,
    which reaches the program alone: a minority's word binds its signer only (SPEC §6.2, §6.5). The
    program plays on with seats 1 and 2 as our replicas do."""
    if not ls.play_until(lambda: any(ls.turns.get(s) for s in (1, 2))):
        return ["seats 1 and 2 never had a turn (the probe could not be set up)"]
    ls.gone = {3}
    ls.withheld = {1, 2}  # the program holds the step open while the abandon comes
    ls.settle()
    program = ls.program
    word = ls.sign_as(3, step=program.chain.step, prev=program.chain.head, kind="abandon",
                      body={"silent": [1, 2]})
    ls.inject(3, encode_frame(word))
    ls.release()
    ls.run_for(60_000)
    return _ends(ls, 1)


def _played_through(ls: Lockstep) -> list[str]:
    """An ordinary game with computer players at the table (the genesis' ``computers``), played to its
    end: the program moved, ended as our replica in seat 1, and holds as many hands sealed."""
    problems = _to_the_end(ls)
    mine, theirs = len(ls.program.hands_played), len(ls.tables[1].hands_played)
    if not problems and mine != theirs:
        problems.append(f"the program holds {mine} hands sealed; our replica in seat 1 {theirs}")
    return problems


def _watching(table: Table | PipeTable) -> list[int]:
    """The seats out of chips (Azi) that still watch, as our replica's match has them."""
    match = None if isinstance(table, PipeTable) else table.match
    if match is None:
        return []
    return [s.seat for s in match.standings().seats if s.status == "out"]


def _watcher_votes(ls: Lockstep) -> list[str]:
    """Azi, four seats, a small bankroll: a seat other than the program runs out of chips and watches
    (A15), keeping its voice (SPEC §6.1). The program plays on with the watcher at the table; then a
    third seat, still playing, goes silent for good at its turn. The program, the last player of ours
    and the watcher are three voices of four, a majority only with the watcher's vote: they go on
    without the silent seat, and the program must end as our replica does."""
    me = ls.under
    ours = [s for s in range(ls.peers) if s != me]
    if not ls.play_until(lambda: bool(_watching(ls.tables[ours[0]]))):
        # The game stops at a turn nobody takes: the program's, when it plays no card (the root cause).
        idle = [] if ls.moves.get(me) else [f"seat {me} (the program) made no move of its own in the game"]
        return [*idle, "no seat ran out of chips (the probe could not be set up)"]
    watcher = _watching(ls.tables[ours[0]])[0]
    if watcher == me or ls.tables[ours[0]].over:
        return ["the program ran out of chips first, or the match ended (the probe could not be set up)"]
    silent = max(s for s in ours if s != watcher)
    player = min(s for s in ours if s != watcher)
    if not ls.play_until(lambda: bool(ls.turns.get(silent))):
        return [f"seat {silent} never had a turn while seat {watcher} watched (the probe could not be "
                "set up)"]
    ls.gone = {silent}
    ls.run_for(60_000)
    problems = []
    if silent not in ls.tables[player].seats_out:
        problems.append(f"our replica in seat {player} never went on without seat {silent} (the probe could "
                        "not be set up)")
    # Without the watcher's vote the two players left are half of the voices: each would deal seat
    # `silent` out by its own abandon ('unconfirmed'), not by the majority's decision ('silent').
    mine, theirs = ls.program.seats_out.get(silent), ls.tables[player].seats_out.get(silent)
    if not problems and mine != theirs:
        problems.append(f"the program has seat {silent} out as {mine!r}; our replica in seat {player}, with "
                        f"the watcher's vote counted, as {theirs!r}")
    return problems + _to_the_end_with(ls, player)


def _to_the_end_with(ls: Lockstep, ours: int) -> list[str]:
    ls.play_until(lambda: all(t.over or t.stopped is not None for s, t in ls.tables.items()
                              if s not in ls.gone), limit=2_000)
    problems = []
    if not ls.moves.get(ls.under):
        problems.append(f"seat {ls.under} (the program) made no move of its own in the whole game")
    if not ls.program.over:
        problems.append("the program's game is not over where our replicas' is")
    return problems + _ends(ls, ours)


def _author(payload: bytes) -> int | None:
    with _quiet():
        return SignedMessage.from_bytes(payload).seat
    return None


def _kind(payload: bytes) -> str:
    with _quiet():
        return SignedMessage.from_bytes(payload).kind
    return ""


PROBES: dict[str, Probe] = {
    "twin": Probe(_twin_to_program_alone),
    "non-canonical": Probe(_non_canonical),
    "not-awaited": Probe(_not_awaited),
    "wrong-head": Probe(_wrong_head),
    "old-step": Probe(_old_step),
    "zero-length": Probe(_zero_length),
    "whole-then-bad": Probe(_whole_then_bad),
    "old-journal": Probe(_restored_from_old_copy),
    "half-silent": Probe(_half_silent, peers=4),
    "voted-out": Probe(_voted_out_while_cut_off),
    "anothers-abandon": Probe(_anothers_abandon, peers=4),
    "late-vote": Probe(_late_vote, peers=4),
    "machine-silent": Probe(_machine_silent, peers=4, computers=((3, 2),)),
    "runs-a-computer": Probe(_played_through, peers=4, computers=((2, 0), (3, 1))),
    "is-a-computer": Probe(_played_through, computers=((0, 1),)),
    "watcher-votes": Probe(_watcher_votes, game="azi", peers=4, options=(("bankroll", 100),)),
}


def run_probe(name: str, command: str, seed: int | None = None) -> list[str]:
    """The problems the probe ``name`` found with the program (none: it passed)."""
    probe = PROBES[name]
    ls = Lockstep(probe.game, probe.peers, command, seed=probe.seed if seed is None else seed,
                  options=dict(probe.options), computers=probe.computers)
    try:
        ls.start()
        ls.settle()
        problems = probe.run(ls)
        failed = ls.program.failed
        if failed:
            problems.insert(0, f"the program failed: {failed}")
        problems[:0] = [f"the program answered error: {e}" for e in ls.program.errors]
        return problems
    finally:
        ls.close()
