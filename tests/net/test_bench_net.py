"""``p2pcards bench net`` at its smallest: the shape of the result, not its speed."""

from __future__ import annotations

import json

from p2pcards.bench import net


def test_the_net_bench_reports_latency_and_discovery():
    told: list[str] = []
    result = net.run(1, peers=(4,), namespaces=False, progress=told.append)
    assert json.loads(json.dumps(result)) == result  # plain JSON
    # It says what it measures while it runs, from the first match to the end.
    assert told[0].startswith("move latency, 4 peers: match 1 of 1") and told[-1] == "done."
    assert any(t.startswith("discovery on one host") for t in told)

    (case,) = result["latency"]
    assert (case["peers"], case["dealer"], case["games"]) == (4, "mental", 1)
    assert case["moves"] > 0
    for key in ("each_peer", "every_peer"):
        s = case[key]
        assert s["samples"] > 0
        assert 0 < s["p50_ms"] <= s["p90_ms"] <= s["p99_ms"] <= s["max_ms"]
    assert case["each_peer"]["samples"] >= case["every_peer"]["samples"]

    d = result["discovery"]
    assert d["rounds"] == 1
    lo = d["loopback"]
    if lo["available"]:  # zeroconf may be unable to use loopback here: then the note says why
        assert lo["note"] is None
        for key in ("announce", "browse"):
            assert lo[key]["samples"] == 1 and lo[key]["p50_ms"] > 0
    else:
        assert lo["note"]
    assert d["namespaces"]["available"] is False and d["namespaces"]["note"]

    joining = result["join"]  # needs namespaces: not asked for here, and it says so
    assert joining["available"] is False and joining["note"] and joining["to_prompt"] is None

    text = net.format_table(result)
    assert "every peer" in text and "discovery" in text and "join NAME to the host's prompt" in text


def test_percentiles_stay_within_the_samples():
    s = net._summary([3.0, 1.0, 2.0])
    assert s["samples"] == 3 and s["p50_ms"] == 2.0
    assert 1.0 <= s["p50_ms"] <= s["p99_ms"] <= s["max_ms"] == 3.0
    assert net._summary([])["samples"] == 0
