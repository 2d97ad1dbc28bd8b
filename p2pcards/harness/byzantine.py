"""Byzantine seats: replicas that lie or attack in one chosen way, for the protocol test harness.

Each is the real ``Table`` with one seam overridden, so it speaks the protocol as a cheater would
(signed by its own key, bound to the real game).  Every honest replica must survive it, agree with
the other honest replicas, and name the seat where the seat signed something that proves it cheated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pcards import deal
from p2pcards.deal.keys import hand_key_from_secret
from p2pcards.games import ActionError, HandState, registry
from p2pcards.games.cards import card_text
from p2pcards.games.rng import Rng
from p2pcards.table.attempt import Attempt
from p2pcards.table.genesis import Genesis
from p2pcards.table.replica import Table
from p2pcards.table.signer import Signer
from p2pcards.wire import Equivocation, SignedMessage, WireError, initial_head

BEHAVIOURS: tuple[str, ...] = (
    "equivocate",  # signs two different actions for one step and sends each to half the table
    "bad-proof",  # a corrupted proof of shuffle
    "bad-share",  # a corrupted decryption share
    "illegal",  # an action the rules forbid
    "renege",  # a card that breaks follow-suit, which only the audit can see (GameEntry.renege: Spades, Azi)
    "wrong-head",  # an action bound to a head that is not the log's
    "withhold",  # never sends its shares
    "bad-key-proof",  # a hand key revealed with a corrupted proof of knowledge
    "wrong-key",  # reveals, with a valid proof, another hand key than the one it committed to
    "foreign",  # replays a message from another game
    "malformed",  # frames that are not messages at all
    "oversized",  # a frame larger than any message may be
    "forged",  # a message of its own whose signature does not verify
    "unknown-kind",  # a signed message of a kind that does not exist
    "kind-too-large",  # a signed message over its kind's size limit (but within the frame limit)
    "nested",  # catch-up answers nested a thousand deep, padded to the size limit
    "future-flood",  # large signed messages for steps far ahead, as many as it likes
    "catchup-flood",  # the same catch-up request, again and again, to make the others send the game
    "zero-key",  # a hand key that cancels the others' (it reads them: every other seat colludes)
    "weak-key",  # a small-order identity key in the genesis: anyone could forge its messages
    "bool-vote",  # void votes naming `false`, `true`, out-of-range and unsorted seats
    "escapes",  # terminal escape sequences in what it sends (moves, names)
    "late-equivocate",  # once hands are sealed, a second message for a sealed step
    "frame-majority",  # with another seat: votes that seat 0 was silent at steps it played
    "vote-finished",  # votes for steps long past and steps nobody is awaited at
    "relay-evidence",  # forged evidence against seat 0, and its own equivocation relayed as evidence
    "rollback",  # restarts from an older copy of its journal (an accident, not a lie)
    "return",  # vanishes, is voted out, comes back some hands later and asks to play again
    "watch",  # vanishes, is voted out, comes back and watches the others to the end, asking nothing
)

RELAY_SENDS = 4
RELAY_EVERY_MS = 2_000
"""``late-equivocate`` and ``relay-evidence`` send their frame this many times, this far apart."""

EXPECTED_FAULT: dict[str, tuple[str, ...]] = {
    "equivocate": ("equivocation",),
    "bad-proof": ("bad-proof",),
    "bad-share": ("bad-proof", "bad-message"),  # a bit flipped in a proof, or in a point's encoding
    "illegal": ("illegal-action",),
    "renege": ("renege", "illegal-action"),  # caught at once where the hand's public cards already show it
    "wrong-head": ("silent",),
    "withhold": ("silent",),
    "bad-key-proof": ("bad-proof",),
    "wrong-key": ("bad-proof",),
    "zero-key": ("bad-message",),
    "escapes": ("illegal-action",),
    "late-equivocate": ("equivocation",),
    "relay-evidence": ("equivocation",),
}
"""The verdict every honest replica must reach against the seat (once it had the chance to cheat)."""

REFUSED: frozenset[str] = frozenset(
    {
        "foreign",
        "malformed",
        "oversized",
        "forged",
        "unknown-kind",
        "kind-too-large",
        "nested",
        "future-flood",
        "catchup-flood",
        "bool-vote",
        "vote-finished",
        "frame-majority",
    }
)
"""Behaviours whose frames every honest peer refuses, or ignores within its bounds; nobody is named
for them (nothing they send is a step of the log) and the game goes on."""

ACCIDENTS: frozenset[str] = frozenset({"rollback", "return", "watch"})
"""Behaviours of an honest seat that crashes or leaves: nobody may be named a cheater."""

FRAME_ATTACKS = ("foreign", "malformed", "oversized", "forged", "unknown-kind", "kind-too-large")
PREPARED_ATTACKS = ("foreign", "forged", "unknown-kind", "kind-too-large")
"""Frame attacks whose one message the harness prepares before the game (``run._attack_message``)."""
"""Behaviours that send frames that are not messages of this game at all (a network attacker)."""


def _flip(data: bytes, index: int) -> bytes:
    i = index % len(data)
    return data[:i] + bytes([data[i] ^ 0x01]) + data[i + 1 :]


def _corrupt(value: Any, rng: Rng) -> Any:
    """Flip one bit deep inside a body: in the last bytes value reachable (a proof's scalars)."""
    if isinstance(value, bytes) and value:
        return _flip(value, rng.below(len(value)))
    if isinstance(value, (list, tuple)) and value:
        items = list(value)
        for k in range(len(items) - 1, -1, -1):
            changed = _corrupt(items[k], rng)
            if changed != items[k]:
                items[k] = changed
                return items
    if isinstance(value, dict):
        copy = dict(value)
        for key in sorted(copy, reverse=True):
            changed = _corrupt(copy[key], rng)
            if changed != copy[key]:
                copy[key] = changed
                return copy
    return value


@dataclass
class Extra:
    """A frame payload the cheater sends besides what its table says: to ``to`` (None: every peer)."""

    payload: bytes
    to: int | None = None


KeyOracle = Callable[[int, bytes, int], int | None]
"""``oracle(hand, start_head, seat)``: another seat's hand key, for ``zero-key`` (collusion)."""


class ByzantineTable(Table):
    """A table whose seat cheats in one way (``behaviour``), once the hand has reached the point where
    that cheat is possible; ``rng`` makes its choices reproducible.  It is the real ``Table`` with its
    declared seam, the ``Signer``, replaced by a ``Cheat``; what it adds are frames of its own
    (``attack``) and the move it makes instead of a legal one (``cheat_choice``)."""

    def __init__(
        self,
        genesis: Genesis,
        seat: int,
        identity: Ed25519PrivateKey,
        *,
        behaviour: str,
        rng: Rng,
        oracle: KeyOracle | None = None,
        **kwargs: Any,
    ) -> None:
        if behaviour not in BEHAVIOURS:
            raise ValueError(f"unknown byzantine behaviour {behaviour!r}; known: {', '.join(BEHAVIOURS)}")
        self.behaviour = behaviour
        self.rng = rng
        self.oracle = oracle
        self.cheated = False
        self.twin: list[bytes] = []
        """For ``equivocate``: the second message, to be sent to half the table."""
        self.extra: list[Extra] = []
        self._attacks_done = 0
        self._relay_next = 0
        self.cheat = Cheat(genesis.game_id, seat, identity, self)
        super().__init__(genesis, seat, identity, signer=self.cheat, **kwargs)

    # ---- moves

    def cheat_choice(self, state: HandState) -> str | None:
        """For ``illegal``, ``renege`` and ``escapes``: the move to make instead of a legal one."""
        if self.cheated or self.seat is None:
            return None
        legal = set(state.legal_actions())
        if self.behaviour == "escapes":
            self.cheated = True
            return "play \x1b[2J\x1b]0;pwned\x07AS"
        if self.behaviour == "illegal":
            for a in range(0, 4096):
                try:
                    text = self.rules.action_text(a)
                except (ActionError, ValueError, IndexError, KeyError):
                    continue
                if a not in legal and not text.startswith("play"):
                    self.cheated = True
                    return text
            return None
        if self.behaviour == "renege":
            for name, positions in state.zones():
                if name != f"hand {self.seat}":
                    continue
                for p in positions:
                    text = f"play {card_text(state.card_at[p])}"
                    try:
                        a = self.rules.parse_action(text)
                    except ActionError:
                        continue
                    if a in legal:
                        continue
                    probe = state.clone()
                    try:
                        probe.apply(a)
                    except ActionError as exc:
                        if exc.rule in registry.entry(self.rules.name).renege:
                            self.cheated = True
                            return text
            return None
        return None

    # ---- attacks that are frames of their own, sent every tick by the network

    def attack(self, now: int) -> list[Extra]:
        """What to send besides the table's own outputs at this tick."""
        b = self.behaviour
        if self.seat is None or self.stopped is not None:
            return []
        make = getattr(self, "_attack_" + b.replace("-", "_"), None)
        if make is None:
            return []
        extras: list[Extra] = make(now)
        return extras

    def _env(self, kind: str, body: Any, *, step: int, prev: bytes) -> bytes:
        return self.cheat.envelope(kind, body, step=step, prev=prev)

    def _attack_nested(self, now: int) -> list[Extra]:
        if self._attacks_done >= 3:
            return []
        self._attacks_done += 1
        self.cheated = True
        inner = self._env("catchup_request", {"after": -1}, step=0, prev=initial_head(self.game_id))
        for _ in range(1000):
            try:
                inner = self._env(
                    "catchup_response", {"msgs": [inner]}, step=0, prev=initial_head(self.game_id)
                )
            except WireError:  # the message grew past its kind's limit: send what we have
                break
        return [Extra(inner)]

    def _attack_future_flood(self, now: int) -> list[Extra]:
        if self._attacks_done >= 400:
            return []
        self.cheated = True
        extras = []
        for _ in range(20):
            self._attacks_done += 1
            step = self.chain.step + 50 + self.rng.below(500)
            prev = bytes([self.rng.below(256)]) * 32
            body = {"shares": [bytes(60 * 1024)]}
            extras.append(Extra(self._env("share", body, step=step, prev=prev)))
        return extras

    def _attack_catchup_flood(self, now: int) -> list[Extra]:
        self.cheated = True
        request = self._env("catchup_request", {"after": -1}, step=0, prev=initial_head(self.game_id))
        return [Extra(request) for _ in range(20)]

    def _attack_bool_vote(self, now: int) -> list[Extra]:
        att = self.attempt
        if att is None or self._attacks_done >= 40:
            return []
        self._attacks_done += 1
        self.cheated = True
        bodies: list[Any] = [
            {"silent": [False]},
            {"silent": [True]},
            {"silent": [99]},
            {"silent": [2, 1]},
            {"silent": []},
            {"silent": "0"},
            {"silent": [0], "x": 1},
        ]
        body = bodies[self._attacks_done % len(bodies)]
        return [Extra(self._env("void_vote", body, step=att.step, prev=att.head))]

    def _attack_vote_finished(self, now: int) -> list[Extra]:
        att = self.attempt
        if att is None or self._attacks_done >= 20 or self.seat is None:
            return []
        self._attacks_done += 1
        self.cheated = True
        target = [s for s in range(self.n) if s != self.seat][:1]
        extras = [Extra(self._env("void_vote", {"silent": target}, step=att.step + 78, prev=att.head))]
        if self.finals:
            _, sealed = self.finals[0]
            extras.append(
                Extra(
                    self._env("void_vote", {"silent": target}, step=sealed.start_step, prev=sealed.start_head)
                )
            )
        return extras

    def _attack_frame_majority(self, now: int) -> list[Extra]:
        """Vote seat 0 silent at the steps it played: in the hand being played and in sealed hands."""
        if self.seat == 0 or self._attacks_done >= 30:
            return []
        extras = []
        att = self.attempt
        candidates: list[tuple[int, bytes]] = []
        if att is not None:
            candidates += [
                (s.number, s.prev) for s in att.chain.steps if any(m.seat == 0 for m in s.messages)
            ]
        for _, sealed in self.finals:
            candidates += [
                (s.number, s.prev) for s in sealed.chain.steps if any(m.seat == 0 for m in s.messages)
            ]
        for step, prev in candidates[-3:]:
            self._attacks_done += 1
            self.cheated = True
            extras.append(Extra(self._env("void_vote", {"silent": [0]}, step=step, prev=prev)))
        return extras

    def _attack_late_equivocate(self, now: int) -> list[Extra]:
        """Once a hand is sealed, a second message for one of its steps we signed."""
        if not self.finals or not self._sent_again(now):
            return []
        _, sealed = self.finals[0]
        mine = [
            m for s in sealed.chain.steps for m in s.messages if m.seat == self.seat and m.kind == "action"
        ]
        if not mine:
            return []
        self.cheated = True
        first = mine[0]
        text = first.body.get("a") if isinstance(first.body, dict) else None
        other: dict[str, Any] = {"a": "take" if text != "take" else "pass", "pos": [], "shares": []}
        return [Extra(self._env(first.kind, other, step=first.step, prev=first.prev))]

    @property
    def sending_again(self) -> bool:
        """Whether a frame it sends again is still to go out (the game may wait for it to)."""
        again = self.behaviour in ("late-equivocate", "relay-evidence")
        return again and 0 < self._attacks_done < RELAY_SENDS

    def _sent_again(self, now: int) -> bool:
        """Whether a frame sent once per attack is due (again): the same bytes, ``RELAY_SENDS`` times,
        past what a faulty network may lose (a dropped frame, a partition of up to four seconds)."""
        if self._attacks_done >= RELAY_SENDS or now < self._relay_next:
            return False
        self._attacks_done += 1
        self._relay_next = now + RELAY_EVERY_MS
        return True

    def _attack_relay_evidence(self, now: int) -> list[Extra]:
        if not self.finals or not self._sent_again(now):
            return []
        extras = []
        # Forged: two honest messages of seat 0 from different steps are no equivocation.
        _, sealed = self.finals[0]
        zeros = [m for s in sealed.chain.steps for m in s.messages if m.seat == 0]
        if len(zeros) >= 2:
            pair = Equivocation.of(zeros[0], zeros[1])
            extras.append(
                Extra(self._env("evidence", pair.to_body(), step=0, prev=initial_head(self.game_id)))
            )
        # Genuine: its own second message for a sealed step, wrapped as evidence and sent at step 0.
        mine = [m for s in sealed.chain.steps for m in s.messages if m.seat == self.seat]
        if mine:
            first = mine[-1]
            twin = self._env(first.kind, {"twin": 1}, step=first.step, prev=first.prev)
            pair = Equivocation.of(first, SignedMessage.from_bytes(twin))
            self.cheated = True
            # To one peer only, so that the others learn it from that peer's relay: the first seat
            # still playing (a seat voted out may be gone for good).
            to = min((s for s in range(self.n) if s != self.seat and s not in self.seats_out), default=None)
            extras.append(
                Extra(self._env("evidence", pair.to_body(), step=0, prev=initial_head(self.game_id)), to=to)
            )
        return extras


class Cheat(Signer):
    """The seam a byzantine seat changes: what it signs, whether it sends its shares, the checks its
    own replica makes of its own moves.  It reads the table it cheats for (``table``) only through
    the table's public reads."""

    def __init__(self, game_id: bytes, seat: int, identity: Ed25519PrivateKey, table: ByzantineTable) -> None:
        super().__init__(game_id, seat, identity)
        self.table = table

    def sign(self, kind: str, body: Any, *, step: int, prev: bytes) -> bytes:
        t = self.table
        b = t.behaviour
        if not t.cheated and kind not in ("catchup_request", "catchup_response", "evidence"):
            if (
                (b == "bad-proof" and kind == "shuffle")
                or (b == "bad-share" and kind == "share" and isinstance(body, dict) and body.get("shares"))
                or (b == "bad-key-proof" and kind == "key_reveal")
            ):
                t.cheated = True
                body = _corrupt(body, t.rng)
            elif b == "wrong-key" and kind == "key_reveal" and t.attempt is not None:
                t.cheated = True
                ctx = deal.Context(game_id=self.game_id, hand=t.attempt.hand, seat=self.seat, step=step)
                wrong = hand_key_from_secret(1 + t.rng.below(1 << 30))
                body = deal.announce_key(ctx, wrong).to_wire()
            elif b == "wrong-head" and kind == "action":
                t.cheated = True
                prev = bytes(32)
            elif b == "equivocate" and kind == "action" and isinstance(body, dict):
                other = self._other_action(body)
                if other is not None:
                    t.cheated = True
                    t.twin.append(self.envelope(kind, other, step=step, prev=prev))
        return self.envelope(kind, body, step=step, prev=prev)

    def contributes(self, kind: str) -> bool:
        if self.table.behaviour == "withhold" and kind == "share":
            self.table.cheated = True
            return False
        return True

    def action_body(self, att: Attempt, text: str) -> dict[str, Any]:
        if self.table.behaviour == "escapes" and "\x1b" in text:
            return {"a": text, "pos": [], "shares": []}  # its own replica does not look at it
        return super().action_body(att, text)

    def dealt(self, att: Attempt) -> None:
        behaviour = self.table.behaviour
        if behaviour in ("illegal", "renege", "escapes"):
            att.check_own = lambda state, action: None  # type: ignore[method-assign]
        if behaviour == "renege":
            self._blind_to_own_renege(att)
        if behaviour == "zero-key" and self.table.oracle is not None and self.seat in att.holders:
            self._cancel_the_others(att)

    def _blind_to_own_renege(self, att: Attempt) -> None:
        """A reneging seat's own replica must not catch its own renege (it would stop playing): it
        applies its move as the others do, on a state that does not see its hand, then looks again."""
        original = att.apply_pending
        table = self.table
        reneged = False

        def apply() -> str:
            nonlocal reneged
            pending = att.pending
            if not table.cheated or pending is None or pending[2] != table.seat or reneged:
                return original()
            reneged = True
            state = att.state
            seat = pending[2]
            mine = {p: state.card_at[p] for name, ps in state.zones() if name == f"hand {seat}" for p in ps}
            other = next(s for s in att.holders if s != seat)
            att.state = state.view(other).masked.clone()
            text = original()
            still = {p for name, ps in att.state.zones() if name == f"hand {seat}" for p in ps}
            for p, c in sorted(mine.items()):
                if p in still:
                    att.state.observe(p, c)
            return text

        att.apply_pending = apply  # type: ignore[method-assign]

    def _cancel_the_others(self, att: Attempt) -> None:
        """Reveal a hand key that makes the joint key the identity: possible only with every other
        seat's key in hand (here from the oracle: the whole table colludes)."""
        from p2pcards.deal.group import Q
        from p2pcards.deal.keys import hand_key_from_secret

        oracle = self.table.oracle
        assert oracle is not None
        others = [oracle(att.hand, att.start_head, s) for s in att.holders if s != self.seat]
        if any(k is None for k in others):
            return
        x = (-sum(k for k in others if k is not None)) % Q
        if not x:
            return
        dealer = att.dealer
        if hasattr(dealer, "key"):
            dealer.key = hand_key_from_secret(x)
            self.table.cheated = True

    def _other_action(self, body: dict[str, Any]) -> dict[str, Any] | None:
        """Another legal action of the same seat at the same step (without cards to show)."""
        state = self.table.state
        if state is None:
            return None
        rules = self.table.rules
        for a in state.legal_actions():
            text = rules.action_text(a)
            if text != body["a"] and not state.reveals(a):
                return {"a": text, "pos": [], "shares": []}
        return None


def frame_attack(behaviour: str, foreign: bytes) -> bytes:
    """The payload a frame-level attacker sends."""
    if behaviour in PREPARED_ATTACKS:
        return foreign
    if behaviour == "malformed":
        return b"\x93\x01\x02"  # a msgpack array that is no signed message
    raise ValueError(behaviour)
