"""How a phone reaches the table: the companion's address on the LAN, the table code,
the URL that joins both (the QR code of the Phones page, the ``phones:`` line).

>>> page_url("192.168.1.20", 8080, "abcd2345")
'http://192.168.1.20:8080/?code=abcd2345'
>>> len(new_code()), set(new_code()) <= set(CODE_ALPHABET)
(8, True)
"""

from __future__ import annotations

import contextlib
import socket

#: Where the table code is kept (the settings of the database): a new code from the
#: menu replaces it, and the old links stop working.
CODE_SETTING = "web_code"


def lan_address(bind: str) -> str:
    """The address a phone on the LAN reaches the companion at: ``bind`` when it names
    one, else the address of the interface the default route leaves by (no packet is
    sent), else the loopback."""
    if bind not in ("", "0.0.0.0", "::"):
        return bind
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.254.254.254", 9))  # a UDP "connect" only picks the route
        address: str = probe.getsockname()[0]
        return address
    return "127.0.0.1"


def page_url(address: str, port: int, code: str) -> str:
    """What a phone opens (the QR code, the ``phones:`` line)."""
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}/?code={code}"


#: Characters of a table code: no 0/O, 1/l/I to misread when typed from the screen.
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
CODE_LENGTH = 8


def new_code() -> str:
    """A fresh table code (about 40 bits: enough for a LAN, short enough to type)."""
    import secrets  # once per table, not at every start

    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
