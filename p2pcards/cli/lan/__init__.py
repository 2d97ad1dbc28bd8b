"""Play on the local network: ``host``, ``join``, ``list`` and ``resume``.

- ``options``: checking names, addresses, join codes, levels and interfaces.
- ``terminal``: text or JSON lines out, lines in (read in a thread while the network runs).
- ``finding``: tables seen by mDNS, shown and chosen.
- ``admission``: the host's lobby on screen: requests, fingerprints, admit or refuse.
- ``game``: one seat's match on screen, driven by its ``Node`` (the screen of ``play``).
- ``record``: what a seat keeps beside its journal so that ``resume`` can bring it back.
- ``runner``: trio, failures and Ctrl-C, shared by the commands.
- ``host``, ``join``, ``listing``, ``resume``: the commands.
"""

from __future__ import annotations

import argparse
from importlib import import_module


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    # Imported here, not above: running one command need not import the others (``p2pcards.cli``).
    for name in ("host", "join", "listing", "resume"):
        import_module(f"p2pcards.cli.lan.{name}").register(commands)


__all__ = ["register"]
