"""Many kill -9 of a real writer on one data directory (issue 10): nothing confirmed is lost.

Round after round, a real process takes the data directory's lock (as `run` does), opens
the games database and plays games into it as the app does (new game, one committed action
at a time, undos, finish with its checkpoint), saying each call before it makes it and
"ok" once it returns. It is killed with SIGKILL at a random moment. Then, in the same
directory (never a fresh one): the lock must be free again, the database must open with no
notice, every game of earlier rounds must be exactly as it was, and each game of this round
must hold its confirmed actions (plus, at most, the one call in progress).

    .venv/bin/python benchmarks/kill9.py [KILLS]      # default 300, ~2 min on 2 cores
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support.writer_model import WRITER, WriterModel  # noqa: E402

from companion.shell.commands.stored import storage_notice_in_english  # noqa: E402
from companion.storage import DataDirLock, Storage  # noqa: E402


def one_round(data_dir: Path, seed: int, earlier: dict[int, str]) -> tuple[int, list[str]]:
    """One writer killed at random; (calls it confirmed, problems found)."""
    rng = random.Random(seed)
    model = WriterModel()
    target = rng.randint(1, 120)
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(data_dir), str(seed)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert writer.stdout is not None and writer.stderr is not None
    try:
        while model.confirmed < target:
            message = writer.stdout.readline()
            if not message:
                return model.confirmed, [f"the writer stopped: {writer.stderr.read()}"]
            model.feed(message)
        time.sleep(rng.uniform(0, 0.005))  # mid-call or between calls
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait()
        rest = writer.stdout.read()
    finally:
        if writer.poll() is None:
            writer.kill()
            writer.wait()
        writer.stdout.close()
        writer.stderr.close()
    for message in rest.splitlines(keepends=True):
        if message.endswith("\n"):
            model.feed(message)
    problems = []
    try:
        DataDirLock(data_dir).release()  # the kernel released the killed writer's lock
    except OSError as error:
        problems.append(f"lock still held: {error}")
    with Storage.open(data_dir) as storage:
        notice = storage_notice_in_english(storage)  # the ledger's findings too
        if notice:
            problems.append(f"notice: {notice}")
        for game_id, text in earlier.items():
            if storage.export(game_id) != text:
                problems.append(f"game {game_id} of an earlier round changed")
        for game_id in model.lines:
            status = storage.load(game_id).status.value  # parses and replays, or raises
            allowed_lines, allowed_status = model.allowed(game_id)
            lines = storage.export(game_id).splitlines()[1:]
            if lines not in allowed_lines:
                problems.append(f"game {game_id}: {len(lines)} lines, not what was confirmed")
            if status not in allowed_status:
                problems.append(f"game {game_id}: stored {status}, allowed {allowed_status}")
        latest = storage.latest_game_id()
        for game_id in range(1, (latest or 0) + 1):
            earlier[game_id] = storage.export(game_id)
    return model.confirmed, problems


def main() -> None:
    kills = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    survived = confirmed = 0
    failures: list[str] = []
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp) / "data"
        earlier: dict[int, str] = {}
        for seed in range(kills):
            count, problems = one_round(data_dir, seed, earlier)
            confirmed += count
            if problems:
                failures.append(f"kill {seed}: {'; '.join(problems)}")
            else:
                survived += 1
        games = len(earlier)
        wal = data_dir / "games.db-wal"
        wal_size = wal.stat().st_size if wal.exists() else 0
    print(f"kill -9 survived / tried: {survived} / {kills}")
    print(f"confirmed calls checked: {confirmed}; games in the one database: {games}")
    print(f"journal (-wal) after the last round: {wal_size} bytes")
    print(f"elapsed: {time.monotonic() - start:.0f} s")
    for failure in failures[:20]:
        print("  ", failure)


if __name__ == "__main__":
    main()
