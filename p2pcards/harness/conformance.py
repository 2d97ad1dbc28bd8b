"""``p2pcards harness conformance``: numbered cases that any implementation of the protocol must pass.

Each case is a scenario of the simulated network: a game, its seats, the network's faults, which
seats cheat and how, and which seats the implementation under test plays, through the harness pipe
(``protocol/HARNESS.md``).  The other seats are our replicas.  The judge is the harness's own
(``run._judge``): every honest replica, the program's included, must finish, agree on the table
digest, keep every hand it held sealed, name the cheater with the verdict the case expects and no
honest seat, and never fail; a case may demand more (an illegal move refused, a crash survived).

A case whose scenario the game never produced (no chance to renege in those deals) is played again
on the next of its seeds; one that never comes to it fails, since it showed nothing.
"""

from __future__ import annotations

import html
import json
import shlex
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from p2pcards.deal import DealError
from p2pcards.deal.keys import KeyAnnouncement
from p2pcards.harness.pipe_table import PeerFailed, PipeTable
from p2pcards.harness.run import WEAK_KEY, GameReport, _identity_seeds, run_game
from p2pcards.table.genesis import make_genesis
from p2pcards.text import shown
from p2pcards.wire import SignedMessage, WireError, encode, key_from_seed, public_bytes

SEEDS = (1, 2, 3, 4, 5)
SHOWN_LINE = 4_000
"""The longest line of the text report (a detail with the program's last words fits)."""


@dataclass(frozen=True)
class Case:
    id: str
    title: str
    must: str
    """What the implementation under test must do, in a sentence."""
    game: str = "durak"
    peers: int = 3
    under: tuple[int, ...] = (0,)
    """The seats the program plays."""
    dealer: str = "mental"
    faults: str = "none"
    byzantine: tuple[tuple[int, str], ...] = ()
    options: tuple[tuple[str, Any], ...] = ()
    crash_seat: int | None = None
    away_seat: int | None = None
    probe_illegal: bool = False
    refusal: str | None = None
    """The reason (SPEC §9.2) with which the program must refuse seat 1's frames; ``closed``: it must
    close the connection (WIRE.md §3)."""
    genesis_edit: str | None = None
    """For a genesis the program must refuse: which rule the harness breaks (``_GENESIS_EDITS``)."""
    seek: str | None = None
    """A rare situation of the rules the case is about (``SITUATIONS``): a game in which our replicas
    never met it shows nothing, and the case plays its next seed."""
    probe: str | None = None
    """For a case played move by move (``conformance_probes``): the probe that stops the game at the
    moment the case is about."""
    seeds: tuple[int, ...] = SEEDS

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "must": self.must,
            "game": self.game,
            "peers": self.peers,
            "under": list(self.under),
            "dealer": self.dealer,
            "faults": self.faults,
            "byzantine": {str(s): k for s, k in self.byzantine},
            "options": dict(self.options),
            "crash_seat": self.crash_seat,
            "away_seat": self.away_seat,
            "probe_illegal": self.probe_illegal,
            "refusal": self.refusal,
            "genesis_edit": self.genesis_edit,
            "probe": self.probe,
            "seek": self.seek,
        }


def _honest(id: str, title: str, **kw: Any) -> Case:
    return Case(id, title, "play to the end and agree on the table digest with every other replica", **kw)


def _convict(id: str, kind: str, verdict: str, **kw: Any) -> Case:
    cheater = dict(kw.get("byzantine", ())).keys()
    seat = next(iter(cheater))
    return Case(
        id,
        f"seat {seat} cheats: {kind}",
        f"name seat {seat} with the verdict {verdict}, as every honest replica does, and play on without it",
        **kw,
    )


def _survive(id: str, kind: str, **kw: Any) -> Case:
    seat = next(iter(dict(kw.get("byzantine", ())).keys()))
    refusal = kw.get("refusal")
    if refusal == "closed":
        how = "close the connection of that seat"
    elif refusal:
        how = f"refuse what that seat sends as {refusal!r}"
    else:
        how = "keep what that seat sends within its bounds (SPEC §11)"
    must = f"{how}, name nobody, and play to the end in agreement"
    return Case(id, f"seat {seat} attacks: {kind}", must, **kw)


CASES: tuple[Case, ...] = (
    # 1 Honest tables: the program plays a whole match with our replicas.
    _honest("1.1.1", "Durak, two seats", peers=2),
    _honest("1.1.2", "Durak, three seats, the program in the middle seat", under=(1,)),
    _honest("1.1.3", "Durak, three seats, the seeded dealer", dealer="seeded"),
    _honest("1.2.1", "Spades, four seats", game="spades", peers=4, under=(2,)),
    _honest("1.3.1", "Azi, three seats", game="azi", peers=3),
    _honest("1.3.2", "Azi, four seats, the program in the last seat", game="azi", peers=4, under=(3,),
            dealer="seeded"),
    _honest("1.4.1", "Durak, two of the three seats run by the program", under=(0, 2)),
    # The variants (GAMES.md): a program that does not play one refuses its genesis and fails here.
    _honest("1.5.1", "transfer Durak (transfer=on), three seats", dealer="seeded",
            options=(("transfer", True),), seeds=(1, 2)),
    _honest("1.5.2", "Durak with the 52-card deck (deck=52), two seats", peers=2,
            options=(("deck", 52),), seeds=(1, 2)),
    _honest("1.5.3", "Spades with blind nil (blind_nil=on): face-down deals, looks and blind nil bids",
            game="spades", peers=4, under=(0,), dealer="seeded",
            options=(("blind_nil", True), ("floor", -1000), ("target", 60)), seeds=(1, 3)),
    # The rules' rare situations: seeds on which our replicas meet it (the first from 1 up, found once;
    # a game that does not come to it shows nothing and the next seed is played).
    _honest("1.6.1", "Spades: a team takes its tenth bag (S13: 100 off, the count starts again)",
            game="spades", peers=4, under=(1,), dealer="seeded", options=(("floor", -1000), ("target", 60)),
            seek="ten-bags", seeds=(19, 22, 23)),
    _honest("1.6.2", "Spades: the teams tie past the floor (S15: the game goes on until one leads)",
            game="spades", peers=4, under=(2,), dealer="seeded", options=(("floor", -100), ("target", 1)),
            seek="tie-at-end", seeds=(17, 44)),
    _honest("1.6.3", "Spades: a team's score comes to the floor exactly (S15: the game ends there)",
            game="spades", peers=4, under=(3,), dealer="seeded", options=(("floor", -100), ("target", 1)),
            seek="at-floor", seeds=(22, 33)),
    _honest("1.6.4", "Azi: an ace is turned up for trump, and the six of trumps on stage takes a trick "
            "(six_on_stage)",
            game="azi", peers=3, under=(1,), dealer="seeded", seek="ace-turned-up", seeds=(55,)),
    _honest("1.6.5", "Azi: a hand ends azi and is played again (A14: the same dealer, the pot carried)",
            game="azi", peers=3, under=(1,), dealer="seeded", seek="azi-replay", seeds=(3,)),
    # Computer players and watchers (played move by move: conformance_probes).
    Case("1.7.1", "seat 2 is a computer run by the program's machine, seat 3 one run by seat 1's",
         "play to the end with the computer players and agree on the sealed hands and the table digest with "
         "every other replica", game="durak", peers=4, dealer="seeded", probe="runs-a-computer"),
    Case("1.7.2", "the program plays a computer seat that seat 1's machine runs",
         "play to the end as a computer player and agree on the sealed hands and the table digest with every "
         "other replica", dealer="seeded", probe="is-a-computer"),
    Case("1.7.3", "Azi: seat 3 runs out of chips and watches; then seat 2 goes silent for good at its turn",
         "play on while a seat watches, count the watcher's vote (SPEC §6.1: it keeps its voice), go on "
         "without seat 2 by the majority of three voices of four, and end as our replica does",
         game="azi", peers=4, dealer="seeded", options=(("bankroll", 100),), probe="watcher-votes"),
    # 2 The program's own moves.
    Case("2.1.1", "an illegal move is demanded at every turn",
         "refuse each move the rules forbid without sending anything, and play the legal one",
         peers=2, probe_illegal=True, dealer="seeded"),
    Case("2.1.2", "an illegal move is demanded at every turn, Spades",
         "refuse each move the rules forbid (a card that does not follow suit, a bid out of turn) "
         "without sending anything", game="spades", peers=4, under=(1,), probe_illegal=True,
         dealer="seeded"),
    # 3 The network.
    _honest("3.1.1", "frames dropped and duplicated", faults="drop,duplicate"),
    _honest("3.1.2", "frames delayed and reordered", game="spades", peers=4, faults="delay,reorder"),
    _honest("3.1.3", "the table splits in two for a while", game="azi", peers=4, faults="partition",
            dealer="seeded"),
    Case("3.2.1", "the program is killed and started again from its journal",
         "come back from its journal and secrets, say nothing different for a step it spoke at, and "
         "finish in agreement", faults="crash", crash_seat=0, options=(("series_hands", 3),)),
    Case("3.2.2", "another seat is killed and started again from its journal",
         "answer its catch-up request and finish in agreement", faults="crash", crash_seat=1,
         options=(("series_hands", 3),), dealer="seeded"),
    Case("3.2.3", "the program moves, is killed, and is restored from a copy of its journal taken before "
         "that move", "sign nothing new until every other seat has answered its catch-up request (SPEC §9.6, "
         "§12): never a second move for a step it already spoke at", dealer="seeded", probe="old-journal"),
    Case("3.3.1", "another seat leaves for good",
         "vote the silent seat out with the majority and play on without it", faults="leave",
         options=(("series_hands", 3),), dealer="seeded"),
    Case("3.3.2", "the program goes away, is voted out, comes back from its journal",
         "catch up, agree that the others went on without it, ask to be dealt in again, and finish in "
         "agreement", away_seat=0, options=(("series_hands", 8),), dealer="seeded"),
    Case("3.3.3", "the program is cut off at its turn; the two other seats vote it out and play on",
         "when it is back, say so (told, with majority), stay left behind and sign nothing for the game "
         "until its person agrees (SPEC §6.5: consent names a decision)", dealer="seeded", probe="voted-out"),
    Case("3.4.1", "every fault at once", "finish in agreement, whatever the network does",
         game="spades", peers=4, faults="all"),
    # 4 Cheaters: the program must convict, as every honest replica does.
    _convict("4.1.1", "two different moves for one step (equivocation)", "equivocation", under=(2,),
             byzantine=((1, "equivocate"),), dealer="seeded"),
    _convict("4.1.2", "two different moves for one step, Spades", "equivocation", game="spades", peers=4,
             under=(3,), byzantine=((1, "equivocate"),), dealer="seeded"),
    _convict("4.1.3", "a second message for a step long sealed", "equivocation",
             byzantine=((1, "late-equivocate"),), options=(("series_hands", 3),), dealer="seeded"),
    _convict("4.1.4", "its own equivocation relayed as evidence, and forged evidence", "equivocation",
             game="spades", peers=4, byzantine=((1, "relay-evidence"),), dealer="seeded"),
    Case("4.1.5", "seat 1 signs two different moves for one step, and only the program gets both",
         "name seat 1 for equivocation, as the only one that can (SPEC §5.8), and relay the evidence",
         dealer="seeded", probe="twin"),
    _convict("4.2.1", "a shuffle with a corrupted proof", "bad-proof", game="spades", peers=4,
             byzantine=((1, "bad-proof"),)),
    _convict("4.2.2", "a corrupted decryption share", "bad-proof or bad-message", peers=4,
             byzantine=((1, "bad-share"),)),
    _convict("4.2.3", "a hand key revealed with a corrupted proof", "bad-proof",
             byzantine=((1, "bad-key-proof"),)),
    _convict("4.2.4", "a hand key revealed that is not the one committed to", "bad-proof",
             byzantine=((1, "wrong-key"),)),
    _convict("4.3.1", "a move the rules forbid", "illegal-action", game="azi",
             byzantine=((1, "illegal"),), dealer="seeded"),
    _convict("4.3.2", "a card that breaks follow-suit, seen only at the audit", "renege or illegal-action",
             game="spades", peers=4, byzantine=((1, "renege"),), dealer="seeded"),
    _convict("4.3.3", "terminal escape sequences in a move", "illegal-action",
             byzantine=((1, "escapes"),), dealer="seeded"),
    _convict("4.4.1", "a move bound to a head that is not the log's", "silent (voted out)", game="spades",
             peers=4, byzantine=((1, "wrong-head"),), dealer="seeded"),
    _convict("4.4.2", "never sends its shares", "silent (voted out)", byzantine=((1, "withhold"),)),
    # 5 Attacks the program must refuse and survive (seat 1 attacks a Durak table of three).
    *(
        _survive(f"5.{group}.{k}", what, byzantine=((1, kind),), dealer="seeded", refusal=refusal)
        for group, k, kind, what, refusal in (
            (1, 1, "foreign", "a message of another game", "another game"),
            (1, 2, "malformed", "frames that are not messages", "malformed"),
            (1, 3, "oversized", "a frame over the size limit", "closed"),
            (1, 4, "forged", "a message whose signature does not verify", "bad signature"),
            (1, 5, "unknown-kind", "a signed message of a kind that does not exist", "unknown kind"),
            (1, 6, "kind-too-large", "a signed message over its kind's size limit", "too large"),
            (2, 1, "nested", "catch-up answers nested a thousand deep", "nested"),
            (2, 2, "future-flood", "large signed messages for steps far ahead", None),
            (2, 3, "catchup-flood", "the same catch-up request again and again", None),
            (3, 1, "bool-vote", "void votes naming booleans, unknown and unsorted seats", "bad vote"),
            (3, 2, "vote-finished", "votes for past steps and steps nobody is awaited at", None),
        )
    ),
    Case("5.3.3", "two seats of four vote the program silent at steps it played",
         "keep the votes but take no decision from two of four (SPEC §6.5), name nobody, and finish",
         game="spades", peers=4, byzantine=((1, "frame-majority"), (2, "frame-majority")), dealer="seeded"),
    Case("5.3.4", "three seats of four vote the program silent at steps it played",
         "never convict anyone for them: a majority may go on without a seat, never make it a cheater",
         game="spades", peers=4, byzantine=tuple((s, "frame-majority") for s in (1, 2, 3)), dealer="seeded"),
    Case("5.3.5", "two seats of four vote another seat silent at steps it played",
         "keep the votes but take no decision from two of four (half is no majority, SPEC §6.5), name "
         "nobody, and finish", game="spades", peers=4, under=(3,),
         byzantine=((1, "frame-majority"), (2, "frame-majority")), dealer="seeded"),
    Case("5.3.6", "two seats of four go silent for good once the cards are dealt",
         "take no decision from the two votes left (half is no majority, SPEC §6.5) and end as our replica "
         "does", game="durak", peers=4, dealer="seeded", probe="half-silent"),
    Case("5.3.7", "a seat of four goes silent and signs an abandon naming two others, which reaches the "
         "program alone", "let it bind its signer only (SPEC §6.2, §6.5) and play on with the seats it "
         "names, as our replica does", game="durak", peers=4, dealer="seeded", probe="anothers-abandon"),
    Case("5.3.8", "seat 3 is a computer run by seat 2's machine, which goes silent for good",
         "count the votes by voice, not by key: the two voices left of three are a majority, and go on "
         "without seats 2 and 3 (SPEC §6.5)", game="durak", peers=4, dealer="seeded", probe="machine-silent"),
    Case("5.3.9", "seat 2 is slow at its turn and seat 3 cut off; seat 3's vote arrives after seat 2 moved",
         "count no spent vote (SPEC §6.5: every voice spends): three votes, two of them spent, decide "
         "nothing",
         game="durak", peers=4, dealer="seeded", probe="late-vote"),
    # Frames that break one rule, each at the moment seat 1 has signed its move and the program has
    # not seen it yet (played move by move: conformance_probes); then the real move comes.
    Case("5.4.1", "seat 1's move in a msgpack encoding that is not the canonical one",
         "refuse it as 'malformed' (WIRE.md §2) without journaling it, then take the move itself",
         dealer="seeded", probe="non-canonical"),
    Case("5.4.2", "seat 2 signs a move for the step that awaits seat 1",
         "refuse it as 'not awaited' (SPEC §9.2) without journaling it, then take seat 1's move",
         dealer="seeded", probe="not-awaited"),
    Case("5.4.3", "seat 1's move bound to a head that is not the log's",
         "never take it (SPEC §9.2 'wrong head': hold it or refuse it), then take the move itself",
         dealer="seeded", probe="wrong-head"),
    Case("5.4.4", "seat 1's move for step 1, long sealed, after a head nobody knows",
         "refuse it as 'old step' (SPEC §9.2) without journaling it, then take the move itself",
         dealer="seeded", probe="old-step"),
    Case("5.4.5", "a frame of length 0", "close the connection (WIRE.md §3), and read the next bytes "
         "from that seat as a new one", dealer="seeded", probe="zero-length"),
    Case("5.4.6", "a whole frame and a bad length in the same bytes",
         "take the whole frame, then close the connection (WIRE.md §3)", dealer="seeded",
         probe="whole-then-bad"),
    # 6 Accidents of other seats: nobody may be named.
    Case("6.1.1", "another seat restarts from an old copy of its journal",
         "name nobody and finish in agreement", game="spades", peers=4, byzantine=((2, "rollback"),)),
    Case("6.1.2", "another seat leaves, is voted out, comes back and asks to play again",
         "vote it out with the majority, then deal it in again, and finish in agreement",
         byzantine=((1, "return"),), options=(("series_hands", 8),), dealer="seeded"),
    # 7 A genesis no peer may sign: the program must refuse to start.
    Case("7.1.1", "a seat's identity key is a point of small order", "refuse the genesis",
         genesis_edit="weak-key"),
    Case("7.1.2", "the options are not sorted by name", "refuse the genesis", genesis_edit="unsorted"),
    Case("7.1.3", "a seed with the mental dealer", "refuse the genesis", genesis_edit="seed"),
    Case("7.1.4", "two seats with the same identity key", "refuse the genesis", genesis_edit="same-key"),
)


# --------------------------------------------------------------------------- running


@dataclass
class CaseResult:
    case: Case
    passed: bool
    detail: str
    seed: int | None = None
    seconds: float = 0.0
    games: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    """Why it failed, the root cause first (``detail`` joins them)."""
    program: list[dict[str, Any]] = field(default_factory=list)
    """What the program did in each of its seats, as the harness saw it at the end of the failing game:
    ``seat``, ``step``, ``over``, ``abandoned``, ``sealed``, ``moves``, ``verdicts`` (each with its
    message), ``last`` (the last command and its answer) and ``stderr`` (its end, raw)."""
    command: str = ""

    @property
    def replay(self) -> str:
        """The command that plays this case alone again (on the seed that failed, if it had one)."""
        seed = "" if self.seed is None else f" --seed {self.seed}"
        return f"p2pcards harness conformance --peer {shlex.quote(self.command)} --case {self.case.id}{seed}"

    def to_dict(self) -> dict[str, Any]:
        return self.case.describe() | {
            "passed": self.passed,
            "detail": self.detail,
            "problems": self.problems,
            "seed": self.seed,
            "seconds": round(self.seconds, 2),
            "replay": self.replay,
            "program": self.program,
            "games": self.games,
        }


def select(cases: Iterable[Case], patterns: list[str]) -> list[Case]:
    """The cases whose id is one of ``patterns`` or begins with one of them followed by a dot."""
    if not patterns:
        return list(cases)
    return [c for c in cases if any(c.id == p or c.id.startswith(p.rstrip(".") + ".") for p in patterns)]


def run_case(case: Case, command: str, seed: int | None = None) -> CaseResult:
    """Play ``case`` with ``command`` in its seats: on each of its seeds in turn until one shows the
    scenario, or on ``seed`` alone (a replay)."""
    started = time.perf_counter()
    try:
        if case.genesis_edit is not None:
            result = _run_genesis_case(case, command)
        elif case.probe is not None:
            result = _run_probe_case(case, command)
        else:
            result = _run_game_case(case, command, case.seeds if seed is None else (seed,))
    except PeerFailed as exc:
        result = CaseResult(case, False, f"the program failed: {exc}")
    result.seconds = time.perf_counter() - started
    result.command = command
    if not result.passed and not result.problems:
        result.problems = [result.detail]
    return result


def run_all(
    cases: list[Case],
    command: str,
    progress: Callable[[CaseResult], None] | None = None,
    seed: int | None = None,
) -> list[CaseResult]:
    results = []
    for case in cases:
        results.append(run_case(case, command, seed))
        if progress is not None:
            progress(results[-1])
    return results


def _run_game_case(case: Case, command: str, seeds: tuple[int, ...]) -> CaseResult:
    games: list[dict[str, Any]] = []
    for seed in seeds:
        report = run_game(
            case.game,
            peers=case.peers,
            seed=seed,
            fault_spec=case.faults,
            byzantine=dict(case.byzantine),
            dealer=case.dealer,
            options=dict(case.options),
            pipe={seat: command for seat in case.under},
            crash_seat=case.crash_seat,
            away_seat=case.away_seat,
            probe_illegal=case.probe_illegal,
        )
        games.append(report.to_dict() | {"refusals": {str(s): r for s, r in report.refusals.items()}})
        problems = (
            [p for p in report.problems if _piped(p)]
            + _program_problems(case, report)
            + [p for p in report.problems if not _piped(p)]
            + _refusal_problems(case, report)
        )
        if problems:
            return CaseResult(case, False, "; ".join(problems), seed, games=games, problems=problems,
                              program=_program_trace(case, report))
        unreached = _unreached(case, report)
        if not unreached:
            return CaseResult(case, True, _what_happened(case, report), seed, games=games)
        games[-1]["unreached"] = unreached
    return CaseResult(
        case, False, f"the scenario never came about in seeds {', '.join(map(str, seeds))}: "
        f"{games[-1]['unreached']}", games=games,
    )


def _program_trace(case: Case, report: GameReport) -> list[dict[str, Any]]:
    trace = []
    for seat in case.under:
        end = report.ends.get(seat)
        if end is None:
            continue
        trace.append({
            "seat": seat,
            "step": end.step,
            "over": end.over,
            "abandoned": end.abandoned,
            "sealed": end.sealed,
            "moves": end.moves,
            "verdicts": [
                {"seat": s, "kind": k, "step": step, "message": m} for s, k, step, m in end.verdicts
            ],
            "last": end.last,
            "stderr": end.stderr,
        })
    return trace


def _piped(problem: str) -> bool:
    """Whether a problem is the program's own failure (the pipe broken, an error, an illegal move
    taken): the root cause of whatever else went wrong, so it comes first."""
    head = problem.split(":")[0]
    return head.startswith("seat ") and "(piped)" in head


def _program_problems(case: Case, report: GameReport) -> list[str]:
    """What a correct implementation in the program's seats does in every game it is asked to play,
    judged against our replicas at the same table (HARNESS.md §5): it played (at least one move of its
    own), it ended as they did (over, not by its own word, unless they did too), it was never voted out
    nor named by them (unless the case takes it away), it holds the same sealed hands and the same
    digest, and it names exactly the seats they name, with the kinds they name them with."""
    ours = {s: e for s, e in report.ends.items() if not e.piped}
    problems: list[str] = []
    for seat in case.under:
        end = report.ends.get(seat)
        if end is None:
            continue
        who = f"seat {seat} (the program)"
        if end.moves == 0:
            problems.append(f"{who} made no move of its own in the whole game")
        reused = _reused_keys(report.journals.get(seat, []), seat)
        if reused:
            problems.append(f"{who} revealed again, for a later deal, a hand key it had revealed before "
                            f"({reused} of its keys): a key is fresh for every hand and attempt (DEAL.md)")
        if not ours:
            # Every other seat frames it (5.3.4): it cannot finish, and must have said who went on.
            framers = sorted(s for s, b in case.byzantine if b == "frame-majority")
            if not end.over and not any(set(framers) <= set(t) for t in end.told):
                problems.append(f"{who} neither finished nor said that seats {framers} went on without it")
            if end.abandoned:
                problems.append(f"{who} says it ended the match by its own word (abandoned)")
            continue
        union = set().union(*(set(e.named) for e in ours.values()))
        common = set.intersection(*(set(e.named) for e in ours.values()))
        named = set(end.named)
        missed = {(s, k) for s, k in common - named if s != seat}  # ours voting it out is below
        if missed:
            problems.append(f"{who} never named {_named_text(missed)}, as our replicas did")
        if not named <= union:
            problems.append(f"{who} named {_named_text(named - union)}, which none of our replicas did")
        ends = {(e.over, e.abandoned, e.stopped) for e in ours.values()}
        if len(ends) == 1:
            (want,) = ends
            if (end.over, end.abandoned, end.stopped) != want:
                problems.append(
                    f"{who} ended {_end_text(end.over, end.abandoned, end.stopped)}; our replicas ended "
                    f"{_end_text(*want)}"
                )
        named_it = sorted({f"{k} (by seat {s})" for s, e in ours.items() for (x, k) in e.named if x == seat})
        if named_it and seat != case.away_seat:
            problems.append(f"our replicas named {who}: {', '.join(named_it)}")
        out_by = sorted(s for s, e in ours.items() if seat in e.out)
        if out_by:
            problems.append(f"{who} is out of the last hand for our replicas (seats {out_by}): it did not "
                            "play to the end")
        sealed = max(e.sealed for e in ours.values())
        if end.sealed != sealed:
            problems.append(f"{who} holds {end.sealed} hands sealed; our replicas {sealed}")
        digests = {e.digest for e in ours.values() if not e.abandoned}
        if len(digests) == 1 and not end.abandoned and end.digest not in digests:
            problems.append(f"{who}'s table digest {end.digest.hex()[:16]}… is not our replicas' "
                            f"{next(iter(digests)).hex()[:16]}…")
    return problems


def _reused_keys(journal: list[bytes], seat: int) -> int:
    """How many of ``seat``'s revealed hand keys in its journal repeat an earlier one (0: all fresh):
    the harness sees every key the program revealed, so it need not trust it to draw new ones."""
    seen: set[bytes] = set()
    repeats = 0
    for payload in journal:
        try:
            m = SignedMessage.from_bytes(payload)
            if m.envelope.kind != "key_reveal" or m.envelope.seat != seat:
                continue
            public = KeyAnnouncement.from_wire(m.envelope.body).public.encode()
        except (WireError, DealError, TypeError, ValueError):
            continue  # what it journaled is judged elsewhere; only keys are counted here
        if public in seen:
            repeats += 1
        seen.add(public)
    return repeats


def _end_text(over: bool, abandoned: bool, stopped: tuple[int, str] | None) -> str:
    if stopped is not None:
        return f"stopped (seat {stopped[0]} {stopped[1]})"
    if abandoned:
        return "the match by its own word (abandoned)"
    return "the match over" if over else "with the match unfinished"


def _named_text(named: set[tuple[int, str]]) -> str:
    return ", ".join(f"seat {s} {k}" for s, k in sorted(named))


def _refusal_problems(case: Case, report: GameReport) -> list[str]:
    if case.refusal is None:
        return []
    attacker = next(s for s, _ in case.byzantine)
    problems = []
    for seat in case.under:
        said = report.refusals.get(seat, {})
        if not said.get(f"{attacker}:{case.refusal}"):
            got = ", ".join(f"{k} ({n})" for k, n in said.items()) or "nothing"
            problems.append(
                f"seat {seat} (piped) never refused seat {attacker}'s frames as {case.refusal!r}: {got}"
            )
        closes = said.get(f"{attacker}:closed", 0)
        if case.refusal == "closed" and closes > 1:
            # One frame broke the stream; the bytes after it open a new connection (WIRE.md §3).
            problems.append(f"seat {seat} (piped) closed seat {attacker}'s connection {closes} times for one "
                            "bad frame: a closed stream is not read again, the next bytes open a new one")
    return problems


def _results(replica: Any) -> list[Any]:
    """The result of every hand a replica's match scored (Spades)."""
    return list(getattr(replica.match, "results", ()))


def _ten_bags(replica: Any) -> bool:
    return any(team.bag_penalty for result in _results(replica) for team in result.teams)


def _tie_at_end(replica: Any) -> bool:
    rules = replica.match.rules
    return any(r.scores[0] == r.scores[1] and (max(r.scores) >= rules.target or min(r.scores) <= rules.floor)
               for r in _results(replica))


def _at_floor(replica: Any) -> bool:
    return any(replica.match.rules.floor in r.scores for r in _results(replica))


def _azi_hands(replica: Any) -> list[Any]:
    return [state for state, _ in replica.hands_played]


def _azi_replay(replica: Any) -> bool:
    return any(getattr(h, "azi", 0) > 0 for h in _azi_hands(replica))


def _ace_turned_up(replica: Any) -> bool:
    """An ace turned up for trump put the six of trumps on stage, and that decided a trick: the trick's
    winner with the six as the top card is not its winner with the six as the lowest trump."""
    from p2pcards.games.azi.play import power

    for h in _azi_hands(replica):
        if h.top_card < 0 or not sum(h.won):
            continue
        size = len(h.played) // sum(h.won)
        cards = [h.card_at[p] for p in h.played]
        for k in range(0, len(cards) - size + 1, size):
            trick = cards[k : k + size]
            led = trick[0] // 13
            on_stage = max(range(size), key=lambda i: power(trick[i], led, h.trump_suit, h.top_card))
            ordinary = max(range(size), key=lambda i: power(trick[i], led, h.trump_suit, -1))
            if on_stage != ordinary:
                return True
    return False


SITUATIONS: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "ten-bags": ("a team took its tenth bag (S13)", _ten_bags),
    "tie-at-end": ("the teams tied at or past the target or the floor (S15)", _tie_at_end),
    "at-floor": ("a team's score came to the floor exactly (S15)", _at_floor),
    "azi-replay": ("a hand ended azi and was played again (A14)", _azi_replay),
    "ace-turned-up": ("an ace was turned up for trump, and the six of trumps on stage took a trick",
                      _ace_turned_up),
}


def _unreached(case: Case, report: GameReport) -> str:
    if report.unreached:
        return "; ".join(report.unreached)
    if case.seek is not None:
        what, met = SITUATIONS[case.seek]
        if not any(met(t) for t in report.replicas.values()):
            return f"never came to the situation the case is about: {what}"
    crashed = case.crash_seat
    if crashed is not None and crashed in case.under and crashed not in report.restarted:
        return "the game ended before the program was killed"
    if "leave" in case.faults.split(",") and (report.left is None or report.hands_after_leave == 0):
        return "no seat left before the last hand"
    if (case.away_seat is not None or "return" in dict(case.byzantine).values()) and not report.returns:
        return "the seat that left never came back before the end"
    return ""


def _what_happened(case: Case, report: GameReport) -> str:
    parts = [f"{report.hands} hands", ", ".join(sorted(set(report.verdicts)))]
    if report.probes:
        parts.append(f"{report.probes} illegal moves refused")
    if report.restarted:
        parts.append("restarted from its journal")
    if report.hands_after_leave:
        parts.append(f"{report.hands_after_leave} hands after a seat left")
    return "; ".join(parts)


def _run_genesis_case(case: Case, command: str) -> CaseResult:
    seeds = _identity_seeds(case.peers, 1)
    keys = [public_bytes(key_from_seed(s)) for s in seeds]
    genesis = make_genesis(case.game, [(f"seat {i}", k) for i, k in enumerate(keys)], nonce=b"conformance")
    value = genesis.to_value()
    edit = _GENESIS_EDITS[case.genesis_edit or ""]
    raw = encode(edit(value))
    table = PipeTable(
        genesis, case.under[0], command, identity_seed=seeds[case.under[0]], entropy=bytes(32), secrets={},
        raw_genesis=raw,
    )
    try:
        why = table.refuses_start()
        sent = table.sent_on_start
    finally:
        table.close()
    if why is None:
        return CaseResult(case, False, "the program started on a genesis it must refuse")
    if sent:
        return CaseResult(case, False, f"the program refused ({why}) but sent {sent} messages")
    return CaseResult(case, True, f"refused: {why}")


def _run_probe_case(case: Case, command: str) -> CaseResult:
    from p2pcards.harness.conformance_probes import run_probe

    problems = run_probe(case.probe or "", command)
    if problems:
        return CaseResult(case, False, "; ".join(problems), 1, problems=problems)
    return CaseResult(case, True, "as SPEC says", 1)


def _weak_key(v: dict[str, Any]) -> dict[str, Any]:
    seats = [list(s) for s in v["seats"]]
    seats[1][1] = WEAK_KEY
    return v | {"seats": seats}


def _unsorted(v: dict[str, Any]) -> dict[str, Any]:
    return v | {"options": list(reversed(v["options"]))}


def _same_key(v: dict[str, Any]) -> dict[str, Any]:
    seats = [list(s) for s in v["seats"]]
    seats[1][1] = seats[0][1]
    return v | {"seats": seats}


_GENESIS_EDITS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "weak-key": _weak_key,
    "unsorted": _unsorted,
    "seed": lambda v: v | {"seed": 7},
    "same-key": _same_key,
}


# --------------------------------------------------------------------------- reports


def summary(results: list[CaseResult], command: str) -> dict[str, Any]:
    return {
        "command": command,
        "cases": len(results),
        "passed": sum(r.passed for r in results),
        "failed": [r.case.id for r in results if not r.passed],
    }


def to_json(results: list[CaseResult], command: str) -> dict[str, Any]:
    return {"summary": summary(results, command), "results": [r.to_dict() for r in results]}


def to_text(results: list[CaseResult], command: str) -> str:
    width = max((len(r.case.title) for r in results), default=10)
    lines = [f"conformance of: {command}", ""]
    for r in results:
        mark = "pass" if r.passed else "FAIL"
        lines.append(f"{r.case.id:<7} {mark}  {r.case.title:<{width}}  {r.seconds:5.1f} s")
        if not r.passed:
            lines += _failure_lines(r)
    s = summary(results, command)
    failed = f"; failed: {', '.join(s['failed'])}" if s["failed"] else ""
    lines += ["", f"{s['passed']} of {s['cases']} cases passed{failed}"]
    # A detail quotes the program (its stderr, an error's reason, a verdict's kind): every line goes
    # through the one sanitizer, so nothing it wrote can act on the terminal the report is read on.
    return "\n".join(shown(line, SHOWN_LINE) for line in lines)


def _failure_lines(r: CaseResult) -> list[str]:
    """Under a failed case: what it demanded, why it failed (the root cause first), what the program
    did, how to play it again alone, and the end of the program's standard error."""
    pad = " " * 9
    seed = "" if r.seed is None else f", seed {r.seed}"
    lines = [f"{pad}must: {r.case.must}", f"{pad}set-up: {_setup_line(r.case)}{seed}", f"{pad}why:"]
    lines += [f"{pad}  {i}. {problem}" for i, problem in enumerate(r.problems or [r.detail], 1)]
    for p in r.program:
        end = "over" if p["over"] else "not over"
        if p["abandoned"]:
            end += ", abandoned by its own word"
        lines.append(f"{pad}the program in seat {p['seat']}: at step {p['step']}, {end}, {p['sealed']} hands "
                     f"sealed, {p['moves']} moves of its own")
        for v in p["verdicts"]:
            said = f"seat {v['seat']} {v['kind']} at step {v['step']}: {v['message']}"
            lines.append(f"{pad}  its verdict: {said}")
        if p["last"]:
            lines.append(f"{pad}  last command: {p['last']}")
        if p["stderr"]:
            lines.append(f"{pad}  its standard error ends: {p['stderr']}")
    lines.append(f"{pad}replay: {r.replay}")
    return lines


def to_html(results: list[CaseResult], command: str) -> str:
    s = summary(results, command)
    rows = []
    for r in results:
        c = r.case
        rows.append(
            "<tr class='{cls}'><td>{id}</td><td>{mark}</td><td>{title}</td><td>{must}</td><td>{setup}</td>"
            "<td>{detail}</td><td>{secs:.1f}</td></tr>".format(
                cls="pass" if r.passed else "fail",
                id=html.escape(c.id),
                mark="pass" if r.passed else "FAIL",
                title=html.escape(c.title),
                must=html.escape(c.must),
                setup=html.escape(_setup_line(c) + ("" if r.seed is None else f", seed {r.seed}")),
                detail=html.escape(r.detail),
                secs=r.seconds,
            )
        )
    return (
        "<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<title>p2pcards conformance: {s['passed']} of {s['cases']}</title>"
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top;text-align:left}"
        "tr.pass td:nth-child(2){color:#060}tr.fail td:nth-child(2){color:#b00;font-weight:bold}"
        "tr.fail{background:#fff0f0}</style></head><body>"
        f"<h1>Protocol conformance</h1><p>Implementation: <code>{html.escape(command)}</code></p>"
        f"<p><b>{s['passed']} of {s['cases']} cases passed.</b></p>"
        "<table><tr><th>case</th><th>result</th><th>scenario</th><th>the implementation must</th>"
        "<th>set-up</th><th>what happened</th><th>s</th></tr>"
        + "".join(rows)
        + "</table><p>The cases and the pipe are described in protocol/HARNESS.md.</p></body></html>\n"
    )


def _setup_line(c: Case) -> str:
    parts = [
        *(["played move by move"] if c.probe else []),
        f"{c.game}, {c.peers} seats",
        f"program in seat {', '.join(map(str, c.under))}",
        f"{c.dealer} dealer",
    ]
    if c.faults != "none":
        parts.append(f"faults {c.faults}")
    if c.byzantine:
        parts.append("byzantine " + ",".join(f"{s}:{k}" for s, k in c.byzantine))
    if c.options:
        parts.append(" ".join(f"{k}={v}" for k, v in c.options))
    return ", ".join(parts)


def dumps(results: list[CaseResult], command: str) -> str:
    return json.dumps(to_json(results, command), indent=2)
