"""A real file system that fails on demand: a FUSE pass-through (mfusepy, libfuse 3) over a
folder, whose writes and reads can be made to fail with EIO (a dying SD card) or EROFS (the
kernel remounted it read-only), below SQLite, and back.

Run as a process: ``python tests/support/faultyfs.py BACKING MOUNTPOINT CONTROL``; the fault
in force is the word in the file CONTROL (``ok``, ``eio``, ``erofs``), read at every call.
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

import mfusepy as fuse


class FaultyFS(fuse.Operations):  # type: ignore[misc]
    """Every call passes to the backing folder, unless the control file says to fail."""

    def __init__(self, backing: str, control: str) -> None:
        self.backing = backing
        self.control = control

    def _path(self, path: str) -> str:
        return os.path.join(self.backing, path.lstrip("/"))

    def _fault(self, writing: bool) -> None:
        try:
            word = Path(self.control).read_text().strip()
        except OSError:
            word = "ok"
        if word == "eio":
            raise fuse.FuseOSError(errno.EIO)
        if word == "erofs" and writing:
            raise fuse.FuseOSError(errno.EROFS)

    def getattr(self, path: str, fh: int | None = None) -> dict[str, int]:
        info = os.lstat(self._path(path))
        keys = (
            "st_mode",
            "st_nlink",
            "st_uid",
            "st_gid",
            "st_size",
            "st_atime",
            "st_mtime",
            "st_ctime",
        )
        return {key: getattr(info, key) for key in keys}

    def readdir(self, path: str, fh: int) -> list[str]:
        return [".", "..", *os.listdir(self._path(path))]

    def access(self, path: str, amode: int) -> int:
        if not os.access(self._path(path), amode):
            raise fuse.FuseOSError(errno.EACCES)
        return 0

    def open(self, path: str, flags: int) -> int:
        self._fault(bool(flags & (os.O_WRONLY | os.O_RDWR)) and False)
        return os.open(self._path(path), flags)

    def create(self, path: str, mode: int, fi: object = None) -> int:
        self._fault(True)
        return os.open(self._path(path), os.O_RDWR | os.O_CREAT, mode)

    def read(self, path: str, size: int, offset: int, fh: int) -> bytes:
        self._fault(False)
        return os.pread(fh, size, offset)

    def write(self, path: str, data: bytes, offset: int, fh: int) -> int:
        self._fault(True)
        return os.pwrite(fh, data, offset)

    def truncate(self, path: str, length: int, fh: int | None = None) -> None:
        self._fault(True)
        os.truncate(self._path(path), length)

    def fsync(self, path: str, datasync: int, fh: int) -> None:
        self._fault(True)
        os.fsync(fh)

    def flush(self, path: str, fh: int) -> None:
        return None

    def release(self, path: str, fh: int) -> None:
        os.close(fh)

    def unlink(self, path: str) -> None:
        self._fault(True)
        os.unlink(self._path(path))

    def rename(self, old: str, new: str) -> None:
        self._fault(True)
        os.rename(self._path(old), self._path(new))

    def mkdir(self, path: str, mode: int) -> None:
        self._fault(True)
        os.mkdir(self._path(path), mode)

    def chmod(self, path: str, mode: int) -> None:
        os.chmod(self._path(path), mode)

    def chown(self, path: str, uid: int, gid: int) -> None:
        os.chown(self._path(path), uid, gid)

    def utimens(self, path: str, times: tuple[float, float] | None = None) -> None:
        os.utime(self._path(path), times)

    def statfs(self, path: str) -> dict[str, int]:
        info = os.statvfs(self._path(path))
        keys = (
            "f_bavail",
            "f_bfree",
            "f_blocks",
            "f_bsize",
            "f_favail",
            "f_ffree",
            "f_files",
            "f_flag",
            "f_frsize",
            "f_namemax",
        )
        return {key: getattr(info, key) for key in keys}


if __name__ == "__main__":
    backing, mountpoint, control = sys.argv[1:4]
    fuse.FUSE(FaultyFS(backing, control), mountpoint, foreground=True, nothreads=True)
