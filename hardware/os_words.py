"""Why a file or a device could not be used, in words: the system's errors a player or a
tinkerer meets, without ``[Errno 2]``, a codec's name or an ``ioctl`` tuple.

The hardware, the shell and the panel read files and open devices; the engine does none
of that, so these words live here, beside the hardware.
"""

from __future__ import annotations

import errno
import re

#: The system's reasons a player or a tinkerer meets, in words; any other is the system's
#: own sentence (``strerror``), without its number.
_REASONS = {
    errno.ENOENT: "it does not exist",
    errno.EACCES: "permission denied",
    errno.EPERM: "the operation is not permitted",
    errno.EISDIR: "it is a folder, not a file",
    errno.ENOTDIR: "a part of its path is not a folder",
    errno.ENOTTY: "it is not a terminal or serial device",
    errno.ENODEV: "no such device",
    errno.ENXIO: "no such device",
    errno.EBUSY: "it is in use by another program",
    errno.EIO: "input/output error (the device or the card is failing, or was unplugged)",
    errno.ENOSPC: "the disk is full",
    errno.EROFS: "the file system is read-only",
    errno.ELOOP: "too many symbolic links",
    errno.ENAMETOOLONG: "the name is too long",
}
#: What :func:`reason_in_words` strips (a pattern ``re`` compiles with the first error).
_PYTHON_INTERNALS = r"\[Errno \d+\] ?|: '[^']*'$"


def reason_in_words(error: BaseException) -> str:
    """Why reading or opening something failed, in words: no ``[Errno 2]``, no codec
    name, no ``(25, '...')`` tuple. One place for the whole project's messages.

    >>> reason_in_words(FileNotFoundError(2, "No such file or directory", "/x"))
    'it does not exist'
    >>> reason_in_words(UnicodeDecodeError("utf-8", b"\\xff", 0, 1, "invalid start byte"))
    'it is not UTF-8 text'
    >>> reason_in_words(OSError(5, "Input/output error"))
    'input/output error (the device or the card is failing, or was unplugged)'
    >>> reason_in_words(OSError("could not open port /x: [Errno 13] Permission denied: '/x'"))
    'could not open port /x: Permission denied'
    """
    if isinstance(error, UnicodeError):
        return "it is not UTF-8 text"
    code, system_words = _system_reason(error)
    if code in _REASONS:
        return _REASONS[code]
    if system_words:
        return system_words[:1].lower() + system_words[1:]
    return re.sub(_PYTHON_INTERNALS, "", str(error)) or type(error).__name__


def _system_reason(error: BaseException) -> tuple[int | None, str | None]:
    """The errno and the system's sentence behind ``error``, or behind what caused it (a
    library wraps the system's error in its own, e.g. pyserial's ``termios.error``)."""
    seen: BaseException | None = error
    for _ in range(4):  # the error, and the few it was raised from
        if seen is None:
            break
        if isinstance(seen, OSError) and isinstance(seen.errno, int):
            return seen.errno, seen.strerror
        arguments = seen.args
        if len(arguments) == 2 and isinstance(arguments[0], int) and isinstance(arguments[1], str):
            return arguments[0], arguments[1]  # termios.error(25, "Inappropriate ioctl ...")
        seen = seen.__cause__ or seen.__context__
    return None, None
