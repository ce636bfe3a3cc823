"""The companion and its commands facing real faults (issue 10): a damaged stored game, a
second companion on the same data directory, a full SD card, and the commands' ordinary
mistakes. The app runs in-process on SDL's dummy driver, or as a real process.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.faults import faulty_filesystem, finished_games_database, full_filesystem
from support.running import RunningCompanion

from companion.core.controller import Info, Screen, SetupDraft
from companion.core.i18n import tr
from companion.panel.display import open_display
from companion.shell.app import App, resume, storage_notice
from companion.storage import FINDINGS_NAME, LEDGER_NAME, Storage
from engine import GameSetup, Hint, Play
from engine.cards import Card
from engine.log import parse_log
from hardware.events import Key, Press

ROOT = Path(__file__).resolve().parents[2]
LOGS = Path(__file__).resolve().parents[1] / "logs"
COMMAND = [sys.executable, "-m", "companion"]
BOGUS_LINE = '{"action": "hint", "bogus": 1}'
DUMMY_RUN = ("--display", "dummy", "--gpio", "none")


def command(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, cwd=ROOT, timeout=120, env=env
    )


def stored_game(data_dir: Path, actions: int = 3) -> int:
    with Storage.open(data_dir) as storage:
        game_id = storage.new_game(GameSetup(players=2, names=("Ann", "Bo")))
        storage.append_action(game_id, Play(Card.from_code("R1")))
        for _ in range(actions - 1):
            storage.append_action(game_id, Hint())
    return game_id


def damage_action(data_dir: Path, game_id: int, seq: int) -> None:
    db = sqlite3.connect(data_dir / "games.db")
    with db:
        db.execute(
            "UPDATE actions SET line = ? WHERE game_id = ? AND seq = ?", (BOGUS_LINE, game_id, seq)
        )
    db.close()


@pytest.fixture
def dummy_video(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
        monkeypatch.delenv(name, raising=False)


def make_app(data_dir: Path, language: str = "en") -> App:
    storage = Storage.open(data_dir)
    controller, game_id = resume(
        storage, SetupDraft(players=2, language=language, hint_content=False)
    )
    return App(storage, open_display("dummy", (480, 320)), controller, game_id)


def close_app(app: App) -> None:
    app.display.close()
    app.storage.close()


def said(app: App) -> str:
    """What the screen says now, its lines joined (a sentence wraps on a small panel)."""
    app.draw()
    return " ".join(drawn.text for drawn in app.renderer.texts)


# -- item 1: a damaged game does not stop the companion -------------------------------------


def damage_header(data_dir: Path, game_id: int) -> None:
    """A header whose bytes are not UTF-8 (a bad sector, an editor in Latin-1)."""
    db = sqlite3.connect(data_dir / "games.db")
    with db:
        db.execute(
            "UPDATE games SET header = CAST(? AS TEXT) WHERE id = ?",
            (b'{"format": "hanabi-log/1", "players": 2, "names": ["Jos\xe9", "Bo"]}', game_id),
        )
    db.close()


@pytest.mark.parametrize(
    ("language", "damage"),
    [("en", "action"), ("fr", "action"), ("en", "header"), ("fr", "header")],
)
def test_a_damaged_latest_game_is_named_on_screen_and_the_companion_plays_on(
    tmp_path, dummy_video, language, damage
):
    """Item 1: resume() does not raise; the set-up screen names the game, kept aside."""
    game_id = stored_game(tmp_path)
    if damage == "action":
        damage_action(tmp_path, game_id, 2)
    else:
        damage_header(tmp_path, game_id)
    app = make_app(tmp_path, language)
    try:
        sentence = tr(language, "game_damaged_kept_aside", game=game_id)
        assert app.controller.screen is Screen.SETUP and app.game_id is None
        assert app.controller.notice == sentence
        assert sentence in said(app)
        app.dispatch(Press(Key.OK))  # a new game starts and takes actions
        app.dispatch(Press(Key.HINT))
        assert app.game_id == game_id + 1
        assert parse_log(app.storage.export(app.game_id)).actions == [Hint(player=0)]
        # the damaged game is still there, as far as it replays
        assert app.storage.replayable_part(game_id)[1] == (1 if damage == "action" else 0)
    finally:
        close_app(app)


def test_the_real_companion_starts_on_a_damaged_game(tmp_path):
    """Item 1, as systemd starts it: a real process, up (READY=1) instead of a restart loop."""
    game_id = stored_game(tmp_path / "data")
    damage_action(tmp_path / "data", game_id, 2)
    with RunningCompanion(tmp_path, tmp_path / "data") as companion:
        assert companion.ready()
    assert companion.returncode == 0
    assert f"Stored game {game_id} is damaged" in companion.stderr


def resumed_from_the_history(data_dir: Path) -> tuple[int, int]:
    """Game 1 played, game 2 started (1 abandoned), game 1 taken up again from the
    history (2 abandoned): the game in play is not the latest. Returns (1, 2)."""
    first = stored_game(data_dir)
    with Storage.open(data_dir) as storage:
        storage.abandon(first)
        second = storage.new_game(GameSetup(players=2, names=("Cy", "Di")))
        storage.reopen(first)
    return first, second


def test_issue20_1_the_game_taken_up_from_the_history_is_the_one_a_restart_resumes(
    tmp_path, dummy_video
):
    """Issue 20, defect 1 (its other half): after a game is taken up again from the
    history, a restart (a power cut) comes back to it, not to the set-up screen for
    the newer game it left unfinished."""
    first, _second = resumed_from_the_history(tmp_path)
    app = make_app(tmp_path)
    try:
        assert app.game_id == first and app.controller.screen is Screen.GAME
        assert app.controller.names == ("Ann", "Bo") and len(app.controller.game.actions) == 3
        assert app.controller.notice is None
    finally:
        close_app(app)


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_issue20_1_a_game_in_play_that_cannot_be_resumed_is_said_on_the_first_screen(
    tmp_path, dummy_video, language
):
    """Issue 20, defect 1: the game in play (taken up from the history, so not the
    latest) no longer replays: the companion starts on the set-up screen and says so
    there, in its language, not only in the history."""
    first, _second = resumed_from_the_history(tmp_path)
    damage_action(tmp_path, first, 2)
    app = make_app(tmp_path, language)
    try:
        sentence = tr(language, "game_damaged_kept_aside", game=first)
        assert app.controller.screen is Screen.SETUP and app.game_id is None
        assert app.controller.notice == sentence
        assert sentence in said(app)
    finally:
        close_app(app)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_damaged_journal_is_said_on_screen_in_its_language_and_kept(tmp_path, language):
    """Item 4: random bytes in games.db-wal after a crash: the start-up notice says the last
    actions may be missing, and names the byte-for-byte copy kept aside."""
    running, crashed = tmp_path / "running", tmp_path / "crashed"
    game_id = stored_game(running)  # closed: checkpointed, the journal emptied
    with Storage.open(running) as storage:
        for _ in range(5):
            storage.append_action(game_id, Hint())
        crashed.mkdir()
        for name in ("games.db", "games.db-wal", LEDGER_NAME, FINDINGS_NAME):  # as kill -9
            (crashed / name).write_bytes((running / name).read_bytes())
    wal = bytearray((crashed / "games.db-wal").read_bytes())
    wal[32 + 24 + 100] ^= 0xFF  # a byte of the first frame's page
    (crashed / "games.db-wal").write_bytes(bytes(wal))
    with Storage.open(crashed) as storage:
        assert storage.journal_copy is not None
        assert storage.journal_copy.read_bytes() == bytes(wal)
        said = (storage_notice(storage, language) or "").split(" · ")
        assert said[0] == tr(language, "journal_damaged_kept_aside", copy=storage.journal_copy.name)
        # the ledger (copied as a crash leaves it) says what the cut cost (issue 36)
        assert said[1:] == [tr(language, "actions_missing", game=game_id, missing=5)]


def test_a_game_in_progress_that_lost_its_actions_is_named_not_resumed_empty(tmp_path, dummy_video):
    """Issue 24: the start-up check (quick_check) once said ok while the game in progress
    came back without its 20 actions, silently; its row's count of actions names it now."""
    game_id = stored_game(tmp_path, actions=20)
    db = sqlite3.connect(tmp_path / "games.db")
    with db:
        db.execute("DELETE FROM actions WHERE game_id = ?", (game_id,))
    db.close()
    app = make_app(tmp_path)
    try:
        assert app.game_id is None and app.controller.game is None
        assert app.controller.notice == tr("en", "game_damaged_kept_aside", game=game_id)
    finally:
        close_app(app)


def scramble_a_page(data_dir: Path) -> None:
    """Bytes of a middle page of games.db flipped: SQLite's integrity report runs to lines."""
    path = data_dir / "games.db"
    data = bytearray(path.read_bytes())
    for offset in range(2 * 4096 + 8, 3 * 4096, 7):
        data[offset] ^= 0x5A
    path.write_bytes(bytes(data))


def test_a_damaged_database_is_a_sentence_on_screen_and_its_report_goes_to_the_log(tmp_path):
    """Issue 24: the notice says what happened in one sentence; SQLite's report (which once
    filled the banner and crashed the start) is in the journal, the companion is up. Issue
    36: a damaged page is found by the whole-file check, which runs in the background
    after the first frame (not at opening: it grows with the games)."""
    finished_games_database(tmp_path / "data", 6, seed=3)
    scramble_a_page(tmp_path / "data")
    with RunningCompanion(tmp_path, tmp_path / "data") as companion:
        assert companion.ready()
        time.sleep(3)  # the check of a few pages: milliseconds
    assert companion.returncode == 0
    assert "Traceback" not in companion.stderr
    assert f"The games database {tmp_path / 'data' / 'games.db'} is damaged: " in companion.stderr


@pytest.mark.parametrize("size", [(240, 320), (320, 240), (800, 480)])
def test_the_notice_of_a_damaged_database_leaves_the_screen_its_room(tmp_path, size, dummy_video):
    """Issue 24: the notice is one sentence in the screen's language; the screen under it is
    drawn (it once took the panel's height and crashed ``subsurface``). Issue 36: said
    when the background check ends, beside what the start said."""
    finished_games_database(tmp_path, 6, seed=3)
    scramble_a_page(tmp_path)
    storage = Storage.open(tmp_path)
    try:
        controller, game_id = resume(
            storage, SetupDraft(players=2, language="fr", hint_content=False)
        )
        app = App(storage, open_display("dummy", size), controller, game_id)
        try:
            app.draw()
            app.start_check().join(timeout=60)
            app.step()
            problems = storage.reader().check()
            sentence = tr("fr", "database_check_found", count=len(problems))
            assert problems and controller.notice == sentence
            assert "".join(drawn.text for drawn in app.renderer.texts).startswith(
                sentence.split()[0]
            )
        finally:
            app.display.close()
    finally:
        storage.close()


# -- item 2: one companion per data directory -----------------------------------------------


def test_a_second_companion_on_the_same_data_directory_says_so_and_exits_1(tmp_path):
    """Item 2: a real second `run` prints one line and exits non-zero; the first keeps its
    game, and after it stops, its game is exactly as it was."""
    data_dir = tmp_path / "data"
    game_id = stored_game(data_dir)
    with Storage.open(data_dir) as storage:
        before = storage.export(game_id)
    with RunningCompanion(tmp_path, data_dir) as first:
        assert first.ready()
        second = command("run", "--data-dir", str(data_dir), "--display", "dummy")
        assert second.returncode == 1
        assert second.stderr.count("\n") == 1, second.stderr
        assert f"Another companion (process {first.process.pid}) is already running" in (
            second.stderr
        )
        assert "Traceback" not in second.stderr
        assert first.process.poll() is None  # the first plays on
    assert first.returncode == 0
    with Storage.open(data_dir) as storage:
        assert storage.export(game_id) == before
        assert storage.latest_game_id() == game_id  # the second started nothing


def test_a_killed_companion_does_not_lock_the_next_one_out(tmp_path):
    """Item 2: the kernel releases the lock at kill -9: the restart is not refused."""
    data_dir = tmp_path / "data"
    with RunningCompanion(tmp_path, data_dir) as first:
        assert first.ready()
        first.process.kill()
    assert first.returncode == -signal.SIGKILL
    with RunningCompanion(tmp_path, data_dir) as second:
        assert second.ready()
    assert second.returncode == 0


# -- item 3: a full SD card ---------------------------------------------------------------


def test_an_action_on_a_full_card_is_refused_on_screen_and_play_resumes_with_room(
    tmp_path, dummy_video
):
    """Item 3: the sentence on screen, the game as stored (unchanged), then play resumes."""
    with full_filesystem(tmp_path) as card:
        app = make_app(card.root / "data")
        try:
            app.dispatch(Press(Key.OK))
            app.dispatch(Press(Key.HINT))
            card.fill()
            for _ in range(200):  # the first pages may still fit
                before = app.storage.export(app.game_id)
                app.dispatch(Press(Key.HINT))
                if app.controller.message == Info("storage_full"):
                    break
            assert app.controller.message == Info("storage_full")
            assert app.storage.export(app.game_id) == before
            stored = parse_log(before).actions
            assert app.controller.game is not None
            assert len(app.controller.game.actions) == len(stored)  # shown = stored
            assert "The SD card is full: this action was not saved" in said(app)
            card.free()
            app.dispatch(Press(Key.HINT))
            assert len(parse_log(app.storage.export(app.game_id)).actions) == len(stored) + 1
        finally:
            close_app(app)


LOCK_HOLDER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("holding", flush=True)
sys.stdin.readline()
db.execute("ROLLBACK")
"""


def test_an_action_while_another_process_holds_the_database_is_refused_and_play_resumes(
    tmp_path, dummy_video, monkeypatch
):
    """Issue 24: a real second process holding a write transaction: the action is refused in
    one sentence (no exit), nothing is half-stored, the next one is stored once it lets go."""
    monkeypatch.setattr("companion.storage.files.BUSY_TIMEOUT_MS", 300)  # not 5 s per try here
    app = make_app(tmp_path)
    try:
        app.dispatch(Press(Key.OK))
        app.dispatch(Press(Key.HINT))
        before = app.storage.export(app.game_id)
        holder = subprocess.Popen(
            [sys.executable, "-c", LOCK_HOLDER, str(tmp_path / "games.db")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert holder.stdout is not None and holder.stdout.readline() == "holding\n"
            app.dispatch(Press(Key.HINT))
            assert app.controller.message == Info("storage_busy")
            assert "this action was not saved" in said(app)
            assert app.controller.game is not None and len(app.controller.game.actions) == 1
        finally:
            holder.communicate("\n", timeout=30)
        assert app.storage.export(app.game_id) == before
        app.dispatch(Press(Key.HINT))
        assert len(parse_log(app.storage.export(app.game_id)).actions) == 2
    finally:
        close_app(app)


@pytest.mark.parametrize("fault", ["eio", "erofs"])
def test_an_io_error_below_sqlite_mid_game_refuses_the_action_and_play_resumes(
    tmp_path, dummy_video, fault
):
    """Issue 24: the card's file system fails every write (EIO: a dying card; EROFS: the
    kernel turned it read-only), injected below SQLite by a real FUSE file system: the
    action is refused in one sentence, nothing is half-stored, an undo and a play go on
    once the card answers again."""
    with faulty_filesystem(tmp_path) as card:
        app = make_app(card.root / "data")
        try:
            app.dispatch(Press(Key.OK))
            app.dispatch(Press(Key.HINT))
            app.dispatch(Press(Key.HINT))
            before = app.storage.export(app.game_id)
            card.fail(fault)
            try:
                app.dispatch(Press(Key.HINT))
                assert app.controller.message == Info("storage_io_error")
                assert "this action was not saved" in said(app)
                assert app.controller.game is not None
                assert len(app.controller.game.actions) == 2  # shown = stored
                app.dispatch(Press(Key.UNDO))
                app.dispatch(Press(Key.OK))  # the undo is refused as well
                assert len(app.controller.game.actions) == 2
            finally:
                card.fail("ok")
            assert app.storage.export(app.game_id) == before
            app.dispatch(Press(Key.HINT))
            assert len(parse_log(app.storage.export(app.game_id)).actions) == 3
        finally:
            close_app(app)


def test_a_game_whose_end_could_not_be_stored_is_finished_before_the_next_starts(
    tmp_path, dummy_video
):
    """Item 3: the card was full when the last action's result was to be stored (the
    actions are, the result is not): Start stores the result before the new game, so
    the finished game is in the history, not abandoned."""
    from companion.core.controller import Controller
    from engine.table import SimulatedTable

    setup = GameSetup(players=2, names=("Ann", "Bo"))
    game = SimulatedTable(setup, random.Random(11), skill=0.9).play_out()
    storage = Storage.open(tmp_path)
    game_id = storage.new_game(setup)
    for action in game.actions:
        storage.append_action(game_id, action)  # FinishGame was refused by the full card
    app = App(storage, open_display("dummy", (480, 320)), Controller(SetupDraft(), game), game_id)
    try:
        assert app.controller.screen is Screen.END
        app.dispatch(Press(Key.OK))  # to the set-up
        app.dispatch(Press(Key.OK))  # Start
        assert app.game_id == game_id + 1
        finished = [row for row in storage.history() if not row.resumable]
        assert [row.id for row in finished] == [game_id]  # finished, not abandoned
        assert finished[0].score == game.score
    finally:
        close_app(app)


def test_the_companion_started_on_a_full_card_names_it(tmp_path):
    """Item 3: a restart while the card is full says so, not "disk I/O error"."""
    with full_filesystem(tmp_path) as card:
        card.fill()
        done = command("run", "--data-dir", str(card.root / "data"), "--display", "dummy")
        assert done.returncode == 1
        assert "The SD card is full" in done.stderr and "disk I/O error" not in done.stderr
        assert "Traceback" not in done.stderr


def test_take_back_shows_the_stored_game_and_drops_what_was_not_saved():
    """Pure controller: the unsaved action is no longer shown; the entry is closed."""
    from companion.core.controller import Controller
    from engine import Game

    setup = GameSetup(players=2, names=("Ann", "Bo"))
    stored = Game(setup)
    stored.apply(Hint())
    controller = Controller(SetupDraft(players=2), Game.replay(setup, list(stored.actions)))
    controller.handle(Press(Key.HINT))  # shown, but the card was full
    assert len(controller.game.actions) == 2
    controller.take_back(Game.replay(setup, list(stored.actions)), Info("storage_full"))
    assert controller.game.actions == stored.actions
    assert controller.screen is Screen.GAME and controller.entry is None
    assert controller.message == Info("storage_full")
    controller.take_back(None, Info("storage_full"))  # the game could not even start
    assert controller.screen is Screen.SETUP and controller.game is None


# -- item 5: history and export of damaged games -------------------------------------------


def test_the_history_screen_shows_a_damaged_game_as_a_row_marked_damaged(tmp_path, dummy_video):
    """Item 5: the app's history screen uses the same call: a row, not an exception."""
    finished_games_database(tmp_path, 3, seed=3)
    damage_action(tmp_path, 2, 1)
    app = make_app(tmp_path)
    try:
        for effect in app.controller.choose_menu("history"):
            app.carry_out(effect)
        assert app.controller.screen is Screen.HISTORY
        # issue 36: the first look that finds it keeps it on the banner until OK
        assert tr("en", "finished_game_damaged", game=2) in (app.controller.notice or "")
        app.dispatch(Press(Key.OK))
        assert app.controller.notice is None and app.storage.open_findings == []
        assert "Game 2: damaged, kept aside" in said(app)
    finally:
        close_app(app)


def test_history_command_lists_a_damaged_game_without_a_traceback(tmp_path):
    """Item 5: a row per game, the damaged one said so; one sentence; exit non-zero."""
    finished_games_database(tmp_path, 3, seed=3)
    damage_action(tmp_path, 2, 1)
    done = command("history", "--data-dir", str(tmp_path))
    assert "Traceback" not in done.stderr
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert len(lines) == 4  # the title, then three games
    assert "damaged" in next(line for line in lines if line.strip().startswith("2 "))
    assert done.stderr.count("\n") == 1 and "1 stored game(s) are damaged" in done.stderr


def test_export_of_a_damaged_game_prints_what_replays_and_exits_1(tmp_path):
    """Items 1 and 5: the replayable part on stdout, one sentence on stderr, exit 1."""
    game_id = stored_game(tmp_path, actions=4)
    damage_action(tmp_path, game_id, 3)
    done = command("export", "--data-dir", str(tmp_path))
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "action 3" in done.stderr
    assert "the first 2 actions, which replay, were printed" in done.stderr
    assert len(parse_log(done.stdout).actions) == 2


# -- item 6: the commands' ordinary mistakes -----------------------------------------------


def test_render_into_a_missing_folder_is_one_line_and_exit_1(tmp_path):
    out = tmp_path / "missing" / "screen.png"
    done = command("render", str(LOGS / "storm.jsonl"), "--out", str(out))
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "does not exist" in done.stderr
    assert "Traceback" not in done.stderr and not out.exists()


def test_replay_good_bad_good_prints_both_summaries_and_the_error_and_exits_worst(tmp_path):
    """Item 6, README: a line per file: the good ones' summaries, the bad one's error."""
    done = command(
        "replay",
        str(LOGS / "storm.jsonl"),
        str(LOGS / "hint_names_both.jsonl"),
        str(LOGS / "final_round.jsonl"),
    )
    assert done.returncode == 1
    summaries = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(summaries) == 2
    assert done.stderr.count("\n") == 1 and "hint_names_both.jsonl:4:" in done.stderr


def test_replay_exits_with_the_worst_code_of_its_files(tmp_path):
    """An invalid log (2) outranks a broken rule (1), whatever their order."""
    done = command("replay", str(LOGS / "hint_names_both.jsonl"), str(LOGS / "bad_card.jsonl"))
    assert done.returncode == 2
    assert "hint_names_both.jsonl:4:" in done.stderr and "bad_card.jsonl:3:" in done.stderr


# -- issue 9: an unfinished game taken up again from the history ---------------------------


def test_an_abandoned_game_is_resumed_from_the_history_screen(dummy_video, tmp_path):
    """Start a game, play, start another (the first is kept as unfinished): the history
    lists it, OK on it (or a tap) takes it up again exactly where it was."""
    data_dir = tmp_path / "data"
    app = make_app(data_dir)
    try:
        c = app.controller
        for event in (Press(Key.OK), Press(Key.HINT), Press(Key.HINT)):
            app.dispatch(event)
        first, played = app.game_id, list(c.game.actions)
        app.dispatch(Press(Key.MENU))
        c.choose_menu("new_game")
        app.dispatch(Press(Key.OK))  # Start: asks first, the game is unfinished
        app.dispatch(Press(Key.OK))
        assert app.game_id != first and c.game.actions == []
        app.dispatch(Press(Key.HINT))  # the new game's first action: a game of the history
        app.dispatch(Press(Key.MENU))
        for effect in c.choose_menu("history"):
            app.carry_out(effect)
        app.dispatch(Press(Key.NEXT))  # the newest (in play) first; the older one next
        assert c.history_focus().id == first and c.history_focus().resumable
        assert f"Resume game {first}" in said(app)
        app.dispatch(Press(Key.OK))  # the game in play would be abandoned: asked first
        assert app.game_id != first and tr("en", "resume_keeps_the_game") in said(app)
        app.dispatch(Press(Key.OK))
        assert app.game_id == first and c.screen is Screen.GAME
        assert c.game.actions == played
        assert app.storage.unfinished().id == first
    finally:
        close_app(app)


@pytest.mark.parametrize("language", ["de", "fr"])
def test_an_emptied_database_is_named_on_screen_in_its_language(tmp_path, language):
    """Issue 24: games.db emptied (0 bytes) opens as a new database, and the start names
    the games it held (the ledger remembered them), in the screen's language."""
    finished_games_database(tmp_path, 8, seed=2)
    os.truncate(tmp_path / "games.db", 0)
    with Storage.open(tmp_path) as storage:
        assert storage_notice(storage, language) == tr(language, "database_emptied", games=8)
        assert storage.history() == []
