"""The games database: every game as its ``hanabi-log/1`` log, in one SQLite file.

A stored game *is* its log (GAME-LOG.md): the ``games`` row keeps the header
line, the ``actions`` table keeps one JSON line per action, so an export is
the header followed by the lines, and ``replay`` works on it unchanged. The
``games`` row also keeps a summary (players, variant, score, rating, …) for
the history and statistics screens, and ``settings`` remembers set-up choices.

Everything the other layers use is imported from here. Where each part lives:

- :mod:`~companion.storage.database`: the :class:`Storage` class, every read and write;
- :mod:`~companion.storage.opening`: opening a data directory's file (examined, set aside,
  created or upgraded, compared with the ledger);
- :mod:`~companion.storage.schema`: the tables, the migrations, the probes of a file;
- :mod:`~companion.storage.chain`: the BLAKE2b link chain of a game's lines;
- :mod:`~companion.storage.reading`: reading stored games back (history rows, statistics);
- :mod:`~companion.storage.importing`: importing games read from logs;
- :mod:`~companion.storage.ends`: the end line that proves an exported log whole;
- :mod:`~companion.storage.phones`: the answers kept for phones' requests;
- :mod:`~companion.storage.damage`: a file that is not ours moved aside, the journal's
  checksums, a damaged journal kept;
- :mod:`~companion.storage.ledger`: the ledger beside the database, and comparing with it;
- :mod:`~companion.storage.findings`: the findings kept until a player has seen them;
- :mod:`~companion.storage.lock`: the data directory's lock;
- :mod:`~companion.storage.full`: a full SD card told apart from other I/O errors;
- :mod:`~companion.storage.hint_levels`: the hint level kept with each game;
- :mod:`~companion.storage.files`: the directory and file on disk, connections, time stamps;
- :mod:`~companion.storage.handles`: one handle on the file per process;
- :mod:`~companion.storage.errors`: the exceptions, under :class:`StorageError`;
- :mod:`companion.vocabulary.records`: the records handed to the other layers (re-exported).

>>> import tempfile
>>> from pathlib import Path
>>> from engine import GameSetup, Play
>>> from engine.cards import Card
>>> with tempfile.TemporaryDirectory() as tmp, Storage.open(Path(tmp)) as storage:
...     game_id = storage.new_game(GameSetup(players=2, names=("Ann", "Bo")))
...     storage.append_action(game_id, Play(Card.from_code("R1")))
...     print(storage.export(game_id), end="")
{"format": "hanabi-log/1", "players": 2, "names": ["Ann", "Bo"]}
{"action": "play", "card": "R1"}
"""

from companion.storage.database import HISTORY_PAGE, Storage
from companion.storage.ends import END_MISSING, END_PREFIX, end_damaged, end_line, end_problem
from companion.storage.errors import (
    CompanionRunningError,
    DamagedGameError,
    GameStateError,
    StorageError,
    StorageFullError,
    UnknownGameError,
)
from companion.storage.files import BUSY_TIMEOUT_MS, default_data_dir
from companion.storage.findings import FINDINGS_NAME, kept_findings
from companion.storage.full import FULL_BELOW_BYTES
from companion.storage.hint_levels import game_hint_level
from companion.storage.ledger import LEDGER_FINDINGS, LEDGER_NAME, Ledger, LedgerState
from companion.storage.lock import LOCK_NAME, DataDirLock
from companion.storage.phones import PHONE_ANSWERS_KEPT
from companion.storage.schema import APPLICATION_ID, SCHEMA_VERSION
from companion.vocabulary.phone import PhoneReceipt
from companion.vocabulary.records import (
    Finding,
    GameStatus,
    GameToImport,
    HistoryPage,
    HistoryRow,
    ImportedGame,
    PlayerStatsRow,
    StatsRow,
    StoredEntry,
    StoredGame,
)

__all__ = [
    "APPLICATION_ID",
    "BUSY_TIMEOUT_MS",
    "END_MISSING",
    "END_PREFIX",
    "FINDINGS_NAME",
    "FULL_BELOW_BYTES",
    "HISTORY_PAGE",
    "LEDGER_FINDINGS",
    "LEDGER_NAME",
    "LOCK_NAME",
    "PHONE_ANSWERS_KEPT",
    "SCHEMA_VERSION",
    "CompanionRunningError",
    "DamagedGameError",
    "DataDirLock",
    "Finding",
    "GameStateError",
    "GameStatus",
    "GameToImport",
    "HistoryPage",
    "HistoryRow",
    "ImportedGame",
    "Ledger",
    "LedgerState",
    "PhoneReceipt",
    "PlayerStatsRow",
    "StatsRow",
    "Storage",
    "StorageError",
    "StorageFullError",
    "StoredEntry",
    "StoredGame",
    "UnknownGameError",
    "default_data_dir",
    "end_damaged",
    "end_line",
    "end_problem",
    "game_hint_level",
    "kept_findings",
]
