"""Issue 36's "Done when", a small run of ``benchmarks/corruption.py --all``: every class
(the faults of issue 24, two files together, kills during the start, schema bytes, cut
and swapped exports, another program on the database) tried a few times, one line each,
and the total 0 silent, 0 crashes, 0 findings lost, 0 actions lost (exit 0).

The second reader's judge is shown to count a loss when the process itself opens and
closes the database beside SQLite (the hazard of decision 0084), so its 0 means something.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import issue36_classes

ROOT = Path(__file__).resolve().parents[2]


def test_every_class_of_the_benchmark_in_small_form(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "corruption.py"), "--all", "0.03"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp_path)},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    classes = {line.split()[0] for line in lines[1:] if line and not line.startswith((" ", "i"))}
    for name in (
        "cut-wal",
        "ledger+cut-wal",
        "kill-during-start",
        "schema-bytes",
        "export-cut_1",
        "export-cut_5",
        "export-swapped",
        "export-edited",
        "second-reader",
        "all",
    ):
        assert name in classes, done.stdout
    assert "0 silent, 0 crashes, 0 findings lost across restarts, 0 actions lost" in lines[-1]


def test_the_second_reader_judge_sees_a_second_descriptor_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read followed by a Python open() and close() of games.db in the app's process
    (what the phones' History once did): the next sqlite3 deletes the live journal, and
    the trials count the actions lost."""
    read = issue36_classes._get

    def careless_read(url: str) -> None:
        read(url)
        for database in tmp_path.glob("reader-*/games.db"):
            database.open("rb").close()  # drops every POSIX lock the process holds on it

    monkeypatch.setattr(issue36_classes, "_get", careless_read)
    trials = issue36_classes.second_reader_run(tmp_path, seed=1)
    assert not any(trial.crash for trial in trials), trials
    assert sum(trial.actions_lost for trial in trials) > 0
