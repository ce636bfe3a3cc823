"""Issue 36's trials: findings kept across starts, two files damaged together, and a kill -9
at a random moment of the opening (tests/storage/test_findings_kept.py, and
benchmarks/corruption.py ``--issue-36``)."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from companion.storage import FINDINGS_NAME, LEDGER_NAME, Storage
from engine import GameSetup
from engine.table import SimulatedTable
from support.faults import finished_games_database, play_finished_games

ROOT = Path(__file__).resolve().parents[2]


def emptied(data_dir: Path) -> None:
    """games.db emptied (0 bytes), its journal gone."""
    for name in ("games.db-wal", "games.db-shm"):
        (data_dir / name).unlink(missing_ok=True)
    (data_dir / "games.db").write_bytes(b"")


# -- two files together ------------------------------------------------------------------------

TWO_FILES = {
    "ledger+cut-wal": "games.ledger deleted, games.db-wal cut after a kill -9",
    "empty-ledger+cut-wal": "games.ledger emptied, games.db-wal cut after a kill -9",
    "ledger+empty-db": "games.ledger deleted, games.db emptied",
    "bytes-ledger+empty-db": "random bytes over games.ledger, games.db emptied",
    "findings+empty-db": "games.findings deleted, games.db emptied",
    "findings+cut-wal": "games.findings deleted, games.db-wal cut after a kill -9",
    "ledger+delete-game": "games.ledger deleted, a finished game's row deleted",
    "ledger+findings": "games.ledger and games.findings deleted (nothing else lost)",
}


@dataclass
class TwoFileTrial:
    """One data directory with two files damaged, opened three times."""

    fault: str
    seed: int
    lost: bool = False  # a game or a confirmed action is gone
    said: list[str] = field(default_factory=list)  # the findings of the first start
    lost_across_restarts: list[str] = field(default_factory=list)  # … not said at the second
    crash: str = ""

    @property
    def verdict(self) -> str:
        if self.crash:
            return "crash"
        if self.lost and not self.said:
            return "silent"
        return "named" if self.said else "intact"


def two_file_trial(tmp_path: Path, fault: str, seed: int) -> TwoFileTrial:
    """Games finished, one in play with its actions in the -wal, the files as a kill -9 leaves
    them; then ``fault``; then three starts: the findings said at the first must be said at
    the second, and none after OK."""
    rng = random.Random(seed)
    running = tmp_path / f"{fault}-{seed}-running"
    crashed = tmp_path / f"{fault}-{seed}"
    crashed.mkdir(parents=True)
    with Storage.open(running) as storage:
        play_finished_games(storage, rng.randint(1, 4), seed)
        setup = GameSetup(players=rng.randint(2, 5))
        game_id = storage.new_game(setup)
        table = SimulatedTable(setup, random.Random(seed), skill=0.9)
        confirmed = 0
        for _ in range(rng.randint(2, 30)):
            if table.game.is_over:
                break
            storage.append_action(game_id, table.step())
            confirmed += 1
        for name in ("games.db", "games.db-wal", LEDGER_NAME, FINDINGS_NAME):
            (crashed / name).write_bytes((running / name).read_bytes())
        games = len(storage.history())
    trial = TwoFileTrial(fault, seed)
    first, second = fault.split("+")
    for part in (first, second):
        if part in ("ledger", "findings"):
            (crashed / (LEDGER_NAME if part == "ledger" else FINDINGS_NAME)).unlink()
        elif part == "empty-ledger":
            (crashed / LEDGER_NAME).write_bytes(b"")
        elif part == "bytes-ledger":
            (crashed / LEDGER_NAME).write_bytes(rng.randbytes(1024))
        elif part == "cut-wal":
            wal = crashed / "games.db-wal"
            os.truncate(wal, rng.randrange(wal.stat().st_size))
        elif part == "empty-db":
            emptied(crashed)
        elif part == "delete-game":
            db = sqlite3.connect(crashed / "games.db")
            with db:
                db.execute("DELETE FROM games WHERE id = ?", (rng.randint(1, game_id - 1),))
            db.close()
    try:
        with Storage.open(crashed) as storage:
            trial.said = [f.key for f in storage.open_findings]
            held = storage.history()
            now = {row.id: row for row in held}
            trial.lost = len(held) < games or (
                game_id not in now or len(storage.load(game_id).actions) < confirmed
            )
        with Storage.open(crashed) as storage:  # the second start: the same words
            again = [f.key for f in storage.open_findings]
            trial.lost_across_restarts = [key for key in trial.said if key not in again]
            storage.acknowledge_findings([f.id for f in storage.open_findings])
        with Storage.open(crashed) as storage:
            if storage.open_findings:
                trial.crash = f"still said after OK: {storage.open_findings}"
    except Exception as error:
        trial.crash = f"{type(error).__name__}: {error}"
    return trial


# -- a kill -9 at a random moment of the opening -----------------------------------------------

#: The child: imports first, says so, then opens the data directory when told (the parent
#: kills it at a random moment of the opening).
CHILD = """
import sys, time
from pathlib import Path
from companion.storage import Storage
print("ready", flush=True)
sys.stdin.readline()
started = time.perf_counter()
Storage.open(Path(sys.argv[1])).close()
print("done", time.perf_counter() - started, flush=True)
"""

KILL_FAULTS = ("emptied", "moved aside", "row deleted", "ledger gone")


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


def _child(data_dir: Path) -> subprocess.Popen[str]:
    """The child, imports done, waiting for its go."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(data_dir)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,  # the opening's warnings (the findings are counted)
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert child.stdout is not None and child.stdin is not None
    assert child.stdout.readline().strip() == "ready"
    return child


def killed_opening(data_dir: Path, rng: random.Random, longest: float) -> bool:
    """Open ``data_dir`` in a child and kill it ``0…longest`` s after it starts opening;
    True if the kill came before the opening ended."""
    child = _child(data_dir)
    assert child.stdin is not None and child.stdout is not None
    delay = rng.uniform(0, longest)
    child.stdin.write("go\n")
    child.stdin.flush()
    time.sleep(delay)
    child.kill()
    child.wait()
    return "done" not in child.stdout.read()


def opening_time(tmp_path: Path) -> float:
    """How long the child's opening of a faulty data directory takes here, the longest of
    the faults (the kills' range)."""
    longest = 0.0
    for fault in KILL_FAULTS:
        data_dir = tmp_path / f"timed-{fault}"
        prepare(data_dir, fault, 0)
        child = _child(data_dir)
        out, _ = child.communicate("go\n", timeout=60)
        longest = max(longest, float(out.split()[-1]))
    return longest


def kill_trials(tmp_path: Path, count: int, seed: int = 36) -> tuple[list[str], int]:
    """``count`` openings killed at random moments: the faults whose finding the next start
    did not say, and how many kills came before the opening ended."""
    rng = random.Random(seed)
    longest = opening_time(tmp_path) * 1.2
    lost = []
    during = 0
    for trial in range(count):
        fault = KILL_FAULTS[trial % len(KILL_FAULTS)]
        data_dir = tmp_path / f"trial-{trial}"
        expected = prepare(data_dir, fault, seed=trial)
        during += killed_opening(data_dir, rng, longest)
        with Storage.open(data_dir) as storage:
            keys = [finding.key for finding in storage.open_findings]
            if expected not in keys:
                lost.append(f"{fault}: {keys}")
    return lost, during
