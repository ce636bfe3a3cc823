"""The app loop in-process (SDL dummy driver): input → controller → storage → frame.

The pytest timeouts below bound liveness (a loop that would not wake hangs and
fails); nothing here asserts a duration.
"""

from __future__ import annotations

import os
import signal
import socket
import threading

import pytest

from companion.core.controller import Refused, Screen, SetupDraft
from companion.panel.display import open_display
from companion.shell.app import App, resume
from companion.storage import Storage
from engine import Card, GameSetup, Play
from engine.cards import Color
from engine.log import parse_log
from engine.outcome import Outcome
from hardware.events import ChooseColor, ChooseRank, Key, Press, Tap


@pytest.fixture
def app(make_app):
    return make_app((480, 320))


def stored_actions(app: App) -> list[str]:
    assert app.game_id is not None
    return [type(a).__name__ for a in parse_log(app.storage.export(app.game_id)).actions]


def test_an_accepted_action_is_stored_before_the_next_frame(app):
    """Section 4: an accepted action is committed before the screen shows it."""
    frames = []
    original = app.draw

    def draw_and_check() -> None:
        if app.controller.game is not None and app.game_id is not None:
            # whatever the frame shows is already in the database
            frames.append((len(app.controller.game.actions), len(stored_actions(app))))
        original()

    app.draw = draw_and_check  # type: ignore[method-assign]
    for event in (
        Press(Key.OK),
        Press(Key.HINT),
        Press(Key.PLAY),
        ChooseColor(Color.RED),
        ChooseRank(1),
        Press(Key.OK),
    ):
        app.dispatch(event)
        app.step()
    assert stored_actions(app) == ["Hint", "Play"]
    assert frames and all(shown == stored for shown, stored in frames)


def test_a_tap_on_a_button_is_that_button(app):
    """Section 3: touch speaks the same vocabulary: tapping "Hint" records a hint."""
    app.dispatch(Press(Key.OK))
    app.step()
    hint = next(rect for rect, event in app.targets if event == Press(Key.HINT))
    app.dispatch(Tap(*hint.center))
    assert stored_actions(app) == ["Hint"]
    app.dispatch(Tap(-5, -5))  # nothing there: nothing happens
    assert stored_actions(app) == ["Hint"]


@pytest.mark.timeout(30)
def test_an_event_from_a_thread_wakes_the_sleeping_loop(app):
    """Threads only queue an event and wake the loop: a step sleeping for a minute
    returns as soon as the button thread speaks."""
    app.dispatch(Press(Key.OK))
    app.step()
    threading.Timer(0.2, app.inbox.emit, args=(Press(Key.HINT),)).start()
    app.step(60_000)
    assert stored_actions(app) == ["Hint"]


def test_refused_action_changes_nothing_stored(app):
    app.dispatch(Press(Key.OK))
    app.dispatch(Press(Key.DISCARD))  # all 8 hint tokens: refused before any card
    assert isinstance(app.controller.message, Refused)
    assert app.controller.screen is Screen.GAME  # still there, with the reason shown
    assert stored_actions(app) == []


def test_history_is_loaded_from_storage_when_asked(app):
    app.dispatch(Press(Key.OK))
    app.dispatch(Press(Key.HINT))  # a game with an action: listed, resumable
    app.dispatch(Press(Key.MENU))
    app.dispatch(Press(Key.NEXT))
    app.dispatch(Press(Key.NEXT))  # "history"
    app.dispatch(Press(Key.OK))
    assert app.controller.screen is Screen.HISTORY
    games, stats = app.controller.history
    assert [(row.id, row.resumable) for row in games] == [(app.game_id, True)] and stats == []


def test_new_game_pressed_by_mistake_leaves_no_empty_game_in_the_history(app):
    """Issue 33: each New game pressed by mistake left an empty 0/25 "resumable
    (abandoned)" game in the history. Three New games in a row, then a hint: the history
    (the panel's, read from the SQLite file) lists the one game played; a New game then
    says the game is kept, and it is: listed, resumable, its hint kept."""
    app.dispatch(Press(Key.OK))  # the first game starts
    for _ in range(3):
        app.dispatch(Press(Key.MENU))
        app.controller.choose_menu("new_game")
        app.dispatch(Press(Key.OK))  # nothing to keep: started at once
        assert app.controller.screen is Screen.GAME
    played = app.game_id
    app.dispatch(Press(Key.HINT))
    app.dispatch(Press(Key.MENU))
    app.controller.choose_menu("new_game")
    app.dispatch(Press(Key.OK))
    assert app.controller.message is not None and app.game_id == played  # "kept: …"
    app.dispatch(Press(Key.OK))
    assert app.game_id != played
    rows = app.storage.history_page().rows
    assert [(row.id, row.resumable, row.score) for row in rows] == [(played, True, 0)]
    assert len(app.storage.catalogue()) == 5  # the empty ones' rows stay in the file


def test_keys_are_held_as_a_possible_card_read_only_with_a_reader_or_a_deck(app, tmp_path):
    """Issue 33 (decision 0102): with no reader configured and no deck enrolled, a key is
    handled as it comes, however fast the next; with a deck enrolled (or a reader
    configured) a character key waits for the pace of a reader to stop first."""
    import pygame

    from hardware.tagmap import TagMap

    def typed(target: App, char: str) -> None:
        key = pygame.key.key_code(char)
        target.take_pygame_event(pygame.event.Event(pygame.KEYDOWN, key=key, unicode=char))

    app.dispatch(Press(Key.OK))
    assert not app.typed_reads
    for _ in range(6):  # as fast as a reader: each one a hint, at once
        typed(app, "h")
    assert stored_actions(app) == ["Hint"] * 6
    enrolled = App(
        app.storage, app.display, app.controller, app.game_id,
        tag_map=TagMap({"0012345678": Card.from_code("R1")}),
    )  # fmt: skip
    configured = App(app.storage, app.display, app.controller, app.game_id, reader_configured=True)
    for other in (enrolled, configured):
        assert other.typed_reads
        typed(other, "h")
        assert stored_actions(app) == ["Hint"] * 6  # held: a reader's read may follow


def test_the_actions_page_of_the_real_app_reaches_the_first_action(make_app):
    """Issue 33: the app tells the controller how many actions its actions page held
    (each frame): NEXT, frame after frame, goes back to turn 1, then to the next page."""
    from companion.core.controller import GamePage

    app = make_app((320, 240))
    app.dispatch(Press(Key.OK))
    for turn in range(24):  # a hint, then a discard, in turn
        if turn % 2 == 0:
            app.dispatch(Press(Key.HINT))
        else:
            color, rank = list(Color)[turn // 2 % 5], 1 + turn // 10  # no card exhausted
            for event in (Press(Key.DISCARD), ChooseColor(color), ChooseRank(rank), Press(Key.OK)):
                app.dispatch(event)
    assert len(app.controller.game.actions) == 24
    while app.controller.page is not GamePage.ACTIONS:
        app.dispatch(Press(Key.NEXT))
    seen: list[int] = []
    while app.controller.page is GamePage.ACTIONS:
        app.step()  # drawn: the page's size told to the controller
        seen += [
            int(t.text[:-1])
            for t in app.renderer.texts
            if t.text[-1:] == "." and t.text[:-1].isdigit()
        ]
        app.dispatch(Press(Key.NEXT))
    assert seen == list(range(24, 0, -1))


def test_a_swipe_on_the_touch_screen_scrolls_the_actions_page(make_app):
    """Issue 33: on a touch panel the actions page goes back a page by a swipe up, and
    comes back by a swipe down; a tap there still turns it (NEXT); a tap on a button is
    that button at once (the finger down)."""
    import pygame

    from companion.core.controller import GamePage

    app = make_app((480, 320))
    app.dispatch(Press(Key.OK))
    for turn in range(16):  # hints, and a discard now and then (a token back)
        if turn % 3 == 2:
            for event in (Press(Key.DISCARD), ChooseColor(Color(turn // 3)), ChooseRank(1)):
                app.dispatch(event)
            app.dispatch(Press(Key.OK))
        else:
            app.dispatch(Press(Key.HINT))
    assert len(app.controller.game.actions) == 16
    while app.controller.page is not GamePage.ACTIONS:
        app.dispatch(Press(Key.NEXT))
    app.step()

    def finger(start: tuple[int, int], end: tuple[int, int]) -> None:
        app.handle_pygame_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=start))
        app.handle_pygame_event(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=end))
        app.step()

    finger((240, 250), (240, 120))  # up: older actions
    back = app.controller.actions_back
    assert back > 0 and app.controller.page is GamePage.ACTIONS
    finger((240, 120), (240, 250))  # down: the newest again
    assert app.controller.actions_back == 0 and app.controller.page is GamePage.ACTIONS
    finger((240, 200), (242, 203))  # a tap: NEXT, older too
    assert app.controller.actions_back == back
    hint = next(rect for rect, event in app.targets if event == Press(Key.HINT))
    app.handle_pygame_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=hint.center))
    assert stored_actions(app).count("Hint") == 12  # at the finger down, as before


def test_resume_finishes_a_game_whose_end_was_not_recorded(tmp_path):
    """A power cut between the game-ending action and its "finish": the restart sees the
    game is over, records it, and shows the end screen."""
    storage = Storage.open(tmp_path)
    game_id = storage.new_game(GameSetup(players=2))
    for code in ("R2", "R3", "R4"):  # three misplays: the storm
        storage.append_action(game_id, Play(Card.from_code(code)))
    controller, resumed_id = resume(storage, SetupDraft())
    assert resumed_id == game_id and controller.screen is Screen.END
    assert [row.outcome for row in storage.history()] == [Outcome.LOST]
    storage.close()


@pytest.mark.timeout(60)
def test_systemd_hears_ready_after_the_first_frame_and_the_watchdog(tmp_path, monkeypatch):
    """Issue 5: Type=notify with READY=1 once the first frame is up; WATCHDOG=1 from the
    loop; STOPPING=1 on SIGTERM, after which run() returns 0."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    path = str(tmp_path / "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(path)
    listener.settimeout(20)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "400000")  # 0.4 s: pings every 0.2 s
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    storage = Storage.open(tmp_path / "data")
    controller, game_id = resume(storage, SetupDraft())
    display = open_display("dummy", (320, 240))
    app = App(storage, display, controller, game_id)
    stopper = threading.Timer(1.0, os.kill, args=(os.getpid(), signal.SIGTERM))
    stopper.start()
    try:
        assert app.run() == 0
    finally:
        stopper.cancel()
        display.close()
        storage.close()
    messages = []
    listener.settimeout(0.5)
    while True:
        try:
            messages.append(listener.recv(256).decode())
        except TimeoutError:
            break
    listener.close()
    assert messages[0] == "READY=1"
    assert "WATCHDOG=1" in messages[1:]
    assert messages[-1] == "STOPPING=1"
    assert app.frames >= 1


def test_closing_the_window_ends_the_loop(app):
    """Closing the window (pygame.QUIT) ends the loop."""
    import pygame

    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.step()
    assert app.running is False
