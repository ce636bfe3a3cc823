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
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.faults import finished_games_database

from companion.storage import FINDINGS_NAME, LEDGER_NAME, Storage
from engine import GameSetup, Hint

ROOT = Path(__file__).resolve().parents[2]

#: Kills of the opening in the default suite (benchmarks/corruption.py runs 100).
KILLS = int(os.environ.get("HANABI_START_KILLS", "12"))


def keys(storage: Storage) -> list[str]:
    return [finding.key for finding in storage.open_findings]


def emptied(data_dir: Path) -> None:
    """games.db emptied (0 bytes), its journal gone."""
    for name in ("games.db-wal", "games.db-shm"):
        (data_dir / name).unlink(missing_ok=True)
    (data_dir / "games.db").write_bytes(b"")


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

#: The child: imports first, says so, then opens the data directory when told (the parent
#: kills it at a random moment of the opening).
CHILD = """
import sys
from pathlib import Path
from companion.storage import Storage
print("ready", flush=True)
sys.stdin.readline()
Storage.open(Path(sys.argv[1])).close()
print("done", flush=True)
"""

FAULTS = ("emptied", "moved aside", "row deleted", "ledger gone")


def prepare(data_dir: Path, fault: str, seed: int) -> str:
    """A data directory with ``fault``; returns the key the next opening must say."""
    finished_games_database(data_dir, 3, seed=seed)
    if fault == "emptied":
        emptied(data_dir)
        return "database_emptied"
    if fault == "moved aside":
        (data_dir / "games.db").write_bytes(b"SQLite format 3\x00" + bytes(200))
        return "database_corrupt_moved_aside"
    db = sqlite3.connect(data_dir / "games.db")
    with db:
        db.execute("DELETE FROM games WHERE id = 2")
    db.close()
    if fault == "row deleted":
        return "games_missing"
    (data_dir / LEDGER_NAME).unlink()
    return "ledger_missing"


def killed_opening(data_dir: Path, rng: random.Random, longest: float) -> float:
    """Open ``data_dir`` in a child and kill it ``0…longest`` s after it starts opening."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(data_dir)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert child.stdout is not None and child.stdin is not None
    assert child.stdout.readline().strip() == "ready"
    delay = rng.uniform(0, longest)
    child.stdin.write("go\n")
    child.stdin.flush()
    time.sleep(delay)
    child.kill()
    child.wait()
    return delay


def opening_time(tmp_path: Path) -> float:
    """How long one opening of a faulty data directory takes here (the kills' range)."""
    data_dir = tmp_path / "timed"
    prepare(data_dir, "emptied", 0)
    started = time.perf_counter()
    Storage.open(data_dir).close()
    return time.perf_counter() - started


def kill_trials(tmp_path: Path, count: int, seed: int = 36) -> list[str]:
    """``count`` openings killed at random moments; the faults whose finding was lost."""
    rng = random.Random(seed)
    longest = max(0.02, opening_time(tmp_path) * 1.5)
    lost = []
    for trial in range(count):
        fault = FAULTS[trial % len(FAULTS)]
        data_dir = tmp_path / f"trial-{trial}"
        expected = prepare(data_dir, fault, seed=trial)
        killed_opening(data_dir, rng, longest)
        with Storage.open(data_dir) as storage:
            if expected not in keys(storage):
                lost.append(f"{fault}: {keys(storage)}")
    return lost


def test_a_kill_at_any_moment_of_the_opening_loses_no_finding(tmp_path):
    assert kill_trials(tmp_path, KILLS) == []
