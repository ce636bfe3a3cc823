"""Phones at the table: a read-only live page on the LAN (issue 21).

- :mod:`companion.web.snapshot`: the immutable picture of the table the app loop
  publishes after every change (plain values, every text already in the table's
  language);
- :mod:`companion.web.server`: the web server, on its own asyncio loop in a daemon
  thread; it only reads snapshots (never pygame, never the controller);
- :mod:`companion.web.door`: the process of its own that accepts the connections and
  closes those of an address closed for its refusals (issue 37);
- :mod:`companion.web.answers`: the HTTP status of each outcome the core answers a
  phone with;
- ``static/``: the page (HTML, CSS, JS, no build step, nothing from the internet).

Nothing here imports aiohttp at import time but :mod:`companion.web.server`, which
the app imports only after its first frame.
"""
