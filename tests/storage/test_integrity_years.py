"""Issues 23 and 24 together: the chain and the ledger (24) with the import and the
read-only commands (23, 20), on real files and through the real command line."""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.shell.cli import main
from companion.storage import LEDGER_NAME, Ledger, Storage
from engine import GameSetup
from engine.table import SimulatedTable

V1_FILE = Path(__file__).resolve().parents[1] / "data" / "games-v1.db"


def listing(folder: Path) -> dict[str, bytes]:
    """Every file of ``folder`` with its bytes: what "changes nothing" compares."""
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    code = main(list(arguments))
    out, err = capsys.readouterr()
    return code, out, err


def played(data: Path, games: int) -> Path:
    """``games`` finished games, stored action by action as the app does, then closed."""
    with Storage.open(data) as storage:
        for seed in range(games):
            setup = GameSetup(players=2 + seed % 4, started_at=f"2026-11-{10 + seed:02d}T20:00Z")
            game = SimulatedTable(setup, random.Random(seed), skill=0.9).play_out()
            game_id = storage.new_game(setup)
            for action in game.actions:
                storage.append_action(game_id, action)
            storage.finish(game_id, game)
    return data


def edit(data: Path, sql: str) -> None:
    """A change made behind the companion's back, by another program."""
    db = sqlite3.connect(data / "games.db")
    try:
        db.execute(sql)
        db.commit()
    finally:
        db.close()


def test_imported_games_are_chained_and_counted_by_the_ledger(tmp_path, capsys):
    """An import writes each game with its links and counts it in the ledger: the games
    read back undamaged, a later start names none missing, and a game deleted after the
    import is named."""
    table = played(tmp_path / "table", 3)
    backup = tmp_path / "usb"
    assert run(capsys, "export", "--all", str(backup), "--data-dir", str(table))[0] == 0
    restored = tmp_path / "restored"
    code, out, err = run(capsys, "import", str(backup), "--data-dir", str(restored))
    assert (code, err) == (0, "") and out.startswith("3 games imported")
    ledger = Ledger.look(restored / LEDGER_NAME)
    assert ledger is not None and (ledger.games, ledger.last_id) == (3, 3)
    with Storage.open(restored) as storage:
        assert storage.notice is None and storage.findings == []
        assert [len(storage.load(game_id).actions) > 0 for game_id in (1, 2, 3)] == [True] * 3
        assert all(row.damaged is None for row in storage.history())
    edit(restored, "DELETE FROM games WHERE id = 2")
    with Storage.open(restored) as storage:
        assert storage.findings == [("games_missing", {"games": "2"})]


def test_the_read_only_commands_say_what_the_ledger_misses_and_write_nothing(tmp_path, capsys):
    """`history`, `export` and `export --all` compare the file with its ledger and say what
    is missing (stderr), and leave every file of the folder as it was, the ledger too."""
    data = played(tmp_path / "data", 3)
    edit(data, "DELETE FROM games WHERE id = 2")
    before = listing(data)
    code, out, err = run(capsys, "history", "--data-dir", str(data))
    assert code == 0
    assert "Games missing from the games database since the last start: 2" in err
    assert [line.split()[0] for line in out.splitlines()[1:]] == ["3", "1"]
    code, out, err = run(capsys, "export", "--game", "3", "--data-dir", str(data))
    assert code == 0 and "missing" in err and out.startswith("{")
    code, out, err = run(capsys, "export", "--all", str(tmp_path / "usb"), "--data-dir", str(data))
    assert code == 0 and "missing" in err
    assert listing(data) == before


def test_an_emptied_database_is_said_by_a_read_only_command_and_left_as_it_is(tmp_path, capsys):
    """games.db cut to 0 bytes though the ledger says it held games: `history` says so in
    one sentence (exit 1), not "no game stored", and creates nothing."""
    data = played(tmp_path / "data", 2)
    for side in ("games.db-wal", "games.db-shm"):
        (data / side).unlink(missing_ok=True)
    (data / "games.db").write_bytes(b"")
    before = listing(data)
    code, out, err = run(capsys, "history", "--data-dir", str(data))
    assert (code, out) == (1, "")
    assert "is empty or missing, though it held 2 games" in err
    assert len(err.strip().splitlines()) == 1
    assert listing(data) == before


def test_a_schema_1_file_is_read_by_the_read_only_commands_without_the_chain(tmp_path, capsys):
    """A file of schema 1 is not upgraded by `history`/`export` (they write nothing): its
    games are read and replayed without the chain, none named damaged, no ledger made."""
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(V1_FILE, data / "games.db")
    before = listing(data)
    code, out, err = run(capsys, "history", "--data-dir", str(data))
    assert (code, err) == (0, "")
    assert [line.split()[0] for line in out.splitlines()[1:]] == ["3", "2", "1"]
    code, out, err = run(capsys, "export", "--game", "1", "--data-dir", str(data))
    assert (code, err) == (0, "") and out.count("\n") == 5  # the header, 3 actions, the end
    assert listing(data) == before and not (data / LEDGER_NAME).exists()
