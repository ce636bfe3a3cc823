"""Issue 34: ``history --stats`` prints the figures per set-up and per player name, and the
phones' History carries the same figures (read from the tallies, real data directories)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.shell.cli import main
from companion.storage import Storage
from companion.web.history import HistorySource
from engine import Card, Game, GameOptions, GameSetup, Play


def finished_storm(storage: Storage, names: tuple[str, ...], plays: int, memory: bool) -> Game:
    """A game of ``plays`` red cards played, then three misplays: stored and finished."""
    setup = GameSetup(players=len(names), names=names, options=GameOptions(hand_memory=memory))
    game = Game(setup)
    game_id = storage.new_game(setup)
    codes = [f"R{rank}" for rank in range(1, plays + 1)] + ["B5", "G5", "Y5"]
    for code in codes:
        action = Play(Card.from_code(code), slot=1 if memory else None)
        game.apply(action)
        storage.append_action(game_id, action)
    storage.finish(game_id, game)
    return game


@pytest.fixture
def data(tmp_path: Path) -> Path:
    with Storage.open(tmp_path / "data") as storage:
        finished_storm(storage, ("Ann", "Bo"), 2, False)
        finished_storm(storage, ("Ann", "Bo"), 4, True)
        finished_storm(storage, ("Ann", "Cy", "Di"), 1, False)
    return tmp_path / "data"


def test_history_stats_prints_set_ups_then_players(data: Path, capsys) -> None:
    assert main(["history", "--stats", "--data-dir", str(data)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert lines[0].split() == [
        "set-up", "games", "average", "best", "perfect", "struck", "efficiency",
    ]  # fmt: skip
    # scores are 0 (a storm): struck out every time; efficiency only with hand memory
    assert lines[1].split() == ["2P", "·", "base", "game", "1", "0.0", "0", "0%", "100%", "–"]
    assert lines[2].split() == ["2P", "·", "hand", "memory", "1", "0.0", "0", "0%", "100%", "1.33"]
    assert lines[3].split() == ["3P", "·", "base", "game", "1", "0.0", "0", "0%", "100%", "–"]
    assert lines[4] == ""
    assert [line.split()[:2] for line in lines[6:]] == [
        ["Ann", "3"], ["Bo", "2"], ["Cy", "1"], ["Di", "1"],
    ]  # fmt: skip
    assert lines[6].split()[-1] == "1.33"  # Ann: one game with an efficiency, 4 / 3


def test_history_stats_with_no_game(tmp_path: Path, capsys) -> None:
    (tmp_path / "empty").mkdir()
    assert main(["history", "--stats", "--data-dir", str(tmp_path / "empty")]) == 0
    assert capsys.readouterr().out == "No finished game yet.\n"


def test_the_phones_history_has_every_figure(data: Path) -> None:
    with Storage.open(data) as storage:
        history = HistorySource(storage).history("en")
    assert [row["figures"] for row in history["stats"]] == [
        "0 / 0.0 (1) · perfect 0% · struck out 100%",
        "0 / 0.0 (1) · perfect 0% · struck out 100% · Eff. 1.33",
        "0 / 0.0 (1) · perfect 0% · struck out 100%",
    ]
    assert [(row["name"], row["games"]) for row in history["players"]] == [
        ("Ann", 3), ("Bo", 2), ("Cy", 1), ("Di", 1),
    ]  # fmt: skip
    assert history["labels"]["players"] == "Players"
