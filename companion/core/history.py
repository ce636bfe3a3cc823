"""The history screen: the finished and unfinished games, read a page at a time, and the
statistics; a game taken up again from it.

:class:`HistoryFlow` is the controller's mixin for it (a flow over
:class:`~companion.core.state.ControllerState`); the app reads the pages it asks for
(:class:`~companion.core.effects.LoadHistory`) and hands them back as
:class:`~companion.core.results.HistoryLoaded`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.core.effects import Effect, Happened, Info, LoadHistory, ResumeGame
from companion.core.hint_level import UNKNOWN_HINT_LEVEL, HintLevel
from companion.core.results import GameLoaded, GameUnreadable, HistoryLoaded, HistoryUnreadable
from companion.core.state import ControllerState, GamePage, game_screen
from engine.game import Game
from hardware.events import InputEvent, Key, Press, Select

if TYPE_CHECKING:
    from companion.vocabulary.records import HistoryRow, StatsRow

#: Games the history screen asks for at a time (:class:`LoadHistory`); the next page is
#: asked for when the game at the top of the list comes within half a page of the last
#: one read.
HISTORY_SCREEN_PAGE = 10

#: A tap on the history's focused game, when it can be taken up again.
RESUME_ROW = "resume_game"


class HistoryFlow(ControllerState):
    """The history screen's keys, the pages read for it, and a game taken up from it."""

    def history_focus(self) -> HistoryRow | None:
        """The game at the top of the history list (NEXT and PREVIOUS move it)."""
        games = self.history[0] if self.history else []
        return games[self.scroll] if self.scroll < len(games) else None

    def _on_history(self, event: InputEvent) -> list[Effect]:
        """NEXT and PREVIOUS move along the games (reading more as the end nears), OK
        takes the focused one up again if it can be, else goes back as BACK does."""
        focused = self.history_focus()
        resumable = focused is not None and focused.resumable
        # Resuming while another game is unfinished says first that it is kept, as Start
        # does; the question lasts one input.
        asked, self._asked_to_abandon = self._asked_to_abandon, False
        if self.message == Info("resume_keeps_the_game"):
            self._acknowledge()
        if isinstance(event, Select) and event.target == RESUME_ROW and resumable:
            event = Press(Key.OK)
        if isinstance(event, Press):
            games = len(self.history[0]) if self.history else 0
            if event.key is Key.NEXT:
                self.scroll = min(self.scroll + 1, max(0, games - 1))
                near_the_end = self.scroll + HISTORY_SCREEN_PAGE // 2 >= games
                if self.history and self.history_more and near_the_end:
                    return [LoadHistory(before=self.history[0][-1].id)]
            elif event.key is Key.PREVIOUS:
                self.scroll = max(0, self.scroll - 1)
            elif event.key is Key.OK and resumable:
                assert focused is not None
                in_play = focused.status == "playing"  # the game on screen: nothing lost
                game = self.game
                kept = game is not None and bool(game.actions) and not game.is_over
                if kept and not in_play and not asked:
                    self._asked_to_abandon = True
                    self.message = Info("resume_keeps_the_game")
                    return []
                return [ResumeGame(focused.id)]  # the app loads it: GameLoaded
            elif event.key in (Key.BACK, Key.OK):
                self.screen = self._back_screen()
        return []

    def show_history_page(
        self, games: list[HistoryRow], more: bool, stats: list[StatsRow] | None = None
    ) -> None:
        """A page of the history read (:class:`HistoryLoaded`): a first page (with the
        statistics) replaces the list, a later one (``stats`` None) is added after it.
        ``more``: older games remain to be read."""
        if stats is not None or self.history is None:
            self.history = (games, stats or [])
        else:
            self.history = (self.history[0] + games, self.history[1])
        self.history_more = more

    def take_up(self, game: Game, hint_level: HintLevel | None = None) -> None:
        """Play on a game taken up again (resumed from the history): its screen, its
        last action said, as after a restart; its hint level as stored with it."""
        self.game = game
        self.hint_content = (hint_level or UNKNOWN_HINT_LEVEL) is HintLevel.CONTENT
        self.entry = None
        self.preview = None
        self.page = GamePage.TABLE
        self.screen = game_screen(game)
        self.message = Happened(game.events[-1]) if game.events else None

    def _apply_history(
        self, result: HistoryLoaded | HistoryUnreadable | GameLoaded | GameUnreadable
    ) -> None:
        """The app's answer to a history page or a game asked for from the history."""
        if isinstance(result, HistoryLoaded):
            self.show_history_page(result.games, result.more, result.stats)
            if result.players is not None:
                self.player_stats = result.players
        elif isinstance(result, HistoryUnreadable):  # the games read so far stay listed
            if result.first:
                self.history = ([], [])
            self.history_more = False
            self.message = Info("history_unreadable")
        elif isinstance(result, GameLoaded):
            self.take_up(result.game, result.hint_level)
        else:  # kept aside by the storage; the game in play goes on
            self.message = Info("game_damaged_kept_aside", (("game", result.game_id),))
