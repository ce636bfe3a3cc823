"""Another program on the games database while the companion runs (issue 36, first item).

The real companion (a real process in Xvfb, its page for phones on the loopback) takes
hints typed at its window; after every kind of read the app and its page can do, a
separate ``sqlite3`` process opens the database read-write and closes it, as a backup
script or a curious owner would. Then the companion is killed (-9, a power cut). Every
action it showed must still be in the database.

Before the fix, the first History page opened ``games.db`` a second time in the process
(a Python ``open()`` to look at its header) and closed it: POSIX drops every lock a
process holds on a file when any of its descriptors on that file closes, so the next
``sqlite3`` to close the database believed itself the last user and deleted the live
``-wal`` and ``-shm``; the companion went on writing into deleted files.
"""

from __future__ import annotations

import json
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from support.needs import need_tool
from support.xwindow import find_window, keys

pytestmark = pytest.mark.xvfb
COMMAND = [sys.executable, "-m", "companion"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def stored_actions(database: Path) -> int:
    """The actions in the file, as another process reads them (read-only, no journal kept)."""
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT count(*) FROM actions").fetchone()[0])
    finally:
        db.close()


def other_program(database: Path) -> None:
    """The sqlite3 shell opens the database read-write, reads, and closes it."""
    done = subprocess.run(
        [need_tool("sqlite3"), str(database), "select count(*) from games"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as answer:
        assert answer.status == 200, url
        return bytes(answer.read())


def test_another_program_after_every_read_loses_no_stored_action(
    xvfb: dict[str, str], tmp_path: Path
) -> None:
    data = tmp_path / "data"
    database = data / "games.db"
    config = tmp_path / "companion.toml"
    port = free_port()
    config.write_text(  # a hint of one press (the count level): "h" below
        f'[game]\nhints = "count"\n\n[web]\nenabled = true\nport = {port}\nbind = "127.0.0.1"\n'
    )
    app = subprocess.Popen(
        [
            *COMMAND,
            "run",
            "--data-dir",
            str(data),
            "--config",
            str(config),
            "--size",
            "480x320",
            "--gpio",
            "none",
        ],
        env=xvfb,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert app.stdout is not None
        line = app.stdout.readline()
        assert line.startswith("phones: "), line
        code = parse_qs(urlsplit(line.split()[1]).query)["code"][0]
        base = f"http://127.0.0.1:{port}"
        window = find_window(app, xvfb)
        keys(xvfb, window, "3", "Return")  # three players, the game starts
        deadline = time.monotonic() + 20
        while True:  # the server starts after the first frame
            try:
                get(f"{base}/snapshot.json?code={code}")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        game = ""
        while not game:  # the game in play (it has no action yet: not in the history)
            assert time.monotonic() < deadline, "the game never started"
            game = json.loads(get(f"{base}/snapshot.json?code={code}"))["game"]
        reads = [
            f"/snapshot.json?code={code}",
            f"/history.json?code={code}",
            f"/games/{game}.json?code={code}",
            f"/games/{game}.log?code={code}",
            f"/?code={code}",
        ]
        shown = 0
        for read in reads:
            keys(xvfb, window, "h")  # a hint at the panel: stored before it is shown
            shown += 1
            deadline = time.monotonic() + 10
            while stored_actions(database) < shown:
                assert time.monotonic() < deadline, f"the hint {shown} was never stored"
                time.sleep(0.05)
            get(base + read)
            other_program(database)
        keys(xvfb, window, "m", "Down", "Down", "Return")  # the panel's History (its own read)
        time.sleep(0.5)
        keys(xvfb, window, "Escape", "Escape")
        other_program(database)
        keys(xvfb, window, "h")  # one more, after every read and every other program
        shown += 1
        time.sleep(1.0)
    finally:
        app.send_signal(signal.SIGKILL)  # a power cut
        app.wait(timeout=10)
    assert stored_actions(database) == shown
