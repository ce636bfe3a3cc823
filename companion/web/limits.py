"""How much of the page for phones one client may take: connections, streams, pairing tries.

A guest on the table's Wi-Fi must not lock the table out (issue 37): every limit here is
per address (an IPv6 client counts by its /64, the block one device may pick addresses
from), so a client that misbehaves uses up its own share and nobody else's; the totals
are there only to keep the process inside its file descriptors
(``LimitNOFILE=`` of the unit).

Also here: which peers are on "the LAN" (the networks of the Pi's own interfaces, read
at start), which ``Host`` headers name the companion, and the loop's error handler that
says a flood of failed ``accept()`` calls in one line a minute.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
import time
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from companion.web.peer import MAX_KEYS, peer_address

log = logging.getLogger("hanabi-companion")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

#: Refusals one address may earn in :data:`REFUSAL_WINDOW` seconds for what no honest
#: page does more than once or twice (a POST without a paired token, a Host that is not
#: the companion, pairing over its limit); past that its connections are closed unread
#: until the window has room again. A flood from it then costs the server an accept,
#: not a request: 1,000 unpaired POSTs a second took a quarter of a core from the web
#: thread, which shares the interpreter with the panel (issue 37, decision 0093). Keep
#: it per address and this small: it holds the panel's key-to-frame p99 under a flood.
REFUSALS_PER_ADDRESS = 20
REFUSAL_WINDOW = 60.0
#: Pairing requests one address may send in :data:`PAIR_WINDOW` seconds (the app loop
#: judges each: this bounds its work, whatever the number of addresses on the LAN).
PAIR_TRIES_PER_ADDRESS = 5
PAIR_WINDOW = 60.0
#: Open connections one address may hold (a phone's browser opens six at most).
CONNECTIONS_PER_ADDRESS = 8
#: Open connections in all: every address of a /24 network its whole share (253 x 8),
#: so that no flood on a home network can take another address's place; half the
#: unit's ``LimitNOFILE=4096``, the rest for the database, the devices, the journal.
MAX_CONNECTIONS = 2048
#: Live pages one address may hold (a phone with a few tabs open), and in all (again
#: every address of a /24 its whole share).
STREAMS_PER_ADDRESS = 4
MAX_STREAMS = 1024
#: The addresses of the network the totals above are sized for (a /24, less the Pi).
SIZED_FOR_ADDRESSES = 253
#: A live page's unread bytes: the kernel's send buffer (``SO_SNDBUF``; Linux keeps
#: twice this) and, past it, the server's own. Left to itself the kernel lets a
#: never-reading page take megabytes, and every change of the table then costs a
#: write to each of hundreds of them while the panel waits for the interpreter (issue 37).
STREAM_SOCKET_BUFFER = 16 * 1024
#: Over this many bytes in the server's buffer a live page is behind: it gets no new
#: event until it has taken them (then the table now: each event is the whole table),
#: and is dropped if it has not within ``WRITE_TIMEOUT`` (:mod:`companion.web.live`).
#: With the kernel's part, at most 64 KiB and an event unread.
STREAM_BUFFER = 16 * 1024
#: How often at most the loop's errors (a failed ``accept()``) are said, with a count.
ERROR_LOG_SECONDS = 60.0


class Window:
    """At most ``limit`` events per key in ``seconds`` (a sliding window)."""

    def __init__(
        self, limit: int, seconds: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.seconds = seconds
        self.clock = clock
        self._events: dict[str, deque[float]] = {}

    def allow(self, key: str) -> bool:
        """Count one event for ``key`` if it is within its limit; whether it was."""
        now = self.clock()
        if self.full(key, now):
            return False
        events = self._events.setdefault(key, deque())
        events.append(now)
        if len(self._events) > MAX_KEYS:  # keys that stopped: forget them
            self._events = {
                k: q for k, q in self._events.items() if q and now - q[-1] <= self.seconds
            }
        return True

    def full_until(self, key: str) -> float | None:
        """When ``key``'s window has room again if it is full now (its clock), else None."""
        events = self._events.get(key)
        if events is None or not self.full(key):
            return None
        return events[-self.limit] + self.seconds

    def full(self, key: str, now: float | None = None) -> bool:
        """Whether ``key`` has used up its limit (nothing is counted)."""
        events = self._events.get(key)
        if not events:
            return False
        now = self.clock() if now is None else now
        while events and now - events[0] > self.seconds:
            events.popleft()
        return len(events) >= self.limit


class Gate:
    """Places held at once: at most ``each`` per key and ``total`` in all."""

    def __init__(self, each: int, total: int) -> None:
        self.each = each
        self.total = total
        self.held: dict[str, int] = {}
        self.count = 0

    def take(self, key: str) -> bool:
        """Take a place for ``key`` if there is one; whether there was."""
        if self.full(key):
            return False
        self.held[key] = self.held.get(key, 0) + 1
        self.count += 1
        return True

    def full(self, key: str) -> bool:
        """Whether ``key`` (or everyone) holds every place it may (nothing is taken)."""
        return self.count >= self.total or self.held.get(key, 0) >= self.each

    def give(self, key: str) -> None:
        """Give back a place ``key`` took."""
        left = self.held.get(key, 0) - 1
        if left > 0:
            self.held[key] = left
        else:
            self.held.pop(key, None)
        self.count -= 1


# -- the LAN: the networks of the Pi's own interfaces ------------------------------


def _hex_ipv4(text: str) -> ipaddress.IPv4Address:
    """An address of /proc/net/route (little-endian hex)."""
    return ipaddress.IPv4Address(int.from_bytes(bytes.fromhex(text), "little"))


def local_networks(proc: Path = Path("/proc/net")) -> list[Network]:
    """The networks the Pi's interfaces are on, IPv4 and IPv6, whatever their ranges:
    the kernel's directly connected routes (no gateway) and every interface address
    with its prefix; the loopback always. Read once, when the server starts."""
    networks: list[Network] = [
        ipaddress.IPv4Network("127.0.0.0/8"),
        ipaddress.IPv6Network("::1/128"),
    ]
    with contextlib.suppress(OSError, ValueError):
        for line in (proc / "route").read_text().splitlines()[1:]:
            fields = line.split()
            if len(fields) < 8 or fields[2] != "00000000":
                continue  # a route through a gateway: not a network the Pi is on
            destination, mask = _hex_ipv4(fields[1]), _hex_ipv4(fields[7])
            if int(mask) == 0:
                continue  # the default route
            networks.append(ipaddress.IPv4Network(f"{destination}/{mask}", strict=False))
    with contextlib.suppress(OSError, ValueError):
        for line in (proc / "if_inet6").read_text().splitlines():
            fields = line.split()
            if len(fields) < 6:
                continue
            address = ipaddress.IPv6Address(int(fields[0], 16))
            networks.append(ipaddress.IPv6Network((address, int(fields[2], 16)), strict=False))
    unique: dict[str, Network] = {str(n): n for n in networks}
    return list(unique.values())


def on_networks(remote: str | None, networks: Iterable[Network]) -> bool:
    """Whether a peer's address is on one of ``networks`` (IPv4-mapped IPv6 as IPv4).

    >>> nets = [ipaddress.ip_network("192.168.1.0/24"), ipaddress.ip_network("fe80::/64")]
    >>> on_networks("192.168.1.9", nets), on_networks("::ffff:192.168.1.9", nets)
    (True, True)
    >>> on_networks("192.168.2.9", nets), on_networks("fe80::1%wlan0", nets)
    (False, True)
    """
    address = peer_address(remote) if remote else None
    if address is None:
        return False
    return any(address.version == n.version and address in n for n in networks)


#: The domains home routers and avahi give a LAN's hosts: the Pi's host name under any
#: of them names the companion (a name of the internet never does).
LOCAL_SUFFIXES = ("local", "lan", "home", "home.arpa", "localdomain", "internal", "fritz.box")


def host_names(bind: str, address: str, networks: Iterable[Network]) -> set[str]:
    """The names a ``Host`` header may give the companion by (without the port): its
    addresses on its networks, ``localhost``, its host name alone and under each of
    :data:`LOCAL_SUFFIXES` (``NAME.local``, ``NAME.fritz.box``, ...)."""
    names = {"localhost", "127.0.0.1", "::1", address.lower()}
    if bind not in ("", "0.0.0.0", "::"):
        names.add(bind.lower())
    with contextlib.suppress(OSError):
        host = socket.gethostname().lower().partition(".")[0]
        names |= {host} | {f"{host}.{suffix}" for suffix in LOCAL_SUFFIXES}
    return {name for name in names if name} | _interface_addresses(networks)


def _interface_addresses(networks: Iterable[Network]) -> set[str]:
    """The Pi's own addresses (read with its networks): /proc gives the IPv6 ones."""
    found: set[str] = set()
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/net/if_inet6").read_text().splitlines():
            found.add(str(ipaddress.IPv6Address(int(line.split()[0], 16))))
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for network in networks:
            if network.version == 4 and network.prefixlen < 32 and not network.is_loopback:
                with contextlib.suppress(OSError):
                    probe.connect((str(next(network.hosts())), 9))
                    found.add(probe.getsockname()[0])
    return found


def host_of(header: str) -> str:
    """The host of a ``Host`` header, without its port and brackets, in lower case.

    >>> host_of("192.168.1.20:8080"), host_of("[fe80::1]:8080"), host_of("Pi.local")
    ('192.168.1.20', 'fe80::1', 'pi.local')
    """
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].partition("]")[0]
    if header.count(":") == 1:
        return header.partition(":")[0]
    return header


# -- the loop's errors, said once a minute ---------------------------------------


class QuietErrors:
    """The web loop's exception handler: an error (19,000 failed ``accept()`` calls when
    the descriptors run out) is one line a minute with how many there were."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.said_at: float | None = None
        self.unsaid = 0

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        now = self.clock()
        if self.said_at is not None and now - self.said_at < ERROR_LOG_SECONDS:
            self.unsaid += 1
            return
        error = context.get("exception")
        what = str(context.get("message", "an error"))
        if isinstance(error, OSError) and error.strerror:
            what += f": {error.strerror.lower()}"
        more = f" (and {self.unsaid} more in the last minute)" if self.unsaid else ""
        log.warning("web: %s%s", what, more)
        self.said_at, self.unsaid = now, 0
