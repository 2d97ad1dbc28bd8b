"""``p2pcards bench think`` at its smallest: the shape of the result, not its speed."""

from __future__ import annotations

import json

from p2pcards.bench import think

from .test_thinking import workers_of_this_process


def test_the_think_bench_times_the_table_work_in_every_way_and_leaves_no_worker() -> None:
    result = think.run(1, verifies=1, ticks=3, think_ms=50, settle=0.01)
    assert json.loads(json.dumps(result)) == result  # plain JSON
    assert list(result["modes"]) == list(think.MODES)
    for mode in think.MODES:
        m = result["modes"][mode]
        assert m["work_ms"] > 0 and 0 <= m["late_p50_ms"] <= m["late_p99_ms"] and m["bot_cpu_s"] >= 0
    assert result["modes"]["alone"]["decisions"] == 0
    assert result["work_thread_over_worker"] > 0 and result["late_p99_thread_over_worker"] > 0
    text = think.format_table(result)
    assert "thread / worker" in text and "table work" in text
    assert workers_of_this_process() == []
