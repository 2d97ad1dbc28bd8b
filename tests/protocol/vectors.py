"""Builds the session vectors of protocol/vectors/session/.

Regenerate with ``python -m tests.protocol.vectors`` from the repository root; ``test_vectors.py``
checks that the stored files equal what the code computes now, and recomputes what the documents
define (seeded decks, start heads, seal results, game ids) with ``spec.py``.

Most files are *cases*: a context (a prefix of a journal of the kit, fed to a replica) and messages
offered to it, with the outcome a receiver must reach: refused with a reason and a detail, kept
(journaled) and relayed or not, what it sends to whom, and the verdicts it reaches.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pcards import games
from p2pcards.games.base import canonical
from p2pcards.games.rng import Rng
from p2pcards.table import outputs as out
from p2pcards.table.dealers import seeded_deck
from p2pcards.table.genesis import Genesis, GenesisError, make_genesis
from p2pcards.table.replica import Table
from p2pcards.table.seating import CHEAT, RETURN, SILENT, Change, start_head
from p2pcards.wire import (
    Envelope,
    SignedMessage,
    encode,
    initial_head,
    key_from_seed,
    public_bytes,
    seal_head,
    sign,
)
from tests.protocol import kit

VECTOR_DIR = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "session"
KEYS = [key_from_seed(bytes([0xA0 + i]) * 32) for i in range(7)]
"""Keys of the genesis vectors: seat i's RFC 8032 seed is the byte 0xA0 + i repeated 32 times."""
WEAK_KEY = bytes([1]) + bytes(31)
"""A small-order Ed25519 point."""
P = 2**255 - 19


def _y(y: int, *, sign: bool = False) -> bytes:
    """The 32-byte encoding of an Ed25519 point with this ``y`` (RFC 8032 5.1.2), sign bit of x set or not."""
    return (y | (1 << 255 if sign else 0)).to_bytes(32, "little")


# ============================================================================ genesis


def _genesis(game: str, n: int, **kw: Any) -> Genesis:
    names = ("Ada", "Bo", "Cy", "Di", "Eve", "Fay")
    seats = [(name, public_bytes(k)) for name, k in zip(names, KEYS, strict=False)]
    return make_genesis(game, seats[:n], nonce=b"vectors", **kw)


def _refusal(raw: bytes) -> str:
    try:
        Genesis.decode(raw)
    except GenesisError as exc:
        return str(exc)
    raise AssertionError("accepted")


def genesis_vectors() -> dict[str, Any]:
    valid = [
        ("durak, 3 seats, defaults", _genesis("durak", 3)),
        ("spades, seeded dealer, seed 7", _genesis("spades", 4, dealer="seeded", seed=7)),
        ("azi, 6 seats, options set, a computer seat", _genesis(
            "azi", 6, options={"ante": 5, "blind": False, "deal": 4, "hands": 20}, computers=((5, 0),),
            timeout_ms=120_000)),
        ("a name of 40 characters of two bytes each", make_genesis(
            "durak", [("é" * 40, public_bytes(KEYS[0])), ("Bo", public_bytes(KEYS[1]))])),
    ]  # fmt: skip
    base = _genesis("durak", 2).to_value()
    three = _genesis("durak", 3).to_value()
    spades = _genesis("spades", 4).to_value()
    azi = _genesis("azi", 3).to_value()

    def with_(**change: Any) -> bytes:
        return encode(base | change)

    durak2 = base["options"]
    keys = [public_bytes(k) for k in KEYS]
    refused: list[tuple[str, bytes]] = [
        ("not msgpack", b"\xc1"),
        ("not canonical msgpack (1 as uint8)", b"\x81\xa4game\xcc\x01"),
        ("an array, not a map", encode([1, 2])),
        ("a field missing", encode({k: v for k, v in base.items() if k != "nonce"})),
        ("a field too many", with_(extra=1)),
        ("seats that are not [name, key] pairs", with_(seats=[["a", 1], ["b", 2]])),
        ("options that are not pairs", with_(options=[["players"]])),
        ("computers that are not pairs", with_(computers=[1])),
        ("the game is not text", with_(game=1)),
        ("the dealer is not text", with_(dealer=b"mental")),
        ("the nonce is not bytes", with_(nonce="x")),
        ("an unknown game", with_(game="poker")),
        ("one seat", with_(seats=[["a", keys[0]]])),
        ("seven seats", with_(seats=[[f"s{i}", keys[i]] for i in range(7)])),
        ("a key of 31 bytes", with_(seats=[["a", keys[0][:31]], ["b", keys[1]]])),
        ("a key of small order", with_(seats=[["a", WEAK_KEY], ["b", keys[1]]])),
        ("a key that is no point", with_(seats=[["a", b"\xff" * 32], ["b", keys[1]]])),
        ("a key encoding y = p + 1 (y >= p is checked first)",
         with_(seats=[["a", (P + 1).to_bytes(32, "little")], ["b", keys[1]]])),
        ("a key with y = 2: no point of the curve has it", with_(seats=[["a", _y(2)], ["b", keys[1]]])),
        ("a key with x = 0 and the sign bit set", with_(seats=[["a", _y(1, sign=True)], ["b", keys[1]]])),
        ("an empty name", with_(seats=[["", keys[0]], ["b", keys[1]]])),
        ("a name of 41 characters", with_(seats=[["x" * 41, keys[0]], ["b", keys[1]]])),
        ("41 characters of two bytes each: names count characters (code points), not bytes",
         with_(seats=[["é" * 41, keys[0]], ["b", keys[1]]])),
        ("a name with an escape character", with_(seats=[["\x1b[2Jeve", keys[0]], ["b", keys[1]]])),
        ("a name with a bidi override", with_(seats=[["a\u202eb", keys[0]], ["b", keys[1]]])),
        ("a blank name", with_(seats=[["\u3000 ", keys[0]], ["b", keys[1]]])),
        ("two seats with one key", with_(seats=[["a", keys[0]], ["b", keys[0]]])),
        ("options out of order", with_(options=list(reversed(durak2)))),
        ("an option twice", with_(options=[durak2[0], *durak2])),
        ("an option missing", with_(options=durak2[1:])),
        ("an unknown option", with_(options=[*durak2, ["zzz", 1]])),
        ("a disabled variant listed", with_(options=sorted([*durak2, ["jokers", False]]))),
        ("a disabled variant listed and turned on: the engine refuses it first (rule 13)",
         with_(options=sorted([*durak2, ["jokers", True]]))),
        ("an unknown option before a disabled variant: names in order", with_(options=sorted(
            [*durak2, ["jokers", True], ["aaa", 1]]))),
        ("spades: target written as text, which the engine reads (rule 15 refuses it)",
         encode(spades | {"options": _set(spades["options"], "target", "500")})),
        ("spades: players 5 and target unreadable: players is read and checked before target",
         encode(spades | {"options": _set(_set(spades["options"], "players", 5), "target", "x")})),
        ("spades: target and floor unreadable: target is read first",
         encode(spades | {"options": _set(_set(spades["options"], "floor", "y"), "target", "x")})),
        ("spades: a disabled variant written 0",
         encode(spades | {"options": _set(spades["options"], "jokers", 0)})),
        ("azi: a boolean written 1, which the engine reads (rule 15 refuses it)",
         encode(azi | {"options": _set(azi["options"], "blind", 1)})),
        ("azi: two unknown options, both named", encode(azi | {"options": sorted(
            [*azi["options"], ["zz", 1], ["aa", 2]])})),
        ("azi: a digit that is no decimal digit (the detail is informative)",
         encode(azi | {"options": _set(azi["options"], "hands", "\u00b2")})),
        ("an option out of range", with_(options=_set(durak2, "series_hands", 1001))),
        ("a boolean written as 0", with_(options=[[k, 0 if v is False else v] for k, v in durak2])),
        ("3 players in the options, 2 seats", with_(options=_set(durak2, "players", 3))),
        ("an unknown dealer", with_(dealer="trusted")),
        ("a negative seed", with_(seed=-1, dealer="seeded")),
        ("a seed with the mental dealer", with_(seed=7)),
        ("a nonce of 33 bytes", with_(nonce=b"x" * 33)),
        ("a timeout under a second", with_(timeout_ms=999)),
        ("a timeout over an hour", with_(timeout_ms=3_600_001)),
        ("a timeout that is a boolean", with_(timeout_ms=True)),
        ("a computer seat that is a boolean", with_(computers=[[1, True]])),
        ("a computer seat that does not exist", with_(computers=[[5, 0]])),
        ("a computer seat listed twice", with_(computers=[[1, 0], [1, 0]])),
        ("a computer run by a computer", with_(computers=[[0, 1], [1, 0]])),
        ("a computer run by itself", with_(computers=[[1, 1]])),
        ("computers not by ascending seat", encode(three | {"computers": [[2, 0], [1, 0]]})),
        ("the players option written as text", with_(options=_set(durak2, "players", "2"))),
    ]  # fmt: skip
    return {
        "description": "Genesis bytes, their game id and the head before step 0; and bytes a receiver "
        "must refuse, each with the message of the first rule it breaks (SPEC §2); exact: the whole "
        "message is normative, else only its words before the first colon.",
        "keys": "seat i's identity key has the RFC 8032 seed 0xA0 + i repeated 32 times",
        "valid": [
            {"why": why, "genesis": g.encode().hex(), "value": _plain_genesis(g), "game_id": g.game_id.hex(),
             "initial_head": initial_head(g.game_id).hex()}
            for why, g in valid
        ],
        "refused": [
            {"why": why, "genesis": raw.hex(), "error": _refusal(raw),
             "exact": not why.startswith("not ") and "informative" not in why}
            for why, raw in refused
        ],
    }


def _set(options: Any, name: str, value: Any) -> list[list[Any]]:
    return [[k, value if k == name else v] for k, v in options]


def _plain_genesis(g: Genesis) -> dict[str, Any]:
    return {
        "computers": [list(c) for c in g.computers], "dealer": g.dealer, "game": g.game,
        "nonce": g.nonce.hex(), "options": [[k, v] for k, v in g.options],
        "seats": [[s.name, s.key.hex()] for s in g.seats], "seed": g.seed, "timeout_ms": g.timeout_ms,
    }  # fmt: skip


# ============================================================================ the seeded dealer


def seeded_vectors() -> dict[str, Any]:
    streams = []
    for seed in (0, 1, 2**64 - 1, "p2pcards/seeded-deck/7/0"):
        rng = Rng(seed)
        state = rng._state
        streams.append({"seed": seed if isinstance(seed, str) else str(seed), "state": str(state),
                        "next64": [str(rng.next64()) for _ in range(4)]})  # fmt: skip
    draws = []
    for seed, bound in ((0, 6), (0, 52), (7, 1), (3, 2**63 + 1)):
        rng = Rng(seed)
        raw = []
        values = []
        for _ in range(6):
            before = rng._state
            values.append(rng.below(bound))
            raw.append(_draws_used(before, rng._state))
        draws.append({"seed": str(seed), "bound": str(bound), "values": values, "next64_used": raw})
    decks = []
    for game in games.GAMES:
        rules = games.load(game, players=4)
        for seed, hand in ((7, 0), (7, 1), (2**64 - 1, 12)):
            label = f"p2pcards/seeded-deck/{seed}/{hand}"
            decks.append({"game": game, "seed": str(seed), "hand": hand, "label": label,
                          "deck": list(seeded_deck(rules.deck, seed, hand))})  # fmt: skip
    coins = []
    for seed, n in ((7, 4), (0, 2)):
        rho = [hashlib.sha256(f"p2pcards/seeded-coin/{seed}/{i}".encode()).digest() for i in range(n)]
        coins.append({"seed": str(seed), "seats": n, "rho": [r.hex() for r in rho]})
    return {
        "description": "The seeded dealer (SPEC §8): SplitMix64 streams, bounded draws (Lemire, with the "
        "number of next64 outputs each draw used), decks shuffled by Fisher-Yates from the last position "
        "down, and the coin secrets of a seeded table.",
        "streams": streams,
        "below": draws,
        "decks": decks,
        "coins": coins,
    }


def _draws_used(before: int, after: int) -> int:
    step = 0x9E3779B97F4A7C15
    return ((after - before) % 2**64) * pow(step, -1, 2**64) % 2**64


# ============================================================================ the table digest

DIGEST_GAMES = ("durak-mental", "durak-silent", "spades-equivocation", "durak-return")


def digest_parts(table: Table) -> dict[str, Any]:
    """The parts of the table digest by the rules of SPEC §7.6, from what the observer holds: its
    finals, the setup (complete once step 2 is applied, with S_0 its head), the attempt being played."""
    finals = [att.seal_prev for _, att in table.finals]
    setup = table.setup
    boundary = None if setup.first_dealer is None else seal_head(finals[-1]) if finals else setup.chain.head
    att = table.attempt
    current: dict[str, Any] = (
        {"setup_head": setup.chain.head.hex()} if att is None
        else {"attempt": {"start_head": att.start_head.hex(), "head": att.head.hex(),
                          "hand_digest": att.state.digest().hex()}}
    )  # fmt: skip
    return {
        "finals": [f.hex() for f in finals],
        "boundary": None if boundary is None else boundary.hex(),
        "current": current,
        "out": [[seat, why] for seat, why in table.seats_out.items()],
        "over": table.over,
        "abandoned": table.abandoned,
        "stopped": None if table.stopped is None else [table.stopped.seat, table.stopped.kind],
    }


def table_digest_vectors() -> dict[str, Any]:
    games_ = []
    for name in DIGEST_GAMES:
        _, genesis, payloads = kit.load(name)
        table = Table(genesis, None, None)
        table.start()
        points: list[dict[str, Any]] = []
        last: Any = None
        for n in range(len(payloads) + 1):
            if n:
                table.receive(None, payloads[n - 1])
            parts = digest_parts(table)
            shape = ({k: v for k, v in parts.items() if k != "current"}, list(parts["current"]))
            if shape != last or n == len(payloads):
                points.append({"records": n, **parts, "digest": table.digest().hex()})
                last = shape
        games_.append({"kit": name, "points": points})
    return {
        "description": "The table digest (SPEC §7.6) of an observer fed the first `records` payloads of a "
        "kit journal, with its parts: at the first record count where any part other than `current` "
        "changes (and where `current` passes between the setup head and an attempt digest), and at the "
        "end. `current` is the setup head (the head after the last setup step applied) or an attempt "
        "digest, given by its three parts.",
        "games": games_,
    }


# ============================================================================ attempts


def start_head_vectors() -> dict[str, Any]:
    boundary = hashlib.sha256(b"p2pcards/vectors/boundary").digest()
    prev = hashlib.sha256(b"p2pcards/vectors/prev").digest()
    cases = [
        ("no change: the boundary head itself", []),
        ("a cheater", [Change(CHEAT, (2,))]),
        ("a seat voted silent at step 41", [Change(SILENT, (1,), 41, prev)]),
        ("two seats voted silent at once", [Change(SILENT, (1, 3), 41, prev)]),
        ("a return", [Change(RETURN, (0,))]),
        ("every kind at once, given in another order",
         [Change(SILENT, (3,), 41, prev), Change(RETURN, (0,)), Change(CHEAT, (2,)), Change(CHEAT, (1,))]),
    ]  # fmt: skip
    return {
        "description": "The start head of an attempt from its boundary head and its changes (SPEC §4.2): "
        "changes are sorted, written as arrays, and the array of them is encoded canonically.",
        "boundary": boundary.hex(),
        "cases": [
            {"why": why, "changes": [_ident(c) for c in changes],
             "encoded": encode([c.ident() for c in sorted(changes)]).hex() if changes else None,
             "start_head": start_head(boundary, changes).hex()}
            for why, changes in cases
        ],
    }


def _ident(c: Change) -> list[Any]:
    ident = c.ident()
    return [ident[0], ident[1], ident[2], ident[3].hex()] if len(ident) == 4 else ident


# ============================================================================ cases against a replica


class Context:
    """A replica fed a prefix of a kit journal: ``records`` payloads of game ``name``, as seen by
    ``seat`` (None: an observer)."""

    def __init__(self, name: str, records: int, seat: int | None = None) -> None:
        self.name, self.records, self.seat = name, records, seat
        self.doc, self.genesis, payloads = kit.load(name)
        self.payloads = payloads[:records]
        self.keys = kit.identities_of(kit.scenario(name))

    def describe(self) -> dict[str, Any]:
        return {"kit": self.name, "records": self.records, "seat": self.seat}

    def table(self) -> Table:
        if self.seat is None:
            # An observer reads a kit journal as its writer's, seat 0's (SPEC §6.5).
            table = Table(self.genesis, None, None, perspective=0)
            table.start()
            for payload in self.payloads:
                table.receive(None, payload)
        else:
            table = Table(self.genesis, self.seat, self.keys[self.seat], secrets={"master": bytes(32)})
            table.restore(self.payloads)
        return table

    def head(self) -> tuple[int, bytes]:
        """The open step and its head, after the prefix."""
        table = self.table()
        att = table.attempt
        assert att is not None
        return att.step, att.head

    def sign(
        self, seat: int, kind: str, body: Any, step: int, prev: bytes, *,
        key: Ed25519PrivateKey | None = None, game_id: bytes | None = None,
    ) -> bytes:  # fmt: skip
        env = Envelope(game_id=game_id or self.genesis.game_id, step=step, seat=seat, prev=prev, kind=kind,
                       body=body)  # fmt: skip
        return sign(env, key or self.keys[seat]).data

    def message(self, index: int) -> bytes:
        """Payload ``index`` of the whole kit journal (also past the prefix)."""
        return kit.load(self.name)[2][index]


def outcome(table: Table, peer: int, payload: bytes) -> dict[str, Any]:
    """What a replica does with one payload: refused (reason, detail), kept, relayed, sent, verdicts."""
    outputs = table.receive(peer, payload)
    refused = [o for o in outputs if isinstance(o, out.Rejected)]
    sent = [o for o in outputs if isinstance(o, out.Send) and o.payload != payload]
    return {
        "refused": [refused[0].reason, refused[0].detail] if refused else None,
        "kept": any(isinstance(o, out.Persist) and o.payload == payload for o in outputs),
        "relayed": any(isinstance(o, out.Send) and o.payload == payload and o.to is None for o in outputs),
        "sent": [[o.to, SignedMessage.from_bytes(o.payload).kind, _sent_body(o.payload)] for o in sent],
        "verdicts": [[f.seat, f.kind, list(f.seats), f.message] for f in outputs if isinstance(f, out.Fault)],
        "over": table.over,
    }


def _sent_body(payload: bytes) -> Any:
    msg = SignedMessage.from_bytes(payload)
    if msg.kind == "catchup_response" and isinstance(msg.body, dict):
        msgs = msg.body["msgs"]
        assert isinstance(msgs, tuple)
        return [hashlib.sha256(m).hexdigest()[:16] for m in msgs if isinstance(m, bytes)]
    if msg.kind == "catchup_request" or msg.kind == "void_vote":
        return kit._plain(msg.body)
    return msg.step


Case = tuple[str, int, list[bytes]]
"""(why, the peer it comes from, the payloads offered in order: the outcome of the last one counts)."""


def run_cases(context: Context, cases: Sequence[Case]) -> list[dict[str, Any]]:
    results = []
    for why, peer, payloads in cases:
        table = context.table()
        for payload in payloads[:-1]:
            table.receive(peer, payload)
        result = outcome(table, peer, payloads[-1])
        results.append({"why": why, "from": peer, "before": [p.hex() for p in payloads[:-1]],
                        "message": payloads[-1].hex(), "outcome": result})  # fmt: skip
    return results


def _first_of_hand(name: str, hand: int) -> int:
    """The index of the first payload of a kit journal that belongs to ``hand`` (the ones before it
    take the replica past the seals of the hands before)."""
    doc, _, payloads = kit.load(name)
    start = next(e["start_step"] for e in doc["trace"] if e["type"] == "attempt" and e["hand"] == hand)
    return next(i for i, p in enumerate(payloads) if SignedMessage.from_bytes(p).step >= start
                and SignedMessage.from_bytes(p).kind not in ("evidence", "return"))  # fmt: skip


def _first(name: str, kind: str) -> int:
    """The index of the first payload of ``kind`` in a kit journal."""
    payloads = kit.load(name)[2]
    return next(i for i, p in enumerate(payloads) if SignedMessage.from_bytes(p).kind == kind)


# ---- votes


def vote_vectors() -> dict[str, Any]:
    at = _first("durak-silent", "void_vote")
    ctx = Context("durak-silent", at)
    step, prev = ctx.head()

    def vote(seat: int, body: Any, *, s: int = step, p: bytes = prev) -> bytes:
        return ctx.sign(seat, "void_vote", body, s, p)

    kit_votes = [ctx.message(at), ctx.message(at + 1)]
    cases: list[Case] = [
        ("seat 0 votes seat 2 silent at the open step: kept and relayed", 0, [kit_votes[0]]),
        ("the second vote: two of three voted, both naming seat 2, the one awaited seat that did not vote: "
         "seat 2 is voted out, the hand dealt again", 1, kit_votes),
        ("seat 1 names seat 0, not seat 2: not every voter named seat 2, the votes do not decide (seat 0's "
         "message is held: kept, not relayed, sent to the voter)", 1,
         [kit_votes[0], vote(1, {"silent": [0]})]),
        ("a vote that is not a map", 0, [vote(0, [2])]),
        ("a vote with another key", 0, [vote(0, {"silent": [2], "why": "late"})]),
        ("silent seats that are not an array", 0, [vote(0, {"silent": 2})]),
        ("a boolean for a seat", 0, [vote(0, {"silent": [True]})]),
        ("seats not ascending", 0, [vote(0, {"silent": [2, 1]})]),
        ("a seat out of range", 0, [vote(0, {"silent": [3]})]),
        ("no seat named", 0, [vote(0, {"silent": []})]),
        ("a seat voting itself silent", 2, [vote(2, {"silent": [2]})]),
        ("naming half the seats playing or more", 0, [vote(0, {"silent": [1, 2]})]),
        ("seat 0 names seat 1, whose message for the step this replica holds: kept, not relayed, "
         "and seat 1's message sent to the voter", 0, [vote(0, {"silent": [1]})]),
        ("two different votes of one seat for one step: equivocation", 0,
         [kit_votes[0], vote(0, {"silent": [1]})]),
        ("a vote after a head this replica does not know yet: held, neither kept nor refused", 0,
         [vote(0, {"silent": [2]}, p=hashlib.sha256(b"elsewhere").digest())]),
    ]  # fmt: skip
    results = run_cases(ctx, cases)

    final = Context("durak-return", _first_of_hand("durak-return", 1))
    old = SignedMessage.from_bytes(final.message(20))
    results += _in(final, [("a vote for a step of a hand that is final", 0,
                            [final.sign(0, "void_vote", {"silent": [1]}, old.step, old.prev)])])
    after = Context("durak-silent", at + 2)
    new_step, new_prev = after.head()
    results += _in(after, [("a vote by a seat that no longer plays this hand", 2,
                            [after.sign(2, "void_vote", {"silent": [1]}, new_step, new_prev)])])
    action = Context("durak-seeded", 40)
    a_step, a_prev = action.head()
    awaited = action.table().waiting_for
    other = next(seat for seat in range(3) if seat not in awaited and seat != 0)
    results += _in(action, [(f"naming seat {other}, which the open step does not await", 0,
                             [action.sign(0, "void_vote", {"silent": [other]}, a_step, a_prev)])])
    return {
        "description": "void_vote messages offered to a replica (SPEC §6.1).  Each case starts from the "
        "context (a prefix of a kit journal fed to an observer; a case may name its own), offers the "
        "'before' messages, then 'message'; 'outcome' is what the replica does with the last.",
        "context": ctx.describe(),
        "cases": results,
    }


def _in(context: Context, cases: Sequence[Case]) -> list[dict[str, Any]]:
    """Cases run in a context of their own, which they name."""
    return [r | {"context": context.describe()} for r in run_cases(context, cases)]


# ---- abandon


def abandon_vectors() -> dict[str, Any]:
    at = _first("durak-abandon", "abandon")
    ctx = Context("durak-abandon", at)
    step, prev = ctx.head()
    three = Context("durak-silent", _first("durak-silent", "void_vote"))
    s3, p3 = three.head()
    cases: list[Case] = [
        ("the last of two players (seat 0, whose journal this is) ends the match by its own word "
         "(unconfirmed: abandoned)", 0, [ctx.message(at)]),
        ("an abandon that is not a map", 0, [ctx.sign(0, "abandon", [1], step, prev)]),
        ("naming nobody", 0, [ctx.sign(0, "abandon", {"silent": []}, step, prev)]),
        ("naming itself", 0, [ctx.sign(0, "abandon", {"silent": [0]}, step, prev)]),
        ("by the seat the other waits for: its word binds seat 1 alone; read as seat 0's journal it is "
         "kept and binds nothing", 1, [ctx.sign(1, "abandon", {"silent": [0]}, step, prev)]),
    ]
    results = run_cases(ctx, cases)
    results += _in(three, [
        ("naming one seat of three: fewer than half", 0, [three.sign(0, "abandon", {"silent": [2]}, s3, p3)]),
        ("seat 0, one of three, names both others: read as its own journal, the match ends for it alone "
         "(unconfirmed)", 0, [three.sign(0, "abandon", {"silent": [1, 2]}, s3, p3)]),
        ("seat 1, one of three, names both others: read as seat 0's journal, kept, it binds nothing", 1,
         [three.sign(1, "abandon", {"silent": [0, 2]}, s3, p3)]),
    ])
    after = Context("durak-silent", _first("durak-silent", "void_vote") + 2)
    a_step, a_prev = after.head()
    results += _in(after, [
        ("by a seat voted out of this hand", 2, [after.sign(2, "abandon", {"silent": [0]}, a_step, a_prev)]),
        ("naming a seat voted out of this hand", 0,
         [after.sign(0, "abandon", {"silent": [1, 2]}, a_step, a_prev)]),
    ])
    action = Context("durak-seeded", 42)  # a step that awaits one seat
    t_step, t_prev = action.head()
    (actor,) = action.table().waiting_for
    others = [seat for seat in range(3) if seat != actor]
    results += _in(action, [(f"seat {actor}, awaited alone, names seats {others}: none of them was awaited",
                             actor, [action.sign(actor, "abandon", {"silent": others}, t_step, t_prev)])])
    final = Context("durak-return", _first_of_hand("durak-return", 1))
    old = SignedMessage.from_bytes(final.message(20))
    results += _in(final, [("an abandon for a step of a hand that is final", 0,
                            [final.sign(0, "abandon", {"silent": [1, 2]}, old.step, old.prev)])])
    return {
        "description": "abandon messages (SPEC §6.2, §6.5): a person's seat playing the hand names half "
        "the voices or more silent, at least one of them awaited at the step; it is its signer's word and "
        "binds that voice alone (it goes on without them, or the match ends for it: unconfirmed).",
        "context": ctx.describe(),
        "cases": results,
    }


# ---- return


def return_vectors() -> dict[str, Any]:
    at = _first("durak-return", "return")
    ctx = Context("durak-return", at)
    step, prev = ctx.head()
    cases: list[Case] = [
        ("seat 2, voted out, asks to come back", 2, [ctx.message(at)]),
        ("a return that is not a map", 2, [ctx.sign(2, "return", [], step, prev)]),
        ("a return with a key", 2, [ctx.sign(2, "return", {"seat": 2}, step, prev)]),
    ]
    return {
        "description": "return requests (SPEC §6.3): an empty map; the seats that sign the next seal "
        "admit the seat (the kit's durak-return shows the admission and the hand after it).",
        "context": ctx.describe(),
        "cases": run_cases(ctx, cases),
    }


# ---- evidence


def evidence_vectors() -> dict[str, Any]:
    ctx = Context("durak-seeded", 20)
    g = ctx.genesis.game_id
    head = hashlib.sha256(b"p2pcards/vectors/a head").digest()
    other = hashlib.sha256(b"p2pcards/vectors/another head").digest()

    def act(seat: int, text: str, *, step: int = 50, prev: bytes = head, key: Ed25519PrivateKey | None = None,
            game_id: bytes | None = None, kind: str = "action") -> SignedMessage:  # fmt: skip
        body: Any = {"a": text, "pos": [], "shares": []} if kind == "action" else {"silent": [2]}
        if kind == "catchup_request":
            body = {"after": int(text)}
        return SignedMessage.from_bytes(ctx.sign(seat, kind, body, step, prev, key=key, game_id=game_id))

    def evidence(a: SignedMessage, b: SignedMessage, *, order: bool = True, **extra: Any) -> bytes:
        first, second = (a, b) if not order or a.hash < b.hash else (b, a)
        body = {"type": "equivocation", "a": first.data, "b": second.data} | extra
        return ctx.sign(2, "evidence", body, 0, initial_head(g))

    def raw_evidence(a: bytes, b: bytes) -> bytes:
        return ctx.sign(2, "evidence", {"type": "equivocation", "a": a, "b": b}, 0, initial_head(g))

    take, pas = act(1, "take"), act(1, "pass")
    low, high = sorted([take, pas], key=lambda m: m.hash)
    cases: list[Case] = [
        ("seat 2 relays two actions seat 1 signed for one step after one head: seat 1 is convicted, "
         "never seat 2", 2, [evidence(take, pas)]),
        ("two void votes of seat 1 naming different seats", 2,
         [evidence(act(1, "", kind="void_vote"), SignedMessage.from_bytes(
             ctx.sign(1, "void_vote", {"silent": [0]}, 50, head)))]),
        ("evidence against a seat already convicted: taken without a second check, not kept", 2,
         [evidence(take, pas), evidence(take, act(1, "attack 6C"))]),
        ("not a map", 2, [ctx.sign(2, "evidence", [take.data, pas.data], 0, initial_head(g))]),
        ("another type", 2, [evidence(take, pas, type="forgery")]),
        ("a key too many", 2, [evidence(take, pas, c=b"")]),
        ("a message that is not a signed message", 2, [raw_evidence(encode([1, 2, 3]), pas.data)]),
        ("the same message twice", 2, [raw_evidence(take.data, take.data)]),
        ("the larger hash first", 2, [raw_evidence(high.data, low.data)]),
        ("two steps", 2, [evidence(take, act(1, "pass", step=51))]),
        ("two heads", 2, [evidence(take, act(1, "pass", prev=other))]),
        ("two seats", 2, [evidence(act(0, "take"), act(1, "pass"))]),
        ("an action and a vote", 2, [evidence(take, act(1, "", kind="void_vote"))]),
        ("two catch-up requests (transport messages)", 2,
         [evidence(act(1, "3", kind="catchup_request", step=0),
                   act(1, "4", kind="catchup_request", step=0))]),
        ("signed by another seat's key", 2, [evidence(take, act(1, "pass", key=ctx.keys[0]))]),
        ("messages of another game", 2,
         [evidence(act(1, "take", game_id=bytes(32)), act(1, "pass", game_id=bytes(32)))]),
    ]  # fmt: skip
    return {
        "description": "evidence messages (SPEC §6.4, WIRE §8): the pair convicts its signer, not the "
        "relayer; anything else is refused as bad evidence.",
        "context": ctx.describe(),
        "cases": run_cases(ctx, cases),
    }


# ---- seals


def seal_vectors() -> dict[str, Any]:
    name = "durak-seeded"
    at = _first(name, "seal")
    ctx = Context(name, at)
    table = ctx.table()
    att = table.attempt
    assert att is not None and att.complete and att.settled is not None
    seals = [ctx.message(at + i) for i in range(3)]
    by_seat = {SignedMessage.from_bytes(p).seat: p for p in seals}
    good = SignedMessage.from_bytes(by_seat[1]).body
    assert isinstance(good, dict)
    step, prev = att.seal_step, att.seal_prev

    def seal(seat: int, body: Any, *, s: int = step, p: bytes = prev) -> bytes:
        return ctx.sign(seat, "seal", body, s, p)

    def bad(body: Any) -> list[bytes]:
        return [by_seat[0], by_seat[2], seal(1, body)]

    cases: list[Case] = [
        ("every seat seals: the hand is final", 1, [by_seat[0], by_seat[2], by_seat[1]]),
        ("another result: seat 1 is a cheater from the next hand on", 1, bad(good | {"result": bytes(32)})),
        ("another hand", 1, bad(good | {"hand": 1})),
        ("the wrong end of the match", 1, bad(good | {"over": not good["over"]})),
        ("admitting a seat that is playing", 1, bad(good | {"admit": [0]})),
        ("not a map", 1, bad([good["hand"]])),
        ("a key missing", 1, bad({k: v for k, v in good.items() if k != "admit"})),
        ("a hand that is a boolean", 1, bad(good | {"hand": False})),
        ("over that is an integer", 1, bad(good | {"over": 1})),
        ("a result of 31 bytes", 1, bad(good | {"result": bytes(31)})),
        ("admit not ascending", 1, bad(good | {"admit": [2, 1]})),
        ("a seal for another step", 1, [seal(1, good, s=step + 1)]),
        ("a seal after another head", 1, [seal(1, good, p=bytes(32))]),
        ("a second, different seal of one seat: equivocation", 1,
         [by_seat[1], seal(1, good | {"admit": [2]})]),
    ]  # fmt: skip
    standings = att.settled.standings().encode()
    return {
        "description": "seal messages (SPEC §5.7).  The result of hand 0 of the kit game, from its parts, "
        "then seals offered to a replica whose hand is played and audited.",
        "result": {
            "hand": att.hand,
            "hand_digest": att.state.digest().hex(),
            "standings": kit._plain(standings),
            "over": att.settled.over,
            "canonical": canonical((att.hand, att.state.digest(), standings, att.settled.over)).hex(),
            "result": att.result.hex(),
            "seal_step": step,
            "seal_prev": prev.hex(),
            "seal_head": seal_head(prev).hex(),
        },
        "context": ctx.describe(),
        "cases": run_cases(ctx, cases),
    }


# ---- catch-up


def catchup_vectors() -> dict[str, Any]:
    ctx = Context("durak-seeded", 30, seat=0)
    start = initial_head(ctx.genesis.game_id)

    def request(body: Any) -> bytes:
        return ctx.sign(1, "catchup_request", body, 0, start)

    def response(body: Any) -> bytes:
        return ctx.sign(1, "catchup_response", body, 0, start)

    later = ctx.message(30)
    cases: list[Case] = [
        ("seat 1 holds every step up to 2: the answer holds the messages after it, in log order", 1,
         [request({"after": 2})]),
        ("a request for everything", 1, [request({"after": -1})]),
        ("the same request again at once: not answered twice", 1,
         [request({"after": 2}), request({"after": 2})]),
        ("not a map", 1, [request([2])]),
        ("after is a boolean", 1, [request({"after": True})]),
        ("after below -1", 1, [request({"after": -2})]),
        ("a key too many", 1, [request({"after": 2, "hand": 0})]),
        ("an answer with a message this replica lacks: taken as if it came directly", 1,
         [response({"msgs": [later]})]),
        ("an empty answer", 1, [response({"msgs": []})]),
        ("an answer that is not a map", 1, [response([later])]),
        ("messages that are not bytes", 1, [response({"msgs": [1]})]),
        ("a catch-up request inside an answer", 1, [response({"msgs": [request({"after": 2})]})]),
        ("an answer inside an answer", 1, [response({"msgs": [response({"msgs": []})]})]),
    ]  # fmt: skip
    return {
        "description": "catch-up messages (SPEC §9.5) offered to seat 0's replica, restored from its "
        "journal. An answer lists, for each message it carries, the first 8 bytes of SHA-256 of the payload.",
        "context": ctx.describe(),
        "cases": run_cases(ctx, cases),
    }


# ============================================================================ faults in content


def _last_of_round(name: str, kind: str) -> int:
    """The index, in a kit journal, of the message that completes the first round of ``kind``."""
    msgs = [SignedMessage.from_bytes(p) for p in kit.load(name)[2]]
    first = next(m for m in msgs if m.kind == kind)
    return max(i for i, m in enumerate(msgs) if (m.kind, m.step, m.prev) == (kind, first.step, first.prev))


def _flip_last(data: bytes) -> bytes:
    return data[:-1] + bytes([data[-1] ^ 0x01])


def fault_vectors() -> dict[str, Any]:
    name = "durak-mental"
    at = _last_of_round(name, "share")
    ctx = Context(name, at)
    honest = SignedMessage.from_bytes(ctx.message(at))
    assert isinstance(honest.body, dict) and isinstance(honest.body["shares"], tuple)
    shares = [list(x) for x in honest.body["shares"] if isinstance(x, tuple)]

    def resent(body: Any, msg: SignedMessage = honest) -> bytes:
        return ctx.sign(msg.seat, msg.kind, body, msg.step, msg.prev)

    def with_last(change: Callable[[list[Any]], list[Any]]) -> bytes:
        return resent({"shares": [*shares[:-1], change(list(shares[-1]))]})

    kinds = [SignedMessage.from_bytes(p).kind for p in kit.load(name)[2]]
    last_shuffle = max(i for i, k in enumerate(kinds[:at]) if k == "shuffle")  # the prelude's last
    shuffle_ctx = Context(name, last_shuffle)
    shuffle = SignedMessage.from_bytes(shuffle_ctx.message(last_shuffle))
    assert isinstance(shuffle.body, tuple)
    deck, proof = shuffle.body
    bad_shuffle = shuffle_ctx.sign(shuffle.seat, "shuffle", [deck, _corrupt_last(proof)], shuffle.step,
                                   shuffle.prev)  # fmt: skip
    cases: list[Case] = [
        ("the share that completes the round, as sent", honest.seat, [honest.data]),
        ("its last share's proof does not verify (the low bit of s flipped): bad-proof", honest.seat,
         [with_last(lambda x: [*x[:4], _flip_last(x[4])])]),
        ("its last share's d is no point: bad-message", honest.seat,
         [with_last(lambda x: [x[0], bytes([0x05]) + x[1][1:], *x[2:]])]),
        ("its last share names another position: bad-message", honest.seat,
         [with_last(lambda x: [x[0] + 1, *x[1:]])]),
        ("one share too few: bad-message", honest.seat, [resent({"shares": shares[:-1]})]),
    ]  # fmt: skip
    results = run_cases(ctx, cases)
    results += _in(shuffle_ctx, [
        ("the last shuffle of the prelude with its proof corrupted: every shuffle is verified now, bad-proof",
         shuffle.seat, [bad_shuffle]),
    ])  # fmt: skip
    return {
        "description": "faults in content (SPEC §5.8): a share or shuffle that does not decode is "
        "bad-message, one whose proof does not verify bad-proof. Each message is the kit journal's, signed "
        "again by its seat with the body changed as said.",
        "context": ctx.describe(),
        "cases": results,
    }


def _corrupt_last(value: Any) -> Any:
    """``value`` with the low bit of its last byte string flipped (a scalar of a proof)."""
    if isinstance(value, bytes):
        return _flip_last(value)
    items = list(value)
    items[-1] = _corrupt_last(items[-1])
    return items


# ============================================================================ files


Builder = Callable[[], dict[str, Any]]
BUILDERS: dict[str, Builder] = {
    "genesis.json": genesis_vectors,
    "seeded.json": seeded_vectors,
    "start_heads.json": start_head_vectors,
    "table_digest.json": table_digest_vectors,
    "seals.json": seal_vectors,
    "votes.json": vote_vectors,
    "abandon.json": abandon_vectors,
    "return.json": return_vectors,
    "evidence.json": evidence_vectors,
    "catchup.json": catchup_vectors,
    "faults.json": fault_vectors,
}


def build() -> dict[str, Any]:
    return {name: make() for name, make in BUILDERS.items()}


def dump(obj: Any) -> str:
    return json.dumps(obj, indent=1, ensure_ascii=False) + "\n"


def main() -> None:
    VECTOR_DIR.mkdir(parents=True, exist_ok=True)
    for name, obj in build().items():
        (VECTOR_DIR / name).write_text(dump(obj), encoding="utf-8")
        print("wrote", VECTOR_DIR / name)


if __name__ == "__main__":
    main()

