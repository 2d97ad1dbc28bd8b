"""The exact play of Azi's three tricks with every hand known (one determinized deal), on the engine.

The positions are the engine's: an ``AziPlay`` (``AziHand.play_copy`` of a determinized state),
cloned and moved by its ``apply`` with its legal cards, and scored by how it ends (``winner``,
``won``).  Nothing here repeats a rule of play.

A max^n search (each seat maximises its own payoff) over every legal card of every seat: at most
3^k first tricks and 2^k second ones for k seats, so it is searched in full.  Payoffs: 1 for the seat
that takes two tricks (and the pot), ``AZI`` for each seat with a trick when all three tricks go to
different seats (an azi: it plays again for the pot without paying), 0 otherwise.  When a seat is
indifferent between cards, it picks the one worst for the searching seat (the "paranoid" tie break:
nobody is assumed to help it), then the lower card.

Two cards of one hand are the same card for the search when no other dealt card of their suit lies
between them: only one of them is tried (at the root every legal card is scored).
"""

from __future__ import annotations

from p2pcards.games.azi import actions as act
from p2pcards.games.azi.play import AziPlay, legal_mask, play_actions, power
from p2pcards.games.base import Action
from p2pcards.games.cards import Card

AZI = 1.0 / 3.0
"""What an azi is worth to a seat with a trick: about an even share of the pot among the three who
play again."""

Vec = tuple[float, ...]


_ORDERS: dict[tuple[int, Card], list[int]] = {}
_WINS: dict[int, list[Vec]] = {}


def _order(trump: int, top: Card) -> list[int]:
    """Each card's place in the deck sorted by suit, then by the engine's power in its own suit."""
    key = (trump, top)
    got = _ORDERS.get(key)
    if got is None:
        got = _ORDERS[key] = [c // 13 * 128 + power(c, c // 13, trump, top) for c in range(52)]
    return got


def _classes(state: AziPlay) -> dict[Action, Action]:
    """Each card's representative (as play actions): the lowest card of its run in its hand (see the
    module doc).  The cards in the hands and the trick, in order, are walked once: a card joins the
    run of the card before it when both are of one suit and in one hand."""
    owner: dict[int, int] = {}
    for s, m in enumerate(state.hands):
        for a in play_actions(m):
            owner[a - act.PLAY0] = s
    for _, c in state.trick:
        owner[c] = -1
    rep: dict[Action, Action] = {}
    prev, prev_owner = -1, -1
    for c in sorted(owner, key=_order(state.trump_suit, state.top_card).__getitem__):
        o = owner[c]
        if o >= 0:
            a = act.PLAY0 + c
            rep[a] = rep[act.PLAY0 + prev] if o == prev_owner and prev // 13 == c // 13 else a
        prev, prev_owner = c, o
    return rep


def solve(state: AziPlay, root: int, nodes: list[int] | None = None) -> list[tuple[Action, Vec]]:
    """``(action, payoffs)`` for each legal card of the seat to act, in card order; ``payoffs`` has
    one entry per seat of the table.  ``root`` is the searching seat (the one to act, normally).
    ``nodes[0]``, if given, is increased by the cards played in the search (its work units).
    ``state`` is left as it was."""
    count = nodes if nodes is not None else [0]
    n = len(state.hands)
    rep = _classes(state)
    trump = state.trump_suit
    win_vec = _WINS.get(n)
    if win_vec is None:
        win_vec = _WINS[n] = [tuple(1.0 if i == w else 0.0 for i in range(n)) for w in range(n)]
    azi_cache: dict[tuple[int, ...], Vec] = {}

    def score(st: AziPlay) -> Vec:
        """The payoffs of a finished hand."""
        if st.winner is not None:
            return win_vec[st.winner]
        k = tuple(st.won)
        v = azi_cache.get(k)
        if v is None:
            v = tuple(AZI if x else 0.0 for x in k)
            azi_cache[k] = v
        return v

    known: dict[int, tuple[Action, ...]] = {}

    def options(mask: int) -> tuple[Action, ...]:
        """The cards worth trying of a mask of legal cards: one per run (remembered per mask)."""
        got = known.get(mask)
        if got is None:
            seen: list[Action] = []
            out: list[Action] = []
            for a in play_actions(mask):
                r = rep[a]
                if r not in seen:
                    seen.append(r)
                    out.append(a)
            got = known[mask] = tuple(out)
        return got

    def node(st: AziPlay) -> Vec:
        """The value of ``st`` for its seat to act; ``st`` is this node's own (its last option moves it)."""
        while True:
            p = st.to_act
            mask = legal_mask(st.hands[p], st.led, trump)  # the engine's rule, read from its state
            opts = known.get(mask) or options(mask)
            if len(opts) > 1:
                break
            # forced: this node's own state moves on
            st.apply(opts[0])
            count[0] += 1
            if st.to_act < 0:
                return score(st)
        last = len(opts) - 1
        res: Vec | None = None
        for i, a in enumerate(opts):
            nxt = st if i == last else st.clone()
            nxt.apply(a)
            count[0] += 1
            vec = score(nxt) if nxt.to_act < 0 else node(nxt)
            if res is None or vec[p] > res[p] or (vec[p] == res[p] and vec[root] < res[root]):
                res = vec
                if vec[p] >= 1.0:
                    break
        assert res is not None
        return res

    out: list[tuple[Action, Vec]] = []
    for a in state.legal_actions():
        nxt = state.clone()
        nxt.apply(a)
        count[0] += 1
        out.append((a, score(nxt) if nxt.to_act < 0 else node(nxt)))
    return out


def best_play(state: AziPlay, root: int, nodes: list[int] | None = None) -> Vec:
    """The payoffs of the play from ``state`` when the seat to act plays its best card (ties as in
    the search: the one worst for ``root``, then the lower card)."""
    vecs = [v for _, v in solve(state, root, nodes)]
    p = state.to_act
    best = vecs[0]
    for v in vecs[1:]:
        if v[p] > best[p] or (v[p] == best[p] and v[root] < best[root]):
            best = v
    return best
