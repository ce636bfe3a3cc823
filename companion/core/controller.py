"""The controller: the pure state machine from input events to effects, routing each
event to the flow of the screen it is for.

No pygame, no I/O. :meth:`Controller.handle` takes one input event, a phone's request
or the app's answer to an earlier effect (:mod:`companion.core.results`), changes the
controller's state (which screen, what is being entered, the game) and returns the
effects the app must carry out *before* it draws again: store an action, store an
undo, start or finish a game, beep. Drawing only reads the controller.

The controller is one object made of mixins, one per flow, each over the shared
:class:`~companion.core.state.ControllerState`: :mod:`~companion.core.setup` (the
set-up screen), :mod:`~companion.core.entering` (the game and entry screens, with
:mod:`~companion.core.entry` reading the entry), :mod:`~companion.core.navigation`
(the menu, the help, the undo question, the end), :mod:`~companion.core.history` and
:mod:`~companion.core.phones`. The types they use are re-exported here.

>>> from engine.cards import Color
>>> from hardware.events import ChooseColor, ChooseRank, Press, Key
>>> c = Controller(SetupDraft(players=2))
>>> [type(e).__name__ for e in c.handle(Press(Key.OK))]
['SaveSettings', 'StartGame']
>>> c.screen
<Screen.GAME: 'game'>
>>> _ = c.handle(Press(Key.PLAY)); _ = c.handle(ChooseColor(Color.RED))
>>> _ = c.handle(ChooseRank(1))
>>> [type(e).__name__ for e in c.handle(Press(Key.OK))]
['RecordAction']
>>> c.game.position.fireworks[Color.RED]
1
"""

from __future__ import annotations

from collections.abc import Callable

from companion.core.draft import (
    HINT_LEVEL_ROW,
    MAX_NAME_LENGTH,
    SETUP_ROWS,
    VARIANT_ROW,
    SetupDraft,
)
from companion.core.effects import (
    AcknowledgeFindings,
    Beep,
    Effect,
    FinishGame,
    Happened,
    Info,
    LoadHistory,
    Message,
    NewPairingCode,
    NewTableCode,
    PairPhone,
    PhoneOutcome,
    PhoneReply,
    Quit,
    RecordAction,
    RecordReveal,
    RecordUndo,
    Refused,
    ResumeGame,
    SaveSettings,
    Shown,
    StartGame,
    Undone,
    UnpairPhone,
    message_words,
)
from companion.core.entering import EntryFlow
from companion.core.entry import (
    CLUES_PER_PAGE,
    MORE_CLUES,
    NOT_YET_COMPLETE,
    SLOT_REFUSALS,
    SOFT_KEYS,
    Entry,
    EntryKind,
    EntryStep,
    choice_event,
)
from companion.core.hint_level import DEFAULT_HINT_LEVEL, HintLevel
from companion.core.history import HISTORY_SCREEN_PAGE, RESUME_ROW, HistoryFlow
from companion.core.navigation import NavigationFlow
from companion.core.phones import (
    NEW_CODE,
    PAIR_NO,
    PAIR_YES,
    REMOVE_NO,
    REMOVE_PHONE,
    REMOVE_YES,
    PhonesFlow,
)
from companion.core.results import (
    FindingsOpen,
    GameLoaded,
    GameUnreadable,
    HistoryLoaded,
    HistoryUnreadable,
    NotStored,
    PairingCodeMade,
    PanelLayout,
    PhonePaired,
    PhoneRemoved,
    PhonesLoaded,
    PhonesServed,
    PlayLinked,
    QuitAllowed,
    Result,
    RevealsLoaded,
    StartupNotice,
)
from companion.core.setup import SetupFlow
from companion.core.state import (
    END_PAGES,
    MENU_ROWS,
    NEXT_VALUE,
    PREVIOUS_VALUE,
    QUIT_ROW,
    VARIANT_PICK,
    GamePage,
    Screen,
    game_screen,
)
from companion.vocabulary.phone import PhoneEvent, PhoneMove, PhonePair, PhoneSetup
from engine.game import Game
from engine.memory import Clue
from engine.reveal import Reveal
from hardware.events import DeviceStatus, InputEvent, Key, Press, Tap


class Controller(SetupFlow, EntryFlow, NavigationFlow, HistoryFlow, PhonesFlow):
    """The companion's state machine: turns input events into engine actions, screens
    and effects. Pure: no pygame, no I/O."""

    def __init__(
        self,
        draft: SetupDraft,
        game: Game | None = None,
        *,
        clock: Callable[[], str] | None = None,
        hint_level: HintLevel | None = None,
    ) -> None:
        super().__init__(draft, game, clock=clock, hint_level=hint_level)
        #: Which flow's method handles the input on each screen.
        self._handlers: dict[Screen, Callable[[InputEvent], list[Effect]]] = {
            Screen.SETUP: self._on_setup,
            Screen.GAME: self._on_game,
            Screen.ENTRY: self._on_entry,
            Screen.UNDO: self._on_undo,
            Screen.END: self._on_end,
            Screen.MENU: self._on_menu,
            Screen.HISTORY: self._on_history,
            Screen.HELP: self._on_help,
            Screen.PHONES: self._on_phones,
            Screen.REVEAL: self._on_reveal,
        }

    def handle(self, event: InputEvent | PhoneEvent | Result) -> list[Effect]:
        """Apply one input event, a phone's request or the app's answer; return what the
        app must do before drawing."""
        if isinstance(event, PhoneMove):
            return self._phone_move(event)
        if isinstance(event, PhonePair):
            return self._phone_pair(event)
        if isinstance(event, PhoneSetup):
            return self._phone_setup(event)
        if isinstance(event, HistoryLoaded | HistoryUnreadable | GameLoaded | GameUnreadable):
            self._apply_history(event)
            return []
        if isinstance(
            event, PhonesServed | PhonesLoaded | PhonePaired | PhoneRemoved | PairingCodeMade
        ):
            self._apply_phones(event)
            return []
        if isinstance(event, NotStored):
            self.take_back(event.game, event.message, event.hint_level, event.reveals)
            return []
        if isinstance(event, RevealsLoaded):
            self.restore_reveals(event.reveals, resume=True)
            return []
        if isinstance(event, StartupNotice):
            self.startup_notice = event.text
            return []
        if isinstance(event, FindingsOpen):
            self.findings = event.findings
            return []
        if (
            isinstance(event, Press)
            and event.key is Key.OK
            and self.findings
            and not self.wants_text()
        ):  # OK over the banner: the finding it shows was read; the next one follows
            seen, self.findings = self.findings[0], self.findings[1:]
            return [AcknowledgeFindings((seen.id,))]
        if isinstance(event, PanelLayout):
            self.pile_on_table = event.pile_on_table
            self.actions_per_page = event.actions_per_page
            return []
        if isinstance(event, PlayLinked):
            self.play_link = (event.link, event.actions)
            return []
        if isinstance(event, QuitAllowed):
            self.can_quit = event.allowed
            return []
        if isinstance(event, DeviceStatus):
            if event.connected:
                self.device_notices.pop(event.device, None)
            else:
                self.device_notices[event.device] = event.message
            return []
        if isinstance(event, Tap):
            return []  # taps are resolved into events by the layout before reaching here
        if isinstance(event, Press) and event.key is Key.MENU and not self.wants_text():
            # leaving the Phones page while it asks "Pair Di's phone?" is a no; while it
            # asks "Remove Di's phone?", the phone stays
            effects = self._on_phones(PAIR_NO) if self.pending_pair is not None else []
            self.pending_remove = None
            if self.screen is not Screen.MENU:
                self._return_to = self.screen
                self.screen = Screen.MENU
                self.menu_focus = 0
            return effects
        if isinstance(event, Press) and event.key is Key.HELP and not self.wants_text():
            if self.screen is not Screen.HELP:
                self._return_to = self.screen
                self.screen = Screen.HELP
                self.scroll = 0
            return []
        return self._handlers[self.screen](event)

    def key_step(self) -> EntryStep | None:
        """What the screen asks, for the keys: the entry's step, or the reveal's."""
        return self.reveal_step() if self.screen is Screen.REVEAL else self.entry_step()

    def take_back(
        self,
        game: Game | None,
        message: Message,
        hint_level: HintLevel | None = None,
        reveals: tuple[Reveal, ...] = (),
    ) -> None:
        """Show ``game`` as it is stored, after an effect could not be stored (a full
        card): whatever was shown unsaved is dropped, any entry is closed. ``hint_level``:
        the stored game's (None: the one in play stays); ``reveals``, the hands shown at
        its end as stored."""
        if hint_level is not None:
            self.hint_content = hint_level is HintLevel.CONTENT
        unchanged = (
            game is not None
            and self.game is not None
            and game.setup == self.game.setup
            and game.actions == self.game.actions
        )
        self.game = game
        self.message = message
        self.restore_reveals(reveals)
        if unchanged:  # e.g. a remembered setting: the game on screen is the stored one
            if self.reveal_entry is not None:
                self._next_hand()  # a hand shown but not stored is asked again
            return
        self.entry = None
        self.reveal_entry = None
        self.preview = None
        self.screen = game_screen(game)


__all__ = [
    "CLUES_PER_PAGE",
    "DEFAULT_HINT_LEVEL",
    "END_PAGES",
    "HINT_LEVEL_ROW",
    "HISTORY_SCREEN_PAGE",
    "MAX_NAME_LENGTH",
    "MENU_ROWS",
    "MORE_CLUES",
    "NEW_CODE",
    "NEXT_VALUE",
    "NOT_YET_COMPLETE",
    "PAIR_NO",
    "PAIR_YES",
    "PREVIOUS_VALUE",
    "QUIT_ROW",
    "REMOVE_NO",
    "REMOVE_PHONE",
    "REMOVE_YES",
    "RESUME_ROW",
    "SETUP_ROWS",
    "SLOT_REFUSALS",
    "SOFT_KEYS",
    "VARIANT_PICK",
    "VARIANT_ROW",
    "AcknowledgeFindings",
    "Beep",
    "Clue",
    "Controller",
    "Effect",
    "Entry",
    "EntryKind",
    "EntryStep",
    "FindingsOpen",
    "FinishGame",
    "GameLoaded",
    "GamePage",
    "GameUnreadable",
    "Happened",
    "HintLevel",
    "HistoryLoaded",
    "HistoryUnreadable",
    "Info",
    "LoadHistory",
    "Message",
    "NewPairingCode",
    "NewTableCode",
    "NotStored",
    "PairPhone",
    "PairingCodeMade",
    "PanelLayout",
    "PhoneOutcome",
    "PhonePaired",
    "PhoneRemoved",
    "PhoneReply",
    "PhonesLoaded",
    "PhonesServed",
    "PlayLinked",
    "Quit",
    "QuitAllowed",
    "RecordAction",
    "RecordReveal",
    "RecordUndo",
    "Refused",
    "Result",
    "ResumeGame",
    "RevealsLoaded",
    "SaveSettings",
    "Screen",
    "SetupDraft",
    "Shown",
    "StartGame",
    "StartupNotice",
    "Undone",
    "UnpairPhone",
    "choice_event",
    "message_words",
]
