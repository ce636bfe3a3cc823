"""The end line of an exported log, which proves the lines above it are the game's, all of them.

Every export (``export``, ``export --all``, the phones' download) ends with a comment line,
which every reader of hanabi-log/1 skips::

    # hanabi-companion end: {"game": 3, "actions": 59, "link": "<32 hex digits>"}

``link`` is the last link of the game's chain (:mod:`companion.storage.chain`) computed over
the header line and the action lines as written, from the game's number; ``import`` computes
it again, so a file cut at a line boundary, with lines swapped or edited, does not match. A
game damaged in the database is exported as far as it replays, and its end line says
``"damaged": true``.
"""

from __future__ import annotations

import json
from typing import Final

from companion.storage.chain import _chain_next, _chain_start

END_PREFIX: Final = "# hanabi-companion end: "
"""The start of an exported log's last line (a JSON object follows)."""


END_MISSING: Final = "its end line is missing, so it may have been cut"
"""What :func:`end_problem` says of a file without an end line (a hand-written log too)."""


def _log_lines(text: str) -> list[str]:
    """The header and action lines of a log's text: every line but blanks and comments."""
    lines = (line.removesuffix("\r") for line in text.split("\n"))
    return [line for line in lines if line.strip() and not line.lstrip().startswith("#")]


def _link(game_id: int, lines: list[str]) -> tuple[int, str]:
    """How many actions follow the header, and the chain's last link over them (hex)."""
    if not lines:
        return 0, ""
    link = _chain_start(game_id, lines[0].encode())
    for line in lines[1:]:
        link = _chain_next(link, line.encode())
    return len(lines) - 1, link.hex()


def end_line(game_id: int, text: str, *, damaged: bool = False) -> str:
    """The end line for the exported log ``text`` of game ``game_id`` (with its newline)."""
    actions, link = _link(game_id, _log_lines(text))
    record: dict[str, object] = {"game": game_id, "actions": actions, "link": link}
    if damaged:
        record["damaged"] = True
    return END_PREFIX + json.dumps(record) + "\n"


def end_problem(text: str) -> str | None:
    """Why ``text`` is not a whole export (its end line missing, or not matching its lines);
    None if its end line vouches for every line above it."""
    last = next((line.strip() for line in reversed(text.split("\n")) if line.strip()), "")
    if not last.startswith(END_PREFIX.strip()):
        return END_MISSING
    try:
        record = json.loads(last[len(END_PREFIX.strip()) :])
    except ValueError:
        record = None
    if (
        not isinstance(record, dict)
        or type(record.get("game")) is not int
        or type(record.get("actions")) is not int
        or not isinstance(record.get("link"), str)
    ):
        return "its end line is not one that export writes"
    actions, link = _link(record["game"], _log_lines(text))
    if actions != record["actions"]:
        return f"it holds {actions} actions where its end line says {record['actions']}"
    if link != record["link"]:
        return "its lines are not those exported (one was changed or moved)"
    return None


def end_damaged(text: str) -> bool:
    """Whether the end line of ``text`` says the game was damaged when exported."""
    last = next((line.strip() for line in reversed(text.split("\n")) if line.strip()), "")
    try:
        record = json.loads(last[len(END_PREFIX.strip()) :])
    except ValueError:
        return False
    return isinstance(record, dict) and record.get("damaged") is True
