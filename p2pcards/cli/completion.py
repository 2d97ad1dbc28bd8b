"""``p2pcards completion bash|zsh|fish``: shell completion of the commands, the games, the options
(and their values where there are few) and the ids of saved games.

The script is written from the command line's own parser, so it never lags behind a new option; the
saved games' ids are asked of ``p2pcards completion --ids all|unfinished`` as each Tab is pressed
(it reads the data directory only: a few tens of milliseconds).  Install it as its output says::

    source <(p2pcards completion bash)                  # in ~/.bashrc
    source <(p2pcards completion zsh)                   # in ~/.zshrc
    p2pcards completion fish > ~/.config/fish/completions/p2pcards.fish
"""

from __future__ import annotations

import argparse
import shlex
import sys
from dataclasses import dataclass, field

from p2pcards.cli.common import UsageError

SHELLS = ("bash", "zsh", "fish")

VALUES = {
    "--level": ("easy", "normal", "hard", "random"),
    "--auto": ("easy", "normal", "hard"),
    "--dealer": ("mental", "seeded"),
    "--admit": ("ask", "all"),
}
"""Values of the options argparse does not check itself (their commands do, with better words)."""

IDS = {"game_id": "unfinished", "game_ids": "all", "journal": "all"}
"""Positionals that name saved games, and which of them are offered (``resume``: the unfinished)."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "completion", help="print a shell completion script (bash, zsh or fish)",
        description="Print the script that lets the shell complete p2pcards' commands, games, options and "
                    "saved games' ids with Tab. bash: add `source <(p2pcards completion bash)` to ~/.bashrc; "
                    "zsh: `source <(p2pcards completion zsh)` in ~/.zshrc; fish: `p2pcards completion fish "
                    "> ~/.config/fish/completions/p2pcards.fish`.",
    )
    p.add_argument("shell", nargs="?", default=None, metavar="SHELL", help=f"one of: {', '.join(SHELLS)}")
    p.add_argument("--ids", default=None, choices=("all", "unfinished"), help=argparse.SUPPRESS)
    p.set_defaults(run=run)


@dataclass
class Command:
    name: str
    help: str
    options: list[str] = field(default_factory=list)
    values: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Option -> the values it takes (when there are few)."""
    positionals: list[tuple[str, ...] | str] = field(default_factory=list)
    """In order: the words a positional takes, or ``ids:all`` / ``ids:unfinished`` (`` files``: a
    path too)."""
    valued: list[str] = field(default_factory=list)
    """The options a value follows (``--players 3``)."""
    repeats: bool = False
    """The last positional takes any number of words (``games remove ID...``)."""


def option_words() -> tuple[str, ...]:
    """What ``-o`` offers: every table option of every game as ``name=value`` (``transfer=on``,
    ``transfer=off``, ``deck=52``: the values a game's registration lists in ``choices``), or ``name=``
    for a number or a text of the player's own."""
    from p2pcards.games import registry

    found: set[str] = set()
    for game in registry.entries():
        rules = game.load()
        for name, default in (*rules.options, *getattr(rules, "variants", {}).items()):
            if name == "players":
                continue  # ``--players`` says it
            if isinstance(default, bool):
                found.update((f"{name}=on", f"{name}=off"))
            elif name in game.choices:
                found.update(f"{name}={v}" for v in game.choices[name])
            else:
                found.add(f"{name}=")
    return tuple(sorted(found))


def commands() -> list[Command]:
    """Every command, read from the parser."""
    from p2pcards.cli import build_parser
    from p2pcards.games import GAMES

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {a.dest: a.help or "" for a in sub._choices_actions}
    found = []
    for name, p in sub.choices.items():
        command = Command(name, helps.get(name, ""))
        for action in p._actions:
            if action.help == argparse.SUPPRESS:
                continue
            if action.option_strings:
                command.options += [o for o in action.option_strings if o.startswith("--")]
                if action.nargs != 0:
                    command.valued += list(action.option_strings)
                longest = max(action.option_strings, key=len)
                if action.dest == "option":  # -o NAME=VALUE, a table option
                    for o in action.option_strings:
                        command.values[o] = option_words()
                elif action.choices is not None:
                    command.values[longest] = tuple(str(c) for c in action.choices)
                elif longest in VALUES:
                    command.values[longest] = VALUES[longest]
            elif action.dest in IDS:
                files = " files" if action.dest == "journal" else ""
                command.positionals.append(f"ids:{IDS[action.dest]}{files}")
            elif action.dest == "game":
                command.positionals.append(tuple(GAMES))
            elif action.choices is not None:
                command.positionals.append(tuple(str(c) for c in action.choices))
            elif action.dest == "suite":
                from p2pcards.cli.bench import SUITES

                command.positionals.append(tuple(SUITES))
            elif action.dest == "shell":
                command.positionals.append(SHELLS)
            else:
                command.positionals.append(())
            if not action.option_strings and action.nargs in ("*", "+"):
                command.repeats = True
        found.append(command)
    return found


def game_ids(which: str) -> list[str]:
    """The saved games' short ids (``unfinished``: only those ``resume`` can continue)."""
    from p2pcards.cli import games

    try:
        saved = games.all_saved()
    except Exception:  # a damaged data directory completes nothing, and says nothing at a Tab
        return []
    return [s.game_id.hex()[:12] for s in saved if which == "all" or s.unfinished]


def run(args: argparse.Namespace) -> int:
    if args.ids is not None:
        for game_id in game_ids(args.ids):
            print(game_id)
        return 0
    if args.shell is None:
        raise UsageError(f"name the shell: p2pcards completion {'|'.join(SHELLS)}")
    shell = args.shell.strip().lower()
    if shell not in SHELLS:
        raise UsageError(f"no completion for {args.shell!r}: the shells are {', '.join(SHELLS)}")
    found = commands()
    sys.stdout.write(fish_script(found) if shell == "fish" else bash_script(found, zsh=shell == "zsh"))
    return 0


# ============================================================================ bash (and zsh)


def bash_script(found: list[Command], *, zsh: bool = False) -> str:
    shell = "zsh" if zsh else "bash"

    def words(items: list[str] | tuple[str, ...]) -> str:
        return shlex.quote(" ".join(items))

    def reply(source: str) -> str:
        return f'COMPREPLY=($(compgen -W {source} -- "$cur"))'

    lines = [f"# p2pcards completion for {shell}: source <(p2pcards completion {shell})"]
    if zsh:
        lines.append("autoload -U +X bashcompinit && bashcompinit")
    lines += [
        "_p2pcards() {",
        "    local cur prev cmd n i w",
        '    cur="${COMP_WORDS[COMP_CWORD]}"',
        '    prev="${COMP_WORDS[COMP_CWORD-1]}"',
        "    COMPREPLY=()",
        "    if [[ $COMP_CWORD -eq 1 ]]; then",
        f"        {reply(words([*(c.name for c in found), '--help', '--version']))}",
        "        return",
        "    fi",
        '    cmd="${COMP_WORDS[1]}"',
        "    # the positionals before the word being completed (an option's value is none of them)",
        "    n=0",
        "    for ((i = 2; i < COMP_CWORD; i++)); do",
        '        w="${COMP_WORDS[i]}"',
        '        if [[ "$w" == -* ]]; then',
        '            case " $(_p2pcards_valued "$cmd") " in *" $w "*) ((i++));; esac',
        "        else",
        "            ((n++))",
        "        fi",
        "    done",
        '    case "$cmd" in',
    ]
    for c in found:
        lines += [f"        {c.name})", f"            opts={words(c.options)}", '            case "$prev" in']
        lines += [f"                {o}) {reply(words(v))}; return;;" for o, v in c.values.items()]
        takes = [o for o in c.valued if o not in c.values]
        if takes:
            lines.append(f"                {'|'.join(takes)}) return;;")  # a value of the user's own
        lines += ["            esac",
                  f'            if [[ "$cur" == -* ]]; then {reply(chr(34) + "$opts" + chr(34))}; return; fi',
                  '            case "$n" in']
        for i, p in enumerate(c.positionals):
            label = "*" if c.repeats and i == len(c.positionals) - 1 else str(i)
            if isinstance(p, str):
                kind = p.split()[0].removeprefix("ids:")
                ids = reply(f'"$(p2pcards completion --ids {kind} 2>/dev/null)"')
                files = ' COMPREPLY+=($(compgen -f -- "$cur"));' if " files" in p else ""
                lines.append(f"                {label}) {ids};{files} return;;")
            elif p:
                lines.append(f"                {label}) {reply(words(p))}; return;;")
        lines += ["            esac", "            ;;"]
    lines += ["    esac", "}", "_p2pcards_valued() {", '    case "$1" in']
    lines += [f"        {c.name}) echo {words(c.valued)};;" for c in found]
    lines += ["    esac", "}", "complete -F _p2pcards p2pcards"]
    return "\n".join(lines) + "\n"


# ============================================================================ fish


def fish_script(found: list[Command]) -> str:
    def q(text: str) -> str:
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"

    names = " ".join(c.name for c in found)
    lines = ["# p2pcards completion for fish:",
             "#   p2pcards completion fish > ~/.config/fish/completions/p2pcards.fish",
             "complete -c p2pcards -f"]
    first = f"not __fish_seen_subcommand_from {names}"
    for c in found:
        lines.append(f"complete -c p2pcards -n {q(first)} -a {c.name} -d {q(c.help)}")
        seen = f"__fish_seen_subcommand_from {c.name}"
        for option in c.options:
            values = c.values.get(option)
            extra = f" -x -a {q(' '.join(values))}" if values else (" -r" if option in c.valued else "")
            lines.append(f"complete -c p2pcards -n {q(seen)} -l {option.removeprefix('--')}{extra}")
        for p in c.positionals:
            if isinstance(p, str):
                kind = p.split()[0].removeprefix("ids:")
                ids = f"(p2pcards completion --ids {kind})"
                lines.append(f"complete -c p2pcards -n {q(seen)} -a {q(ids)}")
                if " files" in p:
                    lines.append(f"complete -c p2pcards -n {q(seen)} -F")
            elif p:
                lines.append(f"complete -c p2pcards -n {q(seen)} -a {q(' '.join(p))}")
    return "\n".join(lines) + "\n"


__all__ = ["SHELLS", "bash_script", "commands", "fish_script", "game_ids", "register", "run"]
