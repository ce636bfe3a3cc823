"""The games database (companion/storage/): a stored game is its log, and it survives.

Durability is tested with a real writer process killed by SIGKILL at random
moments; damaged, foreign and truncated files must be moved aside intact.
"""

import os
import random
import shutil
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from companion.storage import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    DamagedGameError,
    GameStateError,
    HistoryRow,
    StatsRow,
    Storage,
    StorageError,
    UnknownGameError,
    default_data_dir,
)
from engine import Discard, Game, GameOptions, GameSetup, Hint, Multicolor, Play
from engine.cards import Card
from engine.log import format_log, parse_log, replay_log
from engine.outcome import EndReason
from engine.table import SimulatedTable

ROOT = Path(__file__).resolve().parents[2]
START = datetime(2026, 11, 21, 10, 15, 0, tzinfo=UTC)


class Clock:
    """A clock that moves one minute each time it is read."""

    def __init__(self, start=START):
        self.now = start - timedelta(minutes=1)

    def __call__(self):
        self.now += timedelta(minutes=1)
        return self.now


class FrozenClock:
    def __init__(self, moment=START):
        self.moment = moment

    def __call__(self):
        return self.moment


def open_storage(path, clock=None):
    return Storage.open(path, now=clock or Clock())


def played_game(setup, seed):
    """A real finished game, played by the simulator."""
    return SimulatedTable(setup, random.Random(seed), skill=1.0).play_out()


def store(storage, game):
    """Store a finished game the way the app does: one action at a time, then finish."""
    game_id = storage.new_game(game.setup)
    for action in game.actions:
        storage.append_action(game_id, action)
    storage.finish(game_id, game)
    return game_id


def finished_rows(storage):
    """The history's finished games (it lists the unfinished ones too)."""
    return [row for row in storage.history() if not row.resumable]


def sqlite_pragma(path, name):
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return connection.execute(f"PRAGMA {name}").fetchone()[0]
    finally:
        connection.close()


def moved_files(data_dir, kind):
    return sorted(p.name for p in data_dir.iterdir() if f".{kind}-" in p.name)


@pytest.fixture
def storage(tmp_path):
    with open_storage(tmp_path / "data") as opened:
        yield opened


# -- a new database --------------------------------------------------------------


def test_a_new_database_is_created_with_its_directory_and_marked_as_ours(tmp_path):
    data_dir = tmp_path / "state" / "hanabi-companion"
    with open_storage(data_dir) as storage:
        assert storage.notice is None
        assert storage.path == data_dir / "games.db"
        assert storage.latest_game_id() is None
        assert storage.unfinished() is None
        db = storage._connection  # per-connection settings can only be read on it
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert db.execute("PRAGMA busy_timeout").fetchone()[0] > 0
        assert not db.in_transaction
    path = data_dir / "games.db"
    assert sqlite_pragma(path, "application_id") == APPLICATION_ID == 0x48414E42
    assert sqlite_pragma(path, "user_version") == SCHEMA_VERSION
    assert sqlite_pragma(path, "journal_mode") == "wal"


def test_an_empty_file_counts_as_a_new_database(tmp_path):
    (tmp_path / "games.db").write_bytes(b"")
    with open_storage(tmp_path) as storage:
        assert storage.notice is None
        game_id = storage.new_game(GameSetup(players=2))
        assert storage.load(game_id).status == "playing"
    assert list(tmp_path.glob("games.db.*")) == []


def test_an_empty_sqlite_file_whose_creation_was_cut_short_is_completed(tmp_path):
    connection = sqlite3.connect(tmp_path / "games.db")
    connection.execute("PRAGMA journal_mode = WAL")  # as a creation cut short would leave it
    connection.close()
    with open_storage(tmp_path) as storage:
        assert storage.notice is None
        assert storage.new_game(GameSetup(players=3)) == 1
    assert sqlite_pragma(tmp_path / "games.db", "application_id") == APPLICATION_ID


def test_reopening_keeps_games_and_gives_no_notice(tmp_path):
    with open_storage(tmp_path) as storage:
        game_id = storage.new_game(GameSetup(players=2))
        storage.append_action(game_id, Hint())
    with open_storage(tmp_path) as storage:
        assert storage.notice is None
        assert storage.load(game_id).actions == [Hint()]


# -- games -------------------------------------------------------------------------


def test_a_game_is_stored_action_by_action_and_loaded_back(tmp_path):
    setup = GameSetup(
        players=3,
        names=("Ann", "Bo", "Cy"),
        options=GameOptions(multicolor=Multicolor.SHORT, timed_display=True),
    )
    actions = [
        Hint(to=1, rank=1, player=0),
        Play(Card.from_code("M1"), announce=Card.from_code("M1").color, player=1),
        Hint(player=2, at="2026-11-21T10:17:00Z"),
    ]
    with open_storage(tmp_path, Clock()) as storage:
        game_id = storage.new_game(setup)
        for action in actions:
            storage.append_action(game_id, action)
        stored = storage.load(game_id)
        assert stored.id == game_id
        assert stored.setup == setup
        assert stored.actions == actions
        assert stored.status == "playing"
        assert stored.started_at == "2026-11-21T10:15:00Z"
        assert stored.finished_at is None
        assert stored.replay().position == Game.replay(setup, actions).position
        assert storage.unfinished() == stored
        assert storage.latest_game_id() == game_id


def test_each_action_line_is_the_log_line(storage):
    game_id = storage.new_game(GameSetup(players=2))
    storage.append_action(game_id, Discard(Card.from_code("b1"), player=0))
    rows = storage._connection.execute(
        "SELECT seq, line FROM actions WHERE game_id = ?", (game_id,)
    ).fetchall()
    assert rows == [(1, '{"action": "discard", "player": 0, "card": "B1"}')]


def test_export_is_the_log_and_replays_to_the_same_position(storage):
    setups = [
        GameSetup(players=2),
        GameSetup(
            players=4,
            first_player=2,
            options=GameOptions(multicolor=Multicolor.FULL, wild_multicolor=True),
        ),
        GameSetup(players=3, options=GameOptions(timed_display=True, empty_clues=True)),
        GameSetup(players=5, options=GameOptions(crowning_piece=True, strikeout_keeps_score=True)),
        GameSetup(players=3, options=GameOptions(hand_memory=True)),  # slots in the journal
    ]
    for seed, setup in enumerate(setups):
        game = played_game(setup, seed)
        game_id = store(storage, game)
        text = storage.export(game_id)
        assert text == format_log(setup, game.actions)
        assert text.endswith("\n") and "\r" not in text
        replayed = replay_log(text)
        assert replayed.position == storage.load(game_id).replay().position == game.position
        assert parse_log(text).setup == setup
        if setup.options.hand_memory:
            assert '"slot": ' in text and '"slots": [' in text
            assert storage.load(game_id).replay().position.memory == game.position.memory


def test_export_of_a_game_in_progress(storage):
    game_id = storage.new_game(GameSetup(players=2, names=("Ann", "Bo")))
    assert storage.export(game_id) == (
        '{"format": "hanabi-log/1", "players": 2, "names": ["Ann", "Bo"]}\n'
    )
    storage.append_action(game_id, Play(Card.from_code("R1")))
    assert replay_log(storage.export(game_id)).score == 1


def test_finish_stores_the_result(tmp_path):
    game = played_game(GameSetup(players=3, names=("Ann", "Bo", "Cy")), seed=4)
    clock = Clock()
    with open_storage(tmp_path, clock) as storage:
        game_id = store(storage, game)
        stored = storage.load(game_id)
        assert stored.status == "over"
        assert stored.finished_at == clock.now.strftime("%Y-%m-%dT%H:%M:%SZ")
        assert storage.unfinished() is None
        assert storage.history() == [
            HistoryRow(
                id=game_id,
                started_at="2026-11-21T10:15:00Z",
                finished_at=stored.finished_at,
                players=3,
                names=("Ann", "Bo", "Cy"),
                options=GameOptions(),
                score=game.score,
                max_score=25,
                rating=game.rating,
                outcome=game.outcome,
                end_reason=game.end_reason,
            )
        ]


def test_finish_refuses_a_game_that_is_not_over_or_not_the_stored_one(storage):
    game = played_game(GameSetup(players=2), seed=1)
    game_id = storage.new_game(game.setup)
    for action in game.actions[:-1]:
        storage.append_action(game_id, action)
    with pytest.raises(GameStateError, match="not over"):
        storage.finish(game_id, Game.replay(game.setup, game.actions[:-1]))
    with pytest.raises(GameStateError, match=f"differs from stored game {game_id}"):
        storage.finish(game_id, game)  # one more action than stored
    other = played_game(GameSetup(players=2, names=("X", "Y")), seed=1)
    with pytest.raises(GameStateError, match="differs"):
        storage.finish(game_id, other)
    assert storage.load(game_id).status == "playing"
    storage.append_action(game_id, game.actions[-1])
    storage.finish(game_id, game)
    assert storage.load(game_id).status == "over"


def test_undo_drops_the_last_action(storage):
    game_id = storage.new_game(GameSetup(players=2))
    storage.append_action(game_id, Hint())
    storage.append_action(game_id, Play(Card.from_code("R1")))
    storage.drop_last_action(game_id)
    assert storage.load(game_id).actions == [Hint()]
    storage.append_action(game_id, Discard(Card.from_code("R2")))
    assert storage.load(game_id).actions == [Hint(), Discard(Card.from_code("R2"))]
    storage.drop_last_action(game_id)
    storage.drop_last_action(game_id)
    with pytest.raises(GameStateError, match="no action to undo"):
        storage.drop_last_action(game_id)


def test_undo_after_the_end_brings_the_game_back_to_playing(storage):
    game = played_game(GameSetup(players=4), seed=2)
    game_id = store(storage, game)
    assert [row.id for row in storage.history()] == [game_id]

    storage.drop_last_action(game_id)

    stored = storage.load(game_id)
    assert stored.status == "playing"
    assert stored.finished_at is None
    assert stored.actions == game.actions[:-1]
    assert storage.unfinished() == stored
    assert finished_rows(storage) == []  # in play again: listed as unfinished
    assert [row.status for row in storage.history()] == ["playing"]
    assert storage.stats() == []
    storage.append_action(game_id, game.actions[-1])
    storage.finish(game_id, game)
    assert [(row.id, row.score) for row in storage.history()] == [(game_id, game.score)]


def test_a_new_game_abandons_the_one_in_progress(storage):
    first = storage.new_game(GameSetup(players=2))
    storage.append_action(first, Hint())
    second = storage.new_game(GameSetup(players=3))
    assert second > first
    assert storage.load(first).status == "abandoned"
    assert storage.load(first).finished_at is not None
    assert storage.unfinished().id == second
    assert storage.latest_game_id() == second
    with pytest.raises(GameStateError, match=f"Game {first} is abandoned"):
        storage.append_action(first, Hint())
    with pytest.raises(GameStateError, match="abandoned"):
        storage.drop_last_action(first)
    assert storage.load(first).actions == [Hint()]


def test_abandon(storage):
    game_id = storage.new_game(GameSetup(players=2))
    storage.append_action(game_id, Hint())
    storage.abandon(game_id)
    storage.abandon(game_id)  # no-op
    assert storage.load(game_id).status == "abandoned"
    assert storage.unfinished() is None
    assert finished_rows(storage) == []
    assert [(row.id, row.status, row.resumable) for row in storage.history()] == [
        (game_id, "abandoned", True)
    ]
    finished = store(storage, played_game(GameSetup(players=2), seed=3))
    with pytest.raises(GameStateError, match="over"):
        storage.abandon(finished)
    assert storage.load(finished).status == "over"


def test_an_unknown_game_is_a_lookup_error(storage):
    for call in (
        lambda: storage.load(42),
        lambda: storage.export(42),
        lambda: storage.append_action(42, Hint()),
        lambda: storage.drop_last_action(42),
        lambda: storage.abandon(42),
    ):
        with pytest.raises(UnknownGameError, match="no stored game 42") as caught:
            call()
        assert isinstance(caught.value, StorageError)
        assert isinstance(caught.value, LookupError)


def test_append_refuses_what_is_not_an_action(storage):
    game_id = storage.new_game(GameSetup(players=2))
    with pytest.raises(TypeError, match="Hint, Play or Discard"):
        storage.append_action(game_id, {"action": "hint"})
    assert storage.load(game_id).actions == []


@pytest.mark.parametrize(
    ("seq", "line", "message"),
    [
        (2, "{not json", "action 2: not valid JSON"),
        (2, '{"action": "fly"}', "action 2:"),
        (1, '{"action": "discard", "card": "R1"}', "does not replay: action 1: All 8 hint"),
        (3, '{"action": "hint"}', "action 2 is missing"),
        (2, "", "blank"),
    ],
)
def test_a_damaged_stored_game_is_reported_with_its_id(storage, seq, line, message):
    game_id = storage.new_game(GameSetup(players=2))
    storage.append_action(game_id, Hint())
    storage.append_action(game_id, Hint())
    db = storage._connection  # tamper with the rows, as a damaged file would
    db.execute("BEGIN")
    db.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?", (game_id, min(seq, 2)))
    db.execute("INSERT INTO actions (game_id, seq, line) VALUES (?, ?, ?)", (game_id, seq, line))
    db.execute("COMMIT")
    with pytest.raises(DamagedGameError, match=f"game {game_id}") as caught:
        storage.load(game_id)
    assert message in str(caught.value)
    with pytest.raises(DamagedGameError):
        storage.unfinished()


def test_history_is_newest_first_and_stats_count_finished_games_only(storage):
    plan = [
        (GameSetup(players=2), 11),
        (GameSetup(players=3), 12),
        (GameSetup(players=2), 13),
        (GameSetup(players=3, options=GameOptions(multicolor=Multicolor.SHORT)), 14),
        (GameSetup(players=2), 15),
        (GameSetup(players=3), 16),
    ]
    games = {}
    for setup, seed in plan:
        game = played_game(setup, seed)
        games[store(storage, game)] = game
    in_play = storage.new_game(GameSetup(players=2))  # unfinished: listed, not in stats
    storage.append_action(in_play, Hint())

    newest = storage.history()[0]
    assert (newest.id, newest.resumable) == (in_play, True)
    history = finished_rows(storage)
    assert [row.id for row in history] == sorted(games, reverse=True)
    for row in history:
        game = games[row.id]
        assert (row.players, row.score, row.names) == (
            game.setup.players,
            game.score,
            game.setup.names,
        )
        assert row.options == game.setup.options
        assert row.max_score == game.setup.max_score

    groups = {}
    for game in games.values():
        groups.setdefault((game.setup.players, game.setup.options.code()), []).append(game)
    expected = [
        StatsRow(
            players,
            GameOptions.from_code(code),
            len(group),
            max(game.score for game in group),
            sum(game.score for game in group) / len(group),
            sum(game.end_reason is EndReason.PERFECT for game in group),
            sum(game.end_reason is EndReason.STRIKEOUT for game in group),
        )
        for (players, code), group in sorted(groups.items())
    ]
    assert storage.stats() == expected
    assert [(row.players, row.options.variant_name(), row.games) for row in expected] == [
        (2, "base game", 3),
        (3, "base game", 2),
        (3, "short multicolor", 1),
    ]


def test_settings_round_trip(tmp_path):
    with open_storage(tmp_path) as storage:
        assert storage.get_setting("players") is None
        assert storage.get_setting("players", 3) == 3
        storage.set_setting("players", 4)
        storage.set_setting("names", ["Ann", "Bö", "Cy"])
        storage.set_setting("variant", {"multicolor": "short", "timed_display": True})
        storage.set_setting("players", 5)
        storage.set_setting("last", None)
        with pytest.raises(TypeError, match="'bad' must be JSON data"):
            storage.set_setting("bad", object())
        with pytest.raises(TypeError, match="JSON"):
            storage.set_setting("nan", float("nan"))
    with open_storage(tmp_path) as storage:
        assert storage.get_setting("players") == 5
        assert storage.get_setting("names") == ["Ann", "Bö", "Cy"]
        assert storage.get_setting("variant") == {"multicolor": "short", "timed_display": True}
        assert storage.get_setting("last", "default") is None
        assert storage.get_setting("bad", "default") == "default"


def in_another_process(data_dir: Path, code: str) -> str:
    """Run ``code`` in a separate Python process with ``storage`` open on ``data_dir``."""
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from companion.storage import Storage\n"
        "from engine import Hint, Play\n"
        "from engine.cards import Card\n"
        "storage = Storage.open(Path(sys.argv[1]))\n"
        f"{code}\n"
        "storage.close()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(data_dir)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_two_storages_on_the_same_file_see_each_others_commits(tmp_path):
    """Two processes (one handle each: see the next test) share the file through SQLite."""
    first = open_storage(tmp_path)
    try:
        game_id = first.new_game(GameSetup(players=2))
        first.append_action(game_id, Hint())
        said = in_another_process(
            tmp_path,
            f"assert storage.notice is None, storage.notice\n"
            f"assert storage.load({game_id}).actions == [Hint()]\n"
            f"storage.append_action({game_id}, Play(Card.from_code('R1')))\n"
            "print(storage.unfinished().id)",
        )
        assert first.load(game_id).actions == [Hint(), Play(Card.from_code("R1"))]
        assert first.unfinished().id == int(said) == game_id
        first.set_setting("players", 2)
        assert in_another_process(tmp_path, "print(storage.get_setting('players'))") == "2\n"
    finally:
        first.close()


@pytest.mark.parametrize("second", ["open", "open_existing"])
def test_a_second_handle_in_the_same_process_is_refused_and_the_reader_is_kept(tmp_path, second):
    """Issue 36: a second handle on the file in one process is refused in one sentence
    (closing it would drop the process's locks); the reader is one, kept until the
    owner closes, and cannot write."""
    storage = open_storage(tmp_path)
    try:
        game_id = storage.new_game(GameSetup(players=2))
        with pytest.raises(StorageError, match="already open in this process"):
            getattr(Storage, second)(tmp_path)
        reader = storage.reader()
        assert storage.reader() is reader and reader.reader() is reader
        storage.append_action(game_id, Hint())
        assert reader.load(game_id).actions == [Hint()]
        reader.close()  # a view: only its owner closes it
        assert reader.load(game_id).actions == [Hint()]
        with pytest.raises(StorageError):
            reader.append_action(game_id, Hint())
    finally:
        storage.close()
    with pytest.raises(StorageError, match="closed"):
        reader.load(game_id)
    Storage.open(tmp_path).close()  # closed: the file is free again


def test_a_closed_storage_refuses_calls(tmp_path):
    storage = open_storage(tmp_path)
    storage.close()
    storage.close()
    with pytest.raises(StorageError, match="closed"):
        storage.new_game(GameSetup(players=2))


def test_time_stamps_are_utc(tmp_path):
    paris = datetime(2026, 11, 21, 12, 15, tzinfo=timezone(timedelta(hours=1)))
    with open_storage(tmp_path, FrozenClock(paris)) as storage:
        game_id = storage.new_game(GameSetup(players=2))
        assert storage.load(game_id).started_at == "2026-11-21T11:15:00Z"
    with open_storage(tmp_path, FrozenClock(datetime(2026, 1, 2, 3, 4, 5))) as storage:
        game_id = storage.new_game(GameSetup(players=2))  # naive: taken as UTC
        assert storage.load(game_id).started_at == "2026-01-02T03:04:05Z"


# -- files that are not ours --------------------------------------------------------


def make_finished_database(data_dir, games=4):
    with open_storage(data_dir) as storage:
        for seed in range(games):
            store(storage, played_game(GameSetup(players=5), seed))
    assert not (data_dir / "games.db-wal").exists()  # checkpointed at close
    return data_dir / "games.db"


def assert_fresh_and_working(storage):
    assert storage.history() == []
    assert storage.latest_game_id() is None
    game_id = storage.new_game(GameSetup(players=2))
    storage.append_action(game_id, Hint())
    assert storage.load(game_id).actions == [Hint()]


def test_random_bytes_are_moved_aside_with_their_side_files(tmp_path, caplog):
    """The notice is a sentence (what happened, where the copy is); SQLite's words go to
    the log."""
    garbage = random.Random(1).randbytes(8192)
    wal = random.Random(2).randbytes(1000)
    (tmp_path / "games.db").write_bytes(garbage)
    (tmp_path / "games.db-wal").write_bytes(wal)
    with open_storage(tmp_path, FrozenClock()) as storage:
        moved = "games.db.corrupt-20261121T101500Z"
        assert storage.notice == (
            f"The games database was damaged; it was moved aside to {moved} and a new one started"
        )
        assert "it is not a database file" in caplog.text
        assert (tmp_path / moved).read_bytes() == garbage
        assert (tmp_path / f"{moved}-wal").read_bytes() == wal
        assert_fresh_and_working(storage)


def test_a_second_damaged_file_in_the_same_second_gets_another_name(tmp_path):
    for number in (1, 2):
        (tmp_path / "games.db").write_bytes(b"not a database" * number * 10)
        with open_storage(tmp_path, FrozenClock()) as storage:
            assert storage.notice is not None
        Path(storage.path).unlink()  # as if the new one were damaged too
        for side in ("-wal", "-shm"):
            Path(f"{storage.path}{side}").unlink(missing_ok=True)
    assert moved_files(tmp_path, "corrupt") == [
        "games.db.corrupt-20261121T101500Z",
        "games.db.corrupt-20261121T101500Z-2",
    ]
    assert (tmp_path / "games.db.corrupt-20261121T101500Z-2").read_bytes() == b"not a database" * 20


@pytest.mark.parametrize("size", [50, 4096, "half", "all but one page"])
def test_a_truncated_database_is_moved_aside(tmp_path, size):
    path = make_finished_database(tmp_path)
    full = path.stat().st_size
    keep = {"half": full // 2, "all but one page": full - 4096}.get(size, size)
    assert 0 < keep < full
    os.truncate(path, keep)
    truncated = path.read_bytes()
    with open_storage(tmp_path, FrozenClock()) as storage:
        assert storage.notice.startswith("The games database was damaged; it was moved")
        assert "moved aside to games.db.corrupt-20261121T101500Z" in storage.notice
        assert (tmp_path / "games.db.corrupt-20261121T101500Z").read_bytes() == truncated
        assert_fresh_and_working(storage)


def test_damaged_pages_are_found_by_the_integrity_check(tmp_path):
    """Issue 36: the whole-file check is no longer part of the opening (it grows with the
    games): ``Storage.check`` finds the damaged page, one sentence per problem."""
    path = make_finished_database(tmp_path)
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) >= 4 * page
    for offset in range(2 * page + 8, 3 * page, 7):  # scramble the third page, not its header
        data[offset] ^= 0x5A
    path.write_bytes(bytes(data))
    with open_storage(tmp_path, FrozenClock()) as storage:
        problems = storage.check()
        assert problems
        assert all(p.startswith(f"The games database {path} ") for p in problems)
    assert not list(tmp_path.glob("games.db.corrupt-*"))  # in use: said, not moved


def test_a_database_of_another_program_is_moved_aside_untouched(tmp_path, caplog):
    path = tmp_path / "games.db"
    other = sqlite3.connect(path)
    other.execute("PRAGMA application_id = 0x12345678")
    other.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    other.execute("INSERT INTO photos (name) VALUES ('beach.jpg')")
    other.commit()
    other.close()
    original = path.read_bytes()
    with open_storage(tmp_path, FrozenClock()) as storage:
        moved = tmp_path / "games.db.foreign-20261121T101500Z"
        assert storage.notice == (
            "The file games.db belonged to another program; it was moved aside to"
            f" {moved.name} and a new games database started"
        )
        assert "application id 0x12345678" in caplog.text
        assert moved.read_bytes() == original
        assert sqlite_pragma(path, "application_id") == APPLICATION_ID
        assert_fresh_and_working(storage)


def test_a_foreign_wal_database_is_moved_aside_with_its_journal_unapplied(tmp_path, caplog):
    source = tmp_path / "elsewhere"
    source.mkdir()
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    other = sqlite3.connect(source / "games.db")
    other.execute("PRAGMA journal_mode = WAL")
    other.execute("CREATE TABLE notes (text TEXT)")
    other.executemany("INSERT INTO notes VALUES (?)", [("x" * 100,)] * 200)
    other.commit()
    # Copy while it is open: a crashed program's files, the WAL not yet checkpointed.
    for name in ("games.db", "games.db-wal"):
        shutil.copy(source / name, data_dir / name)
    other.close()
    main, wal = (data_dir / "games.db").read_bytes(), (data_dir / "games.db-wal").read_bytes()
    assert len(wal) > 0
    with open_storage(data_dir, FrozenClock()) as storage:
        assert "another program" in storage.notice
        assert "no application id, tables: notes" in caplog.text
        moved = data_dir / "games.db.foreign-20261121T101500Z"
        assert moved.read_bytes() == main
        assert Path(f"{moved}-wal").read_bytes() == wal
        assert_fresh_and_working(storage)
    check = sqlite3.connect(moved)  # still the other program's intact database
    assert check.execute("SELECT COUNT(*) FROM notes").fetchone()[0] == 200
    check.close()


def test_a_database_of_a_newer_schema_is_moved_aside(tmp_path):
    path = make_finished_database(tmp_path, games=1)
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    original = path.read_bytes()
    with open_storage(tmp_path, FrozenClock()) as storage:
        assert "newer version" in storage.notice
        assert (tmp_path / "games.db.newer-20261121T101500Z").read_bytes() == original
        assert_fresh_and_working(storage)


def test_a_journal_left_without_its_database_is_not_replayed(tmp_path):
    source = tmp_path / "elsewhere"
    with open_storage(source) as writer:
        game_id = writer.new_game(GameSetup(players=2))  # checkpointed: the WAL is empty
        writer.append_action(game_id, Play(Card.from_code("R1")))  # in the WAL only
        wal = (source / "games.db-wal").read_bytes()
    assert len(wal) > 0
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / "games.db-wal").write_bytes(wal)
    with open_storage(data_dir, FrozenClock()) as storage:
        moved = "games.db.orphan-20261121T101500Z-wal"
        assert storage.notice is not None and moved in storage.notice
        assert (data_dir / moved).read_bytes() == wal
        assert_fresh_and_working(storage)


def test_default_data_dir_follows_systemd_then_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    assert default_data_dir() == tmp_path / "state"
    monkeypatch.delenv("STATE_DIRECTORY")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert default_data_dir() == tmp_path / "xdg" / "hanabi-companion"


# -- unfinished games in the history, resumable (issue 9) ---------------------------------


def test_the_history_lists_unfinished_and_abandoned_games_and_the_stats_stay_finished(
    storage,
):
    """Starting a new game abandons the one in play: both are in the history, resumable,
    their score the fireworks so far; best and average count only finished games."""
    finished = played_game(GameSetup(players=2), seed=1)
    store(storage, finished)
    first = storage.new_game(GameSetup(players=2))
    storage.append_action(first, Play(Card.from_code("R1")))
    second = storage.new_game(GameSetup(players=2))
    storage.append_action(second, Hint())
    rows = {row.id: row for row in storage.history()}
    assert rows[first].status.value == "abandoned" and rows[first].resumable
    assert rows[first].score == 1 and rows[first].rating is None
    assert rows[second].status.value == "playing" and rows[second].resumable
    assert not rows[1].resumable and rows[1].score == finished.score
    assert [row.id for row in storage.history()] == [second, first, 1]  # newest first
    perfect = finished.end_reason is EndReason.PERFECT
    strikeout = finished.end_reason is EndReason.STRIKEOUT
    assert storage.stats() == [
        StatsRow(2, GameOptions(), 1, finished.score, finished.score, perfect, strikeout)
    ]


def test_an_unfinished_game_without_an_action_is_not_listed_and_nothing_else_is_lost(storage):
    """Issue 33: each New game pressed by mistake left an empty 0/25 "resumable
    (abandoned)" game in the history (the panel's, the phones', the command's). An
    unfinished game with no action is not listed, in play or abandoned; its first action
    lists it; a game with actions, finished or not, is always listed, and the empty
    game's row stays in the file (export, the ledger's count)."""
    finished = store(storage, played_game(GameSetup(players=2), seed=4))
    kept = storage.new_game(GameSetup(players=3))
    storage.append_action(kept, Hint())
    mistakes = [storage.new_game(GameSetup(players=2)) for _ in range(3)]  # each abandoned
    in_play = storage.new_game(GameSetup(players=4))
    listed = [row.id for row in storage.history()]
    assert listed == [kept, finished]
    assert [row.id for row in storage.history_page().rows] == listed
    assert [row.id for row in storage.history_page(before=in_play, limit=1).rows] == [kept]
    assert storage.history_page(limit=1).more
    assert storage.unfinished().id == in_play  # the game in play is still the one resumed
    assert [entry.id for entry in storage.catalogue()] == [finished, kept, *mistakes, in_play]
    assert storage.export(mistakes[0]).count("\n") == 1  # the header: kept in the file
    storage.append_action(in_play, Hint())  # its first action: a game of the history
    assert [row.id for row in storage.history()] == [in_play, kept, finished]
    assert [row.id for row in storage.history() if row.resumable] == [in_play, kept]


def test_reopening_an_abandoned_game_plays_it_again_and_keeps_the_other_resumable(storage):
    first = storage.new_game(GameSetup(players=2))
    storage.append_action(first, Hint())
    second = storage.new_game(GameSetup(players=2))
    stored = storage.reopen(first)
    assert stored.status.value == "playing" and stored.actions == [Hint()]
    assert storage.unfinished().id == first
    assert storage.load(second).status.value == "abandoned"
    storage.append_action(first, Hint())  # it plays on
    assert len(storage.load(first).actions) == 2


def test_a_finished_game_cannot_be_reopened(storage):
    game_id = store(storage, played_game(GameSetup(players=2), seed=2))
    with pytest.raises(GameStateError, match="over"):
        storage.reopen(game_id)
    assert storage.load(game_id).status.value == "over"
