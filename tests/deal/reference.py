"""A plain transcription of the proofs of crypto-notes.md, with a knob to alter one term at a time.

Used two ways: unaltered, it must agree byte for byte with the library's provers (so a changed
prover formula is caught); altered, the library's verifiers must reject what it makes (so a weakened or
changed verifier equation is caught).  It also accepts a mapping that is not a permutation, which is
how the cheating tests build a "shuffle" that duplicates or replaces cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pcards.deal.context import Context
from p2pcards.deal.deck import Deck
from p2pcards.deal.group import G, Point, Q, RandomSource, point_sum, random_scalar
from p2pcards.deal.keys import HandKey, KeyAnnouncement, SchnorrProof, key_challenge
from p2pcards.deal.shares import EqualityProof, Share, share_challenge
from p2pcards.deal.shuffle import ShuffleProof, shuffle_challenge, shuffle_challenges_u, shuffle_generators

#: Every term of the shuffle proof that SHUFFLE_ALTERATIONS can change (each must be caught).
SHUFFLE_ALTERATIONS = (
    "c:r",  # c_ψ(i) without r·G
    "c:h",  # c_ψ(i) = r·G + h_(i+1): the wrong generator
    "u'",  # u'_i = u_i instead of u_ψ(i)
    "chat:r",  # ĉ_i without r̂_i·G
    "chat:u",  # ĉ_i = r̂_i·G + ĉ_{i−1}
    "v",  # v_i off by one factor
    "rbar",
    "rhat",
    "rtilde",
    "rprime",
    "t1",
    "t2",
    "t3:w3",  # t_3 without ω_3·G
    "t3:h",  # t_3 with Σ ω'_i h_{i+1}
    "t4a:w4",  # t_4A = +ω_4·G + …
    "t4a:w'",  # t_4A with Σ ω'_i Ã_{i+1}
    "t4b:w4",
    "t4b:H",  # t_4B = −ω_4·G + …
    "that:G",
    "that:chat",  # t̂_i with ĉ_i instead of ĉ_{i−1}
    "s1",
    "s2",
    "s3",
    "s4",
    "shat",
    "s'",
    "ch",  # the challenge hashed without the t̂ commitments
)


def _rot(xs: Sequence[Point], k: int = 1) -> list[Point]:
    return [*xs[k:], *xs[:k]]


def ref_prove_shuffle(
    ctx: Context,
    H: Point,
    deck_in: Deck,
    deck_out: Deck,
    psi: Sequence[int],
    rr: Sequence[int],
    source: RandomSource,
    alter: str | None = None,
) -> ShuffleProof:
    n = len(deck_in)
    gens = shuffle_generators(n)
    h0, h = gens[0], list(gens[1:])
    r = [random_scalar(source) for _ in range(n)]
    c: list[Point] = [h0] * n
    for i in range(n):
        j = psi[i]
        hi = h[(i + 1) % n] if alter == "c:h" else h[i]
        c[j] = hi if alter == "c:r" else r[j] * G + hi
    u = shuffle_challenges_u(ctx, H, deck_in, deck_out, c)
    up = list(u) if alter == "u'" else [u[psi[i]] for i in range(n)]
    r_hat = [random_scalar(source) for _ in range(n)]
    chain = [h0]
    for i in range(n):
        step = chain[-1] if alter == "chat:u" else up[i] * chain[-1]
        chain.append(step if alter == "chat:r" else r_hat[i] * G + step)
    c_hat = chain[1:]
    v = [1] * n
    for i in range(n - 2, -1, -1):
        v[i] = up[i + 1] * v[i + 1] % Q
    if alter == "v":
        v[0] = v[0] * 2 % Q
    r_bar = (sum(r) + (alter == "rbar")) % Q
    r_hat_agg = (sum(a * b for a, b in zip(r_hat, v, strict=True)) + (alter == "rhat")) % Q
    r_tilde = (sum(a * b for a, b in zip(r, u, strict=True)) + (alter == "rtilde")) % Q
    r_prime = (sum(a * b for a, b in zip(rr, up, strict=True)) + (alter == "rprime")) % Q
    w1, w2, w3, w4 = (random_scalar(source) for _ in range(4))
    w_hat = [random_scalar(source) for _ in range(n)]
    w_prime = [random_scalar(source) for _ in range(n)]
    out_a = [ct.A for ct in deck_out]
    out_b = [ct.B for ct in deck_out]
    t1 = (w1 + (alter == "t1")) * G
    t2 = (w2 + (alter == "t2")) * G
    hs = _rot(h) if alter == "t3:h" else h
    t3 = point_sum(
        [*(() if alter == "t3:w3" else (w3 * G,)), *(w * p for w, p in zip(w_prime, hs, strict=True))]
    )
    a_terms = _rot(out_a) if alter == "t4a:w'" else out_a
    t4a = point_sum(
        [(w4 if alter == "t4a:w4" else -w4) * G, *(w * p for w, p in zip(w_prime, a_terms, strict=True))]
    )
    w4_term = w4 * H if alter == "t4b:w4" else (-w4) * (G if alter == "t4b:H" else H)
    t4b = point_sum([w4_term, *(w * p for w, p in zip(w_prime, out_b, strict=True))])
    t_hat = []
    for i in range(n):
        base = chain[i + 1] if alter == "that:chat" else chain[i]
        t_hat.append((w_hat[i] + (alter == "that:G")) * G + w_prime[i] * base)
    t = (t1, t2, t3, t4a, t4b)
    ch = shuffle_challenge(ctx, H, deck_in, deck_out, c, c_hat, t, [] if alter == "ch" else t_hat)
    return ShuffleProof(
        c=tuple(c),
        c_hat=tuple(c_hat),
        t1=t1,
        t2=t2,
        t3=t3,
        t4a=t4a,
        t4b=t4b,
        t_hat=tuple(t_hat),
        s1=(w1 + ch * r_bar + (alter == "s1")) % Q,
        s2=(w2 + ch * r_hat_agg + (alter == "s2")) % Q,
        s3=(w3 + ch * r_tilde + (alter == "s3")) % Q,
        s4=(w4 + ch * r_prime + (alter == "s4")) % Q,
        s_hat=tuple((w_hat[i] + ch * r_hat[i] + (alter == "shat" and i == n - 1)) % Q for i in range(n)),
        s_prime=tuple((w_prime[i] + ch * up[i] + (alter == "s'" and i == 0)) % Q for i in range(n)),
    )


KEY_ALTERATIONS = ("T", "e:ctx", "e:h", "e:T", "s:sign", "s:x")


def ref_announce_key(ctx: Context, key: HandKey, w: int, alter: str | None = None) -> KeyAnnouncement:
    """Schnorr: T = w·G, e = Hq("key", ctx, h, T), s = w + e·x (one term altered on request)."""
    T = (w + (alter == "T")) * G
    e_ctx = ctx.at_step(ctx.step + 1) if alter == "e:ctx" else ctx
    e_h = key.public + G if alter == "e:h" else key.public
    e_T = T + G if alter == "e:T" else T
    e = key_challenge(e_ctx, e_h, e_T)
    x = key.secret + (alter == "s:x")
    s = (w - e * x) if alter == "s:sign" else (w + e * x)
    return KeyAnnouncement(key.public, SchnorrProof(T, s % Q))


SHARE_ALTERATIONS = ("d", "T1", "T2", "T2:G", "e:position", "e:ctx", "e:A", "s:x", "s:sign")


def ref_make_share(
    ctx: Context, key: HandKey, deck: Deck, position: int, w: int, alter: str | None = None
) -> Share:
    """Chaum–Pedersen: d = x·A, T1 = w·G, T2 = w·A, e = Hq("share", …), s = w + e·x."""
    A = deck[position].A
    d = (key.secret + (alter == "d")) * A
    T1 = (w + (alter == "T1")) * G
    T2 = w * G if alter == "T2:G" else (w + (alter == "T2")) * A
    e = share_challenge(
        ctx.at_step(ctx.step + 1) if alter == "e:ctx" else ctx,
        position + 1 if alter == "e:position" else position,
        key.public,
        A + G if alter == "e:A" else A,
        d,
        T1,
        T2,
    )
    x = key.secret + (alter == "s:x")
    s = (w - e * x) if alter == "s:sign" else (w + e * x)
    return Share(position, d, EqualityProof(T1, T2, s % Q))
