"""The exceptions of storage, one tree under :class:`StorageError`.

Each leaf is also the builtin it matches (a missing game is a :class:`LookupError`, a full
card an ``OSError`` with ``ENOSPC``, …), so a caller may catch either.
"""

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
    """The root of storage's errors: the games database cannot be used (an unwritable directory,
    a disk error, a missing game…)."""


class UnknownGameError(StorageError, LookupError):
    """The error of a game id that no stored game has."""


class DamagedGameError(StorageError):
    """The error of a stored game whose lines do not parse or do not replay (the database was
    tampered with, or its bytes damaged)."""

    def __init__(self, message: str, game_id: int | None = None) -> None:
        super().__init__(message)
        #: The damaged game, when the error is about one game.
        self.game_id = game_id


class StorageFullError(StorageError):
    """The error of a full file system (the SD card): nothing was written, nothing changed."""

    def __init__(self, message: str) -> None:
        super().__init__(errno.ENOSPC, message)

    def __str__(self) -> str:
        return str(self.strerror)


class CompanionRunningError(StorageError, BlockingIOError):
    """The error of a data directory whose lock another companion holds: one companion per
    data directory."""

    def __init__(self, message: str) -> None:
        super().__init__(errno.EAGAIN, message)

    def __str__(self) -> str:
        return str(self.strerror)


class GameStateError(StorageError, ValueError):
    """The error of a request that does not fit the game's state (e.g. an action for an
    abandoned game)."""
