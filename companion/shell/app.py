"""The companion's one loop: inputs → controller → storage → drawing.

Input comes from pygame (keyboard, touch, mouse) on this thread and from the
hardware threads (buttons, scanner), which only put an event on a queue and
wake the loop. Every accepted action is committed to SQLite before the
screen shows it. The loop sleeps while nothing happens and redraws only when
something changed.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import queue
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

import pygame
from msgspec import Struct, field

from companion.core import i18n
from companion.core.controller import (
    HISTORY_SCREEN_PAGE,
    AcknowledgeFindings,
    Beep,
    Controller,
    Effect,
    FindingsOpen,
    FinishGame,
    GameLoaded,
    GameUnreadable,
    HintLevel,
    HistoryLoaded,
    HistoryUnreadable,
    Info,
    LoadHistory,
    NewPairingCode,
    NewTableCode,
    NotStored,
    PairingCodeMade,
    PairPhone,
    PanelLayout,
    PhoneOutcome,
    PhonePaired,
    PhoneRemoved,
    PhoneReply,
    PhonesLoaded,
    PhonesServed,
    PlayLinked,
    Quit,
    RecordAction,
    RecordReveal,
    RecordUndo,
    ResumeGame,
    RevealsLoaded,
    SaveSettings,
    SetupDraft,
    StartGame,
    StartupNotice,
    UnpairPhone,
    message_words,
)
from companion.core.hint_level import UNKNOWN_HINT_LEVEL
from companion.panel.display import Display, video_driver
from companion.panel.keys import KeyBurst, TypedScan, key_event, text_key_event
from companion.panel.screens import Renderer, Target
from companion.panel.sleeping import Sleeper
from companion.shell import sdnotify
from companion.shell.config import Config
from companion.storage import (
    DamagedGameError,
    Storage,
    StorageError,
    StorageFullError,
    game_hint_level,
)
from companion.vocabulary.phone import (
    Answer,
    PhoneEvent,
    PhoneMove,
    PhoneReceipt,
    clean_name,
    new_pairing_code,
)
from companion.vocabulary.records import GameStatus
from companion.web.answers import http_status
from engine.actions import Action
from engine.game import Game
from engine.reveal import Reveal
from engine.setup import GameSetup
from hardware.events import CardScanned, InputEvent, Key, Press, Tap, TypeText
from hardware.tagmap import TagMap
from hardware.wiring import BeepKind

if TYPE_CHECKING:
    from companion.shell.web_link import WebLink

log = logging.getLogger("hanabi-companion")

SETTINGS_KEY = "setup"

#: The keys that end a reader's typed line (pygame's names).
LINE_END_KEYS = frozenset({"return", "enter", "keypad enter", "tab"})


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def draft_from_config(config: Config) -> SetupDraft:
    """The set-up offered before anything was remembered: the config's defaults."""
    game = config.game
    return SetupDraft(
        players=game.players,
        options=game.options,
        language=config.screen.language,
        hint_content=game.hints is not HintLevel.COUNT,
    )


def resume(storage: Storage, draft: SetupDraft) -> tuple[Controller, int | None]:
    """The controller as the stored games leave it: the game in play (one taken up again
    from the history is in play, though not the latest), else the latest game just over.

    A game that no longer replays (its stored lines were damaged) is not resumed: it
    stays in the database as it is (``export`` gives the part that replays), the companion
    starts on the set-up screen, and its notice names the game.
    """
    game = None
    notice = None
    stored = None
    try:
        stored = storage.unfinished()
        if stored is None:
            latest = storage.latest_game_id()
            stored = storage.load(latest) if latest is not None else None
    except DamagedGameError as error:
        log.warning("%s; it is kept aside, not resumed", error)
        notice = i18n.tr(draft.language, "game_damaged_kept_aside", game=error.game_id)
    game_id = None
    if stored is not None and stored.status in (GameStatus.PLAYING, GameStatus.OVER):
        game_id = stored.id
        game = Game.replay(stored.setup, stored.actions)
        if game.is_over and stored.status is GameStatus.PLAYING:
            # The power went between the last action and this; a full card (or a lock, an
            # I/O error) leaves it for the next start.
            with contextlib.suppress(StorageError):
                storage.finish(game_id, game)
    level = None if game_id is None else stored_hint_level(storage, game_id)
    controller = Controller(draft, game, clock=utc_now, hint_level=level)
    controller.handle(StartupNotice(notice))
    if stored is not None and stored.reveals and game is not None:  # a reveal under way
        controller.handle(RevealsLoaded(stored.reveals))
    return controller, game_id


def stored_hint_level(storage: Storage, game_id: int) -> HintLevel | None:
    """What a stored game records of a hint, as kept with it (None: nothing kept)."""
    return HintLevel.from_word(game_hint_level(storage, game_id))


#: The refusal of an action the storage could not save, by SQLite's primary result code.
_REFUSALS = {
    5: "storage_busy",  # SQLITE_BUSY: another program holds the database
    6: "storage_busy",  # SQLITE_LOCKED
    8: "storage_read_only",  # SQLITE_READONLY
    10: "storage_io_error",  # SQLITE_IOERR: the card did not answer
}


def storage_refusal(error: StorageError, data_dir: Path | None = None) -> Info:
    """The one sentence that refuses an action the storage could not save (``data_dir``:
    where to look whether the card's file system was turned read-only)."""
    if data_dir is not None and _read_only_file_system(data_dir):
        return Info("storage_read_only")
    if isinstance(error, StorageFullError):
        return Info("storage_full")
    if isinstance(error, DamagedGameError) and error.game_id is not None:
        return Info("game_damaged_kept_aside", (("game", error.game_id),))
    cause = error.__cause__
    code = getattr(cause, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in _REFUSALS:
        return Info(_REFUSALS[code & 0xFF])
    if isinstance(cause, OSError) and cause.errno == errno.EROFS:
        return Info("storage_read_only")
    return Info("storage_failed")


def _read_only_file_system(directory: Path) -> bool:
    """Whether the kernel turned the file system read-only (as it does to a failing card)."""
    try:
        return bool(os.statvfs(directory).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def storage_notice(storage: Storage, language: str) -> str | None:
    """What storage found about the database, in the screen's language: every finding no
    player has acknowledged (a file or a journal moved aside, what the ledger misses), else
    storage's own notice. The panel says the findings as such (:func:`open_findings`: with
    how to acknowledge them); this is their words alone."""
    said = [i18n.tr(language, f.key, **f.params) for f in storage.open_findings]
    return " · ".join(said) if said else storage.notice


#: How many of the latest finished games each start reads back (the same cost at 10 games
#: and at 10,000): the first start that finds one damaged keeps the finding (docs 0089).
FINISHED_CHECKED_AT_START = 10


def open_findings(storage: Storage, *, checked: int = FINISHED_CHECKED_AT_START) -> FindingsOpen:
    """The findings no player has acknowledged, for the banner: those kept, and a finished
    game among the latest ``checked`` found damaged now (kept once: acknowledged, it is not
    said again)."""
    try:
        page = storage.history_page(limit=checked)
        damaged = [
            ("finished_game_damaged", {"game": row.id})
            for row in page.rows
            if row.damaged and row.status is GameStatus.OVER
        ]
        if damaged:
            storage.keep_findings(damaged)
    except StorageError as error:  # the history screen says a file it cannot read
        log.warning("%s", error)
    return FindingsOpen(tuple(storage.open_findings))


class Inbox(Struct):
    """Where threads leave input events; emitting also wakes the sleeping loop."""

    sleeper: Sleeper
    events: queue.SimpleQueue[InputEvent | PhoneEvent] = field(default_factory=queue.SimpleQueue)

    def emit(self, event: InputEvent | PhoneEvent) -> None:
        """Thread-safe: queue the event and wake the loop."""
        self.events.put(event)
        self.sleeper.poke()

    def drain(self) -> list[InputEvent | PhoneEvent]:
        out = []
        while True:
            try:
                out.append(self.events.get_nowait())
            except queue.Empty:
                return out


#: A swipe: the finger travels at least this share of the panel's height, up or down.
SWIPE_SHARE = 0.15

#: Refused phone requests whose answers are kept in memory for a retry (a phone retries
#: within seconds; a few hundred bytes each).
REFUSALS_KEPT = 512


class App:
    """The running companion. ``step()`` is one turn of the loop, for tests and benchmarks."""

    def __init__(
        self,
        storage: Storage,
        display: Display,
        controller: Controller,
        game_id: int | None,
        *,
        on_tokens: Callable[[int, int], None] | None = None,
        on_beep: Callable[[BeepKind], None] | None = None,
        tag_map: TagMap | None = None,
        reader_configured: bool = False,
    ) -> None:
        self.storage = storage
        self.display = display
        self.controller = controller
        self.game_id = game_id
        self.renderer = Renderer(display.size)
        self.sleeper = Sleeper(video_driver())
        self.inbox = Inbox(self.sleeper)
        self.targets: list[Target] = []
        self.dirty = True
        self.running = True
        self.frames = 0
        self.on_tokens = on_tokens
        self.on_beep = on_beep
        #: The enrolled deck, for a USB reader typing into the window (a burst of keys).
        self.tag_map = tag_map if tag_map is not None else TagMap()
        #: Whether a burst of keys may be a card read: only with a reader configured or a
        #: deck enrolled; else quick typing is typing (decision 0102).
        self.typed_reads = reader_configured or len(self.tag_map) > 0
        self.typed_burst: KeyBurst[pygame.event.Event] = KeyBurst()
        #: Where a finger went down on what turns a page: a tap or a swipe, told at its lift.
        self.pressed_at: tuple[int, int] | None = None
        self.watchdog = sdnotify.Watchdog()
        #: The answers to phones' refused requests (nothing changed), for a retry of one:
        #: in memory, the last :data:`REFUSALS_KEPT`, never a row each in the database
        #: (issue 37: 4,000 refused requests were 4,000 rows); and how many there were.
        self.refusals: OrderedDict[tuple[int, str], Answer] = OrderedDict()
        self.refused = 0
        self._ready_sent = False
        #: What the whole-file check in the background found (its thread leaves it here).
        self.checked: queue.SimpleQueue[list[str]] = queue.SimpleQueue()
        #: Whether to run it after the first frame (``run`` does; the tests' apps do not).
        self.check_after_first_frame = False
        #: The page for phones (``[web]``), fed a snapshot after every frame; None: off.
        self.web: WebLink | None = None
        pygame.key.set_repeat()  # no key repeat: a held key is one action
        pygame.key.start_text_input()

    # -- the loop ---------------------------------------------------------------

    def run(self) -> int:
        """Run until the window is closed or SIGTERM arrives."""
        previous = signal.signal(signal.SIGTERM, self._on_sigterm)
        try:
            while self.running:
                self.step(self._wait_timeout_ms())
        finally:
            signal.signal(signal.SIGTERM, previous)
            sdnotify.stopping()
            self.sleeper.close()
        return 0

    def _on_sigterm(self, signum: int, frame: FrameType | None) -> None:
        # A window close, as far as the loop is concerned; poked in case it sleeps in select().
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        self.sleeper.poke()

    def _wait_timeout_ms(self) -> int:
        if self.watchdog.enabled and self.watchdog.interval:
            return max(100, int(self.watchdog.interval * 1000 / 2))
        return 5000

    def step(self, timeout_ms: int = 0) -> None:
        """Draw if needed, wait for input (at most ``timeout_ms``), handle it all."""
        if self.dirty:
            self.draw()
        self.watchdog.ping(time.monotonic())
        events = pygame.event.get()
        if not events and self.inbox.events.empty() and timeout_ms:
            timeout_ms = self._until_held_keys_expire(timeout_ms)
            if self.sleeper.can_sleep:
                self.sleeper.sleep(timeout_ms / 1000)
                events = pygame.event.get()
            else:
                events = [pygame.event.wait(timeout_ms), *pygame.event.get()]
        for pygame_event in events:
            self.take_pygame_event(pygame_event)
        for held in self.typed_burst.expire(time.monotonic()):
            self.handle_pygame_event(held)
        for input_event in self.inbox.drain():
            self.dispatch(input_event)
        while not self.checked.empty():
            self.say_check(self.checked.get())
        if self.dirty:
            self.draw()

    def draw(self) -> None:
        self.targets = self.renderer.draw(self.display.surface, self.controller)
        # the panel's layout decides whether the discard pile has a page of its own, and
        # how many actions a page of them holds
        renderer, controller = self.renderer, self.controller
        layout = PanelLayout(renderer.pile_on_table, renderer.actions_shown)
        if layout != PanelLayout(controller.pile_on_table, controller.actions_per_page):
            controller.handle(layout)
        self.display.present()
        self.dirty = False
        self.frames += 1
        if not self._ready_sent:
            self.show_tokens()  # a resumed game's tokens, before any input
            sdnotify.ready()
            self._ready_sent = True
            if self.check_after_first_frame:
                self.start_check()
        self.publish()

    def start_check(self) -> threading.Thread:
        """Read every page of the database in the background (:meth:`Storage.check`, on its
        reader): it grows with the games, so it never holds up the start (decision 0090)."""

        def check() -> None:
            try:
                problems = self.storage.reader().check()
            except StorageError as error:
                problems = [str(error)]
            if not problems or not self.running:
                return
            for problem in problems:
                log.warning("%s", problem)
            self.checked.put(problems)
            self.sleeper.poke()

        thread = threading.Thread(target=check, name="whole-file check", daemon=True)
        thread.start()
        return thread

    def say_check(self, problems: list[str]) -> None:
        """Say what the whole-file check found, with the other findings of the start."""
        said = i18n.tr(self.controller.draft.language, "database_check_found", count=len(problems))
        earlier = self.controller.startup_notice
        self.controller.handle(StartupNotice(" · ".join(filter(None, [earlier, said]))))
        self.dirty = True

    def attach_web(self, web: WebLink) -> None:
        """Serve the page for phones: the server starts after the first frame."""
        self.web = web
        self.controller.handle(PhonesServed(web.url))
        web.inbox = self.inbox.emit
        try:  # the phones paired with the table (a damaged table of them: none, said once)
            self.controller.handle(PhonesLoaded(self.storage.paired_phones()))
        except StorageError as error:
            log.warning("%s: no phone can enter actions until they are paired again", error)
        self.publish_phones()

    def publish(self) -> None:
        """Hand the table to the page for phones (after the frame: the panel first).
        Whatever goes wrong there is one line in the log, and the table plays on."""
        if self.web is None:
            return
        try:
            self.web.frame(self.controller, self.game_id)
        except Exception as error:
            log.warning("web: the page for phones stops: %s", error)
            self.web = None

    # -- input ------------------------------------------------------------------

    def _until_held_keys_expire(self, timeout_ms: int) -> int:
        """``timeout_ms``, shortened to wake up when held keys are due (see :class:`KeyBurst`)."""
        deadline = self.typed_burst.deadline()
        if deadline is None:
            return timeout_ms
        due_ms = int((deadline - time.monotonic()) * 1000) + 1
        return max(1, min(timeout_ms, due_ms))

    def take_pygame_event(self, event: pygame.event.Event) -> None:
        """A pygame event as it arrives: with a reader configured or a deck enrolled, key
        events pass through the burst check first (a USB reader typing into the window is
        a card read, not keys); without, keys are keys, however fast."""
        kind = event.type
        if kind not in (pygame.KEYDOWN, pygame.KEYUP, pygame.TEXTINPUT) or not self.typed_reads:
            self.handle_pygame_event(event)
            return
        char = None
        ends_line = False
        if kind == pygame.KEYDOWN:
            text = event.unicode
            if len(text) == 1 and text.isprintable() and not text.isspace():
                char = text
            ends_line = pygame.key.name(event.key).lower() in LINE_END_KEYS
        for item in self.typed_burst.feed(event, time.monotonic(), char=char, ends_line=ends_line):
            if isinstance(item, TypedScan):
                self.dispatch(CardScanned(item.text, self.tag_map.lookup(item.text)))
            else:
                self.handle_pygame_event(item)

    def handle_pygame_event(self, event: pygame.event.Event) -> None:
        kind = event.type
        if kind == pygame.QUIT:
            self.running = False
        elif kind == pygame.KEYDOWN:
            name = pygame.key.name(event.key)
            if self.controller.wants_text():
                mapped = text_key_event(name)  # the characters arrive as TEXTINPUT
            else:
                mapped = key_event(
                    name, self.controller.screen, entry_step=self.controller.key_step()
                )
            if mapped is not None:
                self.dispatch(mapped)
        elif kind == pygame.TEXTINPUT:
            if self.controller.wants_text():
                self.dispatch(TypeText(event.text))
            elif event.text == "?":  # shift+/ on most layouts: only the text says "?"
                self.dispatch(Press(Key.HELP))
        elif kind == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.pointer_down(*event.pos)
        elif kind == pygame.MOUSEBUTTONUP and event.button == 1:
            self.pointer_up(*event.pos)
        elif kind in (pygame.FINGERDOWN, pygame.FINGERUP):
            width, height = self.display.size
            where = (int(event.x * width), int(event.y * height))
            (self.pointer_down if kind == pygame.FINGERDOWN else self.pointer_up)(*where)
        elif kind in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE):
            self.dirty = True

    def pointer_down(self, x: int, y: int) -> None:
        """A finger (or the mouse) down: a tap at once, unless on what turns a page (the
        actions page, the hands, a "More below" line): there it may be a swipe, told
        when the finger lifts."""
        if self.resolve_tap(Tap(x, y)) == Press(Key.NEXT):
            self.pressed_at = (x, y)
            return
        self.pressed_at = None
        self.dispatch(Tap(x, y))

    def pointer_up(self, x: int, y: int) -> None:
        """The finger lifted: up or down by :data:`SWIPE_SHARE` of the panel is a swipe,
        NEXT (up: older actions, the rows below) or PREVIOUS (down); else the tap."""
        start, self.pressed_at = self.pressed_at, None
        if start is None:
            return
        rise = y - start[1]
        if abs(rise) >= SWIPE_SHARE * self.display.size[1] and abs(rise) > abs(x - start[0]):
            self.dispatch(Press(Key.NEXT if rise < 0 else Key.PREVIOUS))
        else:
            self.dispatch(Tap(*start))

    def resolve_tap(self, tap: Tap) -> InputEvent | None:
        """The event of the target under a tap, from the last frame drawn."""
        for rect, event in reversed(self.targets):
            if rect.collidepoint(tap.x, tap.y):
                return event
        return None

    def dispatch(self, event: InputEvent | PhoneEvent) -> None:
        """One input event through the controller; its effects done before the next frame."""
        if isinstance(event, Tap):
            resolved = self.resolve_tap(event)
            if resolved is None:
                return
            event = resolved
        if isinstance(event, PhoneMove) and self.answered_before(event):
            return
        shown = self.controller.game
        before = None
        if shown is not None:
            before = (shown.setup, list(shown.actions), tuple(self.controller.reveals.shown))
        effects = self.controller.handle(event)
        for effect in effects:
            try:
                self.carry_out(effect)
            except StorageError as error:
                # A full card, a lock held by another program, an I/O error, a read-only
                # file: the transaction was rolled back, the action is refused in a
                # sentence and the game plays on from what is stored.
                log.warning("%s", error)
                refusal = storage_refusal(error, self.storage.path.parent)
                self.take_back_unsaved(refusal, before)
                if isinstance(event, PhoneEvent):  # not kept: a retry may succeed
                    words = message_words(self.controller.language, refusal, ())
                    event.reply(Answer(False, http_status(PhoneOutcome.NOT_STORED), words))
                break  # what follows depended on it
        self.show_tokens()
        self.dirty = True

    def answered_before(self, move: PhoneMove) -> bool:
        """A phone's request sent again (its answer was lost on the Wi-Fi) is answered as
        the first time, from the database, and does nothing more; so is one made on
        another game than the one in play. Returns whether it was answered."""
        if move.token_hash not in self.controller.paired:
            return False  # the controller refuses an unpaired phone, whatever it asks
        phone_id = self.controller.paired[move.token_hash].id
        refused = self.refusals.get((phone_id, move.request_id))
        if refused is not None and not move.preview_only:
            move.reply(refused)
            return True
        kept = None
        try:
            if not move.preview_only:
                kept = self.storage.phone_answer(phone_id, move.request_id)
        except StorageError as error:
            log.warning("%s", error)
            refusal = storage_refusal(error, self.storage.path.parent)
            words = message_words(self.controller.language, refusal, ())
            move.reply(Answer(False, http_status(PhoneOutcome.NOT_STORED), words))
            return True
        if kept is not None:
            move.reply(Answer.from_json(*kept))
            return True
        game = self.controller.game
        if game is not None and move.game != ("" if self.game_id is None else str(self.game_id)):
            words = i18n.tr(self.controller.language, "phone_new_game")
            move.reply(
                Answer(False, http_status(PhoneOutcome.OTHER_GAME), words, len(game.actions))
            )
            return True
        return False

    def keep_refusal(self, phone_id: int, request_id: str, answer: Answer) -> None:
        """Remember a refused request's answer for a retry (the last
        :data:`REFUSALS_KEPT`; older ones, retried, are judged again: nothing changed)."""
        self.refused += 1
        self.refusals[(phone_id, request_id)] = answer
        while len(self.refusals) > REFUSALS_KEPT:
            self.refusals.popitem(last=False)

    def answer_phone(self, reply: PhoneReply) -> Answer:
        """The answer a phone is given, in the table's words."""
        controller = self.controller
        lang, names = controller.language, controller.names
        per_token = controller.game.setup.hint_cost if controller.game is not None else 1
        if reply.preview is not None:
            words = i18n.preview_words(lang, reply.preview, names, per_token)
        else:
            words = message_words(lang, reply.message, names, per_token)
        return Answer(reply.ok, http_status(reply.outcome), words, reply.actions)

    def receipt(self, reply: PhoneReply) -> tuple[PhoneReceipt | None, Answer]:
        """The answer a phone is given, and what the database keeps of it with its request
        (None for a pairing: it has no request id)."""
        answer = self.answer_phone(reply)
        request = reply.request
        if not isinstance(request, PhoneMove):
            return None, answer
        receipt = PhoneReceipt(request.request_id, reply.phone_id, answer.status, answer.to_json())
        return receipt, answer

    def pair_phone(self, effect: PairPhone) -> None:
        request = effect.request
        lang = self.controller.language
        name = clean_name(request.name) or i18n.tr(lang, "phones")
        phone = self.storage.pair_phone(name, request.token_hash)
        self.controller.handle(PhonePaired(request.token_hash, phone))
        self.publish_phones()
        words = i18n.tr(lang, "phone_paired", name=phone.name)
        request.reply(Answer(True, 200, words, name=phone.name))

    def unpair_phone(self, phone_id: int) -> None:
        self.storage.remove_phone(phone_id)
        self.controller.handle(PhoneRemoved(phone_id))
        self.publish_phones()

    def publish_phones(self) -> None:
        """The web thread's copy of who is paired (it turns unknown phones away early)."""
        if self.web is not None:
            self.web.publish_phones(self.controller.paired)

    def finish_pending(self) -> None:
        """Store the end of a game that is over but still stored as playing (the card was
        full when it ended), so that the next game does not abandon it out of the history."""
        if self.game_id is None:
            return
        stored = self.storage.load(self.game_id)
        if stored.status is GameStatus.PLAYING:
            game = stored.replay()
            if game.is_over:
                self.storage.finish(self.game_id, game)

    def take_back_unsaved(
        self,
        message: Info | None = None,
        before: tuple[GameSetup, list[Action], tuple[Reveal, ...]] | None = None,
    ) -> None:
        """The storage refused an effect: show the game as stored, and say so.

        The storage rolled the write back, so the stored game is the truth: the
        controller takes it back (the action is not shown as done), and play goes
        on from there once the cause is gone. If the stored game cannot be read either
        (the card stopped answering), the game as it was before the input (``before``)
        is shown: what the screen showed had been stored.
        """
        game = None
        level = None  # the stored game's, when it is read: else the one in play stays
        shown: tuple[Reveal, ...] = ()
        try:
            if self.game_id is not None:
                stored = self.storage.load(self.game_id)
                if stored.status is not GameStatus.ABANDONED:
                    game, shown = stored.replay(), stored.reveals
                    level = stored_hint_level(self.storage, self.game_id) or UNKNOWN_HINT_LEVEL
        except StorageError as error:
            log.warning("%s", error)
            game = None if before is None else Game.replay(*before[:2])
            shown = () if before is None else before[2]
        self.controller.handle(NotStored(game, message or Info("storage_full"), level, shown))

    def show_tokens(self) -> None:
        """Light the token LEDs (if any) for the game on screen."""
        game = self.controller.game
        if self.on_tokens is not None and game is not None:
            # whole tokens: Clue Starved counts in halves, a half token lights no LED
            self.on_tokens(game.position.hints // game.setup.hint_cost, game.position.fuses)

    def resume_game(self, game_id: int) -> None:
        """Take an unfinished game up again; the one in play (if another) is kept as
        unfinished, itself resumable. A game that no longer reads back is said."""
        try:
            stored = self.storage.reopen(game_id)
        except DamagedGameError as error:
            log.warning("%s", error)
            self.controller.handle(GameUnreadable(game_id))
            return
        self.game_id = game_id
        level = stored_hint_level(self.storage, game_id)
        self.controller.handle(GameLoaded(Game.replay(stored.setup, stored.actions), level))
        self.show_tokens()

    def acknowledge(self, ids: tuple[str, ...]) -> None:
        """A player pressed OK over the findings: storage notes them seen. If it cannot, they
        stay on the banner (and are said at the next start)."""
        try:
            self.storage.acknowledge_findings(ids)
        except StorageError as error:
            log.warning("%s", error)
            self.controller.handle(FindingsOpen(tuple(self.storage.open_findings)))

    def load_history(self, before: int | None) -> None:
        """Read a page of the history (its first, with the statistics, or the one after game
        ``before``): a page costs the same however many games are stored."""
        try:
            page = self.storage.history_page(before=before, limit=HISTORY_SCREEN_PAGE)
            stats = self.storage.stats() if before is None else None
            players = self.storage.player_stats() if before is None else None
        except StorageFullError:
            raise
        except StorageError as error:  # damaged games are rows; this is the whole file
            log.warning("%s", error)
            self.controller.handle(HistoryUnreadable(first=before is None))
            return
        self.controller.handle(HistoryLoaded(page.rows, page.more, stats, players))
        damaged = [
            ("finished_game_damaged", {"game": row.id})
            for row in page.rows
            if row.damaged and row.status is GameStatus.OVER
        ]
        if damaged:  # the first look that finds one keeps it until a player has seen it
            try:
                if self.storage.keep_findings(damaged):
                    self.controller.handle(FindingsOpen(tuple(self.storage.open_findings)))
            except StorageError as error:
                log.warning("%s", error)

    def link_play(self) -> None:
        """The finished game's BG Stats link, for the end screen's QR code and the phones'.
        A link that cannot be made (the game no longer reads back) is one line in the log."""
        from companion.shell.play_link import stored_play_link

        game = self.controller.game
        if self.game_id is None or game is None:
            return
        try:
            link = stored_play_link(self.storage, self.game_id, game, self.controller.language)
        except StorageError as error:
            log.warning("no BG Stats link for game %s: %s", self.game_id, error)
            return
        self.controller.handle(PlayLinked(link, len(game.actions)))

    def carry_out(self, effect: Effect) -> None:
        """Do one effect. Storage writes commit before returning: nothing shows unsaved."""
        storage = self.storage
        if isinstance(effect, StartGame):
            self.finish_pending()  # new_game abandons any game still "playing"
            self.game_id = storage.new_game(effect.setup, hint_level=effect.hint_level.value)
        elif isinstance(effect, RecordAction | RecordReveal | RecordUndo):
            assert self.game_id is not None
            receipt, answer = (None, None) if effect.reply is None else self.receipt(effect.reply)
            if isinstance(effect, RecordAction):
                storage.append_action(self.game_id, effect.action, receipt=receipt)
            elif isinstance(effect, RecordReveal):
                self.finish_pending()  # a game whose end a full card kept from being stored
                storage.append_action(self.game_id, effect.reveal, receipt=receipt)
            else:
                storage.drop_last_action(self.game_id, receipt=receipt)
            if effect.reply is not None and answer is not None:
                effect.reply.request.reply(answer)  # stored: now the phone may show it
        elif isinstance(effect, PhoneReply):
            receipt, answer = self.receipt(effect)
            if effect.keep and receipt is not None:  # for a retry; else judged again
                self.keep_refusal(receipt.phone_id, receipt.request_id, answer)
            effect.request.reply(answer)
        elif isinstance(effect, PairPhone):
            self.pair_phone(effect)
        elif isinstance(effect, UnpairPhone):
            self.unpair_phone(effect.phone_id)
        elif isinstance(effect, NewPairingCode):
            self.controller.handle(PairingCodeMade(new_pairing_code()))
        elif isinstance(effect, FinishGame):
            assert self.game_id is not None and self.controller.game is not None
            storage.finish(self.game_id, self.controller.game)
            self.link_play()
        elif isinstance(effect, SaveSettings):
            storage.set_setting(SETTINGS_KEY, effect.settings)
        elif isinstance(effect, LoadHistory):
            self.load_history(effect.before)
        elif isinstance(effect, ResumeGame):
            self.resume_game(effect.game_id)
        elif isinstance(effect, NewTableCode):
            if self.web is not None:
                self.web.renew_code()
                self.controller.handle(PhonesServed(self.web.url, renewed=True))
        elif isinstance(effect, AcknowledgeFindings):
            self.acknowledge(effect.ids)
        elif isinstance(effect, Quit):
            self.running = False
        elif isinstance(effect, Beep) and self.on_beep is not None:
            self.on_beep(effect.kind)
