"""``p2pcards harness conformance --peer COMMAND``: the numbered cases, a table of pass and fail."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from rich.progress import Progress

from p2pcards.cli.common import UsageError, print_json
from p2pcards.harness import conformance as conf
from p2pcards.text import shown


def run_conformance(args: argparse.Namespace) -> int:
    cases = conf.select(conf.CASES, args.case)
    unknown = [p for p in args.case if not conf.select(conf.CASES, [p])]
    if unknown:
        raise UsageError(f"no case {', '.join(unknown)}; the cases are {conf.CASES[0].id} to "
                         f"{conf.CASES[-1].id} ('--list' lists them)")
    if args.list:
        for c in cases:
            print(f"{c.id:<7} {c.title}\n{'':8}must: {c.must}")
        return 0
    if args.mutants:
        return _run_mutants(args, cases)
    if len(args.peer) != 1 or "=" in args.peer[0].split(" ")[0]:
        raise UsageError("say which program to test, once: --peer COMMAND, e.g. "
                         "--peer 'p2pcards peer --stdio' (the cases choose its seats)")
    if args.byzantine or args.faults != "none" or args.option:
        raise UsageError("the cases set the game, seats, faults and cheaters themselves: "
                         "--byzantine, --faults and -o do not go with 'conformance'")
    if args.seed is not None and args.seed < 1:
        raise UsageError(f"--seed {args.seed}: a case's seeds are 1 and up")
    command = args.peer[0]
    html_path = Path(args.html) if args.html else None
    if html_path is not None and not html_path.parent.is_dir():
        raise UsageError(f"--html {args.html}: there is no folder {html_path.parent}")
    with Progress(disable=args.json or not sys.stderr.isatty(), transient=True) as progress:
        task = progress.add_task("conformance cases", total=len(cases))
        # --seed S replays each case on that seed alone (what a failed case's report says to run).
        results = conf.run_all(cases, command, progress=lambda _: progress.advance(task), seed=args.seed)
    if html_path is not None:
        try:
            html_path.write_text(conf.to_html(results, command), encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write {html_path}: {exc.strerror or exc}") from exc
    if args.json:
        print_json(conf.to_json(results, command))
    else:
        print(conf.to_text(results, command))
        if html_path is not None:
            print(f"report written to {html_path}")
    return 0 if all(r.passed for r in results) else 1


def _run_mutants(args: argparse.Namespace, cases: list[conf.Case]) -> int:
    """Every one-flaw mutant of our peer against the cases (in order, until one catches it): what
    catches each, and the score per layer."""
    from p2pcards.harness import conformance_mutants as cm

    if args.peer or args.html or args.seed is not None:
        raise UsageError("--mutants runs our own peer's mutants: --peer, --seed and --html do not go with it")
    # Attacks and cheaters first: most flaws show there, and a mutant is run only until a case catches
    # it (the order changes which case is named, never whether one is).
    order = ("5", "4", "2", "3", "6", "1", "7")
    playing = sorted(cases, key=lambda c: order.index(c.id.split(".")[0]) if c.id[0] in order else len(order))
    started = time.perf_counter()
    with Progress(disable=args.json or not sys.stderr.isatty(), transient=True) as progress:
        task = progress.add_task("mutants", total=len(cm.MUTANTS))
        # Two mutants at once: each case is our replicas in this process and the mutant in another,
        # so two runs keep two cores busy.
        results = cm.run_mutants(playing, progress=lambda _: progress.advance(task), processes=2)
    seconds = round(time.perf_counter() - started)
    table = cm.score(results)
    if args.json:
        print_json({
            "mutants": [{"name": r.mutant.name, "layer": r.mutant.layer, "flaw": r.mutant.flaw,
                         "caught_by": r.caught_by, "detail": r.detail, "cases_run": len(r.cases),
                         "seconds": round(r.seconds, 1)} for r in results],
            "seconds": seconds,
            "score": {layer: {"caught": c, "mutants": n} for layer, (c, n) in table.items()},
        })
        return 0
    for r in results:
        verdict = f"caught by {r.caught_by}" if r.caught_by else f"SURVIVED {len(r.cases)} cases"
        print(shown(f"{r.mutant.layer:<6} {r.mutant.name:<26} {verdict:<22} {r.mutant.flaw}", 400))
    print()
    for layer, (caught, n) in table.items():
        print(f"{layer:<6} {caught} of {n} caught ({100 * caught // n}%)")
    print(f"in {seconds} s")
    return 0
