"""The JSON lines of ``--json`` (``play``, ``host``, ``join``, ``resume``): every event, its fields
and their types.  ``docs/guide.md`` lists the same; ``tests/cli/test_json_schema.py`` checks every
event the commands print against it.

A field name ending in ``?`` may be missing.  Types: ``int``, ``str``, ``bool``, ``list``, ``dict``,
``None``; a tuple means any of them.  Cards are text (``7H``, ``TS`` for the ten of spades, ``AS``);
seats are numbers from 0.  Every event has ``event``, its kind.  ``table`` is the seat's view of the
table (game by game: trump, talon, table, hand sizes; bids, tricks, trick, scores; chips, pot,
bets...), ``scores`` the match's standings as numbers (Durak ``scores``; Spades ``teams``; Azi
``chips``), ``standings`` the same in words.
"""

from __future__ import annotations

from typing import Any

Type = type | tuple[type, ...]
N = type(None)

SCORES: dict[str, Type] = {"standings": str, "scores": dict}

SCHEMA: dict[str, dict[str, Type]] = {
    # ------------------------------------------------------------------ the game (offline and LAN)
    "start": {"game": str, "options": dict, "seats": list, "you": int, "dealer": str, "game_id": str,
              "resumed": bool, "seed?": (int, N), "saved?": bool, "timeout_s?": int, "auto?": (str, N)},
    "deal": {"hand": int, "dealer": (int, N), "dealt_by": str, "shuffles": int},
    "move": {"hand": int, "seat": int, "name": str, "move": str, "table": (dict, N)},
    "turn": {"hand": int, "seat": int, "cards": list, "legal": list, "moves": list, "table": dict},
    "forced": {"hand": int, "move": str},
    "prompt": {"prompt": str, "question?": str, "seats?": list},
    "hand_over": {"hand": int, "summary": str, "replayed": bool, "result": str, "outcome": dict,
                  "audit": dict, "verified": str, **SCORES},
    "match_over": {"summary": str, "digest": str, "result": str, "abandoned": bool, **SCORES},
    "fault": {"seat": int, "kind": str, "step": int, "message": str, "hand": int, "seats": list,
              "names": list, "stopped": bool, "unconfirmed": bool},
    # ------------------------------------------------------------------ the game going on without a seat
    "hand_void": {"hand": int, "seats": list, "names": list, "kinds": list},
    "seating": {"hand": int, "playing": list, "dummies": list, "out": list},
    "sealed": {"hand": int, "seats": list},
    "returned": {"seats": list, "names": list, "hand": int},
    "out_of_match": {"hand": int, "seat": int, "name": str, "score": int, "you": bool, "rule": str},
    "votes_contradicted": {"step": int, "voters": list, "named": list, "majority": bool, "half": bool,
                           "left_behind": bool},
    "silent": {"step": int, "seats": list, "names": list, "waited_s": int, "ask": bool, "auto_in_s": (int, N),
               "end_match": bool, "connected?": list},
    "return_asked": {"seat": int, "name": str},
    "answer": {"question": str, "answer": str, "seats?": list},
    "moot": {"question": str, "seats": list, "reason": str},
    "restoring": {"step": int, "seats": list, "names": list},
    "countdown": {"question": str, "seats": list, "seconds": (int, N), "back?": list},
    "returning": {"hand": int},
    "away": {"hands": int, "first_hand": int, "verdicts": list, "why": (str, N)},
    "notice": {"seat?": (int, N), "message": str},
    "thinking": {"seat": int, "name": str},
    "error": {"input": str, "message": str},
    "help": {"text": str},
    "rules": {"game": str, "text": str},
    "left": {"hand": int, "input_ended": bool, **SCORES},
    "saved": {"game_id": str, "finished": bool, "journal?": str},
    "removed": {"game_id": str},
    "interrupted": {"game_id": (str, N), "kept?": bool},
    "stuck": {"standings": str},
    "over": {"game_id": str},
    # ------------------------------------------------------------------ the LAN only
    "peer": {"seat": int, "name": str, "up": bool, "reason?": str},
    "waiting": {"step": int, "seats": list, "names": list, "seconds": int},
    "move_clock": {"step": int, "seconds_left": int},
    "hosting": {"table": str, "game": str, "options": dict, "players": int, "port": int, "addresses": list,
                "fingerprint": str, "name": str, "private": bool, "advertised": bool},
    "request": {"number": int, "name": str, "fingerprint": str, "trust": str, "address": str},
    "admitted": {"number?": int, "name?": str, "free?": int},
    "refused": {"number": int, "name": str, "reason": str},
    "gone": {"number": int, "name": str},
    "closed": {},
    "found": {"table": str, "game": str, "fingerprint": str, "free": int, "seats": int, "addresses": list},
    "joining": {"address": str, "name": str, "fingerprint": str, "port": int},
    "connecting": {"address": str},
    "table": {"table": str, "host": str, "fingerprint": str, "game": str, "options": dict, "dealer": str,
              "players": int, "free": int, "private": bool, "address": str, "timeout_s": int},
    "computers": {"seats": list, "names": list, "runner": int, "runner_name": str},
    "warning": {"message": str},
    "failed": {"message": str},
    "who": {"seated": list, "waiting": list, "free": int},
    # ------------------------------------------------------------------ p2pcards list
    "appeared": {"name": str, "game": str, "options": dict, "seats": int, "free": int, "fingerprint": str,
                 "private": bool, "addresses": list, "port": int},
    "changed": {"name": str, "game": str, "options": dict, "seats": int, "free": int, "fingerprint": str,
                "private": bool, "addresses": list, "port": int},
    "vanished": {"name": str, "instance?": str},
    "done": {"tables": (int, list)},
}
"""Event kind -> its fields (besides ``event``)."""

TURN_MOVE: dict[str, Type] = {"number": int, "move": str, "label": str, "hint": str, "low": (int, N),
                              "high": (int, N)}
"""Each entry of a ``turn``'s ``moves``: the numbered menu (``low``/``high``: a run of amounts)."""


def problems(event: Any) -> list[str]:
    """What is wrong with one JSON event (empty when it fits the schema).  Extra fields are allowed
    (a newer version may add some); missing or mistyped ones are not."""
    if not isinstance(event, dict) or not isinstance(event.get("event"), str):
        return ["not an object with an 'event' string"]
    kind = event["event"]
    fields = SCHEMA.get(kind)
    if fields is None:
        return [f"unknown event kind {kind!r}"]
    found = [*_fields(kind, event, fields)]
    if kind == "turn" and isinstance(event.get("moves"), list):
        for i, entry in enumerate(event["moves"]):
            found += _fields(f"turn.moves[{i}]", entry, TURN_MOVE)
    return found


def _fields(where: str, obj: Any, fields: dict[str, Type]) -> list[str]:
    if not isinstance(obj, dict):
        return [f"{where}: not an object"]
    found = []
    for name, kind in fields.items():
        optional = name.endswith("?")
        key = name.rstrip("?")
        if key not in obj:
            if not optional:
                found.append(f"{where}: missing {key!r}")
            continue
        value = obj[key]
        if isinstance(value, bool) and kind is not bool and (not isinstance(kind, tuple) or bool not in kind):
            found.append(f"{where}.{key}: a boolean where {kind} is due")
        elif not isinstance(value, kind):
            found.append(f"{where}.{key}: {type(value).__name__}, not {kind}")
    return found


__all__ = ["SCHEMA", "TURN_MOVE", "problems"]
