"""``p2pcards verify JOURNAL``: check a whole game from one peer's journal.

Any peer's journal holds every accepted message of the game, signed.  An observer replica (a
``Table`` with no seat) replays it from the genesis and checks everything an honest seat checks:
signatures, the hash chain, every proof of shuffle and every decryption share, every move, the
full-information audit at the end of each hand and every seat's seal on it.  What it reaches is what
every honest replica reached, so the verdict does not depend on whose journal is read.

What it says of the game: finished (every hand sealed by every seat still playing, the last one
ending the match), abandoned (the players left ended it while half the table or more was silent),
unfinished (the log stops in the middle of a hand), or truncated (the log stops exactly at a hand's
seal, the match not over: the journal may have been cut).  And every verdict: hands dealt again
after a cheater was named or a seat voted silent, seats out, votes that contradict the log.

Exit status (``EXIT``): 0 a true record, nobody convicted (a game still in progress included); 3 a
true record that convicts: a cheater named, or votes that contradict the log; 1 not a true record, or
not a whole one: a record refused (forged, of another game, a transport message), a record missing (a
gap), the journal cut at a seal or damaged inside, or the game stopped by a fault nobody can be blamed
for; 2 bad input (no such file, not a journal, no game record, no genesis).  So a script tells "this
game caught a cheater" (3) from "this journal cannot be trusted" (1).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
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
from p2pcards.text import shown

CHEATS = ("equivocation", "bad-message", "bad-proof", "illegal-action", "renege")
EXIT_TRUE, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_CONVICTS = 0, 1, 2, 3


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "verify",
        help="check a game's journal: signatures, proofs, every move, the audits, the seals",
        description=(
            "Replay a game's journal as an observer and check every signature, proof, move, "
            "end-of-hand audit and seal. Exit status: 0 a true record, nobody convicted; 3 a true record "
            "that convicts a seat (a cheater named, votes that contradict the log); 1 verification failed "
            "(a refused or missing record, a journal cut at a seal or damaged); 2 bad input."
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
    """Counted from 0 in the protocol; people see ``hand + 1``."""
    summary: str
    audit: AuditResult
    sealed_by: tuple[int, ...] = ()
    dealt_again: int = 0
    """How many times the hand was dealt again before this deal was played to its end."""


@dataclass(frozen=True)
class Contradiction:
    """A vote that ``voter`` cast at ``step`` naming ``named`` silent, although the log holds a
    message of a named seat for that very step: the vote contradicts the log."""

    voter: int
    step: int
    named: tuple[int, ...]


@dataclass
class Report:
    journal: Path
    genesis: Genesis
    records: int
    torn: journal_file.TornTail | None
    hands: list[HandVerdict] = field(default_factory=list)
    verdicts: list[out.Fault] = field(default_factory=list)
    seats_out: dict[int, str] = field(default_factory=dict)
    refused: list[out.Rejected] = field(default_factory=list)
    contradictions: list[Contradiction] = field(default_factory=list)
    words: list[Contradiction] = field(default_factory=list)
    """Every abandon the journal holds: a seat's own word, going on without others (SPEC §6.2)."""
    seat: int | None = None
    """The seat whose journal this is (the signer of its first genesis message), if it says."""
    status: str = "unfinished"
    """``finished``, ``abandoned``, ``unfinished``, ``truncated`` or ``stopped``."""
    match: str | None = None
    step: int = 0
    waiting_for: tuple[int, ...] = ()
    unplaced: int = 0
    """Records that fit no step the log reaches: a gap."""
    stopped: out.Fault | None = None
    damaged: str = ""
    """Damage found inside the journal (not a crash's torn tail): what verified is what came before."""

    def consented(self, v: out.Fault) -> bool:
        """Whether ``v`` is half the table's word naming this journal's own voice, which bound it: its
        replica takes a word naming its voice only once that voice consented to it, which a seat
        does by itself while restoring (SPEC §6.5, half and consent)."""
        if v.kind != "silent" or not v.unconfirmed or self.seat is None:
            return False
        runner = self.genesis.runner_of(self.seat)
        return (self.seat if runner is None else runner) in (v.seats or (v.seat,))

    def consented_word(self, w: Contradiction) -> bool:
        """Whether the abandon ``w`` is one of the half-table word this journal's voice consented to."""
        return any(v.step == w.step and w.voter in signers(v) for v in self.verdicts if self.consented(v))

    @property
    def failed_audits(self) -> list[HandVerdict]:
        return [h for h in self.hands if not h.audit.ok]

    @property
    def cheats(self) -> list[out.Fault]:
        return [v for v in self.verdicts if v.kind in CHEATS]

    @property
    def ok(self) -> bool:
        return not self.problems()

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    def name(self, seat: int) -> str:
        return seat_name(self.genesis, seat)

    def problems(self) -> list[str]:
        """Everything that keeps the journal from saying "a true record, nobody convicted"."""
        return self.failures() + self.findings()

    def failures(self) -> list[str]:
        """What makes the journal no true and whole record (exit 1)."""
        found = []
        if self.damaged:
            found.append("the journal is damaged")
        if self.stopped is not None:
            found.append(f"the game stopped: {self.stopped.kind}")
        if self.refused:
            found.append(f"{len(self.refused)} refused record(s)")
        if self.unplaced:
            found.append(f"{self.unplaced} record(s) after a gap in the log")
        if self.status == "truncated":
            found.append("the journal ends at a seal before the end of the match")
        return found

    def findings(self) -> list[str]:
        """What a true record proves against seats (exit 3 when the journal has no failure)."""
        found = [f"{self.name(v.seat)} cheated ({v.kind})" for v in self.cheats]
        if self.failed_audits:
            found.append(f"{len(self.failed_audits)} failed audit(s)")
        # A vote naming a seat whose message the log holds proves nothing against its voter: it may
        # have been cast before the message arrived, and alone it decides nothing (SPEC §6.5).  It
        # is shown (``vote`` lines), never counted against anyone.
        return found

    @property
    def exit_status(self) -> int:
        if self.failures():
            return EXIT_FAILED
        return EXIT_CONVICTS if self.findings() else EXIT_TRUE


def seat_name(genesis: Genesis, seat: int) -> str:
    if 0 <= seat < len(genesis.seats):
        return shown(genesis.seats[seat].name, 40)
    return "nobody" if seat < 0 else f"seat {seat}"


def verify(path: Path, scan: journal_file.Scan, *, progress: bool = False, damaged: str = "") -> Report:
    """Replay ``scan`` (the journal at ``path``) as an observer and gather the verdicts."""
    genesis = find_genesis(scan.payloads, path)
    report = Report(path, genesis, len(scan.payloads), scan.torn, damaged=damaged)
    if scan.game_id is not None and scan.game_id != genesis.game_id:
        report.damaged = "the journal's header names another game than its messages"
    # A journal is read as the seat that kept it (its own genesis message comes first): what that
    # seat's voice decided by itself binds it, and nobody else (``table.decide``).
    report.seat = journal_seat(scan.payloads, genesis)
    table = Table(genesis, None, None, perspective=report.seat)
    events = table.restore(_with_progress(_journaled(scan.payloads, report), progress))
    dealt_again: Counter[int] = Counter()
    for event in events:
        if isinstance(event, out.MatchOver):
            report.match = event.summary
        elif isinstance(event, out.Rejected):
            report.refused.append(event)
        elif isinstance(event, out.HandVoid):
            dealt_again[event.hand] += 1
    for (number, attempt), (state, audit) in zip(table.finals, table.hands_played, strict=True):
        report.hands.append(HandVerdict(number, _summary(state), audit, tuple(sorted(attempt.seals)),
                                        dealt_again[number]))
    report.verdicts = decisions(table.verdicts)
    report.seats_out = table.seats_out
    report.stopped = table.stopped
    report.step = table.chain.step
    report.waiting_for = table.waiting_for
    report.unplaced = table.unplaced.count()
    report.contradictions = contradictions(scan.payloads, genesis)
    report.words = words(scan.payloads, genesis)
    if table.stopped is not None:
        report.status = "stopped"
    elif table.over:
        report.status = "abandoned" if table.abandoned else "finished"
    elif table.finals and table.attempt is not None and not table.attempt.messages():
        report.status = "truncated"
    return report


def decisions(verdicts: Sequence[out.Fault]) -> list[out.Fault]:
    """The verdicts, one per decision: the replica reports an abandon's decision once per seat it
    names (each seat is out on its own), which is one signed fact, so it is said once."""
    kept: list[out.Fault] = []
    seen: set[tuple[Any, ...]] = set()
    for v in verdicts:
        key = (v.kind, v.seats or (v.seat,), v.step, v.hand, v.unconfirmed, v.message)
        if key not in seen:
            seen.add(key)
            kept.append(v)
    return kept


def signers(v: out.Fault) -> tuple[int, ...]:
    """Who signed the claims behind a ``silent`` verdict (the votes, or the abandon), ascending."""
    found = set()
    for data in v.evidence:
        try:
            found.add(wire.SignedMessage.from_bytes(data).seat)
        except wire.WireError:
            continue
    return tuple(sorted(found))


def journal_seat(payloads: Sequence[bytes], genesis: Genesis) -> int | None:
    """The seat whose journal this is: the signer of its first genesis message."""
    for payload in payloads[:1]:
        try:
            msg = wire.SignedMessage.from_bytes(payload)
        except wire.WireError:
            return None
        if msg.kind == "genesis" and msg.game_id == genesis.game_id and 0 <= msg.seat < len(genesis.seats):
            return msg.seat
    return None


def _journaled(payloads: list[bytes], report: Report) -> list[bytes]:
    """The records a replica is fed: a transport message is never journaled (JOURNAL.md §2), so one in
    a journal is refused as a record and not acted on (a catch-up answer would be unpacked)."""
    kept = []
    for payload in payloads:
        kind = journal_file.transport_kind(payload)
        if kind:
            report.refused.append(out.Rejected(None, "not journaled", f"a {kind} is never journaled"))
        else:
            kept.append(payload)
    return kept


def words(payloads: Sequence[bytes], genesis: Genesis) -> list[Contradiction]:
    """The abandons in the journal (signer, step, seats named), in journal order: the same facts
    whichever seat's journal holds them."""
    found = []
    for payload in payloads:
        try:
            msg = wire.SignedMessage.from_bytes(payload)
        except wire.WireError:
            continue
        body = msg.body
        named = body.get("silent") if isinstance(body, dict) else None
        if msg.kind != "abandon" or msg.game_id != genesis.game_id or not isinstance(named, tuple):
            continue
        seats = tuple(s for s in named if isinstance(s, int) and not isinstance(s, bool))
        found.append(Contradiction(msg.seat, msg.step, seats))
    return found


def contradictions(payloads: Sequence[bytes], genesis: Genesis) -> list[Contradiction]:
    """Votes in the journal naming a seat silent at a step whose message from that seat it holds."""
    steps: set[tuple[int, bytes, int]] = set()
    votes: list[wire.SignedMessage] = []
    for payload in payloads:
        try:
            msg = wire.SignedMessage.from_bytes(payload)
        except wire.WireError:
            continue
        if msg.game_id != genesis.game_id:
            continue
        if msg.kind == "void_vote":
            votes.append(msg)
        elif msg.kind not in wire.NON_STEP_KINDS:
            steps.add((msg.step, msg.prev, msg.seat))
    found = []
    for vote in votes:
        body = vote.body
        named = body.get("silent") if isinstance(body, dict) else None
        if not isinstance(named, tuple):
            continue
        seats = tuple(s for s in named if isinstance(s, int) and not isinstance(s, bool))
        if any((vote.step, vote.prev, s) in steps for s in seats):
            found.append(Contradiction(vote.seat, vote.step, seats))
    return found


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


def _summary(state: HandState) -> str:
    result = state.result
    summary = getattr(result, "summary", None)
    return str(summary()) if callable(summary) else str(result)


def _with_progress(payloads: list[bytes], shown_: bool) -> Iterator[bytes]:
    with Progress(disable=not shown_, transient=True) as progress:
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


def read_journal(path: Path) -> tuple[journal_file.Scan, str]:
    """The journal's records, and what damage was found inside it ("" for none): a journal damaged
    in the middle is verified up to the damage, and fails."""
    try:
        scan = journal_file.read(path)
        journal_file.require_game(scan, path)
        return scan, ""
    except FileNotFoundError:
        raise UsageError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise UsageError(f"{path} is a directory, not a journal") from None
    except store.JournalCorrupt as exc:
        partial = exc.before
        if isinstance(partial, journal_file.Scan) and partial.payloads:
            try:
                journal_file.require_game(partial, path)
            except store.StoreError as missing:
                raise UsageError(str(missing)) from None
            return partial, f"{exc}; this is not what a crash leaves, and cannot be repaired"
        raise UsageError(f"{exc}; this is not what a crash leaves, and cannot be repaired") from None
    except store.StoreError as exc:
        raise UsageError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    path = resolve(args.journal)
    scan, damaged = read_journal(path)
    try:
        report = verify(path, scan, progress=not args.json and sys.stderr.isatty(), damaged=damaged)
    except UsageError:
        raise
    except Exception as exc:  # a hostile journal must never end in a traceback
        raise UsageError(f"{path}: the journal could not be replayed: {type(exc).__name__}: {exc}") from None
    if args.json:
        print_json(as_json(report))
    else:
        print_text(report)
    return report.exit_status


def _audit_text(r: Report, audit: AuditResult) -> str:
    if audit.ok:
        return "audit passed"
    who = r.name(audit.seat) if audit.seat is not None else "nobody"
    return f"AUDIT FAILED: {who} broke {audit.rule} at move {audit.step}: {audit.message}"


def _refused_text(refused: list[out.Rejected]) -> str:
    counts = Counter(r.reason for r in refused)
    return ", ".join(f"{reason} x{n}" if n > 1 else reason for reason, n in sorted(counts.items()))


def _with_names(r: Report, text: str) -> str:
    from p2pcards.cli.screen.words import with_names

    return with_names(text, [r.name(i) for i in range(len(r.genesis.seats))])


def _verdict_text(r: Report, v: out.Fault) -> str:
    who = ", ".join(r.name(s) for s in (v.seats or (v.seat,)))
    where = f"hand {v.hand + 1}" if v.hand >= 0 else "before the first hand"
    if r.consented(v):
        assert r.seat is not None
        by, me = ", ".join(r.name(s) for s in signers(v)), r.name(r.seat)
        return (f"{by}, half the table, continued without {who} by their word in {where}, at step {v.step}; "
                f"{me}, whose journal this is, consented to it while restoring, so it binds {me}: out of "
                "that hand, and asking to be dealt in again from the next (unconfirmed for the others named)")
    if v.kind == "silent" and v.unconfirmed:
        # An abandon: its signer's own word, which no vote confirmed; never "voted out" (SPEC §6.5).
        by = ", ".join(r.name(s) for s in signers(v)) or "this seat"
        return (f"{by} continued without {who} by half the table or fewer (unconfirmed: by its own word, "
                f"binding on nobody named) in {where}, at step {v.step}")
    if v.kind == "silent":
        return f"{who} voted out in {where} (silent at step {v.step}): the others went on without them"
    return f"{who} cheated in {where} ({v.kind}, step {v.step}): {shown(v.message, 200)}"


def _consent_text(r: Report) -> str:
    return (f"half the table's word; seat {r.seat}, whose journal this is, consented to it while restoring, "
            "so it binds that seat: out of that hand")


def print_text(r: Report) -> None:
    g = r.genesis
    print(f"journal  {r.journal} ({r.records} records)")
    if r.torn is not None:
        print(f"         note: {r.torn}; ignored")
    if r.damaged:
        print(f"damaged  {r.damaged}")
    print(f"game     {g.game}, {len(g.seats)} seats, {g.dealer} dealer, id {g.game_id.hex()}")
    width = max(len(r.name(i)) for i in range(len(g.seats)))
    for i, seat in enumerate(g.seats):
        runner = g.runner_of(i)
        note = "" if runner is None else f"  (computer player on {r.name(runner)}'s laptop)"
        print(f"{f'seat {i}':<9}{r.name(i):<{width}}  {wire.fingerprint(seat.key)}{note}")
    for h in r.hands:
        lines = _with_names(r, h.summary).splitlines() or [""]
        print(f"hand {h.hand + 1:<3} {lines[0]}")
        for line in lines[1:]:
            print(f"         {line}")
        sealed = ", ".join(r.name(s) for s in h.sealed_by)
        again = f"; dealt {h.dealt_again + 1} times" if h.dealt_again else ""
        print(f"         {_audit_text(r, h.audit)}; sealed by {sealed}{again}")
    for v in r.verdicts:
        print(f"verdict  {_verdict_text(r, v)}")
    for c in r.contradictions:
        named = ", ".join(r.name(s) for s in c.named)
        print(f"vote     {r.name(c.voter)} voted {named} silent at step {c.step}, and the log holds "
              "their message for that step (cast before it arrived, or false: alone it decides nothing)")
    for w in r.words:
        named = ", ".join(r.name(s) for s in w.named)
        if r.consented_word(w) and r.seat is not None:
            me = r.name(r.seat)
            print(f"word     {r.name(w.voter)} went on without {named} at step {w.step} by their word (one "
                  f"of half the table's words: {me} consented to it while restoring, and is bound by it)")
            continue
        print(f"word     {r.name(w.voter)} went on without {named} at step {w.step} by their own word "
              "(half the table or fewer: unconfirmed, binding on nobody named)")
    if r.seats_out:
        out_text = ", ".join(f"{r.name(s)} ({why})" for s, why in sorted(r.seats_out.items()))
        print(f"out      {out_text}")
    if r.refused:
        print(f"refused  {len(r.refused)} record(s): {_refused_text(r.refused)}")
        for rej in r.refused[:20]:
            print(f"         - {rej.reason}{': ' + shown(rej.detail, 120) if rej.detail else ''}")
    if r.unplaced:
        print(f"gap      {r.unplaced} record(s) fit no step the log reaches (step {r.step})")
    print(f"match    {_status_text(r)}")
    if r.ok:
        print("verdict  OK: every signature, proof, move, audit and seal checks out")
    elif r.exit_status == EXIT_CONVICTS:
        print(f"verdict  TRUE RECORD, IT CONVICTS: every record checks out; {'; '.join(r.findings())}")
    else:
        print(f"verdict  FAILED: {'; '.join(r.problems())}")


def _status_text(r: Report) -> str:
    if r.status == "finished":
        return f"finished, sealed by every seat: {_with_names(r, r.match or '')}"
    if r.status == "abandoned":
        standings = _with_names(r, r.match or "")
        return ("abandoned: this seat's side, half the table or fewer, ended it while the others were "
                f"silent (unconfirmed: binding on nobody named); {standings}")
    if r.status == "stopped" and r.stopped is not None:
        return f"stopped before it could go on: {_verdict_text(r, r.stopped)}"
    if r.status == "truncated":
        return (f"truncated after the seal of hand {len(r.hands)}: the match was not over and the journal "
                "holds nothing after that seal (it may have been cut)")
    waiting = ", ".join(r.name(s) for s in r.waiting_for) or "nobody"
    return (f"not finished: hand {len(r.hands) + 1} in progress, the log stops at step {r.step} "
            f"(waiting for {waiting})")


def as_json(r: Report) -> dict[str, Any]:
    g = r.genesis
    return {
        "journal": str(r.journal),
        "records": r.records,
        "torn": None if r.torn is None else {
            "offset": r.torn.offset, "size": r.torn.size, "reason": r.torn.reason,
        },
        "damaged": r.damaged or None,
        "game": g.game,
        "game_id": g.game_id.hex(),
        "options": dict(g.options),
        "dealer": g.dealer,
        "seats": [
            {"seat": i, "name": s.name, "key": s.key.hex(), "fingerprint": wire.fingerprint(s.key),
             "computer_run_by": g.runner_of(i)}
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
                "sealed_by": list(h.sealed_by),
                "dealt_again": h.dealt_again,
            }
            for h in r.hands
        ],
        "verdicts": [
            {"seat": v.seat, "seats": list(v.seats or (v.seat,)), "kind": v.kind, "hand": v.hand,
             "step": v.step, "message": _consent_text(r) if r.consented(v) else v.message,
             "unconfirmed": v.unconfirmed,
             "by": list(signers(v)) if v.kind == "silent" else [], "consented": r.consented(v)}
            for v in r.verdicts
        ],
        "seats_out": {str(s): why for s, why in sorted(r.seats_out.items())},
        "contradicting_votes": [
            {"voter": c.voter, "step": c.step, "named": list(c.named)} for c in r.contradictions
        ],
        "unconfirmed": [
            {"seat": w.voter, "step": w.step, "named": list(w.named), "consented": r.consented_word(w)}
            for w in r.words
        ],
        "refused": {
            "count": len(r.refused),
            "reasons": dict(sorted(Counter(x.reason for x in r.refused).items())),
            "records": [{"reason": x.reason, "detail": x.detail} for x in r.refused],
        },
        "unplaced": r.unplaced,
        "status": r.status,
        "finished": r.finished,
        "match": r.match,
        "step": r.step,
        "waiting_for": list(r.waiting_for),
        "ok": r.ok,
        "exit_status": r.exit_status,
        "problems": r.problems(),
    }
