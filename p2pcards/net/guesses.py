"""A private table's join-code guesses, per address: counted when they arrive, then a back-off.

The code itself never crosses the network (see ``handshake``), so all a stranger can do is try codes
against the host, one connection each.  Each connection from an address is counted as a guess **the
moment it arrives**, and stays counted unless it turns out right, or not to be a guess at all (no
code in its hello, a connection that gave way or went quiet): so a burst of concurrent connections
cannot try more codes than the limit, however fast they come.

After ``free`` wrong codes the address must wait ``backoff`` seconds before its next try, twice as
long after each further wrong code, up to ``backoff_max``; one try at a time then.  A roommate
behind the same address who mistyped can wait it out (the wait is told with the refusal), and an
address forgets its wrong codes ``forget_after`` seconds after the last one.  A guesser gets a few
tries an hour per address.  At most ``remember`` addresses are kept (the oldest forgotten first).
"""

from __future__ import annotations

import collections
from dataclasses import dataclass
from typing import Final

MAX_WRONG_CODES: Final = 5
"""Wrong join codes from one address before it has to wait between tries."""
CODE_BACKOFF: Final = 10.0
"""Seconds to wait after the ``MAX_WRONG_CODES``-th wrong code; doubled with every further one."""
CODE_BACKOFF_MAX: Final = 120.0
CODE_FORGET: Final = 600.0
"""Seconds after its last wrong code when an address starts afresh."""
MAX_TRACKED_ADDRESSES: Final = 1024


@dataclass
class _Address:
    wrong: int = 0
    in_flight: int = 0
    wait_until: float = 0.0
    last_wrong: float = 0.0


class CodeGuesses:
    def __init__(
        self,
        *,
        free: int = MAX_WRONG_CODES,
        backoff: float = CODE_BACKOFF,
        backoff_max: float = CODE_BACKOFF_MAX,
        forget_after: float = CODE_FORGET,
        remember: int = MAX_TRACKED_ADDRESSES,
    ) -> None:
        self.free = free
        self.backoff = backoff
        self.backoff_max = backoff_max
        self.forget_after = forget_after
        self.remember = remember
        self._addresses: collections.OrderedDict[str, _Address] = collections.OrderedDict()

    def wait(self, address: str, now: float) -> float:
        """0 if a new connection from ``address`` may try a code now, else the seconds to wait."""
        state = self._state(address, now, create=False)
        if state is None or state.wrong + state.in_flight < self.free:
            return 0.0
        if state.in_flight:
            return max(1.0, self.backoff)  # one try at a time once past the limit
        return max(0.0, state.wait_until - now)

    def arrived(self, address: str, now: float) -> None:
        """A connection from ``address`` arrived: counted as a guess from now on."""
        state = self._state(address, now, create=True)
        assert state is not None
        state.in_flight += 1

    def judged(self, address: str, now: float, *, wrong: bool) -> None:
        """That connection's code was wrong (or, ``wrong`` False: right, or no guess after all)."""
        state = self._state(address, now, create=True)
        assert state is not None
        state.in_flight = max(0, state.in_flight - 1)
        if not wrong and not state.wrong and not state.in_flight:
            del self._addresses[address]  # nothing against it: nothing to remember
            return
        if wrong:
            state.wrong += 1
            state.last_wrong = now
            if state.wrong >= self.free:
                doubling = 2 ** min(state.wrong - self.free, 16)
                state.wait_until = now + min(self.backoff_max, self.backoff * doubling)

    def _state(self, address: str, now: float, *, create: bool) -> _Address | None:
        state = self._addresses.get(address)
        if state is not None and not state.in_flight and now - state.last_wrong > self.forget_after:
            del self._addresses[address]  # long enough without a wrong code: a fresh start
            state = None
        if state is None and create:
            for old in list(self._addresses):
                if len(self._addresses) < self.remember:
                    break
                if not self._addresses[old].in_flight:  # never forget a guess under way
                    del self._addresses[old]
            state = self._addresses[address] = _Address()
        return state


__all__ = ["CODE_BACKOFF", "CODE_BACKOFF_MAX", "CODE_FORGET", "MAX_WRONG_CODES", "CodeGuesses"]
