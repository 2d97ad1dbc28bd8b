"""Run games over the simulated network and judge them: did every honest replica finish, agree, name
the same cheater, and never crash?"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from p2pcards import games
from p2pcards.games.rng import Rng
from p2pcards.harness.byzantine import EXPECTED_FAULT, ByzantineTable
from p2pcards.harness.network import Faults, SimNetwork
from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis, make_genesis
from p2pcards.table.replica import Table
from p2pcards.wire import Envelope, key_from_seed, public_bytes, sign

FRAME_ATTACKS = ("foreign", "malformed", "oversized")


@dataclass
class GameReport:
    game: str
    seed: int
    peers: int
    faults: str
    byzantine: dict[int, str]
    finished: bool = False
    agree: bool = False
    honest: int = 0
    verdicts: list[str] = field(default_factory=list)
    """Each honest replica's verdict (``seat N kind`` or ``ok``)."""
    named: list[int] = field(default_factory=list)
    crashes: list[str] = field(default_factory=list)
    refused_frames: int = 0
    frames: int = 0
    bytes: int = 0
    hands: int = 0
    sim_ms: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {
            k: getattr(self, k)
            for k in (
                "game",
                "seed",
                "peers",
                "faults",
                "finished",
                "agree",
                "honest",
                "verdicts",
                "named",
                "crashes",
                "refused_frames",
                "frames",
                "bytes",
                "hands",
                "sim_ms",
                "problems",
            )
        } | {"byzantine": {str(k): v for k, v in self.byzantine.items()}, "passed": self.passed}


def _identities(n: int, seed: int) -> list[Any]:
    return [key_from_seed(Rng(f"harness/{seed}/id/{i}").next64().to_bytes(8, "big") * 4) for i in range(n)]


def _foreign_message(game: str, n: int, seed: int, seat: int, identities: list[Any]) -> bytes:
    """A correctly signed message of the same seat in *another* game (same players, other nonce)."""
    other = make_genesis(
        game, [(f"seat {i}", public_bytes(k)) for i, k in enumerate(identities)], nonce=b"another table"
    )
    env = Envelope(
        game_id=other.game_id, step=0, seat=seat, prev=bytes(32), kind="genesis", body=other.encode()
    )
    return sign(env, identities[seat]).data


def run_game(
    game: str,
    *,
    peers: int,
    seed: int,
    faults: Faults | None = None,
    fault_spec: str = "none",
    byzantine: dict[int, str] | None = None,
    dealer: str = "mental",
    options: dict[str, Any] | None = None,
    chooser: str = "random",
) -> GameReport:
    """One game between ``peers`` seats; seats in ``byzantine`` cheat as named."""
    faults = faults if faults is not None else Faults.parse(fault_spec)
    byzantine = dict(byzantine or {})
    identities = _identities(peers, seed)
    opts = dict(options or {})
    genesis = make_genesis(
        game,
        [(f"seat {i}", public_bytes(k)) for i, k in enumerate(identities)],
        options=opts,
        dealer=dealer,
        seed=seed,
        nonce=seed.to_bytes(8, "big"),
        timeout_ms=10_000,
    )
    rng = Rng(f"harness/{game}/{seed}")
    source_rng = rng.fork("secrets")

    def source(n: int) -> bytes:  # reproducible secrets: a run replays exactly from its seed
        return b"".join(source_rng.next64().to_bytes(8, "big") for _ in range((n + 7) // 8))[:n]

    table_behaviour = {s: b for s, b in byzantine.items() if b not in FRAME_ATTACKS}
    frame_attacker = next(((s, b) for s, b in byzantine.items() if b in FRAME_ATTACKS), None)

    def make_table(seat: int, secrets: dict[str, bytes]) -> Table:
        if seat in table_behaviour:
            return ByzantineTable(
                genesis,
                seat,
                identities[seat],
                source=source,
                secrets=secrets,
                behaviour=table_behaviour[seat],
                rng=rng.fork(f"byz{seat}"),
            )
        return Table(genesis, seat, identities[seat], source=source, secrets=secrets)

    choosers = [rng.fork(f"choose{s}") for s in range(peers)]
    rules = genesis.rules()

    def choose(seat: int, view: Any) -> str:
        return rules.action_text(choosers[seat].choice(list(view.legal_actions)))

    honest = frozenset(s for s in range(peers) if s not in byzantine)
    foreign = _foreign_message(game, peers, seed, frame_attacker[0], identities) if frame_attacker else b""
    net = SimNetwork(
        genesis,
        identities,
        make_table,
        choose,
        rng=rng.fork("net"),
        faults=faults,
        honest=honest,
        frame_attacker=frame_attacker,
        foreign=foreign,
    )
    net.run()
    return _judge(genesis, net, seed, fault_spec, byzantine, honest)


def _judge(
    genesis: Genesis,
    net: SimNetwork,
    seed: int,
    fault_spec: str,
    byzantine: dict[int, str],
    honest: frozenset[int],
) -> GameReport:
    rep = GameReport(
        genesis.game,
        seed,
        net.n,
        fault_spec,
        byzantine,
        honest=len(honest),
        frames=net.frames,
        bytes=net.bytes,
        sim_ms=net.now,
    )
    tables = [net.peers[s].table for s in sorted(honest)]
    rep.finished = all(t.over or t.fault is not None for t in tables)
    rep.agree = len({t.digest() for t in tables}) == 1
    rep.hands = max((len(t.hands_played) for t in tables), default=0)
    for s in sorted(honest):
        p = net.peers[s]
        t = p.table
        rep.verdicts.append("ok" if t.fault is None else f"seat {t.fault.seat} {t.fault.kind}")
        rep.crashes += [f"seat {s}: {e}" for e in p.errors]
        rep.refused_frames += sum(1 for e in p.events if isinstance(e, out.Rejected)) + sum(
            p.frame_errors.values()
        )
    rep.named = sorted({t.fault.seat for t in tables if t.fault is not None})
    if not rep.finished:
        waiting = sorted({s for t in tables for s in t.waiting_for})
        rep.problems.append(f"not finished after {net.now} ms (waiting for seats {waiting})")
    if not rep.agree:
        rep.problems.append("honest replicas disagree: " + ", ".join(rep.verdicts))
    if rep.crashes:
        rep.problems.append(f"{len(rep.crashes)} errors in honest peers: {rep.crashes[0]}")
    for seat, behaviour in sorted(byzantine.items()):
        expected = EXPECTED_FAULT.get(behaviour)
        if expected is None:
            attributed = sum(
                1
                for s in sorted(honest)
                if net.peers[s].frame_errors.get(seat)
                or any(isinstance(e, out.Rejected) and e.peer == seat for e in net.peers[s].events)
            )
            if attributed < len(honest):
                rep.problems.append(
                    f"the {behaviour} frames of seat {seat} were not refused by every honest peer"
                )
            continue
        cheated = getattr(net.peers[seat].table, "cheated", False)
        if not cheated:
            continue  # the chance to cheat never came (e.g. no renege possible in this deal)
        if behaviour == "equivocate" and not net.twin_delivered:
            continue  # the second message was lost before any honest peer saw it: nothing to detect
        wrong = [
            v
            for v in rep.verdicts
            if v.split(" ")[:2] != ["seat", str(seat)] or v.split(" ")[2] not in expected
        ]
        if wrong:
            rep.problems.append(
                f"seat {seat} ({behaviour}) should be named for {'/'.join(expected)} by every "
                f"honest replica; verdicts: {', '.join(rep.verdicts)}"
            )
    return rep


def summarize(reports: list[GameReport]) -> dict[str, Any]:
    named: Counter[str] = Counter()
    for r in reports:
        for v in set(r.verdicts):
            if v != "ok":
                named[v] += 1
    return {
        "games": len(reports),
        "finished": sum(r.finished for r in reports),
        "agree": sum(r.agree for r in reports),
        "honest_replicas": sum(r.honest for r in reports),
        "faults_named": dict(sorted(named.items())),
        "honest_crashes": sum(len(r.crashes) for r in reports),
        "refused_frames": sum(r.refused_frames for r in reports),
        "failed_seeds": [r.seed for r in reports if not r.passed],
    }


__all__ = ["FRAME_ATTACKS", "GameReport", "games", "run_game", "summarize"]
