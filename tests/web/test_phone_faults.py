"""Phones as input under faults (issue 22), a small run of ``benchmarks/phone_faults.py``:
four paired phones send legal and illegal actions to the real companion (a child process:
the real App loop, storage and page for phones), responses are dropped and retried with
the same id, the companion is killed with SIGKILL and started again; then every action
confirmed to a phone is stored exactly once. No timing is asserted.

The checker itself is shown to fail on a database with an action taken out (lost) and
one recorded twice (a duplicate), so a clean verdict means something.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import sqlite3
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "phone_faults.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("phone_faults", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def small_run(bench: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    data = tmp_path_factory.mktemp("phone-faults") / "data"
    figures = bench.run_benchmark(actions=60, phones=4, kills=1, memory="both", data_dir=data)
    return figures, data


def test_every_action_confirmed_to_a_phone_is_stored_once_through_a_kill_and_retries(small_run):
    """Actions confirmed to a phone = actions stored (plus those stored whose every answer
    was dropped): 0 lost, 0 duplicates, no illegal action accepted, a retry answered as
    the first time, nothing shown before it was stored, no file set aside as damaged,
    every stored game replays."""
    figures, _ = small_run
    counts = figures.counts
    assert figures.kills == 1
    assert counts["sent"] == 60 and counts["confirmed"] > 0
    assert counts["retries"] > 0 and counts["dropped"] > 0  # the faults did happen
    assert counts["refused"] > 0  # the illegal ones and the lost races
    assert counts["stored"] == counts["confirmed_stored"] + counts["stored_unconfirmed"]
    assert counts["confirmed_stored"] == counts["confirmed"]
    for goal in (
        "lost",
        "duplicates",
        "illegal_accepted",
        "answered_differently",
        "stored_without_request",
        "shown_before_stored",
        "set_aside",
        "not_replayed",
    ):
        assert counts[goal] == 0, (goal, figures.lines())
    assert not figures.failed


def copy_database(source: Path, target: Path) -> sqlite3.Connection:
    """A writable copy of the run's database (through SQLite's backup: journal included)."""
    target.mkdir()
    with contextlib.closing(
        sqlite3.connect(f"{(source / 'games.db').as_uri()}?mode=ro", uri=True)
    ) as db:
        copy = sqlite3.connect(target / "games.db")
        db.backup(copy)
    return copy


def a_confirmed_action(figures: Any) -> tuple[str, int, dict[str, Any]]:
    for request in figures.run.ledger.values():
        for status, data in request.answers:
            if status == 200 and data.get("ok"):
                return request.game, int(data["actions"]), request.action
    raise AssertionError("no action was confirmed")


def test_the_checker_counts_an_action_taken_out_of_the_database_as_lost(bench, small_run, tmp_path):
    """A confirmed action deleted from a copy of the database is one lost action."""
    figures, data = small_run
    game, seq, _ = a_confirmed_action(figures)
    copy = copy_database(data, tmp_path / "copy")
    with copy:
        copy.execute("DELETE FROM actions WHERE game_id = ? AND seq = ?", (int(game), seq))
    copy.close()
    counts = bench.verdict(figures.run, tmp_path / "copy")
    assert counts["lost"] == 1 and counts["duplicates"] == 0


def test_the_checker_counts_an_action_recorded_twice_as_a_duplicate(bench, small_run, tmp_path):
    """A confirmed action stored a second time (its request applied again) is a duplicate."""
    figures, data = small_run
    game, _, action = a_confirmed_action(figures)
    copy = copy_database(data, tmp_path / "copy")
    with copy:
        (last,) = copy.execute(
            "SELECT MAX(seq) FROM actions WHERE game_id = ?", (int(game),)
        ).fetchone()
        copy.execute(
            "INSERT INTO actions (game_id, seq, line) VALUES (?, ?, ?)",
            (int(game), last + 1, json.dumps(action)),
        )
    copy.close()
    counts = bench.verdict(figures.run, tmp_path / "copy")
    assert counts["duplicates"] == 1 and counts["lost"] == 0
