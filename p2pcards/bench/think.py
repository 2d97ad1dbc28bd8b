"""``p2pcards bench think``: how much a thinking computer player holds up the host's table.

A host's trio thread does the table work of every seat of its process (proving and verifying
shuffles, the signed messages, the screen).  While a Hard computer player thinks, the same piece of
that work is timed on the trio thread in three ways, in the same run and interleaved round by round
(so that a machine that changes speed falls on every way alike):

* **alone**: nobody thinks;
* **thread**: Hard thinks in a thread of the host's process (``trio.to_thread``, as nodes did
  before the computer players had a process of their own);
* **worker**: Hard thinks in the computer players' process (``net.thinking``, what a node does now).

Two measures, each the median over the rounds:

* **table work**: the wall time of verifying one 52-card shuffle proof for 4 seats (what
  ``table.receive`` does with another seat's shuffle), back to back on the trio thread;
* **tick lateness**: how late a 10 ms ``trio.sleep`` wakes up (the host's screen, its timers and
  its sends wait as long): the median and the 99th percentile.

Beside them, what the computer player got to think in the round (CPU seconds of its thread or of
its process) and how many decisions it finished, so that a way that only looks fast because the
computer player was starved would show it.

The computer player is Spades Hard choosing its bid with a 1 s think time, asked again as soon as it
answers, so that it thinks for the whole measurement.
"""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

import trio

from p2pcards.deal import Context, card_table, initial_deck, joint_key, new_hand_key, shuffle, verify_shuffle
from p2pcards.local import LocalRoom
from p2pcards.net.node import computer_chooser
from p2pcards.net.thinking import Thinker

__all__ = ["MODES", "format_table", "run"]

MODES = ("alone", "thread", "worker")
TICK_S = 0.010
TICKS = 60
VERIFIES = 8
THINK_MS = 1000


def _verifier() -> Callable[[], None]:
    """One piece of table work: verifying another seat's proven shuffle of a 52-card deck, 4 seats."""
    keys = [new_hand_key() for _ in range(4)]
    joint = joint_key([k.public for k in keys])
    deck0 = initial_deck(card_table(list(range(52))), joint)
    ctx = Context(game_id=b"bench", hand=1, seat=1, step=11)
    step = shuffle(ctx, joint, deck0)

    def verify() -> None:
        verify_shuffle(ctx, joint, deck0, step)

    return verify


async def _thinking(think: Callable[[], Awaitable[str]], answered: list[int]) -> None:
    while True:
        await think()
        answered[0] += 1


def _worker_cpu(pid: int | None) -> float | None:
    """CPU seconds the process ``pid`` has used (Linux), or None."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _round(
    verify: Callable[[], None], think: Callable[[], Awaitable[str]] | None, worker: int | None,
    size: tuple[int, int, float],
) -> dict[str, Any]:
    """One round of one way; ``worker`` is the worker's pid when the computer player thinks there;
    ``size`` the verifications and the ticks it times, and the seconds it lets Hard begin."""
    verifies, ticks, settle = size
    answered = [0]
    process0, thread0, worker0 = time.process_time(), time.thread_time(), _worker_cpu(worker)
    async with trio.open_nursery() as nursery:
        if think is not None:
            nursery.start_soon(_thinking, think, answered)
            await trio.sleep(settle)  # it is thinking
        work = []
        for _ in range(verifies):
            start = time.perf_counter()
            verify()
            work.append(time.perf_counter() - start)
            await trio.sleep(0)
        late = []
        for _ in range(ticks):
            start = time.perf_counter()
            await trio.sleep(TICK_S)
            late.append(time.perf_counter() - start - TICK_S)
        nursery.cancel_scope.cancel()
        # What the computer player got to think meanwhile: its process's CPU, or this process's
        # CPU outside the trio thread (the thinking thread's).
        worker1 = _worker_cpu(worker)
        if worker0 is not None and worker1 is not None:
            bot = worker1 - worker0
        else:
            bot = max(0.0, (time.process_time() - process0) - (time.thread_time() - thread0))
    late.sort()
    return {
        "bot_cpu_s": bot,
        "work_ms": statistics.median(work) * 1000,
        "late_p50_ms": statistics.median(late) * 1000,
        "late_p99_ms": late[min(len(late) - 1, int(len(late) * 0.99))] * 1000,
        "decisions": answered[0],
    }


async def _measure(repeat: int, size: tuple[int, int, float], think_ms: int) -> dict[str, Any]:
    room = LocalRoom("spades", human=0, level="easy", dealer="seeded", seed=5)
    turn = room.run_until_human()
    assert turn is not None
    view = turn.view
    chooser = computer_chooser(room.rules, "hard", seed=1, think_ms=think_ms)
    quick = computer_chooser(room.rules, "easy", seed=1)
    verify = _verifier()
    verify()
    thinker = Thinker()

    async def in_thread() -> str:
        # not abandoned on cancel: the round ends only once the thread is done, so it never runs on
        # into the next round
        return await trio.to_thread.run_sync(chooser, view)

    async def in_worker() -> str:
        return await thinker.choose(chooser.key, chooser.spec, view)

    rounds: dict[str, list[dict[str, Any]]] = {mode: [] for mode in MODES}
    try:
        await thinker.choose(quick.key, quick.spec, view)  # the worker is up, its imports done
        chooser(view)  # and so are this process's
        for _ in range(repeat):
            for mode in MODES:
                think = {"alone": None, "thread": in_thread, "worker": in_worker}[mode]
                pid = thinker.pid if mode == "worker" else None
                rounds[mode].append(await _round(verify, think, pid, size))
                if mode == "worker":
                    await thinker.choose(quick.key, quick.spec, view)  # the abandoned search has stopped
    finally:
        await thinker.aclose()
    modes = {}
    for mode, results in rounds.items():
        modes[mode] = {key: round(statistics.median(r[key] for r in results), 2)
                       for key in ("work_ms", "late_p50_ms", "late_p99_ms", "bot_cpu_s")}
        modes[mode]["decisions"] = sum(r["decisions"] for r in results)
    thread, worker, alone = modes["thread"], modes["worker"], modes["alone"]
    return {
        "repeat": repeat,
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.system()}, "
                   f"Python {platform.python_version()}",
        "load_average": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None,
        "think_ms": think_ms,
        "modes": modes,
        "work_thread_over_worker": round(thread["work_ms"] / worker["work_ms"], 2),
        "work_worker_over_alone": round(worker["work_ms"] / alone["work_ms"], 2),
        "late_p99_thread_over_worker": round(thread["late_p99_ms"] / max(worker["late_p99_ms"], 0.01), 2),
    }


def run(
    repeat: int = 3, *, verifies: int = VERIFIES, ticks: int = TICKS, think_ms: int = THINK_MS,
    settle: float = 0.1,
) -> dict[str, Any]:
    """Measure ``repeat`` rounds of each way (each timing ``verifies`` verifications and ``ticks``
    ticks, ``settle`` seconds after Hard begins thinking ``think_ms`` per decision); the result is
    plain JSON."""
    return trio.run(_measure, repeat, (verifies, ticks, settle), think_ms)


def format_table(result: dict[str, Any]) -> str:
    head = ["thinking", "table work ms", "tick late p50 ms", "tick late p99 ms", "bot CPU s", "decisions"]
    rows = [head]
    for mode in MODES:
        m = result["modes"][mode]
        rows.append([mode, f"{m['work_ms']:.2f}", f"{m['late_p50_ms']:.2f}", f"{m['late_p99_ms']:.2f}",
                     f"{m['bot_cpu_s']:.2f}", str(m["decisions"])])
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["  ".join(cell.rjust(w) for cell, w in zip(r, widths, strict=True)) for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines += [
        "",
        f"table work (verifying one 52-card, 4-seat shuffle on the trio thread) while Hard thinks: "
        f"thread / worker = {result['work_thread_over_worker']}×, worker / alone = "
        f"{result['work_worker_over_alone']}×",
        f"tick lateness p99 (a 10 ms trio.sleep): thread / worker = {result['late_p99_thread_over_worker']}×",
        f"median of {result['repeat']} rounds; Spades Hard bidding, {result['think_ms']} ms think time; "
        f"{result['machine']}; load average {result['load_average']}",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(format_table(run()))
