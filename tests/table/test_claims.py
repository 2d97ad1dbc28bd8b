"""The claims module (SPEC §6.5, §9.6) case by case, and its adapters ``decide`` and ``policy``.

Each table lists what a reader checks against the spec: who may claim, what the votes decide, when a
claim is spent, what a replica takes and what it is told, whom a restored seat waits for, and the
invariants the model checker asserts.
"""

from __future__ import annotations

from typing import Any

import pytest

from p2pcards.table import claims, decide, policy
from p2pcards.table.attempt import Attempt
from p2pcards.table.claims import ABANDON, VOTE, Decision, StepView
from p2pcards.table.seating import SILENT, UNCONFIRMED
from p2pcards.table.voices import Voices
from p2pcards.wire import SignedMessage
from tests.table.helpers import Room, genesis_for, signed_as

N = 5
GENESIS = genesis_for("durak", N)
HEAD = bytes(32)
PEOPLE = Voices((0, 1, 2, 3, 4))
WITH_COMPUTERS = Voices((0, 1, 1, 3, 3))
"""Seat 1 runs seat 2's computer player, seat 3 runs seat 4's."""


def _claim(kind: str, seat: int, silent: list[int], step: int = 10) -> SignedMessage:
    return SignedMessage.from_bytes(signed_as(GENESIS, seat, kind, {"silent": silent}, step, HEAD))


def _at(awaited: tuple[int, ...], at_table: tuple[int, ...] = (0, 1, 2, 3, 4),
        holders: tuple[int, ...] | None = None, step: int = 10) -> StepView:
    return StepView(step, HEAD, at_table, at_table if holders is None else holders, awaited)


# ============================================================================ who may claim


@pytest.mark.parametrize(
    ("kind", "voices", "signer", "silent", "at", "refused"),
    [
        (VOTE, PEOPLE, 0, (1,), _at((1,)), ""),
        (VOTE, PEOPLE, 0, (0,), _at((0,)), "never itself"),
        (ABANDON, PEOPLE, 0, (0, 1, 2), _at((0,)), "cannot name itself"),
        (VOTE, WITH_COMPUTERS, 2, (0,), _at((0,)), "seat 2 is a computer player: seat 1 speaks"),
        (VOTE, WITH_COMPUTERS, 0, (2,), _at((2,)), "name seat 1, whose machine runs it"),
        (VOTE, PEOPLE, 1, (2,), _at((2,), at_table=(0, 2, 3, 4)), "seat 1 is not at the table"),
        (VOTE, PEOPLE, 0, (1, 2, 3), _at((1, 2, 3)), "fewer than half of the 5 voices"),
        (VOTE, PEOPLE, 0, (1, 2), _at((1,)), "were not all awaited"),
        (ABANDON, PEOPLE, 0, (1, 2), _at((1, 2)), "only when half the players or more"),
        (ABANDON, PEOPLE, 0, (1, 2, 3), _at((1,)), ""),
        (ABANDON, PEOPLE, 0, (1, 2, 3), _at((4,)), "none of seats [1, 2, 3] was awaited"),
        # A watcher (at the table, no key) may vote; its vote counts like any voice's.
        (VOTE, PEOPLE, 3, (1,), _at((1,), holders=(0, 1)), ""),
    ],
)
def test_who_may_claim(kind: str, voices: Voices, signer: int, silent: tuple[int, ...], at: StepView,
                       refused: str) -> None:
    problem = claims.claim_problem(kind, voices, signer, silent, at)
    assert (refused in problem) if refused else problem == "", problem


# ============================================================================ every voice spends


@pytest.mark.parametrize(
    ("latest", "step", "went_on"),
    [
        ({}, 10, ()),
        ({0: 10, 1: 9}, 10, ()),
        ({0: 11, 1: 9}, 10, (0,)),
        ({2: 12, 4: 11}, 10, (1, 3)),  # computer seats sign for their runners' voices
    ],
)
def test_who_went_on(latest: dict[int, int], step: int, went_on: tuple[int, ...]) -> None:
    assert claims.went_on(WITH_COMPUTERS, latest, step) == went_on


@pytest.mark.parametrize(
    ("named", "later", "is_spent"),
    [
        ((1,), (), False),  # nobody signed later: the vote stands
        ((1,), (1,), False),  # the seat voted out playing on alone does not undo the vote
        ((1,), (0,), True),  # its signer went on
        ((1,), (2,), True),  # anyone else went on: a watcher's vote is spent too
        ((1, 2), (1, 2), False),
        ((1, 2), (1, 2, 4), True),
    ],
)
def test_a_claim_is_spent_once_a_voice_it_does_not_name_went_on(
    named: tuple[int, ...], later: tuple[int, ...], is_spent: bool
) -> None:
    assert claims.spent(named, later) is is_spent


# ============================================================================ decisions


def _votes(*pairs: tuple[int, list[int]]) -> dict[int, SignedMessage]:
    return {seat: _claim(VOTE, seat, silent) for seat, silent in pairs}


@pytest.mark.parametrize(
    ("votes", "spent_voters", "at", "decided"),
    [
        (_votes(), (), _at((1,)), None),
        (_votes((0, [1]), (2, [1])), (), _at((1,)), None),  # two of five: no majority
        (_votes((0, [1]), (2, [1]), (3, [1])), (), _at((1,)), ((1,), (1,), (0, 2, 3))),
        (_votes((0, [1]), (2, [1]), (3, [1])), (3,), _at((1,)), None),  # one vote spent
        (_votes((0, [1]), (2, [1, 4]), (3, [1])), (), _at((1, 4)), None),  # 4 awaited, voted by one
        (_votes((0, [1]), (2, [1]), (3, [1]), (4, [1])), (), _at((1, 4)), ((1,), (1,), (0, 2, 3, 4))),
        # Watchers' votes (seats 2, 3, 4 out of chips) count as voices: spent or not, as anyone's.
        (_votes((2, [1]), (3, [1]), (4, [1])), (), _at((1,), holders=(0, 1)), ((1,), (1,), (2, 3, 4))),
        (_votes((2, [1]), (3, [1]), (4, [1])), (2, 3), _at((1,), holders=(0, 1)), None),
    ],
)
def test_what_the_votes_decide(
    votes: dict[int, SignedMessage], spent_voters: tuple[int, ...], at: StepView,
    decided: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None,
) -> None:
    d = claims.vote_decision(PEOPLE, at, votes, spent_voters, N)
    if decided is None:
        assert d is None
    else:
        assert d is not None and d.majority and (d.silent, d.seats, d.signers) == decided


def test_a_decision_about_a_runner_deals_out_its_computer_players() -> None:
    votes = {0: _claim(VOTE, 0, [3]), 1: _claim(VOTE, 1, [3])}
    d = claims.vote_decision(Voices((0, 1, 3, 3, 3)), _at((4,)), votes, (), N)
    assert d is not None and d.silent == (3,) and d.seats == (2, 3, 4)


def test_an_abandon_is_its_signers_word() -> None:
    claim = _claim(ABANDON, 0, [1, 2, 3])
    assert claims.word_of(PEOPLE, _at((1,)), claim, True, N) is None
    d = claims.word_of(PEOPLE, _at((1,)), claim, False, N)
    assert d is not None and not d.majority and d.signers == (0,) and d.silent == (1, 2, 3)
    assert claims.change_of(d).kind == UNCONFIRMED


# ============================================================================ consent and who takes what


def _decision(silent: tuple[int, ...], signers: tuple[int, ...], majority: bool, step: int = 10) -> Decision:
    return Decision(step, HEAD, silent, silent, signers, majority, ())


MAJORITY_ABOUT_2 = _decision((2,), (0, 1, 3), True)
LONE_ABOUT_012 = _decision((0, 1, 2), (4,), False, step=7)
OWN_WORD_OF_0 = _decision((1, 2, 3), (0,), False)


@pytest.mark.parametrize(
    ("decision", "me", "consents", "bound"),
    [
        (MAJORITY_ABOUT_2, 0, [], True),  # a majority's binds every voice it does not name
        (MAJORITY_ABOUT_2, None, [], True),  # an observer reading nobody's journal
        (MAJORITY_ABOUT_2, 2, [], False),  # ... and the voice it names only with its consent
        (MAJORITY_ABOUT_2, 2, [(10, HEAD)], True),
        (MAJORITY_ABOUT_2, 2, [(11, HEAD)], False),  # consent to another decision
        (MAJORITY_ABOUT_2, 2, [(10, bytes(31) + b"\x01")], False),  # same step, another head
        (LONE_ABOUT_012, 2, [(7, HEAD)], False),  # a minority's word never binds a voice it names
        (LONE_ABOUT_012, 4, [], True),  # ... it binds its signer
        (LONE_ABOUT_012, 3, [], False),  # ... and nobody else
        (OWN_WORD_OF_0, 0, [], True),
    ],
)
def test_who_takes_a_decision(decision: Decision, me: int | None, consents: list[tuple[int, bytes]],
                              bound: bool) -> None:
    assert claims.binds(decision, me, consents) is bound


def test_of_two_decisions_the_first_in_change_order_is_taken_and_the_others_told() -> None:
    lone = _decision((1, 2, 3), (0,), False)
    majority = _decision((1,), (0, 2, 3), True)
    taken, told = claims.taken([lone, majority], 0, [])
    assert taken is majority and claims.change_of(majority).kind == SILENT and told == ()
    taken, told = claims.taken([lone, majority], 1, [])
    assert taken is None and told == (lone, majority)


FOUR = 4


def _words(*pairs: tuple[int, tuple[int, ...]]) -> list[Decision]:
    return [_decision(silent, (signer,), False) for signer, silent in pairs]


@pytest.mark.parametrize(
    ("words", "playing", "half"),
    [
        (_words((0, (2, 3)), (1, (2, 3))), FOUR, [((2, 3), (0, 1))]),  # half the table, one word
        (_words((0, (2, 3))), FOUR, []),  # a quarter: a lone word, whoever signed it
        (_words((0, (2, 3)), (1, (1, 2, 3))), FOUR, []),  # two words, not one
        (_words((0, (1, 2))), 3, []),  # one of three
        (_words((0, (1, 2)), (3, (1, 2))), FOUR, [((1, 2), (0, 3))]),
        (_words((0, (3, 4, 5)), (1, (3, 4, 5)), (2, (3, 4, 5))), 6, [((3, 4, 5), (0, 1, 2))]),
    ],
)
def test_half_the_tables_word(words: list[Decision], playing: int,
                              half: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> None:
    found = claims.half_words(words, playing)
    assert [(d.silent, d.signers) for d in found] == half
    assert all(d.half and not d.majority and claims.change_of(d).kind == UNCONFIRMED for d in found)


HALF_ABOUT_23 = claims.half_words(_words((0, (2, 3)), (1, (2, 3))), FOUR)[0]


@pytest.mark.parametrize(
    ("decision", "me", "consents", "bound"),
    [
        (HALF_ABOUT_23, 3, [], False),  # half the table's word names seat 3: not without its consent
        (HALF_ABOUT_23, 3, [(10, HEAD)], True),  # half and its consent: more than half
        (HALF_ABOUT_23, 3, [(9, HEAD)], False),  # consent to another decision
        (HALF_ABOUT_23, 0, [], True),  # its signers' own word
        (_words((0, (2, 3)))[0], 3, [(10, HEAD)], False),  # a quarter's word, consent or not
    ],
)
def test_half_the_tables_word_binds_a_voice_it_names_once_it_consents(
    decision: Decision, me: int, consents: list[tuple[int, bytes]], bound: bool
) -> None:
    assert claims.binds(decision, me, consents) is bound
    if bound:
        assert claims.binds_only_by_majority([decision], me, FOUR)
        assert claims.present_seat_dealt_out_only_by_majority([decision], [2, 3], me)


@pytest.mark.parametrize(
    ("word", "waits_for", "consents"),
    [
        (HALF_ABOUT_23, (2,), True),  # restoring, waiting for a voice the word deals out
        (HALF_ABOUT_23, (0, 2), True),
        (HALF_ABOUT_23, (), False),  # not restoring: its half may play on, it is not bound
        (HALF_ABOUT_23, (0,), False),  # waiting for a signer, who will answer
        (_words((0, (2, 3)))[0], (2,), False),  # a quarter's word: no consent can make it more
    ],
)
def test_a_restoring_seat_consents_to_half_the_tables_word_when_it_waits_for_a_voice_it_deals_out(
    word: Decision, waits_for: tuple[int, ...], consents: bool
) -> None:
    assert policy.consents_to_word(word, waits_for) is consents


@pytest.mark.parametrize(
    ("pending", "consents", "behind"),
    [
        (None, [], False),
        (MAJORITY_ABOUT_2, [], True),
        (MAJORITY_ABOUT_2, [(10, HEAD)], False),
        (MAJORITY_ABOUT_2, [(9, HEAD)], True),  # consent to another decision
        (LONE_ABOUT_012, [], False),  # a minority's word leaves nobody behind
    ],
)
def test_who_is_left_behind(
    pending: Decision | None, consents: list[tuple[int, bytes]], behind: bool
) -> None:
    assert claims.left_behind(pending, consents) is behind


# ============================================================================ never double-sign


@pytest.mark.parametrize(
    ("unanswered", "cheaters", "out", "waits_for"),
    [
        ((), (), (), ()),
        ((0, 2), (), (), (0, 2)),
        ((0, 2), (2,), (), (0,)),  # a cheater's answer proves nothing: not waited for
        ((0, 2), (), (0,), (2,)),  # a seat out of the hand: what it holds meets nothing signed now
        ((0, 2), (2,), (0,), ()),
    ],
)
def test_whom_a_restored_seat_waits_for(unanswered: tuple[int, ...], cheaters: tuple[int, ...],
                                        out: tuple[int, ...], waits_for: tuple[int, ...]) -> None:
    assert claims.restore_wait(set(unanswered), N, set(cheaters), set(out)) == waits_for


@pytest.mark.parametrize(
    ("kind", "silent", "voices", "at", "me", "repeats"),
    [
        (VOTE, (2,), PEOPLE, _at((2,)), 0, True),  # one voice awaited: any vote there names it
        (VOTE, (2,), PEOPLE, _at((0, 2)), 0, True),  # our own seat awaited too: still only one other
        (VOTE, (2,), PEOPLE, _at((2, 3)), 0, False),  # two awaited: an earlier vote may have named both
        (VOTE, (2, 3), PEOPLE, _at((2, 3)), 0, False),  # or, one of them heard since, one alone
        (ABANDON, (2,), PEOPLE, _at((2,)), 0, False),  # an abandon names whom we did not hear: it varies
        (VOTE, (1,), WITH_COMPUTERS, _at((2,)), 0, True),  # a computer awaited: its runner's voice
        (VOTE, (1,), WITH_COMPUTERS, _at((1, 2)), 0, True),  # one machine, one voice
        (VOTE, (1,), WITH_COMPUTERS, _at((2, 4)), 0, False),  # two machines awaited
    ],
)
def test_a_restoring_seat_may_sign_only_the_vote_it_could_ever_sign_there(
    kind: str, silent: tuple[int, ...], voices: Voices, at: StepView, me: int, repeats: bool
) -> None:
    """A vote at a step that awaits one other voice names that voice, whenever it is signed: the same
    bytes, so a seat that may have signed it before its restart signs nothing new (SPEC §9.6)."""
    assert claims.repeats(kind, silent, voices, at, me) is repeats


# ============================================================================ the invariants


def test_the_invariants_as_predicates() -> None:
    assert claims.no_honest_seat_convicted([3], [0, 1, 2])
    assert not claims.no_honest_seat_convicted([1], [0, 1, 2])
    assert claims.binds_only_by_majority([MAJORITY_ABOUT_2, OWN_WORD_OF_0], 0, 5)
    assert not claims.binds_only_by_majority([LONE_ABOUT_012], 2, 5)
    assert not claims.binds_only_by_majority([MAJORITY_ABOUT_2], 4, 6)  # three of six is no majority
    # ... not even on a replica of one of the three: a decision called a majority's is judged as one
    assert not claims.binds_only_by_majority([MAJORITY_ABOUT_2], 0, 6)
    assert claims.present_seat_dealt_out_only_by_majority([MAJORITY_ABOUT_2], [2], 0)
    assert claims.present_seat_dealt_out_only_by_majority([OWN_WORD_OF_0], [1], 0)
    assert not claims.present_seat_dealt_out_only_by_majority([LONE_ABOUT_012], [1], 1)
    assert claims.present_seat_dealt_out_only_by_majority([LONE_ABOUT_012], [3], 1)
    held = frozenset({b"a", b"b"})
    assert claims.same_messages_same_state([(held, 0, b"x"), (held, 1, b"y"), (held, 0, b"x")])
    assert not claims.same_messages_same_state([(held, 0, b"x"), (held, 0, b"y")])
    assert claims.sealed_hands_unchanged([b"h0"], [b"h0", b"h1"])
    assert not claims.sealed_hands_unchanged([b"h0", b"h1"], [b"h0", b"h2"])


# ============================================================================ decide: from an attempt


def _first_turn(n: int = 3, **options: Any) -> tuple[Room, Attempt]:
    room = Room.make("durak", n, **options)
    room.act = lambda i, turn: None  # type: ignore[method-assign]
    room.start()
    room.run()
    att = room.tables[0].attempt
    assert att is not None and len(att.missing) == 1
    return room, att


def test_decide_reads_an_attempt_for_the_rule() -> None:
    room, att = _first_turn(5)
    mover = att.missing[0]
    at = decide.view(att, att.step, att.head)
    assert (at.step, at.prev, at.awaited) == (att.step, att.head, (mover,))
    assert decide.playing(Voices.of(room.genesis), att) == (0, 1, 2, 3, 4)
    voters = [s for s in range(5) if s != mover][:3]
    votes = {
        v: SignedMessage.from_bytes(
            signed_as(room.genesis, v, VOTE, {"silent": [mover]}, att.step, att.head)
        )
        for v in voters
    }
    voices = Voices.of(room.genesis)
    d = decide.vote_decision(voices, att, att.step, att.head, votes, lambda v: False, 5)
    assert d is not None and d.seats == (mover,) and d.signers == tuple(sorted(voters))
    assert decide.vote_decision(voices, att, att.step, att.head, votes, lambda v: v == voters[0], 5) is None
    assert "never itself" in decide.claim_problem(VOTE, voices, mover, (mover,), att.step, att)


# ============================================================================ policy: when a seat signs


def _seen(att: Attempt, room: Room, me: int, *, waited: int, now: int, heard: dict[int, int],
          voted: bool = False, claimed: tuple[int, ...] = ()) -> policy.Observed:
    return policy.Observed(Voices.of(room.genesis), att, me, waited, now, heard, 0,
                           room.genesis.timeout_ms, {v: object() for v in claimed}, voted)


def test_policy_names_a_missing_voice_only_once_a_clock_ran_out() -> None:
    room, att = _first_turn(3)
    mover = att.missing[0]
    me, other = (s for s in range(3) if s != mover)
    t = room.genesis.timeout_ms
    fresh = {0: t, 1: t, 2: t}
    cases: list[tuple[policy.Observed, tuple[str, tuple[int, ...]] | None]] = [
        # too soon, whatever the clocks
        (_seen(att, room, me, waited=policy.RETRY_MS, now=99_000, heard={}), None),
        # connected and thinking: never before the move clock
        (_seen(att, room, me, waited=t - 1, now=t, heard=fresh), None),
        (_seen(att, room, me, waited=t, now=t, heard=fresh), (VOTE, (mover,))),
        # disconnected: once the step was open for two retries
        (_seen(att, room, me, waited=2 * policy.RETRY_MS, now=policy.DISCONNECTED_MS,
               heard={other: policy.DISCONNECTED_MS}), (VOTE, (mover,))),
        # voted, and the other voice is gone too: half the table or more, so this voice goes on alone
        (_seen(att, room, me, waited=t, now=policy.DISCONNECTED_MS, heard={mover: 0, other: 0}, voted=True),
         (ABANDON, tuple(sorted((mover, other))))),
        # voted, and the other voice is connected and waiting with us: we wait with it
        (_seen(att, room, me, waited=t, now=t, heard=fresh, voted=True), None),
        # the missing seat is our own: never ours to claim
        (_seen(att, room, mover, waited=t, now=t, heard=fresh), None),
    ]
    for seen, expected in cases:
        claim = policy.due(seen)
        got = None if claim is None else (claim.kind, claim.named)
        assert got == expected, (seen.me, seen.waited, seen.now, seen.voted, got)
