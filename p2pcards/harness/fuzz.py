"""A structure-aware fuzzer of ``Table.receive``: real frames, mutated as an attacker would, re-signed.

It plays a real game between tables in one process and, at every step, also feeds one replica
mutations of the frames flying by, each signed again with the key of the seat that sent it (so the
mutation passes the signature check and reaches the session's own checks):

* the body's values replaced by values of other types (a boolean for a seat, a huge or negative
  number, text for bytes, a map for an array, arrays nested to the codec's limit), keys added,
  dropped and renamed;
* the envelope moved: another step, another head, another kind (a step kind as a certificate and
  the reverse);
* nesting of every kind: catch-up answers inside catch-up answers, evidence pairing mutations,
  votes and abandons about the step being played and about sealed steps;
* replays: frames delivered again, late, out of order.

The property: no replica raises, every replica of the game still agrees at the end, and the seat
that received the garbage never names an honest seat a cheater.  A failure reports its seed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from p2pcards.games import ActionError, registry
from p2pcards.games.rng import Rng
from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis, make_genesis
from p2pcards.table.replica import Table
from p2pcards.wire import (
    KINDS,
    Envelope,
    Equivocation,
    SignedMessage,
    WireError,
    initial_head,
    key_from_seed,
    public_bytes,
    sign,
)

CHEAT_KINDS = frozenset({"equivocation", "bad-message", "bad-proof", "illegal-action", "renege"})


@dataclass
class FuzzReport:
    game: str
    seed: int
    frames: int = 0
    mutations: int = 0
    refused: int = 0
    crashes: list[str] = field(default_factory=list)
    finished: bool = False
    agree: bool = False
    framed: list[str] = field(default_factory=list)
    """Verdicts naming seat 0, whose messages are never mutated (the mutations are signed by the other
    seats, so a mutation that is a valid equivocation or a bad message rightly names its signer)."""

    @property
    def passed(self) -> bool:
        return not self.crashes and self.finished and self.agree and not self.framed


def _identities(n: int, seed: int) -> list[Any]:
    return [key_from_seed(Rng(f"fuzz/{seed}/id/{i}").next64().to_bytes(8, "big") * 4) for i in range(n)]


class _Mutator:
    def __init__(self, genesis: Genesis, keys: list[Any], rng: Rng) -> None:
        self.genesis = genesis
        self.keys = keys
        self.rng = rng
        self.seen: list[SignedMessage] = []

    def _sign(self, seat: int, kind: str, body: Any, step: int, prev: bytes) -> bytes | None:
        try:
            env = Envelope(
                game_id=self.genesis.game_id, step=step, seat=seat, prev=prev, kind=kind, body=body
            )
            return sign(env, self.keys[seat]).data
        except (WireError, ValueError, TypeError):
            return None

    def _value(self, depth: int = 0) -> Any:
        r = self.rng.below(12)
        if r == 0:
            return bool(self.rng.below(2))
        if r == 1:
            return -1 - self.rng.below(1000)
        if r == 2:
            return (1 << 63) - 1
        if r == 3:
            return self.rng.below(7)
        if r == 4:
            return "x" * self.rng.below(70)
        if r == 5:
            return bytes(self.rng.below(64))
        if r == 6:
            return None
        if r == 7 and depth < 3:
            return [self._value(depth + 1) for _ in range(self.rng.below(4))]
        if r == 8 and depth < 3:
            return {f"k{i}": self._value(depth + 1) for i in range(self.rng.below(3))}
        if r == 9:
            deep: Any = 0
            for _ in range(30):
                deep = [deep]
            return deep
        if r == 10:
            return "\x1b[2J\u202eevil"
        return []

    def _body(self, body: Any) -> Any:
        if isinstance(body, dict) and body:
            copy = dict(body)
            keys = sorted(copy)
            r = self.rng.below(4)
            key = keys[self.rng.below(len(keys))]
            if r == 0:
                copy[key] = self._value()
            elif r == 1:
                del copy[key]
            elif r == 2:
                copy["zz" + key] = copy.pop(key)
            else:
                copy[key] = self._body(copy[key])
            return copy
        if isinstance(body, (list, tuple)) and body:
            items = list(body)
            i = self.rng.below(len(items))
            items[i] = self._body(items[i]) if self.rng.below(2) else self._value()
            return items
        return self._value()

    def mutations(self, msg: SignedMessage, *, conflicting: bool) -> list[bytes]:
        """Several re-signed mutations of ``msg`` and, now and then, of what came before it.
        ``conflicting``: also messages for the same step after the same head (they name the signer a
        cheater, which ends its part in the game: allowed once the game has got somewhere)."""
        self.seen.append(msg)
        g = self.genesis
        s, step, prev, kind, body = msg.seat, msg.step, msg.prev, msg.kind, msg.body
        made: list[bytes | None] = [
            self._sign(s, kind, body, step + 1 + self.rng.below(3), prev),
            self._sign(s, kind, self._body(body), step + 1 + self.rng.below(3), prev),
            self._sign(s, kind, self._body(body), step, bytes([self.rng.below(256)]) * 32),
            self._sign(s, "void_vote", {"silent": [self.rng.below(g.rules().players)]}, step, prev),
            self._sign(s, "void_vote", self._body({"silent": [0]}), step, prev),
            self._sign(s, "abandon", {"silent": [self._value()]}, step, prev),
            self._sign(s, "return", self._body({}), step, prev),
        ]
        if conflicting:
            made += [
                self._sign(s, kind, self._body(body), step, prev),
                self._sign(s, sorted(KINDS)[self.rng.below(len(KINDS))], body, step, prev),
                self._sign(
                    s,
                    "seal",
                    self._body({"hand": 0, "result": bytes(32), "over": False, "admit": []}),
                    step,
                    prev,
                ),
            ]
        inner = msg.data
        for _ in range(1 + self.rng.below(4)):
            wrapped = self._sign(s, "catchup_response", {"msgs": [inner, inner]}, 0, initial_head(g.game_id))
            if wrapped is None:
                break
            inner = wrapped
        made.append(inner)
        twin = self._sign(s, kind, self._body(body), step, prev) if conflicting else None
        if twin is not None:
            try:
                pair = Equivocation.of(msg, SignedMessage.from_bytes(twin))
                relayer = self.rng.below(len(self.keys))
                made.append(self._sign(relayer, "evidence", pair.to_body(), 0, initial_head(g.game_id)))
                made.append(
                    self._sign(relayer, "evidence", self._body(pair.to_body()), 0, initial_head(g.game_id))
                )
            except (ValueError, WireError):
                pass
        if len(self.seen) > 3:
            old = self.seen[self.rng.below(len(self.seen) - 1)]
            made.append(old.data)  # a replay, late and out of order
        made.append(self._sign(s, "catchup_request", {"after": self._value()}, 0, initial_head(g.game_id)))
        return [m for m in made if m is not None]


def fuzz(
    game: str, *, peers: int = 3, seed: int = 1, dealer: str = "seeded", budget: int = 2_000, rate: int = 8
) -> FuzzReport:
    """Play one match; feed the replica of seat 0 up to ``budget`` mutated frames along the way, one for
    every ``rate`` frames on average, each a mutation of a message of the last seat, re-signed with its
    key.  Mutations that name that seat a cheater (a second message for a step) come only once a hand is
    sealed, so that the game gets far first; then it goes on without the seat."""

    report = FuzzReport(game, seed)
    keys = _identities(peers, seed)
    target = peers - 1
    genesis = make_genesis(
        game,
        [(f"p{i}", public_bytes(k)) for i, k in enumerate(keys)],
        # a match of a few hands (its registration's), so that sealed hands, the next hands and the
        # end are all fuzzed
        options=dict(registry.entry(game).longer),
        dealer=dealer,
        seed=seed if dealer == "seeded" else 0,
        nonce=seed.to_bytes(8, "big"),
        timeout_ms=3_600_000,
    )
    rng = Rng(f"fuzz/{game}/{seed}")
    tables = [Table(genesis, i, keys[i], source=_source(rng.fork(f"secrets {i}"))) for i in range(peers)]
    mutator = _Mutator(genesis, keys, rng.fork("mutate"))
    choose = rng.fork("choose")
    queue: deque[tuple[int, int, bytes]] = deque()
    rules = genesis.rules()

    def call(i: int, fn: Callable[[], list[out.Output]]) -> None:
        try:
            outputs = fn()
        except Exception as exc:
            report.crashes.append(f"seat {i}: {type(exc).__name__}: {exc}")
            return
        for o in outputs:
            if isinstance(o, out.Send):
                for j in range(peers):
                    if j != i and (o.to is None or o.to == j):
                        queue.append((j, i, o.payload))
            elif isinstance(o, out.YourTurn):
                text = rules.action_text(choose.choice(list(o.view.legal_actions)))
                queue.append((i, -1, text.encode()))
            elif isinstance(o, out.Rejected):
                report.refused += i == 0

    for i, t in enumerate(tables):
        call(i, t.start)
    while queue and report.frames < 200_000:
        to, frm, payload = queue.popleft()
        report.frames += 1
        t = tables[to]
        if frm == -1:
            call(to, partial(_act, t, payload.decode()))
            continue
        call(to, partial(t.receive, frm, payload))
        if to == 0 or report.mutations >= budget:
            continue
        try:
            msg = SignedMessage.from_bytes(payload)
        except WireError:
            continue
        if msg.seat != target:
            continue  # only the last seat's messages are mutated; seat 0's innocence is checked
        if mutator.rng.below(rate):
            continue
        choices = mutator.mutations(msg, conflicting=bool(tables[0].hands_played))
        mutated = choices[mutator.rng.below(len(choices))]
        report.mutations += 1
        call(0, partial(tables[0].receive, frm, mutated))
    report.finished = all(t.over for t in tables)
    report.agree = len({t.digest() for t in tables}) == 1
    # Seat 0's own messages are never mutated: it is the one seat nobody may name.
    for t in tables:
        for f in t.verdicts:
            if f.kind in CHEAT_KINDS and f.seat == 0:
                report.framed.append(f"seat {f.seat} {f.kind}: {f.message}")
    return report


def _act(t: Table, text: str) -> list[out.Output]:
    """A move chosen from a ``YourTurn``; refused if the hand was dealt again meanwhile (a verdict),
    in which case a new ``YourTurn`` asks again."""
    try:
        return t.local_action(text)
    except ActionError:
        return []


def _source(rng: Rng) -> Callable[[int], bytes]:
    def draw(n: int) -> bytes:
        return b"".join(rng.next64().to_bytes(8, "big") for _ in range((n + 7) // 8))[:n]

    return draw
