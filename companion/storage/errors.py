"""The exceptions of storage: one tree under :class:`StorageError`, each leaf also the
builtin it matches (a missing game is a :class:`LookupError`, a full card an ``OSError``
with ``ENOSPC``, …), so a caller may catch either."""

from __future__ import annotations

import errno

from engine.errors import CompanionError

__all__ = [
    "CompanionRunningError",
    "DamagedGameError",
    "GameStateError",
    "StorageError",
    "StorageFullError",
    "UnknownGameError",
]


class StorageError(CompanionError, OSError):
    """The games database cannot be used: unwritable directory, disk error, missing game…"""


class UnknownGameError(StorageError, LookupError):
    """No stored game has that id."""


class DamagedGameError(StorageError):
    """A stored game's lines do not parse or do not replay (the database was tampered with)."""

    def __init__(self, message: str, game_id: int | None = None) -> None:
        super().__init__(message)
        #: The damaged game, when the error is about one game.
        self.game_id = game_id


class StorageFullError(StorageError):
    """The file system (the SD card) is full: nothing was written, nothing changed."""

    def __init__(self, message: str) -> None:
        super().__init__(errno.ENOSPC, message)

    def __str__(self) -> str:
        return str(self.strerror)


class CompanionRunningError(StorageError, BlockingIOError):
    """Another companion holds the data directory's lock: one companion per data directory."""

    def __init__(self, message: str) -> None:
        super().__init__(errno.EAGAIN, message)

    def __str__(self) -> str:
        return str(self.strerror)


class GameStateError(StorageError, ValueError):
    """The request does not fit the game's state (e.g. an action for an abandoned game)."""
