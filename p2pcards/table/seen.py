"""What a replica already checked: the authentication verdict of recent payloads, by their hash.

Every message reaches a replica once from its author and again from each peer that relays it, and a
hostile peer may replay anything it received, a whole catch-up answer included.  Accepted messages are
remembered for good by the replica (one hash, nothing else); this cache covers the rest — messages
held for later, refused ones, catch-up answers — so that each signature is checked once however
often its bytes arrive, within a byte budget (the oldest forgotten first: a forgotten payload costs
one more check, never a wrong answer, since a signature's verdict depends on the bytes alone).
"""

from __future__ import annotations

from collections import OrderedDict

from p2pcards.wire import Accepted, Rejected

Verdict = Accepted | Rejected


class Seen:
    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._verdicts: OrderedDict[bytes, tuple[Verdict, int]] = OrderedDict()
        self._bytes = 0
        self._answers: OrderedDict[bytes, None] = OrderedDict()

    def verdict(self, fingerprint: bytes) -> Verdict | None:
        found = self._verdicts.get(fingerprint)
        if found is None:
            return None
        self._verdicts.move_to_end(fingerprint)
        return found[0]

    def remember(self, fingerprint: bytes, verdict: Verdict, size: int) -> None:
        if size > self.budget or fingerprint in self._verdicts:
            return
        self._verdicts[fingerprint] = (verdict, size)
        self._bytes += size
        while self._bytes > self.budget:
            _, (_, dropped) = self._verdicts.popitem(last=False)
            self._bytes -= dropped

    def first_answer(self, fingerprint: bytes) -> bool:
        """Whether the catch-up answer with this hash is new (then it is remembered): an answer
        replayed verbatim holds nothing its first copy did not."""
        if fingerprint in self._answers:
            return False
        self._answers[fingerprint] = None
        if len(self._answers) > ANSWERS_REMEMBERED:
            self._answers.popitem(last=False)
        return True


ANSWERS_REMEMBERED = 256
