"""Run games over the simulated network and judge them: did every honest replica finish, agree, keep
every hand it held sealed, name the right cheater and no honest seat, and never crash?"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from p2pcards import games
from p2pcards.games import ActionError
from p2pcards.games.rng import Rng
from p2pcards.harness.byzantine import (
    ACCIDENTS,
    EXPECTED_FAULT,
    FRAME_ATTACKS,
    REFUSED,
    ByzantineTable,
)
from p2pcards.harness.network import Faults, SimNetwork
from p2pcards.harness.pipe_table import PipeTable
from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis, GenesisError, make_genesis
from p2pcards.table.protocol import Replica
from p2pcards.table.replica import Table
from p2pcards.wire import SIGNATURE_TAG, Envelope, encode, key_from_seed, public_bytes, sign

CHEAT_KINDS = frozenset({"equivocation", "bad-message", "bad-proof", "illegal-action", "renege"})
WEAK_KEY = bytes([1]) + bytes(31)
"""A small-order Ed25519 point: with it as a seat's key, anyone could sign as that seat."""


Raw = bytes
"""(The report counts ``bytes`` sent, which hides the type's name inside the class.)"""


@dataclass(frozen=True)
class SeatEnd:
    """One honest replica at the end of a game, as the judge saw it."""

    piped: bool
    digest: Raw
    over: bool
    abandoned: bool
    stopped: tuple[int, str] | None
    sealed: int
    named: tuple[tuple[int, str], ...]
    """Every (seat, kind) of its verdicts, sorted (``return`` left out: it is no verdict on anyone)."""
    out: tuple[int, ...]
    left_behind: bool
    moves: int
    """Moves its player made (taken by the replica)."""
    told: tuple[tuple[int, ...], ...]
    """The voters of every ``told`` it said (others went on without it)."""
    step: int = 0
    verdicts: tuple[tuple[int, str, int, str], ...] = ()
    """(seat, kind, step, message) of every verdict it holds."""
    last: str = ""
    """For a piped seat: the last command it was sent and what it answered."""
    stderr: str = ""
    """For a piped seat: the end of its standard error (raw: shown only made safe)."""


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
    """Each honest replica's verdicts (``seat N kind`` joined by ``; ``, or ``ok``)."""
    named: list[int] = field(default_factory=list)
    crashes: list[str] = field(default_factory=list)
    refused_frames: int = 0
    frames: int = 0
    bytes: int = 0
    hands: int = 0
    hands_after_leave: int = 0
    returns: int = 0
    void_hands: int = 0
    sealed_lost: int = 0
    honest_convicted: list[str] = field(default_factory=list)
    sim_ms: int = 0
    genesis_refused: str = ""
    probes: int = 0
    """Illegal moves demanded of piped seats (each refused, or a problem)."""
    unreached: list[str] = field(default_factory=list)
    """Cheats the game never gave the chance for: the run says nothing about them."""
    restarted: list[int] = field(default_factory=list)
    """Piped seats whose program was killed and started again from its journal."""
    left: int | None = None
    """The seat that left the table for good (the ``leave`` fault), if one did."""
    refusals: dict[int, dict[str, int]] = field(default_factory=dict)
    """Per piped seat, how often it refused a frame, by ``SEAT:REASON`` (``closed``: it closed the link)."""
    problems: list[str] = field(default_factory=list)
    ends: dict[int, SeatEnd] = field(default_factory=dict, repr=False)
    """How each honest replica present at the end ended (the conformance judge compares a piped
    seat's with ours)."""
    game_id: Raw = field(default=b"", repr=False)
    journals: dict[int, list[Raw]] = field(default_factory=dict, repr=False)
    """Every seat's journal at the end of the game (what each table told its shell to persist)."""
    replicas: dict[int, Any] = field(default_factory=dict, repr=False)
    """Our honest replicas at the end (their match, every hand they played): what the conformance cases
    look in for the rare situation a case is about."""

    @property
    def passed(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        keys = (
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
            "hands_after_leave",
            "returns",
            "void_hands",
            "sealed_lost",
            "honest_convicted",
            "sim_ms",
            "genesis_refused",
            "problems",
        )
        return {k: getattr(self, k) for k in keys} | {
            "byzantine": {str(k): v for k, v in self.byzantine.items()},
            "passed": self.passed,
        }


def _identity_seeds(n: int, seed: int) -> list[bytes]:
    return [Rng(f"harness/{seed}/id/{i}").next64().to_bytes(8, "big") * 4 for i in range(n)]


def _identities(n: int, seed: int) -> list[Any]:
    return [key_from_seed(s) for s in _identity_seeds(n, seed)]


def _foreign_message(game: str, n: int, seed: int, seat: int, identities: list[Any]) -> bytes:
    """A correctly signed message of the same seat in *another* game (same players, other nonce)."""
    other = make_genesis(
        game, [(f"seat {i}", public_bytes(k)) for i, k in enumerate(identities)], nonce=b"another table"
    )
    env = Envelope(
        game_id=other.game_id, step=0, seat=seat, prev=bytes(32), kind="genesis", body=other.encode()
    )
    return sign(env, identities[seat]).data


def _attack_message(
    behaviour: str, genesis: Genesis, n: int, seed: int, seat: int, identities: list[Any]
) -> bytes:
    """The one message a frame attacker sends (BYZANTINE.md), for those that send a message: each breaks
    exactly one check of WIRE.md §7 and passes the ones before it."""
    if behaviour == "foreign":
        return _foreign_message(genesis.game, n, seed, seat, identities)
    key = identities[seat]
    if behaviour == "forged":
        env = Envelope(game_id=genesis.game_id, step=0, seat=seat, prev=bytes(32), kind="genesis",
                       body=genesis.encode())
        signed = sign(env, key)
        return encode([signed.raw, bytes([signed.signature[0] ^ 1]) + signed.signature[1:]])
    kind, body = ("teleport", b"") if behaviour == "unknown-kind" else ("action", b"x" * 5_000)
    if behaviour in ("unknown-kind", "kind-too-large"):
        # Signed by hand: ``sign`` refuses what a receiver would refuse.
        env = Envelope(game_id=genesis.game_id, step=0, seat=seat, prev=bytes(32), kind=kind, body=body)
        raw = env.encode()
        return encode([raw, key.sign(SIGNATURE_TAG + raw)])
    return b""


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
    pipe: dict[int, str] | None = None,
    crash_seat: int | None = None,
    probe_illegal: bool = False,
    away_seat: int | None = None,
) -> GameReport:
    """One game between ``peers`` seats; seats in ``byzantine`` cheat (or crash, or leave) as named.

    Seats in ``pipe`` are run by another program, the command given, through the harness pipe
    (``protocol/HARNESS.md``); ``crash_seat`` is who the ``crash`` fault kills; ``away_seat``, a piped
    seat, goes away for a while and comes back as the ``return`` behaviour does.  With
    ``probe_illegal``, every turn of a piped seat first demands a move the rules forbid there (one
    legal elsewhere in the game), which it must refuse without sending anything."""
    pipe = dict(pipe or {})
    pipes: dict[int, PipeTable] = {}
    try:
        return _run_game(
            game, peers, seed, faults, fault_spec, byzantine, dealer, options, pipe, pipes, crash_seat,
            probe_illegal, away_seat,
        )
    finally:
        for table in pipes.values():
            table.close()


def _run_game(
    game: str,
    peers: int,
    seed: int,
    faults: Faults | None,
    fault_spec: str,
    byzantine: dict[int, str] | None,
    dealer: str,
    options: dict[str, Any] | None,
    pipe: dict[int, str],
    pipes: dict[int, PipeTable],
    crash_seat: int | None,
    probe_illegal: bool,
    away_seat: int | None,
) -> GameReport:
    faults = faults if faults is not None else Faults.parse(fault_spec)
    byzantine = dict(byzantine or {})
    for seat, behaviour in byzantine.items():
        if behaviour == "zero-key" and seat != peers - 1:
            raise ValueError(
                f"zero-key needs the last seat ({peers - 1}): keys that cancel out can only come from a "
                "table where every seat colludes, and the replicas name the last key holder"
            )
    identities = _identities(peers, seed)
    opts = dict(options or {})
    keys = [public_bytes(k) for k in identities]
    for seat, behaviour in byzantine.items():
        if behaviour == "weak-key":
            keys[seat] = WEAK_KEY
    try:
        genesis = make_genesis(
            game,
            [(f"seat {i}", key) for i, key in enumerate(keys)],
            options=opts,
            dealer=dealer,
            seed=seed if dealer == "seeded" else 0,
            nonce=seed.to_bytes(8, "big"),
            timeout_ms=10_000,
        )
    except GenesisError as exc:
        if "weak-key" not in byzantine.values():
            raise
        return _refused(game, seed, peers, fault_spec, byzantine, str(exc))
    rng = Rng(f"harness/{game}/{seed}")
    source_rng = rng.fork("secrets")

    def source(n: int) -> bytes:  # reproducible secrets: a run replays exactly from its seed
        return b"".join(source_rng.next64().to_bytes(8, "big") for _ in range((n + 7) // 8))[:n]

    table_behaviour = {s: b for s, b in byzantine.items() if b not in FRAME_ATTACKS}
    frame_attacker = next(((s, b) for s, b in byzantine.items() if b in FRAME_ATTACKS), None)
    net_ref: list[SimNetwork] = []

    def oracle(hand: int, start_head: bytes, seat: int) -> int | None:
        """Every other seat's hand key, for a cheater that colludes with all of them (``zero-key``)."""
        table = net_ref[0].peers[seat].table
        secrets = table.secrets if isinstance(table, Table) else None
        return None if secrets is None else int(secrets.hand_key(hand, start_head))

    seeds = _identity_seeds(peers, seed)
    incarnations: Counter[int] = Counter()

    def make_table(seat: int, secrets: dict[str, bytes]) -> Table | PipeTable:
        if seat in pipe:
            if seat in pipes:
                pipes.pop(seat).kill()  # a crash, or a restart from its journal: the old run is over
            incarnations[seat] += 1
            pipes[seat] = PipeTable(
                genesis,
                seat,
                pipe[seat],
                identity_seed=seeds[seat],
                entropy=hashlib.sha256(f"harness/{seed}/entropy/{seat}/{incarnations[seat]}".encode()).digest(),
                secrets=secrets,
            )
            if seat == away_seat:
                pipes[seat].behaviour = "return"  # the network takes it away and brings it back
            return pipes[seat]
        if seat in table_behaviour:
            return ByzantineTable(
                genesis,
                seat,
                identities[seat],
                source=source,
                secrets=secrets,
                behaviour=table_behaviour[seat],
                rng=rng.fork(f"byz{seat}"),
                oracle=oracle,
            )
        return Table(genesis, seat, identities[seat], source=source, secrets=secrets)

    choosers = [rng.fork(f"choose{s}") for s in range(peers)]

    seen_legal: set[str] = set()
    probes: list[str] = []

    def choose(seat: int, legal: list[str]) -> str:
        seen_legal.update(legal)
        if probe_illegal and seat in pipes:
            illegal = sorted(seen_legal - set(legal))
            if illegal:
                probes.append(illegal[0])
                try:
                    pipes[seat].local_action(illegal[0])
                except ActionError:
                    pass
                else:
                    pipes[seat].accepted_illegal.append(illegal[0])
        return choosers[seat].choice(legal)

    honest = frozenset(s for s in range(peers) if s not in byzantine or byzantine[s] in ACCIDENTS)
    foreign = _attack_message(frame_attacker[1], genesis, peers, seed, frame_attacker[0], identities) \
        if frame_attacker else b""
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
        crash_seat=crash_seat,
    )
    net_ref.append(net)
    net.run()
    report = _judge(genesis, net, seed, fault_spec, byzantine, honest)
    report.game_id = genesis.game_id
    report.journals = {p.seat: list(p.journal) for p in net.peers}
    report.replicas = {s: net.peers[s].table for s, e in report.ends.items() if not e.piped}
    _judge_pipes(report, pipes, probes, probe_illegal)
    report.restarted = sorted(s for s, k in incarnations.items() if k > 1)
    for seat in sorted(pipes):
        events = net.peers[seat].events
        refused = Counter(f"{e.peer}:{e.reason}" for e in events if isinstance(e, out.Rejected))
        report.refusals[seat] = dict(sorted(refused.items()))
    report.left = net.left
    return report


def _judge_pipes(report: GameReport, pipes: dict[int, PipeTable], probes: list[str], probe: bool) -> None:
    """What only a seat run by another program can get wrong: the pipe, and its own moves."""
    failures = [f"seat {seat} (piped) failed: {t.failed}" for seat, t in sorted(pipes.items()) if t.failed]
    report.problems[:0] = failures
    for seat, table in sorted(pipes.items()):
        for error in table.errors:
            report.problems.append(f"seat {seat} (piped) answered error: {error}")
        for text in table.accepted_illegal:
            report.problems.append(f"seat {seat} (piped) took the illegal move {text!r}")
        for text in table.sent_on_refusal:
            report.problems.append(f"seat {seat} (piped) refused {text!r} but sent a message for it")
        for command in table.sent_before_persist:
            report.problems.append(f"seat {seat} (piped) journaled a message it had already sent (SPEC §13), "
                                   f"answering {command}")
    report.probes = len(probes)
    if probe and pipes and not probes:
        report.problems.append("no illegal move could be demanded (no turn offered one)")


def _refused(
    game: str, seed: int, peers: int, fault_spec: str, byzantine: dict[int, str], why: str
) -> GameReport:
    """The genesis itself was refused: no honest peer signs it, so no game starts (and none is lost)."""
    rep = GameReport(
        game,
        seed,
        peers,
        fault_spec,
        byzantine,
        finished=True,
        agree=True,
        honest=sum(1 for s in range(peers) if s not in byzantine),
        genesis_refused=why,
    )
    rep.verdicts = ["refused genesis"] * rep.honest
    return rep


def _describe(t: Replica) -> str:
    if t.stopped is not None:
        return f"stopped: seat {t.stopped.seat} {t.stopped.kind}"
    named = sorted({(f.seat, f.kind) for f in t.verdicts if f.kind != "return"})
    return "; ".join(f"seat {s} {k}" for s, k in named) or "ok"


def _judge(
    genesis: Genesis,
    net: SimNetwork,
    seed: int,
    fault_spec: str,
    byzantine: dict[int, str],
    honest: frozenset[int],
) -> GameReport:
    present = sorted(s for s in honest if not net.peers[s].gone)
    rep = GameReport(
        genesis.game,
        seed,
        net.n,
        fault_spec,
        byzantine,
        honest=len(present),
        frames=net.frames,
        bytes=net.bytes,
        sim_ms=net.now,
    )
    tables = [net.peers[s].table for s in present]
    rep.finished = all(t.over or t.stopped is not None for t in tables)
    digests = {s: net.peers[s].table.digest() for s in present}
    # Replicas that ended the match by their own word (half the table or fewer: unconfirmed) bind
    # nobody and need not agree with anyone; every other honest replica must.
    rep.agree = len({digests[s] for s in present if not net.peers[s].table.abandoned}) <= 1
    rep.ends = {s: _seat_end(net.peers[s], digests[s]) for s in present}
    rep.hands = max((len(t.hands_played) for t in tables), default=0)
    rep.hands_after_leave = max(0, rep.hands - net.left_at_hand) if net.left is not None else 0
    rep.returns = int(net.returned)
    rep.void_hands = max(
        (sum(isinstance(e, out.HandVoid) for e in net.peers[s].events) for s in present), default=0
    )
    for s in present:
        p = net.peers[s]
        t = p.table
        rep.verdicts.append(_describe(t))
        rep.crashes += [f"seat {s}: {e}" for e in p.errors]
        rep.refused_frames += sum(1 for e in p.events if isinstance(e, out.Rejected)) + sum(
            p.frame_errors.values()
        )
        net._check_sealed(p)
        if p.lost_sealed:
            rep.sealed_lost += 1
        for f in t.verdicts:
            if f.kind in CHEAT_KINDS and f.seat in honest:
                rep.honest_convicted.append(f"seat {s} named seat {f.seat} {f.kind}")
    rep.named = sorted({f.seat for t in tables for f in t.verdicts if f.kind in CHEAT_KINDS})
    excluded = _excluded_by_majority(net, present, byzantine)
    if not rep.finished and not excluded:
        waiting = sorted({s for t in tables for s in t.waiting_for})
        rep.problems.append(f"not finished after {net.now} ms (waiting for seats {waiting})")
    if not rep.agree:
        rep.problems.append("honest replicas disagree: " + ", ".join(rep.verdicts))
    if rep.crashes:
        rep.problems.append(f"{len(rep.crashes)} errors in honest peers: {rep.crashes[0]}")
    if rep.sealed_lost:
        rep.problems.append(f"{rep.sealed_lost} honest replicas lost a hand they held sealed")
    if rep.honest_convicted:
        rep.problems.append("an honest seat was named a cheater: " + rep.honest_convicted[0])
    for seat, behaviour in sorted(byzantine.items()):
        table = net.peers[seat].table
        cheated = getattr(table, "cheated", False)
        if behaviour in REFUSED or behaviour in ACCIDENTS:
            continue
        if behaviour in FRAME_ATTACKS:
            attributed = sum(
                1
                for s in present
                if net.peers[s].frame_errors.get(seat)
                or any(isinstance(e, out.Rejected) and e.peer == seat for e in net.peers[s].events)
            )
            if attributed < len(present):
                rep.problems.append(
                    f"the {behaviour} frames of seat {seat} were not refused by every honest peer"
                )
            continue
        expected = EXPECTED_FAULT.get(behaviour)
        if expected is None:
            continue
        if not cheated:
            rep.unreached.append(f"seat {seat} never had the chance to {behaviour}")
            continue  # the chance to cheat never came (e.g. no renege possible in this deal)
        if behaviour == "equivocate" and not net.twin_delivered:
            rep.unreached.append(f"seat {seat}'s second message reached no honest peer")
            continue  # the second message was lost before any honest peer saw it: nothing to detect
        wrong = [
            i
            for i, t in enumerate(tables)
            if not any(f.seat == seat and f.kind in expected for f in t.verdicts)
            and not (t.stopped is not None and t.stopped.seat == seat and t.stopped.kind in expected)
        ]
        if wrong:
            rep.problems.append(
                f"seat {seat} ({behaviour}) should be named for {'/'.join(expected)} by every "
                f"honest replica; verdicts: {', '.join(rep.verdicts)}"
            )
    return rep


def _seat_end(p: Any, digest: bytes) -> SeatEnd:
    t = p.table
    stopped = None if t.stopped is None else (t.stopped.seat, t.stopped.kind)
    return SeatEnd(
        piped=isinstance(t, PipeTable),
        digest=digest,
        over=t.over,
        abandoned=t.abandoned,
        stopped=stopped,
        sealed=len(t.hands_played),
        named=tuple(sorted({(f.seat, f.kind) for f in t.verdicts if f.kind != "return"})),
        out=tuple(sorted(t.seats_out)),
        left_behind=t.left_behind,
        moves=p.moves,
        told=tuple(tuple(e.voters) for e in p.events if isinstance(e, out.VotesContradicted)),
        step=t.chain.step,
        verdicts=tuple((f.seat, f.kind, f.step, f.message) for f in t.verdicts if f.kind != "return"),
        last=f"{t.last_command} → {t.last_answer}" if isinstance(t, PipeTable) else "",
        stderr=t.stderr_tail() if isinstance(t, PipeTable) else "",
    )


def _excluded_by_majority(net: SimNetwork, present: list[int], byzantine: dict[int, str]) -> bool:
    """A dishonest majority that votes an honest seat silent at steps it played can stop playing with
    it — and nothing more: that seat's replica refuses the votes (its log contradicts them) and says
    who cast them.  Then the honest seat cannot finish; it must have reported every voter."""
    framers = sorted(s for s, b in byzantine.items() if b == "frame-majority")
    if 2 * len(framers) <= net.n:
        return False
    return all(
        any(
            isinstance(e, out.VotesContradicted) and set(framers) <= set(e.voters)
            for e in net.peers[s].events
        )
        for s in present
    )


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
        "honest_convicted": sum(len(r.honest_convicted) for r in reports),
        "sealed_hands_lost": sum(r.sealed_lost for r in reports),
        "hands_after_leave": sum(r.hands_after_leave for r in reports),
        "returns_admitted": sum(r.returns for r in reports),
        "void_hands": sum(r.void_hands for r in reports),
        "refused_frames": sum(r.refused_frames for r in reports),
        "failed_seeds": [r.seed for r in reports if not r.passed],
    }


__all__ = ["FRAME_ATTACKS", "GameReport", "games", "run_game", "summarize"]
