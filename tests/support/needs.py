"""What a test needs from this machine: missing, it is skipped here and fails in CI.

``.ci/run`` installs every tool the tests use, so in CI (``CI`` set) a missing
tool is a broken CI set-up, not a reason to skip: the test fails and says so.
Skips elsewhere carry their reason, and ``pytest -ra`` prints each one.
"""

from __future__ import annotations

import os
import shutil
from typing import NoReturn

import pytest


def unavailable(reason: str) -> NoReturn:
    """Skip the test with ``reason``; in CI, fail it instead."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason}: .ci/run must provide it")
    pytest.skip(reason)


def need_tool(tool: str) -> str:
    """The path of ``tool`` on this machine (skipped, or failed in CI, when missing)."""
    path = shutil.which(tool)
    if path is None:
        unavailable(f"{tool} is not installed")
    return path


#: Debian's Chromium as a test browser (Playwright): headless, fetching nothing from the
#: internet (a table's Wi-Fi may have none; this machine's network refuses it anyway).
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

#: A phone's screen, portrait: what the page for phones is drawn for first.
PHONE = {"width": 360, "height": 740}
