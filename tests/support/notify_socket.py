"""A stand-in for systemd's notify socket: a real AF_UNIX datagram socket (sd_notify(3))."""

from __future__ import annotations

import select
import socket


class Receiver:
    """A bound datagram socket that collects what the code under test sends."""

    def __init__(self, sock: socket.socket, path: str) -> None:
        self.sock = sock
        self.path = path

    @classmethod
    def bind(cls, address: str | bytes, path: str) -> Receiver:
        """Listen at ``address``; ``path`` is how ``$NOTIFY_SOCKET`` names it."""
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(address)
        sock.settimeout(5)
        return cls(sock, path)

    def receive(self) -> str:
        return self.sock.recv(4096).decode()

    def nothing_pending(self) -> bool:
        readable, _, _ = select.select([self.sock], [], [], 0)
        return not readable

    def received(self) -> list[str]:
        """Every message sent so far, in order."""
        messages = []
        while not self.nothing_pending():
            messages.append(self.receive())
        return messages

    def close(self) -> None:
        self.sock.close()
