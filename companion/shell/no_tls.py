"""The guard that keeps OpenSSL's TLS side out of the companion's process, which speaks no TLS.

Nothing the companion runs talks to the internet: the page for phones is plain HTTP
on the table's LAN, the devices are local. Yet asyncio (imported by aiohttp and by
python-evdev) loads the ``ssl`` module when it can, and aiohttp builds two TLS client
contexts from the system's CA bundle at import: 3.7 MB resident together on x86-64, for
nothing (issue 21's memory aim for the server is 15 MB). All of them import ``ssl`` in
a ``try`` and run as on a Python built without it.

:func:`without_tls` makes ``import ssl`` fail for the imports made inside it (the
import system's own "absent" entry, ``None`` in :data:`sys.modules`), and only for
them: afterwards ``ssl`` imports again for anyone. A process that already loaded it
(a test run) keeps it and saves nothing. A feature that needs TLS one day imports
``ssl`` outside ``hanabi-companion run``'s loop, or lifts this.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator


@contextlib.contextmanager
def without_tls() -> Iterator[None]:
    """Within: ``import ssl`` raises :class:`ModuleNotFoundError` (unless it was
    imported before). Nests: an inner one leaves the outer's entry alone."""
    if "ssl" in sys.modules:
        yield
        return
    sys.modules["ssl"] = None  # type: ignore[assignment]  # the import system's "absent"
    try:
        yield
    finally:
        if "ssl" in sys.modules and sys.modules["ssl"] is None:
            del sys.modules["ssl"]
