"""The hint levels kept with each game, in the real app (issue 33): its SQLite file, a
restart (what a kill -9 leaves is what the file holds), the history's resume, the
config's ``hints``, and a content-level game's log: exported, replayed and imported by
the real commands, the same hints.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.core.controller import HintLevel, ResumeGame, Screen, SetupDraft
from companion.panel.display import open_display
from companion.shell.app import App, draft_from_config, resume
from companion.shell.config import ConfigError, parse_config
from companion.storage import Storage, game_hint_level
from engine import Hint, Play
from engine.cards import Card, Color
from engine.log import parse_log
from hardware.events import ChooseColor, ChooseRank, Key, Press

ROOT = Path(__file__).resolve().parents[2]
COMMAND = [sys.executable, "-m", "companion"]


@pytest.fixture
def sdl_dummy(monkeypatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
        monkeypatch.delenv(name, raising=False)


class Companion:
    """The real app over a data directory, started as the run command starts it."""

    def __init__(self, data: Path, draft: SetupDraft) -> None:
        self.storage = Storage.open(data)
        controller, game_id = resume(self.storage, draft)
        self.display = open_display("dummy", (480, 320))
        self.app = App(self.storage, self.display, controller, game_id)

    def __enter__(self) -> Companion:
        return self

    def __exit__(self, *_: object) -> None:
        self.display.close()
        self.storage.close()

    @property
    def controller(self):
        return self.app.controller

    def do(self, *events) -> None:
        for event in events:
            self.app.dispatch(event)
        self.app.step()

    def stored(self) -> list:
        assert self.app.game_id is not None
        return self.storage.load(self.app.game_id).actions


def draft(level: HintLevel, players: int = 3) -> SetupDraft:
    chosen = SetupDraft(players=players, names=["Ann", "Bo", "Cy"])
    chosen.choose_hint_level(level)
    return chosen


HINT, OK = Press(Key.HINT), Press(Key.OK)


def test_a_restarted_companion_keeps_the_level_of_the_game_in_play(tmp_path, sdl_dummy):
    """Started at the content level, the game is stored with it; a restart whose set-up
    says count (its remembered choices, or the config's) still gives content hints."""
    data = tmp_path / "data"
    with Companion(data, draft(HintLevel.CONTENT)) as one:
        one.do(OK)  # Start
        assert game_hint_level(one.storage, one.app.game_id) == "content"
        one.do(HINT, ChooseColor(Color.RED))
        assert one.stored() == [Hint(color=Color.RED, player=0)]
    with Companion(data, draft(HintLevel.COUNT)) as again:
        assert again.controller.screen is Screen.GAME
        assert again.controller.hint_level is HintLevel.CONTENT
        again.do(HINT)
        assert again.controller.screen is Screen.ENTRY and len(again.stored()) == 1
        again.do(ChooseRank(2))
        assert again.stored()[-1] == Hint(rank=2, player=1)


def test_a_count_game_stays_count_after_a_restart_with_the_content_default(tmp_path, sdl_dummy):
    data = tmp_path / "data"
    with Companion(data, draft(HintLevel.COUNT)) as one:
        one.do(OK, HINT)
        assert one.stored() == [Hint(player=0)]
    with Companion(data, draft(HintLevel.CONTENT)) as again:
        assert again.controller.hint_level is HintLevel.COUNT
        again.do(HINT)
        assert again.stored() == [Hint(player=0), Hint(player=1)]


def test_a_game_stored_without_a_level_resumes_at_the_count_level(tmp_path, sdl_dummy):
    """A game stored before the levels existed (or imported) gives a hint in one press,
    as it did then, whatever the set-up says now."""
    data = tmp_path / "data"
    with Storage.open(data) as storage:
        game_id = storage.new_game(draft(HintLevel.CONTENT).to_setup())
        assert game_hint_level(storage, game_id) is None
    with Companion(data, draft(HintLevel.CONTENT)) as again:
        assert again.controller.hint_level is HintLevel.COUNT
        again.do(HINT)
        assert again.stored() == [Hint(player=0)]


def test_a_game_taken_up_from_the_history_keeps_its_own_level(tmp_path, sdl_dummy):
    """A count game left unfinished for a new content game, then taken up again from the
    history: one press again; and the content game, taken up in turn, two."""
    with Companion(tmp_path / "data", draft(HintLevel.COUNT)) as table:
        table.do(OK, HINT)
        counted = table.app.game_id
        table.controller.draft.choose_hint_level(HintLevel.CONTENT)
        table.controller.screen = Screen.SETUP
        table.do(OK, OK)  # Start; asked whether to leave the game in play: yes
        content = table.app.game_id
        assert content != counted and table.controller.hint_level is HintLevel.CONTENT
        table.app.carry_out(ResumeGame(counted))
        assert table.app.game_id == counted
        assert table.controller.hint_level is HintLevel.COUNT
        table.do(HINT)
        assert table.stored() == [Hint(player=0), Hint(player=1)]
        table.app.carry_out(ResumeGame(content))
        assert table.controller.hint_level is HintLevel.CONTENT


# -- the config -------------------------------------------------------------------------


@pytest.mark.parametrize("level", list(HintLevel))
def test_the_config_hints_key_gives_the_set_up_its_level(level):
    config = parse_config(f'[game]\nhints = "{level.value}"\n')
    assert config.game.hints is level
    assert config.game.options.hand_memory is (level is HintLevel.SLOTS)
    assert draft_from_config(config).hint_level is level


def test_the_config_default_is_the_content_level_and_hand_memory_still_reads():
    assert parse_config("").game.hints is HintLevel.CONTENT
    assert parse_config("[game]\nhand_memory = true\n").game.hints is HintLevel.SLOTS
    assert parse_config("[game]\nhand_memory = false\n").game.hints is HintLevel.CONTENT
    agreed = '[game]\nhints = "slots"\nhand_memory = true\n'
    assert parse_config(agreed).game.hints is HintLevel.SLOTS


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            '[game]\nhints = "count"\nhand_memory = true\n',
            "config.toml:2: [game] hints: 'count' disagrees with hand_memory = true"
            ' (hand memory is hints = "slots")',
        ),
        (
            '[game]\nhints = "loud"\n',
            "config.toml:2: [game] hints: 'loud' is not one of 'count', 'content', 'slots'",
        ),
    ],
)
def test_a_wrong_hints_key_is_one_problem_with_its_line(text, said):
    with pytest.raises(ConfigError) as caught:
        parse_config(text, source="config.toml")
    assert caught.value.problems == [said]


# -- the log: a content-level game exported, replayed, imported ---------------------------


def command(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, cwd=ROOT, timeout=120, check=False
    )


def test_a_content_level_game_exported_and_replayed_gives_the_same_hints(tmp_path, sdl_dummy):
    """Hints with their colour or rank and no slots (at two players with their receiver),
    exported by the command: the log says them, ``replay`` takes it, and a second
    companion that imports it exports the same lines."""
    for players in (3, 2):
        data = tmp_path / f"data-{players}"
        with Companion(data, draft(HintLevel.CONTENT, players)) as table:
            table.do(OK, HINT, ChooseColor(Color.BLUE), HINT, ChooseRank(1))
            table.do(Press(Key.PLAY), ChooseColor(Color.RED), ChooseRank(1), OK)
            to = (None, None) if players == 3 else (1, 0)
            meant = [
                Hint(to[0], Color.BLUE, player=0),
                Hint(to[1], None, 1, player=1),
                Play(Card.from_code("R1"), player=2 % players),
            ]
            assert table.stored() == meant
        exported = command("export", "--data-dir", str(data))
        assert exported.returncode == 0, exported.stderr
        lines = [json.loads(line) for line in exported.stdout.splitlines() if line[:1] == "{"]
        assert "hand_memory" not in lines[0]
        receivers = [{} if players == 3 else {"to": seat} for seat in (1, 0)]
        assert lines[1:] == [
            {"action": "hint", "player": 0, **receivers[0], "color": "blue"},
            {"action": "hint", "player": 1, **receivers[1], "rank": 1},
            {"action": "play", "player": 2 % players, "card": "R1"},
        ]
        assert parse_log(exported.stdout).actions == meant
        log = tmp_path / f"game-{players}.jsonl"
        log.write_text(exported.stdout, encoding="utf-8")
        replayed = command("replay", str(log))
        assert replayed.returncode == 0, replayed.stderr
        summary = json.loads(replayed.stdout)
        assert (summary["hints"], summary["turns"]) == (6, 3) and "hands" not in summary
        other = tmp_path / f"other-{players}"
        imported = command("import", "--data-dir", str(other), str(log))
        assert imported.returncode == 0, imported.stderr
        again = command("export", "--data-dir", str(other))
        assert again.returncode == 0, again.stderr
        assert parse_log(again.stdout).actions == meant
