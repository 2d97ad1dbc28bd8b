"""One-flaw mutants of our own peer, to measure what the conformance cases catch
(``p2pcards harness conformance --mutants``; the score is in ``protocol/HARNESS.md``).

Each mutant is a mistake an implementer in another language could make — a check left out, a bound
off by one, two lines in the wrong order — put into our replica by rewriting one line of one function
when the program starts: ``python -m p2pcards.harness.conformance_mutants NAME`` is then our
``p2pcards peer --stdio`` with that one flaw.  A case *catches* a mutant when the mutant fails it; the
score of a layer is the share of its mutants that some case catches.  A mutant no case catches is a
survivor: either it changes nothing a peer can see (an equivalent mutant), or the cases miss it.
"""

from __future__ import annotations

import importlib
import inspect
import sys
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

LAYERS = ("wire", "deal", "table", "pipe", "games")


@dataclass(frozen=True)
class Mutant:
    name: str
    layer: str
    flaw: str
    """What the implementer got wrong, in a sentence."""
    target: str
    """``module:function`` or ``module:Class.method``: where the one line is."""
    old: str
    new: str


MUTANTS: tuple[Mutant, ...] = (
    Mutant("signatures-unchecked", "wire", "never checks a message's signature",
           "p2pcards.wire.chain:authenticate", "        verify(msg, key)\n", "        pass\n"),
    Mutant("unknown-kinds", "wire", "takes a message of a kind it does not know",
           "p2pcards.wire.envelope:check_kind",
           "        raise EnvelopeError(Reason.UNKNOWN_KIND, repr(kind[:64]))", "        return"),
    Mutant("kind-size-unchecked", "wire", "takes a message over its kind's size limit",
           "p2pcards.wire.envelope:check_kind", "    if size > limit:", "    if False:"),
    Mutant("key-proof-unchecked", "deal", "never checks the proof of a revealed hand key",
           "p2pcards.table.dealers:MentalDealer._accept_one",
           "            deal.verify_key(self._ctx(step, seat), ann)\n", "            pass\n"),
    Mutant("key-commitment-unchecked", "deal", "never compares a revealed hand key with its commitment",
           "p2pcards.table.dealers:MentalDealer._accept_one",
           "            deal.verify_key_commitment(self._ctx(0, seat), self._commits[seat], ann.public)\n",
           "            pass\n"),
    Mutant("hand-key-reused", "deal", "deals every hand with the same key",
           "p2pcards.table.secrets:SeatSecrets.hand_key",
           'seed = self._key("hand-key", _u64(hand), start_head)', 'seed = self._key("hand-key")'),
    Mutant("shuffle-proof-unchecked", "deal", "never checks a shuffle's proof",
           "p2pcards.deal.shuffle:_check", '    """', '    return\n    """'),
    Mutant("own-illegal-moves", "table", "takes any move its own player asks for",
           "p2pcards.table.attempt:Attempt.check_own", "state.clone().apply(action)", "pass"),
    Mutant("sends-before-persisting", "table", "sends a message before it journals it",
           "p2pcards.table.ingest:Intake._keep",
           "            self._told.append(out.Persist(msg.data, own=own))\n"
           "            self._told.append(out.Send(msg.data))\n",
           "            self._told.append(out.Send(msg.data))\n"
           "            self._told.append(out.Persist(msg.data, own=own))\n"),
    Mutant("half-is-majority", "table", "counts exactly half of the voices as a majority",
           "p2pcards.table.claims:vote_decision", "2 * len(live) <= len(voters)",
           "2 * len(live) < len(voters)"),
    Mutant("no-catchup-wait", "table", "signs again at once after a restore, without waiting for catch-up",
           "p2pcards.table.replica:Table.restore",
           "s for s in range(self.n) if s != self.seat and s not in self._held.cheaters",
           "s for s in ()"),
    Mutant("closed-stream-kept", "pipe", "never opens a new connection after it closed one",
           "p2pcards.harness.pipe_peer:PipePeer._frame", "            del self._decoders[peer]\n",
           "            pass\n"),
    Mutant("bag-at-eleven", "games", "Spades: the bag penalty at the 11th bag instead of the 10th",
           "p2pcards.games.spades.scoring:score_team", "while total_bags >= BAG_LIMIT:",
           "while total_bags > BAG_LIMIT:"),
)


def locate(mutant: Mutant) -> tuple[Any, Any, str, Any, str]:
    """The module, the owner (module or class), the name, the function and its source of the line a
    mutant changes; ``RuntimeError`` unless the line is there exactly once (the code moved on)."""
    module_name, _, qualname = mutant.target.partition(":")
    module = importlib.import_module(module_name)
    owner: Any = module
    *path, name = qualname.split(".")
    for part in path:
        owner = getattr(owner, part)
    original = inspect.unwrap(getattr(owner, name))
    source = inspect.getsource(original)
    if source.count(mutant.old) != 1:
        raise RuntimeError(f"{mutant.name}: the line to change is not once in {mutant.target}")
    return module, owner, name, original, source


def apply(mutant: Mutant) -> None:
    """Rewrite the one line in this process: the function is compiled again from its source with the
    line changed, and put wherever the original was (its module, its class, and every module that
    imported it by name)."""
    module, owner, name, original, source = locate(mutant)
    mutated_source = textwrap.dedent(source.replace(mutant.old, mutant.new))
    namespace: dict[str, Any] = {}
    exec(compile(mutated_source, module.__file__ or module.__name__, "exec"), module.__dict__, namespace)
    mutated = namespace[name]
    setattr(owner, name, mutated)
    if owner is module:
        for other in list(sys.modules.values()):
            if other is not None and getattr(other, name, None) is original:
                setattr(other, name, mutated)


# --------------------------------------------------------------------------- scoring


@dataclass
class MutantResult:
    mutant: Mutant
    caught_by: str | None
    """The first case the mutant failed, or None for a survivor."""
    detail: str = ""
    cases: list[str] = field(default_factory=list)
    """The cases it was run against (up to the one that caught it)."""


def command(mutant: Mutant) -> str:
    return f"{sys.executable} -m p2pcards.harness.conformance_mutants {mutant.name}"


def run_mutants(
    cases: list[Any],
    mutants: Iterable[Mutant] = MUTANTS,
    progress: Callable[[MutantResult], None] | None = None,
) -> list[MutantResult]:
    """Each mutant against ``cases`` in order, until one catches it."""
    from p2pcards.harness.conformance import run_case

    results = []
    for mutant in mutants:
        result = MutantResult(mutant, None)
        for case in cases:
            result.cases.append(case.id)
            outcome = run_case(case, command(mutant))
            if not outcome.passed:
                result.caught_by = case.id
                result.detail = outcome.problems[0] if outcome.problems else outcome.detail
                break
        results.append(result)
        if progress is not None:
            progress(result)
    return results


def score(results: list[MutantResult]) -> dict[str, tuple[int, int]]:
    """Per layer (and ``all``): (caught, mutants)."""
    table: dict[str, tuple[int, int]] = {}
    for layer in (*LAYERS, "all"):
        mine = [r for r in results if layer in ("all", r.mutant.layer)]
        if mine:
            table[layer] = (sum(r.caught_by is not None for r in mine), len(mine))
    return table


def main(argv: list[str]) -> int:
    by_name = {m.name: m for m in MUTANTS}
    if len(argv) != 1 or argv[0] not in by_name:
        print(f"say a mutant: {', '.join(by_name)}", file=sys.stderr)
        return 2
    apply(by_name[argv[0]])
    from p2pcards.harness.pipe_peer import serve

    return serve(sys.stdin.buffer, sys.stdout.buffer)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
