"""Issue 36: checks that do not grow with the games; the whole-file check on demand.

Opening the database (the app's start, ``history``, ``export``) no longer reads every page;
``hanabi-companion check`` does (exit 1 and one sentence per problem), and the app runs it
in the background after its first frame and says what it found with the start's findings.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from support.faults import finished_games_database

from companion.core.controller import SetupDraft
from companion.core.i18n import tr
from companion.panel.display import open_display
from companion.shell.app import App, resume
from companion.shell.cli import main
from companion.storage import Storage


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    code = main(list(arguments))
    out, err = capsys.readouterr()
    return code, out, err


def damage_free_space(data_dir: Path) -> None:
    """Bytes of a page of twelve games' file changed (its eighth: free space there): no game
    is touched, only the whole-file check sees it ("Page 8: free space corruption")."""
    path = data_dir / "games.db"
    data = bytearray(path.read_bytes())
    (page_size,) = sqlite3.connect(path).execute("PRAGMA page_size").fetchone()
    for offset in range(7 * page_size + 8, 8 * page_size, 7):
        data[offset] ^= 0x5A
    path.write_bytes(bytes(data))


def test_check_says_a_whole_database_is_whole(tmp_path, capsys):
    finished_games_database(tmp_path, 4, seed=36)
    code, out, err = run(capsys, "check", "--data-dir", str(tmp_path))
    assert (code, err) == (0, "")
    assert out == f"The games database {tmp_path / 'games.db'} is whole: every page was read.\n"


def test_check_without_a_database_has_nothing_to_check(tmp_path, capsys):
    code, out, err = run(capsys, "check", "--data-dir", str(tmp_path))
    assert (code, out, err) == (0, "No games database yet: nothing to check.\n", "")
    assert list(tmp_path.iterdir()) == []  # it creates nothing


def test_damage_only_the_whole_file_check_sees_is_said_by_check_not_at_opening(tmp_path, capsys):
    """The opening no longer reads every page: `history` lists the games (none is touched),
    and `check` names each problem in a sentence, exit 1, the file left as it is."""
    finished_games_database(tmp_path, 12, seed=36)
    damage_free_space(tmp_path)
    before = (tmp_path / "games.db").read_bytes()
    code, out, err = run(capsys, "history", "--data-dir", str(tmp_path))
    assert code == 0, err
    code, out, err = run(capsys, "check", "--data-dir", str(tmp_path))
    assert code == 1 and out == ""
    lines = err.strip().split("\n")
    assert len(lines) >= 2
    for line in lines[:-1]:
        assert line.startswith(f"hanabi-companion: The games database {tmp_path / 'games.db'}")
    assert "export --all" in lines[-1]
    assert (tmp_path / "games.db").read_bytes() == before


def test_the_app_runs_the_check_after_its_first_frame_and_says_it(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    finished_games_database(tmp_path, 12, seed=36)
    damage_free_space(tmp_path)
    storage = Storage.open(tmp_path)  # opened: nothing found yet
    try:
        assert storage.findings == [] and storage.notice is None
        controller, game_id = resume(storage, SetupDraft(players=2, language="de"))
        app = App(storage, open_display("dummy", (480, 320)), controller, game_id)
        app.check_after_first_frame = True
        calls = []
        monkeypatch.setattr(app, "start_check", lambda: calls.append(1) or App.start_check(app))
        try:
            app.draw()  # the first frame starts the check, once
            app.draw()
            assert calls == [1]
            deadline_steps = 0
            while app.controller.notice is None and deadline_steps < 100:
                app.step(timeout_ms=100)
                deadline_steps += 1
            problems = storage.reader().check()
            assert problems
            assert app.controller.notice == tr("de", "database_check_found", count=len(problems))
        finally:
            app.display.close()
    finally:
        storage.close()


def test_a_whole_database_checked_in_the_background_says_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    finished_games_database(tmp_path, 3, seed=36)
    storage = Storage.open(tmp_path)
    try:
        controller, game_id = resume(storage, SetupDraft(players=2))
        app = App(storage, open_display("dummy", (480, 320)), controller, game_id)
        try:
            app.draw()
            app.start_check().join(timeout=60)
            app.step()
            assert app.controller.notice is None and app.checked.empty()
        finally:
            app.display.close()
    finally:
        storage.close()
