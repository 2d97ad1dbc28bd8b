"""A replica journals a message before it sends it (SPEC §13): a seat that crashes between the two
must not have said anything its journal does not hold, or it could say something else after a restart."""

from __future__ import annotations

from typing import Any

import pytest

from p2pcards.harness.network import SimNetwork
from p2pcards.harness.run import run_game
from p2pcards.table import outputs as out


@pytest.mark.parametrize(("game", "peers"), [("durak", 2), ("spades", 4)])
def test_every_message_a_replica_journals_is_journaled_before_it_is_first_sent(monkeypatch, game, peers):
    said: dict[int, list[tuple[str, bytes]]] = {}
    real = SimNetwork._carry_out

    def spy(self: SimNetwork, p: Any, outputs: list[out.Output]) -> None:
        for o in outputs:
            if isinstance(o, (out.Persist, out.Send)):
                said.setdefault(p.seat, []).append((type(o).__name__, o.payload))
        real(self, p, outputs)

    monkeypatch.setattr(SimNetwork, "_carry_out", spy)
    report = run_game(game, peers=peers, seed=1, dealer="seeded")
    assert report.passed, report.problems
    for seat, ops in said.items():
        persisted: set[bytes] = set()
        journal = {payload for op, payload in ops if op == "Persist"}
        assert journal
        for op, payload in ops:
            if op == "Persist":
                persisted.add(payload)
            elif payload in journal:
                assert payload in persisted, f"seat {seat} sent a message before it journaled it"
