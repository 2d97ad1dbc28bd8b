"""Importing this module registers Three Tricks: what ``P2PCARDS_GAMES`` names for a process (a
``p2pcards peer --stdio`` started by the conformance harness) that must know the game."""

from p2pcards.games import registry
from tests.fourth_game import GAME

if GAME.name not in registry.names():
    registry.register(GAME)
