"""``p2pcards harness GAME``: many games over the simulated network, with faults and cheaters."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from rich.progress import Progress

from p2pcards import games
from p2pcards.cli.common import UsageError, game_options, print_json
from p2pcards.games import GAMES, GameError
from p2pcards.harness.byzantine import BEHAVIOURS
from p2pcards.harness.explore import SHAPES
from p2pcards.harness.network import Faults
from p2pcards.harness.run import GameReport, run_game, summarize
from p2pcards.store import journal
from p2pcards.table.genesis import GenesisError
from p2pcards.text import shown


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "harness",
        help="test the protocol: simulated games with faults and cheaters",
        description="Play games between simulated peers over a simulated network with seeded faults and "
        "byzantine seats, and check that every honest replica finishes, agrees and names the "
        "same cheater.",
    )
    p.add_argument("game", metavar="GAME",
                   help=f"one of: {', '.join(GAMES)}; or 'conformance', the numbered cases any "
                   "implementation must pass (with --peer COMMAND)")
    p.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE", help="a table option")
    p.add_argument("--peers", type=int, default=4, metavar="N", help="seats at the table (default 4)")
    p.add_argument(
        "--seeds", type=int, default=10, metavar="K", help="games to play, seeds 1..K (default 10)"
    )
    p.add_argument("--seed", type=int, default=None, metavar="S", help="replay exactly one seed")
    p.add_argument(
        "--faults",
        default="none",
        metavar="LIST",
        help="comma list of drop, duplicate, delay, reorder, partition, crash, leave, all (every one but "
        "leave), none; add victim-first to draw a crash's victim before its moment (the other order)",
    )
    p.add_argument(
        "--byzantine",
        default="",
        metavar="SEAT:KIND,...",
        help=f"cheating seats, e.g. 1:equivocate; kinds: {', '.join(BEHAVIOURS)}",
    )
    p.add_argument("--dealer", choices=("mental", "seeded"), default="mental", help="default: mental")
    p.add_argument(
        "--fuzz", type=int, default=None, metavar="M",
        help="instead of the games above, fuzz one replica with up to M re-signed mutations of real frames "
        "per seed (p2pcards.harness.fuzz)",
    )
    p.add_argument(
        "--explore", type=int, default=None, metavar="N",
        help="instead of the games above, explore N seeded schedules per table shape of what a minority of "
        "cheating voices and the network can do, checking the table's promises after every delivery "
        "(p2pcards.harness.explore)",
    )
    p.add_argument(
        "--explore-seed", type=int, default=1, metavar="S", help="the first schedule's seed (default 1)"
    )
    p.add_argument(
        "--shape", default=None, metavar="NAME",
        help=f"explore one table shape: {', '.join(s.name for s in SHAPES)} (default: every one the game "
        "fits); with --rule-check: 3, 4, 5 (two cheating), 5c (computer seats), 5w (watchers), 4o (the "
        "cheater second in turn) (default: "
        "--voices)",
    )
    p.add_argument(
        "--schedule", default=None, metavar="LIST",
        help="replay one schedule: comma-separated choices, as printed for a violation",
    )
    p.add_argument(
        "--model-check", action="store_true",
        help="instead of the games above, check every interleaving of a small table up to --depth events: "
        "deliveries in any order, slow seats, restarts from old journal copies, a cheating minority "
        "(p2pcards.harness.model_check)",
    )
    p.add_argument(
        "--rule-check", action="store_true",
        help="instead of the games above, check every state of an abstract table that the rule's own code "
        "(votes, abandons, consent, spending, the restore wait) reaches in --depth events "
        "(p2pcards.harness.rule_check; GAME does not matter to it)",
    )
    p.add_argument("--steps", type=int, default=3, metavar="S",
                   help="with --rule-check: steps of the abstract attempt (default 3)")
    p.add_argument("--attempts", type=int, default=1, metavar="A",
                   help="with --rule-check: attempts of the hand a replica may deal, each after a decision "
                   "ended the one before (default 1)")
    p.add_argument("--eager-deliveries", action="store_true",
                   help="with --rule-check: try every delivery at every moment, not only right before an "
                   "event that reads what its replica holds (the same states judged; for comparison)")
    p.add_argument("--depth", type=int, default=6, metavar="D",
                   help="with --model-check or --rule-check: events per interleaving (default 6)")
    p.add_argument("--voices", type=int, default=3, metavar="V",
                   help="with --model-check or --rule-check: 3, 4 or 5 voices (default 3)")
    p.add_argument("--cheats", type=int, default=1, metavar="K",
                   help="with --model-check or --rule-check: messages the cheaters sign per interleaving "
                   "(default 1)")
    p.add_argument("--restarts", type=int, default=1, metavar="K",
                   help="with --model-check or --rule-check: restarts per interleaving (default 1)")
    p.add_argument("--replay", default=None, metavar="EVENTS",
                   help="with --model-check or --rule-check: replay one interleaving, as printed for a "
                   "violation")
    p.add_argument("--reintroduce", action="append", default=[], metavar="NAME",
                   help="with --model-check or --rule-check: put back a broken behaviour on purpose, to "
                   "see it found: naive-restore (--model-check: a restarted machine that reads its journal "
                   "back as new frames); sign-without-waiting, consent-by-step, spent-by-signer, "
                   "minority-binds (--rule-check: issue 27's fixes of the rule undone, one function each)")
    p.add_argument(
        "--journals",
        metavar="DIR",
        help="write every seat's journal of every game into DIR (GAME-seedS-seatN.journal), for "
        "p2pcards verify or another implementation to check",
    )
    p.add_argument(
        "--peer", action="append", default=[], metavar="SEAT=COMMAND",
        help="run SEAT by another program speaking the harness pipe (protocol/HARNESS.md), e.g. "
        "'1=p2pcards peer --stdio'; repeat for more seats. With 'conformance': just COMMAND",
    )
    p.add_argument(
        "--case", action="append", default=[], metavar="ID",
        help="with 'conformance': run only this case, or every case under it (4.2 runs 4.2.1, 4.2.2, ...)",
    )
    p.add_argument("--list", action="store_true", help="with 'conformance': list the cases and run none")
    p.add_argument("--mutants", action="store_true",
                   help="with 'conformance': run the cases against one-flaw mutants of our own peer instead "
                   "of --peer, and print what catches each and the score per layer")
    p.add_argument("--html", metavar="FILE", help="with 'conformance': also write the report as a web page")
    p.add_argument("--json", action="store_true", help="print the results as one JSON object")
    p.set_defaults(run=run)


def parse_byzantine(spec: str, peers: int) -> dict[int, str]:
    result: dict[int, str] = {}
    for part in [x.strip() for x in spec.split(",") if x.strip()]:
        seat_text, sep, kind = part.partition(":")
        if not sep or not seat_text.strip().isdigit():
            raise UsageError(f"{part!r}: write SEAT:KIND, e.g. 1:equivocate")
        seat = int(seat_text)
        if not 0 <= seat < peers:
            raise UsageError(f"{part!r}: seats are 0..{peers - 1}")
        if kind not in BEHAVIOURS:
            raise UsageError(f"{part!r}: unknown kind; the kinds are: {', '.join(BEHAVIOURS)}")
        if seat in result:
            raise UsageError(f"seat {seat} is given two behaviours")
        result[seat] = kind
    if len(result) >= peers - 1 and not all(k == "frame-majority" for k in result.values()):
        raise UsageError("at least two seats must be honest")
    if "zero-key" in result.values() and result.get(peers - 1) != "zero-key":
        raise UsageError(f"zero-key needs the last seat, {peers - 1}: keys that cancel out come from a table "
                         "where every seat colludes, and the replicas name the last key holder")
    return result


def parse_peers(specs: list[str], peers: int, byzantine: dict[int, str]) -> dict[int, str]:
    result: dict[int, str] = {}
    for spec in specs:
        seat_text, sep, command = spec.partition("=")
        if not sep or not seat_text.strip().isdigit() or not command.strip():
            raise UsageError(f"--peer {spec!r}: write SEAT=COMMAND, e.g. --peer '1=p2pcards peer --stdio'")
        seat = int(seat_text)
        if not 0 <= seat < peers:
            raise UsageError(f"--peer {spec!r}: seats are 0..{peers - 1}")
        if seat in result or seat in byzantine:
            raise UsageError(f"--peer {spec!r}: seat {seat} is given twice (a piped seat plays honestly)")
        result[seat] = command.strip()
    return result


def run(args: argparse.Namespace) -> int:
    if args.game == "conformance":
        from p2pcards.cli.conformance import run_conformance

        return run_conformance(args)
    if args.case or args.list or args.html or args.mutants:
        raise UsageError("--case, --list, --mutants and --html go with 'p2pcards harness conformance'")
    if args.game not in GAMES:
        raise UsageError(f"unknown game {args.game!r}; the games are: {', '.join(GAMES)}")
    if args.seeds <= 0:
        raise UsageError("--seeds must be positive")
    try:
        Faults.parse(args.faults)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    byzantine = parse_byzantine(args.byzantine, args.peers)
    pipe = parse_peers(args.peer, args.peers, byzantine)
    if pipe and (args.fuzz is not None or args.explore is not None):
        raise UsageError("--peer goes with played games, not with --fuzz or --explore")
    options = game_options(args.option)
    seeds = [args.seed] if args.seed is not None else list(range(1, args.seeds + 1))
    if args.fuzz is not None:
        return _fuzz(args, seeds)
    if args.rule_check:
        if args.model_check or args.explore is not None:
            raise UsageError("--rule-check goes alone, not with --model-check, --fuzz or --explore")
        return _rule_check(args)
    if args.steps != 3 or args.attempts != 1 or args.eager_deliveries:
        raise UsageError("--steps, --attempts and --eager-deliveries go with --rule-check")
    if args.model_check:
        if args.fuzz is not None or args.explore is not None:
            raise UsageError("--model-check goes alone, not with --fuzz or --explore")
        return _model_check(args, options)
    if args.replay is not None or args.reintroduce:
        raise UsageError("--replay and --reintroduce go with --model-check or --rule-check")
    if args.explore is not None:
        from p2pcards.cli.explore import run_explore

        return run_explore(args, options)
    if args.schedule is not None or args.shape is not None:
        raise UsageError("--schedule and --shape go with --explore")
    reports: list[GameReport] = []
    started = time.perf_counter()
    with Progress(disable=args.json or not sys.stderr.isatty(), transient=True) as progress:
        task = progress.add_task(f"{args.game} games", total=len(seeds))
        for seed in seeds:
            try:
                reports.append(
                    run_game(
                        args.game,
                        peers=args.peers,
                        seed=seed,
                        fault_spec=args.faults,
                        byzantine=byzantine,
                        dealer=args.dealer,
                        options=options,
                        pipe=pipe,
                    )
                )
            except (GameError, ValueError) as exc:
                raise UsageError(str(exc)) from exc
            if args.journals:
                write_journals(Path(args.journals), args.game, reports[-1])
            progress.advance(task)
    summary = summarize(reports) | {"seconds": round(time.perf_counter() - started, 2)}
    if args.json:
        print_json({"summary": summary, "games": [r.to_dict() for r in reports]})
    else:
        _print(args, summary, reports)
    return 0 if not summary["failed_seeds"] else 1


def write_journals(folder: Path, game: str, report: GameReport) -> None:
    """Every seat's journal of one game, in the journal format (protocol/JOURNAL.md)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for seat, payloads in sorted(report.journals.items()):
            data = journal.header(report.game_id) + b"".join(journal.encode_record(p) for p in payloads)
            (folder / f"{game}-seed{report.seed}-seat{seat}.journal").write_bytes(data)
    except OSError as exc:
        raise UsageError(f"cannot write the journals into {folder}: {exc.strerror or exc}") from exc


def _print(args: argparse.Namespace, summary: dict[str, Any], reports: list[GameReport]) -> None:
    _say(
        f"{args.game}, {args.peers} peers, faults: {args.faults}, byzantine: {args.byzantine or 'none'}, "
        f"dealer: {args.dealer}"
    )
    for spec in args.peer:
        seat, _, command = spec.partition("=")
        _say(f"  seat {seat} run by: {command.strip()}")
    _say(f"  games played                     {summary['games']}")
    _say(f"  finished                         {summary['finished']}")
    _say(f"  honest replicas agree            {summary['agree']} of {summary['games']} games")
    named = ", ".join(f"{k} ({v})" for k, v in summary["faults_named"].items()) or "none"
    _say(f"  verdicts reached                 {named}")
    _say(f"  hands dealt again after verdicts {summary['void_hands']}")
    _say(f"  sealed hands lost                {summary['sealed_hands_lost']}")
    _say(f"  honest seats named cheaters      {summary['honest_convicted']}")
    if "leave" in args.faults or "return" in args.byzantine:
        _say(f"  hands played after a seat left   {summary['hands_after_leave']}")
        _say(f"  returns admitted                 {summary['returns_admitted']}")
    _say(f"  frames refused                   {summary['refused_frames']}")
    _say(f"  crashes of honest peers          {summary['honest_crashes']}")
    _say(f"  time                             {summary['seconds']} s")
    for r in reports:
        if not r.passed:
            _say(f"  FAILED seed {r.seed}: {'; '.join(r.problems)}  (replay: --seed {r.seed})")
    if not summary["failed_seeds"]:
        _say("  all games passed")


def _say(line: str) -> None:
    # A line may quote a piped program (its stderr, a verdict kind it reported): every one goes through
    # the one sanitizer, so nothing a program wrote can act on the terminal.
    print(shown(line, 4_000))


def _fuzz(args: argparse.Namespace, seeds: list[int]) -> int:
    from p2pcards.harness.fuzz import fuzz

    if args.fuzz <= 0:
        raise UsageError("--fuzz must be positive")
    started = time.perf_counter()
    reports = []
    with Progress(disable=args.json or not sys.stderr.isatty(), transient=True) as progress:
        task = progress.add_task(f"fuzzing {args.game}", total=len(seeds))
        for seed in seeds:
            reports.append(fuzz(args.game, peers=args.peers, seed=seed, dealer=args.dealer,
                                budget=args.fuzz))
            progress.advance(task)
    failed = [r for r in reports if not r.passed]
    if args.json:
        print_json({"fuzz": [r.__dict__ | {"passed": r.passed} for r in reports],
                    "seconds": round(time.perf_counter() - started, 2)})
    else:
        print(f"{args.game}, {args.peers} peers, {len(seeds)} games fuzzed, dealer: {args.dealer}")
        print(f"  mutated frames sent               {sum(r.mutations for r in reports)}")
        print(f"  frames refused                    {sum(r.refused for r in reports)}")
        print(f"  crashes                           {sum(len(r.crashes) for r in reports)}")
        print(f"  time                              {round(time.perf_counter() - started, 2)} s")
        for r in failed:
            problems = r.crashes[:1] + r.framed[:1] + ([] if r.agree else ["replicas disagree"])
            print(f"  FAILED seed {r.seed}: {'; '.join(problems)}  (replay: --seed {r.seed})")
        if not failed:
            print("  nothing found")
    return 1 if failed else 0


MAX_REPLAY = 10_000
"""Events in a ``--replay`` (each is replayed; a longer list is refused before any work)."""


def _model_check(args: argparse.Namespace, options: dict[str, Any]) -> int:
    from p2pcards.harness import model_check as mc

    if args.voices not in (3, 4, 5):
        raise UsageError("--voices must be 3, 4 or 5")
    if not 1 <= args.depth <= 64:
        raise UsageError("--depth must be from 1 to 64")
    if not 0 <= args.cheats <= 16 or not 0 <= args.restarts <= 16:
        raise UsageError("--cheats and --restarts must be from 0 to 16")
    unknown = [r for r in args.reintroduce if r not in mc.REINTRODUCE]
    if unknown:
        known = ", ".join(mc.REINTRODUCE)
        raise UsageError(f"--reintroduce {shown(unknown[0], 40)!r}: the broken behaviours are: {known}")
    seed = 1 if args.seed is None else args.seed
    if not 0 <= seed < 2**63:
        raise UsageError("--seed must be from 0 to 2**63 - 1")
    shape = mc.shape_for(args.game, args.voices)
    try:
        games.load(args.game, **(options | {"players": shape.seats}))
    except GameError as exc:
        raise UsageError(f"{args.game} cannot be model-checked at {args.voices} voices: {exc}") from exc
    path = None
    if args.replay is not None:
        path = list(mc.iter_events(args.replay))
        if len(path) > MAX_REPLAY:
            raise UsageError(f"--replay: at most {MAX_REPLAY} events")
        bad = next((e for e in path if not mc.well_formed(e)), None)
        if bad is not None:
            raise UsageError(f"--replay: {shown(bad, 40)!r} is not an event (as printed for a violation)")
    bounds = mc.Bounds(depth=args.depth, cheats=args.cheats, restarts=args.restarts)
    live = sys.stderr.isatty() and not args.json

    def progress(r: mc.Report) -> None:
        if live:
            print(f"\r  model check: {r.states:,} states, {r.events:,} events, {r.seconds:.0f} s",
                  end="", file=sys.stderr, flush=True)

    try:
        if path is not None:
            report = mc.run_replay(args.game, args.voices, path, seed=seed, options=options,
                                   reintroduce=args.reintroduce)
        else:
            report = mc.check(args.game, args.voices, bounds=bounds, seed=seed, options=options,
                              reintroduce=args.reintroduce, progress=progress)
    except (GameError, GenesisError) as exc:
        raise UsageError(str(exc)) from exc
    if live:
        print("\r" + " " * 70 + "\r", end="", file=sys.stderr, flush=True)
    if args.json:
        print_json({"model_check": report.to_dict()})
    else:
        _print_model_check(report, replaying=path is not None)
    return 1 if report.violation is not None else 0


def _rule_check(args: argparse.Namespace) -> int:
    from p2pcards.harness import rule_check as rc

    if args.voices not in (3, 4, 5):
        raise UsageError("--voices must be 3, 4 or 5")
    shape = str(args.voices) if args.shape is None else args.shape
    if shape not in rc.SHAPES:
        known = ", ".join(rc.SHAPES)
        raise UsageError(f"--shape {shown(shape, 40)!r}: with --rule-check the shapes are: {known}")
    if not 1 <= args.depth <= 64:
        raise UsageError("--depth must be from 1 to 64")
    if not 1 <= args.steps <= 16:
        raise UsageError("--steps must be from 1 to 16")
    if not 1 <= args.attempts <= 4:
        raise UsageError("--attempts must be from 1 to 4")
    if not 0 <= args.cheats <= 16 or not 0 <= args.restarts <= 16:
        raise UsageError("--cheats and --restarts must be from 0 to 16")
    unknown = [r for r in args.reintroduce if r not in rc.REINTRODUCE]
    if unknown:
        known = ", ".join(rc.REINTRODUCE)
        raise UsageError(f"--reintroduce {shown(unknown[0], 40)!r}: with --rule-check the broken behaviours "
                         f"are: {known}")
    bounds = rc.Bounds(depth=args.depth, steps=args.steps, cheats=args.cheats, restarts=args.restarts,
                       attempts=args.attempts, lazy=not args.eager_deliveries)
    path = None
    if args.replay is not None:
        path = [e for e in args.replay.split(",") if e]
        if len(path) > MAX_REPLAY:
            raise UsageError(f"--replay: at most {MAX_REPLAY} events")
        bad = next((e for e in path if not rc.well_formed(e)), None)
        if bad is not None:
            raise UsageError(f"--replay: {shown(bad, 40)!r} is not an event (as printed for a violation)")
    live = sys.stderr.isatty() and not args.json

    def progress(r: rc.Report) -> None:
        if live:
            print(f"\r  rule check: {r.states:,} states, {r.events:,} events, {r.seconds:.0f} s",
                  end="", file=sys.stderr, flush=True)

    if path is not None:
        report = rc.run_replay(args.game, shape, bounds, path, reintroduce=args.reintroduce)
        if report.violation is not None and report.invariant is None:
            raise UsageError(f"--replay: {report.violation}")
    else:
        report = rc.check(shape, bounds, reintroduce=args.reintroduce, progress=progress, game=args.game)
    if live:
        print("\r" + " " * 70 + "\r", end="", file=sys.stderr, flush=True)
    if args.json:
        print_json({"rule_check": report.to_dict()})
    else:
        _print_rule_check(report, replaying=path is not None)
    return 1 if report.violation is not None else 0


def _print_rule_check(r: Any, *, replaying: bool) -> None:
    b = r.bounds
    what = "one path replayed" if replaying else f"every state to depth {b.depth}"
    print(f"rule check, shape {r.shape} ({len(r.voices)} voices, cheating {list(r.cheaters)}), {what}")
    if r.reintroduce:
        print(f"  reintroduced          {', '.join(r.reintroduce)}")
    if not replaying:
        print(f"  bounds                {b.steps} steps, {b.attempts} attempt(s), {b.restarts} restart(s) "
              f"from the journal or up to {b.back} own message(s) back, {b.cheats} cheater's message(s) "
              "beyond its moves")
        print(f"  states explored       {r.states:,}")
        print(f"  events tried          {r.events:,} ({r.revisits:,} led to a state already explored)")
    if r.violation is not None and not replaying:
        print("  exhaustive            no: stopped at the first violation")
    elif not replaying:
        print(f"  exhaustive            {'yes' if r.exhaustive else 'no: the bound on states was reached'}")
    print(f"  time                  {r.seconds} s ({r.cpu} s of CPU)")
    if r.violation is not None:
        print(f"  VIOLATION ({r.invariant}, {len(r.path)} events): {r.violation}")
        print(f"    replay: {r.replay}")
    else:
        print("  nothing found")


def _print_model_check(r: Any, *, replaying: bool) -> None:
    what = "one interleaving replayed" if replaying else f"every interleaving to depth {r.bounds.depth}"
    print(f"{r.game}, model check, {r.voices} voices (shape {r.shape}), {what}")
    if not replaying:
        b = r.bounds
        print(f"  bounds                {b.restarts} restart(s) from the journal or {b.back} message(s) back "
              f"(then {b.moves} moves to choose from), {b.cheats} cheater's message(s)")
    print(f"  states explored       {r.states:,}")
    print(f"  events tried          {r.events:,} ({r.revisits:,} led to a state already explored)")
    if r.violation is not None:
        print("  exhaustive            no: stopped at the first violation")
    elif not replaying:
        print(f"  exhaustive            {'yes' if r.exhaustive else 'no: the bound on states was reached'}")
    print(f"  time                  {r.seconds} s")
    if r.violation is not None:
        print(f"  VIOLATION ({r.invariant}, {len(r.path)} events): {r.violation}")
        print(f"    replay: {r.replay}")
    else:
        print("  nothing found")
