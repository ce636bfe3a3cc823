"""Faults a real table meets, on real files (issue 10): a damaged game, a second companion,
a full SD card, a checkpointed journal, random bytes in the database.

Damage is done to the real SQLite file, byte by byte or by SQL behind the app's back; the
second companion is a real process; the full card is a real (tmpfs) file system.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from support.faults import (
    FAULTS,
    corrupt_trial,
    fault_trial,
    faulty_filesystem,
    finished_games_database,
    full_filesystem,
    journal_trial,
    play_finished_games,
)

from companion.storage import (
    LOCK_NAME,
    CompanionRunningError,
    DamagedGameError,
    DataDirLock,
    Storage,
    StorageError,
    StorageFullError,
)
from engine import GameSetup, Hint, Play
from engine.cards import Card
from engine.log import replay_log
from engine.table import SimulatedTable

ROOT = Path(__file__).resolve().parents[2]
BOGUS_LINE = '{"action": "hint", "bogus": 1}'


def stored_game_with_actions(data_dir: Path, count: int = 3) -> int:
    with Storage.open(data_dir) as storage:
        game_id = storage.new_game(GameSetup(players=2, names=("Ann", "Bo")))
        storage.append_action(game_id, Play(Card.from_code("R1")))
        for _ in range(count - 1):
            storage.append_action(game_id, Hint())
    return game_id


def edit(data_dir: Path, sql: str, *params: object) -> None:
    """Change the file behind the companion's back, as a hand or a bad sector would."""
    db = sqlite3.connect(data_dir / "games.db")
    with db:
        db.execute(sql, params)
    db.close()


# -- a damaged game ------------------------------------------------------------------------


def test_an_edited_action_line_is_a_damaged_game_error_naming_the_game(tmp_path):
    game_id = stored_game_with_actions(tmp_path)
    edit(tmp_path, "UPDATE actions SET line = ? WHERE seq = 2", BOGUS_LINE)
    with Storage.open(tmp_path) as storage:
        with pytest.raises(DamagedGameError, match=f"game {game_id} is damaged: action 2") as info:
            storage.load(game_id)
        assert info.value.game_id == game_id


def test_a_header_whose_bytes_are_not_utf8_is_a_damaged_game_not_a_decoding_crash(tmp_path):
    game_id = stored_game_with_actions(tmp_path)
    edit(
        tmp_path,
        "UPDATE games SET header = CAST(? AS TEXT)",
        b'{"format": "hanabi-log/1", "players": 2, "names": ["Jos\xe9", "Bo"]}',
    )
    with Storage.open(tmp_path) as storage:
        with pytest.raises(DamagedGameError, match="not UTF-8") as info:
            storage.load(game_id)
        assert info.value.game_id == game_id
        with pytest.raises(DamagedGameError):
            storage.export(game_id)
        assert storage.replayable_part(game_id) == ("", 0)


def test_the_replayable_part_of_a_damaged_game_stops_before_the_first_bad_line(tmp_path):
    """Item 1: the damaged game is exported as far as it replays."""
    game_id = stored_game_with_actions(tmp_path, count=4)
    edit(tmp_path, "UPDATE actions SET line = ? WHERE seq = 3", BOGUS_LINE)
    with Storage.open(tmp_path) as storage:
        text, actions = storage.replayable_part(game_id)
    assert actions == 2
    game = replay_log(text)  # what is given replays
    assert len(game.actions) == 2


def test_history_marks_a_damaged_finished_game_instead_of_raising(tmp_path):
    """Item 5: the history call (CLI and screen) gives a damaged row, never an exception."""
    finished_games_database(tmp_path, 3, seed=4)
    edit(tmp_path, "UPDATE actions SET line = ? WHERE game_id = 2 AND seq = 1", BOGUS_LINE)
    edit(tmp_path, "UPDATE games SET header = CAST(? AS TEXT) WHERE id = 3", b"\xff\xfe")
    with Storage.open(tmp_path) as storage:
        rows = {row.id: row for row in storage.history()}
    assert sorted(rows) == [1, 2, 3]
    assert rows[1].damaged is None and rows[1].names
    assert rows[2].damaged is not None and "action 1" in rows[2].damaged
    assert rows[3].damaged is not None and "not UTF-8" in rows[3].damaged


def test_history_marks_a_game_whose_stored_score_differs_from_its_replay(tmp_path):
    """A flipped byte in the score column is damage too, not a new score."""
    scores = finished_games_database(tmp_path, 2, seed=5)
    edit(tmp_path, "UPDATE games SET score = ? WHERE id = 1", scores[1] + 1)
    with Storage.open(tmp_path) as storage:
        rows = {row.id: row for row in storage.history()}
    assert rows[1].damaged is not None and "score" in rows[1].damaged
    assert rows[2].damaged is None and rows[2].score == scores[2]


def test_history_shows_a_game_whose_status_was_garbled_as_damaged(tmp_path):
    """A status byte changed ('over' → 'ovfr') must not make the game vanish from the list."""
    finished_games_database(tmp_path, 2, seed=6)
    db = sqlite3.connect(tmp_path / "games.db")
    db.execute("PRAGMA ignore_check_constraints = ON")
    with db:
        db.execute("UPDATE games SET status = 'ovfr' WHERE id = 1")
    db.close()
    with Storage.open(tmp_path) as storage:
        rows = {row.id: row for row in storage.history()}
    assert rows[1].damaged is not None and "status" in rows[1].damaged


# -- the journal: checkpoints --------------------------------------------------------------


def test_a_finished_game_lives_in_the_main_file_not_in_the_journal(tmp_path):
    """Item 4: the end of a game checkpoints (TRUNCATE): games.db alone holds the game."""
    with Storage.open(tmp_path) as running:  # still open: no close to checkpoint for us
        scores = play_finished_games(running, 2, seed=7)
        assert (tmp_path / "games.db-wal").stat().st_size == 0
        alone = tmp_path / "alone"
        alone.mkdir()
        (alone / "games.db").write_bytes((tmp_path / "games.db").read_bytes())
    with Storage.open(alone) as storage:
        assert {row.id: row.score for row in storage.history()} == scores


def test_a_clean_stop_empties_the_journal(tmp_path):
    with Storage.open(tmp_path) as storage:
        game_id = storage.new_game(GameSetup(players=2))
        storage.append_action(game_id, Hint())
        assert (tmp_path / "games.db-wal").stat().st_size > 0
    wal = tmp_path / "games.db-wal"
    assert not wal.exists() or wal.stat().st_size == 0


# -- random bytes in games.db ----------------------------------------------------------------


#: Seeds of benchmarks/corruption.py whose damage once stopped the opening ("malformed
#: database schema", "string or blob too big", "unsupported file format") or the whole
#: history (bytes that are not UTF-8 in a rating, an outcome, a status).
ONCE_AN_ERROR = (151, 181, 373, 403, 438, 441, 475, 555, 578, 582)


@pytest.mark.parametrize("seed", [*range(40), *ONCE_AN_ERROR])
def test_random_bytes_in_the_database_lose_no_game_silently(tmp_path, seed):
    """Item 4: each finished game is listed as it was, or marked damaged, or the file is
    renamed aside with a notice; the opening does not fail. Issue 36: damage that only the
    whole-file check met at opening is said by that check (run after the first frame, and
    by `check`), or by `history` in one sentence, the file left as it is."""
    outcome = corrupt_trial(tmp_path, seed)
    assert outcome.silently_lost == [], outcome
    assert outcome.said_by in (None, "notice", "history", "check"), outcome
    if outcome.reported is not None and "moved aside" in outcome.reported:
        assert outcome.kept_aside, outcome


# -- one companion per data directory ------------------------------------------------------

HOLDER = """
import sys
from pathlib import Path
from companion.storage import DataDirLock
lock = DataDirLock(Path(sys.argv[1]))
print("locked", flush=True)
sys.stdin.readline()
"""


def test_a_second_process_cannot_take_the_data_directory_and_a_killed_one_frees_it(tmp_path):
    """Item 2: the lock is the kernel's (flock): held while the holder lives, gone at kill -9."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(tmp_path)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        with pytest.raises(CompanionRunningError, match=f"process {holder.pid}") as info:
            DataDirLock(tmp_path)
        assert isinstance(info.value, BlockingIOError) and isinstance(info.value, StorageError)
        assert "only one may use it at a time" in str(info.value)
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait(timeout=10)
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
    with DataDirLock(tmp_path) as lock:  # the kernel released it
        assert lock.path == tmp_path / LOCK_NAME
        assert (tmp_path / LOCK_NAME).read_text() == f"{os.getpid()}\n"


# -- a full SD card ------------------------------------------------------------------------


def test_an_action_that_cannot_be_stored_on_a_full_card_changes_nothing(tmp_path):
    """Item 3: a full file system is StorageFullError; the stored game is as it was, and
    the next action is stored once there is room again."""
    with full_filesystem(tmp_path) as card:
        data_dir = card.root / "data"
        with Storage.open(data_dir) as storage:
            game_id = storage.new_game(GameSetup(players=2))
            storage.append_action(game_id, Hint())
            card.fill()
            with pytest.raises(StorageFullError, match="The SD card is full") as info:
                for _ in range(200):  # the first pages may still fit
                    storage.append_action(game_id, Hint())
            assert isinstance(info.value, OSError) and info.value.errno == 28
            before = storage.export(game_id)
            with pytest.raises(StorageFullError):
                storage.append_action(game_id, Hint())
            assert storage.export(game_id) == before  # nothing half-written
            card.free()
            storage.append_action(game_id, Hint())
            assert storage.export(game_id) == before + '{"action": "hint"}\n'


@pytest.mark.parametrize("database", ["new", "with games"])
def test_opening_on_a_full_card_names_the_full_card_not_a_disk_io_error(tmp_path, database):
    """Item 3: start-up names the real cause (a new database, or one with games: SQLite
    cannot make its -shm file and says "disk I/O error")."""
    with full_filesystem(tmp_path) as card:
        if database == "with games":
            finished_games_database(card.root / "data", 2, seed=1)
        card.fill()
        with pytest.raises(StorageFullError, match="The SD card is full") as info:
            Storage.open(card.root / "data")
        assert "disk I/O error" not in str(info.value)


# -- random bytes in the journal ---------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_random_bytes_in_the_journal_lose_no_confirmed_action_silently(tmp_path, seed):
    """Item 4: SQLite stops at a damaged frame without a word; the companion says so and
    keeps a copy of the journal, or every confirmed action is still there."""
    trial = journal_trial(tmp_path, seed)
    assert trial.silently_lost == 0, trial
    if trial.reported and "journal" in trial.reported:
        assert trial.kept_aside, trial


def test_an_intact_journal_after_a_crash_is_no_notice(tmp_path):
    """The check must not cry wolf: a crash's journal, undamaged, recovers in silence."""
    with Storage.open(tmp_path / "running") as storage:
        setup = GameSetup(players=3)
        game_id = storage.new_game(setup)
        table = SimulatedTable(setup, random.Random(30), skill=1.0)
        for _ in range(30):
            storage.append_action(game_id, table.step())
        crashed = tmp_path / "crashed"
        crashed.mkdir()
        for name in ("games.db", "games.db-wal"):
            (crashed / name).write_bytes((tmp_path / "running" / name).read_bytes())
    with Storage.open(crashed) as storage:
        assert storage.notice is None
        assert len(storage.load(game_id).actions) == 30


# -- an I/O error below SQLite (issue 24) -----------------------------------------------------


@pytest.mark.parametrize("fault", ["eio", "erofs"])
def test_an_io_error_during_an_action_stores_nothing_and_the_next_action_is_stored(tmp_path, fault):
    """A FUSE file system fails SQLite's writes (EIO, EROFS): the action is a StorageError
    (never an exit), nothing is half-stored, and the same connection stores the next action
    once the card answers."""
    with faulty_filesystem(tmp_path) as card:
        with Storage.open(card.root / "data") as storage:
            game_id = storage.new_game(GameSetup(players=2))
            storage.append_action(game_id, Hint())
            before = storage.export(game_id)
            card.fail(fault)
            with pytest.raises(StorageError, match="Could not save an action"):
                storage.append_action(game_id, Hint())
            with pytest.raises(StorageError):
                storage.drop_last_action(game_id)
            card.fail("ok")
            assert storage.export(game_id) == before
            storage.append_action(game_id, Hint())
            assert storage.export(game_id) == before + '{"action": "hint"}\n'
        with Storage.open(card.root / "data") as storage:
            assert storage.notice is None
            assert len(storage.load(game_id).actions) == 2


# -- every fault of benchmarks/corruption.py (issue 24) ----------------------------------------


@pytest.fixture(scope="module")
def trials_dir(tmp_path_factory):
    """One folder for the module: the tables of eight are made once and copied per trial."""
    return tmp_path_factory.mktemp("trials")


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_each_fault_of_a_hostile_card_is_named_or_harmless(trials_dir, fault, seed):
    """Truncation of each file, random bytes after a clean stop or a kill -9, deleted and
    edited rows: every game is as confirmed, or a sentence names the loss; never an
    exception that is not ours."""
    trial = fault_trial(trials_dir, fault, seed)
    assert trial.verdict in ("intact", "named"), trial


@pytest.mark.parametrize("fault", ["eio", "erofs"])
def test_a_start_on_a_failing_card_is_one_sentence_and_changes_nothing(tmp_path, fault):
    """The card fails from the start: the opening is a StorageError in words (no SQLite
    internals, no traceback), and the data directory is left as it was found."""
    with faulty_filesystem(tmp_path) as card:
        data_dir = card.root / "data"
        with Storage.open(data_dir) as storage:
            game_id = storage.new_game(GameSetup(players=2))
            storage.append_action(game_id, Hint())
        before = {path.name: path.read_bytes() for path in data_dir.iterdir()}
        card.fail(fault)
        try:
            with pytest.raises(StorageError) as info:
                Storage.open(data_dir).close()
        finally:
            card.fail("ok")
        assert "[Errno" not in str(info.value)
        assert {path.name: path.read_bytes() for path in data_dir.iterdir()} == before
        with Storage.open(data_dir) as storage:
            assert len(storage.load(game_id).actions) == 1
