"""The bench module runs and reports (its numbers are measured, never asserted)."""

from __future__ import annotations

import json

from p2pcards.bench.deal import CONFIGS, format_table, run


def test_bench_runs_and_formats() -> None:
    result = run(repeat=1)
    assert json.loads(json.dumps(result)) == result
    assert [(c["cards"], c["seats"]) for c in result["configs"]] == [(c, s) for c, s, _ in CONFIGS]
    for c in result["configs"]:
        assert c["shuffle_proof_bytes"] == 163 * c["cards"] + 293
        assert c["share_bytes"] == 131
        assert c["prove_ms"] > 0 and c["verify_ms"] > 0 and c["remask_ms"] > 0
    table = format_table(result)
    assert "52×4" in table and "prove/remask" in table and "libtmcg" in table
