"""Issue 36: the app says the kept findings at every start until OK on the panel, the first
start that finds a finished game damaged says so, and ``history`` exits non-zero while a
finding is open (docs/decisions 0089)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from support.faults import finished_games_database

from companion.core.controller import SetupDraft
from companion.core.i18n import tr
from companion.panel.display import open_display
from companion.shell.app import App, open_findings, resume
from companion.storage import Storage
from hardware.events import Key, Press, Tap

ROOT = Path(__file__).resolve().parents[2]
BOGUS_LINE = '{"action": "hint", "bogus": 1}'


def emptied(data_dir: Path) -> None:
    for name in ("games.db-wal", "games.db-shm"):
        (data_dir / name).unlink(missing_ok=True)
    (data_dir / "games.db").write_bytes(b"")


def started(data_dir: Path) -> App:
    """The app as ``run`` starts it (without a window's devices)."""
    storage = Storage.open(data_dir)
    controller, game_id = resume(storage, SetupDraft(players=2))
    controller.handle(open_findings(storage))
    return App(storage, open_display("dummy", (480, 320)), controller, game_id)


def closed(app: App) -> None:
    app.display.close()
    app.storage.close()


def history(data_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", "history", "--data-dir", str(data_dir)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_a_finding_is_on_the_banner_at_every_start_until_ok(tmp_path, headless):
    finished_games_database(tmp_path, 3, seed=1)
    emptied(tmp_path)
    words = tr("en", "database_emptied", games=3)
    for _ in range(2):
        app = started(tmp_path)
        app.step()
        assert words in (app.controller.notice or "")
        closed(app)
    listed = history(tmp_path)
    assert listed.returncode == 1 and words in listed.stdout
    app = started(tmp_path)
    app.dispatch(Press(Key.OK))
    assert app.controller.notice is None and app.storage.open_findings == []
    closed(app)
    app = started(tmp_path)
    assert app.controller.notice is None
    closed(app)
    assert history(tmp_path).returncode == 0


def test_a_tap_on_the_banner_is_its_ok(tmp_path, headless):
    finished_games_database(tmp_path, 2, seed=2)
    emptied(tmp_path)
    app = started(tmp_path)
    app.step()
    app.dispatch(Tap(240, 5))
    assert app.storage.open_findings == []
    closed(app)


def test_the_first_start_that_finds_a_finished_game_damaged_says_so(tmp_path, headless):
    """Issue 36: the panel's start never mentioned it."""
    finished_games_database(tmp_path, 4, seed=3)
    db = sqlite3.connect(tmp_path / "games.db")
    with db:
        db.execute("UPDATE actions SET line = ? WHERE game_id = 2 AND seq = 1", (BOGUS_LINE,))
    db.close()
    words = tr("en", "finished_game_damaged", game=2)
    app = started(tmp_path)
    assert words in (app.controller.notice or "")
    closed(app)
    app = started(tmp_path)  # said again: not seen yet
    assert words in (app.controller.notice or "")
    app.dispatch(Press(Key.OK))
    closed(app)
    app = started(tmp_path)  # seen: the same damage is not said again
    assert app.controller.notice is None
    closed(app)
