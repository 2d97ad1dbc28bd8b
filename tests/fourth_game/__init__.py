"""A fourth game that lives in the tests only, to prove that a game is one registration.

``GAME`` is its whole registration: the rules (``game``), the computer players (``players``), the
rules page (``rules.md``), the tables the contract checks play.  The tests register it for their own
duration (the ``fourth_game`` fixture of ``conftest.py``); a process started by a test finds it
through ``P2PCARDS_GAMES=tests.fourth_game.plugin`` (``p2pcards.extensions``).
"""

from p2pcards.games import GameEntry
from tests.fourth_game.game import NAME, PHASE_NAMES, TricksRules

GAME = GameEntry(
    name=NAME,
    title="Three Tricks",
    rules=TricksRules,
    phases=PHASE_NAMES,
    tables=({"players": 2}, {"players": 3}, {"players": 3, "hands": 1}),
    players="tests.fourth_game.players",
    rules_page=("tests.fourth_game", "rules.md"),
    seats=3,
    longer={"hands": 4},
    renege=("T3",),
    choices={"hands": (1, 3)},
)

__all__ = ["GAME"]
