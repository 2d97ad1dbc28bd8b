"""The connection handshake as data: identity proof, game binding, join code."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.net.handshake import (
    ANY_BIND,
    Handshake,
    HandshakeError,
    Why,
    handshake_pair,
    join_code_key,
)
from p2pcards.wire import encode, key_from_seed, public_bytes

ALICE = key_from_seed(b"\x01" * 32)
BOB = key_from_seed(b"\x02" * 32)
MALLORY = key_from_seed(b"\x03" * 32)
GAME = b"G" * 32
OTHER_GAME = b"H" * 32


def pair(**kw: Any) -> tuple[Handshake, Handshake]:
    dialer_kw = {k[2:]: v for k, v in kw.items() if k.startswith("d_")}
    acceptor_kw = {k[2:]: v for k, v in kw.items() if k.startswith("a_")}
    dialer_kw.setdefault("bind", GAME)
    acceptor_kw.setdefault("binds", [GAME])
    d = Handshake("dialer", dialer_kw.pop("identity", ALICE), **dialer_kw)
    a = Handshake("acceptor", acceptor_kw.pop("identity", BOB), **acceptor_kw)
    return d, a


def run_recording(d: Handshake, a: Handshake) -> list[tuple[str, bytes]]:
    """Like handshake_pair, keeping every message with its direction."""
    log: list[tuple[str, bytes]] = []
    to_a = d.start()
    a.start()
    while to_a:
        log += [("d->a", m) for m in to_a]
        to_d = [r for m in to_a for r in a.receive(m)]
        log += [("a->d", m) for m in to_d]
        to_a = [r for m in to_d for r in d.receive(m)]
    return log


def test_a_good_handshake_proves_both_keys_and_binds_the_game():
    d, a = pair(d_expect_key=public_bytes(BOB))
    log = run_recording(d, a)
    assert d.done and a.done
    assert d.peer_key == public_bytes(BOB)
    assert a.peer_key == public_bytes(ALICE)
    assert d.transcript == a.transcript
    assert a.bind == d.bind == GAME
    assert [direction for direction, _ in log] == ["d->a", "a->d", "d->a", "a->d"]


def test_an_acceptor_serving_several_games_binds_the_one_asked_for():
    d, a = pair(d_bind=OTHER_GAME, a_binds=[GAME, OTHER_GAME])
    handshake_pair(d, a)
    assert a.done and a.bind == OTHER_GAME


def test_the_dialer_refuses_a_peer_that_is_not_the_seat_it_dialled():
    d, a = pair(d_expect_key=public_bytes(MALLORY))
    with pytest.raises(HandshakeError) as err:
        handshake_pair(d, a)
    assert err.value.why is Why.WRONG_KEY
    assert not d.done and d.peer_key is None


def test_claiming_someone_elses_key_without_its_private_half_fails():
    # Mallory announces Alice's public key but can only sign with her own.
    d, a = pair(d_identity=MALLORY)
    d.key = public_bytes(ALICE)
    with pytest.raises(HandshakeError) as err:
        handshake_pair(d, a)
    assert err.value.why is Why.BAD_SIGNATURE
    assert err.value.reply is not None  # the acceptor says why before closing
    assert a.peer_key is None


def test_a_recorded_handshake_replayed_to_a_fresh_acceptor_fails():
    d, a = pair()
    log = run_recording(d, a)
    replayed_hello, replayed_proof = [m for direction, m in log if direction == "d->a"]
    fresh = Handshake("acceptor", BOB, binds=[GAME])  # a new connection: a new nonce
    fresh.start()
    fresh.receive(replayed_hello)
    with pytest.raises(HandshakeError) as err:
        fresh.receive(replayed_proof)
    assert err.value.why is Why.BAD_SIGNATURE
    assert fresh.peer_key is None


def test_a_recorded_acceptor_replayed_to_a_fresh_dialer_fails():
    d, a = pair()
    log = run_recording(d, a)
    replayed_hello, replayed_proof = [m for direction, m in log if direction == "a->d"]
    fresh = Handshake("dialer", ALICE, bind=GAME)
    fresh.start()
    fresh.receive(replayed_hello)
    with pytest.raises(HandshakeError) as err:
        fresh.receive(replayed_proof)
    assert err.value.why is Why.BAD_SIGNATURE


def test_a_proof_reflected_back_to_its_author_fails():
    # Each direction signs under its own tag: the dialer's own proof is no acceptor's proof.
    d, a = pair()
    hello = d.start()[0]
    a.start()
    answer = a.receive(hello)[0]
    own_proof = d.receive(answer)[0]
    with pytest.raises(HandshakeError) as err:
        d.receive(own_proof)
    assert err.value.why is Why.BAD_SIGNATURE


def test_a_dialer_asking_for_another_game_is_refused_and_told_why():
    d, a = pair(d_bind=OTHER_GAME)
    hello = d.start()[0]
    a.start()
    with pytest.raises(HandshakeError) as err:
        a.receive(hello)
    assert err.value.why is Why.WRONG_GAME
    assert err.value.reply is not None
    with pytest.raises(HandshakeError) as told:
        d.receive(err.value.reply)
    assert told.value.why is Why.REFUSED and "wrong game" in told.value.detail


def test_an_acceptor_answering_for_another_game_is_refused():
    d, a = pair(a_binds=[OTHER_GAME, GAME])
    hello = d.start()[0]
    a.start()
    a.receive(hello)
    forged = Handshake("acceptor", BOB, binds=[OTHER_GAME])
    forged.start()
    # An acceptor whose hello names another game than the one dialled.
    other_dialer = Handshake("dialer", ALICE, bind=OTHER_GAME)
    answer = forged.receive(other_dialer.start()[0])[0]
    with pytest.raises(HandshakeError) as err:
        d.receive(answer)
    assert err.value.why is Why.WRONG_GAME


def test_a_key_that_is_not_admitted_is_refused_as_soon_as_its_hello_names_it():
    d, a = pair(a_admit=lambda key: key == public_bytes(MALLORY))
    d.start()
    a.start()
    with pytest.raises(HandshakeError) as err:
        a.receive(d._ours or b"")
    assert err.value.why is Why.NOT_ADMITTED and err.value.reply is not None
    assert a.peer_key is None and not a.done  # refused before any proof was looked at


def test_a_key_admitted_at_hello_is_checked_again_once_proven():
    answers = iter([True, False])  # a seat that stopped being one meanwhile
    d, a = pair(a_admit=lambda key: next(answers))
    with pytest.raises(HandshakeError) as err:
        handshake_pair(d, a)
    assert err.value.why is Why.NOT_ADMITTED
    assert a.peer_key == public_bytes(ALICE)  # proven, then refused
    assert not a.done


@pytest.mark.parametrize(
    "weak",
    [
        bytes([1]) + bytes(31),  # the identity point: R = identity, S = 0 verifies anything
        bytes(32),  # a point of order 4
        (2**255 - 19 + 1).to_bytes(32, "little"),  # y >= p: a non-canonical encoding
    ],
)
def test_a_small_order_or_non_canonical_key_is_refused_in_the_hello(weak: bytes):
    """With a small-order key anyone could forge that peer's signatures: it never gets a proof checked."""
    _, a = pair()
    a.start()
    hello = encode({"t": "hello", "v": 1, "key": weak, "nonce": b"n" * 32, "bind": GAME, "code": False})
    with pytest.raises(HandshakeError) as err:
        a.receive(hello)
    assert err.value.why is Why.WEAK_KEY and err.value.reply is not None


def test_the_hello_hook_sees_the_claimed_key_before_anything_is_answered():
    claimed: list[bytes] = []
    d, a = pair(a_on_hello=lambda hello: claimed.append(hello.key))
    handshake_pair(d, a)
    assert claimed == [public_bytes(ALICE)]

    def refuse(hello: Any) -> None:
        raise HandshakeError(Why.NOT_ADMITTED, "busy")

    d, a = pair(a_on_hello=refuse)
    d.start()
    a.start()
    with pytest.raises(HandshakeError):
        a.receive(d._ours or b"")
    assert a._ours is None  # nothing was answered


def test_a_refusal_reason_from_the_peer_is_made_safe_and_short():
    d, _ = pair()
    d.start()
    hostile = encode({"t": "refuse", "why": "\x1b[2J\x1b]0;owned\x07admitted\u202e" + "x" * 500})
    with pytest.raises(HandshakeError) as err:
        d.receive(hostile)
    assert err.value.why is Why.REFUSED
    assert not any(ch in err.value.detail for ch in "\x1b\x07\u202e") and len(err.value.detail) <= 200


# ---------------------------------------------------------------------- join codes

CODE_KEY = join_code_key("7Q4-K2", GAME)


def test_the_right_join_code_passes_and_never_crosses_the_network():
    d, a = pair(d_code_key=join_code_key("7q4 k2", GAME), a_code_key=CODE_KEY)
    log = run_recording(d, a)
    assert d.done and a.done
    for _, message in log:
        for form in (b"7Q4-K2", b"7q4k2", b"7Q4K2", CODE_KEY):
            assert form not in message


def test_a_wrong_join_code_is_refused_by_the_acceptor_before_it_proves_anything():
    d, a = pair(d_code_key=join_code_key("7Q4-K3", GAME), a_code_key=CODE_KEY)
    log: list[bytes] = []
    hello = d.start()[0]
    a.start()
    answer = a.receive(hello)[0]
    proof = d.receive(answer)[0]
    with pytest.raises(HandshakeError) as err:
        log += a.receive(proof)
    assert err.value.why is Why.WRONG_CODE
    assert log == []  # no acceptor proof (and no MAC to guess the code from) was given
    assert not a.done and a.peer_key is None


def test_a_code_is_bound_to_its_table():
    d, a = pair(d_code_key=join_code_key("7Q4-K2", OTHER_GAME), a_code_key=CODE_KEY)
    with pytest.raises(HandshakeError) as err:
        handshake_pair(d, a)
    assert err.value.why is Why.WRONG_CODE


def test_a_private_table_refuses_a_dialer_without_a_code_at_once():
    d, a = pair(a_code_key=CODE_KEY)
    hello = d.start()[0]
    a.start()
    with pytest.raises(HandshakeError) as err:
        a.receive(hello)
    assert err.value.why is Why.CODE_REQUIRED


def test_a_dialer_with_a_code_refuses_a_host_that_has_none():
    # Otherwise an impostor host could collect the joiner's MAC without knowing the code.
    d, a = pair(d_code_key=CODE_KEY)
    with pytest.raises(HandshakeError) as err:
        handshake_pair(d, a)
    assert err.value.why in (Why.WRONG_CODE, Why.REFUSED)


def test_a_code_cannot_be_empty():
    with pytest.raises(ValueError):
        join_code_key(" - ", GAME)


# ---------------------------------------------------------------------- malformed input


def test_another_protocol_version_is_refused_with_its_reason():
    hello = {
        "t": "hello",
        "v": 2,
        "key": public_bytes(ALICE),
        "nonce": b"n" * 32,
        "bind": GAME,
        "code": False,
    }
    a = Handshake("acceptor", BOB, binds=[GAME])
    a.start()
    with pytest.raises(HandshakeError) as err:
        a.receive(encode(hello))
    assert err.value.why is Why.VERSION


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_garbage_only_ever_fails_the_handshake(data):
    a = Handshake("acceptor", BOB, binds=[GAME])
    a.start()
    with pytest.raises(HandshakeError):
        a.receive(data)


@settings(max_examples=100, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["t", "v", "key", "nonce", "bind", "code", "sig", "mac"]),
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(-3, 3),
            st.binary(max_size=40),
            st.sampled_from(["hello", "proof", "refuse"]),
        ),
    )
)
def test_ill_formed_maps_only_ever_fail_the_handshake(fields):
    d = Handshake("dialer", ALICE, bind=GAME)
    d.start()
    try:
        d.receive(encode(fields))
    except HandshakeError:
        return
    # The one map that may pass is a well-formed hello for our game.
    assert fields.get("t") == "hello" and fields.get("bind") == GAME


# ---------------------------------------------------------------------- manual join (host:port only)


def test_a_manual_join_binds_the_lobby_hosted_there():
    d = Handshake("dialer", ALICE, bind=ANY_BIND)
    a = Handshake("acceptor", BOB, any_bind=GAME)
    handshake_pair(d, a)
    assert d.done and a.done
    assert d.bind == a.bind == GAME and d.transcript == a.transcript


def test_a_manual_join_with_a_code_salts_it_with_the_lobby_learned_from_the_host():
    d = Handshake("dialer", ALICE, bind=ANY_BIND, code="7q4k2")
    a = Handshake("acceptor", BOB, any_bind=GAME, code_key=CODE_KEY)
    handshake_pair(d, a)
    assert d.done and a.done
    wrong = Handshake("dialer", ALICE, bind=ANY_BIND, code="7q4k3")
    with pytest.raises(HandshakeError) as err:
        handshake_pair(wrong, Handshake("acceptor", BOB, any_bind=GAME, code_key=CODE_KEY))
    assert err.value.why is Why.WRONG_CODE


def test_a_game_node_never_answers_a_manual_join():
    d = Handshake("dialer", ALICE, bind=ANY_BIND)
    a = Handshake("acceptor", BOB, binds=[GAME])
    with pytest.raises(HandshakeError) as err:
        handshake_pair(d, a)
    assert err.value.why is Why.WRONG_GAME


def test_an_acceptor_cannot_answer_a_manual_join_with_the_wildcard_itself():
    d = Handshake("dialer", ALICE, bind=ANY_BIND)
    a = Handshake("acceptor", BOB, binds=[ANY_BIND])
    with pytest.raises(HandshakeError) as err:
        handshake_pair(d, a)
    assert err.value.why is Why.WRONG_GAME
