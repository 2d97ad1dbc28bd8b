"""A small seeded PRNG of our own (SplitMix64), for simulations, tests and computer players.

The standard ``random`` module is never used: its algorithm and seeding are an implementation detail
of CPython, and nothing here may depend on one interpreter's choices.  SplitMix64 is tiny, fast in
pure Python and gives the same stream on every platform.  It is *not* a source of secrets: the
deal's secrets come from the operating system (see ``p2pcards.deal``).
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1
_THRESHOLDS: tuple[int, ...] = (0, *(((1 << 64) - n) % n for n in range(1, 64)))
"""Lemire's rejection threshold for the small bounds a playout draws from."""


class Rng:
    __slots__ = ("_state",)

    def __init__(self, seed: int | str | bytes = 0) -> None:
        if isinstance(seed, int):
            self._state = seed & _MASK
        else:
            raw = seed.encode() if isinstance(seed, str) else seed
            self._state = int.from_bytes(hashlib.sha256(raw).digest()[:8], "big")

    def next64(self) -> int:
        s = (self._state + 0x9E3779B97F4A7C15) & _MASK
        self._state = s
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (Lemire's method; rejection keeps it exact)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        threshold = ((1 << 64) - n) % n
        while True:
            m = self.next64() * n
            if (m & _MASK) >= threshold:
                return m >> 64

    def choice(self, items: Sequence[T]) -> T:
        """``items[self.below(len(items))]``, written out: playouts call it once per move."""
        n = len(items)
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        threshold = _THRESHOLDS[n] if n < 64 else ((1 << 64) - n) % n
        while True:
            s = (self._state + 0x9E3779B97F4A7C15) & _MASK
            self._state = s
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            m = (z ^ (z >> 31)) * n
            if (m & _MASK) >= threshold:
                return items[m >> 64]

    def shuffle(self, items: MutableSequence[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def fork(self, label: str) -> Rng:
        """An independent stream for a named purpose, so adding draws in one place moves no other."""
        return Rng(self.next64().to_bytes(8, "big") + label.encode())
