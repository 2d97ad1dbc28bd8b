"""Scoring of one Spades hand (rules S9-S13) and the hand's result."""

from __future__ import annotations

from dataclasses import dataclass

FAILED_NIL_MODES: tuple[str, ...] = ("count", "bags_only", "ignored")
"""What a failed nil bidder's tricks do: ``count`` for the team (S12), ``bags_only`` (bags for the
team, not toward the partner's contract) or ``ignored`` (nothing at all)."""

TEAMS: tuple[tuple[int, int], tuple[int, int]] = ((0, 2), (1, 3))
"""Partners sit opposite: team 0 is seats 0 and 2, team 1 is seats 1 and 3 (S1)."""

BAG_LIMIT = 10
BAG_PENALTY = 100
NIL_POINTS = 100
"""A nil made or failed (S12)."""
BLIND_NIL_POINTS = 200
"""A blind nil made or failed (S17)."""


@dataclass(frozen=True, slots=True)
class TeamScore:
    """How one team scored a hand."""

    team: int
    contract: int
    """The partners' bids added (a nil counts 0)."""
    tricks: int
    """The tricks counted toward the contract."""
    made: bool
    contract_points: int
    """+10 per trick bid and +1 per bag when made, -10 per trick bid when set (S10, S11)."""
    nil_points: int
    """+100 per nil made, -100 per nil failed (S12); 200 for a blind nil (S17)."""
    bags_taken: int
    """Bags taken this hand (overtricks, and a failed nil's tricks under ``bags_only``)."""
    bag_penalty: int
    """-100 each time the bag count reached 10 (S13), or 0."""
    points: int
    """The hand's total for the team."""
    score: int
    """The team's score after the hand."""
    bags: int
    """The team's bags carried after the hand."""

    def line(self) -> str:
        seats = " and ".join(str(s) for s in TEAMS[self.team])
        return f"team {self.team} (seats {seats}): {self.outcome()}"

    def outcome(self) -> str:
        """The hand's points and how they came, then the score: ``+53 (contract 5 made with 8
        tricks: +53, 3 bags); score 53, bags 3``."""
        state = "made" if self.made else "set"
        parts = [f"contract {self.contract} {state} with {self.tricks} tricks: {self.contract_points:+d}"]
        if self.nil_points:
            parts.append(f"nil {self.nil_points:+d}")
        if self.bags_taken:
            parts.append(f"{self.bags_taken} bag{'s' if self.bags_taken != 1 else ''}")
        if self.bag_penalty:
            parts.append(f"bag penalty {self.bag_penalty:+d}")
        return f"{self.points:+d} ({', '.join(parts)}); score {self.score}, bags {self.bags}"


def score_team(team: int, bids: tuple[int, ...], tricks: tuple[int, ...], score_before: int,
               bags_before: int, failed_nil: str = "count", blind: tuple[int, ...] = ()) -> TeamScore:
    """Score one team's hand from every seat's bid and tricks and the team's standing before it.
    ``blind`` lists the seats that bid blind nil: a nil worth 200 instead of 100 (S17)."""
    if failed_nil not in FAILED_NIL_MODES:
        raise ValueError(f"failed_nil must be one of {', '.join(FAILED_NIL_MODES)}")
    contract = 0
    counted = 0
    nil_points = 0
    nil_bags = 0
    for seat in TEAMS[team]:
        bid = bids[seat]
        took = tricks[seat]
        contract += bid
        if bid == 0:
            worth = BLIND_NIL_POINTS if seat in blind else NIL_POINTS
            nil_points += worth if took == 0 else -worth
            if took and failed_nil != "count":
                if failed_nil == "bags_only":
                    nil_bags += took
                continue
        counted += took
    made = counted >= contract
    if made:
        bags = counted - contract
        contract_points = 10 * contract + bags
    else:
        bags = 0
        contract_points = -10 * contract
    bags += nil_bags
    contract_points += nil_bags
    total_bags = bags_before + bags
    penalty = 0
    while total_bags >= BAG_LIMIT:
        total_bags -= BAG_LIMIT
        penalty -= BAG_PENALTY
    points = contract_points + nil_points + penalty
    return TeamScore(team, contract, counted, made, contract_points, nil_points, bags, penalty, points,
                     score_before + points, total_bags)


def score_hand(bids: tuple[int, ...], tricks: tuple[int, ...], scores: tuple[int, int] = (0, 0),
               bags: tuple[int, int] = (0, 0), failed_nil: str = "count",
               blind: tuple[int, ...] = ()) -> tuple[TeamScore, TeamScore]:
    """Both teams' scores for a hand (S9-S13, S17): bids and tricks per seat 0..3, standings before,
    and the seats that bid blind nil."""
    return (score_team(0, bids, tricks, scores[0], bags[0], failed_nil, blind),
            score_team(1, bids, tricks, scores[1], bags[1], failed_nil, blind))


@dataclass(frozen=True, slots=True)
class HandResult:
    """The outcome of a finished hand."""

    dealer: int
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    """Tricks taken by each seat."""
    teams: tuple[TeamScore, TeamScore]
    blind: tuple[int, ...] = ()
    """The seats that bid blind nil (S16), ascending."""

    @property
    def points(self) -> tuple[int, int]:
        return (self.teams[0].points, self.teams[1].points)

    @property
    def scores(self) -> tuple[int, int]:
        return (self.teams[0].score, self.teams[1].score)

    @property
    def bags(self) -> tuple[int, int]:
        return (self.teams[0].bags, self.teams[1].bags)

    def summary(self) -> str:
        bids = " ".join(self.bid_text(s) for s in range(len(self.bids)))
        tricks = " ".join(str(t) for t in self.tricks)
        return "\n".join([f"bids {bids}; tricks {tricks}", self.teams[0].line(), self.teams[1].line()])

    def bid_text(self, seat: int) -> str:
        """A seat's bid as the public bids show it: ``blind nil``, ``nil`` or the number (S17)."""
        b = self.bids[seat]
        if b == 0:
            return "blind nil" if seat in self.blind else "nil"
        return str(b)
