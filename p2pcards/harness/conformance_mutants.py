"""One-flaw mutants of our own peer, to measure what the conformance cases catch
(``p2pcards harness conformance --mutants``; the score is in ``protocol/HARNESS.md``).

Each mutant is a mistake an implementer in another language could make — a check left out, a bound
off by one, two lines in the wrong order, a rule read wrongly — put into our replica by rewriting one
line of one function when the program starts: ``python -m p2pcards.harness.conformance_mutants NAME``
is then our ``p2pcards peer --stdio`` with that one flaw.  A case *catches* a mutant when the mutant
fails it; the score of a layer is the share of its mutants that some case catches.  A mutant no case
catches is a survivor: either it changes nothing a peer can see (an equivalent mutant), or the cases
miss it.

Every mutant carries a *proof*: a direct call into the code it changes whose answer differs once the
line is rewritten (``proven``), so no mutant is equivalent by accident (a line that no longer runs).
"""

from __future__ import annotations

import importlib
import inspect
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

LAYERS = ("wire", "deal", "table", "pipe", "games")


@dataclass(frozen=True)
class Mutant:
    name: str
    layer: str
    flaw: str
    """What the implementer got wrong, in a sentence."""
    target: str
    """``module:function`` or ``module:Class.method``: where the one line is."""
    old: str
    new: str
    proof: Callable[[], object] = field(compare=False, repr=False, default=lambda: None)
    """A direct call whose answer differs between our code and the mutant (``proven``)."""
    likely: tuple[str, ...] = ()
    """Cases to try first (the ones whose scenario the flaw is about): the run stops at the first case
    that catches a mutant, so these only make it faster; every case is still tried for a survivor."""


# --------------------------------------------------------------------------- proofs
# Each proof returns a plain value (or the text of the exception it met): what our code answers to one
# call that reaches the changed line.


def _outcome(call: Callable[[], object]) -> object:
    try:
        return call()
    except Exception as exc:  # the proof compares what happens, a refusal included
        return f"{type(exc).__name__}"


def _keys_and_genesis(game: str = "durak", n: int = 3) -> tuple[list[Any], Any]:
    from p2pcards.table.genesis import make_genesis
    from p2pcards.wire import key_from_seed, public_bytes

    keys = [key_from_seed(bytes([i + 1]) * 32) for i in range(n)]
    genesis = make_genesis(game, [(f"seat {i}", public_bytes(k)) for i, k in enumerate(keys)],
                           dealer="seeded", seed=1, nonce=b"proof")
    return keys, genesis


def _signed(seat: int = 1, *, step: int = 0, prev: bytes = bytes(32), body: Any = b"",
            game_id: bytes | None = None) -> Any:
    from p2pcards.wire import Envelope, sign

    keys, genesis = _keys_and_genesis()
    env = Envelope(game_id=genesis.game_id if game_id is None else game_id, step=step, seat=seat,
                   prev=prev, kind="action", body=body)
    return sign(env, keys[seat])


def _authenticated(data: bytes, game_id: bytes | None = None) -> object:
    from p2pcards.wire.chain import authenticate

    keys, genesis = _keys_and_genesis()
    result = authenticate(data, game_id=genesis.game_id if game_id is None else game_id,
                          keys={i: k.public_key() for i, k in enumerate(keys)})
    return type(result).__name__, str(getattr(result, "reason", ""))


def _forged() -> object:
    m = _signed()
    from p2pcards.wire import encode

    return _authenticated(encode([m.raw, bytes([m.signature[0] ^ 1]) + m.signature[1:]]))


def _kind(kind: str, size: int) -> object:
    from p2pcards.wire.envelope import check_kind

    return _outcome(lambda: check_kind(kind, size))


def _non_canonical() -> object:
    from p2pcards.wire.codec import decode

    return _outcome(lambda: decode(b"\xd9\x01a"))  # str8 for a one-character string: fixstr is canonical


def _position(prev: bytes, awaited: tuple[int, ...]) -> object:
    from p2pcards.wire.chain import position

    result = position(_signed(prev=bytes(32)), step=0, prev=prev, awaited=awaited)
    return None if result is None else str(result.reason)


def _position_at(step: int) -> object:
    from p2pcards.wire.chain import position

    result = position(_signed(prev=bytes(32)), step=step, prev=bytes([9]) * 32, awaited=(1,))
    return None if result is None else str(result.reason)


def _after_setup() -> tuple[Any, list[Any]]:
    """Our replica in seat 0 of a seeded table of three, with seats 1 and 2, after the cards are dealt."""
    from p2pcards.table.replica import Table

    keys, genesis = _keys_and_genesis()
    tables = [Table(genesis, s, keys[s], source=lambda n: bytes(n)) for s in range(3)]
    queue = [(s, o) for s, t in enumerate(tables) for o in t.start()]
    while queue:
        src, o = queue.pop(0)
        payload = getattr(o, "payload", None)
        if type(o).__name__ != "Send" or payload is None:
            continue
        for to in range(3):
            if to != src:
                queue += [(to, x) for x in tables[to].receive(src, payload)]
    return tables[0], keys


def _old_step_refused() -> object:
    from p2pcards.wire import Envelope, sign

    table, keys = _after_setup()
    env = Envelope(game_id=table.genesis.game_id, step=1, seat=1, prev=bytes([9]) * 32, kind="action",
                   body=b"")
    return [str(getattr(o, "reason", type(o).__name__)) for o in table.receive(1, sign(env, keys[1]).data)]


def _another_game() -> object:
    return _authenticated(_signed(game_id=bytes([7]) * 32).data)


def _zero_frame() -> object:
    from p2pcards.wire import FrameDecoder

    return _outcome(lambda: FrameDecoder(1024).feed(b"\0\0\0\0"))


def _game(game: str, peers: int, behaviour: str, **kw: Any) -> object:
    """The verdicts of an in-process game with one cheater: what our replicas name, and why."""
    from p2pcards.harness.run import run_game

    report = run_game(game, peers=peers, seed=1, byzantine={1: behaviour}, **kw)
    return tuple(e.verdicts for _, e in sorted(report.ends.items())), tuple(report.problems)


def _reused_keys() -> object:
    from p2pcards.harness.conformance import _reused_keys as reused
    from p2pcards.harness.run import run_game

    report = run_game("durak", peers=2, seed=1, options={"series_hands": 3})
    return reused(report.journals[0], 0)


def _start_outputs() -> object:
    from p2pcards.table.replica import Table

    keys, genesis = _keys_and_genesis()
    table = Table(genesis, 0, keys[0], source=lambda n: bytes(n))
    return [type(o).__name__ for o in table.start()]


def _restore_waits() -> object:
    from p2pcards.table import outputs as out
    from p2pcards.table.replica import Table

    keys, genesis = _keys_and_genesis()
    outputs = Table(genesis, 0, keys[0], source=lambda n: bytes(n)).start()
    secrets = {o.label: o.secret for o in outputs if isinstance(o, out.KeepSecret)}
    again = Table(genesis, 0, keys[0], source=lambda n: bytes(n), secrets=secrets)
    again.restore([o.payload for o in outputs if isinstance(o, out.Persist)])
    return again.restoring_from


def _own_illegal() -> object:
    from p2pcards import games
    from p2pcards.games.base import CHANCE
    from p2pcards.games.playout import fulfil_from
    from p2pcards.table.attempt import Attempt

    rules = games.load("durak")
    state = rules.new_match().new_hand()
    while state.to_act == CHANCE:
        fulfil_from(state, list(rules.deck))
    wrong = max(state.legal_actions()) + 1_000
    return _outcome(lambda: Attempt.check_own(None, state, wrong))  # type: ignore[arg-type]


def _closes_and_refusals() -> object:
    import io

    from p2pcards.harness.pipe import read_record
    from p2pcards.harness.pipe_peer import PipePeer
    _, genesis = _keys_and_genesis()
    sink = io.BytesIO()
    peer = PipePeer(sink)
    seed = bytes([1]) * 32  # seat 0's key in _keys_and_genesis
    peer.handle({"cmd": "start", "version": 1, "seat": 0, "genesis": genesis.encode(), "identity": seed,
                 "entropy": bytes(32), "secrets": {}, "journal": []})
    # A bad length closes the connection; the next bytes open a new one, read as frames again.
    peer.handle({"cmd": "frame", "from": 1, "data": b"\xff\xff\xff\xff"})
    peer.handle({"cmd": "frame", "from": 1, "data": b"\x00\x00\x00\x01x"})
    # A whole frame, then a bad length in the same bytes: the frame is read before the close.
    peer.handle({"cmd": "frame", "from": 2, "data": b"\x00\x00\x00\x01x\x00\x00\x00\x00"})
    sink.seek(0)
    records = []
    while True:
        r = read_record(sink)
        if r is None:
            break
        records.append(r)
    return [(r.get("out"), r.get("peer")) for r in records if r.get("out") in ("close", "rejected")]


def _claims() -> Any:
    from p2pcards.table import claims

    return claims


def _decision(majority: bool, silent: tuple[int, ...], signers: tuple[int, ...]) -> Any:
    return _claims().Decision(3, bytes(32), silent, silent, signers, majority, ())


def _half_majority() -> object:
    from p2pcards.table.voices import Voices

    c = _claims()
    at = c.StepView(3, bytes(32), (0, 1, 2, 3), (0, 1, 2, 3), (2, 3))
    votes = {0: _signed(0, body={"silent": [2, 3]}), 1: _signed(1, body={"silent": [2, 3]})}
    return _outcome(lambda: c.vote_decision(Voices((0, 1, 2, 3)), at, votes, (), 4) is not None)


def _votes_per_key() -> object:
    from p2pcards.table.voices import Voices

    # Seat 3 is a computer run by seat 2: three voices, four keys.
    return _claims().voices_playing(Voices((0, 1, 2, 2)), (0, 1, 2, 3))


def _watcher_votes() -> object:
    from p2pcards.table.voices import Voices

    # Seat 3 is out of chips and watches: at the table, holding no key, and still a voice (SPEC §6.1).
    at = _claims().StepView(9, bytes(32), (0, 1, 2, 3), (0, 1, 2), (2,))
    return _claims().claim_problem("void_vote", Voices((0, 1, 2, 3)), 3, (2,), at)


def _spades_total(bids: tuple[int, ...], tricks: tuple[int, ...], bags: int = 0) -> object:
    from p2pcards.games.spades.scoring import score_team

    s = score_team(0, bids, tricks, 0, bags)
    return s.points, s.bags


def _spades_settle(a: int, b: int) -> object:
    """The winner after a hand that leaves the teams at ``a`` and ``b`` (None: play on)."""
    from types import SimpleNamespace

    from p2pcards import games
    from p2pcards.games.base import TERMINAL
    from p2pcards.games.spades.config import SpadesConfig
    from p2pcards.games.spades.match import SpadesMatch
    from p2pcards.games.spades.scoring import HandResult, TeamScore

    rules = games.load("spades")
    assert isinstance(rules, SpadesConfig)
    match = SpadesMatch(rules)
    teams = (TeamScore(0, 4, 4, True, 40, 0, 0, 0, 40, a, 0), TeamScore(1, 4, 4, True, 40, 0, 0, 0, 40, b, 0))
    state = SimpleNamespace(rules=rules, setup=match._setup(), to_act=TERMINAL,
                            result=HandResult(0, (4, 4, 4, 4), (4, 4, 4, 1), teams))
    return match.settle(state).winner  # type: ignore[arg-type]


def _playouts(game: str, options: dict[str, Any], hands: int) -> object:
    from p2pcards import games
    from p2pcards.games.base import CHANCE, TERMINAL
    from p2pcards.games.playout import fulfil_from
    from p2pcards.games.rng import Rng

    rules = games.load(game, **options)
    trace: list[object] = []
    match = rules.new_match()
    rng = Rng(f"mutant-proof/{game}")
    for _ in range(hands):
        if match.over:
            match = rules.new_match()
        state = match.new_hand()
        deck = list(rules.deck)
        rng.shuffle(deck)
        while True:
            if state.to_act == CHANCE:
                fulfil_from(state, deck)
            elif state.to_act == TERMINAL:
                break
            else:
                legal = state.legal_actions()
                trace.append(tuple(legal))
                state.apply(rng.choice(legal))
        match = match.settle(state)
        trace.append(match.summary())
    import hashlib

    return hashlib.sha256(repr(trace).encode()).hexdigest()[:16]


def _settle_pot(blind_paid: int, all_in: bool) -> object:
    from p2pcards.games.azi.result import settle_pot

    return settle_pot((10, 30, 30), 0, all_in, blind_paid)


def _durak(**options: Any) -> Callable[[], object]:
    return lambda: _playouts("durak", options, 40)


def _azi() -> object:
    return _playouts("azi", {"players": 3}, 60)


def _spades() -> object:
    return _playouts("spades", {}, 40)


_S = "p2pcards.games.spades.scoring:score_team"

MUTANTS: tuple[Mutant, ...] = (
    # ---- wire: WIRE.md's checks, in the order a receiver makes them
    Mutant("signatures-unchecked", "wire", "never checks a message's signature",
           "p2pcards.wire.chain:authenticate", "        verify(msg, key)\n", "        pass\n", _forged,
           likely=("5.1.4",)),
    Mutant("non-canonical-accepted", "wire", "takes a message whose msgpack is not the canonical encoding",
           "p2pcards.wire.codec:decode", "    if again != data:", "    if False:", _non_canonical),
    Mutant("unknown-kinds", "wire", "takes a message of a kind it does not know",
           "p2pcards.wire.envelope:check_kind",
           "        raise EnvelopeError(Reason.UNKNOWN_KIND, repr(kind[:64]))", "        return",
           lambda: _kind("teleport", 10), likely=("5.1.5",)),
    Mutant("kind-size-unchecked", "wire", "takes a message over its kind's size limit",
           "p2pcards.wire.envelope:check_kind", "    if size > limit:", "    if False:",
           lambda: _kind("action", 60_000), likely=("5.1.6",)),
    Mutant("another-game-taken", "wire", "takes a message signed for another game by the same seat",
           "p2pcards.wire.chain:authenticate", "    if msg.game_id != game_id:", "    if False:",
           _another_game, likely=("5.1.1",)),
    Mutant("prev-unchecked", "wire", "never checks that a message follows the head of the log (its prev)",
           "p2pcards.wire.chain:position", "    if msg.prev != prev:", "    if False:",
           lambda: _position(bytes([9]) * 32, (1,)), likely=("5.4.3",)),
    Mutant("out-of-turn-taken", "wire", "takes a contribution from a seat the step does not await",
           "p2pcards.wire.chain:position", "    if msg.seat not in awaited:", "    if False:",
           lambda: _position(bytes(32), (2,))),
    Mutant("old-step-held", "wire", "holds a message of a step before the hand being played, as if it might "
           "still fit, instead of refusing it as 'old step'", "p2pcards.table.ingest:Intake._take_step",
           "            elif self._derived.is_past(msg.step):", "            elif False:", _old_step_refused,
           likely=("5.4.6",)),
    Mutant("equivocation-unnoticed", "wire", "takes a seat's second message for a step it already holds as a "
           "duplicate, never comparing the two", "p2pcards.table.ingest:Intake._take_step",
           "            if prior.hash != msg.hash and conflicting(prior, msg):", "            if False:",
           lambda: _game("durak", 3, "equivocate", dealer="seeded"), likely=("4.1.1", "4.1.2")),
    Mutant("zero-length-frame", "wire", "reads a frame of length 0 as an empty message",
           "p2pcards.wire.framing:FrameDecoder.feed", "if length == 0 or length > self.max_frame_size:",
           "if length > self.max_frame_size:", _zero_frame, likely=("5.1.2",)),
    # ---- deal: DEAL.md's proofs and commitments
    Mutant("key-proof-unchecked", "deal", "never checks the proof of a revealed hand key",
           "p2pcards.table.dealers:MentalDealer._accept_one",
           "            deal.verify_key(self._ctx(step, seat), ann)\n", "            pass\n",
           lambda: _game("durak", 3, "bad-key-proof"), likely=("4.2.3",)),
    Mutant("key-commitment-unchecked", "deal", "never compares a revealed hand key with its commitment",
           "p2pcards.table.dealers:MentalDealer._accept_one",
           "            deal.verify_key_commitment(self._ctx(0, seat), self._commits[seat], ann.public)\n",
           "            pass\n", lambda: _game("durak", 3, "wrong-key"), likely=("4.2.4",)),
    Mutant("hand-key-reused", "deal", "deals every hand with the same key",
           "p2pcards.table.secrets:SeatSecrets.hand_key",
           'seed = self._key("hand-key", _u64(hand), start_head)', 'seed = self._key("hand-key")',
           _reused_keys, likely=("4.2.1", "3.1.2")),
    Mutant("shuffle-proof-unchecked", "deal", "never checks a shuffle's proof",
           "p2pcards.deal.shuffle:_check", '    """', '    return\n    """',
           lambda: _game("spades", 4, "bad-proof"), likely=("4.2.1",)),
    Mutant("share-unchecked", "deal", "never checks the proof of a decryption share",
           "p2pcards.deal.shares:verify_share", "    seat = ctx.seat\n", "    return share.d\n",
           lambda: _game("durak", 4, "bad-share"), likely=("4.2.2",)),
    # ---- table: SPEC's rule of the table
    Mutant("own-illegal-moves", "table", "takes any move its own player asks for",
           "p2pcards.table.attempt:Attempt.check_own", "state.clone().apply(action)", "pass", _own_illegal,
           likely=("2.1.1",)),
    Mutant("sends-before-persisting", "table", "sends a message before it journals it",
           "p2pcards.table.ingest:Intake._keep",
           "            self._told.append(out.Persist(msg.data, own=own))\n"
           "            self._told.append(out.Send(msg.data))\n",
           "            self._told.append(out.Send(msg.data))\n"
           "            self._told.append(out.Persist(msg.data, own=own))\n",
           _start_outputs, likely=("1.1.1",)),
    Mutant("half-is-majority", "table", "counts exactly half of the voices as a majority",
           "p2pcards.table.claims:vote_decision", "2 * len(live) <= len(voters)",
           "2 * len(live) < len(voters)", _half_majority),
    Mutant("votes-per-key", "table", "counts the seats' keys as voices, a person's computer players too",
           "p2pcards.table.claims:voices_playing", "    return voices.among(at_table)",
           "    return tuple(sorted(set(at_table)))", _votes_per_key),
    Mutant("watcher-vote-refused", "table", "refuses the vote of a seat out of chips that watches, as one "
           "that holds no key", "p2pcards.table.claims:claim_problem", "    if signer not in at.at_table:",
           "    if signer not in at.holders:", _watcher_votes, likely=("1.7.3",)),
    Mutant("votes-never-spent", "table", "never counts a vote as spent once a voice it names played on",
           "p2pcards.table.claims:spent", "    return any(v not in claim_names for v in later)",
           "    return False", lambda: _claims().spent((2,), (0, 1))),
    Mutant("others-abandon-binds", "table", "takes another voice's abandon (a minority's word) as binding",
           "p2pcards.table.claims:binds",
           "    return decision.majority or (me is not None and me in decision.signers)",
           "    return decision.majority or me is not None",
           lambda: _claims().binds(_decision(False, (2,), (1,)), 0, ())),
    Mutant("taken-without-consent", "table", "takes a majority's decision naming itself without its consent",
           "p2pcards.table.claims:binds",
           "        return (decision.majority or decision.half) and consents_to(decision, consents)",
           "        return decision.majority or decision.half",
           lambda: _claims().binds(_decision(True, (0,), (1, 2)), 0, ()),
           likely=("3.3.2",)),
    Mutant("no-catchup-wait", "table", "signs again at once after a restore, without waiting for catch-up",
           "p2pcards.table.replica:Table.restore",
           "s for s in range(self.n) if s != self.seat and s not in self._held.cheaters",
           "s for s in ()", _restore_waits),
    # ---- pipe: the connection as HARNESS.md and WIRE.md §3 have it
    Mutant("closed-stream-kept", "pipe", "never opens a new connection after it closed one",
           "p2pcards.harness.pipe_peer:PipePeer._frame", "            del self._decoders[peer]\n",
           "            pass\n", _closes_and_refusals, likely=("5.1.3",)),
    Mutant("frames-before-close-dropped", "pipe", "drops the whole frames that came before a bad length "
           "in the same bytes (WIRE.md §3: they are read, then the connection closes)",
           "p2pcards.harness.pipe_peer:PipePeer._frame",
           '            for payload in getattr(exc, "frames", []):',
           "            for payload in []:", _closes_and_refusals, likely=("5.1.3",)),
    # ---- games: the numbered rules of GAMES.md
    Mutant("bag-at-eleven", "games", "Spades: the bag penalty at the 11th bag instead of the 10th (S13)",
           _S, "while total_bags >= BAG_LIMIT:", "while total_bags > BAG_LIMIT:",
           lambda: _spades_total((3, 0, 3, 0), (4, 0, 3, 0), bags=9), likely=("1.6.1",)),
    Mutant("failed-nil-unpunished", "games", "Spades: a failed nil costs nothing (S12: -100)",
           _S, "            nil_points += worth if took == 0 else -worth",
           "            nil_points += worth if took == 0 else 0",
           lambda: _spades_total((0, 0, 3, 0), (2, 0, 3, 0))),
    Mutant("made-needs-more", "games", "Spades: a contract is made only with more tricks than bid (S10)",
           _S, "    made = counted >= contract", "    made = counted > contract",
           lambda: _spades_total((3, 0, 3, 0), (3, 0, 3, 0))),
    Mutant("bags-not-scored", "games", "Spades: overtricks count no point (S10: +1 each)",
           _S, "        contract_points = 10 * contract + bags", "        contract_points = 10 * contract",
           lambda: _spades_total((3, 0, 3, 0), (4, 0, 3, 0))),
    Mutant("tie-at-target-ends", "games", "Spades: a tie at or past the target ends the game (S15: play on)",
           "p2pcards.games.spades.match:SpadesMatch.settle",
           "min(a, b) <= self.rules.floor) and a != b:", "min(a, b) <= self.rules.floor):",
           lambda: _spades_settle(520, 520), likely=("1.6.2",)),
    Mutant("floor-passed-not-reached", "games",
           "Spades: the game ends only below the floor, not at it (S15)",
           "p2pcards.games.spades.match:SpadesMatch.settle", "or min(a, b) <= self.rules.floor)",
           "or min(a, b) < self.rules.floor)", lambda: _spades_settle(0, -200), likely=("1.6.3",)),
    Mutant("highest-trump-shown", "games", "Durak: the trump shown before the first bout is the highest, "
           "not the lowest (D3)", "p2pcards.games.durak.state:DurakState.legal_actions",
           "        return [A.SHOW + (trumps & -trumps).bit_length() - 1] if trumps else [A.SHOW_NONE]",
           "        return [A.SHOW + trumps.bit_length() - 1] if trumps else [A.SHOW_NONE]", _durak()),
    Mutant("limit-ignores-hand", "games", "Durak: the bout's limit ignores the defender's hand size (D7)",
           "p2pcards.games.durak.state:DurakState._start_bout",
           "        self.limit = cap if cap < size else size", "        self.limit = cap", _durak()),
    Mutant("ace-turned-up-ignored", "games", "Azi: an ace turned up for trump does not put the six on stage "
           "(six_on_stage)", "p2pcards.games.azi.hand:AziHand._set_trump",
           "        if self.rules.six_on_stage and c % 13 + 2 == ACE:", "        if False:", _azi),
    Mutant("azi-replay-next-dealer", "games", "Azi: an azi replay is dealt by the next seat, not the same "
           "dealer (A14)", "p2pcards.games.azi.match:AziMatch.settle",
           "            return self._replace(stacks=r.stacks, dealer=self.dealer, hand_number=nxt,",
           "            return self._replace(stacks=r.stacks, dealer=(self.dealer + 1) % len(r.stacks), "
           "hand_number=nxt,", _azi),
    Mutant("blind-chips-single", "games", "Azi: chips paid blind count once, not twice, for an all-in "
           "winner (A16)", "p2pcards.games.azi.result:settle_pot",
           "    cw = contributions[winner] + blind_paid", "    cw = contributions[winner]",
           lambda: _settle_pot(5, True)),
    Mutant("all-in-takes-all", "games", "Azi: an all-in winner takes the whole pot (A13: what it matched)",
           "p2pcards.games.azi.result:settle_pot", "    if not winner_all_in:", "    if True:",
           lambda: _settle_pot(0, True)),
)


def locate(mutant: Mutant) -> tuple[Any, Any, str, Any, str]:
    """The module, the owner (module or class), the name, the function and its source of the line a
    mutant changes; ``RuntimeError`` unless the line is there exactly once (the code moved on)."""
    module_name, _, qualname = mutant.target.partition(":")
    module = importlib.import_module(module_name)
    owner: Any = module
    *path, name = qualname.split(".")
    for part in path:
        owner = getattr(owner, part)
    original = inspect.unwrap(getattr(owner, name))
    source = inspect.getsource(original)
    if source.count(mutant.old) != 1:
        raise RuntimeError(f"{mutant.name}: the line to change is not once in {mutant.target}")
    return module, owner, name, original, source


def apply(mutant: Mutant) -> list[tuple[Any, str, Any]]:
    """Rewrite the one line in this process: the function is compiled again from its source with the
    line changed, and put wherever the original was (its module, its class, and every module that
    imported it by name).  Returns what was replaced, for ``applied`` to put back."""
    module, owner, name, original, source = locate(mutant)
    mutated_source = textwrap.dedent(source.replace(mutant.old, mutant.new))
    namespace: dict[str, Any] = {}
    exec(compile(mutated_source, module.__file__ or module.__name__, "exec"), module.__dict__, namespace)
    mutated = namespace[name]
    replaced = [(owner, name, owner.__dict__[name])]
    setattr(owner, name, mutated)
    if owner is module:
        for other in list(sys.modules.values()):
            if other is not None and other is not module and getattr(other, name, None) is original:
                replaced.append((other, name, original))
                setattr(other, name, mutated)
    return replaced


@contextmanager
def applied(mutant: Mutant) -> Iterator[None]:
    """The mutant in this process for the duration, our code again after it."""
    replaced = apply(mutant)
    try:
        yield
    finally:
        for owner, name, original in reversed(replaced):
            setattr(owner, name, original)


def proven(mutant: Mutant) -> tuple[object, object]:
    """What the mutant's proof answers with our code, and with the mutant: they differ."""
    ours = _outcome(mutant.proof)
    with applied(mutant):
        theirs = _outcome(mutant.proof)
    return ours, theirs


# --------------------------------------------------------------------------- scoring


@dataclass
class MutantResult:
    mutant: Mutant
    caught_by: str | None
    """The first case the mutant failed, or None for a survivor."""
    detail: str = ""
    cases: list[str] = field(default_factory=list)
    """The cases it was run against (up to the one that caught it)."""
    seconds: float = 0.0


def command(mutant: Mutant) -> str:
    return f"{sys.executable} -m p2pcards.harness.conformance_mutants {mutant.name}"


def order_for(mutant: Mutant, cases: list[Any]) -> list[Any]:
    """The cases in the order a mutant meets them: those its flaw is about first, then the rest as
    given."""
    first = [c for c in cases if c.id in mutant.likely]
    return first + [c for c in cases if c.id not in mutant.likely]


def run_one(mutant: Mutant, cases: list[Any], going_on: Callable[[], bool] = lambda: True) -> MutantResult:
    """One mutant against ``cases`` in order, until one catches it (or ``going_on`` says to stop)."""
    import time

    from p2pcards.harness.conformance import run_case

    started = time.perf_counter()
    result = MutantResult(mutant, None)
    for case in order_for(mutant, cases):
        if not going_on():
            break
        result.cases.append(case.id)
        outcome = run_case(case, command(mutant))
        if not outcome.passed:
            result.caught_by = case.id
            result.detail = outcome.problems[0] if outcome.problems else outcome.detail
            break
    result.seconds = time.perf_counter() - started
    return result


def _run_by_name(name: str, case_ids: list[str]) -> tuple[str | None, str, list[str], float]:
    """``run_one`` in a worker process: by names in, plain values out (a mutant's proof is a local
    function, which does not travel between processes)."""
    import os

    from p2pcards.harness.conformance import CASES

    by_id = {c.id: c for c in CASES}
    parent = os.getppid()
    # A worker whose run was ended (its parent gone) stops at the next case instead of playing on.
    r = run_one(next(m for m in MUTANTS if m.name == name), [by_id[i] for i in case_ids],
                lambda: os.getppid() == parent)
    return r.caught_by, r.detail, r.cases, r.seconds


def run_mutants(
    cases: list[Any],
    mutants: Iterable[Mutant] = MUTANTS,
    progress: Callable[[MutantResult], None] | None = None,
    processes: int = 1,
) -> list[MutantResult]:
    """Each mutant against ``cases`` in order until one catches it; with ``processes`` > 1, that many
    mutants at once (each in a process of its own; the results come back in the mutants' order)."""
    chosen = list(mutants)
    if processes <= 1:
        results = []
        for mutant in chosen:
            results.append(run_one(mutant, cases))
            if progress is not None:
                progress(results[-1])
        return results
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    ids = [c.id for c in cases]
    with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(_run_by_name, m.name, ids) for m in chosen]
        done = []
        for mutant, future in zip(chosen, futures, strict=True):
            caught_by, detail, ran, seconds = future.result()
            done.append(MutantResult(mutant, caught_by, detail, ran, seconds))
            if progress is not None:
                progress(done[-1])
    return done


def score(results: list[MutantResult]) -> dict[str, tuple[int, int]]:
    """Per layer (and ``all``): (caught, mutants)."""
    table: dict[str, tuple[int, int]] = {}
    for layer in (*LAYERS, "all"):
        mine = [r for r in results if layer in ("all", r.mutant.layer)]
        if mine:
            table[layer] = (sum(r.caught_by is not None for r in mine), len(mine))
    return table


def main(argv: list[str]) -> int:
    by_name = {m.name: m for m in MUTANTS}
    if len(argv) != 1 or argv[0] not in by_name:
        print(f"say a mutant: {', '.join(by_name)}", file=sys.stderr)
        return 2
    apply(by_name[argv[0]])
    from p2pcards.harness.pipe_peer import serve

    return serve(sys.stdin.buffer, sys.stdout.buffer)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
