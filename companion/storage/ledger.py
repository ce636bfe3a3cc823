"""The ledger, a small file beside the database that remembers what it held.

It is noted after each confirmed write; comparing the database with it at opening finds
games or actions gone, or a file emptied: losses a truncation of the database cannot hide.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import struct
import zlib
from pathlib import Path
from typing import Final

from msgspec import Struct
from msgspec.structs import asdict

log = logging.getLogger("hanabi-companion.storage")

LEDGER_NAME: Final = "games.ledger"
"""The small file beside the database that remembers what it held (:class:`Ledger`)."""

LEDGER_FINDINGS: Final = frozenset({"database_emptied", "games_missing", "actions_missing"})
"""The keys of what comparing with the ledger finds (:func:`_compare_with_ledger`): storage has
no sentence of its own for these in :attr:`Storage.notice <companion.storage.Storage.notice>`;
its caller words them (:mod:`companion.core.i18n`)."""


class LedgerState(Struct, frozen=True):
    """What the database held after its last confirmed write."""

    #: Rows in the table of games, and the highest id given.
    games: int = 0
    last_id: int = 0
    #: The game in play (None if none), and its saved actions.
    game: int | None = None
    actions: int = 0


_LEDGER_SLOT = 512
_LEDGER_MAGIC = b"HNBL"


class Ledger:
    """The ledger file: 1 KiB beside the database, two 512-byte slots written in turn (each
    with a sequence number and a CRC), so a write cut by a power cut leaves the other slot whole.

    It remembers how many games the file held and how many actions the game in play had, as
    of the last confirmed write: a database emptied, a game row deleted, or a journal cut
    (the last actions gone with it) then shows at the next opening. One ``pwrite`` of a
    sector and one ``fdatasync`` per write; no rename, no directory update.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        #: What the ledger held when opened (None: new, or both slots damaged).
        self.state: LedgerState | None = None
        self._sequence = 0
        try:
            data = os.pread(self._fd, 2 * _LEDGER_SLOT, 0)
        except OSError:
            self.close()
            raise
        best = _best_slot(data)
        #: Bytes were there but no slot reads back: the ledger itself was damaged.
        self.damaged = best is None and any(data)
        if best is not None:
            self._sequence, self.state = best
        self._written = self.state

    @staticmethod
    def look(path: Path) -> LedgerState | None:
        """What the ledger at ``path`` holds, read without creating or writing it (for the
        read-only commands); None if there is none, or it cannot be read."""
        try:
            with path.open("rb") as file:
                data = file.read(2 * _LEDGER_SLOT)
        except OSError:
            return None
        best = _best_slot(data)
        return None if best is None else best[1]

    def write(self, state: LedgerState) -> None:
        """Note ``state`` (nothing is written if it is what the ledger holds)."""
        if state == self._written or self._fd is None:
            return
        self._sequence += 1
        payload = json.dumps(
            {"seq": self._sequence, **asdict(state)}, separators=(",", ":")
        ).encode()
        record = _LEDGER_MAGIC + struct.pack(">IH", zlib.crc32(payload), len(payload)) + payload
        os.pwrite(self._fd, record.ljust(_LEDGER_SLOT, b"\0"), (self._sequence % 2) * _LEDGER_SLOT)
        os.fdatasync(self._fd)
        self._written = state

    def close(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)


def _best_slot(data: bytes) -> tuple[int, LedgerState] | None:
    """The newer of the ledger's two slots that read back (sequence number and state)."""
    best: tuple[int, LedgerState] | None = None
    for slot in range(2):
        found = _read_slot(data[slot * _LEDGER_SLOT : (slot + 1) * _LEDGER_SLOT])
        if found is not None and (best is None or found[0] > best[0]):
            best = found
    return best


def _read_slot(data: bytes) -> tuple[int, LedgerState] | None:
    """A slot's sequence number and state, or None if it is empty or damaged."""
    if len(data) < 10 or not data.startswith(_LEDGER_MAGIC):
        return None
    crc, size = struct.unpack(">IH", data[4:10])
    payload = data[10 : 10 + size]
    if len(payload) != size or zlib.crc32(payload) != crc:
        return None
    try:
        fields = json.loads(payload)
        state = LedgerState(
            games=int(fields["games"]),
            last_id=int(fields["last_id"]),
            game=None if fields["game"] is None else int(fields["game"]),
            actions=int(fields["actions"]),
        )
        return int(fields["seq"]), state
    except (ValueError, TypeError, KeyError):
        return None


def _ledger_state(db: sqlite3.Connection) -> LedgerState:
    """What the database holds now (read in the caller's transaction, if any)."""
    games, last_id = db.execute("SELECT COUNT(*), COALESCE(MAX(id), 0) FROM games").fetchone()
    row = db.execute(
        "SELECT id, actions_count FROM games WHERE status = 'playing' ORDER BY id DESC LIMIT 1"
    ).fetchone()
    if row is None or not isinstance(row[1], int):
        return LedgerState(games, last_id)
    return LedgerState(games, last_id, row[0], row[1])


def _compare_with_ledger(
    db: sqlite3.Connection,
    before: LedgerState | None,
    path: Path,
    kind: str,
    *,
    quiet: bool = False,
) -> list[tuple[str, dict[str, object]]]:
    """What the file lost since the ledger's last note, as findings (key, parameters);
    logged unless ``quiet`` (a read-only command says them itself)."""
    warn = log.debug if quiet else log.warning
    if before is None or before.games == 0:
        return []
    if kind != "new":  # a table of games left empty (a start cut after creating it) too
        kind = "new" if db.execute("SELECT 1 FROM games LIMIT 1").fetchone() is None else kind
    if kind == "new":  # missing, or 0 bytes: every game is gone
        warn("%s is empty or missing; its ledger says it held %d games", path, before.games)
        return [("database_emptied", {"games": before.games})]
    found: list[tuple[str, dict[str, object]]] = []
    # Counted by SQLite (on the smallest index); the ids are listed only when some are gone.
    (held_games,) = db.execute(
        "SELECT COUNT(*) FROM games WHERE id <= ?", (before.last_id,)
    ).fetchone()
    missing: list[int] = []
    if held_games < before.games:
        ids = {
            game_id
            for (game_id,) in db.execute("SELECT id FROM games WHERE id <= ?", (before.last_id,))
        }
        missing = [game_id for game_id in range(1, before.last_id + 1) if game_id not in ids]
    if missing:
        listed = ", ".join(str(game_id) for game_id in missing[:8])
        if len(missing) > 8:
            listed += ", …"
        warn("%s: games missing from the table of games: %s", path, listed)
        found.append(("games_missing", {"games": listed}))
    if (
        before.game is not None
        and db.execute("SELECT 1 FROM games WHERE id = ?", (before.game,)).fetchone() is not None
    ):
        (held,) = db.execute(
            "SELECT COUNT(*) FROM actions WHERE game_id = ?", (before.game,)
        ).fetchone()
        if held < before.actions:
            warn(
                "%s: game %d holds %d actions; %d were saved",
                path,
                before.game,
                held,
                before.actions,
            )
            found.append(
                ("actions_missing", {"game": before.game, "missing": before.actions - held})
            )
    return found
