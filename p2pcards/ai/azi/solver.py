"""The exact play of Azi's three tricks with every hand known (one determinized deal).

A max^n search (each seat maximises its own payoff) over every legal card of every seat: at most
3^k first tricks and 2^k second ones for k seats, so it is searched in full.  Payoffs: 1 for the seat
that takes two tricks (and the pot), ``AZI`` for each seat with a trick when all three tricks go to
different seats (an azi: it plays again for the pot without paying), 0 otherwise.  When a seat is
indifferent between cards, it picks the one worst for the searching seat (the "paranoid" tie break:
nobody is assumed to help it), then the lower card.

Two cards of one hand are the same card for the search when no other dealt card of their suit lies
between them: only one of them is tried.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pcards.games.cards import Card

AZI = 1.0 / 3.0
"""What an azi is worth to a seat with a trick: about an even share of the pot among the three who
play again."""

_POWER: dict[tuple[int, int], list[list[int]]] = {}


def power_table(trump: int, top: Card) -> list[list[int]]:
    """``table[led][card]``: the card's power in a trick led in ``led`` (-1: cannot win)."""
    key = (trump, top)
    t = _POWER.get(key)
    if t is None:
        t = []
        for led in range(4):
            row = []
            for c in range(52):
                if c == top:
                    row.append(99)
                elif c // 13 == trump:
                    row.append(50 + c % 13)
                elif c // 13 == led:
                    row.append(c % 13)
                else:
                    row.append(-1)
            t.append(row)
        _POWER[key] = t
    return t


def _classes(hands: Sequence[Sequence[Card]], extra: Sequence[Card], trump: int,
             top: Card) -> dict[Card, Card]:
    """Each card's representative: the lowest card of its run in its hand (see the module doc)."""
    def key(c: Card) -> tuple[int, int]:
        return (c // 13, 99 if c == top else c % 13)

    allc = sorted([c for h in hands for c in h] + list(extra), key=key)
    pos = {c: i for i, c in enumerate(allc)}
    rep: dict[Card, Card] = {}
    for h in hands:
        hs = sorted(h, key=key)
        prev = -1
        for c in hs:
            if prev >= 0 and prev // 13 == c // 13 and pos[c] == pos[prev] + 1:
                rep[c] = rep[prev]
            else:
                rep[c] = c
            prev = c
    return rep


def solve(hands: list[list[Card]], turn: int, trick: list[tuple[int, Card]], tricks: list[int],
          trump: int, top: Card, root: int, nodes: list[int] | None = None) -> list[tuple[float, ...]]:
    """The payoff vectors of each legal card of seat ``turn`` (in the order of ``root_cards``).

    ``hands[i]`` are the cards of the i-th seat in the play (seats indexed in clockwise order);
    ``trick`` holds ``(index, card)`` of the cards already on the table in this trick, ``tricks``
    each index's tricks so far.  ``root`` is the searching seat (``turn`` normally).  ``nodes[0]``,
    if given, is increased by the cards played in the search (its work units)."""
    count = nodes if nodes is not None else [0]
    m = len(hands)
    pw = power_table(trump, top)
    suit_trump = trump
    rep = _classes(hands, [c for _, c in trick], trump, top)
    win_vec = [tuple(1.0 if i == w else 0.0 for i in range(m)) for w in range(m)]
    azi_cache: dict[tuple[int, ...], tuple[float, ...]] = {}

    def azi_vec(tr: list[int]) -> tuple[float, ...]:
        k = tuple(tr)
        v = azi_cache.get(k)
        if v is None:
            v = tuple(AZI if x else 0.0 for x in tr)
            azi_cache[k] = v
        return v

    def options(h: list[Card], led: int) -> list[Card]:
        if led < 0:
            cand = h
        else:
            cand = [c for c in h if c // 13 == led]
            if not cand:
                cand = [c for c in h if c // 13 == suit_trump] or h
        seen: list[Card] = []
        out: list[Card] = []
        for c in sorted(cand):
            r = rep[c]
            if r not in seen:
                seen.append(r)
                out.append(c)
        return out

    def play(p: int, c: Card, led: int, best: int, who: int, played: int) -> tuple[float, ...]:
        """The value of seat ``p`` playing ``c`` to a trick led in ``led`` (-1: ``c`` leads), whose
        highest card so far has power ``best`` and belongs to ``who``."""
        count[0] += 1
        h = hands[p]
        lead_suit = led if led >= 0 else c // 13
        cp = pw[lead_suit][c]
        nb, nw = (cp, p) if cp > best else (best, who)
        i = h.index(c)
        h.pop(i)
        if played + 1 == m:
            tricks[nw] += 1
            if tricks[nw] == 2:
                vec = win_vec[nw]
            elif sum(tricks) == 3:
                vec = azi_vec(tricks)
            else:
                vec = node(nw, -1, -1, -1, 0)
            tricks[nw] -= 1
        else:
            vec = node((p + 1) % m, lead_suit, nb, nw, played + 1)
        h.insert(i, c)
        return vec

    def node(p: int, led: int, best: int, who: int, played: int) -> tuple[float, ...]:
        res: tuple[float, ...] | None = None
        for c in options(hands[p], led):
            vec = play(p, c, led, best, who, played)
            if res is None or vec[p] > res[p] or (vec[p] == res[p] and vec[root] < res[root]):
                res = vec
                if vec[p] >= 1.0:
                    break
        assert res is not None
        return res

    # the root: every option of ``turn`` separately
    if trick:
        led = trick[0][1] // 13
        best, who = -1, -1
        for i, c in trick:
            cp = pw[led][c]
            if cp > best:
                best, who = cp, i
    else:
        led, best, who = -1, -1, -1
    played = len(trick)
    out = [play(turn, c, led, best, who, played) for c in root_cards(hands[turn], led, trump)]
    return out


def root_cards(h: Sequence[Card], led: int, trump: int) -> list[Card]:
    """The legal cards of a hand (A10), in card order: the options ``solve`` scores."""
    if led < 0:
        return sorted(h)
    follow = [c for c in h if c // 13 == led]
    if follow:
        return sorted(follow)
    return sorted([c for c in h if c // 13 == trump] or h)


def outcome(hands: list[list[Card]], leader: int, tricks: list[int], trump: int, top: Card,
            root: int) -> tuple[float, ...]:
    """The payoff vector of the whole play from a trick's start, ``leader`` to lead."""
    vecs = solve(hands, leader, [], tricks, trump, top, root)
    p = leader
    best = vecs[0]
    for v in vecs[1:]:
        if v[p] > best[p] or (v[p] == best[p] and v[root] < best[root]):
            best = v
    return best
