"""SPEC §6: every body's refusal says what the body must be."""

import pytest

from p2pcards.table import bodies


@pytest.mark.parametrize("body", [None, [], {"seat": 1}, {"": 0}])
def test_a_return_request_that_is_not_an_empty_map_says_so(body: object) -> None:
    with pytest.raises(bodies.BodyError, match=r"^a return request is an empty map$"):
        bodies.return_body(body)


def test_a_return_request_is_an_empty_map() -> None:
    bodies.return_body({})
