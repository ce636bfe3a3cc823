"""Issue 34: the hands shown at the end are kept as storage keeps actions: ``reveal`` lines in
the game's action rows, after its last action, chained as every line is; undo takes the last
one back and the game stays over; export prints them, import keeps them, a reveal the rules
refuse is damage named by its line. Real SQLite files."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from msgspec.structs import replace
from support.reveals import finished_table, revealed_log, true_reveal, wrong_card

from companion.storage import DamagedGameError, GameStateError, GameStatus, Storage
from companion.vocabulary.records import GameToImport
from engine.log import parse_log, replay_revealed
from engine.reveal import Reveal
from engine.table import SimulatedTable


def stored(storage: Storage, table: SimulatedTable) -> int:
    """The finished game stored as the app stores it: action by action, then finished."""
    game = table.game
    game_id = storage.new_game(game.setup)
    for action in game.actions:
        storage.append_action(game_id, action)
    storage.finish(game_id, game)
    return game_id


def test_reveals_are_lines_after_the_last_action_and_undo_takes_one_back(tmp_path: Path) -> None:
    table = finished_table(3, seed=2)
    count = len(table.game.actions)
    with Storage.open(tmp_path) as storage:
        game_id = stored(storage, table)
        for seat in (1, 0):
            storage.append_action(game_id, true_reveal(table, seat))
        text = storage.export(game_id)
        assert text == revealed_log(table, [1, 0])  # the header, the actions, the reveals
        loaded = storage.load(game_id)
        assert loaded.status is GameStatus.OVER and len(loaded.actions) == count
        assert loaded.reveals == (true_reveal(table, 1), true_reveal(table, 0))
        assert loaded.revealed(loaded.replay()).seats == [1, 0]
        (row,) = storage.history()
        assert row.damaged is None and row.score == table.game.score

        storage.drop_last_action(game_id)  # the last reveal: the game stays over
        loaded = storage.load(game_id)
        assert loaded.status is GameStatus.OVER and loaded.reveals == (true_reveal(table, 1),)
        (row,) = storage.history()
        assert row.score == table.game.score and row.rating == table.game.rating
        storage.drop_last_action(game_id)
        assert storage.load(game_id).reveals == ()
        storage.drop_last_action(game_id)  # now the last action: back into the game
        loaded = storage.load(game_id)
        assert loaded.status is GameStatus.PLAYING and len(loaded.actions) == count - 1


def test_a_reveal_needs_a_game_over_and_an_action_a_game_in_play(tmp_path: Path) -> None:
    table = finished_table(2, seed=3)
    with Storage.open(tmp_path) as storage:
        game_id = storage.new_game(table.setup)
        storage.append_action(game_id, table.game.actions[0])
        with pytest.raises(GameStateError) as refused:
            storage.append_action(game_id, true_reveal(table, 0))
        assert str(refused.value) == (
            f"Game {game_id} is playing: its hands are shown once it is over"
        )
        for action in table.game.actions[1:]:
            storage.append_action(game_id, action)
        storage.finish(game_id, table.game)
        storage.append_action(game_id, true_reveal(table, 0))
        with pytest.raises(GameStateError, match="it takes no more actions"):
            storage.append_action(game_id, table.game.actions[0])
        assert len(parse_log(storage.export(game_id)).reveals) == 1


def test_import_keeps_the_reveals_and_a_log_stored_twice_is_stored_once(tmp_path: Path) -> None:
    table = finished_table(4, seed=5)
    game, reveals = replay_revealed(revealed_log(table))
    with Storage.open(tmp_path) as storage:
        (first,) = storage.import_games([GameToImport.of(game, reveals=reveals)])
        (again,) = storage.import_games([GameToImport.of(game, reveals=reveals)])
        assert first.new and not again.new and again.id == first.id
        assert storage.export(first.id) == revealed_log(table)
        assert storage.load(first.id).revealed(game).complete


def test_a_stored_reveal_the_rules_refuse_is_damage_named_by_its_line(tmp_path: Path) -> None:
    """Lines chained as storage writes them (an import referees nothing itself) but whose
    second reveal breaks a rule: the game does not replay, and the part that does is the
    actions and the first reveal."""
    table = finished_table(3, seed=2)
    game, reveals = replay_revealed(revealed_log(table, [0]))
    slot, card = wrong_card(table, 2)
    cards = list(true_reveal(table, 2).cards)
    cards[slot - 1] = card
    item = GameToImport.of(game, reveals=reveals)
    bad = json.dumps({"action": "reveal", "player": 2, "cards": [c.code() for c in cards]})
    item = replace(item, lines=(*item.lines, bad))
    count = len(game.actions)
    with Storage.open(tmp_path) as storage:
        (imported,) = storage.import_games([item])
        with pytest.raises(DamagedGameError) as damaged:
            storage.load(imported.id)
        assert f"does not replay: action {count + 2}: " in str(damaged.value)
        text, kept = storage.replayable_part(imported.id)
        assert kept == count + 1 and text == revealed_log(table, [0])


def test_an_action_row_after_a_reveal_is_damage(tmp_path: Path) -> None:
    """A reveal line moved before the last action (the chain rewritten to match): damage."""
    table = finished_table(2, seed=3)
    game, reveals = replay_revealed(revealed_log(table, [1]))
    item = GameToImport.of(game, reveals=reveals)
    *actions, last, reveal = item.lines
    moved = replace(item, lines=(*actions, reveal, last))
    with Storage.open(tmp_path) as storage:
        (imported,) = storage.import_games([moved])
        with pytest.raises(DamagedGameError, match="an action after a reveal"):
            storage.load(imported.id)
        assert storage.replayable_part(imported.id)[1] == len(actions)


def test_reveal_rows_are_the_games_action_rows(tmp_path: Path) -> None:
    """Where they are kept: the ``actions`` table, numbered after the last action."""
    table = finished_table(2, seed=3)
    with Storage.open(tmp_path) as storage:
        game_id = stored(storage, table)
        storage.append_action(game_id, true_reveal(table, 1))
    count = len(table.game.actions)
    with sqlite3.connect(tmp_path / "games.db") as db:
        seq, line = db.execute(
            "SELECT seq, line FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,)
        ).fetchone()
    assert seq == count + 1
    assert json.loads(line) == {
        "action": "reveal",
        "player": 1,
        "cards": [card.code() for card in true_reveal(table, 1).cards],
    }
    assert Reveal(1, true_reveal(table, 1).cards) == true_reveal(table, 1)
