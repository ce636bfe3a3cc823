"""Nothing lost without a word (issue 24): an edited or deleted row, a finished game gone
from the table of games, an emptied database and a cut journal are named, on real files.

The damage is done to the real SQLite file behind the companion's back (SQL from another
connection, truncation, the files copied as a kill -9 leaves them); the schema-1 file
``tests/data/games-v1.db`` was made by the companion before the chain existed.
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
from pathlib import Path

import pytest
from support.faults import finished_games_database

from companion.shell.commands.stored import storage_notice_in_english
from companion.storage import (
    FINDINGS_NAME,
    LEDGER_NAME,
    SCHEMA_VERSION,
    DamagedGameError,
    Ledger,
    LedgerState,
    Storage,
)
from engine import GameSetup, Hint
from engine.log import action_to_dict, dump_line
from engine.table import SimulatedTable

SCHEMA_1 = Path(__file__).resolve().parents[1] / "data" / "games-v1.db"


def edit(data_dir: Path, sql: str, *params: object) -> None:
    db = sqlite3.connect(data_dir / "games.db")
    with db:
        db.execute(sql, params)
    db.close()


def game_in_progress(data_dir: Path, actions: int, seed: int = 1) -> int:
    """A finished game, then a game in progress of ``actions`` actions; the store closed."""
    finished_games_database(data_dir, 1, seed)
    with Storage.open(data_dir) as storage:
        setup = GameSetup(players=3)
        game_id = storage.new_game(setup)
        table = SimulatedTable(setup, random.Random(seed), skill=0.9)
        for _ in range(actions):
            storage.append_action(game_id, table.step())
    return game_id


# -- edits and deletions ----------------------------------------------------------------


def test_a_card_changed_to_another_legal_one_is_named(tmp_path):
    """A changed line that still parses and replays (R1 → Y1 on a first play) breaks the
    chain: the game is damaged, not silently another game."""
    with Storage.open(tmp_path) as storage:
        game_id = storage.new_game(GameSetup(players=2))
        storage.append_action(game_id, Hint())
        storage.append_action(game_id, Hint())
    edit(tmp_path, "UPDATE actions SET line = ? WHERE seq = 2", '{"action": "hint", "to": 0}')
    with Storage.open(tmp_path) as storage:
        with pytest.raises(DamagedGameError, match="action 2 was changed"):
            storage.load(game_id)
        with pytest.raises(DamagedGameError):
            storage.export(game_id)
        assert storage.history()[0].damaged is not None
        assert storage.replayable_part(game_id)[1] == 1  # what precedes the change


def test_an_edited_header_is_named(tmp_path):
    with Storage.open(tmp_path) as storage:
        game_id = storage.new_game(GameSetup(players=2, names=("Ann", "Bo")))
        storage.append_action(game_id, Hint())
    edit(tmp_path, "UPDATE games SET header = replace(header, 'Ann', 'Max')")
    with (
        Storage.open(tmp_path) as storage,
        pytest.raises(DamagedGameError, match="its header or action 1 was changed"),
    ):
        storage.load(game_id)


def test_the_last_action_deleted_is_named(tmp_path):
    """The game's row keeps its count of actions: a deleted last row shows."""
    game_id = game_in_progress(tmp_path, 6)
    edit(tmp_path, "DELETE FROM actions WHERE game_id = ? AND seq = 6", game_id)
    with Storage.open(tmp_path) as storage:
        with pytest.raises(DamagedGameError, match="its last 1 saved action"):
            storage.load(game_id)
        rows = {row.id: row for row in storage.history()}
        assert rows[game_id].damaged is not None


def test_a_finished_game_deleted_from_the_table_of_games_is_named(tmp_path):
    """The ledger remembers how many games there were: a vanished row is named at the
    next opening, by its id."""
    finished_games_database(tmp_path, 4, seed=3)
    edit(tmp_path, "PRAGMA foreign_keys = OFF")
    edit(tmp_path, "DELETE FROM games WHERE id = 2")
    with Storage.open(tmp_path) as storage:
        assert storage.findings == [("games_missing", {"games": "2"})]
        notice = storage_notice_in_english(storage)  # the ledger's finding, in words
        assert notice is not None and "missing" in notice and ": 2" in notice
    with Storage.open(tmp_path) as storage:  # said once: the ledger now knows
        assert storage.notice is None


def test_undo_and_a_new_game_are_no_false_alarm(tmp_path):
    """The ledger follows every write: an undo, a game abandoned, a game resumed."""
    game_id = game_in_progress(tmp_path, 5)
    with Storage.open(tmp_path) as storage:
        storage.drop_last_action(game_id)
        storage.drop_last_action(game_id)
        other = storage.new_game(GameSetup(players=2))
        storage.append_action(other, Hint())
        storage.reopen(game_id)
    with Storage.open(tmp_path) as storage:
        assert storage.notice is None and storage.findings == []
        assert len(storage.load(game_id).actions) == 3


# -- an emptied database, a cut journal ---------------------------------------------------


@pytest.mark.parametrize("how", ["emptied", "deleted"])
def test_an_emptied_or_deleted_database_is_named(tmp_path, how):
    finished_games_database(tmp_path, 3, seed=4)
    path = tmp_path / "games.db"
    if how == "emptied":
        os.truncate(path, 0)
    else:
        path.unlink()
    with Storage.open(tmp_path) as storage:
        assert storage.findings == [("database_emptied", {"games": 3})]
        assert "held 3 games" in (storage_notice_in_english(storage) or "")
        assert storage.history() == []


def crashed_copy(running: Path, crashed: Path) -> None:
    """The files as a kill -9 leaves them: database, journal, ledger and findings, byte for
    byte."""
    crashed.mkdir()
    for name in ("games.db", "games.db-wal", LEDGER_NAME, FINDINGS_NAME):
        shutil.copy(running / name, crashed / name)


@pytest.mark.parametrize("keep", [0.0, 0.3, 0.9])
def test_a_cut_journal_after_a_crash_is_named(tmp_path, keep):
    """The journal truncated (a card's lost blocks): the actions it held are gone, and the
    ledger says how many."""
    running = tmp_path / "running"
    game_id = game_in_progress(running, 0)
    with Storage.open(running) as storage:
        table = SimulatedTable(storage.load(game_id).setup, random.Random(2), skill=0.9)
        for _ in range(20):
            storage.append_action(game_id, table.step())
        crashed_copy(running, tmp_path / "crashed")
    wal = tmp_path / "crashed" / "games.db-wal"
    os.truncate(wal, int(wal.stat().st_size * keep))
    with Storage.open(tmp_path / "crashed") as storage:
        held = len(storage.load(game_id).actions)
        assert held < 20
        assert storage.findings == [("actions_missing", {"game": game_id, "missing": 20 - held})]


def test_a_crash_with_an_intact_journal_is_no_notice(tmp_path):
    running = tmp_path / "running"
    game_id = game_in_progress(running, 3)
    with Storage.open(running) as storage:
        storage.append_action(game_id, Hint())
        crashed_copy(running, tmp_path / "crashed")
    with Storage.open(tmp_path / "crashed") as storage:
        assert storage.notice is None
        assert len(storage.load(game_id).actions) == 4


# -- the ledger itself ------------------------------------------------------------------


def test_a_torn_ledger_write_keeps_the_previous_state(tmp_path):
    """Two slots written in turn: a write cut half-way leaves the other one whole."""
    ledger = Ledger(tmp_path / LEDGER_NAME)
    ledger.write(LedgerState(games=3, last_id=3, game=3, actions=10))
    ledger.write(LedgerState(games=3, last_id=3, game=3, actions=11))
    ledger.close()
    data = bytearray((tmp_path / LEDGER_NAME).read_bytes())
    data[20:40] = b"\xff" * 20  # the slot written last (sequence 2: slot 0) torn
    (tmp_path / LEDGER_NAME).write_bytes(bytes(data))
    again = Ledger(tmp_path / LEDGER_NAME)
    assert again.state == LedgerState(games=3, last_id=3, game=3, actions=10)
    again.close()


def test_the_data_directory_and_its_files_are_its_owners_only(tmp_path):
    """Outside systemd the games are created readable by their owner only."""
    data_dir = tmp_path / "new" / "data"
    with Storage.open(data_dir) as storage:
        game_id = storage.new_game(GameSetup(players=2))
        storage.append_action(game_id, Hint())
        modes = {path.name: path.stat().st_mode & 0o777 for path in data_dir.iterdir()}
    assert data_dir.stat().st_mode & 0o777 == 0o700
    assert modes == {
        name: 0o600
        for name in ("games.db", "games.db-wal", "games.db-shm", LEDGER_NAME, FINDINGS_NAME)
    }


# -- schema 1 → 3 ---------------------------------------------------------------------------


def test_a_schema_1_file_is_upgraded_in_place_and_its_games_read_back(tmp_path):
    """A real file made by the companion before the chain: upgraded at opening, every game
    as it was, and edits made after the upgrade are evident.

    tests/data/games-v1.db (schema 1, see test_history_pages.py): game 1 finished (a storm,
    3 actions), game 2 abandoned (one hint), game 3 in play (R1 played)."""
    shutil.copy(SCHEMA_1, tmp_path / "games.db")
    before = sqlite3.connect(tmp_path / "games.db")
    (version,) = before.execute("PRAGMA user_version").fetchone()
    lines = before.execute("SELECT game_id, seq, line FROM actions ORDER BY 1, 2").fetchall()
    before.close()
    assert version == 1
    with Storage.open(tmp_path) as storage:
        assert storage.notice is None
        rows = {row.id: row for row in storage.history()}
        assert [rows[i].score for i in (1, 2, 3)] == [0, 0, 1]
        assert all(row.damaged is None for row in rows.values())
        playing = storage.unfinished()
        assert playing is not None and playing.id == 3 and len(playing.actions) == 1
        text = "".join(storage.export(game_id) for game_id in (1, 2, 3))
        assert len(lines) == 5 and all(line in text for _, _, line in lines)
        storage.append_action(3, Hint())  # and the chain goes on from the upgraded links
        assert len(storage.load(3).actions) == 2
    after = sqlite3.connect(tmp_path / "games.db")
    assert after.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    after.close()
    edit(
        tmp_path,
        "DELETE FROM actions WHERE game_id = 1 AND seq = (SELECT MAX(seq) FROM"
        " actions WHERE game_id = 1)",
    )
    with (
        Storage.open(tmp_path) as storage,
        pytest.raises(DamagedGameError, match="its last 1 saved action"),
    ):
        storage.load(1)


def test_every_write_keeps_the_chain_a_fresh_replay_would_compute(tmp_path):
    """Append, undo, finish: the stored links are those the check recomputes (no damage
    reported on a game only the companion wrote)."""
    with Storage.open(tmp_path) as storage:
        setup = GameSetup(players=4)
        game_id = storage.new_game(setup)
        table = SimulatedTable(setup, random.Random(9), skill=0.9)
        rng = random.Random(9)
        while not table.game.is_over:
            action = table.step()
            storage.append_action(game_id, action)
            if rng.random() < 0.1:
                storage.drop_last_action(game_id)
                storage.append_action(game_id, action)
        storage.finish(game_id, table.game)
        exported = storage.export(game_id)
    assert exported.count("\n") == len(table.game.actions) + 1
    assert dump_line(action_to_dict(table.game.actions[-1])) in exported
