"""The hint level kept with each game: the companion's word that the log's header has no key for.

What the table records of a hint (``count``, ``content`` or ``slots``; see
:mod:`companion.core.hint_level`) is kept in a settings row per game, ``hint_level/<id>``,
written in the transaction that stores the game (:meth:`Storage.new_game`) and read when
the game is taken up again. A game without one (stored before the levels existed, or
imported) says None.

>>> import tempfile
>>> from pathlib import Path
>>> from companion.storage import Storage
>>> from engine import GameSetup
>>> with tempfile.TemporaryDirectory() as tmp, Storage.open(Path(tmp)) as storage:
...     kept = storage.new_game(GameSetup(players=2), hint_level="content")
...     bare = storage.new_game(GameSetup(players=2))
...     game_hint_level(storage, kept), game_hint_level(storage, bare)
('content', None)
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any, Protocol


class _Settings(Protocol):
    """What reads a setting: the :class:`~companion.storage.database.Storage`."""

    def get_setting(self, key: str, default: Any = None) -> Any: ...


def _key(game_id: int) -> str:
    """The settings row of a game's hint level."""
    return f"hint_level/{game_id}"


def keep_hint_level(db: sqlite3.Connection, game_id: int, level: str | None) -> None:
    """Keep a new game's hint level, in the transaction that stores the game (None: none)."""
    if level is not None:
        db.execute(
            "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
            (_key(game_id), json.dumps(level)),
        )


def game_hint_level(storage: _Settings, game_id: int) -> str | None:
    """The hint level kept with a game, None if it has none."""
    level = storage.get_setting(_key(game_id))
    return level if isinstance(level, str) else None
