"""The companion's brain: a pure state machine from input events to engine actions.

No pygame, no I/O. :meth:`Controller.handle` takes one input event, changes
the controller's state (which screen, what is being entered, the game) and
returns the effects the app must carry out *before* it draws again: store an
action, store an undo, start or finish a game, beep. Drawing only reads the
controller.

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

import contextlib
from collections.abc import Callable
from enum import Enum, StrEnum
from typing import TYPE_CHECKING, Any

from msgspec import Struct, field
from msgspec.structs import replace

from companion.core import i18n
from companion.core.i18n import LANGUAGES
from companion.vocabulary.phone import PAIRING_TRIES, PairedPhone, PhoneEvent, PhoneMove, PhonePair
from engine.actions import Action, Discard, Hint, Play
from engine.cards import Card, Color
from engine.errors import IllegalAction
from engine.game import Event, Game
from engine.options import OPTION_NAMES, GameOptions, SetupError
from engine.setup import GameSetup
from hardware.events import (
    CardScanned,
    ChooseColor,
    ChooseNumber,
    ChooseRank,
    ChooseSeat,
    ChooseSlot,
    DeviceStatus,
    InputEvent,
    Key,
    Press,
    Select,
    Tap,
    TypeText,
)
from hardware.wiring import BeepKind

if TYPE_CHECKING:
    from companion.vocabulary.records import HistoryRow, StatsRow

    #: The history screen's data: the finished games, newest first, and the statistics.
    History = tuple[list[HistoryRow], list[StatsRow]]

MAX_NAME_LENGTH = 12

#: Games the history screen reads at a time; the next page is read when the game at the
#: top of the list comes within half a page of the last one read.
HISTORY_PAGE = 10


class Screen(Enum):
    """What the companion shows."""

    SETUP = "setup"
    GAME = "game"
    ENTRY = "entry"  # entering a play or a discard, with its confirm step
    UNDO = "undo"  # confirming an undo
    END = "end"
    MENU = "menu"
    HISTORY = "history"
    HELP = "help"
    PHONES = "phones"  # the page for phones: its QR code, URL, pairing code; the paired phones


class GamePage(Enum):
    """The pages NEXT turns through on the game screen (and the end screen)."""

    TABLE = "table"  # the fireworks, the tokens, what just happened (the end: the result)
    DISCARDS = "discards"  # the whole discard pile
    ACTIONS = "actions"  # the recent actions, newest first
    HANDS = "hands"  # hand memory: every player's hand


#: The end screen's pages: the result, the discard pile, the actions.
END_PAGES = (GamePage.TABLE, GamePage.DISCARDS, GamePage.ACTIONS)


class EntryStep(StrEnum):
    """What the entry screen asks for next."""

    KIND = "kind"  # play or discard? (a card was scanned first)
    COLOR = "color"
    RANK = "rank"
    ANNOUNCE = "announce"  # the colour announced (timed display)
    CONFIRM = "confirm"
    # hand memory (docs/rules.md section 8)
    RECEIVER = "receiver"  # who a hint is for
    CLUE = "clue"  # the colour or the rank a hint named
    SLOTS = "slots"  # the slots the hint touched (each pick toggles one); OK records it
    SLOT = "slot"  # the slot the played or discarded card came from


class EntryKind(Enum):
    PLAY = "play"
    DISCARD = "discard"
    HINT = "hint"  # only with hand memory: without it a hint is one press


# -- effects: what the app must do, in order, before drawing ---------------


class StartGame(Struct, frozen=True):
    setup: GameSetup


class RecordAction(Struct, frozen=True):
    action: Action
    #: The phone's request that made it, answered once it is stored (None: the panel's).
    reply: PhoneReply | None = None


class RecordUndo(Struct, frozen=True):
    reply: PhoneReply | None = None


class PhoneReply(Struct, frozen=True):
    """Answer a phone (after storing the action this comes with, if any).

    ``message`` is what it is told (in words by :func:`message_words`), ``preview`` what
    its action would do (a preview asked for), ``ok`` whether it was recorded (or would
    be), ``status`` the HTTP status, ``actions`` the count of actions after it, ``keep``
    whether the answer is remembered for a retry of the same request (a refusal by the
    rules; a stored action keeps its answer with it)."""

    request: PhoneEvent
    phone_id: int
    message: Message | None
    ok: bool
    status: int
    actions: int | None = None
    preview: Event | None = None
    keep: bool = False


class PairPhone(Struct, frozen=True):
    """Pair the phone that gave the right code (the app stores it, then answers)."""

    request: PhonePair


class UnpairPhone(Struct, frozen=True):
    """Remove a paired phone (its token stops acting at once)."""

    phone_id: int


class NewPairingCode(Struct, frozen=True):
    """The Phones page opened, or its code was tried too often: the app makes a new one
    (:attr:`Controller.pairing_code`)."""


class FinishGame(Struct, frozen=True):
    pass


class SaveSettings(Struct, frozen=True):
    settings: dict[str, Any]


class LoadHistory(Struct, frozen=True):
    """Read the history for its screen: the first page of games and the statistics, or
    (``before``) the page of games older than game ``before``, added after those shown.
    The app answers with :meth:`Controller.show_history_page`."""

    before: int | None = None


class ResumeGame(Struct, frozen=True):
    """Take up an unfinished game from the history (the app loads it, then calls
    :meth:`Controller.take_up`)."""

    game_id: int


class Quit(Struct, frozen=True):
    """Close the companion (the menu's Quit, on a desktop)."""


class Beep(Struct, frozen=True):
    kind: BeepKind


class NewTableCode(Struct, frozen=True):
    """A new table code for the page for phones: the old links stop working."""


Effect = (
    StartGame
    | RecordAction
    | RecordUndo
    | FinishGame
    | SaveSettings
    | LoadHistory
    | ResumeGame
    | Beep
    | Quit
    | NewTableCode
    | PhoneReply
    | PairPhone
    | UnpairPhone
    | NewPairingCode
)


# -- messages: the last thing that happened, for the status line ------------


class Happened(Struct, frozen=True):
    """An action was recorded; ``event`` says what it did, ``by`` the phone that entered
    it (empty: the panel)."""

    event: Event
    by: str = ""


class Refused(Struct, frozen=True):
    """An action was refused; nothing changed."""

    error: IllegalAction


class Undone(Struct, frozen=True):
    """The last action was taken back (``by``: the phone that asked, else empty)."""

    event: Event
    by: str = ""


class Info(Struct, frozen=True):
    """Anything else worth a line: a key of :mod:`companion.core.i18n` and its parameters."""

    key: str
    params: tuple[tuple[str, object], ...] = ()


Message = Happened | Refused | Undone | Info


def message_words(lang: str, message: Message | None, names: tuple[str, ...]) -> str:
    """A message in words, as the panel's status line and a phone's answer say it; an
    action a phone entered ends with whose phone it was.

    >>> from engine import GameSetup, Game, Hint
    >>> game = Game(GameSetup(players=2, names=("Ann", "Bo")))
    >>> message_words("en", Happened(game.apply(Hint(to=1, rank=2)), by="Ann"), ("Ann", "Bo"))
    "Ann told Bo: 2s (Ann's phone)"
    """
    if isinstance(message, Refused):
        return i18n.refusal_text(lang, message.error, names)
    if isinstance(message, Info):
        return i18n.tr(lang, message.key, **dict(message.params))
    if message is None:
        return ""
    text = i18n.describe_event(lang, message.event, names)
    if isinstance(message, Undone):
        text = i18n.tr(lang, "ev_undone", what=text)
    if message.by:
        text = i18n.tr(lang, "entered_on_phone", text=text, name=message.by)
    return text


# -- the set-up being prepared ---------------------------------------------


class SetupDraft(Struct):
    """The choices on the set-up screen; remembered between games."""

    players: int = 3
    names: list[str] = field(default_factory=list)
    first_player: int = 0
    options: GameOptions = field(default_factory=GameOptions)
    language: str = "en"

    def name(self, seat: int) -> str:
        """The name typed for a seat, else "Player N" in the table's language."""
        if seat < len(self.names) and self.names[seat].strip():
            return self.names[seat].strip()
        return i18n.tr(self.language, "player_n", n=seat + 1)

    def to_setup(self, started_at: str | None = None) -> GameSetup:
        """The game set-up; :class:`SetupError` if the options do not combine."""
        return GameSetup(
            players=self.players,
            first_player=self.first_player % self.players,
            names=tuple(self.name(seat) for seat in range(self.players)),
            options=self.options.effective(),
            started_at=started_at,
        )

    def to_settings(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "names": list(self.names),
            "first_player": self.first_player,
            **self.options.to_dict(defaults=True),
            "language": self.language,
        }

    @classmethod
    def from_settings(
        cls, settings: dict[str, Any], default: SetupDraft | None = None
    ) -> SetupDraft:
        """Rebuild remembered choices; anything unreadable keeps its default."""
        draft = replace(default) if default else cls()
        draft.names = list(draft.names)
        players = settings.get("players")
        if type(players) is int and 2 <= players <= 5:
            draft.players = players
        names = settings.get("names")
        if isinstance(names, list) and all(isinstance(n, str) for n in names):
            draft.names = [n[:MAX_NAME_LENGTH] for n in names[:5]]
        first = settings.get("first_player")
        if type(first) is int and 0 <= first < draft.players:
            draft.first_player = first
        draft.first_player %= draft.players
        for name in OPTION_NAMES:
            with contextlib.suppress(SetupError):
                draft.options = draft.options.updated({name: settings.get(name)})
        if settings.get("language") in LANGUAGES:
            draft.language = settings["language"]
        return draft


#: The rows of the set-up screen, top to bottom; the focus starts on "start".
SETUP_ROWS = (
    "players",
    "start",  # next to the player count: the quick path is a digit, then Return
    "first_player",
    "names",
    *OPTION_NAMES,
    "language",
)

MENU_ROWS = ("resume", "new_game", "history", "help", "language", "phones")
#: The Phones page's button that makes a new table code.
NEW_CODE = Select("phones_new_code")
#: The Phones page's button that removes a paired phone: this, then the phone's id.
REMOVE_PHONE = "remove_phone:"
#: A tap on the history's focused game, when it can be taken up again.
RESUME_ROW = "resume_game"
#: The menu's last row on a desktop: a window can be closed from the menu (under
#: systemd the service would only start again, so the appliance has no Quit).
QUIT_ROW = "quit"

#: On the entry screen, the buttons act as soft keys under the choices shown.
SOFT_KEYS = (Key.HINT, Key.PLAY, Key.DISCARD, Key.UNDO, Key.NEXT, Key.OK)

#: The soft choice that turns to the next page of a hint's clues (hand memory): the
#: colours and the ranks are more than six buttons.
MORE_CLUES = Select("more_clues")
#: Clues shown per page, the sixth soft key turning the page.
CLUES_PER_PAGE = 5

#: Left and Right on a row that shows ‹ value › (the set-up, the menu's language): the
#: value moves back or on; Up and Down (NEXT, PREVIOUS) move between the rows.
PREVIOUS_VALUE = Select("previous_value")
NEXT_VALUE = Select("next_value")

#: The refusals of a play or a discard that are about where the card came from (hand
#: memory): OK on such a refused entry asks the slot again, not the card.
SLOT_REFUSALS = frozenset({"no_such_slot", "card_not_in_slot", "card_ruled_out"})

#: The refusals that only say a hand-memory entry is not complete yet (no slot, no
#: slots): a check made before the slots are known sets them aside.
NOT_YET_COMPLETE = frozenset({"slot_needed", "hint_needs_slots"})

Clue = Color | int


class Entry(Struct):
    """A play, a discard or (with hand memory) a hint being entered."""

    kind: EntryKind | None  # None: a card was scanned first, "play or discard?"
    color: Color | None = None
    rank: int | None = None
    announce: Color | None = None
    choosing_announce: bool = False
    #: A hint's receiver (a seat), its clue (a colour or a rank) and the slots it touched.
    to: int | None = None
    clue: Clue | None = None
    touched: tuple[int, ...] = ()
    #: Which page of clues the soft keys show (the sixth turns it).
    clue_page: int = 0
    #: Where the played or discarded card came from (hand memory).
    slot: int | None = None
    #: The card came from a reader: the last choice records it, with no OK.
    from_reader: bool = False

    @property
    def card(self) -> Card | None:
        if self.color is None or self.rank is None:
            return None
        return Card(self.color, self.rank)

    def action(self, player: int, *, hand_memory: bool = False) -> Action | None:
        """The action entered, or None while something is missing."""
        if self.kind is EntryKind.HINT:
            if self.to is None or self.clue is None:
                return None
            color, rank = _clue_parts(self.clue)
            return Hint(self.to, color, rank, player=player, slots=tuple(sorted(self.touched)))
        card = self.card
        if card is None or self.kind is None or (hand_memory and self.slot is None):
            return None
        if self.kind is EntryKind.PLAY:
            return Play(card, self.announce, player=player, slot=self.slot)
        return Discard(card, player=player, slot=self.slot)


def _clue_parts(clue: Clue) -> tuple[Color | None, int | None]:
    """A clue as a hint's (colour, rank): a :class:`Color` is an ``int`` too, so it is
    told apart first."""
    if isinstance(clue, Color):
        return clue, None
    return None, clue


class Controller:
    """Turns input events into engine actions and screens. Pure: no pygame, no I/O."""

    def __init__(
        self,
        draft: SetupDraft,
        game: Game | None = None,
        *,
        clock: Callable[[], str] | None = None,
    ) -> None:
        self.draft = draft
        self.game = game
        self.screen = (
            Screen.SETUP if game is None else (Screen.END if game.is_over else Screen.GAME)
        )
        self.entry: Entry | None = None
        self.preview: Event | IllegalAction | None = None
        # A game taken up again (a restart, `render`) shows its last action, as the
        # table saw it before: the screen after a crash is the screen before it.
        self.message: Message | None = (
            Happened(game.events[-1]) if game is not None and game.events else None
        )
        #: A problem found at start (damaged database moved aside, GPIO unusable).
        self.startup_notice: str | None = None
        #: The current problem of each input device ("scanner disconnected"), by device.
        self.device_notices: dict[str, str] = {}
        self.focus = SETUP_ROWS.index("start")
        self.menu_focus = 0
        #: Whether the menu offers Quit (a desktop window, not the appliance's service).
        self.can_quit = False
        self.editing_name: int | None = None
        self.history: History | None = None  # filled by the app after LoadHistory
        self.history_more = False  # older games than those in ``history`` remain unread
        self.scroll = 0  # the first row shown on the history and help screens
        self.page = GamePage.TABLE  # the game (or end) screen's page
        #: Whether the panel shows the discard pile on the table page (beside the
        #: fireworks on a wide panel, below them on a tall one): then it has no page of
        #: its own. The renderer sets it from the panel's size.
        self.pile_on_table = False
        self._return_to = Screen.GAME
        self._clock = clock
        self._asked_to_abandon = False
        #: The phones that may enter actions, by their token's hash (the app keeps it).
        self.paired: dict[bytes, PairedPhone] = {}
        #: The code the Phones page shows for pairing a phone (the app makes it), and the
        #: wrong codes tried against it.
        self.pairing_code: str | None = None
        self.pairing_tries = 0
        #: Where the Phones page is: None on its pairing code (the QR code, the URL, the
        #: code), else at a paired phone (its place in :meth:`paired_phones`): the page
        #: then lists them, NEXT and PREVIOUS move along, OK removes the one at the focus.
        self.phone_focus: int | None = None
        #: Which method handles the input on each screen.
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
        }
        #: The URL of the page for phones (set by the app when it serves one), else None.
        self.phones_url: str | None = None

    # -- reading -----------------------------------------------------------

    @property
    def language(self) -> str:
        return self.draft.language

    @property
    def names(self) -> tuple[str, ...]:
        return self.game.setup.names if self.game else ()

    @property
    def notice(self) -> str | None:
        """What the banner says: the devices' problems, then the start-up one."""
        parts = [*self.device_notices.values()]
        if self.startup_notice:
            parts.append(self.startup_notice)
        return " · ".join(parts) or None

    @notice.setter
    def notice(self, text: str | None) -> None:
        self.startup_notice = text

    def menu_rows(self) -> tuple[str, ...]:
        """The menu's rows, top to bottom."""
        return (*MENU_ROWS, QUIT_ROW) if self.can_quit else MENU_ROWS

    def wants_text(self) -> bool:
        """True while a name is being typed (the keyboard then sends text)."""
        return self.editing_name is not None

    @property
    def hand_memory(self) -> bool:
        """Whether the game in play records slots (the option ``hand_memory``)."""
        return self.game is not None and self.game.setup.options.hand_memory

    @property
    def pages(self) -> tuple[GamePage, ...]:
        """The pages NEXT turns through: the table, the discard pile (unless the table
        shows it), the recent actions, and with hand memory every player's hand; at the
        end, the result, the discard pile and the actions."""
        if self.screen is Screen.END:
            return END_PAGES
        pages = [GamePage.TABLE]
        if not self.pile_on_table:
            pages.append(GamePage.DISCARDS)
        pages.append(GamePage.ACTIONS)
        if self.hand_memory:
            pages.append(GamePage.HANDS)
        return tuple(pages)

    def turn_page(self, step: int) -> None:
        """NEXT (``+1``) or PREVIOUS (``-1``): the next or previous page, round."""
        pages = self.pages
        here = pages.index(self.page) if self.page in pages else 0
        self.page = pages[(here + step) % len(pages)]

    def receivers(self) -> list[int]:
        """Who a hint may be for: every other seat, the next player first."""
        game = self.game
        if game is None:
            return []
        players, current = game.setup.players, game.position.current
        return [(current + i) % players for i in range(1, players)]

    def clue_pages(self) -> list[list[InputEvent]]:
        """A hint's clues, as pages of soft choices: the colours a hint may name, five
        to a page, then the ranks."""
        game = self.game
        if game is None:
            return []
        colors: list[InputEvent] = [
            ChooseColor(suit.color) for suit in game.setup.suits if suit.named_in_hints
        ]
        pages = [colors[i : i + CLUES_PER_PAGE] for i in range(0, len(colors), CLUES_PER_PAGE)]
        return [*pages, [ChooseRank(rank) for rank in range(1, 6)]]

    def entry_hand(self) -> int | None:
        """The seat whose hand the slot steps show: a hint's receiver, else the player."""
        entry, game = self.entry, self.game
        if entry is None or game is None:
            return None
        if entry.kind is EntryKind.HINT:
            return entry.to
        return game.position.current

    def entry_step(self) -> EntryStep | None:
        """Which part of the entry is asked; None when no entry is under way."""
        entry = self.entry
        if entry is None:
            return None
        if entry.kind is EntryKind.HINT:
            if entry.to is None:
                return EntryStep.RECEIVER
            if entry.clue is None:
                return EntryStep.CLUE
            return EntryStep.SLOTS
        if entry.choosing_announce:
            return EntryStep.ANNOUNCE
        # the slot: first when the card is typed (the player takes it from the hand,
        # then shows it), after "play or discard?" when a reader read it first
        if (
            self.hand_memory
            and entry.slot is None
            and (entry.card is None or entry.kind is not None)
        ):
            return EntryStep.SLOT
        if entry.color is None:
            return EntryStep.COLOR
        if entry.rank is None:
            return EntryStep.RANK
        if entry.kind is None:
            return EntryStep.KIND
        return EntryStep.CONFIRM

    def soft_choices(self) -> list[object]:
        """What each soft key picks on the entry screen, in button order."""
        step = self.entry_step()
        if self.game is None or step is None:
            return []
        if step in (EntryStep.COLOR, EntryStep.ANNOUNCE):
            return list(self.game.setup.colors)
        if step is EntryStep.RANK:
            return [1, 2, 3, 4, 5]
        if step is EntryStep.RECEIVER:
            return [ChooseSeat(seat) for seat in self.receivers()]
        if step is EntryStep.CLUE:
            pages = self.clue_pages()
            assert self.entry is not None
            page = pages[self.entry.clue_page % len(pages)]
            return [*page, MORE_CLUES]
        if step in (EntryStep.SLOTS, EntryStep.SLOT):
            seat = self.entry_hand()
            assert seat is not None
            return [ChooseSlot(slot) for slot in range(1, self.game.position.hands[seat] + 1)]
        return []

    # -- handling ----------------------------------------------------------

    def handle(self, event: InputEvent | PhoneEvent) -> list[Effect]:
        """Apply one input event; return what the app must do before drawing."""
        if isinstance(event, PhoneMove):
            return self._phone_move(event)
        if isinstance(event, PhonePair):
            return self._phone_pair(event)
        if isinstance(event, DeviceStatus):
            if event.connected:
                self.device_notices.pop(event.device, None)
            else:
                self.device_notices[event.device] = event.message
            return []
        if isinstance(event, Tap):
            return []  # taps are resolved into events by the layout before reaching here
        if isinstance(event, Press) and event.key is Key.MENU and self.editing_name is None:
            if self.screen is not Screen.MENU:
                self._return_to = self.screen
                self.screen = Screen.MENU
                self.menu_focus = 0
            return []
        if isinstance(event, Press) and event.key is Key.HELP and self.editing_name is None:
            if self.screen is not Screen.HELP:
                self._return_to = self.screen
                self.screen = Screen.HELP
                self.scroll = 0
            return []
        return self._handlers[self.screen](event)

    # set-up

    def _on_setup(self, event: InputEvent) -> list[Effect]:
        draft = self.draft
        # Start while a game is unfinished asks first; the question lasts one input.
        asked, self._asked_to_abandon = self._asked_to_abandon, False
        if self.editing_name is not None:
            return self._edit_name(event)
        if isinstance(event, Select) and event.target in SETUP_ROWS:
            self.focus = SETUP_ROWS.index(event.target)
            event = Press(Key.OK)
        if isinstance(event, ChooseNumber) and 2 <= event.number <= 5:
            draft.players = event.number
            draft.first_player %= draft.players
            return []
        if event in (PREVIOUS_VALUE, NEXT_VALUE):  # Left, Right: the focused row's value
            row = SETUP_ROWS[self.focus]
            if row not in ("names", "start"):  # typed, or a button: no value to move
                self.change_setup_row(row, -1 if event == PREVIOUS_VALUE else 1)
            return []
        if not isinstance(event, Press):
            return []
        key = event.key
        if key in (Key.NEXT, Key.PREVIOUS):
            step = 1 if key is Key.NEXT else -1
            self.focus = (self.focus + step) % len(SETUP_ROWS)
        elif key is Key.OK:
            row = SETUP_ROWS[self.focus]
            if row == "start":
                if self.game is not None and not self.game.is_over and not asked:
                    self._asked_to_abandon = True
                    self.message = Info("start_abandons_the_game")
                    return []
                return self._start_game()
            self.change_setup_row(row)
        elif key is Key.BACK and self.game is not None:
            self.screen = Screen.END if self.game.is_over else Screen.GAME
        return []

    def change_setup_row(self, row: str, step: int = 1) -> None:
        """Move the value of a set-up row on to the next choice (``step`` -1: back to the
        one before), round the choices as OK does."""
        draft = self.draft
        if row == "players":
            draft.players = (draft.players - 2 + step) % 4 + 2  # 2 to 5
            draft.first_player %= draft.players
        elif row == "first_player":
            draft.first_player = (draft.first_player + step) % draft.players
        elif row == "names":
            self.editing_name = 0
            while len(draft.names) < draft.players:
                draft.names.append("")
        elif row == "language":
            index = LANGUAGES.index(draft.language) + step
            draft.language = LANGUAGES[index % len(LANGUAGES)]
        elif row in OPTION_NAMES:
            choices = draft.options.choices(row)
            index = choices.index(draft.options.value(row)) + step
            draft.options = draft.options.with_value(row, choices[index % len(choices)])
            if row == "hand_memory":  # said once, as it is turned on: how to hold the cards
                self.message = (
                    Info("hand_memory_how_to_hold") if draft.options.hand_memory else None
                )

    def _edit_name(self, event: InputEvent) -> list[Effect]:
        draft, seat = self.draft, self.editing_name
        assert seat is not None
        if isinstance(event, TypeText):
            text = "".join(ch for ch in event.text if ch.isprintable())
            draft.names[seat] = (draft.names[seat] + text)[:MAX_NAME_LENGTH]
        elif isinstance(event, Press) and event.key is Key.UNDO:
            draft.names[seat] = draft.names[seat][:-1]
        elif isinstance(event, Press) and event.key in (Key.OK, Key.NEXT):
            self.editing_name = seat + 1 if seat + 1 < draft.players else None
        elif isinstance(event, Press) and event.key is Key.BACK:
            self.editing_name = None
        return []

    def _start_game(self) -> list[Effect]:
        started_at = self._clock() if self._clock else None
        try:
            setup = self.draft.to_setup(started_at)
        except SetupError as error:  # options the rules do not combine
            self.message = (
                Info(error.code)
                if i18n.has_text(error.code)
                else Refused(IllegalAction(str(error)))
            )
            return [Beep("refused")]
        self.game = Game(setup)
        self.screen = Screen.GAME
        self.entry = None
        self.preview = None
        self.page = GamePage.TABLE
        self.message = None
        return [SaveSettings(self.draft.to_settings()), StartGame(setup)]

    # the game

    def _on_game(self, event: InputEvent) -> list[Effect]:
        game = self.game
        assert game is not None
        if isinstance(event, CardScanned):
            return self._scanned(event, None)
        if not isinstance(event, Press):
            return []
        key = event.key
        if key is Key.HINT:
            if not self.hand_memory:
                return self._record(Hint(player=game.position.current))
            return self._start_hint()
        if key in (Key.PLAY, Key.DISCARD):
            try:  # refused whatever the card (all 8 tokens for a discard): said at once
                game.check_kind(Play if key is Key.PLAY else Discard)
            except IllegalAction as error:
                self.message = Refused(error)
                return [Beep("refused")]
            kind = EntryKind.PLAY if key is Key.PLAY else EntryKind.DISCARD
            self.entry = Entry(kind)
            self.preview = None
            self.screen = Screen.ENTRY
            self._acknowledge()  # a refusal said before the entry is not the entry's
        elif key is Key.UNDO:
            return self._ask_undo()
        elif key in (Key.NEXT, Key.PREVIOUS):
            self.turn_page(1 if key is Key.NEXT else -1)
        elif key is Key.OK:
            self._acknowledge()
        return []

    def _start_hint(self) -> list[Effect]:
        """Hand memory: a hint is entered (receiver, clue, slots), unless refused whatever
        it names (no hint token left)."""
        game = self.game
        assert game is not None
        error = self._refusal(Hint(player=game.position.current))
        if error is not None:
            self.message = Refused(error)
            return [Beep("refused")]
        receivers = self.receivers()
        self.entry = Entry(EntryKind.HINT, to=receivers[0] if len(receivers) == 1 else None)
        self.preview = None
        self.screen = Screen.ENTRY
        self._acknowledge()
        return []

    def _refusal(self, action: Action) -> IllegalAction | None:
        """The refusal ``action`` gets, setting aside that its slots are still to come."""
        game = self.game
        assert game is not None
        try:
            game.check(action)
        except IllegalAction as error:
            if error.code not in NOT_YET_COMPLETE:
                return error
        return None

    def _acknowledge(self) -> None:
        """A refusal (or a notice line) has been read: the status line shows the last
        action again."""
        if isinstance(self.message, Refused | Info):
            last = self.last_event()
            self.message = Happened(last) if last is not None else None

    def _scanned(self, event: CardScanned, entry: Entry | None) -> list[Effect]:
        if event.card is None:
            self.message = Info("unknown_tag", (("tag", event.tag),))
            return [Beep("refused")]
        if event.role != "any":
            return self._placed(event.card, event.role)
        if entry is None or entry.kind is EntryKind.HINT:
            entry = Entry(None)
        entry.color, entry.rank = event.card.color, event.card.rank
        entry.choosing_announce = False
        entry.from_reader = True
        self.entry = entry
        self.screen = Screen.ENTRY
        self._update_preview()
        return []

    def _placed(self, card: Card, role: str) -> list[Effect]:
        """A card placed on a play or discard pad: that was the action, recorded at once.

        Refused (a discard with 8 tokens, a card the game has not): said and beeped,
        nothing stored, back to the game screen; any entry under way is replaced.
        """
        kind = EntryKind.PLAY if role == "play" else EntryKind.DISCARD
        self.entry = Entry(kind, card.color, card.rank, from_reader=True)
        self.screen = Screen.ENTRY
        if self.hand_memory:  # the slot is still to say: refused now if it cannot help
            game = self.game
            assert game is not None
            action = Play(card) if kind is EntryKind.PLAY else Discard(card)
            error = self._refusal(replace(action, player=game.position.current))
            if error is None:
                self.preview = None
                self._acknowledge()
                return []
            self._cancel_entry()
            self.message = Refused(error)  # said on the game screen: the pad's card
            return [Beep("refused")]
        effects = self._confirm_entry()
        refusal = self.message
        if isinstance(refusal, Refused):
            self._cancel_entry()
            self.message = refusal
        return effects

    def _on_entry(self, event: InputEvent) -> list[Effect]:
        entry, game = self.entry, self.game
        assert entry is not None and game is not None
        if isinstance(event, CardScanned):
            return self._scanned(event, entry)
        step = self.entry_step()
        if entry.kind is EntryKind.HINT:
            return self._on_hint_entry(event, entry, step)
        if isinstance(event, ChooseSlot):
            return self._choose_slot(event.slot)
        if (
            entry.from_reader
            and not entry.choosing_announce
            and isinstance(event, (ChooseColor, ChooseRank))
        ):
            return []  # a reader read the card: a stray key does not change it (a read does)
        if isinstance(event, ChooseColor):
            try:  # a colour this game has not (multicolor in a base game): said at once
                game.check_color(event.color)
            except IllegalAction as error:
                self.message = Refused(error)
                return [Beep("refused")]
            if entry.choosing_announce:
                entry.announce = event.color
                entry.choosing_announce = False
            else:
                entry.color = event.color
            self._acknowledge()  # the refusal said before this choice has been read
        elif isinstance(event, ChooseRank) and 1 <= event.rank <= 5:
            entry.rank = event.rank
            self._acknowledge()
        elif isinstance(event, Press):
            key = event.key
            if key is Key.BACK:
                return self._cancel_entry()
            if key is Key.ERASE:
                return self._erase_last_choice()
            if step is EntryStep.KIND and key in (Key.PLAY, Key.DISCARD):
                return self._kind_of_scanned(key)
            refusal = self.entry_refusal()
            if key is Key.OK and refusal is not None:
                return self._change_refused_choice(refusal)
            if step is EntryStep.CONFIRM and key is Key.OK:
                return self._confirm_entry()
            announcing = game.setup.options.timed_display and entry.kind is EntryKind.PLAY
            if key is Key.PREVIOUS and announcing and step is not EntryStep.ANNOUNCE:
                # announcing is offered from the start of a play entry, not only at the end
                entry.choosing_announce = True
            elif step is EntryStep.CONFIRM and key is Key.NEXT and announcing:
                entry.announce = None
            elif key in SOFT_KEYS:
                return self._soft_key(key)
        self._update_preview()
        return []

    def _soft_key(self, key: Key) -> list[Effect]:
        """A button on the entry screen: the choice shown above it, if any."""
        choices = self.soft_choices()
        index = SOFT_KEYS.index(key)
        if index < len(choices):
            return self._on_entry(choice_event(choices[index]))
        self._update_preview()
        return []

    def _kind_of_scanned(self, key: Key) -> list[Effect]:
        """Scanned first: the press says what was done with the card, and records it
        (with hand memory, once the slot is said)."""
        entry = self.entry
        assert entry is not None
        entry.kind = EntryKind.PLAY if key is Key.PLAY else EntryKind.DISCARD
        if self.hand_memory and entry.slot is None:
            game = self.game
            assert game is not None
            card = entry.card
            assert card is not None
            action = Play(card) if entry.kind is EntryKind.PLAY else Discard(card)
            error = self._refusal(replace(action, player=game.position.current))
            if error is not None:
                self.message = Refused(error)
                entry.kind = None  # still "play or discard?": the other may be legal
                return [Beep("refused")]
            self._update_preview()
            return []
        effects = self._confirm_entry()
        if isinstance(self.message, Refused):
            entry.kind = None  # still "play or discard?": the other may be legal
        return effects

    def _choose_slot(self, slot: int) -> list[Effect]:
        """Where the played or discarded card came from: refused at once if the hand has
        no such slot; a card read by a reader is then recorded (no OK)."""
        entry, game = self.entry, self.game
        assert entry is not None and game is not None
        if not self.hand_memory:
            return []
        try:
            game.check_slot(slot)
        except IllegalAction as error:
            self.message = Refused(error)
            return [Beep("refused")]
        entry.slot = slot
        self._acknowledge()
        if entry.from_reader and entry.action(0, hand_memory=True) is not None:
            effects = self._confirm_entry()
            if isinstance(self.message, Refused):
                entry.slot = None  # the card cannot be there: the table says another slot
                self.preview = None
            return effects
        self._update_preview()
        return []

    def _on_hint_entry(
        self, event: InputEvent, entry: Entry, step: EntryStep | None
    ) -> list[Effect]:
        """Hand memory: a hint's receiver, its colour or rank, the slots it touched, OK."""
        game = self.game
        assert game is not None
        player = game.position.current
        if isinstance(event, Press):
            key = event.key
            if key is Key.BACK:
                return self._cancel_entry()
            if key is Key.ERASE:
                return self._erase_last_choice()
            refusal = self.entry_refusal()
            if key is Key.OK and refusal is not None:
                return self._change_refused_choice(refusal)
            if step is EntryStep.SLOTS and key is Key.OK:
                return self._confirm_entry()
            if key in SOFT_KEYS:
                return self._soft_key(key)
            return []
        if event == MORE_CLUES and step is EntryStep.CLUE:
            entry.clue_page = (entry.clue_page + 1) % len(self.clue_pages())
            return []
        if step is EntryStep.RECEIVER and isinstance(event, ChooseSeat | ChooseSlot):
            # a tap on a slot of a player's hand picks the receiver and that slot at once
            seat = event.seat
            if seat is None:
                return []
            players = game.setup.players
            if not 0 <= seat < players:  # a key beyond the table: said as the keys count
                self.message = Info("entry_no_such_seat", (("n", seat + 1), ("players", players)))
                return [Beep("refused")]
            error = self._refusal(Hint(seat, player=player))  # one's own seat: said why
            if error is not None:
                self.message = Refused(error)
                return [Beep("refused")]
            entry.to = seat
            if isinstance(event, ChooseSlot) and 1 <= event.slot <= game.position.hands[seat]:
                entry.touched = (event.slot,)
            self._acknowledge()
            return []
        clue: Clue | None = None
        if isinstance(event, ChooseColor):
            clue = event.color
        elif isinstance(event, ChooseRank) and 1 <= event.rank <= 5:
            clue = event.rank
        if clue is not None and step is EntryStep.CLUE:
            color, rank = _clue_parts(clue)
            error = self._refusal(Hint(entry.to, color, rank, player=player))
            if error is not None:  # a colour this game has not, wild multicolor
                self.message = Refused(error)
                return [Beep("refused")]
            entry.clue = clue
            self._acknowledge()
        elif isinstance(event, ChooseSlot) and step in (EntryStep.CLUE, EntryStep.SLOTS):
            assert entry.to is not None
            if event.seat in (None, entry.to) and 1 <= event.slot <= game.position.hands[entry.to]:
                touched = entry.touched
                entry.touched = (
                    tuple(s for s in touched if s != event.slot)
                    if event.slot in touched
                    else (*touched, event.slot)
                )
                self._acknowledge()
        self._update_preview()
        return []

    def _update_preview(self) -> None:
        entry, game = self.entry, self.game
        self.preview = None
        if entry is None or game is None:
            return
        player = game.position.current
        if entry.kind is EntryKind.HINT:
            hint = entry.action(player)
            if hint is not None and entry.touched:  # nothing touched yet: nothing to say
                try:
                    self.preview = game.preview(hint)
                except IllegalAction as error:
                    self.preview = error
            return
        if entry.card is None:
            return
        action = entry.action(player, hand_memory=self.hand_memory)
        if action is None:
            if self.hand_memory:
                return  # no preview before the slot is known: where it was decides
            action = Play(entry.card, player=player)
        try:
            self.preview = game.preview(action)
        except IllegalAction as error:
            self.preview = error

    def _erase_last_choice(self) -> list[Effect]:
        """Step back one choice (announce, rank, colour, slot; a hint's slots, clue,
        receiver); with none left, leave the entry."""
        entry = self.entry
        assert entry is not None
        if entry.kind is EntryKind.HINT:
            if entry.touched:
                entry.touched = entry.touched[:-1]
            elif entry.clue is not None:
                entry.clue = None
            elif entry.to is not None and len(self.receivers()) > 1:
                entry.to = None
            else:
                return self._cancel_entry()
        elif entry.choosing_announce:
            entry.choosing_announce = False
        elif entry.announce is not None:
            entry.announce = None
        elif entry.rank is not None:
            entry.rank = None
        elif entry.color is not None:
            entry.color = None
        elif entry.slot is not None:
            entry.slot = None
        else:
            return self._cancel_entry()
        self._update_preview()
        return []

    def _cancel_entry(self) -> list[Effect]:
        """Leave the entry: the game screen shows the last action again (a refusal said
        during the entry was the entry's)."""
        self.entry = None
        self.preview = None
        self.screen = Screen.GAME
        self._acknowledge()
        return []

    def entry_refusal(self) -> IllegalAction | None:
        """Why the entry, complete, would be refused (then OK changes it), or None."""
        if self.entry is None or not isinstance(self.preview, IllegalAction):
            return None
        if self.entry_step() not in (EntryStep.CONFIRM, EntryStep.SLOTS):
            return None
        return self.preview

    def _change_refused_choice(self, error: IllegalAction) -> list[Effect]:
        """OK on a refused play or discard: the choice the refusal is about is asked again
        (the card's slot, else the card), the refusal said until it is. A refused hint
        is still at its slots, the choice to change: OK is not offered, it only beeps."""
        entry = self.entry
        assert entry is not None
        self.message = Refused(error)
        if entry.kind is EntryKind.HINT:
            return [Beep("refused")]
        if error.code in SLOT_REFUSALS:
            entry.slot = None
        else:  # the card: a reader's read is typed or picked this time
            entry.color = entry.rank = entry.announce = None
            entry.from_reader = False
        self._update_preview()
        return [Beep("refused")]

    def _confirm_entry(self) -> list[Effect]:
        entry, game = self.entry, self.game
        assert entry is not None and game is not None
        action = entry.action(game.position.current, hand_memory=self.hand_memory)
        if action is None:
            return []
        effects = self._record(action)
        if isinstance(self.message, Refused):
            self.screen = Screen.ENTRY  # stay: the players fix the card or cancel
            self.preview = self.message.error
        return effects

    def _record(self, action: Action) -> list[Effect]:
        game = self.game
        assert game is not None
        try:
            event = game.apply(action)
        except IllegalAction as error:
            self.message = Refused(error)
            return [Beep("refused")]
        self.message = Happened(event)
        self.entry = None
        self.preview = None
        effects: list[Effect] = [RecordAction(action)]
        if event.fuse_burnt:
            effects.append(Beep("misplay"))
        if game.is_over:
            self.screen = Screen.END
            self.page = GamePage.TABLE
            effects.append(FinishGame())
        else:
            self.screen = Screen.GAME
        return effects

    # undo

    def _ask_undo(self) -> list[Effect]:
        game = self.game
        if game is None or not game.actions:
            self.message = Info("undo_nothing")
            return [Beep("refused")]
        self._return_to = self.screen
        self.screen = Screen.UNDO
        return []

    def _on_undo(self, event: InputEvent) -> list[Effect]:
        game = self.game
        assert game is not None
        if not isinstance(event, Press):
            return []
        if event.key is Key.OK:
            undone = game.events[-1]
            game.undo()
            self.message = Undone(undone)
            self.screen = Screen.GAME  # undo after the end goes back into the game
            return [RecordUndo()]
        if event.key in (Key.BACK, Key.UNDO):
            self.screen = Screen.END if game.is_over else Screen.GAME
        return []

    def take_back(self, game: Game | None, message: Message) -> None:
        """Show ``game`` as it is stored, after an effect could not be stored (a full
        card): whatever was shown unsaved is dropped, any entry is closed."""
        unchanged = (
            game is not None
            and self.game is not None
            and game.setup == self.game.setup
            and game.actions == self.game.actions
        )
        self.game = game
        self.message = message
        if unchanged:
            return  # e.g. a remembered setting: the game on screen is the stored one
        self.entry = None
        self.preview = None
        self.screen = (
            Screen.SETUP if game is None else (Screen.END if game.is_over else Screen.GAME)
        )

    # phones as input (issue 22)

    def _phone_move(self, move: PhoneMove) -> list[Effect]:
        """A paired phone's action, undo or preview: checked as the panel's, against the
        position the phone saw; answered (and, accepted, recorded) by the app."""
        phone = self.paired.get(move.token_hash)
        if phone is None:
            return [PhoneReply(move, 0, Info("phone_not_paired"), False, 401)]
        game = self.game
        keep = not move.preview_only
        if game is None:
            return [PhoneReply(move, phone.id, Info("phone_no_game"), False, 409, keep=keep)]
        count = len(game.actions)
        if move.position != count:
            if move.position < count:
                what = i18n.describe_event(self.language, game.events[-1], game.setup.names)
                moved: Info = Info("phone_moved_on", (("what", what),))
            else:
                moved = Info("phone_moved_back")
            return [PhoneReply(move, phone.id, moved, False, 409, count, keep=keep)]
        if move.action is None:
            return self._phone_undo(move, phone)
        action = replace(move.action, player=game.position.current)
        if move.preview_only:
            try:
                event = game.preview(action)
            except IllegalAction as error:
                return [PhoneReply(move, phone.id, Refused(error), False, 200, count)]
            return [PhoneReply(move, phone.id, None, True, 200, count, preview=event)]
        try:
            event = game.apply(action)
        except IllegalAction as error:
            return [PhoneReply(move, phone.id, Refused(error), False, 409, count, keep=True)]
        self.message = Happened(event, by=phone.name)
        self._moved_by_phone()
        reply = PhoneReply(move, phone.id, self.message, True, 200, len(game.actions))
        effects: list[Effect] = [RecordAction(action, reply)]
        if event.fuse_burnt:
            effects.append(Beep("misplay"))
        if game.is_over:
            effects.append(FinishGame())
        return effects

    def _phone_undo(self, move: PhoneMove, phone: PairedPhone) -> list[Effect]:
        game = self.game
        assert game is not None
        if not game.actions:
            keep = not move.preview_only
            return [PhoneReply(move, phone.id, Info("undo_nothing"), False, 409, 0, keep=keep)]
        undone = game.events[-1]
        if move.preview_only:
            message = Undone(undone, by=phone.name)
            return [PhoneReply(move, phone.id, message, True, 200, len(game.actions))]
        game.undo()
        self.message = Undone(undone, by=phone.name)
        self._moved_by_phone()
        reply = PhoneReply(move, phone.id, self.message, True, 200, len(game.actions))
        return [RecordUndo(reply)]

    def _moved_by_phone(self) -> None:
        """A phone changed the game: an entry or an undo question under way on the panel
        was about the position before, and is closed; the panel shows the game (a menu,
        the help or the history stays open, and goes back to the game)."""
        game = self.game
        assert game is not None
        self.entry = None
        self.preview = None
        shown = Screen.END if game.is_over else Screen.GAME
        if self.screen in (Screen.GAME, Screen.ENTRY, Screen.UNDO, Screen.END):
            if self.screen is not shown:
                self.page = GamePage.TABLE
            self.screen = shown
        elif self._return_to in (Screen.GAME, Screen.ENTRY, Screen.UNDO, Screen.END):
            self._return_to = shown

    def _phone_pair(self, request: PhonePair) -> list[Effect]:
        """Pairing needs the code the Phones page shows, while it shows it: someone at
        the table opened it. Too many wrong codes and the page shows a new one."""
        code = self.pairing_code
        if self.screen is not Screen.PHONES or code is None:
            return [PhoneReply(request, 0, Info("phone_pair_page_closed"), False, 403)]
        import hmac  # a phone pairing: not at start

        if not hmac.compare_digest(request.code.encode(), code.encode()):
            self.pairing_tries += 1
            effects: list[Effect] = [PhoneReply(request, 0, Info("phone_pair_wrong"), False, 403)]
            if self.pairing_tries >= PAIRING_TRIES:
                effects.append(NewPairingCode())
            return effects
        return [PairPhone(request)]

    def last_event(self) -> Event | None:
        game = self.game
        return game.events[-1] if game and game.events else None

    # the end

    def _on_end(self, event: InputEvent) -> list[Effect]:
        if not isinstance(event, Press):
            return []
        if event.key is Key.UNDO:
            return self._ask_undo()
        if event.key is Key.OK:
            self.screen = Screen.SETUP
            self.focus = SETUP_ROWS.index("start")
            self._acknowledge()  # the set-up says its own lines, not the game's
        elif event.key in (Key.NEXT, Key.PREVIOUS):  # the pile, the actions, the result
            self.turn_page(1 if event.key is Key.NEXT else -1)
        return []

    # menu, history, help

    def _on_menu(self, event: InputEvent) -> list[Effect]:
        rows = self.menu_rows()
        if isinstance(event, Select) and event.target in rows:
            return self.choose_menu(event.target)
        if event in (PREVIOUS_VALUE, NEXT_VALUE) and rows[self.menu_focus] == "language":
            self.change_setup_row("language", -1 if event == PREVIOUS_VALUE else 1)
            return [SaveSettings(self.draft.to_settings())]
        if not isinstance(event, Press):
            return []
        key = event.key
        if key in (Key.NEXT, Key.PREVIOUS):
            step = 1 if key is Key.NEXT else -1
            self.menu_focus = (self.menu_focus + step) % len(rows)
            return []
        if key is Key.BACK:
            self.screen = self._back_screen()
            return []
        if key is Key.OK:
            return self.choose_menu(rows[self.menu_focus])
        return []

    def choose_menu(self, row: str) -> list[Effect]:
        """Act on a menu row (by OK on the focused row, or a tap)."""
        if row == "resume":
            self.screen = self._back_screen()
        elif row == "new_game":
            self.screen = Screen.SETUP
            self.focus = SETUP_ROWS.index("start")
            self._acknowledge()  # the set-up says its own lines, not the game's
        elif row == "history":
            self.screen = Screen.HISTORY
            self.scroll = 0
            return [LoadHistory()]
        elif row == "help":
            self.screen = Screen.HELP
            self.scroll = 0
        elif row == "language":
            self.change_setup_row("language")
            return [SaveSettings(self.draft.to_settings())]
        elif row == "phones":
            self.screen = Screen.PHONES
            self.phone_focus = None
            return [NewPairingCode()]  # a code for this visit of the page only
        elif row == QUIT_ROW and self.can_quit:
            return [Quit()]
        return []

    def _back_screen(self) -> Screen:
        if self.game is None:
            return Screen.SETUP
        if self._return_to in (Screen.MENU, Screen.HELP, Screen.HISTORY, Screen.PHONES):
            return Screen.END if self.game.is_over else Screen.GAME
        if self._return_to is Screen.ENTRY and self.entry is None:
            return Screen.GAME
        return self._return_to

    def history_focus(self) -> HistoryRow | None:
        """The game at the top of the history list (NEXT and PREVIOUS move it)."""
        games = self.history[0] if self.history else []
        return games[self.scroll] if self.scroll < len(games) else None

    def _on_history(self, event: InputEvent) -> list[Effect]:
        focused = self.history_focus()
        resumable = focused is not None and focused.resumable
        # Resuming while another game is unfinished asks first, as Start does; the
        # question lasts one input.
        asked, self._asked_to_abandon = self._asked_to_abandon, False
        if self.message == Info("resume_abandons_the_game"):
            self._acknowledge()
        if isinstance(event, Select) and event.target == RESUME_ROW and resumable:
            event = Press(Key.OK)
        if isinstance(event, Press):
            games = len(self.history[0]) if self.history else 0
            if event.key is Key.NEXT:
                self.scroll = min(self.scroll + 1, max(0, games - 1))
                if self.history and self.history_more and self.scroll + HISTORY_PAGE // 2 >= games:
                    return [LoadHistory(before=self.history[0][-1].id)]
            elif event.key is Key.PREVIOUS:
                self.scroll = max(0, self.scroll - 1)
            elif event.key is Key.OK and resumable:
                assert focused is not None
                in_play = focused.status == "playing"  # the game on screen: nothing lost
                game = self.game
                if game is not None and not game.is_over and not in_play and not asked:
                    self._asked_to_abandon = True
                    self.message = Info("resume_abandons_the_game")
                    return []
                return [ResumeGame(focused.id)]  # the app loads it, then take_up()
            elif event.key in (Key.BACK, Key.OK):
                self.screen = self._back_screen()
        return []

    def show_history_page(
        self, games: list[HistoryRow], more: bool, stats: list[StatsRow] | None = None
    ) -> None:
        """The app's answer to :class:`LoadHistory`: a first page (with the statistics)
        replaces the list, a later one (``stats`` None) is added after it. ``more``: older
        games remain to be read."""
        if stats is not None or self.history is None:
            self.history = (games, stats or [])
        else:
            self.history = (self.history[0] + games, self.history[1])
        self.history_more = more

    def take_up(self, game: Game) -> None:
        """Play on a game taken up again (resumed from the history): its screen, its
        last action said, as after a restart."""
        self.game = game
        self.entry = None
        self.preview = None
        self.page = GamePage.TABLE
        self.screen = Screen.END if game.is_over else Screen.GAME
        self.message = Happened(game.events[-1]) if game.events else None

    def _on_help(self, event: InputEvent) -> list[Effect]:
        if isinstance(event, Press):
            if event.key is Key.NEXT:
                self.scroll += 1
            elif event.key is Key.PREVIOUS:
                self.scroll = max(0, self.scroll - 1)
            elif event.key in (Key.BACK, Key.OK, Key.HELP):
                self.screen = self._back_screen()
        return []

    def paired_phones(self) -> list[PairedPhone]:
        """The paired phones as the Phones page lists them: the first paired first."""
        return sorted(self.paired.values(), key=lambda phone: phone.id)

    def focused_phone(self) -> PairedPhone | None:
        """The paired phone at the Phones page's focus; None: the page shows its code.
        A phone removed meanwhile moves the focus to the one listed after it (or before
        it, the last one gone; none left: back to the code)."""
        phones = self.paired_phones()
        if self.phone_focus is None or not phones:
            return None
        return phones[min(self.phone_focus, len(phones) - 1)]

    def _on_phones(self, event: InputEvent) -> list[Effect]:
        """The Phones page: its pairing code, then (NEXT, PREVIOUS, round) each paired
        phone in turn, listed; OK removes the phone at the focus, and on the code goes
        back, as BACK does (BACK on the list: to the code). Its buttons make a new table
        code and remove a paired phone (a tap on one, wherever the focus is)."""
        if event == NEW_CODE and self.phones_url is not None:
            return [NewTableCode()]
        if isinstance(event, Select) and event.target.startswith(REMOVE_PHONE):
            phone_id = event.target.removeprefix(REMOVE_PHONE)
            if phone_id.isdigit() and any(p.id == int(phone_id) for p in self.paired.values()):
                return [UnpairPhone(int(phone_id))]
            return []
        if not isinstance(event, Press):
            return []
        focused, phones = self.focused_phone(), self.paired_phones()
        self.phone_focus = None if focused is None else phones.index(focused)
        count = len(phones)
        if event.key in (Key.NEXT, Key.PREVIOUS) and count:
            # the code, the first phone, ..., the last phone, the code again
            places = [None, *range(count)]
            step = 1 if event.key is Key.NEXT else -1
            self.phone_focus = places[(places.index(self.phone_focus) + step) % len(places)]
        elif event.key is Key.OK and focused is not None:
            return [UnpairPhone(focused.id)]
        elif event.key is Key.BACK and focused is not None:
            self.phone_focus = None
        elif event.key in (Key.BACK, Key.OK):
            self.screen = self._back_screen()
        return []


def choice_event(choice: object) -> InputEvent:
    """The input event a soft choice stands for (a colour, a rank, or an event)."""
    if isinstance(choice, ChooseColor | ChooseRank | ChooseSeat | ChooseSlot | Select):
        return choice
    if isinstance(choice, Color):
        return ChooseColor(choice)
    assert isinstance(choice, int)
    return ChooseRank(choice)
