"""The screens around the game: the menu, the help, the undo question and the end.

:class:`NavigationFlow` is the controller's mixin for them (a flow over
:class:`~companion.core.state.ControllerState`): moving between rows and pages, and
back to the screen they were opened from.
"""

from __future__ import annotations

from companion.core.draft import SETUP_ROWS, step_language
from companion.core.effects import Effect, LoadHistory, NewPairingCode, Quit, SaveSettings
from companion.core.revealing import RevealFlow
from companion.core.state import (
    NEXT_VALUE,
    PREVIOUS_VALUE,
    QUIT_ROW,
    Screen,
    game_screen,
)
from hardware.events import InputEvent, Key, Press, Select


class NavigationFlow(RevealFlow):
    """The menu's rows, the help's pages, the undo question and the end screen's pages (and
    its "Show hands", :class:`~companion.core.revealing.RevealFlow`'s)."""

    def _on_undo(self, event: InputEvent) -> list[Effect]:
        """The undo question: OK takes the last action back, BACK (or UNDO) does not."""
        if not isinstance(event, Press):
            return []
        if event.key is Key.OK:
            return [self._undo()]
        if event.key in (Key.BACK, Key.UNDO):
            self.screen = game_screen(self.game)
        return []

    def _on_end(self, event: InputEvent) -> list[Effect]:
        """The end screen: its pages, UNDO (the last hand shown, else back into the game),
        OK (a new set-up), HINT "Show hands" (with hand memory)."""
        if not isinstance(event, Press):
            return []
        if event.key is Key.UNDO:
            return self._ask_undo()
        if event.key is Key.HINT:
            return self._show_hands()
        if event.key is Key.OK:
            self.screen = Screen.SETUP
            self.focus = SETUP_ROWS.index("start")
            self._acknowledge()  # the set-up says its own lines, not the game's
        elif event.key in (Key.NEXT, Key.PREVIOUS):  # the pile, the actions, the result
            self.turn_page(1 if event.key is Key.NEXT else -1)
        return []

    def _on_menu(self, event: InputEvent) -> list[Effect]:
        rows = self.menu_rows()
        if isinstance(event, Select) and event.target in rows:
            return self.choose_menu(event.target)
        if event in (PREVIOUS_VALUE, NEXT_VALUE) and rows[self.menu_focus] == "language":
            step_language(self.draft, -1 if event == PREVIOUS_VALUE else 1)
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
            step_language(self.draft)
            return [SaveSettings(self.draft.to_settings())]
        elif row == "phones":
            self.screen = Screen.PHONES
            self.phone_focus = None
            return [NewPairingCode()]  # a code for this visit of the page only
        elif row == QUIT_ROW and self.can_quit:
            return [Quit()]
        return []

    def _on_help(self, event: InputEvent) -> list[Effect]:
        """The help: NEXT and PREVIOUS scroll it, BACK, OK or HELP close it."""
        if isinstance(event, Press):
            if event.key is Key.NEXT:
                self.scroll += 1
            elif event.key is Key.PREVIOUS:
                self.scroll = max(0, self.scroll - 1)
            elif event.key in (Key.BACK, Key.OK, Key.HELP):
                self.screen = self._back_screen()
        return []
