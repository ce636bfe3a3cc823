"""Issue 36: exports that prove they are whole, by the end line every export carries.

``export``, ``export --all`` and the phones' download end with ``# hanabi-companion end:``
(the action count and the chain's last link); ``import`` refuses a file cut, with lines
swapped or edited, or without the line, in one sentence naming it; ``import --partial``
brings in what is there, said; ``replay`` reads files with and without the line. Real data
directories and the real command line (``main``), in-process.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from companion.shell.cli import main
from companion.storage import END_PREFIX, Storage
from companion.web.history import HistorySource
from engine import GameSetup
from engine.log import replay_log
from engine.table import SimulatedTable

LOGS = Path(__file__).resolve().parents[1] / "logs"


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    code = main(list(arguments))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def finished(tmp_path: Path) -> tuple[Path, int]:
    """A data directory with one finished game of many actions; its number."""
    data = tmp_path / "data"
    with Storage.open(data) as storage:
        setup = GameSetup(players=3)
        game = SimulatedTable(setup, random.Random(36), skill=0.9).play_out()
        game_id = storage.new_game(setup)
        for action in game.actions:
            storage.append_action(game_id, action)
        storage.finish(game_id, game)
    return data, game_id


def end_record(text: str) -> dict[str, object]:
    last = text.rstrip("\n").split("\n")[-1]
    assert last.startswith(END_PREFIX)
    return json.loads(last[len(END_PREFIX) :])


def exported(capsys, data: Path, game_id: int) -> str:
    code, out, err = run(capsys, "export", "--data-dir", str(data), "--game", str(game_id))
    assert code == 0 and err == ""
    return out


def test_every_export_ends_with_the_count_and_the_last_link(finished, tmp_path, capsys):
    data, game_id = finished
    text = exported(capsys, data, game_id)
    actions = len(replay_log(text).actions)  # replay reads it: the end line is a comment
    record = end_record(text)
    assert record["game"] == game_id and record["actions"] == actions
    with sqlite3.connect(data / "games.db") as db:
        (link,) = db.execute("SELECT chain FROM games WHERE id = ?", (game_id,)).fetchone()
    assert record["link"] == link.hex()  # the chain's last link, as stored
    # export --all writes the same end line
    assert run(capsys, "export", "--data-dir", str(data), "--all", str(tmp_path / "b"))[0] == 0
    (file,) = (tmp_path / "b").iterdir()
    assert end_record(file.read_text()) == record
    # and so does the phones' download
    with Storage.open(data) as storage:
        downloaded = HistorySource(storage).log(game_id)
    assert downloaded is not None and end_record(downloaded) == record


def test_replay_takes_a_log_without_the_end_line(capsys):
    code, _, err = run(capsys, "replay", str(LOGS / "storm.jsonl"))
    assert code == 0, err


def changed(text: str, how: str) -> str:
    """The export ``text`` cut, with two action lines swapped, or one edited."""
    lines = text.rstrip("\n").split("\n")
    if how == "cut_1":
        lines = lines[:-1]  # the end line itself
    elif how == "cut_5":
        lines = lines[:-5]
    elif how == "swapped":
        lines[3], lines[4] = lines[4], lines[3]
    elif how == "edited":
        lines[2] = lines[2].replace('"action"', '"action" ', 1)  # same JSON, other bytes
    elif how == "handwritten":
        lines = lines[:-1]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("how", ["cut_1", "cut_5", "swapped", "edited"])
def test_import_refuses_a_file_that_is_not_a_whole_export(finished, tmp_path, capsys, how):
    data, game_id = finished
    file = tmp_path / "game.jsonl"
    file.write_text(changed(exported(capsys, data, game_id), how))
    code, out, err = run(capsys, "import", str(file), "--data-dir", str(tmp_path / "other"))
    assert code != 0 and out == ""
    refusal, summary = err.strip().split("\n")
    assert refusal.startswith(f"hanabi-companion: {file}:")
    assert "is not a whole export" in refusal and "import --partial" in refusal
    assert summary == "hanabi-companion: nothing was imported: 1 file(s) refused"
    assert not (tmp_path / "other" / "games.db").exists()


@pytest.mark.parametrize("how", ["cut_1", "cut_5", "swapped"])
def test_import_partial_brings_in_what_is_there_and_says_so(finished, tmp_path, capsys, how):
    data, game_id = finished
    file = tmp_path / "game.jsonl"
    text = exported(capsys, data, game_id)
    file.write_text(changed(text, how))
    other = tmp_path / "other"
    code, out, err = run(capsys, "import", "--partial", str(file), "--data-dir", str(other))
    assert code == 0, err
    assert f"{file}: the file is not a whole export" in out
    assert "1 game imported" in out
    with Storage.open_existing(other) as storage:
        (row,) = storage.history()
    whole = len(replay_log(text).actions)
    assert row.damaged is None
    assert (row.status == "over") is (how == "cut_1")  # only the end line cut: all there
    if how == "cut_5":
        assert len(replay_log(storage_export(other, row.id)).actions) == whole - 4


def storage_export(data: Path, game_id: int) -> str:
    with Storage.open_existing(data) as storage:
        return storage.export(game_id)


def test_a_whole_export_is_imported_as_before(finished, tmp_path, capsys):
    data, game_id = finished
    file = tmp_path / "game.jsonl"
    file.write_text(exported(capsys, data, game_id))
    code, out, err = run(capsys, "import", str(file), "--data-dir", str(tmp_path / "other"))
    assert code == 0, err
    assert "not a whole export" not in out and "1 game imported" in out
    assert storage_export(tmp_path / "other", 1) == storage_export(data, game_id)


def test_export_of_a_game_whose_last_actions_are_gone_says_so_and_exits_1(
    finished, tmp_path, capsys
):
    """The issue's case: the history marks the game damaged (its stored end differs from
    its actions); export printed 55 of 59 actions and exited 0."""
    data, game_id = finished
    whole = len(replay_log(exported(capsys, data, game_id)).actions)
    with sqlite3.connect(data / "games.db") as db:  # the last 4 rows gone, the chain kept
        (count,) = db.execute("SELECT actions_count FROM games").fetchone()
        (link,) = db.execute(
            "SELECT chain FROM actions WHERE game_id = ? AND seq = ?", (game_id, count - 4)
        ).fetchone()
        db.execute("DELETE FROM actions WHERE seq > ?", (count - 4,))
        db.execute("UPDATE games SET actions_count = ?, chain = ?", (count - 4, link))
    code, out, err = run(capsys, "history", "--data-dir", str(data))
    assert "damaged" in out + err
    code, out, err = run(capsys, "export", "--data-dir", str(data), "--game", str(game_id))
    assert code == 1
    assert f"Stored game {game_id} is damaged" in err and err.count("\n") == 1
    assert len(replay_log(out).actions) == whole - 4  # its actions still printed
    assert end_record(out)["damaged"] is True
