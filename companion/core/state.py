"""The controller's state: what every flow reads and changes, and the steps they share.

The controller is one object made of mixins, one per flow (the set-up, the entry, the
menu and its screens, the history, the phones): each is a class over
:class:`ControllerState`, which holds every attribute and the steps more than one flow
takes (record an action, take one back, acknowledge a refusal, go back from a screen).
A flow that hands over to another flow's step names that flow among its bases.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, NamedTuple

from companion.core.draft import SETUP_ROWS, SetupDraft
from companion.core.effects import (
    Beep,
    Effect,
    FinishGame,
    Happened,
    Info,
    Message,
    PhoneOutcome,
    PhoneReply,
    RecordAction,
    RecordUndo,
    Refused,
    Undone,
)
from companion.core.hint_level import UNKNOWN_HINT_LEVEL, HintLevel
from companion.core.i18n import tr
from companion.vocabulary.phone import PairedPhone, PhoneMove, PhonePair
from engine.actions import Action
from engine.errors import IllegalAction
from engine.game import Event, Game
from engine.hanab_live import NotExportable, replay_url
from engine.reveal import Reveals
from hardware.events import Select

if TYPE_CHECKING:
    from companion.core.entry import Entry
    from companion.core.results import History
    from companion.core.reveal_entry import RevealEntry
    from companion.vocabulary.records import Finding, PlayerStatsRow


class Screen(Enum):
    """One of the screens the companion shows."""

    SETUP = "setup"
    GAME = "game"
    ENTRY = "entry"  # entering a play or a discard, with its confirm step
    UNDO = "undo"  # confirming an undo
    END = "end"
    MENU = "menu"
    HISTORY = "history"
    HELP = "help"
    PHONES = "phones"  # the page for phones: its QR code, URL, pairing code; the paired phones
    REVEAL = "reveal"  # the end: the hands shown, seat by seat, card by card


class ReplayEnd(NamedTuple):
    """The Hanab Live replay of a finished game: its link, or ("", why there is none)."""

    link: str
    why_not: str


class GamePage(Enum):
    """One of the pages NEXT turns through on the game screen (and the end screen)."""

    TABLE = "table"  # the fireworks, the tokens, what just happened (the end: the result)
    DISCARDS = "discards"  # the whole discard pile
    ACTIONS = "actions"  # the recent actions, newest first
    HANDS = "hands"  # hand memory: every player's hand
    STORY = "story"  # the end: the curve turn by turn, and why the best score dropped
    PLAY_LOG = "play_log"  # the end: the QR code that logs the play in BG Stats
    REPLAY = "replay"  # the end, every hand shown: the QR code of the Hanab Live replay


#: The end screen's pages: the result, the discard pile, the actions, (with hand memory
#: every player's hand, as on the game screen,) the story; then, once the app has made
#: its link, the QR code that logs the play in BG Stats.
END_PAGES = (GamePage.TABLE, GamePage.DISCARDS, GamePage.ACTIONS, GamePage.STORY)

#: The screens that show the game in play (an entry or an undo question over it, the
#: hands shown at its end).
GAME_SCREENS = (Screen.GAME, Screen.ENTRY, Screen.UNDO, Screen.END, Screen.REVEAL)

#: Left and Right on a row that shows ‹ value › (the set-up, the menu's language): the
#: value moves back or on; Up and Down (NEXT, PREVIOUS) move between the rows.
PREVIOUS_VALUE = Select("previous_value")
NEXT_VALUE = Select("next_value")
#: A tap on a variant in the set-up's search: this prefix, then its name ("": no variant).
VARIANT_PICK = "variant:"

MENU_ROWS = ("resume", "new_game", "history", "help", "language", "phones")
#: The menu's last row on a desktop: a window can be closed from the menu (under
#: systemd the service would only start again, so the appliance has no Quit).
QUIT_ROW = "quit"


def game_screen(game: Game | None) -> Screen:
    """The screen that shows ``game``: the set-up without one, the end once it is over."""
    if game is None:
        return Screen.SETUP
    return Screen.END if game.is_over else Screen.GAME


class ControllerState:
    """The state every flow of the controller shares, and the steps they share."""

    def __init__(
        self,
        draft: SetupDraft,
        game: Game | None = None,
        *,
        clock: Callable[[], str] | None = None,
        hint_level: HintLevel | None = None,
    ) -> None:
        self.draft = draft
        self.game = game
        #: Without hand memory, whether the game in play records a hint's colour or rank
        #: (the content level) or only that it was given (count): set with the game, from
        #: the set-up or as stored with it (a game stored without a level: count).
        self.hint_content = (hint_level or UNKNOWN_HINT_LEVEL) is HintLevel.CONTENT
        self.screen = game_screen(game)
        self.entry: Entry | None = None
        self.preview: Event | IllegalAction | None = None
        #: The hand being shown at the end (the reveal screen), as far as it is entered.
        self.reveal_entry: RevealEntry | None = None
        #: The hands shown at the end of the game on screen (:attr:`reveals`).
        self._reveals: Reveals | None = None
        #: The Hanab Live replay (:meth:`replay_end`) and what it was made for.
        self._replay: tuple[tuple[object, ...], ReplayEnd | None] | None = None
        # A game taken up again (a restart, `render`) shows its last action, as the
        # table saw it before: the screen after a crash is the screen before it.
        self.message: Message | None = (
            Happened(game.events[-1]) if game is not None and game.events else None
        )
        #: A problem found at start (damaged database moved aside, GPIO unusable).
        self.startup_notice: str | None = None
        #: What storage found and no player has acknowledged yet (OK over the banner).
        self.findings: tuple[Finding, ...] = ()
        #: The current problem of each input device ("scanner disconnected"), by device.
        self.device_notices: dict[str, str] = {}
        self.focus = SETUP_ROWS.index("start")
        self.menu_focus = 0
        #: Whether the menu offers Quit (a desktop window, not the appliance's service).
        self.can_quit = False
        self.editing_name: int | None = None
        #: The name being typed is selected, as a text field's is when it is entered: the
        #: first character typed replaces it (BackSpace erases it), then typing adds.
        self.name_selected = False
        #: The variant search's typed letters while it is open (None: closed), and the
        #: position of the variant picked in what they leave (companion/core/variant_pick).
        self.variant_search: str | None = None
        self.variant_pick = 0
        self.history: History | None = None  # filled by HistoryLoaded after LoadHistory
        self.history_more = False  # older games than those in ``history`` remain unread
        #: The figures per player name, read with the history's first page.
        self.player_stats: list[PlayerStatsRow] = []
        self.scroll = 0  # the first row shown on the history and help screens
        self.page = GamePage.TABLE  # the game (or end) screen's page
        #: Whether the panel shows the discard pile on the table page (beside the
        #: fireworks on a wide panel, below them on a tall one): then it has no page of
        #: its own. The app tells it (:class:`~companion.core.results.PanelLayout`).
        self.pile_on_table = False
        #: The actions page: how many of the newest actions it skips (NEXT goes back a page
        #: at a time, to the first action, then on to the next page), and how many a page
        #: holds, as the panel drew it (:class:`~companion.core.results.PanelLayout`).
        self.actions_back = 0
        self.actions_per_page = 0
        #: Where each page NEXT left was (PREVIOUS comes back to it, page sizes vary).
        self._actions_trail: list[int] = []
        self._return_to = Screen.GAME
        self._clock = clock
        self._asked_to_abandon = False
        #: The phones that may enter actions, by their token's hash (the app keeps it).
        self.paired: dict[bytes, PairedPhone] = {}
        #: The code the Phones page shows for pairing a phone (the app makes it); a wrong
        #: code tried against it never changes it (the person typing it is not refused).
        self.pairing_code: str | None = None
        #: A phone that gave the right code, waiting for the panel's OK ("Pair Di's
        #: phone? OK"): the code alone pairs nothing.
        self.pending_pair: PhonePair | None = None
        #: When the panel began asking (the clock's ISO time; None without a clock).
        self.pending_since: str | None = None
        #: A paired phone the panel asks about removing ("Remove Di's phone? OK"): its
        #: id, until OK removes it or Cancel keeps it (a tap alone removes nothing).
        self.pending_remove: int | None = None
        #: Wrong codes tried against this pairing code, by address (the server's key).
        self.pairing_misses: dict[str, int] = {}
        #: Where the Phones page is: None on its pairing code (the QR code, the URL, the
        #: code), else at a paired phone (its place in ``paired_phones()``): the page
        #: then lists them, NEXT and PREVIOUS move along, OK removes the one at the focus.
        self.phone_focus: int | None = None
        #: The URL of the page for phones (told by the app when it serves one), else None.
        self.phones_url: str | None = None
        #: The link that logs the finished game in BG Stats (the app makes it when the game
        #: is stored finished), and the number of actions of the game it logs.
        self.play_link: tuple[str, int] | None = None

    # -- reading -----------------------------------------------------------

    @property
    def language(self) -> str:
        return self.draft.language

    @property
    def names(self) -> tuple[str, ...]:
        return self.game.setup.names if self.game else ()

    @property
    def notice(self) -> str | None:
        """What the banner says: the devices' problems, the oldest finding not yet seen (and
        how to say it was: OK; the next one follows), then the start-up one."""
        parts = [*self.device_notices.values()]
        if self.findings:  # one at a time, how to say it was read first: never cut short
            first = self.findings[0]
            count = len(self.findings)
            how = (
                tr(self.language, "findings_ok_of", index=1, count=count)
                if count > 1
                else tr(self.language, "findings_ok")
            )
            parts.append(f"{how} {tr(self.language, first.key, **first.params)}")
        if self.startup_notice:
            parts.append(self.startup_notice)
        return " · ".join(parts) or None

    @notice.setter
    def notice(self, text: str | None) -> None:
        self.startup_notice = text

    def findings_words(self) -> list[str]:
        """The findings not yet acknowledged, in the table's language, oldest first."""
        return [tr(self.language, f.key, **f.params) for f in self.findings]

    def menu_rows(self) -> tuple[str, ...]:
        """The menu's rows, top to bottom."""
        return (*MENU_ROWS, QUIT_ROW) if self.can_quit else MENU_ROWS

    def wants_text(self) -> bool:
        """True while a name is being typed (the keyboard then sends text)."""
        return self.editing_name is not None or self.variant_search is not None

    @property
    def hand_memory(self) -> bool:
        """Whether the game in play records slots (the option ``hand_memory``)."""
        return self.game is not None and self.game.setup.options.hand_memory

    @property
    def reveals(self) -> Reveals:
        """The hands shown at the end of the game on screen (none yet for a game that is
        not the one they were shown for: a new game, one taken back or up again)."""
        game = self.game
        assert game is not None
        if self._reveals is None or self._reveals.game is not game:
            self._reveals = Reveals(game)
        return self._reveals

    @property
    def hint_level(self) -> HintLevel:
        """What the game in play records of a hint: slots (hand memory), content or count."""
        return HintLevel.of(hand_memory=self.hand_memory, content=self.hint_content)

    @property
    def pages(self) -> tuple[GamePage, ...]:
        """The pages NEXT turns through: the table, the discard pile (unless the table
        shows it), the recent actions, and with hand memory every player's hand; at the
        end, the result, the discard pile, the actions, with hand memory the hands as the
        game left them, the story, the Hanab Live replay once every hand is shown, and the
        BG Stats code once its link is made."""
        memory = (GamePage.HANDS,) if self.hand_memory else ()
        if self.screen is Screen.END:
            link = (GamePage.PLAY_LOG,) if self.end_link() else ()
            replay = (GamePage.REPLAY,) if self.replay_end() else ()
            return (*END_PAGES[:-1], *memory, END_PAGES[-1], *replay, *link)
        pages = [GamePage.TABLE]
        if not self.pile_on_table:
            pages.append(GamePage.DISCARDS)
        pages.append(GamePage.ACTIONS)
        return (*pages, *memory)

    def end_link(self) -> str | None:
        """The BG Stats link of the game on screen, once it is over and the app made it."""
        game, link = self.game, self.play_link
        if game is None or link is None or not game.is_over or link[1] != len(game.actions):
            return None
        return link[0]

    def replay_end(self) -> ReplayEnd | None:
        """The Hanab Live replay of the finished game once every hand is shown (its link,
        or the sentence saying why there is none); None before. Made once per game and
        hands shown, not once per frame."""
        game = self.game
        if game is None or not game.is_over or not self.hand_memory:
            return None
        reveals = self.reveals
        key = (id(game), len(game.actions), *reveals.shown)
        if self._replay is None or self._replay[0] != key:
            end: ReplayEnd | None = None
            if reveals.complete:
                try:
                    end = ReplayEnd(replay_url(game, reveals.shown), "")
                except NotExportable as error:
                    end = ReplayEnd("", str(error))
            self._replay = (key, end)
        return self._replay[1]

    def turn_page(self, step: int) -> None:
        """NEXT (``+1``) or PREVIOUS (``-1``): the next or previous page, round. On the
        actions page NEXT first goes back to older actions, a page at a time, until the
        first one is shown; PREVIOUS comes back to the newest first."""
        if self.page is GamePage.ACTIONS and self._scroll_actions(step):
            return
        pages = self.pages
        here = pages.index(self.page) if self.page in pages else 0
        self.page = pages[(here + step) % len(pages)]
        self.actions_back = 0  # a page turned to shows the newest actions first
        self._actions_trail = []

    def _scroll_actions(self, step: int) -> bool:
        """The actions page moved a page older (``+1``) or newer (``-1``); False when it
        is already at the first (the newest) action that way."""
        count = len(self.game.events) if self.game else 0
        per_page = self.actions_per_page
        if per_page <= 0:
            return False
        if step > 0 and self.actions_back + per_page < count:
            self._actions_trail.append(self.actions_back)
            self.actions_back += per_page
            return True
        if step < 0 and self.actions_back > 0:
            trail = self._actions_trail
            self.actions_back = trail.pop() if trail else max(0, self.actions_back - per_page)
            return True
        return False

    def last_event(self) -> Event | None:
        game = self.game
        return game.events[-1] if game and game.events else None

    # -- steps the flows share ---------------------------------------------

    def _acknowledge(self) -> None:
        """A refusal (or a notice line) has been read: the status line shows the last
        action again."""
        if isinstance(self.message, Refused | Info):
            last = self.last_event()
            self.message = Happened(last) if last is not None else None

    def _back_screen(self) -> Screen:
        """Where BACK goes from the menu, the help, the history or the Phones page."""
        if self.game is None:
            return Screen.SETUP
        if self._return_to in (Screen.MENU, Screen.HELP, Screen.HISTORY, Screen.PHONES):
            return game_screen(self.game)
        if self._return_to is Screen.ENTRY and self.entry is None:
            return Screen.GAME
        return self._return_to

    def _record(
        self, action: Action, phone: PairedPhone | None = None, move: PhoneMove | None = None
    ) -> list[Effect]:
        """Apply and record ``action``: the one path of an action entered on the panel
        and of one a phone sent (``phone`` and its ``move``, answered once stored).
        Refused, nothing changes: the panel says it and beeps, the phone is answered."""
        game = self.game
        assert game is not None
        try:
            event = game.apply(action)
        except IllegalAction as error:
            if phone is None or move is None:
                self.message = Refused(error)
                return [Beep("refused")]
            outcome, count = PhoneOutcome.REFUSED, len(game.actions)
            return [PhoneReply(move, phone.id, Refused(error), outcome, count, keep=True)]
        self.message = Happened(event, by="" if phone is None else phone.name)
        self.actions_back, self._actions_trail = 0, []  # the actions page: this one first
        reply = None
        if phone is None or move is None:
            self._close_entry(after_record=True)
        else:
            self._moved_by_phone()
            recorded, count = PhoneOutcome.RECORDED, len(game.actions)
            reply = PhoneReply(move, phone.id, self.message, recorded, count)
        effects: list[Effect] = [RecordAction(action, reply)]
        if event.fuse_burnt:
            effects.append(Beep("misplay"))
        if game.is_over:
            effects.append(FinishGame())
        return effects

    def _undo(self, phone: PairedPhone | None = None, move: PhoneMove | None = None) -> Effect:
        """Take the last action back and record it: the panel's undo (confirmed) and a
        phone's, one path."""
        game = self.game
        assert game is not None and game.actions
        undone = game.events[-1]
        game.undo()
        self.actions_back, self._actions_trail = 0, []
        self.message = Undone(undone, by="" if phone is None else phone.name)
        if phone is None or move is None:
            self.screen = Screen.GAME  # undo after the end goes back into the game
            return RecordUndo()
        self._moved_by_phone()
        count = len(game.actions)
        return RecordUndo(PhoneReply(move, phone.id, self.message, PhoneOutcome.RECORDED, count))

    def _close_entry(self, *, after_record: bool = False) -> None:
        """The entry is over (recorded, or left): the game screen (at the end, its
        result) shows the game again."""
        game = self.game
        assert game is not None
        self.entry = None
        self.preview = None
        if after_record and game.is_over:
            self.screen = Screen.END
            self.page = GamePage.TABLE
        else:
            self.screen = Screen.GAME

    def _moved_by_phone(self) -> None:
        """A phone changed the game: an entry or an undo question under way on the panel
        was about the position before. An entry on screen stays, marked stale: the key
        that would record it is refused (its keys may be typed already); anything else
        is closed and the panel shows the game (a menu, the help or the history stays
        open, and goes back to the game)."""
        shown = game_screen(self.game)
        self.preview = None
        if self.entry is not None and self.screen is Screen.ENTRY:
            self.entry.stale = True  # its last key is refused, in the phone's words
            return
        self.entry = None
        if self.screen in GAME_SCREENS:
            if self.screen is not shown:
                self.page = GamePage.TABLE
            self.screen = shown
        elif self._return_to in GAME_SCREENS:
            self._return_to = shown

    def _ask_undo(self) -> list[Effect]:
        """UNDO on the game or the end screen: the undo question, if there is an action."""
        game = self.game
        if game is None or not game.actions:
            self.message = Info("undo_nothing")
            return [Beep("refused")]
        self._return_to = self.screen
        self.screen = Screen.UNDO
        return []
