"""Issue 20, the command line's smaller defects: each test names the item it checks.

Real processes (exit codes, pipes), real SQLite files, real files and devices.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from support.faults import finished_games_database

from companion.storage import FINDINGS_NAME, LEDGER_NAME, SCHEMA_VERSION, Storage
from engine import GameSetup, Hint

ROOT = Path(__file__).resolve().parents[2]
LOGS = Path(__file__).resolve().parents[1] / "logs"
COMMAND = [sys.executable, "-m", "companion"]
#: What a message to a user never carries: Python's own words for an error.
PYTHON_INTERNALS = ("[Errno", "codec", "Traceback", "Inappropriate ioctl", "(25,", "Error:")


def command(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, cwd=ROOT, timeout=timeout
    )


def listing(folder: Path) -> dict[str, bytes]:
    """Every file of ``folder`` with its bytes: what "changes nothing" compares."""
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def assert_in_words(text: str) -> None:
    for internal in PYTHON_INTERNALS:
        assert internal not in text, text


# -- read-only commands create, move and write nothing ---------------------------------


@pytest.mark.parametrize("name", ["history", "export", "export --all"])
def test_a_read_only_command_on_a_missing_data_dir_creates_nothing_and_says_so(tmp_path, name):
    """Issue 20: `history`/`export --data-dir /typo` create no folder and no database;
    one sentence says the folder is missing; exit 1."""
    typo = tmp_path / "typo" / "deeper"
    backup = ["--all", str(tmp_path / "backup")] if name == "export --all" else []
    done = command(name.split()[0], *backup, "--data-dir", str(typo))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        f"hanabi-companion: The data directory {typo} does not exist: no game is stored there\n"
    )
    assert not (tmp_path / "typo").exists() and not (tmp_path / "backup").exists()


def test_history_on_a_data_dir_that_is_a_file_says_so(tmp_path):
    """Issue 20: a file given as the data directory is named for what it is."""
    a_file = tmp_path / "games"
    a_file.write_text("notes")
    done = command("history", "--data-dir", str(a_file))
    assert done.returncode == 1 and "is not a folder" in done.stderr
    assert done.stderr.count("\n") == 1 and a_file.read_text() == "notes"


@pytest.mark.parametrize(
    ("name", "status", "out", "err"),
    [
        ("history", 0, "No game stored yet.\n", ""),
        ("export", 1, "", "hanabi-companion: no game stored yet\n"),
    ],
)
def test_a_read_only_command_on_an_empty_data_dir_creates_no_database(
    tmp_path, name, status, out, err
):
    """Issue 20: an existing folder without games: said, and no games.db appears."""
    done = command(name, "--data-dir", str(tmp_path))
    assert (done.returncode, done.stdout, done.stderr) == (status, out, err)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"a shopping list, not a database " * 8, "is damaged (it is not a database file)"),
        (None, "belongs to another program"),
        ("newer", f"was written by a newer companion (schema 9, this one reads {SCHEMA_VERSION})"),
    ],
)
def test_history_on_a_damaged_database_leaves_it_where_it_is(tmp_path, content, said):
    """Issue 20: `history` on a damaged (or foreign, or newer) database does not move it aside:
    one sentence, exit 1, the folder byte for byte as it was."""
    path = tmp_path / "games.db"
    if content == "newer":  # a games database of a later version of the companion
        finished_games_database(tmp_path, 1, seed=1)
        newer = sqlite3.connect(path)
        newer.execute("PRAGMA user_version = 9")
        newer.commit()
        newer.close()
    elif content is None:  # another program's SQLite file
        other = sqlite3.connect(path)
        other.execute("CREATE TABLE photos (name TEXT)")
        other.commit()
        other.close()
    else:
        path.write_bytes(content)
    before = listing(tmp_path)
    for name in ("history", "export"):
        done = command(name, "--data-dir", str(tmp_path))
        assert done.returncode == 1 and done.stdout == ""
        assert done.stderr.count("\n") == 1 and said in done.stderr
        assert "left as it is" in done.stderr
    assert listing(tmp_path) == before


def test_history_and_export_change_no_byte_of_the_data_dir(tmp_path):
    """Issue 20: read-only commands never change the data directory: no -wal or -shm
    file left beside the database, no checkpoint, the same bytes (a backup neither), and
    issue 24's ledger beside it neither written nor touched."""
    finished_games_database(tmp_path, 2, seed=5)
    before = listing(tmp_path)
    assert list(before) == ["games.db", FINDINGS_NAME, LEDGER_NAME]
    assert command("history", "--data-dir", str(tmp_path)).returncode == 0
    assert command("export", "--data-dir", str(tmp_path), "--game", "1").returncode == 0
    backup = tmp_path.parent / f"{tmp_path.name}-backup"
    assert command("export", "--all", str(backup), "--data-dir", str(tmp_path)).returncode == 0
    assert listing(tmp_path) == before


def test_history_reads_the_game_a_running_companion_has_not_checkpointed(tmp_path):
    """Issue 20: while the companion holds the database (its journal beside it), `history`
    reads the journal's actions too, and leaves the journal as it was."""
    finished_games_database(tmp_path, 1, seed=5)
    with Storage.open(tmp_path) as running:
        game_id = running.new_game(GameSetup(players=2, names=("Ann", "Bo")))
        running.append_action(game_id, Hint())
        wal = (tmp_path / "games.db-wal").read_bytes()
        assert wal  # the action is in the journal, not yet in games.db
        history = command("history", "--data-dir", str(tmp_path))
        exported = command("export", "--data-dir", str(tmp_path))
        assert (tmp_path / "games.db-wal").read_bytes() == wal
    assert history.returncode == 0, history.stderr
    assert "Ann, Bo" in history.stdout.splitlines()[1]
    assert exported.stdout.splitlines()[1:-1] == ['{"action": "hint"}']


# -- the history's columns -------------------------------------------------------------


def test_history_leaves_the_finished_column_of_an_unfinished_game_to_a_word(tmp_path):
    """Issue 20: the "finished" column of a game in play or abandoned says "unfinished"
    (an abandoned game's stored time is when it was left, not an end); a finished game
    shows when it ended; every score is out of the variant's most ("23/25")."""
    scores = finished_games_database(tmp_path, 2, seed=3)
    with Storage.open(tmp_path) as storage:
        left = storage.new_game(GameSetup(players=2, names=("Ann", "Bo")))
        storage.append_action(left, Hint())
        playing = storage.new_game(GameSetup(players=3, names=("Ann", "Bo", "Cy")))
        storage.append_action(playing, Hint())  # a game with no action is not listed
    done = command("history", "--data-dir", str(tmp_path))
    assert done.returncode == 0 and done.stderr == ""
    header, *lines = done.stdout.splitlines()
    rows = {int(line.split()[0]): line.split() for line in lines}
    assert header.split()[:2] == ["game", "finished"]
    assert rows[playing][1] == "unfinished" and rows[playing][-2:] == ["resumable", "(playing)"]
    assert rows[left][1] == "unfinished" and rows[left][-2:] == ["resumable", "(abandoned)"]
    for game_id, score in scores.items():
        assert rows[game_id][1][:4].isdigit() and "T" in rows[game_id][1]  # a time stamp
        assert f"{score}/25" in rows[game_id]
    assert "0/25" in rows[playing]


# -- messages in words -----------------------------------------------------------------


def test_replay_of_a_folder_says_it_in_words(tmp_path):
    """Issue 20: no "[Errno 21]": the reason in words, no line number for a file that
    cannot be read."""
    done = command("replay", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr == f"{tmp_path}: cannot read the file: it is a folder, not a file\n"


def test_replay_of_bytes_that_are_not_utf8_names_their_line_in_words(tmp_path):
    """Issue 20: no "'utf-8' codec can't decode byte 0xe9": the line, and why."""
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'{"format": "hanabi-log/1", "players": 2}\n{"action": "hint", "x": "\xe9"}\n')
    done = command("replay", str(path))
    assert done.returncode == 2
    assert done.stderr == f"{path}:2: bytes that are not UTF-8 text (a log is UTF-8)\n"


@pytest.mark.parametrize("kind", ["folder", "under a file"])
def test_a_configuration_that_cannot_be_read_is_said_in_words(tmp_path, kind):
    """Issue 20: the config loader's messages carry no Python internals."""
    if kind == "folder":
        path = tmp_path / "config.toml"
        path.mkdir()
        reason = "it is a folder, not a file"
    else:
        (tmp_path / "etc").write_text("a file, where a folder was meant")
        path = tmp_path / "etc" / "config.toml"
        reason = "a part of its path is not a folder"
    done = command("run", "--config", str(path), "--data-dir", str(tmp_path / "data"))
    assert done.returncode == 2
    assert done.stderr == (
        f"hanabi-companion: the configuration is wrong:\n{path}: cannot read it: {reason}\n"
    )


def test_reason_in_words_of_a_real_serial_error_has_no_ioctl_tuple():
    """Issue 20: pyserial on a file that is not a serial port says "(25, 'Inappropriate
    ioctl for device')"; the words say what it means."""
    import serial

    from hardware.os_words import reason_in_words

    with pytest.raises(serial.SerialException) as raised:
        serial.Serial("/etc/passwd")
    assert "(25," in str(raised.value)  # what pyserial would have shown
    assert reason_in_words(raised.value) == "it is not a terminal or serial device"


# -- render --size within what a panel can be ------------------------------------------


@pytest.mark.parametrize(
    ("size", "said"),
    [
        ("10000x10000", "10000x10000 is too large: a panel has at most 4096 pixels a side"),
        ("480x4097", "480x4097 is too large: a panel has at most 4096 pixels a side"),
        ("200x200", "200x200 is too small: the screens need at least 240x320 or 320x240"),
    ],
)
def test_render_refuses_a_size_no_panel_has_in_one_line(tmp_path, size, said):
    """Issue 20: `render --size 10000x10000` took ~1 GB: refused in one line (exit 2, as
    argparse's usage errors), nothing drawn; below the smallest panel too."""
    out = tmp_path / "screen.png"
    done = command("render", str(LOGS / "storm.jsonl"), "--size", size, "--out", str(out))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"hanabi-companion render: error: argument --size: {said}\n"
    assert not out.exists()


def test_the_largest_and_smallest_panels_are_sizes_and_one_pixel_more_or_less_is_not():
    """Issue 20: the bounds are 4096 on the longer side and 240x320 either way round."""
    import argparse

    from companion.shell.cli import parse_size

    for fine in ("4096x4096", "4096x240", "240x320", "320x240"):
        assert parse_size(fine) == tuple(int(side) for side in fine.split("x"))
    for wrong in ("4097x320", "320x4097", "239x320", "320x239"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_size(wrong)


# -- a reader that goes away: `history | head` ---------------------------------------------


def with_the_reader_gone(*args: str) -> subprocess.CompletedProcess[str]:
    """The command writing into a real pipe whose reading end is closed before it starts
    (``| head`` that already stopped reading): every write meets a broken pipe."""
    reading, writing = os.pipe()
    os.close(reading)
    try:
        return subprocess.run(
            [*COMMAND, *args],
            stdout=writing,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            timeout=120,
        )
    finally:
        os.close(writing)


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> Path:
    data_dir = tmp_path_factory.mktemp("games")
    finished_games_database(data_dir, 3, seed=7)
    return data_dir


@pytest.mark.parametrize(
    "args",
    [
        ["history", "--data-dir", "GAMES"],
        ["export", "--data-dir", "GAMES"],
        ["replay", str(LOGS / "storm.jsonl"), str(LOGS / "final_round.jsonl")],
        ["--version"],
    ],
    ids=["history", "export", "replay", "version"],
)
def test_a_command_whose_reader_went_away_stops_as_unix_tools_do(games, args):
    """Issue 20: `hanabi-companion history | head` ended in a BrokenPipeError traceback.
    Now, as `cat` or `seq`: no word on stderr, killed by SIGPIPE (the shell's 141)."""
    done = with_the_reader_gone(*(str(games) if arg == "GAMES" else arg for arg in args))
    assert done.stderr == ""
    assert done.returncode == -signal.SIGPIPE


def test_history_into_a_pipe_read_to_its_end_is_unchanged(games):
    """Issue 20: with a reader that stays, the same command prints everything, exit 0."""
    done = command("history", "--data-dir", str(games))
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 4


# -- --version ------------------------------------------------------------------------------


def test_version_is_the_installed_package_s():
    """Issue 20: `--version` says the version of the installed package's metadata."""
    from importlib.metadata import version

    done = command("--version")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == f"hanabi-companion {version('hanabi-companion')}\n"


# -- the README's tables ----------------------------------------------------------------

README = (ROOT / "README.md").read_text(encoding="utf-8")


def table_after(heading: str) -> list[list[str]]:
    """The cells of the first Markdown table after ``heading`` (``\\|`` kept as ``|``)."""
    text = README[README.index(heading) :]
    rows = []
    for line in text.splitlines()[1:]:
        if line.startswith("|"):
            cells = line.replace("\\|", "\0").strip("|").split("|")
            rows.append([cell.replace("\0", "|").strip() for cell in cells])
        elif rows:
            break
    return rows[2:]  # after the header and its rule


def test_the_readme_commands_table_lists_every_option_of_every_command():
    """Issue 20: `run --display`, `--gpio`… were missing: each option of each command
    (the argparse definitions), and each of its choices, is in the command's row (its
    usage, or what it does)."""
    import argparse

    from companion.shell.cli import build_parser

    rows: dict[str, str] = {}  # a command's rows together (`export`, `export --all`)
    for cells in table_after("## Commands"):
        name = cells[0].split()[1].strip("[]`")
        rows[name] = rows.get(name, "") + " ".join(cells)
    parser = build_parser(hardware=True)
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(rows) >= set(commands.choices)
    for name, command_parser in commands.choices.items():
        for action in command_parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            words = action.option_strings or [action.metavar or action.dest]
            assert any(word in rows[name] for word in words), (name, words)
            usable = [c for c in action.choices or () if (name, c) != ("scanner", "keyboard")]
            for choice in usable if action.option_strings != ["--protocol"] else ("line",):
                assert str(choice) in rows[name], (name, action.option_strings, choice)
    assert "--version" in README[README.index("## Commands") :].split("\n\n")[1]


def test_the_readme_keys_table_lists_every_key():
    """Issue 20: `u` undoes, and no key of companion/panel/keys.py is left out of the table."""
    from companion.panel.keys import COLOR_LETTERS, COMMON, GAME, TEXT_EDITING

    keys_column = " ".join(cells[0] for cells in table_after("### Keys"))
    spelled = keys_column.lower()
    letters = {
        part for quoted in keys_column.split("`")[1::2] for part in quoted.replace("/", " ").split()
    }
    names = set(COMMON) | set(GAME) | set(TEXT_EDITING) | set(COLOR_LETTERS) | {"a"}
    for name in names:
        if len(name) == 1:
            assert name in letters, name
        else:
            assert name in spelled, name
    assert "1`–`5" in keys_column


def test_export_prints_the_game_in_play_by_default(tmp_path):
    """Issue 33: a game taken up again from the history is older than the abandoned game
    after it; `export` without --game prints the game in play, not the newest."""
    with Storage.open(tmp_path) as storage:
        kept = storage.new_game(GameSetup(players=2, names=("Ann", "Bo")))
        storage.append_action(kept, Hint())
        storage.append_action(kept, Hint())
        newer = storage.new_game(GameSetup(players=3, names=("Cy", "Di", "Ed")))
        storage.reopen(kept)  # the newer one is abandoned, the older one in play again
    done = command("export", "--data-dir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert '"names": ["Ann", "Bo"]' in done.stdout.splitlines()[0]
    lines = [line for line in done.stdout.splitlines() if not line.startswith("#")]
    assert len(lines) == 3  # the header and its two hints
    newest = command("export", "--data-dir", str(tmp_path), "--game", str(newer))
    assert newest.returncode == 0 and '"Cy"' in newest.stdout.splitlines()[0]
