"""The door of the page for phones: a process of its own that accepts the connections
and closes, unread, those of an address closed for its refusals (issue 37, 0126).

The server (:mod:`companion.web.server`) runs in a thread of the app, whose interpreter
the panel shares. Under 1,000 unpaired POSTs a second from a few addresses, the work of
accepting and closing the connections of addresses it had closed kept the panel's
key-to-frame p99 half again over idle. The door does that work in another process: the
server tells it which addresses are closed and until when (:meth:`Door.close_to`); the
door hands every other connection over a Unix socket (``SCM_RIGHTS``), with its peer's
address, and says now and then how many it closed.

Nothing depends on it to be right: the server checks each connection handed to it as it
checked those it accepted itself, and accepts by itself again if the door cannot start
or stops (:class:`Door` says so in one line). The door's process imports the standard
library and :mod:`companion.web.peer` only, and needs no privilege.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import selectors
import signal
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from companion.web.peer import MAX_KEYS, address_key

if TYPE_CHECKING:
    import asyncio
    import subprocess

log = logging.getLogger("hanabi-companion")

#: Connections accepted (or handed over) at a time before looking at the others.
AT_ONCE = 64
#: How often at most the door says how many connections it closed.
REPORT_SECONDS = 1.0
#: When the descriptors run out, accept again after this long (as asyncio does), and
#: say so at most once a minute.
ACCEPT_AGAIN = 1.0
SAY_AGAIN = 60.0
OUT_OF_RESOURCES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
#: How long the server waits for a door that closed its socket to end.
STOP_WAIT = 2.0
#: The largest message between the two (an address and a time).
MESSAGE = 256
#: The door's niceness: under a flood the panel's frames come first (issue 37: the
#: unpaired flood's p99 1.12 times idle at 19, 1.21 at the app's own; keep it).
DOOR_NICE = 19


# -- the door's process ---------------------------------------------------------


class _Doorway:
    """The door's state: the closed addresses (key: until, on the system's monotonic
    clock, which both processes read), and what it has not said yet."""

    def __init__(self, control: socket.socket, clock: Callable[[], float]) -> None:
        self.control = control
        self.clock = clock
        self.closed: dict[str, float] = {}
        self.unreported = 0
        self.reported_at = clock()
        self.failed_said_at: float | None = None
        self.failed_unsaid = 0

    def read_orders(self) -> bool:
        """Take the server's orders waiting; False once the server is gone."""
        while True:
            try:
                order = self.control.recv(MESSAGE, socket.MSG_DONTWAIT)
            except (BlockingIOError, InterruptedError):
                return True
            except OSError:
                return False
            if not order:
                return False
            key, _, until = order[1:].decode("ascii", "replace").rpartition(" ")
            if order[:1] == b"-" and key:
                with contextlib.suppress(ValueError):
                    self.closed[key] = float(until)
            if len(self.closed) > MAX_KEYS:  # closed for a minute: forget the past ones
                now = self.clock()
                self.closed = {k: t for k, t in self.closed.items() if t > now}

    def accept(self, listening: socket.socket) -> bool:
        """Every connection waiting (up to :data:`AT_ONCE`): closed, or handed over;
        False once the server is gone."""
        for _ in range(AT_ONCE):
            try:
                connection, peer = listening.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return True
            except OSError as error:
                if error.errno not in OUT_OF_RESOURCES:
                    raise
                self._out_of_resources(error)
                time.sleep(ACCEPT_AGAIN)
                return True
            remote = str(peer[0]) if isinstance(peer, tuple) and peer else ""
            with connection:
                until = self.closed.get(address_key(remote))
                if until is not None and until > self.clock():
                    self.unreported += 1
                    continue
                try:
                    socket.send_fds(self.control, [b"+" + remote.encode()], [connection.fileno()])
                except OSError:
                    return False
        return True

    def report(self) -> float | None:
        """Say how many were closed, at most every :data:`REPORT_SECONDS`; how long
        until the next report is due (None: nothing to say)."""
        if not self.unreported:
            return None
        waited = self.clock() - self.reported_at
        if waited < REPORT_SECONDS:
            return REPORT_SECONDS - waited
        with contextlib.suppress(OSError):
            self.control.send(b"=%d" % self.unreported)
        self.unreported, self.reported_at = 0, self.clock()
        return None

    def _out_of_resources(self, error: OSError) -> None:
        now = self.clock()
        if self.failed_said_at is not None and now - self.failed_said_at < SAY_AGAIN:
            self.failed_unsaid += 1
            return
        more = f" (and {self.failed_unsaid} more in the last minute)" if self.failed_unsaid else ""
        reason = (error.strerror or "").lower()
        print(f"web: socket.accept() out of system resource: {reason}{more}", file=sys.stderr)
        sys.stderr.flush()
        self.failed_said_at, self.failed_unsaid = now, 0


def run_door(
    listening: list[socket.socket],
    control: socket.socket,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """The door's loop: until the server closes its end of ``control``."""
    doorway = _Doorway(control, clock)
    control.setblocking(True)  # handing a connection over waits for the server
    with selectors.DefaultSelector() as selector:
        for sock in listening:
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ)
        selector.register(control, selectors.EVENT_READ)
        timeout: float | None = None
        while True:
            ready = [key.fileobj for key, _ in selector.select(timeout)]
            # the orders first: an address closed a moment ago is closed for what waits
            if control in ready and not doorway.read_orders():
                return
            for sock in listening:
                if sock in ready and not doorway.accept(sock):
                    return
            timeout = doorway.report()


def main(arguments: list[str]) -> int:
    """``python -m companion.web.door CONTROL LISTENING...`` (descriptors), as
    :class:`Door` starts it."""
    # It ends when the server kills it at stop, or closes its socket (the app's process
    # ended): Ctrl-C in a terminal and systemd's SIGTERM are the app's to act on.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    # The panel first: the door's work is never urgent. Lowering one's own priority
    # needs no privilege (the unit lets ``setpriority`` through for it); a filter that
    # refuses it leaves the door at the app's priority, working as well.
    with contextlib.suppress(OSError):
        os.nice(DOOR_NICE)
    control = socket.socket(fileno=int(arguments[0]))
    listening = [socket.socket(fileno=int(number)) for number in arguments[1:]]
    run_door(listening, control)
    return 0


# -- the server's side ----------------------------------------------------------


class Door:
    """The server's side of the door: it starts the process, takes the connections it
    hands over (``admit``), tells it the closed addresses, and hears how many it closed
    (``closed``). All of it runs in the server's loop."""

    def __init__(
        self,
        listening: list[socket.socket],
        admit: Callable[[socket.socket, str], None],
        closed: Callable[[int], None],
        lost: Callable[[str], None],
    ) -> None:
        self.listening = listening
        self.admit = admit
        self.closed = closed
        self.lost = lost
        #: Connections the door closed unread, as it said.
        self.turned_away = 0
        self.control: socket.socket | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def open(self, loop: asyncio.AbstractEventLoop) -> bool:
        """Start the door's process; False (said in a line) if it cannot start."""
        import subprocess

        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        numbers = [theirs.fileno(), *(sock.fileno() for sock in self.listening)]
        root = str(Path(__file__).resolve().parents[2])
        path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "companion.web.door", *map(str, numbers)],
                pass_fds=numbers,
                stdin=subprocess.DEVNULL,
                env={**os.environ, "PYTHONPATH": path},
            )
        except (OSError, ValueError) as error:
            ours.close()
            log.warning("web: the door cannot start (%s): connections are accepted here", error)
            return False
        finally:
            theirs.close()
        ours.setblocking(False)
        self.control, self._loop = ours, loop
        loop.add_reader(ours.fileno(), self._receive)
        return True

    def close_to(self, key: str, until: float) -> None:
        """The door may close ``key``'s connections unread until ``until`` (monotonic).
        Never waits: an order that does not fit now is dropped (the server still closes
        what it is handed)."""
        if self.control is not None:
            with contextlib.suppress(OSError):
                self.control.send(f"-{key} {until!r}".encode())

    def _receive(self) -> None:
        control, loop = self.control, self._loop
        assert control is not None and loop is not None
        for _ in range(AT_ONCE):
            try:
                data, fds, flags, _ = socket.recv_fds(control, MESSAGE, 1)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                data, fds, flags = b"", [], 0
            if not data:
                self._gone()
                return
            if data[:1] == b"=":
                self.turned_away += int(data[1:])
                self.closed(int(data[1:]))
            elif fds:
                self.admit(socket.socket(fileno=fds[0]), data[1:].decode("ascii", "replace"))
            elif flags & socket.MSG_CTRUNC:  # out of descriptors: the connection is lost
                error = OSError(errno.EMFILE, os.strerror(errno.EMFILE))
                message = "socket.accept() out of system resource"
                loop.call_exception_handler({"message": message, "exception": error})
                loop.remove_reader(control.fileno())  # the door waits, as accept() would
                loop.call_later(ACCEPT_AGAIN, self._receive_again)
                return

    def _receive_again(self) -> None:
        if self.control is not None and self._loop is not None:
            self._loop.add_reader(self.control.fileno(), self._receive)

    def _gone(self) -> None:
        """The door's process ended (not told to): said, and the server accepts."""
        process = self.process
        status = process.poll() if process is not None else None
        if process is not None and status is None:
            with contextlib.suppress(Exception):
                status = process.wait(STOP_WAIT)
        self._shut()
        self.lost(f"the door stopped (exit status {status}): connections are accepted here")

    def _shut(self) -> None:
        control, self.control = self.control, None
        if control is not None:
            if self._loop is not None:
                self._loop.remove_reader(control.fileno())
            control.close()

    def close(self) -> None:
        """End the door's process and wait for it: the port is free once this returns.
        It is killed: it keeps nothing, and one still starting would first finish."""
        self._shut()
        process, self.process = self.process, None
        if process is not None:
            with contextlib.suppress(OSError):
                process.kill()
            process.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
