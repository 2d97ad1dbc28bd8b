"""Normal: a rule-based player that plays like a careful club player.

* **Keeps trumps for later**: a trump costs 13 points more than any plain card in every choice, and
  high trumps are not spent on cheap cards while the talon is big (it takes instead).
* **Throws in ranks the defender seems not to have**: for each card it could add it estimates the
  chance that the defender holds a card that beats it, from the defender's cards everyone saw it take,
  the cards still unseen, and what the defender showed it lacks (taking against a plain card means it
  held no higher card of that suit, as far as anyone can tell, until somebody draws again).
* **Weighs the talon size**: while the talon is big it plays to keep a strong hand (low leads, pairs
  first, cheap throw-ins, taking a couple of low cards rather than spending a high trump); once the
  talon is empty it plays to get rid of cards (leads what the defender cannot beat, dumps everything
  on a taking defender).
* **Transfers** (``transfer=on``) when that saves a trump or a costly card: when it cannot cover every
  attack card, when covering them would spend a trump while a plain card of the rank passes the bout
  on, or when it would spend more than a queen's worth beyond what the transfer card costs.

All of it is arithmetic on the view: far under a millisecond per decision.
"""

from __future__ import annotations

from p2pcards.ai.durak.common import Seen, beaters, split, strength
from p2pcards.games.base import Action, Rules, View
from p2pcards.games.cards import Card
from p2pcards.games.durak import actions as A
from p2pcards.games.durak.state import BEATERS, SUIT_MASK, DurakView, mask_of
from p2pcards.games.rng import Rng


class Memory:
    """What a seat remembers between its decisions: the cards each opponent showed it lacks."""

    __slots__ = ("lacks", "talon")

    def __init__(self) -> None:
        self.lacks: dict[int, int] = {}
        self.talon = -1

    def update(self, s: Seen) -> None:
        if s.talon != self.talon:  # somebody drew: what they lacked may have come in
            self.lacks = {}
            self.talon = s.talon
        if s.taking and s.defender != s.me:
            m = 0
            for a in s.unbeaten:
                # a higher card of the same suit: it would have covered with it (a trump it may keep)
                if a // 13 != s.trump:
                    m |= BEATERS[s.trump][a] & SUIT_MASK[a // 13]
            # what it picks up now is known to everyone; the rest of its hand lacked these
            self.lacks[s.defender] = self.lacks.get(s.defender, 0) | m

    def lacking(self, seat: int) -> int:
        return self.lacks.get(seat, 0)


def p_beat(s: Seen, seat: int, c: Card, lacks: int = 0) -> float:
    """The chance that ``seat`` holds a card that beats ``c``, as far as this seat can tell."""
    row = BEATERS[s.trump][c]
    if mask_of(s.known[seat]) & row:
        return 1.0
    hidden = s.hidden_count(seat)
    if hidden <= 0:
        return 0.0
    pool = len(s.unseen)
    good = sum(1 for u in s.unseen if row >> u & 1 and not lacks >> u & 1)
    if lacks:
        # cards it showed it lacks stay possible only among cards drawn since: count them as absent
        pool -= sum(1 for u in s.unseen if row >> u & 1 and lacks >> u & 1)
    if good <= 0:
        return 0.0
    if pool <= hidden:
        return 1.0
    miss = 1.0
    for i in range(hidden):
        miss *= max(0.0, (pool - good - i) / (pool - i))
    return 1.0 - miss


class NormalPlayer:
    level = "normal"

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        self.rules = rules
        self.rng = Rng(seed)  # not used: Normal is a pure function of what it saw
        self.memory = Memory()

    def choose(self, view: View) -> Action:
        assert isinstance(view, DurakView)
        legal = view.legal_actions
        if view.phase in ("lead", "defend", "throw-in"):
            s = Seen.of(view)
            self.memory.update(s)
            if len(legal) == 1:
                return legal[0]
            if view.phase == "lead":
                return self.lead(s)
            if view.phase == "defend":
                return self.defend(s, legal)
            return self.throw_in(s, legal)
        return legal[0]

    # ---- attacking

    def lead(self, s: Seen) -> Action:
        t = s.trump
        hand = s.hand
        counts = [0] * 13
        for c in hand:
            counts[c % 13] += 1
        endgame = s.talon == 0
        lacks = self.memory.lacking(s.defender)
        best, best_cost = hand[0], 1e9
        for c in hand:
            cost = float(strength(c, t))
            if c // 13 != t:
                cost -= 1.5 * (counts[c % 13] - 1)
            elif not endgame:
                cost += 4 + s.talon / 4
            if endgame or s.talon <= 2:
                # late: lead what the defender cannot beat, keep the rest for defence
                cost -= 8 * (1 - p_beat(s, s.defender, c, lacks))
            if cost < best_cost or (cost == best_cost and c < best):
                best, best_cost = c, cost
        return A.attack(best)

    def throw_in(self, s: Seen, legal: tuple[Action, ...]) -> Action:
        t = s.trump
        adds = [a - A.ADD for a in legal if a != A.PASS]
        if not adds:
            return A.PASS
        if s.talon == 0:
            # the talon is empty: every card given away is a card less to get rid of
            if s.taking:
                return A.add(min(adds, key=lambda c: (strength(c, t), c)))
            lacks = self.memory.lacking(s.defender)
            return A.add(max(adds, key=lambda c: (1 - p_beat(s, s.defender, c, lacks), -strength(c, t), -c)))
        plain = [c for c in adds if c // 13 != t]
        if not plain:
            return A.PASS  # trumps are kept for later
        if s.taking:
            return A.add(min(plain, key=lambda c: (strength(c, t), c)))
        # prefer the rank the defender seems not to be able to beat, then the cheapest
        lacks = self.memory.lacking(s.defender)
        best = max(plain, key=lambda c: (8 * (1 - p_beat(s, s.defender, c, lacks)) - strength(c, t), -c))
        return A.add(best)

    # ---- defending

    def defend(self, s: Seen, legal: tuple[Action, ...]) -> Action:
        t = s.trump
        transfers = [a - A.TRANSFER for a in legal if a >= A.TRANSFER]
        if transfers:
            pick = self.transfer(s, transfers)
            if pick >= 0:
                return A.transfer(pick)
        target = -1
        for a in s.unbeaten:
            target = a
            break
        options = beaters(s.hand, target, t) if target >= 0 else []
        if not options:
            return A.TAKE
        on_table = 0
        for c in s.table:
            on_table |= 1 << (c % 13)

        def cost(c: Card) -> float:
            x = float(strength(c, t))
            if on_table >> (c % 13) & 1:
                x -= 0.5  # no new rank for the attackers to throw in
            return x

        best = min(options, key=lambda c: (cost(c), c))
        if s.talon >= 8 and best // 13 == t:
            # a trump for cheap cards while the deck is still thick: picking up may be cheaper
            table_weight = sum(strength(c, t) for c in s.table)
            cheap = all(c // 13 != t and c % 13 <= 8 for c in s.table)
            if cheap and len(s.table) <= 2 and best % 13 >= 9 and table_weight <= 16:
                return A.TAKE
        if A.beat(target, best) in legal:
            return A.beat(target, best)
        if transfers:
            return A.transfer(min(transfers, key=lambda c: (strength(c, t), c)))
        kinds = [split(a) for a in legal]
        return next((a for a, k in zip(legal, kinds, strict=True) if k[0] == A.K_BEAT), A.TAKE)

    def transfer(self, s: Seen, transfers: list[Card]) -> Card:
        """The card to transfer with, or -1 to defend (or take) instead: transfer when the cheapest
        cover of every attack card does not exist, spends a trump that a plain transfer card would
        keep, or costs a queen's worth more than the transfer card (card costs as ``strength``)."""
        t = s.trump
        card = min(transfers, key=lambda c: (strength(c, t), c))
        left = list(s.hand)
        spent = 0
        trumps = False
        for a in s.unbeaten:
            options = sorted(beaters(left, a, t), key=lambda c: (strength(c, t), c))
            if not options:
                return card
            left.remove(options[0])
            spent += strength(options[0], t)
            trumps = trumps or options[0] // 13 == t
        if trumps and card // 13 != t and s.talon:
            return card
        if spent - strength(card, t) > 10:
            return card
        return -1
