"""Issue 34: ``export --hanab-live`` and ``--hanab-live-url`` on real data directories.

Until the storage keeps the hands shown at the end, a stored game has no ``reveal`` line and
the command says so in one sentence; the log it exports, with the reveal lines added as the
log contract writes them, gives the JSON and the link the engine makes.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from support.reveals import finished_table, revealed_log, true_reveal

from companion.shell.cli import main
from companion.storage import Storage
from engine.game import Game
from engine.hanab_live import REPLAY_URL, export_log, hanab_live_game, replay_url
from engine.log import dump_line, replay_revealed
from engine.options import GameOptions
from engine.reveal import Reveal, Reveals, reveal_to_dict
from engine.setup import GameSetup
from engine.table import SimulatedTable


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    code = main(list(arguments))
    out, err = capsys.readouterr()
    return code, out, err


def played(hand_memory: bool, seed: int = 5) -> tuple[Game, list[Reveal]]:
    setup = GameSetup(players=3, options=GameOptions(hand_memory=hand_memory))
    table = SimulatedTable(setup, random.Random(seed))
    game = table.play_out()
    reveals = Reveals(game)
    if hand_memory:
        for seat, hand in enumerate(table.hands):
            reveals.add(Reveal(seat, tuple(reversed(hand))))
    return game, reveals.shown


def store(data: Path, game: Game) -> int:
    with Storage.open(data) as storage:
        game_id = storage.new_game(game.setup)
        for action in game.actions:
            storage.append_action(game_id, action)
        storage.finish(game_id, game)
    return game_id


def test_a_stored_game_without_its_hands_shown_is_refused_in_one_sentence(tmp_path, capsys):
    data = tmp_path / "data"
    game, _ = played(hand_memory=True)
    game_id = store(data, game)
    for flag in ("--hanab-live", "--hanab-live-url"):
        code, out, err = run(capsys, "export", flag, "--data-dir", str(data))
        assert (code, out) == (1, "")
        assert err == (
            f"hanabi-companion: game {game_id}: The hands are not shown, so the deal is not known\n"
        )


def test_a_game_without_hand_memory_is_refused_and_so_is_a_flag_mix(tmp_path, capsys):
    data = tmp_path / "data"
    game, _ = played(hand_memory=False)
    game_id = store(data, game)
    code, out, err = run(
        capsys, "export", "--hanab-live", "--game", str(game_id), "--data-dir", str(data)
    )
    assert (code, out) == (1, "")
    assert "Only a game with hand memory knows its deal" in err
    code, _, err = run(capsys, "export", "--hanab-live", "--bgstats", "--data-dir", str(data))
    assert code == 2 and "on its own" in err
    code, _, err = run(capsys, "export", "--hanab-live", "--data-dir", str(tmp_path / "none"))
    assert code == 1 and err.endswith("does not exist: no game is stored there\n")


def test_the_exported_log_with_its_reveal_lines_gives_the_json_and_the_link(tmp_path, capsys):
    data = tmp_path / "data"
    game, reveals = played(hand_memory=True)
    store(data, game)
    code, text, _ = run(capsys, "export", "--data-dir", str(data))
    assert code == 0
    with_reveals = text + "".join(dump_line(reveal_to_dict(r)) + "\n" for r in reveals)
    assert json.loads(export_log(with_reveals)) == hanab_live_game(game, reveals)
    link = export_log(with_reveals, link=True)
    assert link == replay_url(game, reveals) and link.startswith(REPLAY_URL)
    # Without the last seat's reveal line the deal is not known.
    cut = text + "".join(dump_line(reveal_to_dict(r)) + "\n" for r in reveals[:-1])
    with pytest.raises(ValueError, match="The hands are not shown"):
        export_log(cut)


def test_a_stored_game_with_its_hands_shown_exports_its_json_and_its_link(tmp_path, capsys):
    """The hands shown at the end, stored as reveal lines in a real data folder: the
    command prints the engine's link and the JSON of the whole game."""
    data = tmp_path / "data"
    table = finished_table(players=4, seed=3)
    with Storage.open(data) as storage:
        game_id = storage.new_game(table.setup)
        for action in table.game.actions:
            storage.append_action(game_id, action)
        storage.finish(game_id, table.game)
        for seat in (2, 0, 3, 1):
            storage.append_action(game_id, true_reveal(table, seat))
    game, reveals = replay_revealed(revealed_log(table, [2, 0, 3, 1]))
    code, out, err = run(capsys, "export", "--hanab-live-url", "--data-dir", str(data))
    assert (code, err) == (0, "")
    assert out == replay_url(game, reveals.shown) + "\n"
    code, out, err = run(
        capsys, "export", "--hanab-live", "--game", str(game_id), "--data-dir", str(data)
    )
    assert (code, err) == (0, "")
    exported = json.loads(out)
    assert exported == hanab_live_game(game, reveals.shown)
    assert len(exported["deck"]) == game.setup.deck_size and len(exported["players"]) == 4
