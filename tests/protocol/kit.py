"""The conformance kit of protocol/vectors/kit/: recorded games with a trace of every step.

Each game is played by real tables over the harness's simulated network (seeded: it replays exactly),
optionally with one seat that cheats, withholds or leaves and comes back; seat 0's journal is written
in the journal format of ``protocol/JOURNAL.md``.  The trace is what an observer replica derives from
that journal, payload by payload: for every step the awaited seats, what each owes, the action and the
positions it shows, the heads and the digests; the certificates; the verdicts, seatings and seals.

Regenerate with ``python -m tests.protocol.kit`` from the repository root (it plays every game again);
``test_kit.py`` checks, from the stored journals alone, that the code still derives exactly the stored
traces, and recomputes the heads and start heads from the documents.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pcards.games.rng import Rng
from p2pcards.harness.byzantine import ByzantineTable
from p2pcards.harness.network import Faults, SimNetwork
from p2pcards.store import journal as journal_file
from p2pcards.table import outputs as out
from p2pcards.table.attempt import Attempt
from p2pcards.table.genesis import Genesis, make_genesis
from p2pcards.table.replica import Table
from p2pcards.wire import CERTIFICATE_KINDS, SignedMessage, key_from_seed, public_bytes, seal_head

KIT_DIR = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "kit"
NAMES = ("Ada", "Bo", "Cy", "Di")


@dataclass(frozen=True)
class Scenario:
    name: str
    game: str
    peers: int
    dealer: str
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    byzantine: dict[int, str] = field(default_factory=dict)
    about: str = ""
    expect: dict[str, Any] = field(default_factory=dict)
    """What the recorded game must show (checked when it is made): counts of trace entries by type."""
    timeout_ms: int = 10_000


SCENARIOS: tuple[Scenario, ...] = (
    Scenario("durak-mental", "durak", 3, "mental", 1, about="three players, the mental-poker dealer: "
             "the deal, the trump revealed, the trump showing, bouts and draws"),
    Scenario("durak-seeded", "durak", 3, "seeded", 1, about="the same table with the seeded dealer"),
    Scenario("spades-mental", "spades", 4, "mental", 1, {"target": 1, "floor": -1},
             about="four players, one hand (target 1, floor -1): the deal, the bids, 13 tricks"),
    Scenario("spades-seeded", "spades", 4, "seeded", 1, {"target": 1, "floor": -1},
             about="the same table with the seeded dealer"),
    Scenario("spades-blind", "spades", 4, "seeded", 7, {"blind_nil": True, "target": 60, "floor": -1000},
             about="blind nil on, two hands (target 60, floor -1000): the first leaves team 0 100 or more "
             "behind, so the second is dealt face down, seats 1 and 3 are shown their cards (share rounds) "
             "before the bidding, one of seats 0 and 2 looks (a share round, then it bids) and the other "
             "bids blind nil and is shown its cards once the bidding is over"),
    Scenario("azi-mental", "azi", 3, "mental", 2, {"hands": 1},
             about="three players, blind: the deal undisclosed, the trump, looks (disclosures), bids"),
    Scenario("azi-seeded", "azi", 3, "seeded", 1, {"hands": 1, "deal": 4, "blind": False},
             about="four cards each, not blind: the deal disclosed, the discards"),
    Scenario("spades-equivocation", "spades", 4, "seeded", 1, {"target": 1, "floor": -1}, {1: "equivocate"},
             about="seat 1 signs two actions for one step: the evidence, the verdict, the hand dealt "
             "again with seat 1 an open dummy", expect={"certificate": 1, "void": 1}),
    Scenario("durak-silent", "durak", 3, "seeded", 1, {}, {2: "withhold"},
             about="seat 2 never sends its shares: void votes, seat 2 voted out, the hand dealt again "
             "between seats 0 and 1", expect={"void": 1}),
    Scenario("durak-return", "durak", 3, "seeded", 1, {"series_hands": 2}, {2: "return"},
             about="seat 2 vanishes, is voted out, asks to come back and is admitted by the seals of "
             "hand 0: it plays hand 1", expect={"void": 1}, timeout_ms=2_000),
    Scenario("durak-abandon", "durak", 2, "seeded", 1, {}, {1: "withhold"},
             about="two players, one silent: the other ends the match alone (abandon)"),
    Scenario("durak-transfer", "durak", 3, "seeded", 1, {"transfer": True},
             about="three players, transfer Durak (D16-D18): transfers, bouts passed on round the table"),
    Scenario("durak-52", "durak", 2, "seeded", 1, {"deck": 52},
             about="two players, the 52-card deck: ranks 2 to A, a talon of 39"),
)  # fmt: skip


# ============================================================================ playing


class KitNetwork(SimNetwork):
    """The harness's network, with a seat that leaves doing so early and coming back as soon as it
    has been voted out (the harness takes its time, which makes for long recordings)."""

    LEAVE_AT_MS = 800

    def _at(self, when: int, kind: str, *data: Any) -> None:
        if kind == "leave":
            when = min(when, self.LEAVE_AT_MS)
        elif kind == "come_back":
            when = self.now + self.genesis.timeout_ms + 300
        elif kind == "ask_return" and not self.asked:
            self.asked = True
            when = self.now + 100
        super()._at(when, kind, *data)

    asked = False


def seeds_of(s: Scenario) -> list[bytes]:
    """The seats' RFC 8032 seeds, published in the kit (so anyone can sign as any seat, a cheat
    included): seat i's is the two bytes (seed, i + 1) repeated 16 times."""
    return [bytes([s.seed, i + 1]) * 16 for i in range(s.peers)]


def identities_of(s: Scenario) -> list[Ed25519PrivateKey]:
    """The seats' identity keys (``seeds_of``)."""
    return [key_from_seed(seed) for seed in seeds_of(s)]


def scenario(name: str) -> Scenario:
    (found,) = [s for s in SCENARIOS if s.name == name]
    return found


def play(s: Scenario) -> tuple[Genesis, list[bytes]]:
    """Play the scenario over the simulated network; the genesis and seat 0's journal."""
    identities = identities_of(s)
    genesis = make_genesis(
        s.game,
        [(NAMES[i], public_bytes(k)) for i, k in enumerate(identities)],
        options=s.options,
        dealer=s.dealer,
        seed=s.seed if s.dealer == "seeded" else 0,
        nonce=f"kit/{s.name}".encode(),
        timeout_ms=s.timeout_ms,
    )
    rng = Rng(f"kit/{s.name}/{s.seed}")
    secrets_rng = rng.fork("secrets")

    def source(n: int) -> bytes:
        return b"".join(secrets_rng.next64().to_bytes(8, "big") for _ in range((n + 7) // 8))[:n]

    def make_table(seat: int, secrets: dict[str, bytes]) -> Table:
        if seat in s.byzantine:
            return ByzantineTable(genesis, seat, identities[seat], source=source, secrets=secrets,
                                  behaviour=s.byzantine[seat], rng=rng.fork(f"byz{seat}"))  # fmt: skip
        return Table(genesis, seat, identities[seat], source=source, secrets=secrets)

    choosers = [rng.fork(f"choose{seat}") for seat in range(s.peers)]

    def choose(seat: int, legal: list[str]) -> str:
        return choosers[seat].choice(legal)  # the texts in the engine's order: the choices as before

    honest = frozenset(x for x in range(s.peers) if s.byzantine.get(x, "return") == "return")
    net = KitNetwork(genesis, identities, make_table, choose, rng=rng.fork("net"), faults=Faults(),
                     honest=honest)  # fmt: skip
    net.run()
    return genesis, list(net.peers[0].journal)


# ============================================================================ the trace


def _hex(b: bytes) -> str:
    return b.hex()


def _plain(value: Any) -> Any:
    """A canonical value as JSON: bytes as hex, tuples as lists."""
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@dataclass
class _Open:
    """The open step a message was offered to, as it stood before the message arrived."""

    attempt: Attempt | None
    step: int
    prev: bytes
    kind: str
    awaited: tuple[int, ...]
    owed: dict[int, tuple[int, ...]]


def _open_step(table: Table, msg: SignedMessage) -> _Open | None:
    if table.attempt is None and msg.step < 3 and not table.finals:
        chain = table.chain
        if chain.step == msg.step and chain.head == msg.prev:
            kind = ("genesis", "coin_commit", "coin_reveal")[msg.step]
            return _Open(None, msg.step, msg.prev, kind, tuple(sorted(chain.awaited)), {})
        return None
    for att in [*table.attempts_path, *([table.attempt] if table.attempt else [])]:
        if att.step != msg.step or att.head != msg.prev or att.fault is not None:
            continue
        if att.complete:
            return _Open(att, att.seal_step, att.seal_prev, "seal", att.holders, {})
        exp = att.expect
        if exp is None:
            return None
        return _Open(att, msg.step, msg.prev, exp.kind, tuple(exp.seats), dict(exp.owed))
    return None


class Tracer:
    """An observer replica fed one journal payload at a time, writing down what it derives; it reads
    the journal as seat 0's (SPEC §6.5: that seat's own word binds it)."""

    def __init__(self, genesis: Genesis) -> None:
        self.table = Table(genesis, None, None, perspective=0)
        self.entries: list[dict[str, Any]] = []
        self._attempts: dict[bytes, int] = {}
        self._setup_head = b""
        self.table.start()

    def feed(self, payload: bytes) -> None:
        table = self.table
        msg = SignedMessage.from_bytes(payload)
        opened = None if msg.kind in CERTIFICATE_KINDS else _open_step(table, msg)
        before: Any = None
        if opened is not None and opened.attempt is not None:
            before = (opened.attempt.chain.step, opened.attempt.complete)
        outputs = table.receive(None, payload)
        if msg.kind in CERTIFICATE_KINDS:
            self._certificate(msg, outputs)
        elif opened is not None:
            self._step(opened, before, outputs)
        for o in outputs:
            self._event(o)

    def _note_attempt(self, att: Attempt) -> None:
        if att.start_head in self._attempts:
            return
        self._attempts[att.start_head] = len(self._attempts)
        self.entries.append({
            "type": "attempt",
            "attempt": self._attempts[att.start_head],
            "hand": att.hand,
            "start_step": att.start_step,
            "start_head": _hex(att.start_head),
            "boundary": _hex(self._boundary_of(att)),
            "changes": [_plain(c.ident()) for c in sorted(att.changes)],
            "holders": list(att.holders),
            "dummies": list(att.dummies),
        })  # fmt: skip

    def _boundary_of(self, att: Attempt) -> bytes:
        finals = [a for h, a in self.table.finals if h == att.hand - 1]
        if finals:
            return seal_head(finals[-1].seal_prev)
        return self._setup_head

    def _step(self, opened: _Open, before: Any, outputs: list[out.Output]) -> None:
        table = self.table
        att = opened.attempt
        if att is None:
            setup = table.setup.chain
            if setup.step <= opened.step:
                return
            if opened.step == 2:
                self._setup_head = setup.head
            step = setup.steps[opened.step]
            self.entries.append({
                "type": "step", "hand": -1, "step": opened.step, "kind": opened.kind, "prev": _hex(step.prev),
                "head": _hex(step.head), "awaited": list(opened.awaited),
                "seats": [m.seat for m in step.messages], "table": _hex(table.digest()),
            })  # fmt: skip
            return
        if opened.kind == "seal" or (att.chain.step, att.complete) == before:
            return
        self._note_attempt(att)
        sealed = next(s for s in att.chain.steps if s.number == opened.step)
        changed = [o for o in outputs if isinstance(o, out.StateChanged) and o.step == opened.step
                   and o.kind == opened.kind]  # fmt: skip
        entry: dict[str, Any] = {
            "type": "step", "hand": att.hand, "attempt": self._attempts[att.start_head], "step": opened.step,
            "kind": opened.kind, "prev": _hex(sealed.prev), "head": _hex(sealed.head),
            "awaited": list(opened.awaited), "seats": [m.seat for m in sealed.messages],
        }  # fmt: skip
        if opened.owed:
            entry["owed"] = {str(seat): list(ps) for seat, ps in sorted(opened.owed.items())}
        if opened.kind == "action":
            body = sealed.messages[0].body
            assert isinstance(body, dict)
            entry["a"], entry["pos"] = body["a"], _plain(body["pos"])
        if att.fault is not None and att.fault.step == opened.step:
            entry["fault"] = {"seat": att.fault.seat, "kind": att.fault.kind}
        else:
            entry["digest"] = _hex(changed[0].digest if changed else att.digest())
        self.entries.append(entry)

    def _certificate(self, msg: SignedMessage, outputs: list[out.Output]) -> None:
        entry: dict[str, Any] = {"type": "certificate", "kind": msg.kind, "seat": msg.seat, "step": msg.step,
                                 "prev": _hex(msg.prev)}  # fmt: skip
        body = msg.body
        if msg.kind in ("void_vote", "abandon") and isinstance(body, dict):
            entry["silent"] = _plain(body.get("silent"))
        elif msg.kind == "evidence" and isinstance(body, dict):
            a = body.get("a")
            first = SignedMessage.from_bytes(a) if isinstance(a, bytes) else None
            entry["accused"] = None if first is None else first.seat
            entry["evidence_step"] = None if first is None else first.step
        refused = [o for o in outputs if isinstance(o, out.Rejected)]
        entry["refused"] = [refused[0].reason, refused[0].detail] if refused else None
        self.entries.append(entry)

    def _event(self, o: out.Output) -> None:
        table = self.table
        if isinstance(o, out.StateChanged) and o.kind == "dummy":
            self.entries.append({"type": "dummy", "hand": o.hand, "step": o.step, "seat": o.seats[0],
                                 "a": o.text, "digest": _hex(o.digest)})  # fmt: skip
        elif isinstance(o, out.Seating):
            if table.attempt is not None:
                self._note_attempt(table.attempt)
            self.entries.append({"type": "seating", "hand": o.hand, "playing": list(o.playing),
                                 "dummies": list(o.dummies), "out": [list(x) for x in o.out]})  # fmt: skip
        elif isinstance(o, out.Fault):
            self.entries.append({"type": "verdict", "hand": o.hand, "step": o.step, "kind": o.kind,
                                 "seats": list(o.seats or (o.seat,)),
                                 "table": _hex(table.digest())})  # fmt: skip
        elif isinstance(o, out.HandVoid):
            self.entries.append({"type": "void", "hand": o.hand})
        elif isinstance(o, out.Sealed):
            (att,) = [a for h, a in table.finals if h == o.hand]
            assert att.settled is not None
            self.entries.append({
                "type": "seal", "hand": o.hand, "attempt": self._attempts[att.start_head],
                "step": att.seal_step, "prev": _hex(att.seal_prev),
                "head": _hex(seal_head(att.seal_prev)), "sealers": list(o.seats),
                "hand_digest": _hex(att.state.digest()),
                "standings": _plain(att.settled.standings().encode()), "over": att.settled.over,
                "result": _hex(att.result), "table": _hex(table.digest()),
            })  # fmt: skip
        elif isinstance(o, out.MatchOver):
            self.entries.append({"type": "match_over", "abandoned": o.abandoned,
                                 "table": _hex(table.digest())})  # fmt: skip


def trace(genesis: Genesis, payloads: Iterable[bytes]) -> list[dict[str, Any]]:
    tracer = Tracer(genesis)
    for payload in payloads:
        tracer.feed(payload)
    return tracer.entries


# ============================================================================ the files


def load(name: str) -> tuple[dict[str, Any], Genesis, list[bytes]]:
    """A stored kit game: its description, its genesis and the payloads of its journal."""
    doc = json.loads((KIT_DIR / f"{name}.json").read_text(encoding="utf-8"))
    scan = journal_file.parse((KIT_DIR / doc["journal"]).read_bytes())
    return doc, Genesis.decode(bytes.fromhex(doc["genesis"])), scan.payloads


def journal_bytes(genesis: Genesis, payloads: list[bytes]) -> bytes:
    return journal_file.header(genesis.game_id) + b"".join(journal_file.encode_record(p) for p in payloads)


def describe(
    s: Scenario, genesis: Genesis, payloads: list[bytes], entries: list[dict[str, Any]]
) -> dict[str, Any]:
    counts: dict[str, int] = {}
    for e in entries:
        counts[e["type"]] = counts.get(e["type"], 0) + 1
    for kind, least in s.expect.items():
        if counts.get(kind, 0) < least:
            raise AssertionError(f"{s.name}: expected at least {least} {kind} entries, got {counts}")
    last = entries[-1] if entries else {}
    if last.get("type") != "match_over":
        raise AssertionError(f"{s.name}: the recorded game did not end: {last}")
    return {
        "name": s.name,
        "about": s.about,
        "game": s.game,
        "dealer": s.dealer,
        "options": [[k, v] for k, v in genesis.options],
        "seats": [seat.name for seat in genesis.seats],
        "keys": [
            {"seat": i, "seed": seed.hex(), "public": public_bytes(key_from_seed(seed)).hex()}
            for i, seed in enumerate(seeds_of(s))
        ],
        "byzantine": {str(k): v for k, v in s.byzantine.items()},
        "genesis": genesis.encode().hex(),
        "game_id": genesis.game_id.hex(),
        "journal": f"{s.name}.journal",
        "journal_of_seat": 0,
        "records": len(payloads),
        "abandoned": bool(last.get("abandoned")),
        "counts": dict(sorted(counts.items())),
        "trace": entries,
    }


def build(s: Scenario) -> tuple[bytes, dict[str, Any]]:
    genesis, payloads = play(s)
    entries = trace(genesis, payloads)
    return journal_bytes(genesis, payloads), describe(s, genesis, payloads, entries)


def dump(obj: Any) -> str:
    """One trace entry per line: diffs stay readable and the files small."""
    head = {k: v for k, v in obj.items() if k != "trace"}
    lines = json.dumps(head, indent=1, ensure_ascii=False)[:-2]
    entries = ",\n  ".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in obj["trace"])
    return f'{lines},\n "trace": [\n  {entries}\n ]\n}}\n'


def main(names: list[str]) -> None:
    """Play every scenario (or those named) again and write it; with ``--from-journals``, describe the
    stored journals again without playing (after a change to the description or the trace only)."""
    stored = "--from-journals" in names
    names = [n for n in names if n != "--from-journals"]
    KIT_DIR.mkdir(parents=True, exist_ok=True)
    for s in SCENARIOS:
        if names and s.name not in names:
            continue
        if stored:
            _, genesis, payloads = load(s.name)
            data = journal_bytes(genesis, payloads)
            doc = describe(s, genesis, payloads, trace(genesis, payloads))
        else:
            data, doc = build(s)
        (KIT_DIR / f"{s.name}.journal").write_bytes(data)
        (KIT_DIR / f"{s.name}.json").write_text(dump(doc), encoding="utf-8")
        print(f"wrote {s.name}: {doc['records']} records, {len(data)} bytes, {doc['counts']}")


if __name__ == "__main__":
    main(sys.argv[1:])
