"""The kernel keeps out an address closed for its refusals: no handshake, no accept, no Python.

An address past its refusals (:data:`~companion.web.limits.REFUSALS_PER_ADDRESS`) was
closed right after ``accept()``; at 1,000 connections a second that still cost the
interpreter, which the panel shares, enough to stretch its key-to-frame p99 by a third
(issue 37). So the server also gives the closed addresses to the kernel: a classic BPF
program (Linux's socket filter, ``SO_ATTACH_FILTER``, which needs no privilege) on each
listening socket drops their SYNs before any handshake. Their clients try again after
1 s, 3 s, 7 s ... and get in once the address's window has room (decision 0125).

An IPv4 address is compared whole, an IPv6 one by its /64 (the addresses the limits
count by, :func:`~companion.web.limits.address_key`). At most :data:`MAX_FENCED` of them
are in the program; any more, or a kernel that refuses the program, and they are closed
at ``accept()`` as before (said once in the log).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ipaddress
import logging
import socket
import struct
import time

log = logging.getLogger("hanabi-companion")

#: ``SO_ATTACH_FILTER`` (Linux's asm-generic value, the Pi's and a PC's alike).
SO_ATTACH_FILTER = getattr(socket, "SO_ATTACH_FILTER", 26)
SO_DETACH_FILTER = getattr(socket, "SO_DETACH_FILTER", 27)
#: Where a filter's loads reach the network header (``SKF_NET_OFF``): a TCP socket's
#: filter sees the packet from its TCP header on.
_NET = -0x100000
_LOAD_WORD = 0x20  # BPF_LD | BPF_W | BPF_ABS
_IF_EQUAL = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_RETURN = 0x06  # BPF_RET | BPF_K
_A_TO_X, _X_TO_A = 0x07, 0x87  # BPF_MISC | BPF_TAX, BPF_MISC | BPF_TXA
_STORE, _LOAD_KEPT = 0x02, 0x60  # BPF_ST, BPF_LD | BPF_MEM (scratch word M[0])
_DROP, _KEEP = 0, 0xFFFFFFFF  # the bytes of the packet kept
#: Addresses in the kernel's program at most, for each family (a home network rarely
#: has half as many devices). The kernel charges a program to the socket's memory for
#: options, the old one and its replacement both while it swaps them: the two must fit
#: in ``optmem_max``, 20 KiB before Linux 6.9 (the Pi's 6.6, Debian 12's 6.1). A full
#: IPv6 program takes 6.4 KiB of it, an IPv4 one 3.3 KiB (``ss -m``: a test checks).
#: Each /64 costs cheap steps only (the source address is read once, not per /64).
MAX_FENCED = 128


def _word(offset: int) -> int:
    """A load's offset into the network header, as the kernel reads it (unsigned)."""
    return (_NET + offset) & 0xFFFFFFFF


def program(family: socket.AddressFamily, keys: list[str]) -> bytes:
    """The filter's instructions: drop a packet from one of ``keys`` (IPv4 addresses
    for ``AF_INET``, /64 networks for ``AF_INET6``), keep any other.

    >>> code = program(socket.AF_INET, ["192.168.1.7"])
    >>> [struct.unpack_from("HBBI", code, i) for i in range(0, len(code), 8)]
    [(32, 0, 0, 4293918732), (21, 0, 1, 3232235783), (6, 0, 0, 0), (6, 0, 0, 4294967295)]
    >>> len(program(socket.AF_INET6, ["2001:db8:1:2::/64", "fd00::/64"])) // 8
    15
    """
    steps: list[tuple[int, int, int, int]] = []
    if family == socket.AF_INET:
        steps.append((_LOAD_WORD, 0, 0, _word(12)))  # the source address
        for key in keys:
            steps += [(_IF_EQUAL, 0, 1, int(ipaddress.IPv4Address(key))), (_RETURN, 0, 0, _DROP)]
    else:
        steps += [
            (_LOAD_WORD, 0, 0, _word(12)),  # the source address's second word ...
            (_A_TO_X, 0, 0, 0),  # ... kept in X
            (_LOAD_WORD, 0, 0, _word(8)),  # its first word, in A ...
            (_STORE, 0, 0, 0),  # ... and in M[0]
        ]
        for key in keys:
            prefix = ipaddress.IPv6Network(key).network_address.packed
            high, low = struct.unpack("!II", prefix[:8])
            steps += [
                (_IF_EQUAL, 0, 4, high),  # not this /64: on to the next
                (_X_TO_A, 0, 0, 0),
                (_IF_EQUAL, 0, 1, low),
                (_RETURN, 0, 0, _DROP),
                (_LOAD_KEPT, 0, 0, 0),  # the first word in A again
            ]
    steps.append((_RETURN, 0, 0, _KEEP))
    return b"".join(struct.pack("HBBI", *step) for step in steps)


def attach(sock: socket.socket, code: bytes) -> None:
    """Give ``sock`` the filter ``code`` (in place of the one it had); OSError if the
    kernel refuses it. The kernel copies the instructions: the buffer may go after."""
    instructions = ctypes.create_string_buffer(code, len(code))
    fprog = struct.pack("HP", len(code) // 8, ctypes.addressof(instructions))
    sock.setsockopt(socket.SOL_SOCKET, SO_ATTACH_FILTER, fprog)


def _family(key: str) -> socket.AddressFamily | None:
    """The family of a limit's key (an IPv4 address, an IPv6 /64), None for any other."""
    try:
        network = ipaddress.ip_network(key)
    except ValueError:
        return None  # not an address (a peer the server could not name)
    if network.version == 4:
        return socket.AF_INET if network.prefixlen == 32 else None
    return socket.AF_INET6 if network.prefixlen == 64 else None


class Fence:
    """The addresses closed for their refusals, kept out by every listening socket's
    filter until each one's window has room again (run in the server's loop)."""

    def __init__(self) -> None:
        self.sockets: list[socket.socket] = []
        #: Each address kept out, and when (``time.monotonic()``) its window has room.
        self.closed: dict[str, float] = {}
        #: False once the kernel refused a program (then addresses close at accept).
        self.working = True
        self._timer: asyncio.TimerHandle | None = None

    def guard(self, sock: socket.socket) -> None:
        """Keep the addresses closed now (and from now on) out of ``sock`` too."""
        self.sockets.append(sock)
        self._attach([sock])

    def keeps_out(self, key: str) -> bool:
        """Whether the kernel drops ``key``'s connections now."""
        return self.working and key in self.closed

    def close(self, key: str, until: float) -> None:
        """Keep ``key`` out until ``until`` (``time.monotonic()``), if there is room."""
        family = _family(key)
        if not self.working or family is None or key in self.closed:
            return
        if sum(_family(k) == family for k in self.closed) >= MAX_FENCED:
            return  # closed at accept(), as before
        self.closed[key] = until
        self._attach([s for s in self.sockets if s.family == family])
        self._wake_at(min(self.closed.values()))

    def _reopen(self) -> None:
        """Let in the addresses whose windows have room now; wait for the next one."""
        self._timer = None
        now = time.monotonic()
        opened = [key for key, until in self.closed.items() if until <= now]
        for key in opened:
            del self.closed[key]
        families = {_family(key) for key in opened}
        self._attach([s for s in self.sockets if s.family in families])
        if self.closed:
            self._wake_at(min(self.closed.values()))

    def _wake_at(self, when: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        delay = max(0.0, when - time.monotonic())
        self._timer = asyncio.get_running_loop().call_later(delay, self._reopen)

    def _attach(self, sockets: list[socket.socket]) -> None:
        for sock in sockets:
            if not self.working or sock.fileno() == -1:
                continue
            keys = [k for k in self.closed if _family(k) == sock.family]
            try:
                attach(sock, program(sock.family, keys))
            except OSError as error:
                self.working = False
                for other in self.sockets:  # none keeps a program that is not kept up
                    with contextlib.suppress(OSError):
                        other.setsockopt(socket.SOL_SOCKET, SO_DETACH_FILTER, 0)
                log.warning(
                    "web: the kernel will not keep closed addresses out (%s); they are "
                    "closed at accept instead",
                    error.strerror or error,
                )

    def stop(self) -> None:
        """Forget the timer (the loop is ending)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
