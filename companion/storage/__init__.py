"""The games database: every game as its ``hanabi-log/1`` log, in one SQLite file.

A stored game *is* its log (GAME-LOG.md): the ``games`` row keeps the header
line, the ``actions`` table keeps one JSON line per action, so an export is
the header followed by the lines, and ``replay`` works on it unchanged. The
``games`` row also keeps a summary (players, variant, score, rating, …) for
the history and statistics screens, and ``settings`` remembers set-up choices.

Durability: every write method runs in its own ``BEGIN IMMEDIATE … COMMIT``
and returns only once SQLite has committed it (WAL journal,
``synchronous=FULL``), so an action the screen shows is on disk; a writer
killed mid-call loses at most the action it had not yet confirmed.

The file is ours only if SQLite says so: a file that is not a database, a
damaged one, one of another program (another ``application_id``) or of a
newer schema is renamed aside (with its ``-wal``/``-shm`` files), never
overwritten, and :attr:`Storage.notice` says so in words.

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
from companion.storage.errors import (
    CompanionRunningError,
    DamagedGameError,
    GameStateError,
    StorageError,
    StorageFullError,
    UnknownGameError,
)
from companion.storage.files import BUSY_TIMEOUT_MS, default_data_dir
from companion.storage.full import FULL_BELOW_BYTES
from companion.storage.ledger import LEDGER_FINDINGS, LEDGER_NAME, Ledger, LedgerState
from companion.storage.lock import LOCK_NAME, DataDirLock
from companion.storage.phones import PHONE_ANSWERS_KEPT
from companion.storage.schema import APPLICATION_ID, SCHEMA_VERSION
from companion.vocabulary.phone import PhoneReceipt
from companion.vocabulary.records import (
    GameStatus,
    GameToImport,
    HistoryPage,
    HistoryRow,
    ImportedGame,
    StatsRow,
    StoredEntry,
    StoredGame,
)

__all__ = [
    "APPLICATION_ID",
    "BUSY_TIMEOUT_MS",
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
    "GameStateError",
    "GameStatus",
    "GameToImport",
    "HistoryPage",
    "HistoryRow",
    "ImportedGame",
    "Ledger",
    "LedgerState",
    "PhoneReceipt",
    "StatsRow",
    "Storage",
    "StorageError",
    "StorageFullError",
    "StoredEntry",
    "StoredGame",
    "UnknownGameError",
    "default_data_dir",
]
