"""Hand memory through the real app (issue 14): what the table entered is stored, a
companion killed mid-game comes back with every hand memory exactly as it was, and the
screen shows it. The app runs in-process on SDL's dummy driver, with real storage.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.core.controller import Screen, SetupDraft
from companion.panel.display import open_display
from companion.shell.app import App, resume
from companion.storage import Storage
from engine import Hint, Play
from engine.cards import Card, Color
from engine.log import parse_log
from engine.options import GameOptions
from hardware.events import ChooseColor, ChooseRank, ChooseSeat, ChooseSlot, Key, Press


@pytest.fixture
def dummy_video(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
        monkeypatch.delenv(name, raising=False)


def make_app(data_dir: Path, size: tuple[int, int] = (480, 320)) -> App:
    storage = Storage.open(data_dir)
    draft = SetupDraft(players=3, options=GameOptions(hand_memory=True))
    controller, game_id = resume(storage, draft)
    return App(storage, open_display("dummy", size), controller, game_id)


def close_app(app: App) -> None:
    app.display.close()
    app.storage.close()


TABLE = [
    Press(Key.OK),  # Start
    *(Press(Key.HINT), ChooseSeat(1), ChooseColor(Color.RED), ChooseSlot(1), ChooseSlot(4)),
    Press(Key.OK),
    *(Press(Key.PLAY), ChooseSlot(2), ChooseColor(Color.BLUE), ChooseRank(1), Press(Key.OK)),
    *(Press(Key.HINT), ChooseSeat(0), ChooseRank(5), ChooseSlot(3), Press(Key.OK)),
]


def test_resume_after_a_kill_keeps_every_hand_memory(tmp_path, dummy_video):
    """The disk as kill -9 leaves it (the database and its journal copied while the app
    runs): the companion started on it shows the same game, the same hand memories, and
    the log carries the slots."""
    running, killed = tmp_path / "running", tmp_path / "killed"
    app = make_app(running)
    try:
        for event in TABLE:
            app.dispatch(event)
        game = app.controller.game
        assert game is not None and len(game.actions) == 3
        memories = [game.hand_memory(seat) for seat in range(3)]
        assert memories[1][1].color is Color.RED  # Bo's red slot 1, moved right by the draw
        killed.mkdir()
        for name in ("games.db", "games.db-wal"):
            source = running / name
            if source.exists():
                (killed / name).write_bytes(source.read_bytes())
        actions = list(game.actions)
    finally:
        close_app(app)
    again = make_app(killed)
    try:
        game = again.controller.game
        assert game is not None and again.controller.screen is Screen.GAME
        assert list(game.actions) == actions
        assert [game.hand_memory(seat) for seat in range(3)] == memories
        log = parse_log(again.storage.export(again.game_id))
        assert log.actions[0] == Hint(1, Color.RED, player=0, slots=(1, 4), at=log.actions[0].at)
        assert log.actions[1] == Play(Card.from_code("B1"), player=1, slot=2, at=log.actions[1].at)
        again.draw()  # and the screen shows Cy's hand, slot 1 first
        said = [text.text for text in again.renderer.texts]
        assert said.count("1") >= 1 and "5" in said
    finally:
        close_app(again)
