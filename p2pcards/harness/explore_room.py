"""The room an exploration drives: ``Table`` replicas in one process, sans-IO, every frame in flight
held by the explorer, and the invariants checked after every move of it (see ``explore``).

Seats are of three sorts.  *Cheaters* are the seats of the cheating voices: their replicas play,
but everything they send waits for the explorer, who may also sign anything in their name.  The
*sure* voice is one honest voice whose machine is never slow, restarted or cut off: frames from and
to its seats (but for a cheater's) are delivered at once, and it moves as soon as it is its turn —
the seat the rule promises never to deal out.  The other honest seats suffer everything else.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from p2pcards.games import ActionError
from p2pcards.games.rng import Rng
from p2pcards.room import interpret
from p2pcards.table import bodies, claims, decide
from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis, make_genesis
from p2pcards.table.replica import Table
from p2pcards.table.seating import SILENT, UNCONFIRMED
from p2pcards.table.voices import Voices
from p2pcards.wire import (
    CERTIFICATE_KINDS,
    TRANSPORT_KINDS,
    Envelope,
    SignedMessage,
    WireError,
    key_from_seed,
    public_bytes,
    sign,
)

TIMEOUT_MS = 2_000
"""The move clock of the explored tables: short, so that claims come after a few ticks."""

TICK_MS = 500
CLAIMS = ("void_vote", "abandon")


@dataclass(frozen=True)
class Shape:
    """A table: its size, the person seats of the cheating voices, and the computer seats."""

    name: str
    seats: int
    cheaters: tuple[int, ...]
    computers: tuple[tuple[int, int], ...] = ()

    def voices(self) -> Voices:
        runs = dict(self.computers)
        return Voices(tuple(runs.get(s, s) for s in range(self.seats)))


class Violation(Exception):
    """An invariant broken: the message says how; ``invariant`` names it (one of ``INVARIANTS``)."""

    def __init__(self, message: str, invariant: str = "") -> None:
        super().__init__(message)
        self.invariant = invariant


INVARIANTS = (
    "no-honest-replica-raises",
    "no-honest-seat-convicted",
    "no-sealed-hand-changes",
    "a-decision-binds-only-by-majority",
    "a-present-seat-is-dealt-out-only-by-a-majority",
    "same-messages-same-state",
)
"""The promises checked after every event, by name (``Room.check``; SPEC §6.5, docs/security.md)."""

CHEATS = ("equivocation", "bad-message", "bad-proof", "illegal-action", "renege")


Frame = tuple[int, int, bytes]
"""(to, from, payload)."""


@dataclass
class Room:
    shape: Shape
    seed: int
    genesis: Genesis
    rng: Rng
    ids: list[Any]
    tables: list[Table]
    voices: Voices
    cheat: frozenset[int]
    """Every seat of a cheating voice (a cheater's computer players too)."""
    sure: frozenset[int]
    pending: list[Frame] = field(default_factory=list)
    urgent: deque[Frame] = field(default_factory=deque)
    journals: list[list[bytes]] = field(default_factory=list)
    secrets: list[dict[str, bytes]] = field(default_factory=list)
    clocks: list[int] = field(default_factory=list)
    slow: set[int] = field(default_factory=set)
    turns: set[int] = field(default_factory=set)
    """Honest seats whose move waits (slow, or refused while catching up)."""
    seen: list[tuple[int, bytes]] = field(default_factory=list)
    """(step, head before it) of every step message a cheater saw, in the order seen."""
    certificates: list[tuple[int, bytes]] = field(default_factory=list)
    """Every claim a cheater signed, to replay."""
    own_steps: list[SignedMessage] = field(default_factory=list)
    honest_votes: set[tuple[int, bytes, int, int]] = field(default_factory=set)
    """(step, prev, voter, voice named) of every vote an honest seat signed."""
    honest_words: set[tuple[int, bytes, int, int]] = field(default_factory=set)
    """(step, prev, signer, voice named) of every abandon an honest seat signed."""
    honest_claims: dict[bytes, tuple[int, bytes, int]] = field(default_factory=dict)
    """(step, prev, signer) of every vote and abandon an honest seat signed, by its bytes: a replica
    counts a claim spent by those of them it holds (SPEC §6.5), never by one still on its way."""
    worded: set[int] = field(default_factory=set)
    """Honest voices that signed an abandon or a return: their own word binds their replicas."""
    abandoners: set[int] = field(default_factory=set)
    """Honest seats that signed an abandon: each went on by its own word, and may leave the others."""
    sealed: list[list[bytes]] = field(default_factory=list)
    muted: bool = False
    deliveries: int = 0

    @classmethod
    def make(cls, game: str, shape: Shape, seed: int, options: dict[str, Any], *, sure: bool = True) -> Room:
        """The table of ``shape`` set up from ``seed``; ``sure``: one honest voice is the sure one (the
        model checker has none: every honest machine may be slow, lose frames or restart)."""
        rng = Rng(f"explore/{game}/{shape.name}/{seed}")
        ids = [key_from_seed(rng.fork(f"id{i}").next64().to_bytes(8, "big") * 4) for i in range(shape.seats)]
        genesis = make_genesis(
            game,
            [(f"seat {i}", public_bytes(k)) for i, k in enumerate(ids)],
            options=options,
            dealer="seeded",
            seed=seed,
            nonce=seed.to_bytes(8, "big"),
            timeout_ms=TIMEOUT_MS,
            computers=shape.computers,
        )
        voices = shape.voices()
        cheat = frozenset(s for s in range(shape.seats) if voices.voice(s) in shape.cheaters)
        honest_voices = sorted({voices.voice(s) for s in range(shape.seats) if s not in cheat})
        sure_voice = honest_voices[rng.fork("sure").below(len(honest_voices))] if sure else -1
        surely = frozenset(s for s in range(shape.seats) if voices.voice(s) == sure_voice)
        n = shape.seats
        room = cls(shape, seed, genesis, rng, ids, [], voices, cheat, surely)
        room.journals = [[] for _ in range(n)]
        room.secrets = [{} for _ in range(n)]
        room.clocks = [0] * n
        room.sealed = [[] for _ in range(n)]
        room.tables = [room._fresh(s) for s in range(n)]
        for s in range(n):
            room._call(s, room.tables[s].start)
        room.settle()
        return room

    @property
    def honest(self) -> list[int]:
        return [s for s in range(self.shape.seats) if s not in self.cheat]

    def _fresh(self, seat: int) -> Table:
        source_rng = self.rng.fork(f"secrets{seat}/{len(self.journals[seat])}")

        def source(k: int) -> bytes:
            return b"".join(source_rng.next64().to_bytes(8, "big") for _ in range((k + 7) // 8))[:k]

        return Table(self.genesis, seat, self.ids[seat], source=source, secrets=dict(self.secrets[seat]))

    # ------------------------------------------------------------------ carrying out outputs

    def _call(self, seat: int, call: Callable[[], list[out.Output]]) -> None:
        if self.muted and seat in self.cheat:
            return
        try:
            outputs = call()
        except Exception as exc:
            if seat in self.cheat:
                return
            raise Violation(
                f"an honest replica raised: seat {seat}: {type(exc).__name__}: {exc}", INVARIANTS[0]
            ) from exc
        self._carry_out(seat, outputs)

    def _carry_out(self, seat: int, outputs: list[out.Output]) -> None:
        interpret(seat, outputs, self)

    # ---- the scheduler of the room's interpreter: frames held for the explorer, turns played later

    def persist(self, seat: int, payload: bytes, own: bool) -> None:
        self.journals[seat].append(payload)
        if own:
            self._note_own(seat, SignedMessage.from_bytes(payload))

    def keep(self, seat: int, label: str, secret: bytes) -> None:
        self.secrets[seat][label] = secret

    def send(self, seat: int, payload: bytes, to: int | None) -> None:
        self._send(seat, out.Send(payload, to))

    def turn(self, seat: int, turn: out.YourTurn) -> None:
        self.turns.add(seat)

    def event(self, seat: int, event: out.Event) -> None:
        if isinstance(event, out.VotesContradicted) and event.majority and seat not in self.cheat:
            self._call(seat, self.tables[seat].ask_to_return)

    def _send(self, seat: int, o: out.Send) -> None:
        for to in range(self.shape.seats):
            if to == seat or (o.to is not None and o.to != to):
                continue
            frame = (to, seat, o.payload)
            if seat not in self.cheat and (seat in self.sure or to in self.sure):
                self.urgent.append(frame)
            else:
                self.pending.append(frame)

    def _note_own(self, seat: int, msg: SignedMessage) -> None:
        if seat in self.cheat:
            if msg.kind not in CERTIFICATE_KINDS and msg.kind not in TRANSPORT_KINDS:
                self.own_steps.append(msg)
                self._see(msg)
        elif msg.kind == "return":
            self.worded.add(self.voices.voice(seat))
        elif msg.kind == "abandon":
            self.abandoners.add(seat)
            self.worded.add(self.voices.voice(seat))
            self.honest_claims[msg.data] = (msg.step, msg.prev, seat)
            for v in bodies.silent_body(msg.body, self.shape.seats, "an abandon"):
                self.honest_words.add((msg.step, msg.prev, seat, v))
        elif msg.kind == "void_vote":
            self.honest_claims[msg.data] = (msg.step, msg.prev, seat)
            for v in bodies.silent_body(msg.body, self.shape.seats, "a void vote"):
                self.honest_votes.add((msg.step, msg.prev, seat, v))

    def _see(self, msg: SignedMessage) -> None:
        key = (msg.step, msg.prev)
        if key not in self.seen:
            self.seen.append(key)

    def deliver(self, frame: Frame) -> None:
        to, frm, payload = frame
        if to in self.cheat:
            if self.muted:
                return
            try:
                msg = SignedMessage.from_bytes(payload)
            except WireError:
                msg = None
            if msg is not None and msg.kind not in CERTIFICATE_KINDS and msg.kind not in TRANSPORT_KINDS:
                self._see(msg)
        self.deliveries += 1
        self._call(to, lambda: self.tables[to].receive(frm, payload))
        self.check()

    def settle(self) -> None:
        """Deliver what the sure voice's perfect links carry, and play the moves that are due."""
        for _ in range(1_000_000):
            if self.urgent:
                self.deliver(self.urgent.popleft())
            elif not self._play_turns():
                return
        raise Violation("a replica never stops talking to the sure voice", INVARIANTS[0])

    def _play_turns(self) -> bool:
        played = False
        for seat in sorted(self.turns - self.slow):
            self.turns.discard(seat)
            played = self.move(seat) or played
        return played

    def move(self, seat: int) -> bool:
        """Play a legal move of ``seat`` if it is its turn (a seeded choice); whether it played."""
        t = self.tables[seat]
        att = t.attempt
        due = None if att is None else att.own_due()
        if att is None or due is None or due.kind != "action" or t.over or t.stopped is not None:
            return False
        legal = list(att.state.view(seat).legal_actions)
        text = t.rules.action_text(self.rng.fork(f"move{seat}/{att.chain.step}").choice(legal))
        try:
            outputs = t.local_action(text)
        except ActionError:
            self.turns.add(seat)  # (still catching up after a restart: it moves once it may)
            return False
        except Exception as exc:
            if seat in self.cheat:
                return False
            raise Violation(f"an honest replica raised: seat {seat} moving: {exc}", INVARIANTS[0]) from exc
        self._carry_out(seat, outputs)
        self.check()
        return True

    # ------------------------------------------------------------------ what the explorer may do

    def tick(self, seat: int) -> None:
        self.clocks[seat] += TICK_MS
        now = self.clocks[seat]
        self._call(seat, lambda: self.tables[seat].tick(now))
        if seat in self.turns and seat not in self.slow:
            self.turns.discard(seat)
            self.move(seat)
        self.check()

    def restart(self, voice: int, back: int = 0) -> None:
        """The machine of an honest ``voice`` restarts: what was on its way to it is lost, and each of
        its seats is restored from its journal with the secrets it kept — or, ``back`` > 0, from an
        older copy of it (a backup, lost disk writes): the journal as it was before the seat's
        ``back``-th last message of its own."""
        seats = set(self.voices.seats_of((voice,), range(self.shape.seats)))
        self.pending = [f for f in self.pending if f[0] not in seats]
        self.urgent = deque(f for f in self.urgent if f[0] not in seats)
        self.turns -= seats
        for seat in sorted(seats):
            if back > 0:
                self.journals[seat] = self.journals[seat][: self.older_copy(seat, back)]
            fresh = self._fresh(seat)
            self.tables[seat] = fresh
            journal = list(self.journals[seat])
            self._call(seat, lambda fresh=fresh, journal=journal: fresh.restore(journal))  # type: ignore[misc]
        self.check()

    def older_copy(self, seat: int, back: int) -> int:
        """The length of ``seat``'s journal before its ``back``-th last own message (the whole
        journal if it has fewer)."""
        own = [i for i, payload in enumerate(self.journals[seat]) if self._own(seat, payload)]
        return own[-back] if back <= len(own) else len(self.journals[seat])

    def _own(self, seat: int, payload: bytes) -> bool:
        try:
            msg = SignedMessage.from_bytes(payload)
        except WireError:
            return False
        return msg.seat == seat and msg.kind not in TRANSPORT_KINDS and msg.kind != "genesis"

    def sign_as(self, seat: int, kind: str, body: Any, step: int, prev: bytes) -> bytes:
        env = Envelope(game_id=self.genesis.game_id, step=step, seat=seat, prev=prev, kind=kind, body=body)
        return sign(env, self.ids[seat]).data

    def inject(self, frm: int, payload: bytes, to: int | None) -> None:
        """A cheater sends ``payload`` (to every honest seat if ``to`` is None)."""
        for seat in self.honest:
            if to is None or to == seat:
                frame = (seat, frm, payload)
                (self.urgent if seat in self.sure else self.pending).append(frame)

    def mute(self) -> None:
        """The calm phase: the cheaters say nothing more, nobody is slow."""
        self.muted = True
        self.pending = [f for f in self.pending if f[1] not in self.cheat and f[0] not in self.cheat]
        self.slow.clear()

    # ------------------------------------------------------------------ the invariants

    def check(self) -> None:
        """Every invariant of ``INVARIANTS`` on the honest replicas as they are now."""
        finished: dict[bytes, int] = {}
        for seat in self.honest:
            t = self.tables[seat]
            self._check_convicted(seat, t)
            self._check_sealed(seat, t)
            self._check_claims(seat, t)
            gone = t.seats_out
            for x, why in gone.items():
                if x in self.sure and not self._sure_left():
                    raise Violation(
                        f"a connected seat within its move clock was dealt out: seat {seat} holds "
                        f"seat {x} out ({why})",
                        INVARIANTS[4],
                    )
                if why == SILENT:
                    self._check_majority(seat, t, x)
                elif why == UNCONFIRMED:
                    self._check_own_word(seat, t, x)
            # (A restored replica still waiting for a peer's answer has not finished: what it lacks may
            # be a hand played to its end, from which the match goes on, SPEC §7.5.)
            ended = t.over and not t.abandoned and t.stopped is None and not t.restoring_from
            if ended and UNCONFIRMED not in gone.values():
                finished.setdefault(t.digest(), seat)
        # (Only once nothing is in flight: a conviction after the end reaches one replica first.)
        if len(finished) > 1 and not self.pending and not self.urgent:
            seats = sorted(finished.values())
            raise Violation(
                f"finished honest replicas disagree: seats {seats} ended with different digests",
                INVARIANTS[5],
            )
        self._check_same_messages()

    def _check_claims(self, seat: int, t: Table) -> None:
        """The rule's own predicates (``table/claims.py``) on what this replica holds, beside the
        oracle's: the decisions it took, its verdicts, and (in ``_check_same_messages``) its digest.
        Every honest voice counts as present: a decision naming one must be a majority's, or this
        replica's own word or consent."""
        me = self.voices.voice(seat)
        honest = self.voices.among(self.honest)
        if not claims.no_honest_seat_convicted(t.cheaters, self.honest):
            raise Violation(
                f"an honest seat was convicted: seat {seat} names {list(t.cheaters)}", INVARIANTS[1]
            )
        for d, playing in t.decisions_taken():
            if not claims.binds_only_by_majority([d], me, playing):
                raise Violation(
                    f"a minority of voices bound an honest replica: seat {seat} took the decision of "
                    f"{list(d.signers)} about {list(d.silent)} at step {d.step} ({playing} voices playing)",
                    INVARIANTS[3],
                )
            if not claims.present_seat_dealt_out_only_by_majority([d], honest, me):
                raise Violation(
                    f"a present seat was dealt out by a minority: seat {seat} took the word of "
                    f"{list(d.signers)} about {list(d.silent)} at step {d.step}",
                    INVARIANTS[4],
                )

    def _check_convicted(self, seat: int, t: Table) -> None:
        """No honest replica names an honest seat a cheater (its own seat included)."""
        for v in t.verdicts:
            if v.kind in CHEATS and v.seat >= 0 and v.seat not in self.cheat:
                raise Violation(
                    f"an honest seat was convicted: seat {seat} names seat {v.seat} a cheater ({v.kind}, "
                    f"step {v.step}): {v.message}",
                    INVARIANTS[1],
                )

    def _check_same_messages(self) -> None:
        """Honest replicas holding the same messages are in the same state — but where what binds a
        replica is its own voice's word (an abandon it signed, a return it consented with)."""
        held_as = [
            (frozenset(self.journals[s]), self.voices.voice(s), self.tables[s].digest()) for s in self.honest
        ]
        if not claims.same_messages_same_state(held_as):
            raise Violation(
                "honest replicas of one voice holding the same messages reached different states",
                INVARIANTS[5],
            )
        alike: dict[frozenset[bytes], tuple[int, bytes]] = {}
        for seat, (held, voice, digest) in zip(self.honest, held_as, strict=True):
            if voice in self.worded:
                continue
            first = alike.setdefault(held, (seat, digest))
            if first[1] != digest:
                raise Violation(
                    f"honest replicas holding the same messages disagree: seats {first[0]} and {seat} hold "
                    f"the same {len(held)} messages and reached different states",
                    INVARIANTS[5],
                )

    def _check_own_word(self, seat: int, t: Table, x: int) -> None:
        """Seat ``x`` out as unconfirmed: an abandon, which binds its signer's voice alone — and a voice
        it names once that voice consented (returned); so the abandon must be this replica's own, or
        an honest seat's naming this replica's voice.  A cheater's never binds an honest replica."""
        me, voice = self.voices.voice(seat), self.voices.voice(x)
        where = [(c.step, c.prev) for c in t.changes if c.kind == UNCONFIRMED and x in c.seats]
        words = self.honest_words
        if where:
            backed = any(
                (step, prev, h, voice) in words and (h == me or (step, prev, h, me) in words)
                for step, prev in where
                for h in sorted(self.abandoners)
            )
        else:  # (out since an earlier hand: the decision was checked while it was being taken)
            backed = any(h == me or v == me for _, _, h, v in words)
        if not backed:
            raise Violation(
                f"a minority of voices bound an honest replica: seat {seat} holds seat {x} out as "
                "unconfirmed, by an abandon neither its own nor an honest one naming it",
                INVARIANTS[4],
            )

    def _sure_left(self) -> bool:
        """The sure voice left the match by its own word (it ended, or went on without the others):
        the others may go on without it."""
        return any(s in self.abandoners or self.tables[s].over for s in self.sure)

    def _check_sealed(self, seat: int, t: Table) -> None:
        heads = [att.seal_prev for _, att in t.finals]
        before = self.sealed[seat]
        # (A replica restored from an older copy of its journal holds fewer final hands for a while:
        # what it holds must be what it held.)
        common = min(len(heads), len(before))
        if not claims.sealed_hands_unchanged(before[:common], heads):
            raise Violation(
                f"a sealed hand changed: seat {seat} held {len(before)} final hands, now {len(heads)}, "
                f"hand {next(k for k in range(common) if heads[k] != before[k])} another",
                INVARIANTS[2],
            )
        if len(heads) > len(before):
            self.sealed[seat] = heads

    def _check_majority(self, seat: int, t: Table, x: int) -> None:
        """Seat ``x`` out as silent: a majority's decision, which needs an honest voter for it — and,
        at a step of the hand being played, enough voters whose vote is not spent (see ``_unspent``)."""
        voice = self.voices.voice(x)
        where = [(c.step, c.prev) for c in t.changes if c.kind == SILENT and x in c.seats]
        if where:
            backed = any((st, pr, h, voice) in self.honest_votes for st, pr in where for h in self.honest)
        else:  # (out since an earlier hand: the decision was checked while it was being taken)
            backed = any(v == voice for _, _, _, v in self.honest_votes)
        if not backed:
            raise Violation(
                f"a minority of voices bound an honest replica: seat {seat} holds seat {x} out as silent "
                "though no honest seat voted for it",
                INVARIANTS[3],
            )
        for step, prev in where:
            self._unspent(seat, t, x, step, prev)

    def _unspent(self, seat: int, t: Table, x: int, step: int, prev: bytes) -> None:
        """More than half of the voices playing must have an unspent vote for the decision at ``step``:
        the honest voters that signed nothing later in that attempt, and at most every cheating voice.

        Spent is judged by what this replica holds (SPEC §6.5): its attempt's steps and seals, and the
        honest claims in its journal.  A later message still on its way cannot count — no replica can
        know of it — so an old vote relayed before it may deal a seat out here for that while; what
        keeps that harmless is checked apart: the message, once it arrives, spends the vote and the
        seat is back (monotone: nothing held ever unspends a claim), and the seat's return names that
        one decision, which can never again be a majority's on a replica holding the message."""
        att = next((a for a in t.attempts_path if a.head_before(step) == prev), None)
        if att is None:
            return  # (at the seal of the last final hand: spent there is about the next hand)
        # The voices the rule counts (SPEC §6.1/§10): an out-of-chips Azi seat watches and has a voice.
        playing = decide.playing(self.voices, att)
        voice = self.voices.voice(x)
        held = set(self.journals[seat])
        later = {
            h
            for data, (st, pr, h) in self.honest_claims.items()
            if st > step and data in held and att.head_before(st) == pr
        }
        live = {
            h
            for h in playing
            if h not in self.shape.cheaters
            and (step, prev, h, voice) in self.honest_votes
            and not att.signed_after(step, h)
            and h not in later
        }
        cheaters = [v for v in playing if v in self.shape.cheaters]
        if 2 * (len(live) + len(cheaters)) <= len(playing):
            raise Violation(
                f"a minority of voices bound an honest replica: seat {seat} holds seat {x} out as silent "
                f"at step {step} with unspent votes of {sorted(live)} and {len(cheaters)} cheating voices "
                f"of {len(playing)}",
                INVARIANTS[3],
            )
