"""Join-code guesses per address: counted as they arrive, then a back-off a person can wait out."""

from __future__ import annotations

from p2pcards.net.guesses import CODE_BACKOFF, CODE_BACKOFF_MAX, CODE_FORGET, MAX_WRONG_CODES, CodeGuesses

EVE, ROOMMATE, OTHER = "10.0.0.66", "10.0.0.66", "10.0.0.7"


def test_concurrent_arrivals_count_at_once_so_no_more_codes_are_tried_than_the_limit():
    g = CodeGuesses()
    for _ in range(MAX_WRONG_CODES):
        assert g.wait(EVE, 0.0) == 0
        g.arrived(EVE, 0.0)
    assert g.wait(EVE, 0.0) > 0  # the sixth, while the five are still being judged
    assert g.wait(OTHER, 0.0) == 0  # another address is not concerned


def test_a_right_code_or_no_code_is_no_guess():
    g = CodeGuesses()
    for _ in range(20):
        g.arrived(EVE, 0.0)
        g.judged(EVE, 0.0, wrong=False)
    assert g.wait(EVE, 0.0) == 0


def test_the_back_off_doubles_up_to_its_cap_and_can_be_waited_out():
    g = CodeGuesses()
    now = 0.0
    for _ in range(MAX_WRONG_CODES):
        g.arrived(EVE, now)
        g.judged(EVE, now, wrong=True)
    assert g.wait(ROOMMATE, now) == CODE_BACKOFF
    waits = []
    for _ in range(6):
        now += g.wait(EVE, now)
        assert g.wait(EVE, now) == 0  # waited long enough: one more try
        g.arrived(EVE, now)
        assert g.wait(EVE, now) > 0  # one try at a time past the limit
        g.judged(EVE, now, wrong=True)
        waits.append(g.wait(EVE, now))
    assert waits == [2 * CODE_BACKOFF, 4 * CODE_BACKOFF, 8 * CODE_BACKOFF] + [CODE_BACKOFF_MAX] * 3
    # The roommate's right code, after the wait, gets in; and a long quiet forgets everything.
    now += g.wait(ROOMMATE, now)
    g.arrived(ROOMMATE, now)
    g.judged(ROOMMATE, now, wrong=False)
    assert g.wait(EVE, now + CODE_FORGET + 1) == 0


def test_only_so_many_addresses_are_remembered():
    g = CodeGuesses(remember=3)
    for i in range(10):
        g.arrived(f"10.0.1.{i}", 0.0)
        g.judged(f"10.0.1.{i}", 0.0, wrong=True)
    assert len(g._addresses) == 3
