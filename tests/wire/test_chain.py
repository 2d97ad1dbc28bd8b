import hashlib
import itertools
from collections.abc import Callable

import pytest

from p2pcards.wire import (
    GENESIS_TAG,
    HEAD_TAG,
    SIGNATURE_TAG,
    Accepted,
    Chain,
    Duplicate,
    Equivocation,
    Reason,
    Rejected,
    Round,
    Sealed,
    SignedMessage,
    WireError,
    accept,
    encode,
    initial_head,
    key_from_seed,
    step_head,
    verify_evidence,
)

from .helpers import GAME, HEAD0, OTHER_GAME, PRIVATE, PUBLIC, message


def test_heads() -> None:
    assert hashlib.sha256(GENESIS_TAG + GAME).digest() == HEAD0
    a, b = message(0, 0), message(0, 1)
    assert step_head(HEAD0, [a.hash, b.hash]) == hashlib.sha256(HEAD_TAG + HEAD0 + a.hash + b.hash).digest()
    assert step_head(HEAD0, [a.hash, b.hash]) != step_head(HEAD0, [b.hash, a.hash])
    with pytest.raises(ValueError):
        step_head(HEAD0, [])


# --- accept(): every reason, in order ---------------------------------------------------------


def _accept(data: bytes | SignedMessage, awaited: frozenset[int] = frozenset({1})) -> Reason | None:
    verdict = accept(data, game_id=GAME, step=4, prev=HEAD0, awaited=awaited, keys=PUBLIC)
    return verdict.reason if isinstance(verdict, Rejected) else None


def test_accept_passes_the_awaited_message() -> None:
    msg = message(4, 1)
    assert accept(msg.data, game_id=GAME, step=4, prev=HEAD0, awaited={1}, keys=PUBLIC) == Accepted(msg)
    assert _accept(msg) is None  # an already parsed message goes through the same checks


def _signed(fields: list[object], seat: int = 1) -> bytes:
    """Any envelope array, correctly signed by ``seat`` (sign() would refuse the invalid ones)."""
    raw = encode(fields)
    return encode([raw, PRIVATE[seat].sign(SIGNATURE_TAG + raw)])


def _forged() -> bytes:
    return _signed([1, GAME, 4, 1, HEAD0, "action", None], seat=2)  # seat 1's message, seat 2's key


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda: b"\x00garbage", Reason.MALFORMED),
        (lambda: encode(b"x" * 2_000_000), Reason.TOO_LARGE),
        (lambda: _signed([2, GAME, 4, 1, HEAD0, "action", None]), Reason.UNSUPPORTED_VERSION),
        (lambda: _signed([1, GAME, 4, 1, HEAD0, "telepathy", None]), Reason.UNKNOWN_KIND),
        (lambda: _signed([1, GAME, 4, 1, HEAD0, "action", b"x" * 5000]), Reason.TOO_LARGE),
        (lambda: message(4, 1, game=OTHER_GAME).data, Reason.ANOTHER_GAME),
        (lambda: message(4, 1, key=key_from_seed(b"\x99" * 32)).data, Reason.BAD_SIGNATURE),
        (_forged, Reason.BAD_SIGNATURE),
        (lambda: message(4, 1, kind="catchup_request").data, Reason.NOT_A_STEP),
        (lambda: message(3, 1).data, Reason.OLD_STEP),
        (lambda: message(5, 1).data, Reason.FUTURE_STEP),
        (lambda: message(4, 1, prev=b"\x00" * 32).data, Reason.WRONG_HEAD),
        (lambda: message(4, 2).data, Reason.NOT_AWAITED),
    ],
)
def test_accept_rejects_with_a_precise_reason(make: Callable[[], bytes], reason: Reason) -> None:
    assert _accept(make()) is reason


def test_size_limits_depend_on_the_kind() -> None:
    assert _accept(message(4, 1, kind="shuffle", body=b"x" * 5000)) is None


def test_unknown_seat() -> None:
    keys = {seat: PUBLIC[seat] for seat in (0, 1)}
    verdict = accept(message(4, 3).data, game_id=GAME, step=4, prev=HEAD0, awaited={1}, keys=keys)
    assert isinstance(verdict, Rejected) and verdict.reason is Reason.UNKNOWN_SEAT


def test_checks_run_in_the_documented_order() -> None:
    # Another game AND bad signature AND old step AND wrong head: the first check wins.
    msg = message(1, 2, prev=b"\x01" * 32, game=OTHER_GAME, key=PRIVATE[3])
    assert _accept(msg.data) is Reason.ANOTHER_GAME
    msg = message(1, 2, prev=b"\x01" * 32, key=PRIVATE[3])
    assert _accept(msg.data) is Reason.BAD_SIGNATURE
    assert _accept(message(1, 2, prev=b"\x01" * 32).data) is Reason.OLD_STEP
    assert _accept(message(4, 2, prev=b"\x01" * 32).data) is Reason.WRONG_HEAD


# --- Round ---------------------------------------------------------------------------------------


def test_round_yields_seat_order_whatever_the_arrival_order() -> None:
    msgs = {seat: message(2, seat, kind="share", body=seat) for seat in (0, 2, 5)}
    expected = (msgs[0], msgs[2], msgs[5])
    for order in itertools.permutations(msgs):
        r = Round(2, HEAD0, msgs)
        for i, seat in enumerate(order):
            assert not r.complete
            with pytest.raises(RuntimeError):
                r.messages()
            assert r.add(msgs[seat]) == Accepted(msgs[seat])
            assert r.missing == set(order[i + 1 :])
        assert r.complete and r.messages() == expected
        assert r.seal().head == step_head(HEAD0, [m.hash for m in expected])


def test_round_duplicates_equivocation_and_strangers() -> None:
    r = Round(2, HEAD0, {0, 1})
    first = message(2, 0, kind="share", body=1)
    assert isinstance(r.add(first), Accepted)
    assert r.add(SignedMessage.from_bytes(first.data)) == Duplicate(first)
    other = message(2, 0, kind="share", body=2)
    outcome = r.add(other)
    assert isinstance(outcome, Equivocation) and {outcome.first, outcome.second} == {first, other}
    assert r.received == (first,)  # the first contribution stands
    assert r.add(message(2, 3, kind="share")) == Rejected(
        Reason.NOT_AWAITED, "seat 3", message(2, 3, kind="share")
    )
    assert isinstance(r.add(message(2, 1, prev=b"\x00" * 32)), Rejected)
    assert isinstance(r.add(message(3, 1)), Rejected)
    assert r.missing == {1}
    with pytest.raises(ValueError):
        Round(0, HEAD0, [])


# --- Chain ---------------------------------------------------------------------------------------


def _chain() -> Chain:
    return Chain(GAME, PUBLIC)


def test_chain_seals_single_seat_steps_and_rounds() -> None:
    chain = _chain()
    chain.expect({0})
    genesis = message(0, 0, kind="genesis", body={"options": "x"})
    outcome = chain.offer(genesis.data)
    assert isinstance(outcome, Sealed) and outcome.message == genesis
    assert outcome.step.messages == (genesis,) and outcome.step.number == 0
    head1 = step_head(HEAD0, [genesis.hash])
    assert chain.head == head1 and chain.step == 1 and chain.awaited == frozenset()
    # Nothing is open until the state says who is awaited.
    early = message(1, 2, head1, kind="key_commit")
    assert chain.offer(early.data) == Rejected(Reason.NOT_AWAITED, "seat 2", early)
    stale = message(1, 2, HEAD0, kind="key_commit")
    assert chain.offer(stale.data) == Rejected(Reason.WRONG_HEAD, HEAD0.hex(), stale)
    chain.expect({0, 1, 2})
    with pytest.raises(RuntimeError):
        chain.expect({0})
    commits = [message(1, seat, head1, kind="key_commit", body=seat) for seat in (2, 0, 1)]
    assert chain.offer(commits[0].data) == Accepted(commits[0])
    assert chain.offer(commits[1]) == Accepted(commits[1])  # a locally signed message, same path
    assert chain.pending == (commits[1], commits[0]) and chain.missing == {1}
    sealed = chain.offer(commits[2].data)
    assert isinstance(sealed, Sealed)
    in_order = (commits[1], commits[2], commits[0])
    assert sealed.step.messages == in_order
    assert chain.head == step_head(head1, [m.hash for m in in_order])
    assert chain.messages_after(-1) == (genesis, *in_order)
    assert chain.messages_after(0) == in_order
    assert chain.lookup(1, 2) == commits[0] and chain.lookup(1, 3) is None and chain.lookup(9, 0) is None


def test_a_relayed_message_verifies_and_is_accepted_exactly_once() -> None:
    chain = _chain()
    chain.expect({0, 1})
    msg = message(0, 1, kind="key_commit")
    relayed = bytes(msg.data)  # another peer re-sends the exact bytes it received
    assert isinstance(chain.offer(msg.data), Accepted)
    assert chain.offer(relayed) == Duplicate(msg)
    assert chain.pending == (msg,)
    assert isinstance(chain.offer(message(0, 0, kind="key_commit").data), Sealed)
    # After sealing, the relayed copy is an old step the chain holds: still a duplicate.
    assert chain.offer(relayed) == Duplicate(msg)
    assert len(chain.steps) == 1 and chain.step == 1


def test_equivocation_in_the_open_round_and_in_an_old_step() -> None:
    chain = _chain()
    chain.expect({0})
    a = message(0, 0, kind="action", body="play AS")
    b = message(0, 0, kind="action", body="play KS")
    assert isinstance(chain.offer(a.data), Sealed)
    head = chain.head
    outcome = chain.offer(b.data)
    assert isinstance(outcome, Equivocation)
    assert chain.head == head and chain.step == 1  # evidence changes nothing
    assert outcome.seat == 0 and outcome.step == 0 and outcome.game_id == GAME
    assert verify_evidence(outcome, PUBLIC[0])
    assert not verify_evidence(outcome, PUBLIC[1])
    # Whatever the arrival order, every replica builds the same evidence.
    assert outcome == Equivocation.of(b, a) == Equivocation.of(a, b)
    # A second message after the same head is equivocation, in the open round as in an old step.
    chain.expect({1, 2})
    c = message(1, 1, head, kind="share")
    assert isinstance(chain.offer(c.data), Accepted)
    twin = message(1, 1, head, kind="share", body="other")
    assert isinstance(chain.offer(twin.data), Equivocation)
    # One bound to another head is the seat's word on another branch of the log: refused, no evidence.
    elsewhere = message(1, 1, b"\x07" * 32, kind="share")
    assert chain.offer(elsewhere.data) == Rejected(Reason.WRONG_HEAD, (b"\x07" * 32).hex(), elsewhere)
    assert chain.offer(message(0, 0, b"\x07" * 32, kind="action").data) == Rejected(
        Reason.OLD_STEP, "step 0 < 1", message(0, 0, b"\x07" * 32, kind="action")
    )
    assert chain.pending == (c,)
    # An old step the seat did not contribute to is just old.
    assert chain.offer(message(0, 1).data) == Rejected(Reason.OLD_STEP, "step 0 < 1", message(0, 1))


def test_evidence_as_a_message_body() -> None:
    a, b = message(5, 3, body=1), message(5, 3, body=2)
    evidence = Equivocation.of(a, b)
    body = evidence.to_body()
    report = message(6, 0, kind="evidence", body=body)  # carried in a signed evidence message
    parsed = Equivocation.from_body(SignedMessage.from_bytes(report.data).body)
    assert parsed == evidence and verify_evidence(parsed, PUBLIC[3])
    with pytest.raises(ValueError):
        Equivocation.of(a, a)
    assert isinstance(body, dict)
    bad_bodies = [
        None,
        {**body, "type": "renege"},
        {**body, "b": body["a"]},
        {"type": "equivocation", "a": body["b"], "b": body["a"]},
        {**body, "a": b"junk"},
    ]
    for bad in bad_bodies:
        with pytest.raises(WireError):
            Equivocation.from_body(bad)


def test_evidence_that_does_not_convict() -> None:
    a = message(5, 3, body=1)
    cases = [
        Equivocation.of(a, message(6, 3, body=2)),  # different steps
        Equivocation.of(a, message(5, 2, body=2, key=PRIVATE[3])),  # different seats
        Equivocation.of(a, message(5, 3, body=2, game=OTHER_GAME)),  # different games
        Equivocation.of(a, message(5, 3, body=2, key=PRIVATE[4])),  # not both signed by the seat
        Equivocation.of(message(5, 3, kind="catchup_request"), message(5, 3, kind="catchup_request", body=1)),
        Equivocation.of(a, message(5, 3, b"\x07" * 32, body=2)),  # after different heads
        Equivocation.of(a, message(5, 3, kind="void_vote", body=2)),  # a vote is no step message
        Equivocation.of(  # a seat may vote at a step and later end the match there
            message(5, 3, kind="void_vote", body=1), message(5, 3, kind="abandon", body=2)
        ),
        Equivocation.of(message(5, 3, kind="return", body=1), message(5, 3, kind="return", body=2)),
    ]
    for evidence in cases:
        assert not verify_evidence(evidence, PUBLIC[3])


def test_chain_refuses_bad_usage() -> None:
    with pytest.raises(ValueError):
        Chain(b"short", PUBLIC)
    with pytest.raises(ValueError):
        Chain(GAME, {0: PUBLIC[0]}).expect({0, 1})


def test_resumed_chain() -> None:
    head = b"\x42" * 32
    chain = Chain(GAME, PUBLIC, start_step=10, start_head=head)
    chain.expect({4})
    assert chain.offer(message(9, 4, head).data) == Rejected(
        Reason.OLD_STEP, "step 9 < 10", message(9, 4, head)
    )
    assert isinstance(chain.offer(message(10, 4, head).data), Sealed)
    assert chain.messages_after(9) == (message(10, 4, head),)
    assert chain.lookup(10, 4) == message(10, 4, head)


def test_initial_head_depends_on_the_game() -> None:
    assert initial_head(GAME) != initial_head(OTHER_GAME)


def test_two_different_votes_or_two_different_abandons_of_one_step_convict() -> None:
    for kind in ("void_vote", "abandon"):
        evidence = Equivocation.of(message(5, 3, kind=kind, body=1), message(5, 3, kind=kind, body=2))
        assert verify_evidence(evidence, PUBLIC[3]), kind
