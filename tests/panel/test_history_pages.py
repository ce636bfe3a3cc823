"""The history at scale (issue 23): read page by page, the statistics from the database.

Real SQLite files throughout; the app runs in-process on SDL's dummy driver. Speed is
measured in benchmarks/history_scale.py, never asserted here.
"""

from __future__ import annotations

import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.controller import (
    HISTORY_SCREEN_PAGE as HISTORY_PAGE,
)
from companion.core.controller import (
    Controller,
    LoadHistory,
    Screen,
    SetupDraft,
)
from companion.panel.display import open_display
from companion.shell.app import App, resume
from companion.shell.cli import HISTORY_LIST_PAGE as CLI_PAGE
from companion.shell.cli import main
from companion.storage import (
    FINDINGS_NAME,
    LEDGER_NAME,
    SCHEMA_VERSION,
    GameStatus,
    HistoryRow,
    StatsRow,
    Storage,
)
from engine import Card, Game, GameOptions, GameSetup, Hint, Multicolor, Play
from engine.errors import IllegalAction
from hardware.events import Key, Press

V1_FILE = Path(__file__).resolve().parents[1] / "data" / "games-v1.db"
STORM = [Play(Card.from_code(code)) for code in ("R2", "R3", "R4")]


class Clock:
    """A clock that moves one minute each time it is read."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 10, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


def fill(storage: Storage, count: int) -> list[int]:
    """``count`` games, oldest first: every third left unfinished, the others storms."""
    ids = []
    for number in range(count):
        setup = GameSetup(players=2 + number % 4, started_at=f"2026-11-01T20:{number % 60:02d}")
        game_id = storage.new_game(setup)
        actions = [Hint()] if number % 3 == 0 else STORM
        for action in actions:
            storage.append_action(game_id, action)
        if actions is STORM:
            storage.finish(game_id, Game.replay(setup, actions))
        ids.append(game_id)
    return ids


@pytest.fixture(scope="module")
def stored_25(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory of 25 games, made once (tests copy it)."""
    data = tmp_path_factory.mktemp("stored_25")
    with Storage.open(data, now=Clock()) as storage:
        fill(storage, 25)
    return data


@pytest.fixture
def storage(stored_25: Path, tmp_path: Path):
    shutil.copytree(stored_25, tmp_path / "data")
    with Storage.open(tmp_path / "data") as opened:
        yield opened


# -- storage ---------------------------------------------------------------------------


def test_pages_one_after_another_are_the_whole_history(storage):
    """Paging by "older than the last game read" gives every game once, newest first,
    and ``more`` is False on the last page only."""
    pages, before = [], None
    while True:
        page = storage.history_page(before=before, limit=7)
        pages.append(page)
        if not page.more:
            break
        before = page.rows[-1].id
    assert [len(page.rows) for page in pages] == [7, 7, 7, 4]
    assert [row for page in pages for row in page.rows] == storage.history()
    assert [page.more for page in pages] == [True, True, True, False]


def test_pages_by_number_skip_the_newer_games(storage):
    """``skip`` (the command line's --page) gives the same rows as the whole list's slice."""
    everything = storage.history()
    assert storage.history_page(skip=20, limit=20).rows == everything[20:]
    assert storage.history_page(skip=20, limit=20).more is False
    assert storage.history_page(skip=25, limit=20).rows == []


def test_a_damaged_game_on_a_page_is_a_row_that_says_so(storage):
    """A game is still read back when listed: an edited action is named on its page."""
    db = sqlite3.connect(storage.path)
    db.execute('UPDATE actions SET line = \'{"action": "play", "card": "Q9"}\' WHERE game_id = 24')
    db.commit()
    db.close()
    rows = {row.id: row for row in storage.history_page(limit=5).rows}
    assert rows[24].damaged and "Stored game 24" in rows[24].damaged
    assert rows[25].damaged is None and rows[23].damaged is None


def counted_from_the_games(path: Path) -> list[tuple[int, str, int, int, int]]:
    """The statistics as a query over every game row counts them (what the table kept by
    the triggers must always equal)."""
    db = sqlite3.connect(path)
    try:
        return db.execute(
            "SELECT players, variant, COUNT(*), MAX(score), SUM(score) FROM games"
            " WHERE status = 'over' GROUP BY players, variant ORDER BY players, variant"
        ).fetchall()
    finally:
        db.close()


def kept_by_the_triggers(path: Path) -> list[tuple[int, str, int, int, int]]:
    db = sqlite3.connect(path)
    try:
        return db.execute(
            "SELECT players, variant, games, best, total FROM game_stats ORDER BY players, variant"
        ).fetchall()
    finally:
        db.close()


def test_statistics_are_read_from_a_row_per_group_kept_by_sqlite(storage):
    """Best, average and count per table size and variant are read from ``game_stats``,
    one row per group, which SQLite's triggers keep equal to a count over every game."""
    assert kept_by_the_triggers(storage.path) == counted_from_the_games(storage.path)
    finished = [row for row in storage.history() if row.status is GameStatus.OVER]
    expected = [
        StatsRow(players, GameOptions(), count, 0, 0.0, 0, count)
        for players in (2, 3, 4, 5)
        if (count := sum(1 for row in finished if row.players == players))
    ]
    assert storage.stats() == expected


def storm_out(storage: Storage, game_id: int, game: Game) -> None:
    """End a game in play by misplays (fives of colours not started), stored, finished."""
    for code in ("B5", "G5", "Y5", "W5"):
        if game.is_over:
            break
        action = Play(Card.from_code(code))
        try:
            game.apply(action)
        except IllegalAction:  # that five was misplayed already
            continue
        storage.append_action(game_id, action)
    storage.finish(game_id, game)


OPERATIONS = st.lists(
    st.tuples(
        st.sampled_from(["start", "finish", "undo", "abandon", "reopen", "delete", "rescore"]),
        st.integers(2, 5),
        st.sampled_from([GameOptions(), GameOptions(multicolor=Multicolor.SHORT)]),
        st.integers(0, 30),
    ),
    max_size=14,
)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(operations=OPERATIONS)
def test_the_statistics_kept_by_sqlite_follow_every_change_of_the_games(
    tmp_path_factory, operations
):
    """Whatever happens to the games (started, finished with scores, a finished game
    undone, abandoned, taken up again, and rows deleted or rescored by hand in SQL), the
    statistics kept by the triggers equal a count over every game row."""
    data = tmp_path_factory.mktemp("stats")
    with Storage.open(data) as storage:
        for kind, players, options, number in operations:
            ids = [entry.id for entry in storage.catalogue()]
            target = ids[number % len(ids)] if ids else None
            status = None if target is None else storage.catalogue()[ids.index(target)].status
            if kind == "start" or target is None:
                game_id = storage.new_game(GameSetup(players=players, options=options))
                if number % 2:  # finished at once: a storm after some plays
                    game = Game(GameSetup(players=players, options=options))
                    for rank in range(1, number % 5 + 1):
                        play = Play(Card.from_code(f"R{rank}"))
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
            elif kind in ("delete", "rescore"):
                db = sqlite3.connect(storage.path)
                if kind == "delete":
                    db.execute("PRAGMA foreign_keys = ON")
                    db.execute("DELETE FROM games WHERE id = ?", (target,))
                else:
                    db.execute(
                        "UPDATE games SET score = ? WHERE id = ? AND status = 'over'",
                        (number % 26, target),
                    )
                db.commit()
                db.close()
            assert kept_by_the_triggers(storage.path) == counted_from_the_games(storage.path)


def test_a_version_1_database_is_upgraded_in_place(tmp_path):
    """A games.db written by schema 1 opens without a notice, is not moved aside, gains
    the statistics (table, triggers, index) and keeps every game.

    tests/data/games-v1.db was made by companion/storage.py of commit 7e03efc (schema 1),
    through its own calls: game 1 finished (Ann and Bo, a storm: R2 R3 R4), game 2
    abandoned (Cy, Di, Ed; one hint), game 3 in play (4 players; R1 played), and the
    setting ``setup`` = ``{"players": 4}``."""
    shutil.copy(V1_FILE, tmp_path / "games.db")
    with Storage.open(tmp_path) as storage:
        assert storage.notice is None
        rows = storage.history()
        assert [(row.id, row.status, row.score, row.names) for row in rows] == [
            (3, GameStatus.PLAYING, 1, ("Player 1", "Player 2", "Player 3", "Player 4")),
            (2, GameStatus.ABANDONED, 0, ("Cy", "Di", "Ed")),
            (1, GameStatus.OVER, 0, ("Ann", "Bo")),
        ]
        assert storage.get_setting("setup") == {"players": 4}
        assert storage.unfinished() is not None and storage.unfinished().id == 3
        storage.append_action(3, Hint())  # and it takes new actions
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "games.db",
        FINDINGS_NAME,
        LEDGER_NAME,
    ]
    db = sqlite3.connect(tmp_path / "games.db")
    assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    names = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
    assert {"games_for_stats", "game_stats", "game_stats_insert"} <= names
    assert (
        kept_by_the_triggers(tmp_path / "games.db")
        == counted_from_the_games(tmp_path / "games.db")
        == [(2, "base", 1, 0, 0)]
    )
    with Storage.open(tmp_path) as again:  # a second opening has nothing left to do
        assert again.notice is None and len(again.history()) == 3


# -- the controller --------------------------------------------------------------------


def rows(first_id: int, count: int) -> list[HistoryRow]:
    """``count`` finished games, newest (``first_id``) first."""
    stamp = "2026-11-20T20:00:00+00:00"
    return [
        HistoryRow(game_id, stamp, None, 2, ("Ann", "Bo"), GameOptions(), 3, 25, None, None, None)
        for game_id in range(first_id, first_id - count, -1)
    ]


def test_next_near_the_end_of_a_page_asks_for_the_next_page():
    """NEXT within half a page of the last game read asks for the games older than it; the
    page read is added after the others, and with no older games NEXT asks for nothing."""
    c = Controller(SetupDraft(players=2))
    c.screen = Screen.HISTORY
    c.show_history_page(rows(30, HISTORY_PAGE), more=True, stats=[])
    asked = []
    for _ in range(HISTORY_PAGE // 2):
        asked += c.handle(Press(Key.NEXT))
    last_read = 30 - HISTORY_PAGE + 1
    assert asked == [LoadHistory(before=last_read)]
    c.show_history_page(rows(last_read - 1, 5), more=False)
    assert [row.id for row in c.history[0]] == list(range(30, 30 - HISTORY_PAGE - 5, -1))
    for _ in range(HISTORY_PAGE + 10):
        assert c.handle(Press(Key.NEXT)) == []
    assert c.history_focus().id == 30 - HISTORY_PAGE - 4  # the oldest stays at the top


def test_opening_the_history_again_starts_from_its_first_page():
    """A first page (with the statistics) replaces what was read before."""
    c = Controller(SetupDraft(players=2))
    c.show_history_page(rows(30, 10), more=True, stats=[])
    c.show_history_page(rows(20, 10), more=False)
    stats = [StatsRow(2, GameOptions(), 1, 3, 3.0)]
    c.show_history_page(rows(31, 4), more=True, stats=stats)
    assert [row.id for row in c.history[0]] == [31, 30, 29, 28] and c.history[1] == stats
    assert c.history_more


# -- the app ---------------------------------------------------------------------------


@pytest.fixture
def app(storage, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
        monkeypatch.delenv(name, raising=False)
    controller, game_id = resume(storage, SetupDraft(players=2))
    display = open_display("dummy", (480, 320))
    yield App(storage, display, controller, game_id)
    display.close()


def test_the_panel_reads_the_history_a_page_at_a_time_down_to_the_oldest_game(app):
    """Opening the History reads one page; NEXT down the list reads the next pages as
    the focus nears them, never the whole history at once; the oldest game is reached."""
    c = app.controller
    for effect in c.choose_menu("history"):
        app.carry_out(effect)
    app.step()
    assert c.screen is Screen.HISTORY
    assert [row.id for row in c.history[0]] == list(range(25, 25 - HISTORY_PAGE, -1))
    assert c.history[1] == app.storage.stats()
    read = [len(c.history[0])]
    for _ in range(30):
        app.dispatch(Press(Key.NEXT))
        app.step()
        read.append(len(c.history[0]))
        assert len(c.history[0]) <= c.scroll + HISTORY_PAGE // 2 + HISTORY_PAGE
    assert c.history_focus().id == 1 and not c.history_more
    assert [row.id for row in c.history[0]] == list(range(25, 0, -1))
    assert sorted(set(read)) == [10, 20, 25]  # three reads, a page each


def test_a_game_taken_up_from_a_later_page_is_resumed(app):
    """An unfinished game read with the second page is taken up like one of the first."""
    c = app.controller
    for effect in c.choose_menu("history"):
        app.carry_out(effect)
    while c.history_focus().id != 13:  # game 13 (the 13th stored) was left unfinished
        app.dispatch(Press(Key.NEXT))
    assert c.history_focus().resumable
    for _ in range(2):  # OK; a second OK where resuming asks first (a game is in play)
        if app.game_id != 13:
            app.dispatch(Press(Key.OK))
    assert app.game_id == 13 and c.screen is Screen.GAME
    assert app.storage.unfinished().id == 13


# -- the command line ------------------------------------------------------------------


def history_output(data: Path, *arguments: str, capsys: pytest.CaptureFixture[str]) -> str:
    code = main(["history", "--data-dir", str(data), *arguments])
    out = capsys.readouterr().out
    assert code == 0, out
    return out


def test_history_lists_a_page_and_says_how_to_see_the_older_games(stored_25, capsys):
    """`history` prints the newest page and the command for the next; `--page 2` the rest."""
    first = history_output(stored_25, capsys=capsys).splitlines()
    assert len(first) == 1 + CLI_PAGE + 1
    assert first[1].split()[0] == "25" and first[CLI_PAGE].split()[0] == str(26 - CLI_PAGE)
    assert first[-1] == "Older games: hanabi-companion history --page 2"
    second = history_output(stored_25, "--page", "2", capsys=capsys).splitlines()
    assert [line.split()[0] for line in second[1:]] == [str(n) for n in range(25 - CLI_PAGE, 0, -1)]
    assert history_output(stored_25, "--page", "3", capsys=capsys) == "No page 3.\n"


@pytest.mark.parametrize("page", ["0", "-1", "two"])
def test_history_refuses_a_page_that_is_not_a_page_number(stored_25, page, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["history", "--data-dir", str(stored_25), "--page", page])
    assert exit_info.value.code == 2
    assert "is not a page number" in capsys.readouterr().err
