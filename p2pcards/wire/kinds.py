"""The registry of message kinds: which kinds exist and how large each may be.

It is data, not code: a receiver refuses a kind it does not know, and refuses a message larger than
its kind allows, so the limits below are part of the protocol.  The limit of a kind bounds the whole
signed message as sent (the frame payload: envelope, body and signature), which is what a receiver
has to hold in memory.  To extend the protocol, add a row here (and to ``protocol/WIRE.md``); every
function that consults the registry also takes a ``kinds=`` argument, so a test or an experiment can
use its own table without touching this one.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

KiB: Final = 1024

KINDS: Final[Mapping[str, int]] = MappingProxyType(
    {
        # Session set-up: the table options and every seat's identity key, signed by every seat.
        "genesis": 16 * KiB,
        # Per hand: commitments to the hand keys, then the keys with their proofs of knowledge.
        "key_commit": 4 * KiB,
        "key_reveal": 4 * KiB,
        # A whole re-masked deck with its proof of shuffle: the one large step message
        # (about 11 KiB for 52 cards on secp256k1; the margin leaves room for bigger decks).
        "shuffle": 256 * KiB,
        # Decryption shares with proofs that deal positions to a seat.
        "share": 64 * KiB,
        # A move in the game.
        "action": 4 * KiB,
        # Decryption shares with proofs that open a card to everyone.
        "reveal": 16 * KiB,
        # End-of-hand shares opening every position the rules must check.
        "audit": 64 * KiB,
        # Joint coins.
        "coin_commit": 4 * KiB,
        "coin_reveal": 4 * KiB,
        # The end of a hand: every seat signs its result over the head.
        "seal": 4 * KiB,
        # Certificates: signed statements about the log that are not steps of it.  A vote that seats
        # stayed silent at the open step; the last player ending a two-player match; a seat voted
        # out asking to come back; signed proof of a fault, which may carry two copies of the largest
        # step message (equivocation).
        "void_vote": 4 * KiB,
        "abandon": 4 * KiB,
        "return": 4 * KiB,
        "evidence": 2 * 256 * KiB + 16 * KiB,
        # Catch-up: a request for the steps after a head, and a batch of relayed messages (a sender
        # splits a longer history over several responses).
        "catchup_request": 4 * KiB,
        "catchup_response": 1024 * KiB,
    }
)

TRANSPORT_KINDS: Final = frozenset({"catchup_request", "catchup_response"})
"""Kinds that only carry or ask for other messages: never kept, never relayed, never inside another
message (a catch-up answer holds step and certificate messages only)."""

CERTIFICATE_KINDS: Final = frozenset({"void_vote", "abandon", "return", "evidence"})
"""Signed statements about the log that are not steps of it: kept, relayed and served in catch-up."""

NON_STEP_KINDS: Final = TRANSPORT_KINDS | CERTIFICATE_KINDS
"""Kinds a chain refuses with ``not a step``."""

MAX_MESSAGE_SIZE: Final = max(KINDS.values())
"""The frame limit for a connection that may carry every kind (``FrameDecoder(MAX_MESSAGE_SIZE)``)."""
