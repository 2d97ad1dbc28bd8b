"""Normal: estimates its chance to take two tricks and bets by pot odds.

* **The estimate** (``common.win_chance``): for each of its cards, the chance that no opponent
  beats it, from the cards it cannot see (hypergeometric, each opponent apart: a plain card loses
  to a higher one of its suit or to a trump from a player void in the suit; a trump to a higher
  trump; the dealer's face-up trump card is counted where everyone knows it is), then the chance
  that two of its three cards win, from a small logistic model of the three per-card chances fitted
  offline against exact play (``common.CHANCE_MODEL``), as the leader and as a follower.
* **Bidding by pot odds** (``common.normal_bid``): raise (or open above the minimum) when the
  chance as leader reaches 1/2, by about two thirds of the pot times the chance, once (twice from
  0.7, three times from 0.85); otherwise call when its chance (as a follower, or as the opener who
  leads if nobody raises) x (pot + cost) beats the cost by 10%; otherwise fold.
* **Blind**: it calls (or opens) blind while nobody has bet having seen their cards, the call costs
  at most two antes and an even share of the pot (0.8/players) pays for it; otherwise it looks
  first.  It never buys into an azi replay (an even share of a pot grown by half never pays
  the half) and, with four cards, looks and discards the card whose loss costs least.
* **Play**: leads the card most likely to win the trick; follows with the lowest card that takes
  the trick, else its lowest card.
"""

from __future__ import annotations

from p2pcards.ai.azi.common import (
    Table,
    bid_action,
    card_chances,
    lowest,
    normal_bid,
    order,
    plays,
    power,
    spot_of,
    trick_best,
    weakest,
    win_chance,
)
from p2pcards.games.azi import AziView
from p2pcards.games.azi import actions as act
from p2pcards.games.base import Action, Rules
from p2pcards.games.rng import Rng


def estimates(t: Table) -> tuple[float, float]:
    """Normal's two-trick chance as the leader and as a follower, in the bidding."""
    opp = len(t.active) - 1
    deck = t.masked.rules.deck
    dt = t.dealer_trump()
    wl = win_chance(t.hand, t.trump, t.top, t.gone, deck, opp, 3, dt, leading=True)
    wf = win_chance(t.hand, t.trump, t.top, t.gone, deck, opp, 3, dt, leading=False)
    return wl, wf


def discard(view: AziView, rules: Rules) -> Action:
    """Normal's and Hard's discard with a four-card deal: look first if blind, then the card least
    likely to win a trick."""
    if act.LOOK in view.legal_actions:
        return act.LOOK
    t = Table.of(view)
    return act.discard(weakest(t.hand, t.trump, t.top, t.gone, rules.deck, len(t.active) - 1,
                               t.dealer_trump()))


class NormalPlayer:
    level = "normal"

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        self.rules = rules
        self.rng = Rng(seed)  # not used: Normal is a pure function of the view

    def choose(self, view: AziView) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        ph = view.phase
        if ph == "buy-in":
            return act.DECLINE
        if ph == "discard":
            return discard(view, self.rules)
        t = Table.of(view)
        if ph == "play":
            return act.play(self.card(t))
        spot = spot_of(t)
        wl, wf = (0.0, 0.0) if t.blind else estimates(t)
        kind, amount = normal_bid(spot, wl, wf)
        return bid_action(view, kind, amount)

    def card(self, t: Table) -> int:
        v = t.view
        tr, top = t.trump, t.top
        cards = plays(v.legal_actions)
        if v.trick:
            best, _ = trick_best(v.trick, tr, top)
            led = v.trick[0][1] // 13
            winners = [c for c in cards if power(c, led, tr, top) > best]
            if winners:
                return min(winners, key=lambda c: (power(c, led, tr, top), c))
            return lowest(cards, tr, top)
        opp = len(t.active) - 1
        per = max(t.hidden[s] for s in t.opponents) if t.opponents else 0
        ch = card_chances(cards, tr, top, t.gone, self.rules.deck, opp, per, t.dealer_trump(), True)
        i = max(range(len(cards)), key=lambda k: (ch[k], -order(cards[k], tr, top), -cards[k]))
        return cards[i]
