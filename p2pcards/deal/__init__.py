"""Mental poker without a trusted dealer: Barnett–Smart masking on secp256k1 with Terelius–Wikström
proofs of shuffle, Chaum–Pedersen decryption shares, joint coins and the end-of-hand audit.

Pure functions over bytes: no I/O, no clock, no threads, no ``random``.  Fresh secrets come from an
injectable ``source`` (``secrets.token_bytes`` by default).  Every decode and verify function returns or
raises a ``DealError`` (``EncodingError`` for malformed bytes, ``ProofError`` naming the failed check).
The byte-level protocol is specified in protocol/DEAL.md; the security model in docs/security.md.

The phases of a hand, as the table drives them (``ctx`` is a ``Context`` naming the seat and step):

1. keys:     ``key = new_hand_key()``; publish ``key_commitment(ctx, key.public)``; after every commit,
             publish ``announce_key(ctx, key)``; check others with ``verify_key_commitment``/``verify_key``;
             ``H = joint_key([h_0, …, h_{n-1}])``.
2. shuffles: ``deck = initial_deck(card_table(cards), H)``; each seat in turn publishes
             ``shuffle(ctx, H, deck)``; every peer then checks all the others' steps at once with
             ``verify_shuffle_chain(H, initial, steps, own_seat=me)`` (or one by one with ``verify_shuffle``),
             before any share is published.
3. deal / reveal: ``make_share`` when the table decides a position opens; ``verify_share``; ``open_card``.
4. audit:    ``audit_shares`` / ``verify_audit_shares`` / ``open_positions`` (or ``verify_revealed_secret``).
5. coins:    ``coin_commitment`` → ``verify_coin_reveal`` → ``coin_value`` → ``coin_below``.
"""

from __future__ import annotations

from p2pcards.deal.audit import (
    audit_shares,
    audit_shares_from_wire,
    audit_shares_to_wire,
    open_positions,
    reveal_secret,
    shares_from_secret,
    verify_audit_shares,
    verify_revealed_secret,
)
from p2pcards.deal.coins import coin_below, coin_commitment, coin_value, new_coin_secret, verify_coin_reveal
from p2pcards.deal.context import PROTOCOL_VERSION, TABLE, Context
from p2pcards.deal.deck import CardTable, Ciphertext, Deck, card_point, card_table, initial_deck
from p2pcards.deal.errors import DealError, DecryptError, EncodingError, ProofError, UsageError, accepts
from p2pcards.deal.group import Point, RandomSource
from p2pcards.deal.keys import (
    HandKey,
    KeyAnnouncement,
    announce_key,
    joint_key,
    key_commitment,
    new_hand_key,
    verify_key,
    verify_key_commitment,
)
from p2pcards.deal.shares import (
    Share,
    make_share,
    open_card,
    seats_to_deal,
    seats_to_reveal,
    unmask,
    verify_share,
)
from p2pcards.deal.shuffle import Shuffle, ShuffleProof, shuffle, verify_shuffle, verify_shuffle_chain

__all__ = [
    "PROTOCOL_VERSION",
    "TABLE",
    "CardTable",
    "Ciphertext",
    "Context",
    "DealError",
    "Deck",
    "DecryptError",
    "EncodingError",
    "HandKey",
    "KeyAnnouncement",
    "Point",
    "ProofError",
    "RandomSource",
    "Share",
    "Shuffle",
    "ShuffleProof",
    "UsageError",
    "accepts",
    "announce_key",
    "audit_shares",
    "audit_shares_from_wire",
    "audit_shares_to_wire",
    "card_point",
    "card_table",
    "coin_below",
    "coin_commitment",
    "coin_value",
    "initial_deck",
    "joint_key",
    "key_commitment",
    "make_share",
    "new_coin_secret",
    "new_hand_key",
    "open_card",
    "open_positions",
    "reveal_secret",
    "seats_to_deal",
    "seats_to_reveal",
    "shares_from_secret",
    "shuffle",
    "unmask",
    "verify_audit_shares",
    "verify_coin_reveal",
    "verify_key",
    "verify_key_commitment",
    "verify_revealed_secret",
    "verify_share",
    "verify_shuffle",
    "verify_shuffle_chain",
]
