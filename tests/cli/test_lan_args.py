"""The LAN commands' arguments: ``--help`` everywhere, a clear error and exit status 2 for every bad
input (checked before anything touches the network), and the small pieces they are built of."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pcards.cli.common import UsageError
from p2pcards.cli.lan import options as opt
from p2pcards.cli.lan import record as records
from p2pcards.cli.lan import resume
from p2pcards.cli.lan.game import display_names
from p2pcards.store.paths import HOME_ENV
from p2pcards.table.genesis import Genesis, make_genesis
from p2pcards.wire import key_from_seed, public_bytes
from tests.cli.running import run


@pytest.fixture(autouse=True)
def _private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv(HOME_ENV, str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    return home




@pytest.mark.parametrize("command", ["host", "join", "list", "resume"])
def test_every_command_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and f"usage: p2pcards {command}" in out and "--json" in out


BAD = [
    (["host", "chess"], "unknown game 'chess'"),
    (["host", "durak", "--players", "9"], "--players must be from 2 to 6"),
    (["host", "spades", "--players", "3"], "Spades is played by exactly 4 players"),
    (["host", "durak", "-o", "nonsense"], "must look like NAME=VALUE"),
    (["host", "durak", "-o", "colour=blue"], "durak"),
    (["host", "durak", "--bots", "genius"], "--bots must be one of easy, normal, hard, random"),
    (["host", "durak", "--think", "-2"], "--think '-2': the think time must be a positive number"),
    (["join", "127.0.0.1:1", "--think", "0"], "--think '0': the think time must be a positive number"),
    (["host", "durak", "--auto", "genius"], "--auto must be one of"),
    (["host", "durak", "--code", "ab"], "--code must have 4 to 32"),
    (["host", "durak", "--port", "70000"], "--port must be a TCP port"),
    (["host", "durak", "--interface", "nosuch0"], "--interface nosuch0: no such interface"),
    (["host", "durak", "--interface", "203.0.113.77"], "no network interface of this machine has that"),
    (["host", "durak", "--players", "3", "--wait-for", "3"], "--wait-for must be from 1 to 2"),
    (["host", "durak", "--timeout", "1"], "--timeout must be from 5 to 3600 seconds"),
    (["host", "durak", "--name", "x" * 41], "--name must be 1 to 40 printable characters"),
    (["host", "durak", "--admit", "some"], "--admit some: choose one of ask, all"),
    (["host", "durak", "--partner", "Ann"], "--partner is for Spades, where partners sit opposite"),
    (["host", "spades", "--partner", "\x1b[31m"], "--partner must be a player's name"),
    (["host", "durak", "--players", "three"], "--players three: a whole number is needed"),
    (["join", "127.0.0.1:99999"], "the port must be from 1 to 65535"),
    (["join", ""], "the table's name is empty"),
    (["join", "127.0.0.1:4000", "--name", "\x1b[31m"], "--name must be 1 to 40 printable characters"),
    (["join", "127.0.0.1:4000", "--code", "- -"], "--code must have 4 to 32"),
    (["join", "127.0.0.1:4000", "--timeout", "0"], "--timeout must be from 0.5 to 3600"),
    (["join", "127.0.0.1:4000", "--port", "-1"], "--port must be a TCP port"),
    (["join", "no-such-host.invalid:4000", "--auto", "easy"], "cannot resolve the host"),
    (["list", "--timeout", "-1"], "--timeout must be from 0.1 to 86400"),
    (["list", "--interface", "nosuch0"], "no such interface"),
    (["resume", "zz"], "GAME_ID is the game's id in hex"),
    (["resume", "abcdef12"], "no saved game has an id starting with abcdef12"),
    (["resume"], "there is no unfinished game to resume"),
    (["resume", "--auto", "genius"], "--auto must be one of"),
]


@pytest.mark.parametrize(("argv", "message"), BAD, ids=[" ".join(a)[:40] for a, _ in BAD])
def test_bad_input_is_a_clear_error_with_exit_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2, (out, err)
    assert message in err, err
    assert "Traceback" not in err


def test_a_finished_offline_game_is_not_resumed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "durak", "--players", "2", "--auto", "easy", "--level", "easy",
                       "--json", "--seed", "5", "--dealer", "seeded")
    assert code == 0
    game_id = [json.loads(line) for line in out.splitlines()][-1]["game_id"]
    code, out, _ = run(capsys, "resume", game_id[:10])
    assert code == 0 and "This game is over" in out


# ============================================================================ the pieces


def test_addresses_names_and_codes() -> None:
    assert opt.split_address("192.168.1.23:47474") == ("192.168.1.23", 47474)
    assert opt.split_address("[fe80::1]:4000") == ("fe80::1", 4000)
    assert opt.split_address("laptop.local:4000") == ("laptop.local", 4000)
    assert opt.split_address("Ann's table") is None
    assert opt.split_address("fe80::1") is None
    assert opt.split_address("Table: 2") is None
    assert opt.player_name("  Ann   Lee ") == "Ann Lee"
    assert 1 <= len(opt.player_name(None)) <= 40
    assert opt.join_code("k7 q2-x9") == "k7 q2-x9"
    with pytest.raises(UsageError):
        opt.join_code("k-7")
    assert opt.source_address("127.0.0.1", 4000) == "127.0.0.1"
    assert "127.0.0.1" in opt.local_addresses(loopback=True)
    assert "127.0.0.1" not in opt.local_addresses()
    assert opt.interface("lo") == "127.0.0.1" and opt.interface("127.0.0.1") == "127.0.0.1"


def test_the_screen_names_the_seats() -> None:
    assert display_names(["Ann", "Bob", "Ann", "You"], 1) == ("Ann (0)", "You", "Ann (2)", "You (3)")


def three_seats(*names: str) -> tuple[Genesis, list[Ed25519PrivateKey]]:
    keys = [key_from_seed(bytes([i + 1]) * 32) for i in range(3)]
    seats = [(n, public_bytes(k)) for n, k in zip(names, keys, strict=True)]
    return make_genesis("durak", seats, nonce=b"n" * 32), keys


def test_a_seat_record_survives_the_disk() -> None:
    genesis, keys = three_seats("H", "A", "C")
    record = records.SeatRecord(
        role="host", genesis=genesis, seat=0, bind="0.0.0.0", port=0, dial={1: ("10.0.0.2", 4000)},
        computers={2: records.Computer(bytes([3]) * 32, "easy")}, auto="easy",
    )
    records.save(record)
    path = records.record_path(genesis.game_id)
    assert path.stat().st_mode & 0o077 == 0  # it holds the computer players' keys
    assert records.load(genesis.game_id) == record
    assert public_bytes(record.computers[2].identity) == public_bytes(keys[2])
    done = records.mark_finished(record)
    assert records.load(genesis.game_id) == done and done.finished
    path.write_text(json.dumps({"version": 1, "role": "host"}))
    with pytest.raises(Exception, match="the seat record is damaged"):
        records.load(genesis.game_id)


def test_resume_says_what_comes_back_and_that_a_hosts_lobby_does_not() -> None:
    genesis, _ = three_seats("Hana", "Ann", "Boris")
    host = records.SeatRecord(
        role="host", genesis=genesis, seat=0, bind="0.0.0.0", port=0, dial={1: ("10.0.0.2", 4000)},
        computers={2: records.Computer(bytes([3]) * 32, "easy")}, auto=None,
    )
    said = resume.what_comes_back(host)
    short = genesis.game_id.hex()[:12]
    assert said.startswith(f"Resuming game {short} (durak with Hana, Ann and Boris) as Hana: ")
    assert "the table's lobby is not reopened" in said and "nobody new can join" in said
    assert said.endswith("Your 1 computer player comes back with you.")
    joiner = records.SeatRecord(role="join", genesis=genesis, seat=1, bind="0.0.0.0", port=4000,
                                dial={0: ("10.0.0.1", 47474)}, computers={}, auto=None)
    said = resume.what_comes_back(joiner)
    assert "as Ann: the seats reconnect" in said and "lobby" not in said
