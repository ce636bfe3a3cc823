"""Issue 36: no start ends in a traceback, whatever the files of the data directory hold.

Bytes are written into the schema's text, the journal and the ledger of a stored table, at
every class of offset; the companion starts on each (in-process on SDL's dummy driver for the
sweeps, as a real process for one offset of each class) and plays on: a damaged database is
moved aside and said, a damaged journal is kept aside and said, and nothing raises.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.faults import play_finished_games
from support.running import RunningCompanion

from companion.core.controller import SetupDraft
from companion.panel.display import open_display
from companion.shell.app import App, resume, storage_notice
from companion.storage import LEDGER_NAME, Storage
from engine import GameSetup, Hint, Play
from engine.cards import Card

FILES = ("games.db", "games.db-wal", LEDGER_NAME)

#: Where in the schema's text (page 1 of games.db) a byte is written: each a piece of the
#: text and what it is. The CHECK expressions are where a byte of 0x80 or above once made
#: SQLite's message invalid UTF-8 and the start die at ``PRAGMA journal_mode = WAL``.
SCHEMA_PLACES = {
    "check": b"players BETWEEN 2 AND 5",
    "check_list": b"('playing', 'over', 'abandoned')",
    "check_table": b"CHECK (status <> 'over' OR score IS NOT NULL)",
    "check_actions": b"CHECK (seq >= 1)",
    "column": b"finished_at TEXT",
    "table": b"CREATE TABLE settings",
    "index": b"games_by_status ON games",
    "trigger": b"CREATE TRIGGER",
}


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> Path:
    """A stored table as a power cut leaves it: finished games in the database, a game in
    play whose last actions are only in the journal, and the ledger."""
    live = tmp_path_factory.mktemp("live")
    storage = Storage.open(live)
    try:
        play_finished_games(storage, 3, seed=36)
        game_id = storage.new_game(GameSetup(players=2, names=("Ann", "Bo")))
        storage.append_action(game_id, Play(Card.from_code("R1")))
        for _ in range(4):
            storage.append_action(game_id, Hint())
        copy = tmp_path_factory.mktemp("table")
        for name in FILES:
            shutil.copyfile(live / name, copy / name)  # while open: the journal is there
    finally:
        storage.close()
    return copy


def damaged_copy(table: Path, data_dir: Path, name: str, offset: int, value: int) -> None:
    """The table copied to ``data_dir`` with the byte at ``offset`` of ``name`` set to ``value``."""
    data_dir.mkdir()
    for each in FILES:
        data = bytearray((table / each).read_bytes())
        if each == name:
            data[offset] = value
        (data_dir / each).write_bytes(bytes(data))


def schema_offsets(table: Path, place: str) -> range:
    data = (table / "games.db").read_bytes()
    text = SCHEMA_PLACES[place]
    start = data.find(text)
    assert start > 0, place
    return range(start, start + len(text))


def journal_offsets(table: Path) -> dict[str, int]:
    """One offset of each part of the journal: its header, a frame's header, a page in a
    frame, the last frame (the last action's commit)."""
    size = (table / "games.db-wal").stat().st_size
    page = int.from_bytes((table / "games.db").read_bytes()[16:18], "big")
    frame = 24 + page
    assert size >= 32 + 2 * frame
    return {
        "header": 9,
        "frame_header": 32 + 4,
        "frame_page": 32 + 24 + page // 2,
        "last_frame": size - page // 3,
    }


def started(data_dir: Path, dummy: bool = True) -> str | None:
    """The companion's start, in-process (drawn on the dummy screen if ``dummy``): what
    its screen says at start-up."""
    storage = Storage.open(data_dir)
    try:
        storage.get_setting("setup", {})
        controller, game_id = resume(storage, SetupDraft(players=2))
        notice = " · ".join(filter(None, [storage_notice(storage, "en"), controller.notice]))
        if dummy:
            app = App(storage, open_display("dummy", (480, 320)), controller, game_id)
            app.draw()
            app.display.close()
        return notice
    finally:
        storage.close()


def moved_aside(data_dir: Path) -> list[str]:
    """The database files moved aside (their journals went with them)."""
    return sorted(
        p.name
        for p in data_dir.iterdir()
        if ".corrupt-" in p.name and not p.name.endswith(("-wal", "-shm", "-journal"))
    )


def kept_journals(data_dir: Path) -> list[str]:
    return sorted(p.name for p in data_dir.iterdir() if ".damaged-" in p.name)


@pytest.fixture
def dummy_video(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")


@pytest.mark.parametrize(
    ("text", "changed"),
    [
        (b"CHECK (seq >= 1)", b"CHECK (seq >= 9)"),  # benchmarks/corruption.py, seed 311
        (b"players BETWEEN 2 AND 5", b"players BETWEEN 2 AND 3"),
        (b"('playing', 'over', 'abandoned')", b"('playing', 'ovex', 'abandoned')"),
    ],
)
def test_a_schema_still_sql_but_not_ours_is_moved_aside_and_said(tmp_path, table, text, changed):
    """Issue 36: a byte that leaves the schema readable SQL but changes what it allows (a
    file that would refuse the table's own writes) is damage: moved aside and said at the
    start, and the next action is stored in the new database."""
    data = (table / "games.db").read_bytes()
    assert data.count(text) == 1
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    for each in FILES:
        (data_dir / each).write_bytes((table / each).read_bytes())
    (data_dir / "games.db").write_bytes(data.replace(text, changed))
    notice = started(data_dir, dummy=False)
    copies = moved_aside(data_dir)
    assert len(copies) == 1 and notice is not None and copies[0] in notice
    with Storage.open(data_dir) as storage:
        game_id = storage.new_game(GameSetup(players=2, names=("Ann", "Bo")))
        storage.append_action(game_id, Hint())
        assert storage.load(game_id).actions == [Hint()]


def test_the_schema_of_every_version_this_code_makes_is_its_own(tmp_path):
    """The schema check knows the text this code writes: a new file, and the version 1 file
    of an older release upgraded in place, are both taken as they are."""
    with Storage.open(tmp_path / "new") as storage:
        storage.new_game(GameSetup(players=2))
    data_dir = tmp_path / "old"
    data_dir.mkdir()
    shutil.copyfile(
        Path(__file__).resolve().parents[1] / "data" / "games-v1.db", data_dir / "games.db"
    )
    for _ in range(2):  # upgraded at the first start, ours as it is at the second
        with Storage.open(data_dir) as storage:
            assert storage.notice is None and storage.history()
    assert moved_aside(tmp_path / "new") == [] and moved_aside(data_dir) == []


@pytest.mark.parametrize("place", sorted(SCHEMA_PLACES))
def test_every_byte_of_the_schema_text_is_a_start_not_a_traceback(tmp_path, table, place):
    """Every byte of each piece of the schema's text, set to 0x80 and to 0xFF (never text in
    UTF-8): the start goes through; a file it cannot use is moved aside and said."""
    moved = 0
    for offset in schema_offsets(table, place):
        for value in (0x80, 0xFF):
            data_dir = tmp_path / f"{offset}-{value}"
            damaged_copy(table, data_dir, "games.db", offset, value)
            notice = started(data_dir, dummy=False)
            copies = moved_aside(data_dir)
            if copies:
                moved += 1
                assert len(copies) == 1 and notice is not None and copies[0] in notice
            shutil.rmtree(data_dir)
    # Our schema is ASCII: any such byte is damage (in a CHECK, it once crashed the start).
    assert moved == 2 * len(schema_offsets(table, place))


def test_every_part_of_the_journal_and_the_ledger_is_a_start_not_a_traceback(
    tmp_path, table, dummy_video
):
    """Bytes through the journal and the whole ledger: the app starts and draws its screen;
    a damaged journal is kept aside and said."""
    journal = (table / "games.db-wal").stat().st_size
    for name, offsets in (
        ("games.db-wal", [*journal_offsets(table).values(), *range(0, journal, 509)]),
        (LEDGER_NAME, range(0, 1024, 3)),
    ):
        for offset in offsets:
            data_dir = tmp_path / f"{name}-{offset}"
            damaged_copy(table, data_dir, name, offset, 0xFF ^ (table / name).read_bytes()[offset])
            notice = started(data_dir, dummy=name == "games.db-wal" and offset < 600)
            for copy in kept_journals(data_dir):
                assert notice is not None and copy in notice
            shutil.rmtree(data_dir)


def real_start(tmp_path: Path, data_dir: Path) -> RunningCompanion:
    with RunningCompanion(tmp_path, data_dir) as companion:
        assert companion.ready()
    assert companion.returncode == 0, companion.stderr
    assert "Traceback" not in companion.stderr, companion.stderr
    return companion


@pytest.mark.parametrize("place", ["check", "check_list", "column", "trigger"])
def test_the_real_companion_starts_on_a_byte_in_the_schema_text(tmp_path, table, place):
    """As systemd starts it: up (READY=1, stopped with exit 0), the file moved aside and
    said, where a byte of 0x80 in a CHECK once meant a crash at every restart."""
    data_dir = tmp_path / "data"
    damaged_copy(table, data_dir, "games.db", schema_offsets(table, place)[3], 0x80)
    companion = real_start(tmp_path, data_dir)
    (copy,) = moved_aside(data_dir)
    assert f"it was moved aside to {copy}" in companion.stderr
    with Storage.open(data_dir) as storage:  # the fresh database the companion started
        assert storage.latest_game_id() is None


@pytest.mark.parametrize("part", ["header", "frame_header", "frame_page", "last_frame"])
def test_the_real_companion_starts_on_a_damaged_journal(tmp_path, table, part):
    """A byte of each part of the journal: up, and a journal it cannot trust kept aside
    and said."""
    data_dir = tmp_path / "data"
    offset = journal_offsets(table)[part]
    value = 0xFF ^ (table / "games.db-wal").read_bytes()[offset]
    damaged_copy(table, data_dir, "games.db-wal", offset, value)
    companion = real_start(tmp_path, data_dir)
    copies = kept_journals(data_dir)
    assert len(copies) <= 1
    if copies:
        assert copies[0] in companion.stderr
    else:  # a torn last frame: SQLite drops it, the ledger counts the action missing
        assert part == "last_frame"
        assert "missing" in companion.stderr, companion.stderr


@pytest.mark.parametrize("offset", [0, 6, 40, 512 + 20, 1023])
def test_the_real_companion_starts_on_a_damaged_ledger(tmp_path, table, offset):
    """A byte of the ledger (its mark, its checksum, its record, the other slot): up."""
    data_dir = tmp_path / "data"
    value = 0xFF ^ (table / LEDGER_NAME).read_bytes()[offset]
    damaged_copy(table, data_dir, LEDGER_NAME, offset, value)
    real_start(tmp_path, data_dir)
