import json

import pytest

from p2pcards.cli import main


def test_harness_prints_the_table_and_passes(capsys):
    assert main(["harness", "durak", "--peers", "2", "--seeds", "2", "--dealer", "seeded"]) == 0
    text = capsys.readouterr().out
    assert "games played                     2" in text
    assert "crashes of honest peers          0" in text
    assert "all games passed" in text


def test_harness_json_names_the_cheater(capsys):
    code = main(["harness", "durak", "--peers", "3", "--seed", "4", "--byzantine", "2:illegal", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 0
    assert result["summary"]["faults_named"] == {"seat 2 illegal-action": 1}
    assert result["games"][0]["seed"] == 4


def test_harness_refuses_bad_input_clearly(capsys):
    for argv, message in [
        (["harness", "chess"], "unknown game"),
        (["harness", "durak", "--faults", "lightning"], "unknown fault"),
        (["harness", "durak", "--byzantine", "7:illegal"], "seats are 0..3"),
        (["harness", "durak", "--byzantine", "1:lying"], "unknown kind"),
        (["harness", "durak", "--peers", "3", "--byzantine", "0:illegal,1:renege"], "two seats"),
    ]:
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        assert message in capsys.readouterr().err
