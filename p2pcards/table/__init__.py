"""The table layer: one seat's replica of a game, a sans-IO state machine over the signed log.

**What goes in.**  A ``Table`` is fed three things, and nothing else reaches it:

* bytes from peers — ``receive(peer, payload)``, each a frame's payload, hostile until checked;
* what its seat's person or program decides — ``local_action(text)``, ``decide_silent(go_on)``,
  ``admit(seat, yes)``, ``ask_to_return()``, ``watch()``;
* the local time — ``tick(now_ms)``, the only clock it knows.

It starts with ``start()``, or with ``restore(journal)`` from the messages its shell journaled.

**What comes out.**  Every call returns a list of ``outputs.Output`` values for its shell to carry out
in order: ``Persist`` (journal it; before the ``Send`` of the same message) and ``KeepSecret``, ``Send``
(to one peer or all), and events for the person (``YourTurn``, ``Waiting``, ``SilentSeats``,
``HandOver``, ``Sealed``, ``HandVoid``, ``Seating``, ``ReturnAsked``, ``Restoring``, ``MatchOver``,
``Fault``, ``Rejected``, ...).  The table reads no socket, file or clock itself.

**The invariants** (``protocol/SPEC.md``; ``claims`` states the rule, with its predicates):

* what is replicated — who plays, whose turn it is, what must be revealed, every verdict — is a pure
  function of the messages held: replicas holding the same messages reach the same ``digest()``,
  whatever order the messages arrived in;
* a sealed hand is final: nothing received later changes it;
* a seat never signs two different messages for one step after one head, not even restored from an
  old copy of its journal (SPEC §9.6);
* nothing a peer sends crashes a replica, makes it use unbounded memory or work, or convicts an
  honest seat: it is refused with a one-line reason (``Rejected``), kept within a budget, or proves
  its signer a cheater.

**Pure and deterministic.**  Nothing here does I/O or imports trio, ``random``, ``time`` or ``os``; no
float, set or dict iteration order decides anything replicated.  The only entropy is a seat's master
secret (its shell's ``source``, or the system's, once), from which every secret is derived.

**Inside.**  ``replica.Table`` is a facade that owns the state and alone emits outputs; its parts
return values and never call back into it: ``ingest`` (sorting what arrives, SPEC §9), ``held``
(what is held, and what its claims decide), ``derive`` (the canonical attempt and the final hands,
SPEC §7), ``announce`` (each verdict once), ``clocks`` (what is due when, SPEC §10), ``contribute``
(what this seat owes) and ``catchup``.  What the seat signs goes through a ``Signer`` (a seam the
test harness's cheaters change).

A two-seat Durak table with the seeded dealer, every frame passed by hand until the first move:

>>> from p2pcards.table import Table, make_genesis, outputs
>>> from p2pcards.wire import key_from_seed, public_bytes
>>> keys = [key_from_seed(bytes([i + 1]) * 32) for i in range(2)]
>>> genesis = make_genesis("durak", [("ann", public_bytes(keys[0])), ("bob", public_bytes(keys[1]))],
...                        dealer="seeded", seed=7)
>>> tables = [Table(genesis, i, keys[i], source=lambda n: bytes(n)) for i in range(2)]
>>> pending = [(i, o) for i, t in enumerate(tables) for o in t.start()]
>>> turns = []
>>> while pending:
...     frm, o = pending.pop(0)
...     if isinstance(o, outputs.Send):
...         pending += [(to, r) for to in (1 - frm,) for r in tables[to].receive(frm, o.payload)]
...     elif isinstance(o, outputs.YourTurn):
...         turns.append(o)
>>> len(turns), tables[0].digest() == tables[1].digest()
(1, True)
"""

from p2pcards.table import outputs
from p2pcards.table.genesis import Genesis, GenesisError, make_genesis
from p2pcards.table.replica import SecretSource, Table
from p2pcards.table.signer import Signer

__all__ = ["Genesis", "GenesisError", "SecretSource", "Signer", "Table", "make_genesis", "outputs"]
