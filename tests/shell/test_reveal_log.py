"""Issue 34: the hands shown at the end go out and come back with the game: ``export`` prints
the ``reveal`` lines after the last action, ``import`` keeps them, ``replay`` checks them and
adds ``"revealed"`` to its summary. The real command line (``main``), in-process, on real
data directories."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.reveals import finished_table, revealed_log, true_reveal

from companion.shell.cli import main
from companion.storage import Storage
from engine.log import parse_log


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    code = main(list(arguments))
    out, err = capsys.readouterr()
    return code, out, err


def test_export_import_replay_round_trip_keeps_the_reveals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = finished_table(3, seed=2)
    first, second = tmp_path / "first", tmp_path / "second"
    with Storage.open(first) as storage:
        game_id = storage.new_game(table.setup)
        for action in table.game.actions:
            storage.append_action(game_id, action)
        storage.finish(game_id, table.game)
        for seat in (2, 0, 1):
            storage.append_action(game_id, true_reveal(table, seat))

    code, exported, err = run(capsys, "export", "--data-dir", str(first))
    assert code == 0, err
    log = parse_log(exported)
    assert len(log.actions) == len(table.game.actions) and len(log.reveals) == 3
    lines = [line for line in exported.splitlines() if line and not line.startswith("#")]
    assert [json.loads(line)["action"] for line in lines[-3:]] == ["reveal"] * 3
    assert max(log.lines) < min(log.reveal_lines)  # after the last action
    assert exported.startswith(revealed_log(table, [2, 0, 1]))
    path = tmp_path / "game.jsonl"
    path.write_text(exported, encoding="utf-8")

    code, out, err = run(capsys, "replay", str(path))
    assert code == 0, err
    summary = json.loads(out)
    assert summary["revealed"] == [2, 0, 1] and summary["status"] == "over"

    code, out, err = run(capsys, "import", "--data-dir", str(second), str(path))
    assert code == 0, err
    assert out.startswith("1 game imported")
    code, again, err = run(capsys, "export", "--data-dir", str(second))
    assert code == 0, err
    assert parse_log(again).reveals == log.reveals
    (tmp_path / "again.jsonl").write_text(again, encoding="utf-8")
    code, out, _ = run(capsys, "replay", str(tmp_path / "again.jsonl"))
    assert code == 0 and json.loads(out)["revealed"] == [2, 0, 1]


def test_replay_refuses_a_reveal_the_rules_refuse_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = finished_table(3, seed=2)
    path = tmp_path / "twice.jsonl"
    path.write_text(revealed_log(table, [1, 1]), encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path))
    assert code == 1 and out == ""
    line = len(table.game.actions) + 3
    assert err == f"{path}:{line}: Bo has shown their hand already\n"
    code, _, err = run(capsys, "import", "--data-dir", str(tmp_path / "data"), str(path))
    assert code == 1 and f"{line}" in err and "nothing was imported" in err


def test_replay_without_reveals_has_no_revealed_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = finished_table(2, seed=3)
    path = tmp_path / "plain.jsonl"
    path.write_text(revealed_log(table, []), encoding="utf-8")
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0 and "revealed" not in json.loads(out)


def test_render_draws_a_log_with_hands_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A log with some hands shown is drawn as the companion would come back to it (the
    reveal screen, at the next hand); every hand shown, the end says the deal is known."""
    import os

    import pygame

    table = finished_table(3, seed=2)
    partial, whole = tmp_path / "partial.jsonl", tmp_path / "whole.jsonl"
    partial.write_text(revealed_log(table, [0]), encoding="utf-8")
    whole.write_text(revealed_log(table), encoding="utf-8")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    for log, page in ((partial, ()), (partial, ("--page", "end")), (whole, ())):
        out = tmp_path / f"{log.stem}-{len(page)}.png"
        code, _, err = run(
            capsys, "render", str(log), *page, "--size", "320x240", "--out", str(out)
        )
        assert code == 0, err
        assert pygame.image.load(str(out)).get_size() == (320, 240)
    at_next_hand, at_end = (tmp_path / f"partial-{n}.png" for n in (0, 2))
    shots = [pygame.image.tobytes(pygame.image.load(str(p)), "RGB") for p in (at_next_hand, at_end)]
    assert shots[0] != shots[1]  # the reveal screen, not the end screen
