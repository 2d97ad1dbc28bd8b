"""Byzantine seats: replicas that lie in one chosen way, for the protocol test harness.

Each is the real ``Table`` with one seam overridden, so it speaks the protocol as a cheater would
(signed by its own key, bound to the real game), and every honest replica must name it.
"""

from __future__ import annotations

from typing import Any

from p2pcards.games import Action, ActionError, HandState
from p2pcards.games.cards import card_text
from p2pcards.games.rng import Rng
from p2pcards.table.replica import Table, _Hand
from p2pcards.wire import Envelope, sign

BEHAVIOURS: tuple[str, ...] = (
    "equivocate",  # signs two different actions for one step and sends each to half the table
    "bad-proof",  # a corrupted proof of shuffle
    "bad-share",  # a corrupted decryption share
    "illegal",  # an action the rules forbid
    "renege",  # a card that breaks follow-suit, which only the audit can see (Spades, Azi)
    "wrong-head",  # an action bound to a head that is not the log's
    "withhold",  # never sends its shares
    "foreign",  # replays a message from another game
    "malformed",  # frames that are not messages at all
    "oversized",  # a frame larger than any message may be
)

EXPECTED_FAULT: dict[str, tuple[str, ...]] = {
    "equivocate": ("equivocation",),
    "bad-proof": ("bad-message",),
    "bad-share": ("bad-message",),
    "illegal": ("illegal-action",),
    "renege": ("renege", "illegal-action"),  # caught at once where the hand's public cards already show it
    "wrong-head": ("silent",),
    "withhold": ("silent",),
}
"""The verdict every honest replica must reach; the frame-level behaviours (foreign, malformed,
oversized) are refused frames instead, attributed to the link they came from, and the game goes on."""


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


class ByzantineTable(Table):
    """A table whose seat cheats in one way (``behaviour``), once the hand has reached the point where
    that cheat is possible; ``rng`` makes its choices reproducible."""

    def __init__(self, *args: Any, behaviour: str, rng: Rng, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if behaviour not in BEHAVIOURS:
            raise ValueError(f"unknown byzantine behaviour {behaviour!r}; known: {', '.join(BEHAVIOURS)}")
        self.behaviour = behaviour
        self.rng = rng
        self.cheated = False
        self.twin: list[bytes] = []
        """For ``equivocate``: the second message, to be sent to half the table."""

    def _signed(self, kind: str, body: Any, *, transport: bool = False) -> bytes:
        b = self.behaviour
        if not self.cheated and not transport:
            if (b == "bad-proof" and kind == "shuffle") or (
                b == "bad-share" and kind == "share" and isinstance(body, dict) and body.get("shares")
            ):
                self.cheated = True
                body = _corrupt(body, self.rng)
            elif b == "wrong-head" and kind == "action":
                self.cheated = True
                assert self.seat is not None and self._identity is not None
                env = Envelope(
                    game_id=self.game_id,
                    step=self.chain.step,
                    seat=self.seat,
                    prev=bytes(32),
                    kind=kind,
                    body=body,
                )
                return sign(env, self._identity).data
            elif b == "equivocate" and kind == "action" and isinstance(body, dict):
                other = self._other_action(body)
                if other is not None:
                    self.cheated = True
                    self.twin.append(super()._signed(kind, other))
        return super()._signed(kind, body, transport=transport)

    def _contribute(self, kind: str, body: Any) -> None:
        if self.behaviour == "withhold" and kind == "share":
            self.cheated = True
            return
        super()._contribute(kind, body)

    def _apply_pending_action(self, hand: _Hand) -> None:
        """A reneging seat's own replica must not catch its own renege (it would stop playing): it
        applies the move as the others do, on a state that does not see its hand, then looks again."""
        pending = self._pending_action
        if (
            self.behaviour != "renege"
            or not self.cheated
            or pending is None
            or pending[2] != self.seat
            or getattr(self, "_reneged", False)
        ):
            super()._apply_pending_action(hand)
            return
        self._reneged = True
        state = hand.state
        mine = {p: state.card_at[p] for name, ps in state.zones() if name == f"hand {self.seat}" for p in ps}
        hand.state = state.view((pending[2] + 1) % self.n)._masked.clone()
        super()._apply_pending_action(hand)
        still = {p for name, ps in hand.state.zones() if name == f"hand {self.seat}" for p in ps}
        for p, c in sorted(mine.items()):
            if p in still:
                hand.state.observe(p, c)

    def _check_own(self, state: HandState, action: Action) -> None:
        if self.behaviour in ("illegal", "renege"):
            return
        super()._check_own(state, action)

    def _other_action(self, body: dict[str, Any]) -> dict[str, Any] | None:
        """Another legal action of the same seat at the same step (without cards to show)."""
        state = self.state
        if state is None:
            return None
        for a in state.legal_actions():
            text = self.rules.action_text(a)
            if text != body["a"] and not state.reveals(a):
                return {"a": text, "pos": [], "shares": []}
        return None

    def cheat_choice(self, state: HandState) -> str | None:
        """For ``illegal`` and ``renege``: the move to make instead of a legal one, if there is one now."""
        if self.cheated or self.seat is None:
            return None
        legal = set(state.legal_actions())
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
                        if exc.rule in ("S6", "A10"):
                            self.cheated = True
                            return text
            return None
        return None


def frame_attack(behaviour: str, foreign: bytes) -> bytes:
    """The payload a frame-level attacker sends."""
    if behaviour == "foreign":
        return foreign
    if behaviour == "malformed":
        return b"\x93\x01\x02"  # a msgpack array that is no signed message
    raise ValueError(behaviour)
