"""Sampling the cards a seat cannot see, consistently with what it knows.

Determinizing players (Hard) deal the unseen cards to the hidden positions many times per decision.
A deal must respect what is public: a player who showed a void in a suit holds none of it, a card
seen in someone's hand is there.  ``sample_assignment`` draws such a deal: random greedy first (fast,
and uniform enough where constraints are loose), then an exact matching when greedy gets stuck.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from p2pcards.games.cards import Card
from p2pcards.games.rng import Rng

Allowed = Callable[[int, Card], bool]
"""``allowed(group, card)``: may the card lie in that group (an owner's hidden positions, the stock)?"""


def sample_assignment(
    rng: Rng,
    groups: Sequence[int],
    cards: Sequence[Card],
    allowed: Allowed | None = None,
    tries: int = 8,
) -> list[Card] | None:
    """Give one card to every slot; ``groups[i]`` is the group of slot ``i``.

    Returns the cards in slot order, or None when no assignment respects ``allowed`` (the
    caller's constraints contradict each other).  ``cards`` may hold more cards than slots.
    """
    n = len(groups)
    if n > len(cards):
        return None
    if allowed is None:
        pool = list(cards)
        rng.shuffle(pool)
        return pool[:n]
    for _ in range(tries):
        result = _greedy(rng, groups, cards, allowed)
        if result is not None:
            return result
    return _matching(rng, groups, cards, allowed)


def _greedy(rng: Rng, groups: Sequence[int], cards: Sequence[Card], allowed: Allowed) -> list[Card] | None:
    pool = list(cards)
    rng.shuffle(pool)
    # Fill the most constrained slots first: fewer dead ends.
    options = [sum(1 for c in pool if allowed(g, c)) for g in groups]
    order = sorted(range(len(groups)), key=lambda i: (options[i], i))
    out: list[Card] = [0] * len(groups)
    for i in order:
        g = groups[i]
        for k, c in enumerate(pool):
            if allowed(g, c):
                out[i] = c
                pool[k] = pool[-1]
                pool.pop()
                break
        else:
            return None
    return out


def _matching(rng: Rng, groups: Sequence[int], cards: Sequence[Card], allowed: Allowed) -> list[Card] | None:
    """Exact bipartite matching of slots to cards (augmenting paths), in a random order."""
    pool = list(cards)
    rng.shuffle(pool)
    edges = [[k for k, c in enumerate(pool) if allowed(g, c)] for g in groups]
    owner: list[int] = [-1] * len(pool)

    def augment(slot: int, seen: list[bool]) -> bool:
        for k in edges[slot]:
            if seen[k]:
                continue
            seen[k] = True
            if owner[k] < 0 or augment(owner[k], seen):
                owner[k] = slot
                return True
        return False

    for slot in range(len(groups)):
        if not augment(slot, [False] * len(pool)):
            return None
    out: list[Card] = [0] * len(groups)
    for k, slot in enumerate(owner):
        if slot >= 0:
            out[slot] = pool[k]
    return out
