"""Backup and restore (issue 23): `export --all FOLDER` and `import FILE…`.

Real data directories (SQLite files) and the real command line (``main``), in-process;
real flock for the one-companion lock, a real SQLite failure inside the import.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.faults import damaged

from companion.shell.backup import METADATA_PREFIX, log_file_name, read_logs
from companion.shell.cli import main
from companion.storage import DataDirLock, GameStatus, Storage, end_line
from engine import Game, GameOptions, GameSetup, Multicolor
from engine.log import action_to_dict, dump_line, format_log, parse_log, replay_log
from engine.table import SimulatedTable

LOGS = Path(__file__).resolve().parents[1] / "logs"


class Clock:
    """A clock that moves one minute each time it is read."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


def store_played(storage: Storage, players: int, seed: int, *, finish: bool = True) -> int:
    """A game played by the simulator, stored action by action as the app does."""
    setup = GameSetup(players=players, started_at=f"2026-11-{10 + seed:02d}T20:00:00+00:00")
    game = SimulatedTable(setup, random.Random(seed), skill=0.9).play_out()
    actions = game.actions if finish else game.actions[:12]
    game_id = storage.new_game(setup)
    for action in actions:
        storage.append_action(game_id, action)
    if finish:
        storage.finish(game_id, game)
    return game_id


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A table's data directory: three finished games, one abandoned, one in play, and
    two games left before any action (same names: only their start time tells them apart)."""
    data = tmp_path_factory.mktemp("table")
    with Storage.open(data, now=Clock()) as storage:
        store_played(storage, 2, 1)
        store_played(storage, 3, 2)
        store_played(storage, 4, 3, finish=False)  # abandoned by the next game
        for started in ("2026-11-14T20:00:00+00:00", "2026-11-14T20:01:00+00:00"):
            storage.new_game(GameSetup(players=2, started_at=started))
        store_played(storage, 5, 4)
        store_played(storage, 2, 5, finish=False)  # the game in play
    return data


def copy_of(directory: Path, tmp_path: Path, name: str = "data") -> Path:
    return Path(shutil.copytree(directory, tmp_path / name))


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    code = main(list(arguments))
    out, err = capsys.readouterr()
    return code, out, err


def history(capsys: pytest.CaptureFixture[str], data: Path) -> str:
    code, out, err = run(capsys, "history", "--data-dir", str(data))
    assert code == 0, err
    return out


def stored_count(data: Path) -> int:
    db = sqlite3.connect(data / "games.db")
    try:
        return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    finally:
        db.close()


def test_export_all_then_import_into_an_empty_directory_gives_the_same_history(
    table, tmp_path, capsys
):
    """The round trip: every game comes back with its number, dates, result and status,
    so `history` prints the same lines; the game in play is the one resumed."""
    backup = tmp_path / "usb" / "hanabi-backup"
    code, out, err = run(capsys, "export", "--all", str(backup), "--data-dir", str(table))
    assert (code, err) == (0, "")
    assert out == f"7 games written to {backup}\n"
    assert sorted(path.name for path in backup.iterdir()) == [
        f"game-{number:05d}-2026-11-20.jsonl" for number in range(1, 8)
    ]
    restored = tmp_path / "new-card"
    code, out, err = run(capsys, "import", str(backup), "--data-dir", str(restored))
    assert (code, err) == (0, "")
    assert out == f"7 games imported, 0 already stored (in {restored})\n"
    assert history(capsys, restored) == history(capsys, table)
    with Storage.open(restored) as storage:
        unfinished = storage.unfinished()
        assert unfinished is not None and unfinished.id == 7
        assert [entry.status for entry in storage.catalogue()] == [
            "over", "over", "abandoned", "abandoned", "abandoned", "over", "playing",
        ]  # fmt: skip


def test_exported_files_are_logs_that_replay_and_carry_their_dates(table, tmp_path, capsys):
    """Each file is a hanabi-log/1 log (the comments at its top are skipped by `replay`),
    named by number and start date, its dates in the comment `import` reads."""
    backup = tmp_path / "backup"
    run(capsys, "export", "--all", str(backup), "--data-dir", str(table))
    with Storage.open(table) as storage:
        entries = storage.catalogue()
        for entry in entries:
            path = backup / log_file_name(entry.id, entry.started_at)
            text = path.read_text(encoding="utf-8")
            whole = storage.export(entry.id)
            assert text.endswith(whole + end_line(entry.id, whole))  # the line that vouches
            meta_line = next(line for line in text.splitlines() if line.startswith(METADATA_PREFIX))
            assert json.loads(meta_line[len(METADATA_PREFIX) :]) == {
                "game": entry.id,
                "status": entry.status,
                "started_at": entry.started_at,
                "finished_at": entry.finished_at,
            }
    assert path.name.startswith("game-00007-2026-11-20")
    code, _, err = run(capsys, "replay", *map(str, sorted(backup.iterdir())))
    assert (code, err) == (0, "")


def test_importing_the_same_games_twice_stores_them_once(table, tmp_path, capsys):
    """Idempotent: a second import of the backup stores nothing; importing it into the
    table it came from stores nothing; a file given twice in one command is stored once."""
    backup = tmp_path / "backup"
    run(capsys, "export", "--all", str(backup), "--data-dir", str(table))
    restored = tmp_path / "restored"
    run(capsys, "import", str(backup), "--data-dir", str(restored))
    before = history(capsys, restored)
    code, out, _ = run(capsys, "import", str(backup), "--data-dir", str(restored))
    assert code == 0 and out == f"0 games imported, 7 already stored (in {restored})\n"
    assert history(capsys, restored) == before and stored_count(restored) == 7

    source = copy_of(table, tmp_path, "source")
    code, out, _ = run(capsys, "import", str(backup), "--data-dir", str(source))
    assert code == 0 and out.startswith("0 games imported, 7 already stored")
    assert stored_count(source) == 7

    single = tmp_path / "single"
    storm = str(LOGS / "storm.jsonl")
    code, out, _ = run(capsys, "import", "--partial", storm, storm, "--data-dir", str(single))
    assert code == 0 and "\n1 game imported, 1 already stored" in out
    assert stored_count(single) == 1


def test_two_games_that_differ_only_by_their_start_are_two_games(table, tmp_path, capsys):
    """The identity is the whole log, its header's start time included: the two games
    left before any action (same names, same options) both come back."""
    backup = tmp_path / "backup"
    run(capsys, "export", "--all", str(backup), "--data-dir", str(table))
    restored = tmp_path / "restored"
    run(capsys, "import", str(backup / "game-00004-2026-11-20.jsonl"), "--data-dir", str(restored))
    code, out, _ = run(
        capsys, "import", str(backup / "game-00005-2026-11-20.jsonl"), "--data-dir", str(restored)
    )
    assert code == 0 and out.startswith("1 game imported, 0 already stored")


def test_a_log_without_our_comment_is_imported_as_a_game_of_its_own(tmp_path, capsys):
    """Any hanabi-log/1 file comes in with --partial (it has no end line): a finished one as
    finished, with the next free number; an unfinished one is left unfinished (resumable),
    never the game in play."""
    data = tmp_path / "data"
    partial = tmp_path / "partial.jsonl"
    partial.write_text('{"format": "hanabi-log/1", "players": 2}\n{"action": "hint"}\n')
    code, _, err = run(
        capsys,
        "import",
        "--partial",
        str(LOGS / "storm.jsonl"),
        str(partial),
        "--data-dir",
        str(data),
    )
    assert (code, err) == (0, "")
    with Storage.open(data) as storage:
        rows = storage.history()
        assert [(row.id, row.status, row.resumable) for row in rows] == [
            (2, GameStatus.ABANDONED, True),
            (1, GameStatus.OVER, False),
        ]
        assert storage.unfinished() is None


def test_a_number_taken_here_gets_the_next_free_one(table, tmp_path, capsys):
    """Merging another table's backup: games whose number is taken get new numbers; none
    is lost and none replaces a game stored."""
    backup = tmp_path / "backup"
    run(capsys, "export", "--all", str(backup), "--data-dir", str(table))
    other = tmp_path / "other"
    with Storage.open(other, now=Clock()) as storage:
        store_played(storage, 3, 9)
        store_played(storage, 4, 8)
    code, out, _ = run(capsys, "import", str(backup), "--data-dir", str(other))
    assert code == 0 and out.startswith("7 games imported, 0 already stored")
    with Storage.open(other) as storage:
        assert [entry.id for entry in storage.catalogue()] == list(range(1, 10))
        assert storage.unfinished() is not None  # the table's own game in play stays so


REFUSED = [
    ("bad_json.jsonl", 2, "not valid JSON", 2),
    ("bad_card.jsonl", 3, "'P1' is not a card", 2),
    ("discard_full_tokens.jsonl", 2, "All 8 hint tokens are available", 1),
]


def test_refused_logs_are_named_with_file_and_line_and_nothing_is_imported(table, tmp_path, capsys):
    """One refused file and nothing comes in, not even the good ones; each refusal says
    its file and line, as `replay` does; exit 2 for an invalid log, else 1 (a log that
    replays but has no end line, as storm.jsonl, is refused too: not a whole export)."""
    data = copy_of(table, tmp_path)
    before = history(capsys, data)
    files = [str(LOGS / "storm.jsonl"), *(str(LOGS / name) for name, *_ in REFUSED)]
    code, out, err = run(capsys, "import", *files, "--data-dir", str(data))
    assert code == 2 and out == ""
    for name, line, reason, _ in REFUSED:
        assert f"{LOGS / name}:{line}: " in err and reason in err
    assert f"{LOGS / 'storm.jsonl'}:9: the file is not a whole export" in err
    assert err.rstrip().endswith("nothing was imported: 4 file(s) refused")
    assert history(capsys, data) == before and stored_count(data) == 7

    code, _, err = run(
        capsys, "import", str(LOGS / "discard_full_tokens.jsonl"), "--data-dir", str(data)
    )
    assert code == 1 and "discard_full_tokens.jsonl:2:" in err


def test_a_refused_import_leaves_no_data_directory_behind(tmp_path, capsys):
    """The files are refereed before the data directory is touched: none is created."""
    data = tmp_path / "data"
    code, _, err = run(capsys, "import", str(LOGS / "bad_json.jsonl"), "--data-dir", str(data))
    assert code == 2 and not data.exists()
    missing = tmp_path / "gone.jsonl"
    code, _, err = run(capsys, "import", str(missing), "--data-dir", str(data))
    # the sentence `replay` says for a missing file (issue 33: one sentence everywhere)
    assert code == 2 and f"{missing}: cannot read the file: it does not exist\n" in err
    assert "Errno" not in err and not data.exists()


@pytest.mark.parametrize(
    ("comment", "reason"),
    [
        ("# hanabi-companion: {not json", "is not a JSON object"),
        ('# hanabi-companion: {"game": "seven"}', '"game" must be a game number'),
        ('# hanabi-companion: {"game": 3, "finished_at": 5}', '"finished_at" must be a string'),
    ],
)
def test_a_damaged_backup_comment_is_refused_with_its_line(tmp_path, capsys, comment, reason):
    log = tmp_path / "game.jsonl"
    log.write_text(f"# a note\n{comment}\n" + (LOGS / "storm.jsonl").read_text())
    code, _, err = run(capsys, "import", str(log), "--data-dir", str(tmp_path / "data"))
    assert code == 2 and f"{log}:2: the hanabi-companion comment" in err and reason in err


def test_import_waits_for_the_companion_to_stop(table, tmp_path, capsys):
    """A companion running on the data directory (its lock held): the import is refused
    in one sentence that says what to do, and nothing changes."""
    data = copy_of(table, tmp_path)
    with DataDirLock(data):
        code, _, err = run(
            capsys, "import", "--partial", str(LOGS / "storm.jsonl"), "--data-dir", str(data)
        )
    assert code == 1 and "already running" in err and "stop it first, then import" in err
    assert stored_count(data) == 7


def test_an_error_in_the_middle_of_an_import_stores_none_of_it(table, tmp_path, capsys):
    """Nothing half-imported: SQLite refusing the third game (a real trigger aborting the
    insert) rolls back the two before it."""
    backup = tmp_path / "backup"
    run(capsys, "export", "--all", str(backup), "--data-dir", str(table))
    data = tmp_path / "data"
    Storage.open(data).close()
    db = sqlite3.connect(data / "games.db")
    db.execute(
        "CREATE TRIGGER refuse_third BEFORE INSERT ON games WHEN NEW.id = 3"
        " BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
    )
    db.commit()
    db.close()
    code, out, err = run(capsys, "import", str(backup), "--data-dir", str(data))
    assert code == 1 and out == "" and err.rstrip().endswith("nothing was imported")
    assert stored_count(data) == 0


def test_a_damaged_game_is_exported_as_far_as_it_replays_and_flagged(table, tmp_path, capsys):
    """A game whose stored action was changed: `export --all` writes its actions before
    the damage, flags the file and says so (exit 1); `import` brings that part back as a
    game left unfinished, and says so."""
    data = copy_of(table, tmp_path)
    db = sqlite3.connect(data / "games.db")
    db.execute("UPDATE actions SET line = '{\"action\": \"play\", \"card\": \"Q9\"}'"
               " WHERE game_id = 2 AND seq = 10")  # fmt: skip
    db.commit()
    db.close()
    backup = tmp_path / "backup"
    code, out, err = run(capsys, "export", "--all", str(backup), "--data-dir", str(data))
    assert code == 1 and out == f"7 games written to {backup}\n"
    assert "Stored game 2 is damaged" in err and "its first 9 actions, which replay" in err
    text = (backup / "game-00002-2026-11-20.jsonl").read_text()
    assert "DAMAGED" in text.splitlines()[0] and len(parse_log(text).actions) == 9

    restored = tmp_path / "restored"
    code, out, err = run(capsys, "import", str(backup), "--data-dir", str(restored))
    assert code == 0 and "the game was damaged when exported" in out
    with Storage.open(restored) as storage:
        row = next(row for row in storage.history() if row.id == 2)
        assert row.resumable and row.damaged is None
        assert len(storage.load(2).actions) == 9


def test_export_all_into_a_file_says_so(table, tmp_path, capsys):
    in_the_way = tmp_path / "backup"
    in_the_way.write_text("not a folder")
    code, out, err = run(capsys, "export", "--all", str(in_the_way), "--data-dir", str(table))
    assert code == 1 and out == ""
    assert err == f"hanabi-companion: {in_the_way} is a file, not a folder: nothing was exported\n"


def test_a_storm_log_imported_keeps_its_result(tmp_path, capsys):
    """The result stored is the referee's: the storm is a lost game, score 0."""
    data = tmp_path / "data"
    run(capsys, "import", "--partial", str(LOGS / "storm.jsonl"), "--data-dir", str(data))
    with Storage.open(data) as storage:
        (row,) = storage.history()
        game = Game.replay(storage.load(1).setup, storage.load(1).actions)
        assert row.outcome is game.outcome and row.score == game.score == 0
        assert row.names == ("Ann", "Bo", "Cy")
        assert storage.stats()[0].games == 1


@st.composite
def exported_files(draw: st.DrawFn) -> bytes:
    """A file as `export --all` writes it (a game part-played by the simulator, our two
    comment lines), then damaged: bytes changed, cut, inserted, lines repeated."""
    setup = GameSetup(
        players=draw(st.integers(2, 5)),
        started_at=draw(st.sampled_from([None, "2026-11-20T20:00:00+00:00"])),
        options=GameOptions(multicolor=draw(st.sampled_from(list(Multicolor)))),
    )
    table = SimulatedTable(setup, random.Random(draw(st.integers(0, 2**32 - 1))))
    for _ in range(draw(st.integers(0, 70))):
        if table.game.is_over:
            break
        table.step()
    meta = {"game": draw(st.integers(1, 99)), "status": "over", "started_at": "x"}
    head = f"# hanabi-companion game\n{METADATA_PREFIX}{json.dumps(meta)}\n"
    data = bytearray((head + format_log(setup, table.game.actions)).encode())
    return damaged(draw, data, 5)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(exported_files())
def test_any_file_is_one_game_or_one_refusal_naming_a_line_of_it(tmp_path_factory, data):
    """Whatever a backup file holds, reading it never raises: it gives one game, whose
    stored lines are the engine's own writing of what `replay` accepts, or one refusal
    naming a line that exists in the file."""
    path = tmp_path_factory.mktemp("fuzz") / "game.jsonl"
    path.write_bytes(data)
    games, refusals = read_logs([path])
    assert len(games) + len(refusals) == 1
    if refusals:
        (refusal,) = refusals
        assert refusal.path == path and refusal.code in (1, 2)
        assert 1 <= refusal.line <= max(1, data.count(b"\n") + 1)
        assert "Errno" not in refusal.reason and "codec" not in refusal.reason
    else:
        ((_, item, _),) = games
        game = replay_log(data.decode("utf-8-sig"))
        assert item.lines == tuple(dump_line(action_to_dict(a)) for a in game.actions)
        assert item.setup == game.setup and (item.score is None) is (not game.is_over)
