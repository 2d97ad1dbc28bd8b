"""One seat's replica of a game: a sans-IO state machine over the signed, hash-chained log.

Feed it what arrives (``receive``), what its player decides (``local_action``) and the time
(``tick``); each call returns the outputs its shell must carry out, in order (see ``outputs``).
Everything replicated — whose turn it is, what must be revealed, the verdict on a cheat — is decided
from the sealed steps of the log alone, so every honest replica decides the same.

The log of a game, step by step (each step one seat, or a round of several seats applied in seat
order once complete):

    genesis (all) · coin_commit (all) · coin_reveal (all)              -> the first dealer
    per hand: the dealer's prelude (key_commit, key_reveal, shuffle x n)
              then what the engine awaits, in turn:
                a seat's move   -> action (that seat; it carries its shares for the cards it shows)
                                   [+ reveal round if a shown position still lacks shares]
                a Deal/Disclose/Reveal need -> share or reveal round (the seats whose shares are due)
              at the end: audit round (shares opening every position the rules must check)
              -> full-information replay, then settlement and the next hand
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pcards import deal
from p2pcards.games import (
    TERMINAL,
    UNKNOWN,
    Action,
    ActionError,
    Deal,
    Disclose,
    FulfilError,
    GameError,
    HandRecord,
    HandState,
    Match,
    Reveal,
)
from p2pcards.table import outputs as out
from p2pcards.table.dealers import DealerFactory, DealFault, HandDealer, mental_factory, seeded_factory
from p2pcards.table.genesis import Genesis
from p2pcards.wire import (
    Chain,
    Duplicate,
    Envelope,
    Equivocation,
    Rejected,
    Sealed,
    SignedMessage,
    Step,
    authenticate,
    load_public_key,
    sign,
)

SecretSource = Callable[[int], bytes]

AUDIT_HIDDEN_ZONES = frozenset({"discard", "mucked", "undealt", "talon", "deck"})
"""Zones the audit never opens: discards and folded hands stay secret (and unplayed stock is irrelevant)."""

RETRY_MS = 1_000
"""While waiting, how often to re-send our part of the open step and ask peers to catch us up."""

MAX_FUTURE = 256
"""Messages for later steps kept while catching up (beyond this, they are dropped and asked for again)."""


@dataclass
class _Expect:
    """What the open step awaits: its kind, the seats, and for share rounds the positions each owes."""

    kind: str
    seats: tuple[int, ...]
    owed: dict[int, tuple[int, ...]] = field(default_factory=dict)
    need: Any = None


@dataclass
class _Hand:
    number: int
    state: HandState
    dealer: HandDealer
    prelude: list[str]
    published: dict[int, int] = field(default_factory=dict)
    """Position -> bitmask of the seats whose share of it is public (checked)."""


class Table:
    """One seat's replica.  Construct, call ``start()``, then feed it.

    With ``seat=None`` (and no identity) it is an *observer*: it contributes nothing and learns only
    what is public — what ``p2pcards verify`` runs over a journal."""

    def __init__(
        self,
        genesis: Genesis,
        seat: int | None,
        identity: Ed25519PrivateKey | None,
        *,
        source: SecretSource | None = None,
        secrets: Mapping[str, bytes] | None = None,
        dealer_factory: DealerFactory | None = None,
    ) -> None:
        self.genesis = genesis
        self.game_id = genesis.game_id
        self.rules = genesis.rules()
        self.n = len(genesis.seats)
        if seat is not None and not 0 <= seat < self.n:
            raise ValueError(f"no seat {seat} at a table of {self.n}")
        if (seat is None) != (identity is None):
            raise ValueError("a seat needs its identity key; an observer (seat None) has none")
        self.seat = seat
        self._identity = identity
        self._source = source
        self._secrets: dict[str, bytes] = dict(secrets or {})
        self._keys = {i: load_public_key(s.key) for i, s in enumerate(genesis.seats)}
        self.chain = Chain(self.game_id, self._keys)
        self._given_factory = dealer_factory
        if dealer_factory is not None:
            self._dealer_factory = dealer_factory
        elif genesis.dealer == "seeded":
            self._dealer_factory = seeded_factory(self.rules.deck, genesis.seed)
        else:
            hand_secrets = {int(k.split()[1]): v for k, v in self._secrets.items() if k.startswith("hand ")}
            kw: dict[str, Any] = {} if source is None else {"source": source}
            self._dealer_factory = mental_factory(self.game_id, self.rules.deck, secrets=hand_secrets, **kw)
        self.match: Match | None = None
        self.hand: _Hand | None = None
        self.hands_played: list[tuple[HandState, Any]] = []
        self.fault: out.Fault | None = None
        self.over = False
        self._expect: _Expect | None = None
        self._coin_commits: dict[int, bytes] = {}
        self._future: dict[tuple[int, int], bytes] = {}
        self._seen: set[bytes] = set()
        """Hashes of the payloads accepted so far (only ever looked up, never iterated)."""
        self._votes: dict[int, dict[int, tuple[int, ...]]] = {}
        """Per step, per voting seat, the seats it voted silent."""
        self._vote_msgs: dict[int, dict[int, bytes]] = {}
        self._voted_step = -1
        self._now = 0
        self._since = 0
        self._timeout = genesis.timeout_ms
        self._last_retry = 0
        self._out: list[out.Output] = []
        self._turn_announced = -1
        self._restoring = False
        self._pending_action: tuple[Action, tuple[int, ...], int] | None = None

    # ================================================================ public API

    def start(self) -> list[out.Output]:
        """Open the first step and make this seat's first contribution."""
        self._advance()
        return self._flush()

    def restore(self, journal: Iterable[bytes]) -> list[out.Output]:
        """Rebuild from this seat's journal (accepted messages in order), then resume: re-send this
        seat's messages of the open step and ask every peer for what it missed.  Returns the verdicts
        reached on the way (hands over with their audits, faults, refused frames) and what to send.
        An observer (seat None) restored from any peer's journal is how a game is verified."""
        self._replay(journal)
        self._out = [
            o for o in self._out if isinstance(o, (out.Fault, out.HandOver, out.MatchOver, out.Rejected))
        ]
        for msg in self.chain.pending:
            if msg.seat == self.seat:
                self._out.append(out.Send(msg.data))
        for vote in self._vote_msgs.get(self.chain.step, {}).values():
            self._out.append(out.Send(vote))
        self._advance()
        if self.seat is not None:
            request = self._signed("catchup_request", {"after": self.chain.step - 1}, transport=True)
            self._out.append(out.Send(request))
        return self._flush()

    def _replay(self, journal: Iterable[bytes]) -> None:
        """Feed accepted messages without making or sending anything of our own."""
        self._restoring = True
        try:
            self._advance()
            for payload in journal:
                self._ingest(None, payload)
        finally:
            self._restoring = False

    def receive(self, peer: int | None, payload: bytes) -> list[out.Output]:
        """A frame payload from ``peer`` (a seat number, or None if unknown)."""
        self._ingest(peer, payload)
        return self._flush()

    def local_action(self, text: str) -> list[out.Output]:
        """This seat's player chose ``text``; ``ActionError`` (and nothing sent) if it is not legal now."""
        hand, exp = self.hand, self._expect
        if self.seat is None:
            raise ActionError("an observer does not play")
        if self.fault is not None or self.over:
            raise ActionError("the game is over")
        if hand is None or exp is None or exp.kind != "action" or exp.seats != (self.seat,):
            raise ActionError("it is not your turn")
        state = hand.state
        action = state.parse(text)
        self._check_own(state, action)
        positions = sorted(state.reveals(action))
        due = [p for p in positions if not hand.published.get(p, 0) >> self.seat & 1]
        body = {
            "a": self.rules.action_text(action),
            "pos": positions,
            "shares": hand.dealer.make_shares(self.chain.step, due),
        }
        self._contribute("action", body)
        return self._flush()

    def _check_own(self, state: HandState, action: Action) -> None:
        """Refuse our own illegal move before anything is signed (the seat knows its own cards)."""
        state.clone().apply(action)  # raises ActionError naming the legal moves; ``state`` is untouched

    def tick(self, now: int) -> list[out.Output]:
        """The local time in milliseconds.  A seat silent past the timeout gets a void vote from us."""
        self._now = now
        exp = self._expect
        if exp is not None and self.fault is None and not self.over and self.seat is not None:
            missing = tuple(sorted(self.chain.missing))
            if missing and now - self._last_retry >= RETRY_MS:
                self._retry()
            # A vote only after the missing seats had a retry's chance to answer, and only when the
            # voters could form a majority: a seat cut off from the rest must not void the hand.
            waited = now - self._since
            if (
                missing
                and waited >= max(self._timeout, 2 * RETRY_MS)
                and self._voted_step != self.chain.step
                and self.seat not in missing
                and 2 * (self.n - len(missing)) > self.n
            ):
                self._voted_step = self.chain.step
                self._contribute_vote(missing)
        return self._flush()

    def _retry(self) -> None:
        """Still waiting: say again what we said for this step and ask everyone for what we lack
        (a frame lost on a link, or a peer that restarted, must not stall the game)."""
        self._last_retry = self._now
        for msg in self.chain.pending:
            if msg.seat == self.seat:
                self._out.append(out.Send(msg.data))
        for vote in self._vote_msgs.get(self.chain.step, {}).values():
            self._out.append(out.Send(vote))
        self._out.append(
            out.Send(self._signed("catchup_request", {"after": self.chain.step - 1}, transport=True))
        )

    @property
    def state(self) -> HandState | None:
        return None if self.hand is None else self.hand.state

    @property
    def waiting_for(self) -> tuple[int, ...]:
        return tuple(sorted(self.chain.missing))

    def digest(self) -> bytes:
        """What every honest replica agrees on: the log head, the hand's digest and any verdict."""
        h = hashlib.sha256(b"p2pcards/table/v1")
        h.update(self.chain.head)
        h.update(b"" if self.hand is None else self.hand.state.digest())
        h.update(
            b"" if self.fault is None else f"{self.fault.seat}:{self.fault.step}:{self.fault.kind}".encode()
        )
        return h.digest()

    # ================================================================ ingestion

    def _ingest(self, peer: int | None, payload: bytes) -> None:
        # Every message reaches us once from its author and once more from each relaying peer: a copy
        # of bytes we already accepted needs no second signature check.
        fingerprint = hashlib.sha256(payload).digest()
        if fingerprint in self._seen:
            return
        verdict = authenticate(payload, game_id=self.game_id, keys=self._keys)
        if isinstance(verdict, Rejected):
            self._out.append(out.Rejected(peer, str(verdict.reason), verdict.detail))
            return
        msg = verdict.message
        if msg.kind == "catchup_request":
            self._serve_catchup(peer, msg)
            return
        if msg.kind == "catchup_response":
            for raw in _frames_of(msg.body):
                self._ingest(peer, raw)
            return
        if msg.kind == "void_vote":
            self._take_vote(peer, msg)
            return
        if self.fault is not None or self.over:
            # A finished or stopped game still learns of equivocation (it may move the cut earlier).
            if msg.step < self.chain.step:
                outcome = self.chain.offer(msg, authenticated=True)
                if isinstance(outcome, Equivocation):
                    self._equivocation(outcome)
            return
        if msg.step > self.chain.step:
            self._hold_future(peer, msg)
            return
        outcome = self.chain.offer(msg, authenticated=True)
        if isinstance(outcome, Duplicate):
            return
        if isinstance(outcome, Equivocation):
            self._equivocation(outcome)
            return
        if isinstance(outcome, Rejected):
            self._out.append(out.Rejected(peer, str(outcome.reason), outcome.detail))
            return
        self._accepted(msg, own=msg.seat == self.seat)
        if isinstance(outcome, Sealed):
            self._apply_step(outcome.step)
            self._advance()
            self._drain_future()

    def _accepted(self, msg: SignedMessage, *, own: bool) -> None:
        self._seen.add(hashlib.sha256(msg.data).digest())
        if not self._restoring:
            self._out.append(out.Persist(msg.data, own=own))
            self._out.append(out.Send(msg.data))  # the author's first send, or our relay of it

    def _hold_future(self, peer: int | None, msg: SignedMessage) -> None:
        key = (msg.step, msg.seat)
        if key in self._future:
            return
        if len(self._future) >= MAX_FUTURE:
            return
        self._future[key] = msg.data
        if peer is not None and not self._restoring and self.seat is not None:
            request = self._signed("catchup_request", {"after": self.chain.step - 1}, transport=True)
            self._out.append(out.Send(request, to=peer))

    def _drain_future(self) -> None:
        while self.fault is None and not self.over:
            ready = sorted(k for k in self._future if k[0] <= self.chain.step)
            if not ready:
                return
            for key in ready:
                payload = self._future.pop(key)
                if self.fault is None and not self.over:
                    self._ingest(None, payload)

    def _serve_catchup(self, peer: int | None, msg: SignedMessage) -> None:
        body = msg.body
        after = body.get("after") if isinstance(body, dict) else None
        if not isinstance(after, int) or after < -1 or self._restoring:
            return
        frames = [m.data for m in self.chain.messages_after(after)]
        if self.fault is not None:
            # A stopped replica must still pass on why it stopped: a peer that missed the evidence
            # would otherwise wait for it forever.
            frames += list(self.fault.evidence)
        frames += [
            votes[s]
            for step in sorted(self._vote_msgs)
            for votes in [self._vote_msgs[step]]
            for s in sorted(votes)
        ]
        batch: list[bytes] = []
        size = 0
        for raw in frames:
            if size + len(raw) > 900 * 1024 and batch:
                self._out.append(
                    out.Send(
                        self._signed("catchup_response", {"msgs": batch}, transport=True),
                        to=msg.seat if peer is None else peer,
                    )
                )
                batch, size = [], 0
            batch.append(raw)
            size += len(raw) + 8
        if batch:
            self._out.append(
                out.Send(
                    self._signed("catchup_response", {"msgs": batch}, transport=True),
                    to=msg.seat if peer is None else peer,
                )
            )

    # ================================================================ making our messages

    def _signed(self, kind: str, body: Any, *, transport: bool = False) -> bytes:
        assert self.seat is not None and self._identity is not None, "an observer signs nothing"
        env = Envelope(
            game_id=self.game_id,
            step=0 if transport else self.chain.step,
            seat=self.seat,
            prev=self.chain.head,
            kind=kind,
            body=body,
        )
        return sign(env, self._identity).data

    def _contribute(self, kind: str, body: Any) -> None:
        payload = self._signed(kind, body)
        self._ingest(self.seat, payload)

    def _contribute_vote(self, silent: tuple[int, ...]) -> None:
        payload = self._signed("void_vote", {"silent": list(silent)})
        self._ingest(self.seat, payload)

    def _random(self, n: int) -> bytes:
        if self._source is not None:
            return self._source(n)
        import secrets as _secrets  # the OS's randomness, only where no source was injected

        return _secrets.token_bytes(n)

    def _keep(self, label: str, value: bytes) -> None:
        if self._secrets.get(label) != value:
            self._secrets[label] = value
            self._out.append(out.KeepSecret(label, value))

    # ================================================================ advancing

    def _advance(self) -> None:
        """Open the next step if none is open, and contribute to it if this seat is due."""
        if self.fault is None and not self.over and self._expect is None:
            try:
                exp = self._next_expectation()
            except _Foul as foul:
                self._set_fault(out.Fault(foul.seat, self.chain.step, foul.kind, foul.message))
                return
            if exp is None:
                return
            self._expect = exp
            self.chain.expect(exp.seats)
            self._since = self._now
            self._out.append(out.Waiting(self.chain.step, exp.seats, self._now))
        exp = self._expect
        if exp is None or self._restoring or self.seat is None or self.seat not in exp.seats:
            return
        if self.chain.lookup(self.chain.step, self.seat) is None:
            self._make_contribution(exp)

    def _next_expectation(self) -> _Expect | None:
        everyone = tuple(range(self.n))
        step = self.chain.step
        if step == 0:
            return _Expect("genesis", everyone)
        if step == 1:
            return _Expect("coin_commit", everyone)
        if step == 2:
            return _Expect("coin_reveal", everyone)
        hand = self.hand
        if hand is None:
            return None
        if self._pending_action is not None:
            _, positions, _ = self._pending_action
            owed = self._owed(hand, positions, everyone)
            return _Expect("reveal", tuple(sorted(owed)), owed)
        if hand.prelude:
            kind = hand.prelude[0]
            seats = hand.dealer.prelude()[len(hand.dealer.prelude()) - len(hand.prelude)].seats
            return _Expect(kind, seats)
        state = hand.state
        while True:
            to_act = state.to_act
            if to_act >= 0:
                return _Expect("action", (to_act,))
            if to_act == TERMINAL:
                owed = self._owed(hand, self._audit_positions(state), everyone)
                if not owed:
                    self._finish_hand()
                    return None if (self.over or self.fault is not None) else self._next_expectation()
                return _Expect("audit", tuple(sorted(owed)), owed)
            need = state.need
            owed = self._need_round(hand, need)
            if owed:
                return _Expect(
                    "reveal" if isinstance(need, Reveal) else "share", tuple(sorted(owed)), owed, need
                )
            self._fulfil(hand, need)

    def _need_round(self, hand: _Hand, need: Any) -> dict[int, tuple[int, ...]]:
        """Who must publish which shares before ``need`` can be fulfilled (shares already public are
        never asked for twice)."""
        if isinstance(need, Deal):
            if not need.disclose:
                return {}
            owed: dict[int, list[int]] = {}
            for owner, positions in need.hands:
                for j in range(self.n):
                    if j != owner:
                        owed.setdefault(j, []).extend(positions)
            return self._unpublished(hand, owed)
        if isinstance(need, Disclose):
            return self._unpublished(hand, {j: list(need.positions) for j in range(self.n) if j != need.seat})
        assert isinstance(need, Reveal)
        return self._unpublished(hand, {j: list(need.positions) for j in range(self.n)})

    def _owed(
        self, hand: _Hand, positions: Sequence[int], seats: Iterable[int]
    ) -> dict[int, tuple[int, ...]]:
        return self._unpublished(hand, {j: list(positions) for j in seats})

    @staticmethod
    def _unpublished(hand: _Hand, owed: Mapping[int, Sequence[int]]) -> dict[int, tuple[int, ...]]:
        result: dict[int, tuple[int, ...]] = {}
        for seat in sorted(owed):
            due = tuple(sorted(p for p in set(owed[seat]) if not hand.published.get(p, 0) >> seat & 1))
            if due:
                result[seat] = due
        return result

    def _audit_positions(self, state: HandState) -> list[int]:
        return sorted(p for name, ps in state.zones() if name not in AUDIT_HIDDEN_ZONES for p in ps)

    def _make_contribution(self, exp: _Expect) -> None:
        assert self.seat is not None
        step = self.chain.step
        if exp.kind == "genesis":
            self._contribute("genesis", self.genesis.encode())
        elif exp.kind == "coin_commit":
            rho = self._secrets.get("coin") or self._coin_secret()
            self._keep("coin", rho)
            self._contribute("coin_commit", deal.coin_commitment(self._coin_ctx(self.seat), rho))
        elif exp.kind == "coin_reveal":
            self._contribute("coin_reveal", self._secrets["coin"])
        elif exp.kind in ("share", "reveal", "audit"):
            assert self.hand is not None
            positions = exp.owed[self.seat]
            self._contribute(exp.kind, {"shares": self.hand.dealer.make_shares(step, positions)})
        elif exp.kind == "action":
            assert self.hand is not None
            if self._turn_announced != step and not self._restoring:
                self._turn_announced = step
                self._out.append(out.YourTurn(self.hand.number, self.hand.state.view(self.seat)))
        else:
            assert self.hand is not None
            hand = self.hand
            if exp.kind == "key_commit":
                self._keep(f"hand {hand.number}", hand.dealer.secret())
            self._contribute(exp.kind, hand.dealer.contribute(exp.kind, step))

    def _coin_secret(self) -> bytes:
        if self.genesis.dealer == "seeded":
            return hashlib.sha256(f"p2pcards/seeded-coin/{self.genesis.seed}/{self.seat}".encode()).digest()
        return self._random(32)

    def _coin_ctx(self, seat: int | None) -> deal.Context:
        return deal.Context(game_id=self.game_id, hand=0, seat=seat, step=1)

    # ================================================================ applying sealed steps

    def _apply_step(self, step: Step) -> None:
        exp = self._expect
        assert exp is not None
        self._expect = None
        try:
            self._apply(exp, step)
        except _Foul as foul:
            self._set_fault(
                out.Fault(
                    foul.seat,
                    step.number,
                    foul.kind,
                    foul.message,
                    tuple(m.data for m in step.messages if m.seat == foul.seat),
                )
            )
            return
        self._out.append(out.StateChanged(step.number, self.digest()))

    def _apply(self, exp: _Expect, step: Step) -> None:
        msgs = step.messages
        for m in msgs:
            if m.kind != exp.kind:
                raise _Foul(m.seat, "bad-message", f"sent {m.kind!r} where {exp.kind!r} was due")
        if exp.kind == "genesis":
            for m in msgs:
                if m.body != self.genesis.encode():
                    raise _Foul(m.seat, "bad-message", "signed another genesis")
            return
        if exp.kind == "coin_commit":
            for m in msgs:
                if not isinstance(m.body, bytes) or len(m.body) != 32:
                    raise _Foul(m.seat, "bad-message", "a coin commitment is 32 bytes")
                self._coin_commits[m.seat] = m.body
            return
        if exp.kind == "coin_reveal":
            reveals = []
            for m in msgs:
                try:
                    reveals.append(
                        deal.verify_coin_reveal(self._coin_ctx(m.seat), self._coin_commits[m.seat], m.body)
                    )
                except deal.DealError as exc:
                    raise _Foul(m.seat, "bad-message", str(exc)) from exc
            coin = deal.coin_value(self._coin_ctx(None), reveals)
            self.match = self.rules.new_match(deal.coin_below(coin, self.n, b"first dealer"))
            self._new_hand()
            return
        hand = self.hand
        assert hand is not None
        if exp.kind in ("key_commit", "key_reveal", "shuffle"):
            try:
                hand.dealer.accept(exp.kind, step.number, [(m.seat, m.body) for m in msgs])
            except DealFault as exc:
                raise _Foul(exc.seat, "bad-message", str(exc)) from exc
            hand.prelude.pop(0)
            return
        if exp.kind in ("share", "reveal", "audit"):
            for m in msgs:
                self._take_shares(hand, step.number, m.seat, exp.owed[m.seat], _shares_of(m.body, m.seat))
            if exp.kind == "audit":
                self._finish_hand()
            elif exp.kind == "reveal" and exp.need is None:
                self._apply_pending_action(hand)
            else:
                self._fulfil(hand, exp.need)
            return
        assert exp.kind == "action"
        (m,) = msgs
        self._take_action(hand, step.number, m)

    def _take_shares(self, hand: _Hand, step: int, seat: int, positions: Sequence[int], body: Any) -> None:
        try:
            hand.dealer.accept_shares(step, seat, positions, body)
        except DealFault as exc:
            raise _Foul(seat, "bad-message", str(exc)) from exc
        for p in positions:
            hand.published[p] = hand.published.get(p, 0) | 1 << seat

    def _fulfil(self, hand: _Hand, need: Any) -> None:
        values: dict[int, int] = {}
        everyone = (1 << self.n) - 1
        if isinstance(need, Deal):
            if need.disclose:
                for owner, positions in need.hands:
                    if owner == self.seat:
                        others = [j for j in range(self.n) if j != self.seat]
                        for p in positions:
                            values[p] = self._open(hand, p, others, own=True)
        elif isinstance(need, Disclose):
            if need.seat == self.seat:
                others = [j for j in range(self.n) if j != self.seat]
                for p in need.positions:
                    values[p] = self._open(hand, p, others, own=True)
        else:
            assert isinstance(need, Reveal)
            for p in need.positions:
                assert hand.published.get(p, 0) == everyone
                values[p] = self._open(hand, p, list(range(self.n)), own=False)
        try:
            hand.state.fulfil(values)
        except FulfilError as exc:
            # Only a dealer that produced a duplicate card could get here: the deck itself is wrong.
            raise _Foul(-1, "bad-message", f"the deal does not fit the hand: {exc}") from exc

    def _open(self, hand: _Hand, position: int, sharers: Sequence[int], *, own: bool) -> int:
        try:
            return hand.dealer.open(position, sharers, own)
        except DealFault as exc:
            # Every share was proved correct, so a position that opens to no card means the deck was
            # built wrong before the shuffles, which every replica recomputed: it cannot happen.
            raise _Foul(-1, "bad-message", str(exc)) from exc

    def _take_action(self, hand: _Hand, step: int, m: SignedMessage) -> None:
        body = m.body
        text = body.get("a") if isinstance(body, dict) else None
        raw_positions = body.get("pos") if isinstance(body, dict) else None
        if not isinstance(text, str) or not isinstance(raw_positions, tuple) or not isinstance(body, dict):
            raise _Foul(m.seat, "bad-message", "an action is {a: text, pos: [...], shares: [...]}")
        positions = tuple(p for p in raw_positions if isinstance(p, int) and not isinstance(p, bool))
        if len(positions) != len(raw_positions) or list(positions) != sorted(set(positions)):
            raise _Foul(m.seat, "bad-message", "the positions an action shows are distinct and ascending")
        if not set(positions) <= set(_hand_positions(hand.state, m.seat)):
            raise _Foul(m.seat, "illegal-action", "tried to show a card that is not in its hand")
        try:
            action = self.rules.parse_action(text)
        except ActionError as exc:
            raise _Foul(m.seat, "illegal-action", str(exc)) from exc
        due = [p for p in positions if not hand.published.get(p, 0) >> m.seat & 1]
        self._take_shares(hand, step, m.seat, due, body.get("shares"))
        self._pending_action = (action, positions, m.seat)
        if not self._owed(hand, positions, range(self.n)):
            self._apply_pending_action(hand)

    def _apply_pending_action(self, hand: _Hand) -> None:
        assert self._pending_action is not None
        action, positions, seat = self._pending_action
        self._pending_action = None
        state = hand.state
        for p in positions:
            card = self._open(hand, p, list(range(self.n)), own=False)
            try:
                state.observe(p, card)
            except FulfilError as exc:
                raise _Foul(seat, "illegal-action", str(exc)) from exc
        try:
            expected = tuple(sorted(state.reveals(action)))
        except GameError as exc:
            raise _Foul(seat, "illegal-action", str(exc)) from exc
        if expected != tuple(sorted(positions)):
            raise _Foul(
                seat,
                "illegal-action",
                f"showed positions {sorted(positions)} for "
                f"{self.rules.action_text(action)!r}, which shows {list(expected)}",
            )
        try:
            state.apply(action)
        except ActionError as exc:
            raise _Foul(
                seat, "illegal-action", exc.reason if exc.rule is None else f"{exc.reason} ({exc.rule})"
            ) from exc

    # ================================================================ hands and the match

    def _new_hand(self) -> None:
        assert self.match is not None
        number = len(self.hands_played)
        state = self.match.new_hand()
        dealer = self._dealer_factory(number, self.seat, self.n)
        self.hand = _Hand(number, state, dealer, [p.kind for p in dealer.prelude()])

    def _finish_hand(self) -> None:
        hand = self.hand
        assert hand is not None and self.match is not None
        state = hand.state
        audit_positions = self._audit_positions(state)
        deck = list(state.card_at)
        for p in audit_positions:
            if deck[p] == UNKNOWN:
                deck[p] = self._open(hand, p, list(range(self.n)), own=False)
        record = state.record()
        full = HandRecord(record.game, record.options, record.setup, tuple(deck), record.actions)
        verdict = self.rules.audit(full)
        self.hands_played.append((state, verdict))
        if not verdict.ok:
            seat = verdict.seat if verdict.seat is not None else -1
            raise _Foul(seat, "renege", str(verdict))
        summary = _summary(state)
        self._out.append(out.HandOver(hand.number, state, verdict, summary))
        self.match = self.match.settle(state)
        if self.match.over:
            self.over = True
            self._out.append(out.MatchOver(self.match.summary()))
            return
        self._new_hand()

    # ================================================================ faults

    def _set_fault(self, fault: out.Fault) -> None:
        """Take ``fault`` unless a verdict that ranks before it is already held.

        Verdicts are ranked by step, then equivocation before a unanimous void vote before a fault in
        a message's content, then seat.  Each kind reaches every honest replica (messages and votes
        are relayed), so every replica ends on the same, first-ranked verdict.  A verdict on an
        earlier step than the replica has reached cuts its log back to that step."""
        if self.fault is not None and _rank(self.fault) <= _rank(fault):
            return
        if fault.kind in ("equivocation", "silent") and fault.step < self.chain.step:
            self._rebuild_before(fault.step)
        self.fault = fault
        self._expect = None
        self._out.append(fault)

    def _equivocation(self, ev: Equivocation) -> None:
        step = ev.first.step
        seat = ev.first.seat
        if not self._restoring:
            self._out.append(out.Persist(ev.first.data))
            self._out.append(out.Persist(ev.second.data))
            self._out.append(out.Send(ev.first.data))
            self._out.append(out.Send(ev.second.data))
        message = f"seat {seat} signed two different messages for step {step}"
        self._set_fault(out.Fault(seat, step, "equivocation", message, (ev.first.data, ev.second.data)))

    def _take_vote(self, peer: int | None, msg: SignedMessage) -> None:
        """A signed vote that seats have been silent at a step.  When every other seat has voted the
        same seats silent at the same step, the hand is void there — on every replica, even one that
        meanwhile received the late message and went on (it cuts its log back to that step)."""
        body = msg.body
        raw = body.get("silent") if isinstance(body, dict) else None
        silent = tuple(s for s in raw if isinstance(s, int)) if isinstance(raw, tuple) else ()
        if (
            not isinstance(silent, (list, tuple))
            or not silent
            or list(silent) != sorted(set(silent))
            or not all(isinstance(s, int) and 0 <= s < self.n for s in silent)
            or msg.seat in silent
        ):
            self._out.append(out.Rejected(peer, "bad vote", "a void vote names other seats, ascending"))
            return
        if self._head_before(msg.step) != msg.prev:
            self._out.append(out.Rejected(peer, "wrong head", f"void vote for step {msg.step}"))
            return
        votes = self._votes.setdefault(msg.step, {})
        if msg.seat in votes:
            return
        votes[msg.seat] = tuple(silent)
        self._vote_msgs.setdefault(msg.step, {})[msg.seat] = msg.data
        self._accepted(msg, own=msg.seat == self.seat)
        target = votes[msg.seat]
        voters = [s for s in range(self.n) if s not in target]
        if 2 * len(voters) <= self.n or not all(votes.get(s) == target for s in voters):
            # Only a strict majority can void a hand: two halves of a split table must never both
            # reach a verdict, and one seat alone could be the one that is cut off.
            return
        evidence = tuple(self._vote_msgs[msg.step][s] for s in voters)
        self._set_fault(
            out.Fault(
                target[0],
                msg.step,
                "silent",
                f"seats {list(target)} stayed silent; every other seat voted the hand void",
                evidence,
            )
        )

    def _head_before(self, step: int) -> bytes | None:
        if step == self.chain.step:
            return self.chain.head
        for sealed in self.chain.steps:
            if sealed.number == step:
                return sealed.prev
        return None

    def _rebuild_before(self, step: int) -> None:
        """Start again from the log up to (not including) ``step``: a verdict cuts the log there."""
        kept = [m.data for s in self.chain.steps if s.number < step for m in s.messages]
        fresh = Table(
            self.genesis,
            self.seat,
            self._identity,
            source=self._source,
            secrets=self._secrets,
            dealer_factory=self._given_factory,
        )
        fresh._replay(kept)
        fresh._votes, fresh._vote_msgs = self._votes, self._vote_msgs
        keep_out = self._out
        self.__dict__.update(fresh.__dict__)
        self._out = keep_out

    # ================================================================ helpers

    def _flush(self) -> list[out.Output]:
        produced, self._out = self._out, []
        return produced


_KIND_RANK = {"equivocation": 0, "silent": 1}


def _rank(fault: out.Fault) -> tuple[int, int, int]:
    return (fault.step, _KIND_RANK.get(fault.kind, 2), fault.seat)


class _Foul(Exception):
    def __init__(self, seat: int, kind: str, message: str) -> None:
        super().__init__(message)
        self.seat = seat
        self.kind = kind
        self.message = message


def _shares_of(body: Any, seat: int) -> Any:
    if not isinstance(body, dict) or "shares" not in body:
        raise _Foul(seat, "bad-message", "a share message is {shares: [...]}")
    return body["shares"]


def _hand_positions(state: HandState, seat: int) -> tuple[int, ...]:
    for name, ps in state.zones():
        if name == f"hand {seat}":
            return ps
    return ()


def _frames_of(body: Any) -> list[bytes]:
    msgs = body.get("msgs") if isinstance(body, dict) else None
    if not isinstance(msgs, (list, tuple)):
        return []
    return [m for m in msgs if isinstance(m, bytes)]


def _summary(state: HandState) -> str:
    result = state.result
    summary = getattr(result, "summary", None)
    return summary() if callable(summary) else str(result)
