"""``p2pcards verify JOURNAL``: check a whole game from one peer's journal.

Any peer's journal holds every accepted message of the game, signed.  An observer replica (a
``Table`` with no seat) replays it from the genesis and checks everything an honest seat checks:
signatures, the hash chain, every proof of shuffle and every decryption share, every move, and the
full-information audit at the end of each hand.  What it reaches is what every honest replica
reached, so the verdict does not depend on whose journal is read.

Exit status: 0 if everything verifies (a game still in progress included), 1 if a fault, a failed
audit, a refused message or a gap in the log was found, 2 on bad input (no such file, not a journal,
damage that is not a crash's torn tail, no genesis).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.progress import Progress

from p2pcards import store, wire
from p2pcards.cli.common import UsageError, print_json
from p2pcards.games import AuditResult, HandState
from p2pcards.store import journal as journal_file
from p2pcards.table import outputs as out
from p2pcards.table.genesis import Genesis, GenesisError
from p2pcards.table.replica import Table


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "verify",
        help="check a game's journal: signatures, proofs, every move, the audits",
        description=(
            "Replay a game's journal as an observer and check every signature, proof, move and "
            "end-of-hand audit. Exit status: 0 verified, 1 a fault or failed check, 2 bad input."
        ),
    )
    p.add_argument(
        "journal", metavar="JOURNAL",
        help="a journal file, a game directory holding one, or a saved game's id (or a prefix of it)",
    )
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.set_defaults(run=run)


# ============================================================================ the report


@dataclass(frozen=True)
class HandVerdict:
    hand: int
    summary: str
    audit: AuditResult


@dataclass
class Report:
    journal: Path
    genesis: Genesis
    records: int
    torn: journal_file.TornTail | None
    hands: list[HandVerdict] = field(default_factory=list)
    fault: out.Fault | None = None
    refused: list[out.Rejected] = field(default_factory=list)
    finished: bool = False
    match: str | None = None
    step: int = 0
    waiting_for: tuple[int, ...] = ()
    unplaced: int = 0
    """Records for steps after the one the log stops at, with no fault to explain it: a gap."""
    void: list[int] = field(default_factory=list)
    """Hands that were finished but are void: a fault found later (equivocation, a void vote)
    lies at an earlier step, and the log is cut there."""

    @property
    def failed_audits(self) -> list[HandVerdict]:
        return [h for h in self.hands if not h.audit.ok]

    @property
    def ok(self) -> bool:
        return self.fault is None and not self.failed_audits and not self.refused and not self.unplaced

    def problems(self) -> list[str]:
        found = []
        if self.fault is not None:
            found.append(f"seat {self.fault.seat} at fault ({self.fault.kind})")
        if self.failed_audits:
            found.append(f"{len(self.failed_audits)} failed audit(s)")
        if self.refused:
            found.append(f"{len(self.refused)} refused record(s)")
        if self.unplaced:
            found.append(f"{self.unplaced} record(s) after a gap in the log")
        return found


def verify(path: Path, scan: journal_file.Scan, *, progress: bool = False) -> Report:
    """Replay ``scan`` (the journal at ``path``) as an observer and gather the verdicts."""
    genesis = find_genesis(scan.payloads, path)
    report = Report(path, genesis, len(scan.payloads), scan.torn)
    table = Table(genesis, None, None)
    events = table.restore(_with_progress(scan.payloads, progress))
    summaries: dict[int, str] = {}
    for event in events:
        if isinstance(event, out.HandOver):
            summaries[event.hand] = event.summary
        elif isinstance(event, out.MatchOver):
            report.match = event.summary
        elif isinstance(event, out.Rejected):
            report.refused.append(event)
    # The table's own record of hands is the truth: a verdict on an earlier step (equivocation
    # found late, a void vote) cuts the log back and voids the hands after it.
    for number, (state, audit) in enumerate(table.hands_played):
        report.hands.append(HandVerdict(number, summaries.get(number) or _summary(state), audit))
    report.void = sorted(n for n in summaries if n >= len(table.hands_played))
    report.fault = table.fault
    report.finished = table.over
    report.step = table.chain.step
    report.waiting_for = table.waiting_for
    if report.fault is None and not report.finished:
        report.unplaced = sum(1 for step in _steps(scan.payloads) if step > report.step)
    return report


def find_genesis(payloads: list[bytes], path: Path) -> Genesis:
    """The game's genesis: the body of a step-0 ``genesis`` message whose hash is its game id (the
    seat's own comes first; another seat's will do if that one was damaged)."""
    why = "the journal is empty"
    for payload in payloads:
        try:
            msg = wire.SignedMessage.from_bytes(payload)
        except wire.WireError as exc:
            why = f"its first message cannot be read ({exc})"
            continue
        if msg.kind != "genesis" or msg.step != 0:
            break  # genesis messages open the log; past them there is none to find
        if not isinstance(msg.body, bytes):
            why = "a genesis message does not carry the genesis"
            continue
        try:
            genesis = Genesis.decode(msg.body)
        except GenesisError as exc:
            why = f"its genesis cannot be read ({exc})"
            continue
        if genesis.game_id == msg.game_id:
            return genesis
        why = "its genesis does not match the game id its messages carry"
    raise UsageError(f"{path}: no usable genesis: {why}")


def _steps(payloads: Iterable[bytes]) -> Iterator[int]:
    for payload in payloads:
        try:
            msg = wire.SignedMessage.from_bytes(payload)
        except wire.WireError:
            continue  # refused during the replay already, and counted there
        if msg.kind not in wire.TRANSPORT_KINDS:
            yield msg.step


def _summary(state: HandState) -> str:
    result = state.result
    summary = getattr(result, "summary", None)
    return str(summary()) if callable(summary) else str(result)


def _with_progress(payloads: list[bytes], shown: bool) -> Iterator[bytes]:
    with Progress(disable=not shown, transient=True) as progress:
        task = progress.add_task("verifying", total=len(payloads))
        for payload in payloads:
            yield payload
            progress.advance(task)


# ============================================================================ the command


def resolve(argument: str) -> Path:
    """The journal file meant by ``argument``: a file, a game directory, or a stored game's id."""
    path = Path(argument).expanduser()
    if path.is_dir():
        candidate = path / "journal"
        if not candidate.is_file():
            raise UsageError(f"{path} is a directory without a journal file in it")
        return candidate
    if path.exists():
        return path
    prefix = argument.strip().lower()
    if len(prefix) >= 6 and all(c in "0123456789abcdef" for c in prefix):
        matches = [g for g in store.saved_games() if g.hex().startswith(prefix)]
        if len(matches) == 1:
            return store.paths.journal_path(matches[0])
        if len(matches) > 1:
            raise UsageError(f"{argument!r} matches {len(matches)} saved games; give more of the id")
    raise UsageError(f"no such file or directory: {argument}")


def read_journal(path: Path) -> journal_file.Scan:
    try:
        return journal_file.read(path)
    except FileNotFoundError:
        raise UsageError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise UsageError(f"{path} is a directory, not a journal") from None
    except store.JournalCorrupt as exc:
        raise UsageError(f"{exc}; this is not what a crash leaves, and cannot be repaired") from None
    except store.StoreError as exc:
        raise UsageError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    path = resolve(args.journal)
    scan = read_journal(path)
    report = verify(path, scan, progress=not args.json and sys.stderr.isatty())
    if args.json:
        print_json(as_json(report))
    else:
        print_text(report)
    return 0 if report.ok else 1


def _audit_text(audit: AuditResult) -> str:
    if audit.ok:
        return "audit passed"
    return f"AUDIT FAILED: seat {audit.seat} broke {audit.rule} at move {audit.step}: {audit.message}"


def _refused_text(refused: list[out.Rejected]) -> str:
    counts = Counter(r.reason for r in refused)
    return ", ".join(f"{reason} x{n}" if n > 1 else reason for reason, n in sorted(counts.items()))


def print_text(r: Report) -> None:
    g = r.genesis
    print(f"journal  {r.journal} ({r.records} records)")
    if r.torn is not None:
        print(f"         note: {r.torn}; ignored")
    print(f"game     {g.game}, {len(g.seats)} seats, {g.dealer} dealer, id {g.game_id.hex()}")
    for i, seat in enumerate(g.seats):
        print(f"seat {i}   {seat.name}  {wire.fingerprint(seat.key)}")
    for h in r.hands:
        lines = h.summary.splitlines() or [""]
        print(f"hand {h.hand}   {lines[0]}")
        for line in lines[1:]:
            print(f"         {line}")
        print(f"         {_audit_text(h.audit)}")
    for n in r.void:
        print(f"hand {n}   void: it was played out, but the fault below lies before its end")
    if r.fault is not None:
        print(f"fault    {r.fault.describe()}")
    if r.refused:
        print(f"refused  {len(r.refused)} record(s): {_refused_text(r.refused)}")
        for rej in r.refused:
            print(f"         - {rej.reason}{': ' + rej.detail if rej.detail else ''}")
    if r.unplaced:
        print(f"gap      {r.unplaced} record(s) are for steps after step {r.step}, where the log stops")
    if r.finished:
        print(f"match    finished: {r.match}")
    elif r.fault is not None:
        print(f"match    stopped at step {r.fault.step} by the fault")
    else:
        waiting = ", ".join(str(s) for s in r.waiting_for) or "nobody"
        print(f"match    not finished: the log stops at step {r.step} (waiting for seat {waiting})")
    if r.ok:
        print("verdict  OK: every signature, proof, move and audit checks out")
    else:
        print(f"verdict  FAILED: {'; '.join(r.problems())}")


def as_json(r: Report) -> dict[str, Any]:
    g = r.genesis
    return {
        "journal": str(r.journal),
        "records": r.records,
        "torn": None if r.torn is None else {
            "offset": r.torn.offset, "size": r.torn.size, "reason": r.torn.reason,
        },
        "game": g.game,
        "game_id": g.game_id.hex(),
        "options": dict(g.options),
        "dealer": g.dealer,
        "seats": [
            {"seat": i, "name": s.name, "key": s.key.hex(), "fingerprint": wire.fingerprint(s.key)}
            for i, s in enumerate(g.seats)
        ],
        "hands": [
            {
                "hand": h.hand,
                "summary": h.summary,
                "audit": {
                    "ok": h.audit.ok,
                    "seat": h.audit.seat,
                    "rule": h.audit.rule,
                    "move": h.audit.step,
                    "message": h.audit.message,
                },
            }
            for h in r.hands
        ],
        "void_hands": r.void,
        "fault": None if r.fault is None else {
            "seat": r.fault.seat, "kind": r.fault.kind, "step": r.fault.step, "message": r.fault.message,
        },
        "refused": {
            "count": len(r.refused),
            "reasons": dict(sorted(Counter(x.reason for x in r.refused).items())),
            "records": [{"reason": x.reason, "detail": x.detail} for x in r.refused],
        },
        "unplaced": r.unplaced,
        "finished": r.finished,
        "match": r.match,
        "step": r.step,
        "waiting_for": list(r.waiting_for),
        "ok": r.ok,
        "problems": r.problems(),
    }
