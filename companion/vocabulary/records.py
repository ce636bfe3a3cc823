"""The records storage hands back to the other layers.

A stored game, a row of the history or of the statistics, a game to import and what
became of it.

Plain values: the panel, the core and the page for phones read them without importing
storage (:mod:`companion.storage` makes them and re-exports them).
"""

from __future__ import annotations

from enum import StrEnum

from msgspec import Struct

from engine.actions import Action
from engine.game import Game
from engine.log import action_to_dict, dump_line
from engine.options import GameOptions
from engine.outcome import EndReason, Outcome, Rating
from engine.setup import GameSetup

__all__ = [
    "Finding",
    "GameStatus",
    "GameToImport",
    "HistoryPage",
    "HistoryRow",
    "ImportedGame",
    "StatsRow",
    "StoredEntry",
    "StoredGame",
]


class GameStatus(StrEnum):
    """Where a stored game stands (the ``status`` column)."""

    PLAYING = "playing"
    OVER = "over"
    ABANDONED = "abandoned"


class StoredGame(Struct, frozen=True):
    """A game as stored: its set-up and actions (its log), and where it stands."""

    id: int
    setup: GameSetup
    actions: list[Action]
    status: GameStatus
    started_at: str
    finished_at: str | None

    def replay(self) -> Game:
        """The game these actions fold into (they were checked when the game was loaded)."""
        return Game.replay(self.setup, self.actions)


class HistoryRow(Struct, frozen=True):
    """One game in the history list: finished, or left unfinished."""

    id: int
    started_at: str
    finished_at: str | None
    players: int
    names: tuple[str, ...]
    options: GameOptions
    score: int
    #: The perfect score of the variant (25 or 30), for "21 / 25".
    max_score: int
    rating: Rating | None
    outcome: Outcome | None
    end_reason: EndReason | None
    #: Why the game does not read back (its log was damaged), in words; None if it does.
    #: A damaged row has no names, result or score (0).
    damaged: str | None = None
    #: ``over``, or a game not finished (``playing``, ``abandoned``: resumable; its score
    #: is the fireworks so far, it has no result).
    status: GameStatus = GameStatus.OVER

    @property
    def resumable(self) -> bool:
        """A game left unfinished that reads back: it can be taken up again."""
        return self.status is not GameStatus.OVER and self.damaged is None


class HistoryPage(Struct, frozen=True):
    """A page of the history: games newest first, and whether older games follow."""

    rows: list[HistoryRow]
    more: bool


class StoredEntry(Struct, frozen=True):
    """A stored game's number, dates and status as the database holds them (its log unread:
    the status of a damaged row may be anything)."""

    id: int
    started_at: str
    finished_at: str | None
    status: str


class GameToImport(Struct, frozen=True):
    """A game read from a log, for :meth:`~companion.storage.Storage.import_games`.

    It is refereed already (replayed by the engine; see :meth:`of`), with what the log's file
    said of it. Its log is kept as text, not as a :class:`Game`: a restore holds thousands of
    them at once."""

    setup: GameSetup
    #: The action lines as storage stores them (:func:`dump_line` of each action).
    lines: tuple[str, ...]
    #: The result of a game that is over; None for a game left unfinished.
    score: int | None
    rating: Rating | None
    outcome: Outcome | None
    end_reason: EndReason | None
    #: The start and end times to keep; None: the header's ``started_at``, else the import's.
    started_at: str | None = None
    finished_at: str | None = None
    #: Its number in the data directory it was exported from: kept where it is free.
    number: int | None = None
    #: It was the game in play: it is again if no game is in play here (else left unfinished).
    playing: bool = False

    @classmethod
    def of(
        cls,
        game: Game,
        *,
        started_at: str | None = None,
        finished_at: str | None = None,
        number: int | None = None,
        playing: bool = False,
    ) -> GameToImport:
        """The game a replayed log gives, to be imported."""
        over = game.is_over
        return cls(
            game.setup,
            tuple(dump_line(action_to_dict(action)) for action in game.actions),
            game.score if over else None,
            game.rating if over else None,
            game.outcome if over else None,
            game.end_reason if over else None,
            started_at,
            finished_at,
            number,
            playing,
        )


class ImportedGame(Struct, frozen=True):
    """What :meth:`~companion.storage.Storage.import_games` did with one game.

    Its number here, and whether it was stored now (False: the same log was stored already,
    under that number)."""

    id: int
    new: bool


class StatsRow(Struct, frozen=True):
    """The figures of the finished games of one table size and variant: how many, best and
    average score, how many perfect and struck out, and the average efficiency of those
    played with hand memory (None: none was)."""

    players: int
    options: GameOptions
    games: int
    best: int
    average: float
    perfect: int = 0
    strikeouts: int = 0
    efficiency: float | None = None


class PlayerStatsRow(Struct, frozen=True):
    """The figures of the finished games a player name played, over every set-up."""

    name: str
    games: int
    best: int
    average: float
    perfect: int = 0
    strikeouts: int = 0
    efficiency: float | None = None


class Finding(Struct, frozen=True):
    """Something storage found lost or damaged, kept until a player has seen it.

    ``key`` and ``params`` are a sentence of the app (:mod:`companion.core.i18n`), worded
    in the reader's language; ``id`` tells it apart from another of the same words.
    """

    id: str
    key: str
    params: dict[str, object] = {}
    #: When it was found (UTC, ``2026-11-21T10:15:00Z``).
    at: str = ""
