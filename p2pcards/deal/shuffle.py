"""Shuffle steps with a Terelius–Wikström proof of shuffle (laid out as in Haenni et al. 2017).

A seat permutes the deck with a secret permutation ψ and re-masks every position:
``ẽ_i = e_ψ(i)`` re-masked with ``r̃_i``.  It proves, without revealing ψ or the ``r̃_i``, that the
output is such a permutation and re-masking of the input.  The proof is non-interactive with strong
Fiat–Shamir: the challenges hash the context, the joint key, the input and output decks and every
commitment, so a proof is valid for exactly one statement in exactly one context.

Indices follow crypto-notes.md: ``i, j = 1..N`` (deck position ``p`` is index ``p + 1``), ``h_1..h_N``
and ``h_0`` are hash-derived generators; in the code lists are 0-based (``xs[i-1]`` is ``x_i``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from p2pcards.deal.codec import expect_list, points_from, scalars_from
from p2pcards.deal.context import Context
from p2pcards.deal.deck import MAX_CARDS, Deck
from p2pcards.deal.errors import EncodingError, ProofError, UsageError
from p2pcards.deal.group import (
    G,
    Point,
    Q,
    RandomSource,
    base_mul,
    decode_scalar,
    default_source,
    encode_scalar,
    msm,
    random_below,
    random_scalar,
)
from p2pcards.deal.hashing import digest, hash_to_curve, hash_to_scalar, hash_to_weights, u64

__all__ = [
    "Shuffle",
    "ShuffleProof",
    "ShuffleWitness",
    "apply_shuffle",
    "generator_label",
    "prove_shuffle",
    "random_permutation",
    "shuffle",
    "shuffle_challenge",
    "shuffle_challenges_u",
    "shuffle_generators",
    "verify_shuffle",
    "verify_shuffle_chain",
]


def generator_label(i: int) -> bytes:
    """``p2pcards/gen/h0`` for the chain start, ``p2pcards/gen/h/<i>`` for ``h_i``, ``i = 1..52``."""
    return b"p2pcards/gen/h0" if i == 0 else b"p2pcards/gen/h/%d" % i


@cache
def shuffle_generators(n: int) -> tuple[Point, ...]:
    """``(h_0, h_1, …, h_n)``: independent generators, nobody knows a discrete log between them."""
    if not 1 <= n <= MAX_CARDS:
        raise UsageError(f"a shuffled deck has 1 to {MAX_CARDS} positions")
    return tuple(hash_to_curve(generator_label(i)) for i in range(n + 1))


@dataclass(frozen=True, slots=True, repr=False)
class ShuffleWitness:
    """The secret of one shuffle step: output ``i`` is input ``permutation[i]`` re-masked by ``remask[i]``."""

    permutation: tuple[int, ...]
    remask: tuple[int, ...]

    def __repr__(self) -> str:
        return f"ShuffleWitness(<{len(self.permutation)} positions, secret>)"


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    """``(c, ĉ, t_1, t_2, t_3, t_4A, t_4B, t̂, s_1, s_2, s_3, s_4, ŝ, s')`` of crypto-notes.md.

    Wire form: a list of 14 bytes values; vectors are packed back to back (``c``, ``ĉ``, ``t̂``:
    33·N bytes; ``ŝ``, ``s'``: 32·N bytes), single points 33 bytes, single scalars 32 bytes.
    """

    c: tuple[Point, ...]
    c_hat: tuple[Point, ...]
    t1: Point
    t2: Point
    t3: Point
    t4a: Point
    t4b: Point
    t_hat: tuple[Point, ...]
    s1: int
    s2: int
    s3: int
    s4: int
    s_hat: tuple[int, ...]
    s_prime: tuple[int, ...]

    def to_wire(self) -> list[bytes]:
        pts = _concat
        return [
            pts(self.c), pts(self.c_hat),
            self.t1.encode(), self.t2.encode(), self.t3.encode(), self.t4a.encode(), self.t4b.encode(),
            pts(self.t_hat),
            encode_scalar(self.s1), encode_scalar(self.s2), encode_scalar(self.s3), encode_scalar(self.s4),
            b"".join(encode_scalar(s) for s in self.s_hat), b"".join(encode_scalar(s) for s in self.s_prime),
        ]  # fmt: skip

    @staticmethod
    def from_wire(obj: object, n: int) -> ShuffleProof:
        """Decode the proof of a shuffle of ``n`` positions."""
        f = expect_list(obj, 14, "shuffle proof")
        try:
            return ShuffleProof(
                c=tuple(points_from(f[0], n, "c")),
                c_hat=tuple(points_from(f[1], n, "ĉ")),
                t1=Point.decode(f[2]),
                t2=Point.decode(f[3]),
                t3=Point.decode(f[4]),
                t4a=Point.decode(f[5]),
                t4b=Point.decode(f[6]),
                t_hat=tuple(points_from(f[7], n, "t̂")),
                s1=decode_scalar(f[8], nonzero=True),
                s2=decode_scalar(f[9], nonzero=True),
                s3=decode_scalar(f[10], nonzero=True),
                s4=decode_scalar(f[11], nonzero=True),
                s_hat=tuple(scalars_from(f[12], n, "ŝ", nonzero=True)),
                s_prime=tuple(scalars_from(f[13], n, "s'", nonzero=True)),
            )
        except EncodingError as exc:
            raise EncodingError(f"shuffle proof: {exc}") from None

    @property
    def size(self) -> int:
        """Bytes on the wire (without msgpack framing)."""
        return sum(len(b) for b in self.to_wire())


@dataclass(frozen=True, slots=True)
class Shuffle:
    """A seat's shuffle step as published: the output deck and its proof.  Wire: ``[deck, proof]``."""

    deck: Deck
    proof: ShuffleProof

    def to_wire(self) -> list[list[bytes]]:
        return [self.deck.to_wire(), self.proof.to_wire()]

    @staticmethod
    def from_wire(obj: object, n: int) -> Shuffle:
        deck, proof = expect_list(obj, 2, "shuffle")
        return Shuffle(Deck.from_wire(deck, n), ShuffleProof.from_wire(proof, n))


_G_ENCODING: Final = G.encode()


def _concat(points: Sequence[Point]) -> bytes:
    return b"".join(p.encode() for p in points)


# --- the challenges -------------------------------------------------------------------------------


def shuffle_challenges_u(
    ctx: Context, joint: Point, deck_in: Deck, deck_out: Deck, c: Sequence[Point]
) -> list[int]:
    """``u_j = Hq("shuffle/u", seed, u64(j))``, ``j = 1..N``, with
    ``seed = digest("shuffle/statement", ctx, H, e, ẽ, c)``: the statement is hashed once, not N times."""
    statement = (ctx.encode(), joint.encode(), deck_in.encode(), deck_out.encode(), _concat(c))
    seed = digest("shuffle/statement", *statement)
    return [hash_to_scalar("shuffle/u", seed, u64(j)) for j in range(1, len(c) + 1)]


def shuffle_challenge(
    ctx: Context,
    joint: Point,
    deck_in: Deck,
    deck_out: Deck,
    c: Sequence[Point],
    c_hat: Sequence[Point],
    t: Sequence[Point],
    t_hat: Sequence[Point],
) -> int:
    """``ch = Hq("shuffle/ch", ctx, H, e, ẽ, c, ĉ, t_1‖t_2‖t_3‖t_4A‖t_4B, t̂)``."""
    return hash_to_scalar(
        "shuffle/ch",
        ctx.encode(),
        joint.encode(),
        deck_in.encode(),
        deck_out.encode(),
        _concat(c),
        _concat(c_hat),
        _concat(t),
        _concat(t_hat),
    )


# --- the prover -----------------------------------------------------------------------------------


def random_permutation(n: int, source: RandomSource = default_source) -> tuple[int, ...]:
    """A uniform permutation of ``range(n)`` (Fisher–Yates, unbiased draws)."""
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = random_below(i + 1, source)
        perm[i], perm[j] = perm[j], perm[i]
    return tuple(perm)


def apply_shuffle(deck: Deck, joint: Point, witness: ShuffleWitness) -> Deck:
    """The output deck: position ``i`` is ``deck[ψ(i)]`` re-masked with ``r̃_i``."""
    _check_witness(witness, len(deck))
    return Deck(
        tuple(deck[j].remask(r, joint) for j, r in zip(witness.permutation, witness.remask, strict=True))
    )


def _check_witness(witness: ShuffleWitness, n: int) -> None:
    if sorted(witness.permutation) != list(range(n)) or len(witness.remask) != n:
        raise UsageError(f"the witness is not a permutation of {n} positions with {n} masks")
    if not all(0 < r < Q for r in witness.remask):  # a zero mask would leave a position as it was
        raise UsageError("every re-masking scalar must lie in [1, q)")


def prove_shuffle(
    ctx: Context,
    joint: Point,
    deck_in: Deck,
    deck_out: Deck,
    witness: ShuffleWitness,
    source: RandomSource = default_source,
) -> ShuffleProof:
    """The Terelius–Wikström proof that ``deck_out = apply_shuffle(deck_in, joint, witness)``.

    Randomness is drawn in this order: ``r_1..r_N``, ``r̂_1..r̂_N``, ``ω_1..ω_4``, ``ω̂_1..ω̂_N``, ``ω'_1..ω'_N``.
    """
    ctx.require_seat()
    n = len(deck_in)
    _check_witness(witness, n)
    if len(deck_out) != n:
        raise UsageError("the output deck must have as many positions as the input deck")
    psi, rr = witness.permutation, witness.remask
    gens = shuffle_generators(n)
    h0, h = gens[0], gens[1:]

    # 1. Commitment to the permutation: c_ψ(i) = r_ψ(i)·G + h_i.
    r = [random_scalar(source) for _ in range(n)]
    c: list[Point] = [h0] * n
    for i in range(n):
        j = psi[i]
        c[j] = msm((), (), base=r[j], plus=(h[i],))

    # 2. Challenges u_j bound to the whole statement; u'_i = u_ψ(i).
    u = shuffle_challenges_u(ctx, joint, deck_in, deck_out, c)
    up = [u[psi[i]] for i in range(n)]

    # 3. Commitment chain ĉ_i = r̂_i·G + u'_i·ĉ_{i−1} from ĉ_0 = h_0: it commits to Π u'_i = Π u_j.
    r_hat = [random_scalar(source) for _ in range(n)]
    c_hat: list[Point] = []
    prev = h0
    for i in range(n):
        prev = msm((up[i],), (prev,), base=r_hat[i])
        c_hat.append(prev)

    # 4. The aggregated witnesses.
    r_bar = sum(r) % Q
    v = [1] * n
    for i in range(n - 2, -1, -1):
        v[i] = up[i + 1] * v[i + 1] % Q
    r_hat_agg = sum(a * b for a, b in zip(r_hat, v, strict=True)) % Q
    r_tilde = sum(a * b for a, b in zip(r, u, strict=True)) % Q
    r_prime = sum(a * b for a, b in zip(rr, up, strict=True)) % Q

    # 5. Commitments of the sigma protocol.
    w1, w2, w3, w4 = (random_scalar(source) for _ in range(4))
    w_hat = [random_scalar(source) for _ in range(n)]
    w_prime = [random_scalar(source) for _ in range(n)]
    out_a = [ct.A for ct in deck_out]
    out_b = [ct.B for ct in deck_out]
    t1 = base_mul(w1)
    t2 = base_mul(w2)
    t3 = msm(w_prime, h, base=w3)
    t4a = msm(w_prime, out_a, base=-w4)
    t4b = msm([*w_prime, -w4], [*out_b, joint])
    chain = [h0, *c_hat]
    t_hat = [msm((w_prime[i],), (chain[i],), base=w_hat[i]) for i in range(n)]

    # 6. Strong Fiat–Shamir challenge over the statement and every commitment.
    ch = shuffle_challenge(ctx, joint, deck_in, deck_out, c, c_hat, (t1, t2, t3, t4a, t4b), t_hat)

    # 7. Responses.
    return ShuffleProof(
        c=tuple(c),
        c_hat=tuple(c_hat),
        t1=t1,
        t2=t2,
        t3=t3,
        t4a=t4a,
        t4b=t4b,
        t_hat=tuple(t_hat),
        s1=(w1 + ch * r_bar) % Q,
        s2=(w2 + ch * r_hat_agg) % Q,
        s3=(w3 + ch * r_tilde) % Q,
        s4=(w4 + ch * r_prime) % Q,
        s_hat=tuple((w_hat[i] + ch * r_hat[i]) % Q for i in range(n)),
        s_prime=tuple((w_prime[i] + ch * up[i]) % Q for i in range(n)),
    )


def shuffle(ctx: Context, joint: Point, deck: Deck, source: RandomSource = default_source) -> Shuffle:
    """One seat's shuffle step: a fresh secret permutation and masks, the output deck and its proof.

    Draws the permutation (Fisher–Yates), then ``r̃_1..r̃_N``, then the prover's randomness.
    """
    n = len(deck)
    perm = random_permutation(n, source)
    witness = ShuffleWitness(perm, tuple(random_scalar(source) for _ in range(n)))
    out = apply_shuffle(deck, joint, witness)
    return Shuffle(out, prove_shuffle(ctx, joint, deck, out, witness, source))


# --- the verifier ---------------------------------------------------------------------------------
#
# Each verifier equation of crypto-notes.md is rewritten as "a linear combination of points is the
# identity", e.g. ``t_1 == −ch·c̄ + s_1·G`` becomes ``t_1 + ch·Σc_j − ch·Σh_j − s_1·G = 0``.
#
# Checking them one by one costs about 8N variable-base multiplications and N fixed-base ones per
# shuffle.  Instead the verifier checks ONE random linear combination of every equation of every
# shuffle it is given, with weights derived by hashing all the proofs (never from an RNG), and merges
# the coefficients of points that occur in several equations: the h_i, H, G, and above all the decks
# (the output of one shuffle is the input of the next), so each distinct point costs one
# multiplication.  The weights are ``a + λ·b`` with 64-bit halves (``split_short``: 2^128 values, half
# the cost of a full scalar), and every t_4B weight is β times its t_4A weight, so that each deck
# position can be taken as one ``κ·(A + β·B)`` (``_pair_deck_points``).  Soundness: if some equation
# other than a t_4B is not the identity, then for any values of the other weights at most one value of
# its weight cancels it (the group has prime order); if only a t_4B is off, its step contributes
# w_4A·(E_4A + β·E_4B), which vanishes for at most one β.  So a false batch passes with probability
# ≤ 2^-127 per hash query, and the hash binds every proof entirely (each ch binds its statement and
# commitments, and the weight seed adds every ch and every response).  A passing batch therefore means
# every equation holds; a failing one is re-checked equation by equation, in seat order, to name the
# seat and the equation at fault (that costs time only when someone cheats).  protocol/DEAL.md §7.4.

Term = tuple[int, Point]


@dataclass(frozen=True, slots=True)
class _Equation:
    name: str
    terms: list[Term]
    base: int  # the coefficient of G
    tied: bool = False  # batch weight: β times the previous equation's (t_4B after t_4A; see _check)

    def holds(self) -> bool:
        return msm([k for k, _ in self.terms], [p for _, p in self.terms], base=self.base).is_identity


@dataclass(frozen=True, slots=True)
class _System:
    seat: int | None
    binding: bytes  # ch and every response: what the batch weights hash
    equations: list[_Equation]
    decks: tuple[Deck, Deck]  # input and output


def _system(ctx: Context, joint: Point, deck_in: Deck, step: Shuffle) -> _System:
    """The equations a valid ``step`` satisfies, as linear combinations that must be the identity."""
    deck_out, p = step.deck, step.proof
    n = len(deck_in)
    if not (len(deck_out) == len(p.c) == len(p.c_hat) == len(p.t_hat) == len(p.s_hat) == len(p.s_prime) == n):
        raise ProofError(
            "shuffle: the output deck or the proof has the wrong number of positions", seat=ctx.seat
        )
    gens = shuffle_generators(n)
    h0, h = gens[0], gens[1:]
    c, c_hat, sp = p.c, p.c_hat, p.s_prime
    u = shuffle_challenges_u(ctx, joint, deck_in, deck_out, c)
    t = (p.t1, p.t2, p.t3, p.t4a, p.t4b)
    ch = shuffle_challenge(ctx, joint, deck_in, deck_out, c, c_hat, t, p.t_hat)
    ch_u = [ch * uj % Q for uj in u]
    minus_sp = [-x % Q for x in sp]
    u_prod = 1
    for uj in u:
        u_prod = u_prod * uj % Q
    eqs = [
        # t_1 == −ch·c̄ + s_1·G, c̄ = Σ c_j − Σ h_j   (the committed matrix has rows summing to one)
        _Equation("t_1", [(1, p.t1), *((ch, cj) for cj in c), *((-ch, hj) for hj in h)], -p.s1),
        # t_2 == −ch·(ĉ_N − (Π u_j)·h_0) + s_2·G   (the chain ends at Π u_j)
        _Equation("t_2", [(1, p.t2), (ch, c_hat[-1]), (-ch * u_prod, h0)], -p.s2),
        # t_3 == −ch·Σ u_j c_j + s_3·G + Σ s'_i h_i
        _Equation("t_3", [(1, p.t3), *zip(ch_u, c, strict=True), *zip(minus_sp, h, strict=True)], -p.s3),
        # t_4A == −ch·Σ u_j A_j − s_4·G + Σ s'_i Ã_i
        _Equation(
            "t_4A",
            [(1, p.t4a), *((k, ct.A) for k, ct in zip(ch_u, deck_in, strict=True)),
             *((k, ct.A) for k, ct in zip(minus_sp, deck_out, strict=True))],
            p.s4,
        ),
        # t_4B == −ch·Σ u_j B_j − s_4·H + Σ s'_i B̃_i
        _Equation(
            "t_4B",
            [(1, p.t4b), (p.s4, joint), *((k, ct.B) for k, ct in zip(ch_u, deck_in, strict=True)),
             *((k, ct.B) for k, ct in zip(minus_sp, deck_out, strict=True))],
            0,
            tied=True,
        ),
    ]  # fmt: skip
    # t̂_i == −ch·ĉ_i + ŝ_i·G + s'_i·ĉ_{i−1}  (ĉ_0 = h_0)
    chain = [h0, *c_hat]
    eqs += [
        _Equation(f"t̂_{i + 1}", [(1, p.t_hat[i]), (ch, chain[i + 1]), (minus_sp[i], chain[i])], -p.s_hat[i])
        for i in range(n)
    ]
    binding = b"".join(encode_scalar(x) for x in (ch, p.s1, p.s2, p.s3, p.s4, *p.s_hat, *sp))
    return _System(ctx.seat, binding, eqs, (deck_in, deck_out))


def _check(joint: Point, items: Sequence[tuple[Context, Deck, Shuffle]]) -> None:
    """Verify every shuffle of ``items`` with one batched check (see above); name the culprit if it fails."""
    systems = [_system(ctx, joint, deck_in, step) for ctx, deck_in, step in items]
    free = sum(1 for s in systems for eq in s.equations if not eq.tied)
    weights = iter(hash_to_weights(free + 1, "shuffle/batch", *(s.binding for s in systems)))
    beta = next(weights)
    merged: dict[bytes, list[Any]] = {}  # encoding → [coefficient, point]; insertion order is deterministic
    base = 0
    for system in systems:
        w = 0
        for eq in system.equations:
            w = beta * w % Q if eq.tied else next(weights)
            base += w * eq.base
            for k, point in eq.terms:
                enc = point.encode()
                entry = merged.get(enc)
                if entry is None:
                    merged[enc] = [w * k, point]
                else:
                    entry[0] += w * k
    g = merged.pop(_G_ENCODING, None)
    if g is not None:
        base += g[0]
    paired = _pair_deck_points(merged, beta, [deck for s in systems for deck in s.decks])
    terms = [*merged.values(), *paired]
    if msm([e[0] for e in terms], [e[1] for e in terms], base=base).is_identity:
        return
    for system in systems:
        for eq in system.equations:
            if not eq.holds():
                raise ProofError(f"shuffle proof: equation {eq.name} fails", seat=system.seat)
    raise ProofError("shuffle proofs: the batched check fails")  # pragma: no cover - unreachable


def _pair_deck_points(merged: dict[bytes, list[Any]], beta: int, decks: Sequence[Deck]) -> list[list[Any]]:
    """Take each deck position's ``A`` and ``B`` out of ``merged`` as one term ``κ·(A + β·B)``.

    Every t_4B weight is β times its t_4A weight, so wherever a ciphertext occurs (input of one step,
    output of another) the coefficient of its ``B`` is β times that of its ``A``.  ``A + β·B`` costs a
    multiplication by a short β (about half a full one) instead of a second full one.  The pairing only
    regroups the same sum: a position whose coefficients are not in that ratio (a point a cheater
    reused elsewhere in a proof) stays as two terms.
    """
    paired: list[list[Any]] = []
    for deck in decks:
        for ct in deck:
            a_enc, b_enc = ct.A.encode(), ct.B.encode()
            ea, eb = merged.get(a_enc), merged.get(b_enc)
            if ea is None or eb is None or a_enc == b_enc or eb[0] % Q != beta * ea[0] % Q:
                continue
            del merged[a_enc], merged[b_enc]
            paired.append([ea[0], msm((beta,), (ct.B,), plus=(ct.A,))])
    return paired


def verify_shuffle(ctx: Context, joint: Point, deck_in: Deck, step: Shuffle) -> Deck:
    """Check ``step`` (seat ``ctx.seat``'s shuffle of ``deck_in``); return its output deck.

    Raises ``ProofError`` naming the seat and the equation that fails.
    """
    _check(joint, [(ctx, deck_in, step)])
    return step.deck


def verify_shuffle_chain(
    joint: Point, initial: Deck, steps: Sequence[tuple[Context, Shuffle]], own_seat: int | None = None
) -> Deck:
    """Verify one shuffle per key-holding seat in ascending seat order; return the final deck.

    ``own_seat``: the caller's own step, which it made itself and need not verify.  All the others are
    checked together in one batch, cheaper than one by one because consecutive shuffles share a deck.
    """
    if not steps:
        raise UsageError("a shuffle chain has one step per seat")
    first = steps[0][0].for_seat(None).at_step(0)
    items = []
    deck = initial
    previous = -1
    for ctx, step in steps:
        if ctx.seat is None or ctx.seat <= previous or ctx.for_seat(None).at_step(0) != first:
            raise UsageError("shuffles come one per seat, in ascending seat order, of one game and hand")
        previous = ctx.seat
        if ctx.seat != own_seat:
            items.append((ctx, deck, step))
        deck = step.deck
    if items:
        _check(joint, items)
    return deck
