"""Shuffle steps and their Terelius–Wikström proofs: honest runs, every cheat, every term of the proof."""

from __future__ import annotations

import contextlib
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2pcards.deal import (
    Context,
    DealError,
    Deck,
    EncodingError,
    ProofError,
    Shuffle,
    ShuffleProof,
    UsageError,
    card_table,
    initial_deck,
    verify_shuffle,
    verify_shuffle_chain,
)
from p2pcards.deal.deck import Ciphertext
from p2pcards.deal.group import G, Point, Q, base_mul, point_sum, random_scalar
from p2pcards.deal.hashing import seeded_source
from p2pcards.deal.shuffle import (
    ShuffleWitness,
    apply_shuffle,
    prove_shuffle,
    random_permutation,
    shuffle,
    shuffle_generators,
)

from .helpers import Table, ctx, flip, make_table
from .reference import SHUFFLE_ALTERATIONS, ref_prove_shuffle

PSI = (2, 0, 4, 1, 3)


@pytest.fixture(scope="module")
def five() -> Table:
    return make_table(3, [0, 12, 25, 38, 51], seed=b"five", shuffled=False)


def _decrypt(table: Table, deck: Deck) -> list[int]:
    return [table.cards.card_of(ct.B - point_sum([ct.A * k.secret for k in table.keys])) for ct in deck]


def _witness(seed: bytes, psi: tuple[int, ...]) -> ShuffleWitness:
    src = seeded_source(seed)
    return ShuffleWitness(psi, tuple(random_scalar(src) for _ in psi))


def test_honest_shuffle_permutes_and_remasks(five: Table) -> None:
    w = _witness(b"w", PSI)
    out = apply_shuffle(five.initial, five.joint, w)
    proof = prove_shuffle(ctx(), five.joint, five.initial, out, w, seeded_source(b"p"))
    assert verify_shuffle(ctx(), five.joint, five.initial, Shuffle(out, proof)) == out
    assert _decrypt(five, out) == [five.cards.cards[j] for j in PSI]
    # re-masked: no output ciphertext equals its input one
    assert not {ct.encode() for ct in out} & {ct.encode() for ct in five.initial}


def test_library_prover_is_the_reference_formula(five: Table) -> None:
    w = _witness(b"w", PSI)
    out = apply_shuffle(five.initial, five.joint, w)
    mine = prove_shuffle(ctx(), five.joint, five.initial, out, w, seeded_source(b"p"))
    ref = ref_prove_shuffle(ctx(), five.joint, five.initial, out, PSI, w.remask, seeded_source(b"p"))
    assert mine.to_wire() == ref.to_wire()


@pytest.mark.parametrize("alter", SHUFFLE_ALTERATIONS)
def test_every_term_of_the_shuffle_proof_matters(five: Table, alter: str) -> None:
    w = _witness(b"w", PSI)
    out = apply_shuffle(five.initial, five.joint, w)
    proof = ref_prove_shuffle(ctx(), five.joint, five.initial, out, PSI, w.remask, seeded_source(b"p"), alter)
    with pytest.raises(ProofError, match="shuffle proof: equation"):
        verify_shuffle(ctx(), five.joint, five.initial, Shuffle(out, proof))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    cards=st.lists(st.integers(0, 51), min_size=1, max_size=8, unique=True),
    data=st.data(),
    seed=st.binary(min_size=1, max_size=8),
)
def test_random_decks_and_permutations_verify(
    five: Table, cards: list[int], data: st.DataObject, seed: bytes
) -> None:
    psi = tuple(data.draw(st.permutations(range(len(cards)))))
    deck = initial_deck(card_table(cards), five.joint)
    w = _witness(seed, psi)
    out = apply_shuffle(deck, five.joint, w)
    proof = prove_shuffle(ctx(1), five.joint, deck, out, w, seeded_source(seed))
    verify_shuffle(ctx(1), five.joint, deck, Shuffle(out, proof))
    table = Table(five.n, card_table(cards), five.keys, five.joint, deck, [], five.source)
    assert _decrypt(table, out) == [cards[j] for j in psi]


# --- cheats ---------------------------------------------------------------------------------------


def _cheat(five: Table, psi: tuple[int, ...], replace: dict[int, Ciphertext] | None = None) -> Shuffle:
    """A 'shuffle' by an arbitrary mapping (not necessarily a permutation), proved as well as it can be."""
    w = _witness(b"cheat", psi)
    positions = [five.initial[j].remask(r, five.joint) for j, r in zip(psi, w.remask, strict=True)]
    for i, ct in (replace or {}).items():
        positions[i] = ct
    out = Deck(tuple(positions))
    return Shuffle(
        out, ref_prove_shuffle(ctx(), five.joint, five.initial, out, psi, w.remask, seeded_source(b"c"))
    )


def test_a_duplicated_card_is_rejected(five: Table) -> None:
    with pytest.raises(ProofError):
        verify_shuffle(ctx(), five.joint, five.initial, _cheat(five, (2, 0, 4, 1, 1)))


def test_a_replaced_card_is_rejected(five: Table) -> None:
    ace = initial_deck(card_table([50]), five.joint)[0].remask(7, five.joint)  # a card not in this deck
    with pytest.raises(ProofError):
        verify_shuffle(ctx(), five.joint, five.initial, _cheat(five, PSI, {3: ace}))
    # ... and a position swapped for an encryption of the identity (an erased card)
    blank = Ciphertext(base_mul(5), 5 * five.joint)
    with pytest.raises(ProofError):
        verify_shuffle(ctx(), five.joint, five.initial, _cheat(five, PSI, {0: blank}))


def test_a_dropped_card_is_rejected(five: Table) -> None:
    honest = shuffle(ctx(), five.joint, five.initial, seeded_source(b"d"))
    short = Deck(honest.deck.positions[:-1])
    with pytest.raises(ProofError):
        verify_shuffle(ctx(), five.joint, five.initial, Shuffle(short, honest.proof))
    with pytest.raises(EncodingError):
        Shuffle.from_wire([short.to_wire(), honest.proof.to_wire()], 5)


@pytest.mark.parametrize(
    "other",
    [
        ctx(seat=1),
        ctx(step=11),
        ctx(hand=2),
        ctx(game=b"another-game"),
        Context(game_id=b"game-0001", hand=1, seat=0, step=10, version=2),
    ],
    ids=["seat", "step", "hand", "game", "version"],
)
def test_a_replayed_proof_is_rejected(five: Table, other: Context) -> None:
    step = shuffle(ctx(), five.joint, five.initial, seeded_source(b"r"))
    verify_shuffle(ctx(), five.joint, five.initial, step)
    with pytest.raises(ProofError, match="seat"):
        verify_shuffle(other, five.joint, five.initial, step)


def test_a_proof_for_a_different_output_input_or_key_is_rejected(five: Table) -> None:
    a = shuffle(ctx(), five.joint, five.initial, seeded_source(b"a"))
    b = shuffle(ctx(), five.joint, five.initial, seeded_source(b"b"))
    with pytest.raises(ProofError):
        verify_shuffle(ctx(), five.joint, five.initial, Shuffle(b.deck, a.proof))
    with pytest.raises(ProofError):
        verify_shuffle(ctx(), five.joint, a.deck, b)
    with pytest.raises(ProofError):
        verify_shuffle(ctx(), five.joint + G, five.initial, a)
    # an honest proof whose output was then swapped around
    swapped = Deck((a.deck[1], a.deck[0], *a.deck.positions[2:]))
    with pytest.raises(ProofError):
        verify_shuffle(ctx(), five.joint, five.initial, Shuffle(swapped, a.proof))


def test_the_library_prover_proves_nothing_false(five: Table) -> None:
    w = _witness(b"w", PSI)
    out = apply_shuffle(five.initial, five.joint, w)
    other = Deck((out[0].remask(1, five.joint), *out.positions[1:]))  # the output changed after the fact
    proof = prove_shuffle(ctx(), five.joint, five.initial, other, w, seeded_source(b"p"))
    with pytest.raises(ProofError, match="t_4"):
        verify_shuffle(ctx(), five.joint, five.initial, Shuffle(other, proof))
    with pytest.raises(UsageError):
        prove_shuffle(ctx(), five.joint, five.initial, out, ShuffleWitness((0, 0, 1, 2, 3), w.remask))


def test_identity_or_malformed_points_in_a_proof_are_encoding_errors(five: Table) -> None:
    wire = shuffle(ctx(), five.joint, five.initial, seeded_source(b"m")).to_wire()
    deck_wire, proof_wire = wire
    cases: list[object] = [
        [deck_wire, [bytes(33 * 5), *proof_wire[1:]]],
        [deck_wire, [*proof_wire[:2], b"\x00", *proof_wire[3:]]],
        [deck_wire, [*proof_wire[:2], b"\x02" + bytes(32), *proof_wire[3:]]],
        [[bytes(66), *deck_wire[1:]], proof_wire],
        [deck_wire, [*proof_wire[:8], b"\xff" * 32, *proof_wire[9:]]],  # s_1 ≥ q
        [deck_wire, [*proof_wire[:8], bytes(32), *proof_wire[9:]]],  # s_1 = 0
        [deck_wire, proof_wire[:13]],
        [deck_wire, [*proof_wire, b""]],
        [deck_wire[:4], proof_wire],
        [deck_wire, [*proof_wire[:12], proof_wire[12][:-1], proof_wire[13]]],
        [deck_wire, [*proof_wire[:7], proof_wire[7] + b"\x02", *proof_wire[8:]]],
        [deck_wire, [3, *proof_wire[1:]]],
        [deck_wire, None],
        "shuffle",
        [deck_wire],
    ]
    for case in cases:
        with pytest.raises(EncodingError):
            Shuffle.from_wire(case, 5)
    # every truncation of every field
    for k in range(14):
        truncated = [*proof_wire[:k], proof_wire[k][:-1], *proof_wire[k + 1 :]]
        with pytest.raises(EncodingError):
            ShuffleProof.from_wire(truncated, 5)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.integers(0, 15), index=st.integers(0, 10_000), mask=st.integers(1, 255))
def test_any_flipped_byte_fails_with_our_error_only(five: Table, field: int, index: int, mask: int) -> None:
    step = shuffle(ctx(), five.joint, five.initial, seeded_source(b"flip"))
    deck_wire, proof_wire = step.to_wire()
    if field < 14:
        proof_wire = [*proof_wire[:field], flip(proof_wire[field], index, mask), *proof_wire[field + 1 :]]
    else:  # fields 14 and 15: a byte of the output deck
        k = index % 5
        deck_wire = [*deck_wire[:k], flip(deck_wire[k], index // 5, mask), *deck_wire[k + 1 :]]
    with pytest.raises(DealError):
        verify_shuffle(ctx(), five.joint, five.initial, Shuffle.from_wire([deck_wire, proof_wire], 5))


_garbage = st.recursive(
    st.none() | st.booleans() | st.integers() | st.binary(max_size=70) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=15) | st.dictionaries(st.text(max_size=2), inner, max_size=2),
    max_leaves=40,
)


@settings(max_examples=150, deadline=None)
@given(_garbage)
def test_any_structure_decodes_or_raises_encoding_error(obj: object) -> None:
    for decode in (lambda: Shuffle.from_wire(obj, 3), lambda: ShuffleProof.from_wire(obj, 3)):
        with contextlib.suppress(EncodingError):
            decode()


def test_chain_of_shuffles_and_who_is_named() -> None:
    table = make_table(3, range(9), seed=b"chain")
    assert verify_shuffle_chain(table.joint, table.initial, table.shuffle_steps()) == table.deck
    steps = table.shuffle_steps()
    with pytest.raises(UsageError):
        verify_shuffle_chain(table.joint, table.initial, [steps[1], steps[0], steps[2]])
    with pytest.raises(UsageError):
        verify_shuffle_chain(table.joint, table.initial, [])
    with pytest.raises(UsageError):
        verify_shuffle_chain(
            table.joint, table.initial, [steps[0], (ctx(1, 99, hand=7), steps[1][1]), steps[2]]
        )
    # seat 1 publishes seat 0's step again: it is seat 1 that is named
    bad = [steps[0], (steps[1][0], steps[0][1]), steps[2]]
    with pytest.raises(ProofError) as info:
        verify_shuffle_chain(table.joint, table.initial, bad)
    assert info.value.seat == 1


def test_generators_and_sizes() -> None:
    gens = shuffle_generators(52)
    assert len({g.encode() for g in gens}) == 53 and G not in gens
    assert shuffle_generators(5) == gens[:6]
    for bad in (0, 53):
        with pytest.raises(UsageError):
            shuffle_generators(bad)
    assert sorted(random_permutation(52, seeded_source(b"p"))) == list(range(52))
    one = initial_deck(card_table([7]), base_mul(3))
    step = shuffle(ctx(), base_mul(3), one, seeded_source(b"1"))
    verify_shuffle(ctx(), base_mul(3), one, step)
    assert isinstance(step.deck[0].A, Point)


# --- the batched check ------------------------------------------------------------------------------


def _with(proof: ShuffleProof, **changes: object) -> ShuffleProof:
    fields = {name: getattr(proof, name) for name in ShuffleProof.__dataclass_fields__}
    return ShuffleProof(**{**fields, **changes})


def test_errors_that_cancel_in_a_plain_sum_are_still_caught(five: Table) -> None:
    """s_1 + 1 and s_2 − 1 put −G into one equation and +G into another: only weights catch that."""
    step = shuffle(ctx(), five.joint, five.initial, seeded_source(b"cancel"))
    p = step.proof
    bad = _with(p, s1=(p.s1 + 1) % Q, s2=(p.s2 - 1) % Q)
    with pytest.raises(ProofError, match="t_1"):
        verify_shuffle(ctx(), five.joint, five.initial, Shuffle(step.deck, bad))
    bad = _with(p, s_hat=((p.s_hat[0] + 1) % Q, (p.s_hat[1] - 1) % Q, *p.s_hat[2:]))
    with pytest.raises(ProofError, match="t̂_1"):
        verify_shuffle(ctx(), five.joint, five.initial, Shuffle(step.deck, bad))


def test_errors_that_cancel_across_two_shuffles_are_caught() -> None:
    table = make_table(3, range(6), seed=b"across")
    steps = table.shuffle_steps()
    (c1, s1), (c2, s2) = steps[1], steps[2]
    bad1 = Shuffle(s1.deck, _with(s1.proof, s1=(s1.proof.s1 + 1) % Q))
    bad2 = Shuffle(s2.deck, _with(s2.proof, s1=(s2.proof.s1 - 1) % Q))
    with pytest.raises(ProofError) as info:
        verify_shuffle_chain(table.joint, table.initial, [steps[0], (c1, bad1), (c2, bad2)])
    assert info.value.seat == 1 and "t_1" in str(info.value)


@pytest.mark.parametrize("alter", ["c:r", "u'", "t3:h", "t4b:H", "that:chat", "s'", "shat"])
@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_bad_step_anywhere_in_a_chain_is_named(alter: str, seat: int) -> None:
    table = make_table(3, range(5), seed=b"bad-chain", shuffled=False)
    steps: list[tuple[Context, Shuffle]] = []
    deck = table.initial
    for k in range(3):
        c = ctx(k, 30 + k)
        if k == seat:
            psi = (1, 2, 3, 4, 0)
            w = _witness(b"bad", psi)
            out = apply_shuffle(deck, table.joint, w)
            step = Shuffle(
                out, ref_prove_shuffle(c, table.joint, deck, out, psi, w.remask, seeded_source(b"x"), alter)
            )
        else:
            step = shuffle(c, table.joint, deck, seeded_source(b"good %d" % k))
        steps.append((c, step))
        deck = step.deck
    with pytest.raises(ProofError) as info:
        verify_shuffle_chain(table.joint, table.initial, steps)
    assert info.value.seat == seat
    # the seat's own step is not checked by itself; every other one is
    assert verify_shuffle_chain(table.joint, table.initial, steps, own_seat=seat) == deck
    with pytest.raises(ProofError):
        verify_shuffle_chain(table.joint, table.initial, steps, own_seat=(seat + 1) % 3)


def test_pairing_deck_points_regroups_the_same_sum(five: Table) -> None:
    """The batch computes κ·(A + β·B) for a position whose coefficients are in the ratio β, and leaves
    any other position as two terms: the sum is the same either way."""
    from p2pcards.deal.shuffle import _pair_deck_points

    beta = 0xBEEF + 2**64 * 3
    deck = shuffle(ctx(), five.joint, five.initial, seeded_source(b"pairs")).deck
    merged: dict[bytes, list[Any]] = {}
    for i, ct in enumerate(deck):
        kappa = 1000 + i
        ratio = beta if i != 2 else beta + 1  # position 2 is not in the ratio: it must stay as it is
        merged[ct.A.encode()] = [kappa, ct.A]
        merged[ct.B.encode()] = [kappa * ratio, ct.B]
    stray = base_mul(77)
    merged[stray.encode()] = [5, stray]

    def total(entries: list[list[Any]]) -> Point:
        return point_sum([k * p for k, p in entries])

    before = total(list(merged.values()))
    paired = _pair_deck_points(merged, beta, [deck, deck])  # a deck met twice is paired once
    assert len(paired) == len(deck) - 1
    assert set(merged) == {deck[2].A.encode(), deck[2].B.encode(), stray.encode()}
    assert total([*merged.values(), *paired]) == before


def test_an_honest_chain_pairs_every_position_it_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every t_4B weight is β times its t_4A weight, so in an honest batch each ciphertext's B
    coefficient is β times its A coefficient wherever the deck occurs: all positions pair up."""
    from p2pcards.deal.shuffle import _pair_deck_points

    shuffle_module = sys.modules["p2pcards.deal.shuffle"]  # the package's ``shuffle`` is the function
    table = make_table(3, range(6), seed=b"pairs-chain")
    counts: list[int] = []

    def counted(merged: dict[bytes, list[Any]], beta: int, decks: list[Deck]) -> list[list[Any]]:
        paired = _pair_deck_points(merged, beta, decks)
        counts.append(len(paired))
        return paired

    monkeypatch.setattr(shuffle_module, "_pair_deck_points", counted)
    verify_shuffle_chain(table.joint, table.initial, table.shuffle_steps(), own_seat=0)
    # seat 0 checks seats 1 and 2: the decks are seat 0's output (seat 1's input), seat 1's and seat 2's
    assert counts == [3 * 6]
