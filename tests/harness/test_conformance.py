"""The conformance cases, run against our own replica as a separate program through the harness
pipe, exactly as against anyone's (``protocol/HARNESS.md``), and against broken ones: a case must
catch the flaw it is there for."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from p2pcards.harness.conformance import CASES, run_case, select, to_text

OURS = f"{sys.executable} -m p2pcards peer --stdio"
BROKEN = f"{sys.executable} {Path(__file__).with_name('broken_peer.py')}"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_our_peer_passes_the_case_through_the_pipe(case):
    result = run_case(case, OURS)
    assert result.passed, f"{case.id} {case.title}: {result.detail}"


def test_case_numbers_are_unique_and_in_order():
    ids = [tuple(int(x) for x in c.id.split(".")) for c in CASES]
    assert ids == sorted(set(ids))


def test_a_peer_that_never_checks_a_shuffle_proof_fails_the_bad_proof_case_alone():
    command = f"{BROKEN} no-shuffle-proof-check"
    failed = run_case(select(CASES, ["4.2.1"])[0], command)
    assert not failed.passed
    assert "seat 1 (bad-proof) should be named for bad-proof" in failed.detail
    # The flaw is invisible where nobody lies about a shuffle.
    assert run_case(select(CASES, ["1.1.1"])[0], command).passed


def test_a_refusal_with_another_reason_fails_the_case():
    # Our replica refuses a message of another game as "another game"; a case that demands another
    # reason of it fails and says what it got.
    import dataclasses

    case = dataclasses.replace(select(CASES, ["5.1.1"])[0], refusal="bad signature")
    result = run_case(case, OURS)
    assert not result.passed
    assert "never refused seat 1's frames as 'bad signature': 1:another game (1)" in result.detail


def test_a_peer_that_takes_any_move_of_its_own_player_fails_the_illegal_move_cases():
    command = f"{BROKEN} takes-illegal-own-moves"
    for case in select(CASES, ["2.1"]):
        result = run_case(case, command)
        assert not result.passed
        assert "(piped) took the illegal move" in result.detail
    assert run_case(select(CASES, ["1.1.1"])[0], command).passed


def _harness(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "p2pcards", "harness", *args], capture_output=True, text=True, timeout=120
    )


def test_the_report_is_a_table_json_and_a_web_page(tmp_path):
    page = tmp_path / "report.html"
    done = _harness("conformance", "--peer", OURS, "--case", "7.1", "--case", "2.1.1", "--html", str(page))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"conformance of: {OURS}"
    assert [line.split()[:2] for line in lines if line[:1].isdigit()] == [
        ["2.1.1", "pass"], ["7.1.1", "pass"], ["7.1.2", "pass"], ["7.1.3", "pass"], ["7.1.4", "pass"],
        ["5", "of"],
    ]
    assert "5 of 5 cases passed" in done.stdout
    html = page.read_text()
    assert "<b>5 of 5 cases passed.</b>" in html and "7.1.4" in html and "refuse the genesis" in html

    flawed = f"{BROKEN} takes-illegal-own-moves"
    broken = _harness("conformance", "--peer", flawed, "--case", "2.1.1", "--json")
    assert broken.returncode == 1
    report = json.loads(broken.stdout)
    assert report["summary"] == {
        "command": f"{BROKEN} takes-illegal-own-moves", "cases": 1, "passed": 0, "failed": ["2.1.1"],
    }
    (result,) = report["results"]
    assert set(result) == {
        "id", "title", "must", "game", "peers", "under", "dealer", "faults", "byzantine", "options",
        "crash_seat", "away_seat", "probe_illegal", "refusal", "genesis_edit", "probe", "seek", "passed",
        "detail", "seed",
        "seconds", "games", "problems", "replay", "program",
    }
    assert result["replay"] == f"p2pcards harness conformance --peer '{flawed}' --case 2.1.1 --seed 1"
    assert result["problems"][0].startswith("seat 0 (piped) took the illegal move")
    (program,) = result["program"]
    assert program["seat"] == 0 and program["moves"] > 0 and program["last"]
    assert result["id"] == "2.1.1" and not result["passed"] and "illegal move" in result["detail"]
    assert result["must"].startswith("refuse each move the rules forbid")


def test_the_cases_are_listed_with_what_each_demands():
    done = _harness("conformance", "--list")
    assert done.returncode == 0
    assert done.stdout.count("must: ") == len(CASES)
    assert "4.2.1   seat 1 cheats: a shuffle with a corrupted proof" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["conformance"], "say which program to test, once: --peer COMMAND"),
        (["conformance", "--peer", OURS, "--case", "9.9"], "no case 9.9; the cases are 1.1.1 to"),
        (["conformance", "--peer", OURS, "--faults", "drop"], "the cases set the game, seats, faults"),
        (["conformance", "--peer", OURS, "--seed", "0"], "--seed 0: a case's seeds are 1 and up"),
        (["conformance", "--peer", OURS, "--html", "/no/such/dir/r.html"], "there is no folder /no/such/dir"),
        (["durak", "--case", "1.1"], "--case, --list, --mutants and --html go with 'p2pcards harness"),
        (["durak", "--mutants"], "--case, --list, --mutants and --html go with 'p2pcards harness"),
        (["conformance", "--mutants", "--peer", OURS], "--peer, --seed and --html do not go with it"),
        (["durak", "--peer", "p2pcards peer --stdio"], "write SEAT=COMMAND"),
        (["durak", "--peers", "3", "--peer", "3=x"], "seats are 0..2"),
        (["durak", "--byzantine", "1:illegal", "--peer", "1=x"], "seat 1 is given twice"),
    ],
)
def test_bad_arguments_are_usage_errors_that_say_what_is_right(args, message):
    done = _harness(*args)
    assert done.returncode == 2
    assert message in done.stderr


def test_a_failed_case_says_what_went_wrong_root_cause_first_and_how_to_replay_it_alone():
    idle = f"{sys.executable} {Path(__file__).with_name('idle_peer.py')} abandon-claims"
    (case,) = select(CASES, ["4.1.1"])
    result = run_case(case, idle)
    text = to_text([result], idle).splitlines()
    at = text.index("4.1.1   FAIL  seat 1 cheats: two different moves for one step (equivocation)    "
                    f"{result.seconds:.1f} s")
    assert text[at + 1].strip() == f"must: {case.must}"
    assert text[at + 2].strip() == ("set-up: durak, 3 seats, program in seat 2, seeded dealer, byzantine "
                                    "1:equivocate, seed 1")
    assert text[at + 3].strip() == "why:"
    assert text[at + 4].strip() == "1. seat 2 (the program) made no move of its own in the whole game"
    report = "\n".join(text)
    # What the program did: its seat, its status, the verdicts it claimed with their messages, its last
    # command and answer (the game's, not the judge's report), and how to play the case again alone.
    assert "the program in seat 2: at step " in report and "abandoned by its own word" in report
    assert "its verdict: seat 1 renege at step 3: renege" in report
    assert "last command: frame from seat 1, " in report and " → done at step " in report
    assert f"replay: p2pcards harness conformance --peer '{idle}' --case 4.1.1 --seed 1" in report
    again = run_case(case, idle, seed=1)
    assert not again.passed and again.problems == result.problems and again.seed == 1


def test_a_failed_case_shows_the_end_of_the_programs_standard_error_made_safe():
    rogue = f"{sys.executable} {Path(__file__).with_name('rogue_peer.py')} stderr-escapes"
    result = run_case(select(CASES, ["1.1.1"])[0], rogue)
    (program,) = result.program
    assert "oops" in program["stderr"]
    lines = [line.strip() for line in to_text([result], rogue).splitlines()]
    assert any(line.startswith("its standard error ends: oops \ufffd[2J") for line in lines), lines


def test_what_the_harness_sees_of_a_programs_messages_is_judged_without_trusting_it():
    # A message journaled after it was sent (SPEC §13), seen in the order of its outputs.
    result = run_case(select(CASES, ["1.1.1"])[0], f"{BROKEN} sends-before-persisting")
    assert not result.passed
    assert result.problems[0].startswith("seat 0 (piped) journaled a message it had already sent (SPEC §13), "
                                         "answering start as seat 0"), result.problems
    # One hand key for every deal, seen in the keys it revealed.
    result = run_case(select(CASES, ["3.1.2"])[0], f"{BROKEN} reuses-hand-key")
    assert not result.passed
    assert "seat 0 (the program) revealed again, for a later deal, a hand key it had revealed before (1 of" \
        in result.detail
