"""Nothing replicated changes unless a rule says so: the reference hands replay to the same bytes.

``reference_hands.json`` (built by ``make_reference.py``) holds whole matches of every game under
several options, seeds and table sizes: each hand's record, its final digest and a hash of the digest
after every step.  Every replica of a table computes these digests and signs the results built from
them, so an engine change that moves one of them would split old and new peers.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from p2pcards import games
from p2pcards.games.base import CHANCE, TERMINAL, Deal, HandRecord
from tests.games.make_reference import REFERENCE

CASES: list[dict[str, Any]] = json.loads(REFERENCE.read_text(encoding="utf-8"))


def _label(case: dict[str, Any]) -> str:
    opts = ",".join(f"{k}={v}" for k, v in sorted(case["options"].items()))
    return f"{case['game']}[{opts}]"


@pytest.mark.parametrize("case", CASES, ids=_label)
def test_reference_hands_replay_to_the_same_digests(case: dict[str, Any]) -> None:
    rules = games.load(case["game"], **case["options"])
    match = rules.new_match(case["first_dealer"])
    assert case["hands"], "a reference case without hands checks nothing"
    for i, hand in enumerate(case["hands"]):
        record = HandRecord.from_dict(hand["record"])
        state = match.new_hand()
        assert state.setup == record.setup, f"hand {i}: the match deals another setup"
        steps = hashlib.sha256(state.digest())
        moves = iter(record.actions)
        while state.to_act != TERMINAL:
            if state.to_act == CHANCE:
                need = state.need
                assert need is not None
                ps = need.positions() if isinstance(need, Deal) else need.positions
                state.fulfil({p: record.deck[p] for p in ps})
            else:
                seat, text = next(moves)
                assert seat == state.to_act
                state.apply(rules.parse_action(text))
            steps.update(state.digest())
        assert next(moves, None) is None, f"hand {i} ended before its record"
        assert state.digest().hex() == hand["digest"], f"hand {i}: final digest moved"
        assert steps.hexdigest() == hand["steps"], f"hand {i}: a digest along the way moved"
        assert state.record() == record, f"hand {i}: the record reads differently"
        assert rules.audit(record).ok
        match = match.settle(state)

