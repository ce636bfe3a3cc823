"""Real faults for the tests and the benchmarks: a real full file system, real damaged files.

``full_filesystem`` mounts a small tmpfs (root only: elsewhere the test is skipped, and fails
in CI); ``corrupt_trial`` writes random bytes into a real games database and says what the
companion made of it.
"""

from __future__ import annotations

import contextlib
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from needs import need_tool, unavailable

from companion.storage import LEDGER_NAME, Storage, StorageError
from engine import GameSetup
from engine.table import SimulatedTable


def play_finished_games(storage: Storage, count: int, seed: int) -> dict[int, int]:
    """Play ``count`` whole games into ``storage``; their scores by id."""
    rng = random.Random(seed)
    scores = {}
    for _ in range(count):
        setup = GameSetup(players=rng.randint(2, 5))
        game_id = storage.new_game(setup)
        table = SimulatedTable(setup, random.Random(rng.random()), skill=0.9)
        while not table.game.is_over:
            storage.append_action(game_id, table.step())
        storage.finish(game_id, table.game)
        scores[game_id] = table.game.score
    return scores


def finished_games_database(data_dir: Path, count: int, seed: int) -> dict[int, int]:
    """A closed games database of ``count`` finished games; their scores by id."""
    with Storage.open(data_dir) as storage:
        return play_finished_games(storage, count, seed)


class FullCard:
    """A small real file system; ``fill`` takes every free byte, ``free`` gives them back."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.filler = root / "filler"

    def fill(self) -> None:
        with self.filler.open("ab", buffering=0) as file:
            for chunk in (65536, 4096, 512, 1):
                with contextlib.suppress(OSError):
                    while True:
                        file.write(b"\0" * chunk)

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)


@contextlib.contextmanager
def full_filesystem(tmp_path: Path, size: str = "2m") -> Iterator[FullCard]:
    """A tmpfs of ``size`` mounted under ``tmp_path`` for the test (root only)."""
    mount = need_tool("mount")
    root = tmp_path / "card"
    root.mkdir()
    done = subprocess.run(
        [mount, "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(root)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        unavailable(f"cannot mount a tmpfs here ({done.stderr.strip()})")
    try:
        yield FullCard(root)
    finally:
        subprocess.run(["umount", "-l", str(root)], check=False)


class FaultyCard:
    """A folder behind a FUSE file system (tests/faultyfs.py) that fails on demand."""

    def __init__(self, root: Path, control: Path) -> None:
        self.root = root
        self.control = control

    def fail(self, fault: str) -> None:
        """``eio`` (reads and writes fail), ``erofs`` (writes fail) or ``ok``."""
        self.control.write_text(fault)


@contextlib.contextmanager
def faulty_filesystem(tmp_path: Path) -> Iterator[FaultyCard]:
    """A real file system whose calls fail with EIO or EROFS on demand, below SQLite."""
    try:
        import mfusepy  # noqa: F401
    except (ImportError, OSError) as error:  # OSError: libfuse 3 is missing
        unavailable(f"mfusepy cannot load libfuse 3 here ({error})")
    backing, root, control = tmp_path / "backing", tmp_path / "fuse", tmp_path / "fault"
    backing.mkdir()
    root.mkdir()
    control.write_text("ok")
    server = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("faultyfs.py")), backing, root, control],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 20
        while not os.path.ismount(root):
            if server.poll() is not None or time.monotonic() > deadline:
                unavailable(f"cannot mount a FUSE file system here ({server.stderr.read()!r})")
            time.sleep(0.05)
        yield FaultyCard(root, control)
    finally:
        control.write_text("ok")
        subprocess.run(["umount", "-l", str(root)], check=False, capture_output=True)
        server.terminate()
        server.wait(timeout=20)


@dataclass
class Trial:
    """What one database with random bytes became."""

    seed: int
    reported: str | None = None  # the notice or error the companion gave, if any
    #: where it was said: "opening" (an error), "notice" (moved aside), "history" (an error)
    said_by: str | None = None
    kept_aside: bool = False  # the damaged file is still on disk, renamed
    damaged_rows: list[int] = field(default_factory=list)
    intact_rows: list[int] = field(default_factory=list)
    silently_lost: list[int] = field(default_factory=list)


def corrupt_trial(tmp_path: Path, seed: int, games: int = 6) -> Trial:
    """Finished games, then random bytes written into games.db; what does the companion say?

    A game is lost silently when nothing was reported (no notice, no error) and the history
    neither lists it as it was nor marks it damaged.
    """
    rng = random.Random(seed)
    data_dir = tmp_path / f"trial-{seed}"
    scores = finished_games_database(data_dir, games, seed)
    path = data_dir / "games.db"
    data = bytearray(path.read_bytes())
    for _ in range(rng.randint(1, 8)):
        start = rng.randrange(len(data))
        length = 1 if rng.random() < 0.5 else rng.randint(2, 64)
        data[start : start + length] = rng.randbytes(len(data[start : start + length]))
    path.write_bytes(bytes(data))
    trial = Trial(seed)
    try:
        storage = Storage.open(data_dir)
    except StorageError as error:
        trial.reported, trial.said_by = str(error), "opening"
        trial.kept_aside = path.exists()
        return trial
    with storage:
        if storage.notice:
            trial.reported, trial.said_by = storage.notice, "notice"
            trial.kept_aside = any(p.name.startswith("games.db.") for p in data_dir.iterdir())
            return trial
        try:
            rows = {row.id: row for row in storage.history()}
        except StorageError as error:  # said in one sentence by the CLI and the screen
            trial.reported, trial.said_by = str(error), "history"
            trial.kept_aside = path.exists()
            return trial
    for game_id, score in scores.items():
        row = rows.get(game_id)
        if row is not None and row.damaged:
            trial.damaged_rows.append(game_id)
        elif row is not None and row.score == score:
            trial.intact_rows.append(game_id)
        else:
            trial.silently_lost.append(game_id)
    return trial


@dataclass
class JournalTrial:
    """What one write-ahead log with random bytes became."""

    seed: int
    confirmed: int  # actions of the game in progress the writer had committed
    recovered: int = 0  # actions the reopened database gives back
    reported: str | None = None
    kept_aside: bool = False

    @property
    def silently_lost(self) -> int:
        return 0 if self.reported else self.confirmed - self.recovered


def journal_trial(tmp_path: Path, seed: int) -> JournalTrial:
    """Finished games (checkpointed), a game in progress in the -wal only, a crash (the files
    copied as they are while open), then random bytes in the copied -wal."""
    rng = random.Random(seed)
    running = tmp_path / f"running-{seed}"
    crashed = tmp_path / f"crashed-{seed}"
    crashed.mkdir(parents=True)
    with Storage.open(running) as storage:
        play_finished_games(storage, rng.randint(1, 4), seed)
        setup = GameSetup(players=rng.randint(2, 5))
        game_id = storage.new_game(setup)
        table = SimulatedTable(setup, random.Random(rng.random()), skill=0.9)
        confirmed = 0
        for _ in range(rng.randint(1, 40)):
            if table.game.is_over:
                break
            storage.append_action(game_id, table.step())
            confirmed += 1
        for name in ("games.db", "games.db-wal", LEDGER_NAME):  # as a kill -9 leaves the disk
            (crashed / name).write_bytes((running / name).read_bytes())
    wal = crashed / "games.db-wal"
    data = bytearray(wal.read_bytes())
    for _ in range(rng.randint(1, 4)):
        start = rng.randrange(len(data))
        length = 1 if rng.random() < 0.5 else rng.randint(2, 64)
        data[start : start + length] = rng.randbytes(len(data[start : start + length]))
    wal.write_bytes(bytes(data))
    trial = JournalTrial(seed, confirmed)
    with Storage.open(crashed) as storage:
        if storage.notice:
            trial.reported = storage.notice
            trial.kept_aside = any(".damaged-" in p.name for p in crashed.iterdir())
        try:
            trial.recovered = len(storage.load(game_id).actions)
        except StorageError as error:  # the game's start was in the dropped frames too
            trial.reported = trial.reported or str(error)
    return trial
