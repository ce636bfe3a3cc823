"""Real faults for the tests and the benchmarks: a real full file system, real damaged files.

``full_filesystem`` mounts a small tmpfs (root only: elsewhere the test is skipped, and fails
in CI); ``corrupt_trial`` writes random bytes into a real games database and says what the
companion made of it.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import strategies as st

from companion.shell.commands.stored import storage_notice_in_english
from companion.storage import FINDINGS_NAME, LEDGER_NAME, Storage, StorageError
from engine import GameSetup
from engine.table import SimulatedTable
from support.needs import need_tool, unavailable


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
    """A folder behind a FUSE file system (tests/support/faultyfs.py) that fails on demand."""

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
    #: where it was said: "opening" (an error), "notice" (moved aside), "history" (an error),
    #: "check" (the whole-file check, run by the app in the background and by ``check``)
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
        notice = storage_notice_in_english(storage)
        if notice:
            trial.reported, trial.said_by = notice, "notice"
            trial.kept_aside = any(p.name.startswith("games.db.") for p in data_dir.iterdir())
            return trial
        try:
            rows = {row.id: row for row in storage.history()}
        except StorageError as error:  # said in one sentence by the CLI and the screen
            trial.reported, trial.said_by = str(error), "history"
            trial.kept_aside = path.exists()
            return trial
        problems = storage.check()  # the whole-file check, after the app's first frame
        if problems:
            trial.reported, trial.said_by = problems[0], "check"
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
        for name in ("games.db", "games.db-wal", LEDGER_NAME, FINDINGS_NAME):  # as kill -9 leaves
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
        notice = storage_notice_in_english(storage)
        if notice:
            trial.reported = notice
            trial.kept_aside = any(".damaged-" in p.name for p in crashed.iterdir())
        try:
            trial.recovered = len(storage.load(game_id).actions)
        except StorageError as error:  # the game's start was in the dropped frames too
            trial.reported = trial.reported or str(error)
    return trial


# -- issue 24: every fault of a hostile SD card, tried on a data directory of 8 games --------

#: The faults :func:`fault_trial` knows, with what each does.
FAULTS = {
    "bytes-clean": "random bytes in games.db after a clean stop (checkpointed)",
    "bytes-crash": "random bytes in games.db after a kill -9 (the -wal present)",
    "bytes-wal": "random bytes in games.db-wal after a kill -9",
    "cut-db": "games.db truncated at a random length (0 included) after a clean stop",
    "cut-wal": "games.db-wal truncated at a random length after a kill -9",
    "cut-ledger": "games.ledger truncated at a random length after a kill -9",
    "delete-row": "a row deleted (an action, the last action, a finished game's row)",
    "edit-row": "a row edited (a card changed to another legal-looking one, a header)",
}


@dataclass
class FaultTrial:
    """What one fault did: the games changed or lost, and what the companion said."""

    fault: str
    seed: int
    said: list[str] = field(default_factory=list)  # notices, errors, damaged rows
    changed: list[int] = field(default_factory=list)  # games not as confirmed
    silent: list[int] = field(default_factory=list)  # … of which nothing was said
    crash: str | None = None  # an exception that is not a sentence of ours

    @property
    def verdict(self) -> str:
        if self.crash:
            return "crash"
        if self.silent:
            return "silent"
        return "named" if self.changed else "intact"


#: Tables of eight made so far (they take seconds each): a trial copies one of them.
TEMPLATES = 16
_tables: dict[tuple[Path, int], dict[int, str]] = {}


def _table_of_eight(tmp_path: Path, template: int, running: Path, crashed: Path) -> dict[int, str]:
    """7 finished games and a game in progress of 5-40 actions (in the -wal only), stopped
    cleanly in ``running`` and copied into ``crashed`` as a kill -9 leaves the disk; the
    logs as confirmed, by id. Made once per template and copied."""
    source = tmp_path / f"template-{template}"
    key = (tmp_path, template)
    if key not in _tables:
        rng = random.Random(f"template-{template}")
        confirmed: dict[int, str] = {}
        (source / "crashed").mkdir(parents=True)
        with Storage.open(source / "running") as storage:
            play_finished_games(storage, 7, rng.randrange(1 << 30))
            setup = GameSetup(players=rng.randint(2, 5))
            game_id = storage.new_game(setup)
            table = SimulatedTable(setup, random.Random(rng.random()), skill=0.9)
            for _ in range(rng.randint(5, 40)):
                if table.game.is_over:
                    break
                storage.append_action(game_id, table.step())
            for row in storage.history():
                confirmed[row.id] = storage.export(row.id)
            for path in (source / "running").iterdir():
                (source / "crashed" / path.name).write_bytes(path.read_bytes())
        _tables[key] = confirmed
    shutil.copytree(source / "running", running)
    shutil.copytree(source / "crashed", crashed)
    return _tables[key]


def _random_bytes(path: Path, rng: random.Random, runs: int = 4) -> None:
    data = bytearray(path.read_bytes())
    if not data:
        return
    for _ in range(rng.randint(1, runs)):
        start = rng.randrange(len(data))
        length = 1 if rng.random() < 0.5 else rng.randint(2, 64)
        data[start : start + length] = rng.randbytes(len(data[start : start + length]))
    path.write_bytes(bytes(data))


def _cut(path: Path, rng: random.Random) -> None:
    size = path.stat().st_size
    keep = 0 if rng.random() < 0.15 else rng.randint(0, max(0, size - 1))
    os.truncate(path, keep)


def _edit_rows(data_dir: Path, fault: str, rng: random.Random, confirmed: dict[int, str]) -> None:
    """Change the file with SQL behind the companion's back (as a hand or a tool would)."""
    import sqlite3

    db = sqlite3.connect(data_dir / "games.db")
    game_id = rng.choice(sorted(confirmed))
    with db:
        db.execute("PRAGMA foreign_keys = OFF")
        kind = rng.randrange(3)
        if fault == "delete-row" and kind == 0:  # any action
            (count,) = db.execute(
                "SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)
            ).fetchone()
            if count:
                seq = rng.randint(1, count)
                db.execute("DELETE FROM actions WHERE game_id = ? AND seq = ?", (game_id, seq))
        elif fault == "delete-row" and kind == 1:  # the last action
            db.execute(
                "DELETE FROM actions WHERE game_id = ? AND seq ="
                " (SELECT MAX(seq) FROM actions WHERE game_id = ?)",
                (game_id, game_id),
            )
        elif fault == "delete-row":  # a finished game's row (its actions left behind)
            db.execute("DELETE FROM games WHERE id = ? AND status = 'over'", (game_id,))
        elif kind < 2:  # a card changed to another one that parses
            rows = db.execute(
                "SELECT seq, line FROM actions WHERE game_id = ? AND line LIKE '%card%'",
                (game_id,),
            ).fetchall()
            if rows:
                seq, line = rng.choice(rows)
                card = line.split('"card": "')[1][:2]
                other = rng.choice([c + r for c in "RYGBW" for r in "12345" if c + r != card])
                db.execute(
                    "UPDATE actions SET line = ? WHERE game_id = ? AND seq = ?",
                    (line.replace(card, other), game_id, seq),
                )
        else:  # the header: a name changed
            db.execute(
                "UPDATE games SET header = replace(header, 'Player', 'Plyer') WHERE id = ?",
                (game_id,),
            )
    db.close()


def fault_trial(tmp_path: Path, fault: str, seed: int) -> FaultTrial:
    """One fault on a data directory of 8 games, then the companion's opening, its history
    and every game's export compared with what was confirmed before."""
    rng = random.Random(f"{fault}-{seed}")
    running = tmp_path / f"{fault}-{seed}"
    crashed = tmp_path / f"{fault}-{seed}-crashed"
    confirmed = _table_of_eight(tmp_path, seed % TEMPLATES, running, crashed)
    after_crash = fault in ("bytes-crash", "bytes-wal", "cut-wal", "cut-ledger")
    data_dir = crashed if after_crash else running
    if fault in ("bytes-clean", "bytes-crash"):
        _random_bytes(data_dir / "games.db", rng)
    elif fault == "bytes-wal":
        _random_bytes(data_dir / "games.db-wal", rng)
    elif fault == "cut-db":
        _cut(data_dir / "games.db", rng)
    elif fault == "cut-wal":
        _cut(data_dir / "games.db-wal", rng)
    elif fault == "cut-ledger":
        _cut(data_dir / "games.ledger", rng)
    else:
        _edit_rows(data_dir, fault, rng, confirmed)
    trial = FaultTrial(fault, seed)
    try:
        _look(data_dir, confirmed, trial)
    except Exception as error:  # what the benchmark counts as a crash
        trial.crash = f"{type(error).__name__}: {error}"
    return trial


def _named_by_notice(storage: Storage, confirmed: dict[int, str]) -> set[int]:
    """The games the opening's notice speaks of: all of them for a file moved aside or
    emptied, the ids it lists, the game in play for a damaged or cut journal."""
    named: set[int] = set()
    for key, params in storage.findings:
        if key == "games_missing":
            named |= {int(word) for word in str(params["games"]).split(", ") if word.isdigit()}
        elif key == "actions_missing":
            named.add(int(str(params["game"])))
        else:  # the whole file
            named |= set(confirmed)
    if storage.journal_copy is not None:
        named.add(max(confirmed))  # the game in play, whose actions the journal held
    if storage.notice and not storage.findings and storage.journal_copy is None:
        named |= set(confirmed)  # a journal left without its database: the whole file
    return named


def _look(data_dir: Path, confirmed: dict[int, str], trial: FaultTrial) -> None:
    """Open, list and export as the companion and its commands would; note what was said."""
    from companion.storage import DamagedGameError

    try:
        storage = Storage.open(data_dir)
    except StorageError as error:  # a sentence at start: every game is named with it
        trial.said.append(str(error))
        trial.changed = sorted(confirmed)
        return
    with storage:
        notice = storage_notice_in_english(storage)
        if notice:
            trial.said.append(notice)
        named_here = _named_by_notice(storage, confirmed)
        try:
            rows = {row.id: row for row in storage.history()}
        except StorageError as error:
            trial.said.append(str(error))
            rows = {}
            named_here = set(confirmed)  # the history says it cannot be read: all of them
        for game_id, text in confirmed.items():
            row = rows.get(game_id)
            named = game_id in named_here or (row is not None and row.damaged is not None)
            try:
                now = storage.export(game_id)
            except DamagedGameError as error:
                now, named = None, True
                trial.said.append(str(error))
            except StorageError as error:  # e.g. an unknown game: nothing said by itself
                now = None
                named = named or "damaged" in str(error)
            if now != text:
                trial.changed.append(game_id)
                if not named:
                    trial.silent.append(game_id)


def damaged(draw: st.DrawFn, data: bytearray, most: int) -> bytes:
    """``data`` after up to ``most`` damages an SD card or an editor could do (a flipped
    byte, bytes deleted or inserted, the file cut, a line repeated), drawn by hypothesis.
    Shared by the log fuzzers (``replay``, ``import``)."""
    for _ in range(draw(st.integers(0, most))):
        kind = draw(st.sampled_from(["flip", "delete", "insert", "cut", "line"]))
        i = draw(st.integers(0, len(data) - 1))
        if kind == "flip":
            data[i] = draw(st.integers(0, 255))
        elif kind == "delete":
            del data[i : i + draw(st.integers(1, 20))]
        elif kind == "insert":
            data[i:i] = draw(st.binary(max_size=12))
        elif kind == "cut":
            del data[i:]
        else:
            lines = bytes(data).split(b"\n")
            j = draw(st.integers(0, len(lines) - 1))
            lines.insert(draw(st.integers(0, len(lines))), lines[j])
            data = bytearray(b"\n".join(lines))
        if not data:
            break
    return bytes(data)
