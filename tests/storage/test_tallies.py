"""Issue 34: the statistics across games, per set-up and per player name, kept by SQLite.

``tallies`` (schema 5) must always equal what a count over every game row gives, whatever
happens to the games (finished, undone, abandoned, taken up again, deleted or rescored
by hand in SQL); the figures read from it (games, average, best, perfect and strikeout
rates, average efficiency) are checked against games replayed in Python.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.storage import SCHEMA_VERSION, Storage
from engine import Card, Game, GameOptions, GameSetup, Play
from engine.errors import IllegalAction
from engine.outcome import EndReason
from engine.story import efficiency
from engine.table import SimulatedTable

V1_FILE = Path(__file__).resolve().parents[1] / "data" / "games-v1.db"
NAMES = [("Ann", "Bo"), ("Bo", "Cy", "Di"), ("Ann", "Cy", "Di", "Ed"), ("Player 1", "Player 2")]


def counted_from_the_games(path: Path) -> list[tuple[object, ...]]:
    """What the tallies must hold, counted in Python from every game row."""
    db = sqlite3.connect(path)
    rows = db.execute(
        "SELECT header, players, variant, score, end_reason, efficiency FROM games"
        " WHERE status = 'over'"
    ).fetchall()
    db.close()
    counts: dict[tuple[object, ...], list[float]] = {}
    for header, players, variant, score, reason, eff in rows:
        try:
            names = json.loads(header).get("names", [])
        except ValueError:  # a header edited by hand into no JSON: no names
            names = []
        key = (players, variant, score, int(reason == "perfect"), int(reason == "strikeout"))
        for player in ["", *dict.fromkeys(n for n in names if isinstance(n, str))]:
            kept = counts.setdefault((player, *key), [0, 0, 0.0])
            kept[0] += 1
            kept[1] += eff is not None
            kept[2] += eff or 0.0
    return sorted((*key, g, r, round(e, 6)) for key, (g, r, e) in counts.items())


def kept_by_the_triggers(path: Path) -> list[tuple[object, ...]]:
    db = sqlite3.connect(path)
    rows = db.execute(
        "SELECT player, players, variant, score, perfect, strikeout, games, rated, efficiency"
        " FROM tallies"
    ).fetchall()
    db.close()
    return sorted((*row[:-1], round(row[-1], 6)) for row in rows)


def store_finished(storage: Storage, game: Game) -> int:
    game_id = storage.new_game(game.setup)
    for action in game.actions:
        storage.append_action(game_id, action)
    storage.finish(game_id, game)
    return game_id


def test_the_figures_per_set_up_and_per_player(tmp_path: Path) -> None:
    rng = random.Random(34)
    games = []
    with Storage.open(tmp_path) as storage:
        for number in range(16):
            names = NAMES[number % len(NAMES)]
            options = GameOptions(hand_memory=number % 2 == 0)
            setup = GameSetup(players=len(names), names=names, options=options)
            game = SimulatedTable(setup, rng, skill=rng.uniform(0.5, 1.0)).play_out()
            store_finished(storage, game)
            games.append(game)
        stats = storage.stats()
        players = storage.player_stats()
        assert kept_by_the_triggers(storage.path) == counted_from_the_games(storage.path)
    for row in stats:
        group = [
            g
            for g in games
            if g.setup.players == row.players and g.setup.options.code() == row.options.code()
        ]
        assert row.games == len(group)
        assert row.best == max(g.score for g in group)
        assert abs(row.average - sum(g.score for g in group) / len(group)) < 1e-9
        assert row.perfect == sum(g.end_reason is EndReason.PERFECT for g in group)
        assert row.strikeouts == sum(g.end_reason is EndReason.STRIKEOUT for g in group)
        effs = [e for g in group if (e := efficiency(g)) is not None]
        if effs:
            assert row.efficiency is not None
            assert abs(row.efficiency - sum(effs) / len(effs)) < 1e-3
        else:
            assert row.efficiency is None
    assert any(row.efficiency is not None for row in stats)  # hand memory: a figure
    assert sum(row.games for row in stats) == 16
    by_name = {row.name: row for row in players}
    assert set(by_name) == {name for names in NAMES for name in names}
    for name, row in by_name.items():
        played = [g for g in games if name in g.setup.names]
        assert (row.games, row.best) == (len(played), max(g.score for g in played))
        assert abs(row.average - sum(g.score for g in played) / len(played)) < 1e-9
        assert row.strikeouts == sum(g.end_reason is EndReason.STRIKEOUT for g in played)
    assert [row.games for row in players] == sorted((row.games for row in players), reverse=True)


def storm_out(storage: Storage, game_id: int, game: Game) -> None:
    """Misplays (fives of colours not started) until the storm; stored, finished."""
    slot = 1 if game.setup.options.hand_memory else None
    for code in ("B5", "G5", "Y5", "W5"):
        if game.is_over:
            break
        action = Play(Card.from_code(code), slot=slot)
        try:
            game.apply(action)
        except IllegalAction:
            continue
        storage.append_action(game_id, action)
    storage.finish(game_id, game)


OPERATIONS = st.lists(
    st.tuples(
        st.sampled_from(
            ["start", "finish", "undo", "abandon", "reopen", "delete", "rescore", "rename"]
        ),
        st.integers(0, 3),
        st.booleans(),
        st.integers(0, 30),
    ),
    max_size=14,
)


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(operations=OPERATIONS)
def test_the_tallies_follow_every_change_of_the_games(tmp_path_factory, operations) -> None:
    """Whatever happens to the games, the tallies equal a count over every game row (hand
    memory's efficiency included; a header edited by hand, names and all, too)."""
    data = tmp_path_factory.mktemp("tallies")
    with Storage.open(data) as storage:
        for kind, which, memory, number in operations:
            ids = [entry.id for entry in storage.catalogue()]
            target = ids[number % len(ids)] if ids else None
            status = None if target is None else storage.catalogue()[ids.index(target)].status
            names = NAMES[which]
            setup = GameSetup(
                players=len(names), names=names, options=GameOptions(hand_memory=memory)
            )
            if kind == "start" or target is None:
                game_id = storage.new_game(setup)
                if number % 2:  # finished at once: a storm after some plays
                    game = Game(setup)
                    for rank in range(1, number % 5 + 1):
                        play = Play(Card.from_code(f"R{rank}"), slot=1 if memory else None)
                        game.apply(play)
                        storage.append_action(game_id, play)
                    storm_out(storage, game_id, game)
            elif kind == "undo" and status == "over":
                storage.drop_last_action(target)
            elif kind == "finish" and status == "playing":
                storm_out(storage, target, storage.load(target).replay())
            elif kind == "abandon" and status == "playing":
                storage.abandon(target)
            elif kind == "reopen" and status == "abandoned":
                storage.reopen(target)
            elif kind in ("delete", "rescore", "rename"):
                db = sqlite3.connect(storage.path)
                if kind == "delete":
                    db.execute("PRAGMA foreign_keys = ON")
                    db.execute("DELETE FROM games WHERE id = ?", (target,))
                elif kind == "rescore":
                    db.execute(
                        "UPDATE games SET score = ? WHERE id = ? AND status = 'over'",
                        (number % 26, target),
                    )
                else:  # a header edited by hand: no JSON for a moment, then other names
                    (header,) = db.execute(
                        "SELECT header FROM games WHERE id = ?", (target,)
                    ).fetchone()
                    db.execute("UPDATE games SET header = 'not json' WHERE id = ?", (target,))
                    db.commit()
                    assert kept_by_the_triggers(storage.path) == counted_from_the_games(
                        storage.path
                    )
                    renamed = json.loads(header)
                    renamed["names"] = [f"Zoe {seat}" for seat in range(renamed["players"])]
                    db.execute(
                        "UPDATE games SET header = ? WHERE id = ?", (json.dumps(renamed), target)
                    )
                db.commit()
                db.close()
            assert kept_by_the_triggers(storage.path) == counted_from_the_games(storage.path)


def test_an_older_database_gains_the_tallies_in_place(tmp_path: Path) -> None:
    """Schema 1's file (tests/data/games-v1.db: game 1 finished, Ann and Bo, a storm) is
    upgraded to 5, its finished game counted for the table and for each name."""
    shutil.copy(V1_FILE, tmp_path / "games.db")
    with Storage.open(tmp_path) as storage:
        assert storage.notice is None
        (row,) = storage.stats()
        assert (row.players, row.games, row.best, row.strikeouts, row.efficiency) == (
            2,
            1,
            0,
            1,
            None,
        )
        assert [(p.name, p.games, p.strikeouts) for p in storage.player_stats()] == [
            ("Ann", 1, 1),
            ("Bo", 1, 1),
        ]
    db = sqlite3.connect(tmp_path / "games.db")
    assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,) == (5,)
    db.close()
    assert kept_by_the_triggers(tmp_path / "games.db") == counted_from_the_games(
        tmp_path / "games.db"
    )
