"""The ``hanabi-companion`` command line.

Each command imports what it needs when it runs, so ``replay`` starts fast
and never imports pygame.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

EXIT_RULE_BROKEN = 1
EXIT_INVALID_LOG = 2


def replay_command(args: argparse.Namespace) -> int:
    """Apply each log with the rules engine and print one summary line per file."""
    from engine.log import LogFormatError, LogRuleError, replay_log, summary

    outputs = []
    for path in args.files:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            print(f"{path}:1: cannot read the file ({error})", file=sys.stderr)
            return EXIT_INVALID_LOG
        try:
            game = replay_log(text)
        except LogFormatError as error:
            print(f"{path}:{error.line}: {error.reason}", file=sys.stderr)
            return EXIT_INVALID_LOG
        except LogRuleError as error:
            print(f"{path}:{error.line}: {error.reason}", file=sys.stderr)
            return EXIT_RULE_BROKEN
        outputs.append(json.dumps(summary(game), ensure_ascii=False))
    # Nothing is printed unless every file replays: a failing run prints no summary.
    sys.stdout.write("".join(line + "\n" for line in outputs))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hanabi-companion",
        description="A table companion for Hanabi: rules referee, scoreboard and game journal.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    replay = commands.add_parser("replay", help="apply game logs and print their summaries")
    replay.add_argument("files", nargs="+", metavar="FILE", help="hanabi-log/1 files")
    replay.set_defaults(handler=replay_command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    return handler(args)


if __name__ == "__main__":
    sys.exit(main())
