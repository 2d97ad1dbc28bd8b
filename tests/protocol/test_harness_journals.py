"""`p2pcards harness --journals DIR`: every seat's journal of a simulated game, for any implementation
to verify (protocol/README.md, "Against the harness")."""

from pathlib import Path

import pytest

from p2pcards.cli import main
from p2pcards.cli.verify import verify
from p2pcards.store import journal as journal_file
from tests.protocol import spec


def test_the_harness_writes_every_seats_journal_and_each_verifies(tmp_path: Path) -> None:
    argv = ["harness", "durak", "--peers", "3", "--seed", "2", "--dealer", "seeded", "--byzantine",
            "1:equivocate", "--journals", str(tmp_path / "out")]  # fmt: skip
    assert main(argv) == 0
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == [f"durak-seed2-seat{i}.journal" for i in range(3)]
    for seat in (0, 2):
        path = tmp_path / "out" / f"durak-seed2-seat{seat}.journal"
        game_id, payloads = spec.read_journal(path.read_bytes())
        assert game_id is not None and payloads
        report = verify(path, journal_file.read(path))
        assert report.status == "finished"
        assert {(v.seat, v.kind) for v in report.verdicts} == {(1, "equivocation")}


def test_a_folder_that_cannot_be_made_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a file").write_text("x")
    argv = ["harness", "durak", "--peers", "2", "--seed", "1", "--dealer", "seeded",
            "--journals", str(tmp_path / "a file" / "out")]  # fmt: skip
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert "cannot write the journals into" in capsys.readouterr().err
