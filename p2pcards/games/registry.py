"""The one list of games: every game is a ``GameEntry`` registered here, and everything that lists
games (``games.GAMES``, ``games.load``, the table's genesis, the computer players, the screens, the
command line's completion, the fuzzer, the harness, the tests of the games contract) reads it.

An entry holds what the rules layer knows of its game (the rules, the phases, the tables a check
plays, the open-dummy policy) and *names* the modules of its parts in the layers above: the
computer players (``players``) and the screen (``face``).  The rules layer may not import those
layers, so it keeps their module names and each layer resolves its own part (``ai.registry``,
``cli.screen.faces``), checking it whole the first time, with a message that names the game and
what is missing.  What the rules layer can check is checked here, at registration: an entry with a
part missing or broken is refused with a ``GameError`` that says which, never a ``KeyError`` later.

The three games of the package are registered here by name (``BUILT_IN``), each checked the first
time it is asked for; another game is registered by calling ``register`` (a test, or a module named
in ``P2PCARDS_GAMES``: see ``p2pcards.extensions`` and ``docs/adding-a-game.md``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from p2pcards.games.base import Action, GameError, OptionError, Rules, View

DummyPolicy = Callable[[View, bytes], Action]
"""How every replica plays a seat whose player left, when the game deals it on (Spades' open
dummy): a pure function of the seat's view and public bytes of the hand."""

NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")
"""A game's name: what ``play GAME`` and a genesis say; lowercase, so that it is typed one way."""
RESERVED = frozenset({"conformance"})
"""Words a command takes in the place of a game (``harness conformance``)."""
MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


@dataclass(frozen=True)
class GameEntry:
    """Everything the program needs to know of one game, in one place."""

    name: str
    """The game's name, as typed and as a genesis carries it (``durak``)."""
    title: str
    """Its name for people (``Durak``)."""
    rules: Callable[..., Rules]
    """The factory of its rules: ``rules(**options)``; its ``name`` is the entry's."""
    phases: tuple[str, ...]
    """Every ``phase_name`` a hand of the game can be in (the contract checks each state's)."""
    tables: tuple[Mapping[str, Any], ...]
    """The options of the tables the checks of the games contract play (at least one)."""
    players: str
    """The module of its computer players (``p2pcards.ai.durak``): it defines ``PLAYERS``, one factory
    per level, and ``UNITS_PER_SECOND``, Hard's budget (``ai.registry`` says so in full)."""
    rules_page: tuple[str, str]
    """Its rules for people in Markdown: (package, path inside it), read by ``p2pcards rules``."""
    seats: int
    """The seats of the table the harness and the fuzzer play."""
    longer: Mapping[str, Any] = field(default_factory=dict)
    """Options that make a match of a few hands, so that a check sees sealed hands, the next hands and
    the end (the fuzzer, the harness's seat that leaves)."""
    face: str | None = None
    """The module of its screen (a ``Face`` subclass named ``Face``); None: the plain screen, which
    shows the hand and the moves as the engine writes them."""
    dummy: DummyPolicy | None = None
    """How a seat whose player left is played, if the game deals it on (Spades); None if it is not."""
    renege: tuple[str, ...] = ()
    """The rules a seat breaks by reneging (not following suit while able): what a replica that cannot
    see the seat's hand leaves to the audit, and what the harness's ``renege`` cheater breaks."""
    choices: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    """Options that take one of a few values besides on/off (Durak's ``deck``: 36 or 52), which the
    shell's completion offers as ``-o deck=52``."""

    def load(self, **options: Any) -> Rules:
        return self.rules(**options)


BUILT_IN: dict[str, str] = {
    "durak": "p2pcards.games.durak",
    "spades": "p2pcards.games.spades",
    "azi": "p2pcards.games.azi",
}
"""The package's games and the module whose ``GAME`` is each one's entry.  An entry is imported and
checked the first time it is asked for, so that a command that plays Durak does not import the other
engines (a tenth of a second at start-up); their names are known at once."""

_order: list[str] = list(BUILT_IN)
"""Every registered game's name: the package's first, then in the order registered."""
_entries: dict[str, GameEntry] = {}
"""The entries checked so far, by name."""


def _built_in(name: str) -> GameEntry:
    from importlib import import_module

    found: Any = getattr(import_module(BUILT_IN[name]), "GAME", None)
    if not isinstance(found, GameEntry) or found.name != name:
        raise GameError(f"{BUILT_IN[name]} does not define GAME, the entry of {name}")
    _check(found, again=True)
    _entries[name] = found
    return found


def _refuse(entry: object, why: str) -> GameError:
    name = getattr(entry, "name", None)
    return GameError(f"cannot register the game {name!r}: {why}")


def _check(entry: GameEntry, *, again: bool = False) -> None:
    if not isinstance(entry, GameEntry):
        raise GameError(f"cannot register {type(entry).__name__}: a game is registered as a GameEntry")
    name = entry.name
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise _refuse(entry, "its name must be 1-32 lowercase letters, digits or _, starting with a letter")
    if name in RESERVED:
        raise _refuse(entry, f"{name!r} is a word of the command line, not a game's name")
    if name in _order and not again:
        raise _refuse(entry, "a game of that name is registered already")
    if not isinstance(entry.title, str) or not entry.title.strip():
        raise _refuse(entry, "it has no title")
    if not callable(entry.rules):
        raise _refuse(entry, "its rules are not a factory of Rules")
    rules = _made(entry, {}, "with their defaults")
    if rules.name != name:
        raise _refuse(entry, f"its rules call themselves {rules.name!r}")
    if not rules.rule_codes or rules.deal_rule not in rules.rule_codes:
        raise _refuse(entry, "its rules have no numbered rule_codes, or a deal_rule not among them")
    if not isinstance(entry.renege, tuple) or not all(r in rules.rule_codes for r in entry.renege):
        raise _refuse(entry, "renege must be a tuple of its rule_codes")
    phases = entry.phases
    if (not isinstance(phases, tuple) or not phases or not all(isinstance(p, str) and p for p in phases)
            or len(set(phases)) != len(phases)):
        raise _refuse(entry, "its phases must be a tuple of distinct names")
    if not isinstance(entry.tables, tuple) or not entry.tables:
        raise _refuse(entry, "it names no table for the checks of the games contract (tables)")
    for options in entry.tables:
        _made(entry, options, f"at the table {dict(options)!r}")
    _made(entry, entry.longer, f"with its longer match {dict(entry.longer)!r}")
    if entry.seats.__class__ is not int:
        raise _refuse(entry, "seats must be a whole number")
    _made(entry, {"players": entry.seats}, f"with players={entry.seats} (its seats)")
    if not isinstance(entry.players, str) or not MODULE.fullmatch(entry.players):
        raise _refuse(entry, "players must name the module of its computer players")
    if entry.face is not None and (not isinstance(entry.face, str) or not MODULE.fullmatch(entry.face)):
        raise _refuse(entry, "face must name the module of its screen, or be None")
    page = entry.rules_page
    if (not isinstance(page, tuple) or len(page) != 2 or not MODULE.fullmatch(str(page[0]))
            or not isinstance(page[1], str) or not page[1].endswith(".md")):
        raise _refuse(entry, "rules_page must be (package, path of a .md file in it)")
    if entry.dummy is not None and not callable(entry.dummy):
        raise _refuse(entry, "its dummy policy is not a function")
    # an option with its default value may be left out of ``options`` (Durak's ``variants``)
    names = {*dict(rules.options), *getattr(rules, "variants", {})}
    for option, values in entry.choices.items():
        if option not in names or not isinstance(values, tuple) or not values:
            raise _refuse(entry, f"choices names {option!r}, which is not an option with values of its rules")
        for value in values:
            _made(entry, {option: value}, f"with {option}={value!r} (its choices)")


def _made(entry: GameEntry, options: Mapping[str, Any], where: str) -> Rules:
    try:
        rules = entry.rules(**options)
    except GameError as exc:
        raise _refuse(entry, f"its rules refuse to load {where}: {exc}") from exc
    except Exception as exc:  # a factory that is not one: say so, not a traceback deep inside it
        raise _refuse(entry, f"its rules fail to load {where}: {type(exc).__name__}: {exc}") from exc
    if not isinstance(rules, Rules):
        raise _refuse(entry, f"its rules factory made a {type(rules).__name__}, not Rules")
    return rules


def register(entry: GameEntry) -> GameEntry:
    """Add a game; ``GameError`` saying what is wrong if the entry is incomplete or its name taken."""
    _check(entry)
    _entries[entry.name] = entry
    _order.append(entry.name)
    return entry


def unregister(name: str) -> None:
    """Take a game out again (the tests' games do); the games of the package stay."""
    if name in BUILT_IN:
        raise GameError(f"{name} is a game of the package: it cannot be unregistered")
    if name not in _order:
        raise GameError(f"no game {name!r} is registered")
    _order.remove(name)
    del _entries[name]


def entry(name: str) -> GameEntry:
    """The entry of ``name`` (spaces and case aside); ``OptionError`` naming the games otherwise."""
    key = name.strip().lower() if isinstance(name, str) else None
    if key is None or key not in _order:
        raise OptionError(f"unknown game {name!r}; the games are: {', '.join(_order)}")
    found = _entries.get(key)
    return found if found is not None else _built_in(key)


def names() -> tuple[str, ...]:
    """The registered games' names, the package's first, then in the order registered."""
    return tuple(_order)


def entries() -> tuple[GameEntry, ...]:
    return tuple(entry(name) for name in _order)


class Names(Sequence[str]):
    """``games.GAMES``: the registered games' names, read afresh at each use, so that a module that
    imported it once still sees a game registered later."""

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[str, ...]: ...

    def __getitem__(self, i: int | slice) -> str | tuple[str, ...]:
        return names()[i]

    def __len__(self) -> int:
        return len(_order)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in _order

    def __iter__(self) -> Iterator[str]:
        return iter(names())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(names())

    def __repr__(self) -> str:
        return repr(names())


__all__ = ["BUILT_IN", "DummyPolicy", "GameEntry", "Names", "entries", "entry", "names", "register",
           "unregister"]
