"""The three steps before the first hand: every seat signs the genesis, then a joint coin picks the
first dealer (every seat commits to a secret, then reveals it).

    step 0  genesis       every seat   the genesis bytes, exactly
    step 1  coin_commit   every seat   coin_commitment(ctx(hand 0, seat, step 1), ρ)
    step 2  coin_reveal   every seat   ρ

Each message is checked as it arrives at the open step (``problem``).  A seat that signs a wrong one
(another genesis, a commitment that is not 32 bytes, a reveal that does not match its commitment) is a
cheater at once, on the message it signed: that message is kept and relayed as the proof, so every
replica names it whichever of its messages it saw first, and the step goes on waiting for the right
one.  Once the coin is known the cheater is dealt out of the first hand like any cheater.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pcards import deal
from p2pcards.table import bodies
from p2pcards.table.attempt import Foul
from p2pcards.table.genesis import Genesis
from p2pcards.wire import Chain, SignedMessage

KINDS = ("genesis", "coin_commit", "coin_reveal")
STEPS = len(KINDS)


class Setup:
    def __init__(self, genesis: Genesis, chain: Chain) -> None:
        self.genesis = genesis
        self.chain = chain
        self.n = len(genesis.seats)
        self._commits: dict[int, bytes] = {}
        self.first_dealer: int | None = None

    @property
    def done(self) -> bool:
        return self.chain.step >= STEPS

    def open(self) -> None:
        """Await every seat at the next setup step, if it is not open yet."""
        if not self.done and not self.chain.awaited:
            self.chain.expect(range(self.n))

    def ctx(self, seat: int | None) -> deal.Context:
        return deal.Context(game_id=self.genesis.game_id, hand=0, seat=seat, step=1)

    def body(self, seat: int, coin_secret: bytes) -> tuple[str, object]:
        """This seat's message for the open setup step."""
        step = self.chain.step
        if step == 0:
            return "genesis", self.genesis.encode()
        if step == 1:
            return "coin_commit", deal.coin_commitment(self.ctx(seat), coin_secret)
        return "coin_reveal", coin_secret

    def problem(self, msg: SignedMessage) -> str:
        """Why ``msg``, for the open setup step, is wrong ("" if it is right)."""
        step = self.chain.step
        if msg.kind != KINDS[step]:
            return f"sent {msg.kind!r} where {KINDS[step]!r} was due"
        if step == 0:
            return "" if msg.body == self.genesis.encode() else "signed another genesis"
        try:
            if step == 1:
                bodies.bytes32(msg.body, "a coin commitment")
            else:
                deal.verify_coin_reveal(self.ctx(msg.seat), self._commits[msg.seat], msg.body)
        except (bodies.BodyError, deal.DealError) as exc:
            return str(exc)
        return ""

    def apply(self, step: int, msgs: Sequence[SignedMessage]) -> None:
        """Check a sealed setup step (raises ``Foul``); after the last one, ``first_dealer`` is known."""
        for m in msgs:
            if m.kind != KINDS[step]:
                raise Foul(m.seat, "bad-message", f"sent {m.kind!r} where {KINDS[step]!r} was due")
        if step == 0:
            for m in msgs:
                if m.body != self.genesis.encode():
                    raise Foul(m.seat, "bad-message", "signed another genesis")
        elif step == 1:
            for m in msgs:
                try:
                    self._commits[m.seat] = bodies.bytes32(m.body, "a coin commitment")
                except bodies.BodyError as exc:
                    raise Foul(m.seat, "bad-message", str(exc)) from exc
        else:
            reveals = []
            for m in msgs:
                try:
                    reveals.append(deal.verify_coin_reveal(self.ctx(m.seat), self._commits[m.seat], m.body))
                except deal.DealError as exc:
                    raise Foul(m.seat, "bad-message", str(exc)) from exc
            coin = deal.coin_value(self.ctx(None), reveals)
            self.first_dealer = deal.coin_below(coin, self.n, b"first dealer")
