"""The end of a command whose reader went away: it dies of SIGPIPE, as Unix tools do.

``hanabi-companion history | head`` closes the pipe under the command's output; Python
ignores SIGPIPE and raises :class:`BrokenPipeError` instead, which would print a
traceback. :func:`until_the_reader_goes` runs a command so that it ends as ``cat`` or
``seq`` end (see docs/decisions/0045-commands-as-unix-tools.md).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable
from typing import NoReturn, TypeVar

Argument = TypeVar("Argument")
Result = TypeVar("Result")


def until_the_reader_goes(command: Callable[[Argument], Result], argument: Argument) -> Result:
    """``command(argument)``, stopped as Unix tools stop when the reader of their output
    goes away (``hanabi-companion history | head``): no traceback, no message; the
    process dies of SIGPIPE, as ``cat`` or ``seq`` do (the shell's status 141; see
    docs/decisions/0045-commands-as-unix-tools.md). Python itself ignores SIGPIPE and raises
    BrokenPipeError."""
    try:
        result = command(argument)
        sys.stdout.flush()  # a pipe closed under the last lines breaks here, not at exit
        return result
    except BrokenPipeError:
        _die_of_sigpipe()


def _die_of_sigpipe() -> NoReturn:
    """End the process as SIGPIPE ends a Unix tool whose reader went away."""
    # Whatever is still buffered goes nowhere: Python's last flush meets no broken pipe.
    nowhere = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):
            os.dup2(nowhere, stream.fileno())
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGPIPE)
    raise SystemExit(128 + signal.SIGPIPE)  # where SIGPIPE cannot kill: the shell's status
