"""The companion's messages to systemd (ready, watchdog, stopping), sent without any dependency.

Under ``Type=notify`` systemd passes the path of a datagram socket in
``$NOTIFY_SOCKET``; the service writes ``READY=1`` there once it is up,
``WATCHDOG=1`` regularly when ``WatchdogSec=`` is set, ``STOPPING=1`` on the
way out, ``STATUS=...`` whenever it likes (shown by ``systemctl status``) and
``EXTEND_TIMEOUT_USEC=...`` while a slow start is still making progress.
This module speaks that protocol (see sd_notify(3)) with the standard
library only. Outside systemd every call is a harmless no-op returning
``False``: the same app runs on a desktop.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

__all__ = ["Watchdog", "extend_timeout", "notify", "ready", "status", "stopping"]

_log = logging.getLogger(__name__)


def _socket_address(path: str) -> str | bytes:
    """Turn a ``$NOTIFY_SOCKET`` value into an address for ``sendto``.

    A leading ``@`` names a socket in the abstract namespace, whose real
    address starts with a NUL byte.
    """
    if path.startswith("@"):
        return b"\0" + path[1:].encode()
    return path


def notify(message: str, *, socket_path: str | None = None) -> bool:
    """Send one sd_notify ``message`` (e.g. ``"READY=1"``) to systemd.

    ``socket_path`` defaults to ``$NOTIFY_SOCKET``. Returns ``True`` when
    the datagram was sent, ``False`` when not running under systemd (no
    socket) or when sending failed; a failure is logged, never raised,
    because a status report must not take the companion down.
    """
    path = socket_path if socket_path is not None else os.environ.get("NOTIFY_SOCKET")
    if not path:
        return False
    if not path.startswith(("/", "@")):
        _log.warning("ignoring NOTIFY_SOCKET %r: neither a path nor an abstract name", path)
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.sendto(message.encode(), _socket_address(path))
    except OSError as error:
        _log.warning("sd_notify %r to %s failed: %s", message, path, error)
        return False
    return True


def ready(*, socket_path: str | None = None) -> bool:
    """Tell systemd that start-up is complete (``READY=1``)."""
    return notify("READY=1", socket_path=socket_path)


def stopping(*, socket_path: str | None = None) -> bool:
    """Tell systemd that the service is shutting down (``STOPPING=1``)."""
    return notify("STOPPING=1", socket_path=socket_path)


def status(text: str, *, socket_path: str | None = None) -> bool:
    """Set the one-line status shown by ``systemctl status`` (``STATUS=``).

    Line breaks would end the field, so they are replaced by spaces.
    """
    one_line = " ".join(text.splitlines())
    return notify(f"STATUS={one_line}", socket_path=socket_path)


def extend_timeout(seconds: float, *, socket_path: str | None = None) -> bool:
    """Ask for ``seconds`` more before systemd's start timeout may strike
    (``EXTEND_TIMEOUT_USEC=``, systemd 236 and later).

    The start is then given up only if no further message comes within
    ``seconds`` *and* ``TimeoutStartSec=`` has passed: a start that waits for
    something that is on its way (the screen at boot) keeps sending this, one
    that hangs stops, and the unit's own timeout applies again.
    """
    return notify(f"EXTEND_TIMEOUT_USEC={round(seconds * 1_000_000)}", socket_path=socket_path)


class Watchdog:
    """The pinger of systemd's watchdog: ``WATCHDOG=1`` often enough, and no more.

    Built from ``$WATCHDOG_USEC`` (the ``WatchdogSec=`` of the unit, in
    microseconds) and ``$WATCHDOG_PID`` (when set, the watchdog is only
    meant for that process). ``interval`` is half the timeout, as
    sd_watchdog_enabled(3) advises; ``enabled`` is ``False`` when there is
    no watchdog for this process, and then :meth:`ping` never sends.

    The clock is injected: the main loop passes ``time.monotonic()``.
    """

    def __init__(
        self,
        environ: Mapping[str, str] | None = None,
        *,
        socket_path: str | None = None,
    ) -> None:
        """Read the watchdog settings from ``environ`` (default: ``os.environ``).

        Pings go to ``socket_path``, by default ``$NOTIFY_SOCKET`` of the
        same environment.

        Raises ``ValueError`` if ``$WATCHDOG_USEC`` or ``$WATCHDOG_PID`` is
        set but not a positive integer: systemd never does that, so it is a
        misconfiguration worth stopping for.
        """
        env = os.environ if environ is None else environ
        # An empty path makes notify() a no-op rather than fall back to
        # os.environ when the caller passed its own environment.
        self._socket_path = socket_path if socket_path is not None else env.get("NOTIFY_SOCKET", "")
        self._last_ping: float | None = None
        self.timeout: float | None = None
        self.interval: float | None = None
        usec = env.get("WATCHDOG_USEC")
        if not usec:
            return
        timeout_usec = _positive_int("WATCHDOG_USEC", usec)
        pid = env.get("WATCHDOG_PID")
        if pid and _positive_int("WATCHDOG_PID", pid) != os.getpid():
            return
        self.timeout = timeout_usec / 1_000_000
        self.interval = self.timeout / 2

    @property
    def enabled(self) -> bool:
        """Whether systemd expects pings from this process."""
        return self.interval is not None

    def due(self, now: float) -> bool:
        """Whether a ping is due at time ``now`` (seconds, monotonic)."""
        if self.interval is None:
            return False
        return self._last_ping is None or now - self._last_ping >= self.interval

    def ping(self, now: float) -> bool:
        """Send ``WATCHDOG=1`` if one is due at ``now``; return whether it was sent.

        Cheap enough to call on every frame. A failed send is logged by
        :func:`notify` and retried at the next call.
        """
        if not self.due(now):
            return False
        sent = notify("WATCHDOG=1", socket_path=self._socket_path)
        if sent:
            self._last_ping = now
        return sent


def _positive_int(name: str, value: str) -> int:
    """Parse an environment value that must be a positive integer."""
    try:
        number = int(value)
    except ValueError:
        raise ValueError(f"${name} must be a positive integer, got {value!r}") from None
    if number <= 0:
        raise ValueError(f"${name} must be a positive integer, got {value!r}")
    return number
