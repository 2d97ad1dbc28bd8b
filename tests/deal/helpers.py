"""Shared set-up for the deal tests: an honest table of n seats, deterministic throughout."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2pcards.deal import (
    CardTable,
    Context,
    Deck,
    HandKey,
    Point,
    Shuffle,
    announce_key,
    card_table,
    initial_deck,
    joint_key,
    key_commitment,
    new_hand_key,
    shuffle,
    verify_key,
    verify_key_commitment,
)
from p2pcards.deal.group import RandomSource
from p2pcards.deal.hashing import seeded_source

GAME = b"game-0001"


def ctx(seat: int | None = 0, step: int = 10, hand: int = 1, game: bytes = GAME) -> Context:
    return Context(game_id=game, hand=hand, seat=seat, step=step)


# The steps of a hand in these tests (the table numbers its log however it likes).
COMMIT_STEP, KEY_STEP, SHUFFLE_STEP, DEAL_STEP, AUDIT_STEP = 1, 2, 3, 20, 40


@dataclass
class Table:
    n: int
    cards: CardTable
    keys: list[HandKey]
    joint: Point
    initial: Deck
    shuffles: list[Shuffle]
    source: RandomSource

    @property
    def publics(self) -> list[Point]:
        return [k.public for k in self.keys]

    @property
    def deck(self) -> Deck:
        return self.shuffles[-1].deck if self.shuffles else self.initial

    def shuffle_steps(self) -> list[tuple[Context, Shuffle]]:
        return [(ctx(seat, SHUFFLE_STEP + seat), s) for seat, s in enumerate(self.shuffles)]


def make_table(n: int, cards: Sequence[int], seed: bytes = b"table", shuffled: bool = True) -> Table:
    """An honest hand up to the end of the shuffles, each seat's proofs checked on the way."""
    source = seeded_source(seed)
    keys = [new_hand_key(source) for _ in range(n)]
    commits = [key_commitment(ctx(i, COMMIT_STEP), k.public) for i, k in enumerate(keys)]
    announcements = [announce_key(ctx(i, KEY_STEP), k, source) for i, k in enumerate(keys)]
    publics = []
    for i, ann in enumerate(announcements):
        verify_key_commitment(ctx(i, COMMIT_STEP), commits[i], ann.public)
        publics.append(verify_key(ctx(i, KEY_STEP), ann))
    joint = joint_key(publics)
    table = card_table(cards)
    deck = initial_deck(table, joint)
    result = Table(n, table, keys, joint, deck, [], source)
    if shuffled:
        for seat in range(n):
            step = shuffle(ctx(seat, SHUFFLE_STEP + seat), joint, result.deck, source)
            result.shuffles.append(step)
    return result


def flip(data: bytes, index: int, mask: int = 1) -> bytes:
    i = index % len(data)
    return data[:i] + bytes((data[i] ^ mask,)) + data[i + 1 :]
