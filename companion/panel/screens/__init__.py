"""Drawing: each screen drawn from the controller's state, nothing else.

One module per screen (:mod:`~companion.panel.screens.game`, ``entry``, ``undo``, ``end``,
``lists`` for the set-up and the menu, ``history``, ``help``), all drawn with the
kit (:mod:`~companion.panel.screens.kit`: sizes, the font, text with a floor, cards,
tokens, buttons, and a layout that refuses overlaps). :meth:`Renderer.draw` routes
to the screen of the moment and returns the tap targets it drew (a rectangle and the
input event a tap there means), so the touch screen speaks the buttons' vocabulary.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from companion.core.controller import Controller, Screen
from companion.panel.screens import (
    end,
    entry,
    game,
    help,
    history,
    lists,
    phones,
    reveal,
    table,
    undo,
)
from companion.panel.screens.kit import (
    BACKGROUND,
    DARK_INK,
    HINT_BLUE,
    SPENT,
    SUIT_RGB,
    TEXT_CACHE_ENTRIES,
    WARN,
    Drawn,
    Kit,
    LayoutError,
    Target,
)
from hardware.events import Key, Press

Draw = Callable[[Kit, pygame.Surface, Controller], None]

#: What draws each screen: its module in this package and the module's function (the
#: undo question is drawn over the game screen).
SCREENS: dict[Screen, tuple[str, str]] = {
    Screen.SETUP: ("lists", "draw_setup"),
    Screen.GAME: ("game", "draw"),
    Screen.UNDO: ("game", "draw"),
    Screen.ENTRY: ("entry", "draw"),
    Screen.END: ("end", "draw"),
    Screen.MENU: ("lists", "draw_menu"),
    Screen.HISTORY: ("history", "draw"),
    Screen.HELP: ("help", "draw"),
    Screen.PHONES: ("phones", "draw"),
    Screen.REVEAL: ("reveal", "draw"),
}


#: The screens' modules, by their name in :data:`SCREENS`: imported with this package
#: (a lazy import of each measured no more than 5% of the start: not worth a second
#: way of importing).
MODULES = {
    "lists": lists,
    "game": game,
    "entry": entry,
    "end": end,
    "history": history,
    "help": help,
    "phones": phones,
    "reveal": reveal,
}


def drawer(screen: Screen) -> Draw:
    """The function that draws ``screen`` (:data:`SCREENS`)."""
    module, function = SCREENS[screen]
    draw: Draw = getattr(MODULES[module], function)
    return draw


#: The most of the panel's height a notice banner takes (its text is cut to it).
BANNER_SHARE = 0.25

#: Screens that show a game: drawn only while there is one.
NEEDS_GAME = (Screen.GAME, Screen.UNDO, Screen.ENTRY, Screen.END, Screen.REVEAL)

#: Screens that say a notice in a place of their own (no banner over them).
NOTICE_IN_PLACE = (Screen.GAME, Screen.UNDO)


class Renderer:
    """Draws the controller's screens on a panel of a fixed size."""

    def __init__(self, size: tuple[int, int], *, strict: bool = False) -> None:
        """``strict``: a layout flaw raises :class:`LayoutError` (the tests) instead of
        being logged while the screen is drawn anyway (the appliance)."""
        self.size = size
        self.kit = Kit(size, strict=strict)
        self._veil = pygame.Surface(size, pygame.SRCALPHA)
        self._veil.fill((0, 0, 0, 170))
        #: Whether the last frame showed the discard pile on the table page (a wide or a
        #: tall drawing area): then the pile has no page of its own. The app tells the
        #: controller (:class:`~companion.core.results.PanelLayout`); drawing only reads it.
        self.pile_on_table = table.pile_on_table(size)

    @property
    def texts(self) -> list[Drawn]:
        """Every line of text drawn in the last frame: where, how large, whether whole."""
        return self.kit.texts

    @property
    def regions(self) -> dict[str, pygame.Rect]:
        """The game screen's regions in the last frame, by name, on the panel (its
        table page only; empty elsewhere): the same for a whole game."""
        return self.kit.regions

    @property
    def targets(self) -> list[Target]:
        return self.kit.targets

    def shows_pile(self, controller: Controller) -> bool:
        """Whether the game screen shows the discard pile on its table page (then NEXT
        does not turn to a page of it): a wide or a tall panel, unless the set-up of the
        game in play leaves a tall one too little room."""
        kit = self.kit
        kit.width, kit.height = self.size
        return game.shows_pile(kit, controller)

    @property
    def actions_shown(self) -> int:
        """How many actions the actions page held when last drawn (its page's size)."""
        return self.kit.actions_shown

    def banner_height(self, notice: str) -> int:
        """The notice banner's height: its wrapped lines, but never more than
        :data:`BANNER_SHARE` of the panel (what does not fit is cut, ending in "…"),
        so the screen below always keeps its room, whatever the notice holds."""
        kit = self.kit
        width, height = self.size
        line_h = kit.line_height(kit.floor)
        most = max(1, int(height * BANNER_SHARE - kit.pad) // line_h)
        lines = len(kit.lines(notice, kit.floor, width - 2 * kit.pad))
        return min(lines, most) * line_h + kit.pad

    def draw(self, surface: pygame.Surface, controller: Controller) -> list[Target]:
        """Draw the controller's current screen; return its tap targets."""
        kit = self.kit
        kit.targets = []
        kit.texts = []
        kit.pile = []
        kit.pile_plan = None
        kit.regions = {}
        kit.actions_back = controller.actions_back  # the actions page's place
        surface.fill(BACKGROUND)
        width, height = self.size
        screen = controller.screen
        if screen in NEEDS_GAME and controller.game is None:
            screen = Screen.SETUP
        # the panel (and the game's set-up) decides whether the discard pile has a page
        # of its own (NEXT): kept here, told to the controller by the app (the game
        # screen is drawn on the whole panel: no banner over it)
        self.pile_on_table = self.shows_pile(controller)
        # A notice (a device unplugged, a damaged game kept aside) is a banner of its
        # own at the top; the screen is drawn in the rest, nothing under the banner. The
        # game screen says it in a box of its own instead (its regions never move).
        notice = controller.notice if screen not in NOTICE_IN_PLACE else None
        banner_h = 0
        if notice:
            banner_h = self.banner_height(notice)
            banner = pygame.Rect(0, 0, width, banner_h)
            pygame.draw.rect(surface, WARN, banner)
            kit.origin = (0, 0)
            kit.text(
                surface, notice, banner.inflate(-2 * kit.pad, 0), color=DARK_INK, align="center"
            )
            if controller.findings:  # a tap on the banner is its OK: the findings were seen
                kit.target(banner, Press(Key.OK))
        area = pygame.Rect(0, banner_h, width, height - banner_h)
        kit.origin = (0, banner_h)
        kit.width, kit.height = area.size
        canvas = surface.subsurface(area)
        drawer(screen)(kit, canvas, controller)
        if screen is Screen.UNDO:
            undo.draw(kit, canvas, controller, self._veil)
        kit.origin = (0, 0)
        kit.width, kit.height = self.size
        return kit.targets


__all__ = [
    "HINT_BLUE",
    "SPENT",
    "SUIT_RGB",
    "TEXT_CACHE_ENTRIES",
    "Drawn",
    "LayoutError",
    "Renderer",
    "Target",
]
