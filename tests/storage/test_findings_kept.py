"""Issue 36: a finding is kept until a player has seen it, and two witnesses of what the
ledger guards (docs/decisions 0089).

A finding is in ``games.findings`` and in the database's settings: said at every opening
until acknowledged, and neither file alone drops it. A kill -9 at a random moment of the
opening (a child process) never loses one.
"""

from __future__ import annotations

import os
import random
import sqlite3
from pathlib import Path

import pytest
from support.faults import finished_games_database
from support.findings_trials import TWO_FILES, emptied, kill_trials, two_file_trial

from companion.storage import FINDINGS_NAME, LEDGER_NAME, Storage, StorageError
from engine import GameSetup, Hint

ROOT = Path(__file__).resolve().parents[2]

#: Kills of the opening in the default suite (benchmarks/corruption.py runs 100).
KILLS = int(os.environ.get("HANABI_START_KILLS", "12"))


def keys(storage: Storage) -> list[str]:
    return [finding.key for finding in storage.open_findings]


def game_in_play(data_dir: Path, actions: int = 5) -> int:
    with Storage.open(data_dir) as storage:
        game_id = storage.new_game(GameSetup(players=2))
        for _ in range(actions):
            storage.append_action(game_id, Hint())
    return game_id


# -- (A) kept until seen -------------------------------------------------------------------


def test_a_finding_is_said_at_every_opening_until_acknowledged(tmp_path):
    finished_games_database(tmp_path, 3, seed=1)
    emptied(tmp_path)
    with Storage.open(tmp_path) as storage:
        assert storage.findings == [("database_emptied", {"games": 3})]
        assert keys(storage) == ["database_emptied"]
    for _ in range(2):  # the ledger was rewritten: only the kept finding says it now
        with Storage.open(tmp_path) as storage:
            assert storage.findings == []
            assert keys(storage) == ["database_emptied"]
            ids = [finding.id for finding in storage.open_findings]
    with Storage.open(tmp_path) as storage:
        storage.acknowledge_findings(ids)
        assert storage.open_findings == []
    with Storage.open(tmp_path) as storage:
        assert storage.open_findings == []


def test_neither_file_alone_drops_a_finding(tmp_path):
    finished_games_database(tmp_path, 2, seed=2)
    emptied(tmp_path)
    Storage.open(tmp_path).close()
    (tmp_path / FINDINGS_NAME).unlink()  # the file beside: the database still has it
    with Storage.open(tmp_path) as storage:
        assert keys(storage) == ["database_emptied", "findings_file_lost"]
    db = sqlite3.connect(tmp_path / "games.db")  # the database's copy: the file has it
    with db:
        db.execute("DELETE FROM settings WHERE key = 'storage.findings'")
    db.close()
    with Storage.open(tmp_path) as storage:
        assert keys(storage) == ["database_emptied", "findings_file_lost"]


def test_a_damaged_findings_file_is_said_and_written_anew(tmp_path):
    game_in_play(tmp_path)
    (tmp_path / FINDINGS_NAME).write_bytes(b"HNBF 00000000\n{}")
    with Storage.open(tmp_path) as storage:
        assert keys(storage) == ["findings_file_lost"]
    with Storage.open(tmp_path) as storage:  # whole again; the finding kept
        assert keys(storage) == ["findings_file_lost"]


def test_damage_met_again_is_kept_once(tmp_path):
    game_in_play(tmp_path)
    with Storage.open(tmp_path) as storage:
        assert len(storage.keep_findings([("finished_game_damaged", {"game": 1})])) == 1
        assert storage.keep_findings([("finished_game_damaged", {"game": 1})]) == []
        storage.acknowledge_findings([f.id for f in storage.open_findings])
        assert storage.keep_findings([("finished_game_damaged", {"game": 1})]) == []
        assert len(storage.keep_findings([("finished_game_damaged", {"game": 2})])) == 1


def test_the_read_only_commands_see_the_open_findings(tmp_path):
    finished_games_database(tmp_path, 2, seed=3)
    emptied(tmp_path)
    Storage.open(tmp_path).close()
    storage = Storage.open_existing(tmp_path)
    assert storage is not None
    with storage:
        assert keys(storage) == ["database_emptied"]


# -- (B) two witnesses -----------------------------------------------------------------------


def test_the_ledger_deleted_and_the_journal_cut_is_said(tmp_path):
    """Issue 36: 20 of 20 silent before."""
    running, crashed = tmp_path / "running", tmp_path / "crashed"
    game_id = game_in_play(running, 3)
    storage = Storage.open(running)
    for _ in range(10):
        storage.append_action(game_id, Hint())
    crashed.mkdir()
    for name in ("games.db", "games.db-wal", FINDINGS_NAME):  # no ledger
        (crashed / name).write_bytes((running / name).read_bytes())
    storage.close()
    wal = crashed / "games.db-wal"
    os.truncate(wal, wal.stat().st_size // 2)
    with Storage.open(crashed) as opened:
        assert "ledger_missing" in keys(opened)


def test_the_database_emptied_and_the_ledger_gone_is_said(tmp_path):
    """Issue 36: 2 of 2 silent before; the findings file witnessed the games."""
    finished_games_database(tmp_path, 4, seed=4)
    emptied(tmp_path)
    (tmp_path / LEDGER_NAME).unlink()
    with Storage.open(tmp_path) as storage:
        assert keys(storage) == ["database_emptied"]
        assert storage.open_findings[0].params == {"games": 4}


def test_the_database_emptied_and_the_findings_file_gone_is_said(tmp_path):
    finished_games_database(tmp_path, 2, seed=5)
    emptied(tmp_path)
    (tmp_path / FINDINGS_NAME).unlink()
    with Storage.open(tmp_path) as storage:
        assert keys(storage) == ["database_emptied"]


@pytest.mark.parametrize("how", ["deleted", "emptied", "damaged"])
def test_the_ledger_alone_lost_is_said(tmp_path, how):
    game_in_play(tmp_path)
    ledger = tmp_path / LEDGER_NAME
    if how == "deleted":
        ledger.unlink()
    elif how == "emptied":
        ledger.write_bytes(b"")
    else:
        ledger.write_bytes(random.Random(3).randbytes(1024))
    with Storage.open(tmp_path) as storage:
        assert keys(storage) == ["ledger_damaged" if how == "damaged" else "ledger_missing"]


def test_a_new_data_directory_has_nothing_to_say(tmp_path):
    with Storage.open(tmp_path) as storage:
        assert storage.open_findings == []
        storage.new_game(GameSetup(players=2))
    with Storage.open(tmp_path) as storage:
        assert storage.open_findings == []


def test_a_game_row_deleted_with_the_ledger_gone_is_said(tmp_path):
    finished_games_database(tmp_path, 3, seed=6)
    (tmp_path / LEDGER_NAME).unlink()
    db = sqlite3.connect(tmp_path / "games.db")
    with db:
        db.execute("DELETE FROM games WHERE id = 3")
    db.close()
    with Storage.open(tmp_path) as storage:
        assert set(keys(storage)) == {"ledger_missing", "games_missing"}


# -- a kill -9 at any moment of the opening ---------------------------------------------------


def test_a_kill_at_any_moment_of_the_opening_loses_no_finding(tmp_path):
    lost, _ = kill_trials(tmp_path, KILLS)  # how many land inside it: the benchmark says
    assert lost == []


@pytest.mark.parametrize("fault", sorted(TWO_FILES))
def test_two_files_damaged_together_are_said_and_kept(tmp_path, fault):
    """Issue 36: the ledger deleted and the journal cut, games.db emptied and the ledger
    gone, … (silent before): said, and said again at the next start."""
    for seed in range(2):
        trial = two_file_trial(tmp_path, fault, seed)
        assert trial.verdict in ("named", "intact"), trial
        assert trial.lost_across_restarts == [], trial


def test_a_findings_file_that_cannot_be_written_is_one_sentence(tmp_path):
    finished_games_database(tmp_path, 2, seed=7)
    (tmp_path / FINDINGS_NAME).unlink()
    (tmp_path / FINDINGS_NAME).mkdir()  # not a file: it can be neither read nor replaced
    with pytest.raises(StorageError, match=r"cannot be written .* what was found cannot be kept"):
        Storage.open(tmp_path)
    (tmp_path / FINDINGS_NAME).rmdir()
    with Storage.open(tmp_path) as storage:  # the database remembered it: said
        assert keys(storage) == ["findings_file_lost"]
