"""A writer killed by SIGKILL at random moments loses at most the action it had not yet
confirmed: every game stored replays, with the lines confirmed (issue 3, durability)."""

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.writer_model import WRITER, WriterModel

from companion.storage import Storage

ROOT = Path(__file__).resolve().parents[2]


# -- a killed writer ------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_a_killed_writer_loses_at_most_the_unconfirmed_action(tmp_path, seed):
    rng = random.Random(seed)
    model = WriterModel()
    target = rng.randint(3, 150)
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp_path), str(seed)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        while model.confirmed < target:
            message = writer.stdout.readline()
            assert message, f"the writer stopped: {writer.stderr.read()}"
            model.feed(message)
        time.sleep(rng.uniform(0, 0.005))  # a random moment, mid-call or between calls
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait()
        rest = writer.stdout.read()
    finally:
        if writer.poll() is None:
            writer.kill()
            writer.wait()
        writer.stdout.close()
        writer.stderr.close()
    assert writer.returncode == -signal.SIGKILL
    for message in rest.splitlines(keepends=True):
        if message.endswith("\n"):  # a line cut by the kill was never confirmed
            model.feed(message)
    assert model.lines, "the writer never confirmed a new game"

    with Storage.open(tmp_path) as storage:
        assert storage.notice is None
        latest = max(model.lines)
        if model.pending == ("new",):
            assert storage.latest_game_id() in (latest, latest + 1)
        else:
            assert storage.latest_game_id() == latest
        for game_id in model.lines:
            stored = storage.load(game_id)  # parses and replays, or raises
            allowed_lines, allowed_status = model.allowed(game_id)
            lines = storage.export(game_id).splitlines()[1:]
            assert lines in allowed_lines
            assert len(model.lines[game_id]) - 1 <= len(lines) <= len(model.lines[game_id]) + 1
            assert stored.status in allowed_status


def test_the_writer_model_accepts_only_what_was_confirmed_or_pending():
    model = WriterModel()
    for message in ("new", "ok 1", "append 1 A", "ok", "append 1 B"):
        model.feed(message + "\n")
    assert model.allowed(1) == ([["A"], ["A", "B"]], {"playing"})
    model.feed("ok\n")
    model.feed("undo 1\n")
    assert model.allowed(1) == ([["A", "B"], ["A"]], {"playing"})
    assert model.confirmed == 3
    model.feed("ok\n")
    assert model.lines == {1: ["A"]}
