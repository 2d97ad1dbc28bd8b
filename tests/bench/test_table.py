"""``p2pcards bench table``: a whole hand through the stack, carried out by the room's interpreter."""

from __future__ import annotations

from pathlib import Path

from p2pcards.bench import table


def test_one_timed_hand_is_played_to_its_end_and_every_replica_agrees(tmp_path: Path) -> None:
    # _one_hand raises if the replicas' digests differ; a hand played to its end journals every
    # peer's messages and sends each to the others.
    row = table._one_hand("durak", 3, {}, 1, str(tmp_path))
    assert row["messages"] > 0 and row["frames"] >= 2 * row["messages"]
    assert set(row["split"]) >= {"crypto", "engine", "wire", "journal", "other"}
