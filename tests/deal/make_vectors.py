"""Build (and with ``python tests/deal/make_vectors.py``, write) the deal test vectors.

Everything is derived from fixed seeds through ``seeded_source``, so the output is the same on every run
and every machine; ``test_vectors.py`` checks the committed files against this builder and, separately,
re-checks every value in them from the formulas of protocol/DEAL.md.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from p2pcards.deal.coins import coin_below, coin_commitment, coin_value, new_coin_secret
from p2pcards.deal.context import Context
from p2pcards.deal.deck import card_label, card_table, initial_deck
from p2pcards.deal.group import G, Q, random_below, random_scalar
from p2pcards.deal.hashing import (
    TAG_PREFIX,
    digest,
    frame,
    hash_to_curve_counter,
    hash_to_scalar,
    seeded_source,
)
from p2pcards.deal.keys import announce_key, joint_key, key_challenge, key_commitment, new_hand_key
from p2pcards.deal.shares import make_share, share_challenge, unmask
from p2pcards.deal.shuffle import (
    generator_label,
    shuffle,
    shuffle_challenge,
    shuffle_challenges_u,
)
from p2pcards.games.cards import card_text

VECTOR_DIR = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "deal"
GAME_ID = b"p2pcards-vector-game"
FIVE_CARDS = (0, 12, 25, 38, 51)  # 2C, AC, AD, AH, AS


def _h(n: int) -> str:
    return n.to_bytes(32, "big").hex()


def _ctx_json(c: Context) -> dict[str, Any]:
    return {
        "version": c.version,
        "game_id": c.game_id.hex(),
        "hand": c.hand,
        "seat": c.seat,
        "step": c.step,
        "encoding": c.encode().hex(),
    }


def hashing_vectors() -> dict[str, Any]:
    frames = []
    for tag, parts in (
        ("key", [b"x"]),
        ("shuffle/u", [b"", b"abc"]),
        ("coin", [bytes(32), bytes(range(32))]),
    ):
        frames.append(
            {
                "tag": tag,
                "parts": [p.hex() for p in parts],
                "frame": frame(tag, *parts).hex(),
                "digest": digest(tag, *parts).hex(),
                "hash_to_scalar": _h(hash_to_scalar(tag, *parts)),
            }
        )
    contexts = [
        Context(game_id=GAME_ID, hand=1, seat=0, step=7),
        Context(game_id=b"\x01\x02", hand=2**40, seat=5, step=2**63),
        Context(game_id=GAME_ID, hand=1, seat=None, step=7),
    ]
    src = seeded_source(b"seeded source vector")
    return {
        "description": "Domain-separated hashing (protocol/DEAL.md, 'Hashing') and context encodings.",
        "tag_prefix": TAG_PREFIX.decode(),
        "group_order": _h(Q),
        "frames": frames,
        "contexts": [_ctx_json(c) for c in contexts],
        "seeded_source": {"seed": b"seeded source vector".hex(), "first_80_bytes": src(80).hex()},
    }


def point_vectors() -> dict[str, Any]:
    def entry(label: bytes) -> dict[str, Any]:
        point, ctr = hash_to_curve_counter(label)
        return {"label": label.decode(), "counter": ctr, "point": point.encode().hex()}

    return {
        "description": "Card points and shuffle generators by try-and-increment (see protocol/DEAL.md).",
        "G": G.encode().hex(),
        "cards": [{"card": c, "text": card_text(c), **entry(card_label(c))} for c in range(52)],
        "generators": [{"index": i, **entry(generator_label(i))} for i in range(53)],
    }


def key_vectors() -> dict[str, Any]:
    src = seeded_source(b"key vector")
    key = new_hand_key(src)
    # As in the session (protocol/SPEC.md): the commitment binds the hand, so its context's step is 0;
    # the key itself is proved in the context of the step that reveals it.
    commit_ctx = Context(game_id=GAME_ID, hand=1, seat=2, step=0)
    ctx = Context(game_id=GAME_ID, hand=1, seat=2, step=4)
    ann = announce_key(ctx, key, src)
    e = key_challenge(ctx, key.public, ann.proof.T)
    return {
        "description": "A key commitment and a Schnorr proof of knowledge (protocol/DEAL.md, 'Keys').",
        "commit_context": _ctx_json(commit_ctx),
        "context": _ctx_json(ctx),
        "secret": _h(key.secret),
        "public": key.public.encode().hex(),
        "commitment": key_commitment(commit_ctx, key.public).hex(),
        "nonce": _h((ann.proof.s - e * key.secret) % Q),
        "T": ann.proof.T.encode().hex(),
        "e": _h(e),
        "s": _h(ann.proof.s),
        "wire": [b.hex() for b in ann.to_wire()],
    }


def _table() -> tuple[list[Any], Any]:
    src = seeded_source(b"table vector")
    keys = [new_hand_key(src) for _ in range(3)]
    return keys, joint_key([k.public for k in keys])


def shuffle_vectors() -> dict[str, Any]:
    keys, joint = _table()
    cards = card_table(FIVE_CARDS)
    deck = initial_deck(cards, joint)
    ctx = Context(game_id=GAME_ID, hand=1, seat=0, step=3)
    seed = b"shuffle vector"
    step = shuffle(ctx, joint, deck, seeded_source(seed))
    # Replay the source to list every random value the prover drew, in the order it drew them.
    n = len(deck)
    replay = seeded_source(seed)
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = random_below(i + 1, replay)
        perm[i], perm[j] = perm[j], perm[i]
    remask = [random_scalar(replay) for _ in range(n)]
    r = [random_scalar(replay) for _ in range(n)]
    r_hat = [random_scalar(replay) for _ in range(n)]
    omega = [random_scalar(replay) for _ in range(4)]
    omega_hat = [random_scalar(replay) for _ in range(n)]
    omega_prime = [random_scalar(replay) for _ in range(n)]
    p = step.proof
    u = shuffle_challenges_u(ctx, joint, deck, step.deck, p.c)
    ch = shuffle_challenge(
        ctx, joint, deck, step.deck, p.c, p.c_hat, (p.t1, p.t2, p.t3, p.t4a, p.t4b), p.t_hat
    )
    opened = [cards.card_of(unmask(ct, [ct.A * k.secret for k in keys])) for ct in step.deck]
    return {
        "description": "One shuffle step of a 5-card deck with its Terelius-Wikstrom proof.",
        "seat_secrets": [_h(k.secret) for k in keys],
        "seat_publics": [k.public.encode().hex() for k in keys],
        "joint_key": joint.encode().hex(),
        "cards": list(FIVE_CARDS),
        "context": _ctx_json(ctx),
        "input_deck": [b.hex() for b in deck.to_wire()],
        "source_seed": seed.hex(),
        "permutation": perm,
        "remask": [_h(x) for x in remask],
        "randomness": {
            "r": [_h(x) for x in r],
            "r_hat": [_h(x) for x in r_hat],
            "omega_1_to_4": [_h(x) for x in omega],
            "omega_hat": [_h(x) for x in omega_hat],
            "omega_prime": [_h(x) for x in omega_prime],
        },
        "u": [_h(x) for x in u],
        "ch": _h(ch),
        "output_deck": [b.hex() for b in step.deck.to_wire()],
        "proof_wire": [b.hex() for b in p.to_wire()],
        "output_cards": opened,
    }


def share_vectors() -> dict[str, Any]:
    keys, joint = _table()
    cards = card_table(FIVE_CARDS)
    ctx = Context(game_id=GAME_ID, hand=1, seat=0, step=3)
    deck = shuffle(ctx, joint, initial_deck(cards, joint), seeded_source(b"shuffle vector")).deck
    position = 2
    shares = []
    for seat, key in enumerate(keys):
        sctx = Context(game_id=GAME_ID, hand=1, seat=seat, step=9)
        share = make_share(sctx, key, deck, position, seeded_source(b"share vector %d" % seat))
        e = share_challenge(
            sctx, position, key.public, deck[position].A, share.d, share.proof.T1, share.proof.T2
        )
        shares.append(
            {
                "context": _ctx_json(sctx),
                "secret": _h(key.secret),
                "public": key.public.encode().hex(),
                "d": share.d.encode().hex(),
                "nonce": _h((share.proof.s - e * key.secret) % Q),
                "T1": share.proof.T1.encode().hex(),
                "T2": share.proof.T2.encode().hex(),
                "e": _h(e),
                "s": _h(share.proof.s),
                "wire": [x if isinstance(x, int) else x.hex() for x in share.to_wire()],
            }
        )
    m = unmask(deck[position], [key.secret * deck[position].A for key in keys])
    return {
        "description": "Decryption shares of one position by every seat, with Chaum-Pedersen proofs.",
        "position": position,
        "ciphertext": deck[position].encode().hex(),
        "shares": shares,
        "card_point": m.encode().hex(),
        "card": cards.card_of(m),
    }


def coin_vectors() -> dict[str, Any]:
    src = seeded_source(b"coin vector")
    ctxs = [Context(game_id=GAME_ID, hand=1, seat=i, step=4) for i in range(4)]
    rhos = [new_coin_secret(src) for _ in ctxs]
    coin = coin_value(ctxs[0], rhos)
    return {
        "description": "A joint coin by commit-reveal among 4 seats, and draws below n from it.",
        "contexts": [_ctx_json(c) for c in ctxs],
        "rho": [r.hex() for r in rhos],
        "commitments": [coin_commitment(c, r).hex() for c, r in zip(ctxs, rhos, strict=True)],
        "coin": coin.hex(),
        "draws": [
            {"n": n, "purpose": purpose.hex(), "value": coin_below(coin, n, purpose)}
            for n, purpose in ((2, b""), (4, b""), (6, b""), (6, b"first dealer"), (52, b"cut"))
        ],
    }


def build_vectors() -> dict[str, dict[str, Any]]:
    return {
        "hashing.json": hashing_vectors(),
        "points.json": point_vectors(),
        "key_proof.json": key_vectors(),
        "shuffle_5.json": shuffle_vectors(),
        "share.json": share_vectors(),
        "coin.json": coin_vectors(),
    }


def render(content: dict[str, Any]) -> str:
    return json.dumps(content, indent=2, sort_keys=False) + "\n"


def main() -> int:
    VECTOR_DIR.mkdir(parents=True, exist_ok=True)
    for name, content in build_vectors().items():
        (VECTOR_DIR / name).write_text(render(content), encoding="utf-8")
        print(f"wrote {VECTOR_DIR / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
