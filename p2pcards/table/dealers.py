"""The dealer of a hand, as a component of the table.

The table decides *when* positions open and *who* must publish decryption shares; a dealer makes and
checks the contents.  Two dealers follow exactly the same path through the table:

* ``MentalDealer`` — the mental-poker protocol of ``p2pcards.deal`` among the hand's *key holders*
  (the seats still playing; Spades' open dummies and seats that left hold no key): key commitments,
  keys with proofs, one proven shuffle per key holder, proven decryption shares.  Nobody controls or
  sees the deck.
* ``SeededDealer`` — a deck order derived from a public seed, with empty proofs: reproducible
  tournaments (a deal replayed with the seats swapped) and tests.  It hides nothing from a replica
  that reads the seed, so it is never used where people play for real.

A dealer raises ``DealFault`` for anything a seat sent that does not check out (whatever it is: a
malformed body, a bad proof, keys that sum to nothing); the table turns it into a verdict against
that seat.  It never raises anything else on a peer's input.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from p2pcards import deal
from p2pcards.deal.keys import hand_key_from_secret
from p2pcards.games.cards import Card
from p2pcards.games.rng import Rng

Body = Any
"""A message body: plain values the wire's canonical msgpack carries (bytes, ints, str, lists)."""

SourceFor = Callable[[bytes, str], deal.RandomSource]
"""``source_for(prev, kind)``: the randomness of this seat's message of ``kind`` after head ``prev``."""


class DealFault(Exception):
    """What ``seat`` sent for the deal is wrong; the message says what (-1: no seat can be blamed).
    ``kind``: ``bad-proof`` when a proof fails (a shuffle, a key, a share), ``bad-message`` when the
    bytes themselves are wrong."""

    def __init__(self, seat: int, message: str, kind: str = "bad-message") -> None:
        super().__init__(f"seat {seat}: {message}" if seat >= 0 else message)
        self.seat = seat
        self.kind = kind


def _kind(exc: deal.DealError) -> str:
    return "bad-proof" if isinstance(exc, deal.ProofError) else "bad-message"


@dataclass(frozen=True)
class Prelude:
    """One step before the deal: its message kind and the seats awaited."""

    kind: str
    seats: tuple[int, ...]


class HandDealer(Protocol):
    """One replica's dealer for one hand."""

    holders: tuple[int, ...]
    """The key-holding seats, ascending: every position's card is masked by their keys."""

    def prelude(self) -> list[Prelude]:
        """The steps before any card is dealt, in order."""

    def contribute(self, kind: str, step: int, prev: bytes) -> Body:
        """This seat's body for a prelude step."""

    def accept(self, kind: str, step: int, contributions: Sequence[tuple[int, Body]]) -> None:
        """Check and take a sealed prelude step's bodies (in seat order); raise ``DealFault``."""

    def make_shares(self, step: int, prev: bytes, positions: Sequence[int]) -> Body:
        """This seat's decryption shares for ``positions``, with proofs, bound to ``step``."""

    def accept_shares(self, step: int, seat: int, positions: Sequence[int], body: Body) -> None:
        """Check ``seat``'s shares for ``positions`` (made at ``step``) and keep them."""

    def open(self, position: int, own: bool) -> Card:
        """The card at ``position`` from the kept shares of every other key holder plus, if ``own``,
        this seat's secret (a private deal), else from every key holder's kept share.  Raises
        ``DealFault`` if the result is no card."""


DealerFactory = Callable[[int, bytes, tuple[int, ...]], HandDealer]
"""``factory(hand, start_head, holders)`` — a fresh dealer for one attempt at a hand."""


# --------------------------------------------------------------------------- seeded


def seeded_deck(cards: Sequence[Card], seed: int, hand: int) -> list[Card]:
    order = list(cards)
    Rng(f"p2pcards/seeded-deck/{seed}/{hand}").shuffle(order)
    return order


class SeededDealer:
    """A known deck order per hand; shares are empty and always check."""

    def __init__(self, cards: Sequence[Card], seed: int, hand: int, holders: tuple[int, ...]) -> None:
        self._deck = seeded_deck(cards, seed, hand)
        self.holders = holders

    def prelude(self) -> list[Prelude]:
        return []

    def contribute(self, kind: str, step: int, prev: bytes) -> Body:
        raise AssertionError("a seeded deal has no prelude")

    def accept(self, kind: str, step: int, contributions: Sequence[tuple[int, Body]]) -> None:
        raise AssertionError("a seeded deal has no prelude")

    def make_shares(self, step: int, prev: bytes, positions: Sequence[int]) -> Body:
        return []

    def accept_shares(self, step: int, seat: int, positions: Sequence[int], body: Body) -> None:
        if body != [] and body != ():
            raise DealFault(seat, "sent shares in a seeded deal")

    def open(self, position: int, own: bool) -> Card:
        return self._deck[position]


# --------------------------------------------------------------------------- mental poker


class MentalDealer:
    """The mental-poker dealer of one replica for one attempt at a hand (see ``p2pcards.deal``)."""

    def __init__(
        self,
        game_id: bytes,
        cards: Sequence[Card],
        hand: int,
        seat: int | None,
        holders: tuple[int, ...],
        *,
        key: int | None = None,
        source_for: SourceFor | None = None,
    ) -> None:
        self.game_id = game_id
        self.hand = hand
        self.seat = seat if seat in holders else None
        self.holders = holders
        self._source_for = source_for
        self._table = deal.card_table(list(cards))
        self.key = None if key is None or self.seat is None else hand_key_from_secret(key)
        self._commits: dict[int, bytes] = {}
        self._publics: dict[int, deal.Point] = {}
        self._joint: deal.Point | None = None
        self._deck: deal.Deck | None = None
        """The initial deck until every shuffle is verified, then the final shuffled deck."""
        self._shuffles: list[tuple[deal.Context, deal.Shuffle]] = []
        self._shares: dict[int, dict[int, deal.Point]] = {}

    def _ctx(self, step: int, seat: int | None) -> deal.Context:
        return deal.Context(game_id=self.game_id, hand=self.hand, seat=seat, step=step)

    def _source(self, prev: bytes, kind: str) -> dict[str, Any]:
        return {} if self._source_for is None else {"source": self._source_for(prev, kind)}

    # ---- prelude: key commitments, keys, one shuffle per key holder

    def prelude(self) -> list[Prelude]:
        steps = [Prelude("key_commit", self.holders), Prelude("key_reveal", self.holders)]
        steps += [Prelude("shuffle", (s,)) for s in self.holders]
        return steps

    def contribute(self, kind: str, step: int, prev: bytes) -> Body:
        assert self.key is not None, "only a key holder contributes to the deal"
        ctx = self._ctx(step, self.seat)
        if kind == "key_commit":
            # The commitment binds the hand, not the step: the key is revealed one step later.
            return deal.key_commitment(self._ctx(0, self.seat), self.key.public)
        if kind == "key_reveal":
            return deal.announce_key(ctx, self.key, **self._source(prev, kind)).to_wire()
        if kind == "shuffle":
            assert self._deck is not None and self._joint is not None
            deck_in = self._shuffles[-1][1].deck if self._shuffles else self._deck
            return deal.shuffle(ctx, self._joint, deck_in, **self._source(prev, kind)).to_wire()
        raise AssertionError(f"no prelude step {kind}")

    def accept(self, kind: str, step: int, contributions: Sequence[tuple[int, Body]]) -> None:
        for seat, body in contributions:
            try:
                self._accept_one(kind, step, seat, body)
            except deal.DealError as exc:
                raise DealFault(seat, str(exc), _kind(exc)) from exc
        if kind == "key_reveal":
            try:
                self._joint = deal.joint_key([self._publics[s] for s in self.holders])
                self._deck = deal.initial_deck(self._table, self._joint)
            except deal.DealError as exc:
                # Keys that sum to the identity: only possible if every key holder chose its key to
                # cancel the others' (each key was committed before any was shown), so no honest
                # seat is among them; the last key holder is named.
                raise DealFault(self.holders[-1], f"the hand keys sum to no key: {exc}") from exc
        elif kind == "shuffle" and len(self._shuffles) == len(self.holders):
            self._verify_shuffles()

    def _accept_one(self, kind: str, step: int, seat: int, body: Body) -> None:
        if kind == "key_commit":
            if not isinstance(body, bytes) or len(body) != 32:
                raise deal.EncodingError("a key commitment is 32 bytes")
            self._commits[seat] = body
        elif kind == "key_reveal":
            ann = deal.KeyAnnouncement.from_wire(body)
            deal.verify_key(self._ctx(step, seat), ann)
            deal.verify_key_commitment(self._ctx(0, seat), self._commits[seat], ann.public)
            self._publics[seat] = ann.public
        elif kind == "shuffle":
            assert self._deck is not None
            self._shuffles.append((self._ctx(step, seat), deal.Shuffle.from_wire(body, len(self._table))))
        else:
            raise AssertionError(f"no prelude step {kind}")

    def _verify_shuffles(self) -> None:
        """All shuffles at once, before any card is dealt: one batched check is cheaper than n, since
        consecutive shuffles share a deck.  A failure is re-checked one by one and names the seat."""
        assert self._joint is not None and self._deck is not None
        try:
            self._deck = deal.verify_shuffle_chain(
                self._joint, self._deck, self._shuffles, own_seat=self.seat
            )
        except deal.ProofError as exc:
            seat = exc.seat if exc.seat is not None else -1
            raise DealFault(seat, str(exc), "bad-proof") from exc
        except deal.DealError as exc:
            raise DealFault(-1, str(exc)) from exc

    # ---- shares

    def make_shares(self, step: int, prev: bytes, positions: Sequence[int]) -> Body:
        assert self._deck is not None and self.key is not None
        ctx = self._ctx(step, self.seat)
        kw = self._source(prev, "shares")
        return [deal.make_share(ctx, self.key, self._deck, p, **kw).to_wire() for p in positions]

    def accept_shares(self, step: int, seat: int, positions: Sequence[int], body: Body) -> None:
        assert self._deck is not None
        if not isinstance(body, (list, tuple)) or len(body) != len(positions):
            raise DealFault(seat, f"sent {_count(body)} shares, {len(positions)} were due")
        ctx = self._ctx(step, seat)
        public = self._publics[seat]
        for p, raw in zip(positions, body, strict=True):
            try:
                share = deal.Share.from_wire(raw)
                if share.position != p:
                    raise deal.EncodingError(f"a share for position {share.position}, {p} was due")
                d = deal.verify_share(ctx, public, self._deck, p, share)
            except deal.DealError as exc:
                raise DealFault(seat, str(exc), _kind(exc)) from exc
            self._shares.setdefault(p, {})[seat] = d

    def open(self, position: int, own: bool) -> Card:
        assert self._deck is not None
        held = self._shares.get(position, {})
        mine = (self.seat, self.key) if own and self.seat is not None and self.key is not None else None
        sharers = [s for s in self.holders if mine is None or s != mine[0]]
        try:
            return deal.open_card(
                self._table, self._deck[position], {s: held[s] for s in sharers}, self.holders, own=mine
            )
        except (deal.DealError, KeyError) as exc:
            raise DealFault(-1, f"position {position} does not open to a card: {exc}") from exc


def _count(body: object) -> int:
    return len(body) if isinstance(body, (list, tuple)) else 0


def mental_factory(
    game_id: bytes,
    cards: Sequence[Card],
    seat: int | None,
    *,
    key_for: Callable[[int, bytes], int] | None = None,
    source_for: SourceFor | None = None,
) -> DealerFactory:
    """``key_for(hand, start_head)``: this seat's deal key for that attempt (None for an observer)."""

    def make(hand: int, start_head: bytes, holders: tuple[int, ...]) -> HandDealer:
        key = None if key_for is None or seat not in holders else key_for(hand, start_head)
        return MentalDealer(game_id, cards, hand, seat, holders, key=key, source_for=source_for)

    return make


def seeded_factory(cards: Sequence[Card], seed: int) -> DealerFactory:
    def make(hand: int, start_head: bytes, holders: tuple[int, ...]) -> HandDealer:
        return SeededDealer(cards, seed, hand, holders)

    return make
