"""The app's answers to the controller: what it loaded, stored or made, as events.

The app never writes the controller's fields: it hands one of these to
:meth:`~companion.core.controller.Controller.handle`, as it hands an input event, and
the controller applies it (none of them has effects of its own).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import Struct

from companion.core.effects import Info
from companion.core.hint_level import HintLevel
from companion.vocabulary.phone import PairedPhone
from engine.game import Game

if TYPE_CHECKING:
    from companion.vocabulary.records import Finding, HistoryRow, PlayerStatsRow, StatsRow

    #: The history screen's data: the finished games, newest first, and the statistics.
    History = tuple[list[HistoryRow], list[StatsRow]]


class HistoryLoaded(Struct, frozen=True):
    """A page of the history read for its screen (the answer to
    :class:`~companion.core.effects.LoadHistory`): a first page (with the statistics)
    replaces the list, a later one (``stats`` None) is added after it. ``more``: older
    games remain to be read."""

    games: list[HistoryRow]
    more: bool
    stats: list[StatsRow] | None = None
    #: The figures per player name (with the first page's statistics).
    players: list[PlayerStatsRow] | None = None


class HistoryUnreadable(Struct, frozen=True):
    """The history could not be read (``first``: its first page): the games read so far
    stay listed, no more are asked for, and it is said."""

    first: bool


class GameLoaded(Struct, frozen=True):
    """A game taken up again from the history (the answer to
    :class:`~companion.core.effects.ResumeGame`): it is played on, at the hint level
    stored with it (None: stored without one)."""

    game: Game
    hint_level: HintLevel | None = None


class GameUnreadable(Struct, frozen=True):
    """A game asked for from the history no longer reads back: it is kept aside, said."""

    game_id: int


class NotStored(Struct, frozen=True):
    """An effect could not be stored (a full card, a lock): ``game`` is the game as it is
    stored, which the table plays on from; ``message`` says why."""

    game: Game | None
    message: Info
    #: What the stored game records of a hint (None: the level in play stays).
    hint_level: HintLevel | None = None


class PhonesServed(Struct, frozen=True):
    """The page for phones is served at ``url`` (``renewed``: at a new table code, made
    from the Phones page's button)."""

    url: str
    renewed: bool = False


class PhonesLoaded(Struct, frozen=True):
    """The phones paired with the table, as stored, by their token's hash."""

    paired: dict[bytes, PairedPhone]


class PhonePaired(Struct, frozen=True):
    """A phone was paired (and stored): its token may enter actions from now on."""

    token_hash: bytes
    phone: PairedPhone


class PhoneRemoved(Struct, frozen=True):
    """A paired phone was removed (and its token forgotten by the storage)."""

    phone_id: int


class PairingCodeMade(Struct, frozen=True):
    """The code the Phones page shows for pairing (the answer to
    :class:`~companion.core.effects.NewPairingCode`): no wrong code tried against it yet."""

    code: str


class StartupNotice(Struct, frozen=True):
    """A problem found at start (a damaged database moved aside, a device missing), for
    the banner; None: none (any earlier one is gone)."""

    text: str | None


class QuitAllowed(Struct, frozen=True):
    """Whether the menu offers Quit: on a desktop window yes; under systemd no (the
    service would only be started again)."""

    allowed: bool


class FindingsOpen(Struct, frozen=True):
    """The findings of storage no player has acknowledged yet (a database emptied, a journal
    cut, a game damaged): said on the banner until OK is pressed over them."""

    findings: tuple[Finding, ...]


class PlayLinked(Struct, frozen=True):
    """The finished game is stored: ``link`` logs it in BG Stats (the end screen's QR
    code); ``actions``, the number of actions of the game it logs."""

    link: str
    actions: int


class PanelLayout(Struct, frozen=True):
    """How the panel lays the game out: ``pile_on_table``, the discard pile is shown on
    the table page (a wide or a tall panel), so it has no page of its own (NEXT skips it);
    ``actions_per_page``, how many actions its actions page held in the last frame: NEXT
    and PREVIOUS move the page by as many (0: not known, the page shows the newest)."""

    pile_on_table: bool
    actions_per_page: int = 0


Result = (
    HistoryLoaded
    | HistoryUnreadable
    | GameLoaded
    | GameUnreadable
    | NotStored
    | PhonesServed
    | PhonesLoaded
    | PhonePaired
    | PhoneRemoved
    | PairingCodeMade
    | StartupNotice
    | QuitAllowed
    | FindingsOpen
    | PanelLayout
    | PlayLinked
)
