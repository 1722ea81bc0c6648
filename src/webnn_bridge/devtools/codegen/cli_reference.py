"""Generator: docs/cli.md, the command-line reference, rendered from the argparse parsers themselves
(bridge/cli.py's ``build_parser()`` with the ``policy`` subcommands it registers, and the parsers of
the developer tools wpt, oracle and fuzz), so that it cannot drift from what the commands accept.

The developer tools build their parser inside ``main()``; it is captured there, before it parses
anything. Defaults that depend on the machine (the cache folder, the checkout's path) are written
as the expressions they come from.
"""

from __future__ import annotations

import argparse
import importlib
import os
from collections.abc import Iterable
from pathlib import Path

from .header import COMMAND, HEADER_LINE, MARKER

DOC = Path("docs/cli.md")  # relative to the repository root
REPO = Path(__file__).resolve().parents[4]  # the repository (src/webnn_bridge/devtools/codegen/ in it)
DEVTOOLS = ("wpt", "oracle", "fuzz")  # subcommands whose parser lives in webnn_bridge.devtools.<name>
WIDTH = 100  # usage lines wrap here

INTRO = """\
Every command and option, as the parsers define them; `webnn-bridge COMMAND --help` prints the same.
The README and the pages in this folder explain what they are for.

Errors in arguments and input files (a missing or malformed profile, rules file or trace, an
unwritable `--out`) are reported in one line on stderr with exit status 2; an unknown flag shows
the usage of its subcommand."""


class _Captured(Exception):
    def __init__(self, parser: argparse.ArgumentParser):
        super().__init__(parser.prog)
        self.parser = parser


def devtool_parser(name: str) -> argparse.ArgumentParser:
    """The parser ``webnn_bridge.devtools.<name>.main`` builds, taken before it parses anything."""
    module = importlib.import_module(f"webnn_bridge.devtools.{name}")

    def capture(self, *_args, **_kwargs):
        raise _Captured(self)

    saved = argparse.ArgumentParser.parse_known_args
    argparse.ArgumentParser.parse_known_args = capture  # parse_args calls it too
    try:
        module.main([])
    except _Captured as c:
        return c.parser
    finally:
        argparse.ArgumentParser.parse_known_args = saved
    raise RuntimeError(f"webnn_bridge.devtools.{name}.main() returned without parsing its arguments")


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, tuple[argparse.ArgumentParser, str]]:
    """{name: (parser, its one-line help)} of a parser's subcommands, in their order."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            return {name: (sub, helps.get(name, "")) for name, sub in action.choices.items()}
    return {}


def _machine_free(text: str) -> str:
    """``text`` with this machine's paths written as the expressions they come from."""
    from webnn_bridge.backends.cache import default_cache_dir
    from webnn_bridge.bridge.tls import default_dir

    for real, shown in ((str(default_dir()), "$XDG_CACHE_HOME/webnn-bridge/tls"),
                        (str(default_cache_dir()), "$XDG_CACHE_HOME/webnn-bridge"),
                        (str(REPO.parent) + os.sep, "../")):
        text = text.replace(real, shown)
    return text


def _metavar(action: argparse.Action) -> str:
    if action.nargs == 0:
        return ""
    if action.metavar is not None:
        mv = action.metavar if isinstance(action.metavar, str) else " ".join(action.metavar)
    elif action.choices is not None:
        mv = "|".join(map(str, action.choices))
    elif action.option_strings:  # named after the flag (argparse names it after the dest: GLOBALS_)
        mv = max(action.option_strings, key=len).lstrip("-").upper().replace("-", "_")
    else:
        mv = action.dest.upper()
    if action.nargs == "?":
        return f"[{mv}]"
    if action.nargs in ("+", "*"):
        return f"{mv}..." if action.nargs == "+" else f"[{mv}...]"
    return mv


def _shown(actions: Iterable[argparse.Action]) -> list[argparse.Action]:
    return [a for a in actions if a.help is not argparse.SUPPRESS and not isinstance(a, argparse._HelpAction)
            and not isinstance(a, argparse._SubParsersAction)]


def _synopsis_part(action: argparse.Action) -> str:
    if not action.option_strings:
        return _metavar(action)
    flag = max(action.option_strings, key=len)
    mv = _metavar(action)
    text = f"{flag} {mv}" if mv else flag
    return text if action.required else f"[{text}]"


def _usage(prog: str, parser: argparse.ArgumentParser, tail: str = "") -> str:
    grouped = {id(a): g for g in parser._mutually_exclusive_groups for a in g._group_actions}
    parts, done = [], set()
    for action in _shown(parser._actions):
        group = grouped.get(id(action))
        if group is None:
            parts.append(_synopsis_part(action))
        elif id(group) not in done:
            done.add(id(group))
            members = [_synopsis_part(a).strip("[]") for a in _shown(group._group_actions)]
            parts.append(("(%s)" if group.required else "[%s]") % " | ".join(members))
    if tail:
        parts.append(tail)
    lines, line = [], prog
    for part in parts:
        if len(line) + 1 + len(part) > WIDTH and line.strip():
            lines.append(line)
            line = " " * (len(prog) + 1) + part
        else:
            line += " " + part
    lines.append(line)
    return "\n".join(lines)


def _help(action: argparse.Action, prog: str) -> str:
    text = action.help or ""
    if text:
        text = argparse.HelpFormatter(prog)._expand_help(action)
    default = action.default
    if "default" not in text and default not in (None, False, [], argparse.SUPPRESS) and action.nargs != 0:
        text = f"{text} (default {default})" if text else f"default {default}"
    if action.choices is not None and action.option_strings and action.metavar is not None:
        text += f" (one of {', '.join(map(str, action.choices))})"
    if action.required and action.option_strings:
        text = f"required; {text}" if text else "required"
    return " ".join(text.split()).replace("|", "\\|") or "–"


def _option_cell(action: argparse.Action) -> str:
    mv = _metavar(action)
    names = ", ".join(action.option_strings) if action.option_strings else mv
    if action.option_strings and mv:
        names += f" {mv}"
    return f"`{names}`".replace("|", "\\|")


def _section(level: str, prog: str, parser: argparse.ArgumentParser, summary: str) -> list[str]:
    subs = _subparsers(parser)
    out = [f"{level} `{prog}`", ""]
    about = summary or parser.description or ""
    if about:
        out += [" ".join(about.split()), ""]
    out += ["```", _usage(prog, parser, "COMMAND ..." if subs else ""), "```", ""]
    actions = _shown(parser._actions)
    if actions:
        out += ["| argument | meaning |", "|---|---|"]
        out += [f"| {_option_cell(a)} | {_help(a, prog)} |" for a in actions]
        out.append("")
    for name, (sub, help_) in subs.items():
        sub_prog = f"{prog} {name}"
        if name in DEVTOOLS:
            sub = devtool_parser(name)
        out += _section(level + "#", sub_prog, sub, help_)
    return out


def render() -> str:
    from webnn_bridge.bridge.cli import build_parser

    parser = build_parser()
    lines = ["# Command-line reference", "",
             f"<!-- {MARKER}: `{COMMAND}` writes this file from the argparse parsers "
             "(src/webnn_bridge/bridge/cli.py's build_parser() and the developer tools' own). " + HEADER_LINE + " -->", "", INTRO, ""]
    commands = _subparsers(parser)
    lines += ["| command | what |", "|---|---|"]
    lines += [f"| [`webnn-bridge {name}`](#webnn-bridge-{name}) | {' '.join(h.split())} |"
              for name, (_, h) in commands.items()]
    lines.append("")
    for name, (sub, help_) in commands.items():
        prog = f"webnn-bridge {name}"
        if name in DEVTOOLS:
            sub = devtool_parser(name)
        lines += _section("##", prog, sub, help_)
    return _machine_free("\n".join(lines).rstrip() + "\n")


def outputs(root: Path) -> dict[Path, str]:
    return {root / DOC: render()}
