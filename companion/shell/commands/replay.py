"""The ``replay`` command: each log applied with the rules engine, one summary line each."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.game import Game
from engine.log import LogFormatError, LogRuleError, replay_revealed, summary
from engine.reveal import Reveals
from hardware.os_words import reason_in_words

EXIT_RULE_BROKEN = 1
EXIT_INVALID_LOG = 2


def replay_file(path: Path) -> tuple[Game, Reveals] | int:
    """The game a log file folds into and the hands shown at its end, or the exit code
    after saying why on stderr."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:  # no line to name: the file itself
        print(f"{path}: cannot read the file: {reason_in_words(error)}", file=sys.stderr)
        return EXIT_INVALID_LOG
    try:
        # utf-8-sig: a byte-order mark, as some editors save, is not part of the log
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        print(f"{path}:{line}: bytes that are not UTF-8 text (a log is UTF-8)", file=sys.stderr)
        return EXIT_INVALID_LOG
    try:
        return replay_revealed(text)
    except LogFormatError as error:
        print(f"{path}:{error.line}: {error.reason}", file=sys.stderr)
        return EXIT_INVALID_LOG
    except LogRuleError as error:
        print(f"{path}:{error.line}: {error.reason}", file=sys.stderr)
        return EXIT_RULE_BROKEN


def replay_command(args: argparse.Namespace) -> int:
    """Apply each log with the rules engine and print one summary line per file."""
    worst = 0
    for path in args.files:
        replayed = replay_file(path)
        if isinstance(replayed, int):
            # An invalid log (2) is worse than a broken rule (1), which is worse than none.
            worst = max(worst, replayed)
            continue
        sys.stdout.write(json.dumps(summary(*replayed), ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return worst
