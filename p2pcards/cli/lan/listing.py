"""``p2pcards list``: the tables announced on the local network, as they appear, change and vanish."""

from __future__ import annotations

import argparse

from rich.text import Text

from p2pcards.cli.common import program
from p2pcards.cli.lan import options as opt
from p2pcards.cli.lan.finding import watch_tables
from p2pcards.cli.lan.runner import Context, run_trio
from p2pcards.cli.terminal import Terminal


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "list", help="show the tables open on the local network",
        description=(
            "Watch the local network for tables (mDNS) and show each one as it appears, changes and "
            "vanishes, on one line of at most 80 columns: name, game, free seats and address first, "
            "then what fits of the rest (a seeded dealer, a join code, the options that differ from "
            "the defaults, the host). --json gives everything. Runs until Ctrl-C, or for --timeout "
            "seconds."
        ),
    )
    p.add_argument("--timeout", type=float, default=None, metavar="S",
                   help="stop after S seconds (default: run until Ctrl-C)")
    p.add_argument("--interface", default=None, metavar="IFACE",
                   help="the network to look on: an interface name (wlan0) or this machine's IPv4 address "
                        "on it (default: every network)")
    p.add_argument("--json", action="store_true",
                   help="print appeared / changed / vanished events as JSON lines")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    timeout = None if args.timeout is None else opt.seconds(args.timeout, "--timeout", 0.1, 86_400)
    address = opt.interface(args.interface)
    out = Terminal(json_mode=args.json)

    async def main(context: Context) -> int:
        seen = await watch_tables([address] if address is not None else None, timeout, out)
        out.emit({"event": "done", "tables": seen})
        if not seen:
            out.say(Text(
                "No table found. If a host is there, discovery may be blocked on this network: join by "
                f"the address the host shows ({program()} join HOST:PORT); see \"When discovery fails\" in "
                "the README.",
                style="yellow"))
        else:
            plural = "s" if seen != 1 else ""
            out.say(Text(f"{seen} table{plural} seen. Join one with: {program()} join \"NAME\"", style="dim"))
        return 0

    # Ctrl-C is the ordinary way to stop watching.
    return run_trio(main, out, interrupted=0)
