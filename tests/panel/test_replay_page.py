"""Issue 34: the end screen's Hanab Live page, its QR code read back by a real decoder.

A finished game with hand memory, every hand shown: the page comes after the story, beside
the BG Stats page, and ``zbarimg`` reads back exactly the engine's replay link at 800x480,
480x320 and 320x240. A game Hanab Live cannot replay says why in its one sentence. (The
replay link is short, about 150 characters at 4 players: its code fits beside the words
on every panel, where the BG Stats link's may not.)
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.reveals import finished_table, true_reveal
from test_play_log import SIZES, drawn, read_codes

from companion.core.controller import Controller, GamePage, SetupDraft
from engine.hanab_live import replay_url
from engine.table import SimulatedTable
from hardware.events import Key, Press


def end_with_hands(table: SimulatedTable, seats: list[int] | None = None) -> Controller:
    controller = Controller(SetupDraft(), table.game)
    shown = range(table.setup.players) if seats is None else seats
    controller.restore_reveals(tuple(true_reveal(table, seat) for seat in shown))
    return controller


def to_replay(controller: Controller) -> None:
    for _ in range(len(controller.pages)):
        if controller.page is GamePage.REPLAY:
            return
        controller.handle(Press(Key.NEXT))
    raise AssertionError(f"no replay page in {controller.pages}")


def test_the_page_comes_once_every_hand_is_shown_and_the_link_is_made_once() -> None:
    table = finished_table(players=3, seed=2)
    partial = end_with_hands(table, [0, 1])
    assert partial.replay_end() is None and GamePage.REPLAY not in partial.pages
    controller = end_with_hands(table)
    end = controller.replay_end()
    assert end is not None and end.link == replay_url(table.game, controller.reveals.shown)
    assert controller.replay_end() is end  # not made again for the next frame
    assert controller.pages[-1] is GamePage.REPLAY
    controller.reveals.undo()  # a hand taken back: no replay until it is shown again
    assert controller.replay_end() is None


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("players", [2, 4])
def test_the_code_reads_back_as_the_replay_link(
    tmp_path: Path, size: tuple[int, int], players: int
) -> None:
    table = finished_table(players=players, seed=2)
    controller = end_with_hands(table)
    to_replay(controller)
    link = replay_url(table.game, controller.reveals.shown)
    png = tmp_path / f"end-replay-{players}p-{size[0]}x{size[1]}.png"
    renderer = drawn(controller, size, png)
    kit = renderer.kit
    assert all(text.whole for text in kit.texts), [t.text for t in kit.texts if not t.whole]
    assert all(t.size >= kit.floor for t in kit.texts)
    assert read_codes(png) == [link]
    assert "Scan to replay this game in Hanab Live" in " ".join(t.text for t in kit.texts)


def test_a_game_hanab_live_cannot_replay_says_why(tmp_path: Path) -> None:
    table = finished_table(players=3, seed=2, timed_display=True)
    controller = end_with_hands(table)
    end = controller.replay_end()
    assert end is not None and end.link == ""
    assert end.why_not == "Hanab Live has no timed display, so this game cannot go there"
    to_replay(controller)
    renderer = drawn(controller, (480, 320), tmp_path / "end-replay-timed.png")
    words = [t.text for t in renderer.kit.texts]
    assert "Hanab Live" in words and end.why_not in " ".join(words)
    assert read_codes(tmp_path / "end-replay-timed.png") == []


def test_render_draws_the_replay_page_of_a_log_with_its_hands_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``render --page end-replay`` on a log with every reveal line; refused in one
    sentence while a hand is still unshown."""
    from support.reveals import revealed_log

    from companion.shell.cli import main

    table = finished_table(players=5, seed=1)
    whole, part = tmp_path / "whole.jsonl", tmp_path / "part.jsonl"
    whole.write_text(revealed_log(table))
    part.write_text(revealed_log(table, [0, 1]))
    png = tmp_path / "end-replay.png"
    args = ["render", "--page", "end-replay", "--size", "320x240", "--out", str(png)]
    assert main(["render", str(whole), *args[1:]]) == 0
    reveals = [true_reveal(table, seat) for seat in range(5)]
    assert read_codes(png) == [replay_url(table.game, reveals)]
    capsys.readouterr()
    assert main(["render", str(part), *args[1:]]) == 2
    assert capsys.readouterr().err == (
        "hanabi-companion: --page end-replay: not every hand is shown at the end"
        " (its reveal lines)\n"
    )
