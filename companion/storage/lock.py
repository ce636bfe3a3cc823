"""The data directory's lock: one companion per data directory, held with ``flock``."""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from types import TracebackType
from typing import Final

from companion.storage.errors import CompanionRunningError, StorageError
from companion.storage.files import _ensure_directory

LOCK_NAME: Final = "companion.lock"
"""The file in the data directory a running companion holds locked (``flock``)."""


class DataDirLock:
    """The data directory's lock: an exclusive ``flock`` on :data:`LOCK_NAME`, so that one
    companion runs per data directory.

    The kernel drops the lock when the process ends, however it ends (a crash, ``kill -9``, a
    power cut), so a stale lock never blocks a restart. The file keeps the holder's process id,
    for the sentence the second companion prints.
    """

    def __init__(self, data_dir: Path) -> None:
        """Take the lock; :class:`CompanionRunningError` if another process holds it."""
        data_dir = Path(data_dir)
        _ensure_directory(data_dir)
        self.path = data_dir / LOCK_NAME
        try:
            self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as error:
            raise StorageError(
                f"Could not open the lock file {self.path}: {error.strerror or error}"
            ) from error
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_pid(self._fd)
            os.close(self._fd)
            self._fd = None
            who = f" (process {holder})" if holder else ""
            raise CompanionRunningError(
                f"Another companion{who} is already running on the data directory {data_dir};"
                " only one may use it at a time"
            ) from None
        except OSError as error:
            os.close(self._fd)
            self._fd = None
            raise StorageError(f"Could not lock {self.path}: {error.strerror or error}") from error
        with contextlib.suppress(OSError):  # the id is a courtesy: a full card keeps the lock
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, f"{os.getpid()}\n".encode(), 0)

    def release(self) -> None:
        """Let the lock go (closing the file releases it). Idempotent."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)

    def __enter__(self) -> DataDirLock:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.release()


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
