"""p2pcards: card games for people in one room, with no server, no internet and no trusted dealer."""

__version__ = "0.1.0"
