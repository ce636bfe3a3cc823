"""The drawing kit every screen uses: sizes, the font, text, cards, tokens, buttons.

Text is legible from across the table by construction: a text is never drawn
smaller than :attr:`Kit.floor` (1/18 of the panel's shorter side: 18 px on a
480x320 or a 320x480 panel), and whose turn, the score and the final round
never smaller than :attr:`Kit.big` (1/13). A text that does not fit its box
at its floor wraps onto more lines; the screens give it the room (the layout
changes, never the size). Whatever could still not be shown whole is recorded
as cut (:attr:`Drawn.whole` false), and the tests require that nothing is.

>>> kit = Kit((480, 320))
>>> kit.floor, kit.big, Kit((320, 480)).floor
(18, 25, 18)
"""

from __future__ import annotations

import logging
import math
import unicodedata
from collections.abc import Sequence
from pathlib import Path

import pygame
from msgspec import Struct

from companion.core.words import token_count
from engine.cards import Color
from engine.errors import CompanionError
from engine.setup import MAX_FUSES, MAX_HINTS
from hardware.events import InputEvent

Target = tuple[pygame.Rect, InputEvent]
RGB = tuple[int, int, int]

#: DejaVu Sans Condensed Bold: open glyph shapes, even letter spacing, every accent
#: (French, German) and the signs the screens use (· × ‹ › …); condensed, so more words
#: fit a line at the floor. Bundled (its licence beside it): no font package needed.
FONT_FILE = Path(__file__).resolve().parent.parent / "assets" / "DejaVuSansCondensed-Bold.ttf"

BACKGROUND = (16, 21, 34)
PANEL = (30, 38, 58)
PANEL_LIGHT = (48, 60, 90)
TEXT = (236, 238, 244)
DIM = (160, 168, 188)
ACCENT = (255, 196, 60)
WARN = (255, 120, 80)
GOOD = (110, 220, 140)
HINT_BLUE = (70, 150, 255)
FUSE_RED = (235, 70, 50)
#: Spent hint tokens and unburnt fuses: an outline light enough to read on the navy.
SPENT = (130, 142, 172)
DARK_INK = (20, 20, 28)

SUIT_RGB = {
    Color.RED: (222, 56, 56),
    Color.YELLOW: (242, 204, 48),
    Color.GREEN: (52, 174, 84),
    Color.BLUE: (58, 116, 232),
    Color.WHITE: (238, 238, 238),
    Color.MULTICOLOR: (180, 90, 220),
}
RAINBOW = [(222, 56, 56), (242, 204, 48), (52, 174, 84), (58, 116, 232), (180, 90, 220)]


#: Lines of text kept rendered (the least recently used dropped first): a few frames'
#: worth. Each is a surface of up to ~40 KB at 480x320; thousands of them grew the
#: companion by 25 MB over a long evening (issue 10).
TEXT_CACHE_ENTRIES = 300


def ink_on(color: Color) -> RGB:
    """Text colour readable on a card of that suit."""
    return DARK_INK if color in (Color.YELLOW, Color.WHITE) else (255, 255, 255)


#: The most of the panel's height one text may take, wrapped (the rest is cut, with "…").
MOST_TEXT_SHARE = 1 / 2

#: The mark a wrap ends with when the text was cut (an object: no text is it).
_CUT = str(object())

#: Characters a font cannot draw as text (controls, lone surrogates, unassigned): a space.
_UNDRAWABLE = frozenset({"Cc", "Cs", "Co", "Cn"})


def printable(text: str) -> str:
    """``text`` as it can be drawn: tabs and carriage returns are spaces, other control
    characters and halves of a broken UTF-16 pair are "\ufffd"; line breaks stay."""
    if text.isprintable():
        return text
    return "".join(
        char
        if char == "\n" or unicodedata.category(char) not in _UNDRAWABLE
        else " "
        if char in "\t\r\v\f"
        else "\ufffd"
        for char in text
    )


class LayoutError(CompanionError, ValueError):
    """Two boxes of a screen overlap, or a box leaves the screen: a bug in a layout."""


class Drawn(Struct, frozen=True):
    """One line of text as it landed on the screen."""

    text: str
    rect: pygame.Rect
    size: int
    #: The smallest size this text may have (the kit's floor, or its big floor).
    floor: int
    #: False when the line had to be cut (it did not fit even on as many lines as its box holds).
    whole: bool = True
    #: Cut on purpose ("…") to a box of fixed lines: the last action's two lines (the
    #: recent actions page says it whole). Only with ``whole`` false.
    shortened: bool = False


log = logging.getLogger(__name__)
_LOGGED: set[str] = set()


class Layout:
    """The boxes of one screen: each placed once, inside the screen, overlapping none.

    >>> layout = Layout(pygame.Rect(0, 0, 100, 100))
    >>> layout.place("top", pygame.Rect(0, 0, 100, 20)).height
    20
    >>> layout.place("body", pygame.Rect(0, 10, 100, 50))
    Traceback (most recent call last):
    ...
    companion.panel.screens.kit.LayoutError: 'body' overlaps 'top'
    """

    def __init__(self, bounds: pygame.Rect, *, strict: bool = True) -> None:
        self.bounds = bounds
        self.boxes: dict[str, pygame.Rect] = {}
        #: Raise on a bad box (tests); otherwise log it once and draw on (the appliance
        #: shows a screen with a flaw rather than none).
        self.strict = strict

    def place(self, name: str, rect: pygame.Rect) -> pygame.Rect:
        try:
            return self._place(name, rect)
        except LayoutError as error:
            if self.strict:
                raise
            if str(error) not in _LOGGED:
                _LOGGED.add(str(error))
                log.warning("layout: %s", error)
            return rect

    def _place(self, name: str, rect: pygame.Rect) -> pygame.Rect:
        if rect.width <= 0 or rect.height <= 0:
            return rect  # an empty box holds nothing
        if not self.bounds.contains(rect):
            raise LayoutError(f"{name!r} at {rect} leaves the screen {self.bounds}")
        for other, box in self.boxes.items():
            if box.colliderect(rect):
                raise LayoutError(f"{name!r} overlaps {other!r}")
        self.boxes[name] = rect
        return rect


class Kit:
    """Sizes, fonts and drawing primitives for one panel size; records what it drew."""

    def __init__(self, size: tuple[int, int], *, strict: bool = False) -> None:
        self.width, self.height = size
        #: The whole panel's height (``height`` is the area being drawn).
        self.panel_height = size[1]
        #: Whether a layout flaw raises (tests) or is logged (the appliance).
        self.strict = strict
        #: The panel's shorter side: sizes follow it, so a portrait panel draws as its twin.
        self.unit = min(size)
        self.floor = math.ceil(self.unit / 18)
        self.big = math.ceil(self.unit / 13)
        #: The key figures (the draw pile's count): a tenth of the panel high, line and all.
        self.figure = math.ceil(self.unit / 10 / 1.15)
        self.pad = max(4, self.unit // 60)
        #: Where the screen being drawn sits on the panel (below a notice banner, say).
        self.origin = (0, 0)
        if not pygame.font.get_init():
            pygame.font.init()
        self._fonts: dict[int, pygame.font.Font] = {}
        self._line_heights: dict[int, int] = {}
        self._rendered: dict[tuple[str, int, RGB], pygame.Surface] = {}
        self._wrapped: dict[tuple[str, int, int], list[str]] = {}
        self.targets: list[Target] = []
        self.texts: list[Drawn] = []
        #: Every discarded card drawn in the last frame (a stacked copy too): its code,
        #: its mark ("!", "×" or ""), where; so that a test can count the whole pile.
        self.pile: list[tuple[str, str, pygame.Rect]] = []
        #: How the pile was drawn in the last frame (a ``piles.PilePlan``), if it was.
        self.pile_plan: object | None = None
        #: The regions of the last frame's game screen, by name, where the panel shows
        #: them (the table page: ``table.TableLayout.regions``); empty on other screens.
        self.regions: dict[str, pygame.Rect] = {}
        #: The actions page: how many of the newest actions it skips (the controller's),
        #: and how many it showed when last drawn (told back to the controller).
        self.actions_back = 0
        self.actions_shown = 0

    def layout(self, bounds: pygame.Rect | None = None) -> Layout:
        """A layout for one screen (the area being drawn, unless ``bounds``)."""
        return Layout(bounds or pygame.Rect(0, 0, self.width, self.height), strict=self.strict)

    # -- text ------------------------------------------------------------------

    def font(self, size: int) -> pygame.font.Font:
        font = self._fonts.get(size)
        if font is None:
            font = self._fonts[size] = pygame.font.Font(FONT_FILE, size)
        return font

    def line_height(self, size: int) -> int:
        """One line's height: the font's line spacing, or more where accents rise above it."""
        height = self._line_heights.get(size)
        if height is None:
            font = self.font(size)
            height = self._line_heights[size] = max(
                int(font.get_linesize()), int(font.size("ÉÀÇÜgjy|")[1])
            )
        return height

    def width_of(self, text: str, size: int) -> int:
        return int(self.font(size).size(printable(text))[0])

    def lines(self, text: str, size: int, width: int) -> list[str]:
        """``text`` word-wrapped to ``width`` at ``size``; a word longer than a line (a
        device's path) is broken where the line ends. Remembered: most text is the
        same frame to frame, and a frame measures it more than once."""
        key = (text, size, width)
        cached = self._wrapped.pop(key, None)
        if cached is None:
            cached = self._wrap(text, size, width)
            if len(self._wrapped) >= TEXT_CACHE_ENTRIES:  # the least recently used goes
                del self._wrapped[next(iter(self._wrapped))]
        self._wrapped[key] = cached
        return [line for line in cached if line is not _CUT]

    def _wrap(self, text: str, size: int, width: int) -> list[str]:
        """Wrapped, and cut (ending in "…") at :data:`MOST_TEXT_SHARE` of the panel's
        height: no text, however long (a damaged file's report), takes a whole screen."""
        font = self.font(size)
        most = max(1, int(self.panel_height * MOST_TEXT_SHARE) // self.line_height(size))
        lines: list[str] = []
        for paragraph in printable(text).split("\n"):
            if len(lines) > most:
                break
            line = ""
            for word in paragraph.split(" "):
                candidate = f"{line} {word}" if line else word
                if font.size(candidate)[0] <= width:
                    line = candidate
                    continue
                if line:
                    lines.append(line)
                while font.size(word)[0] > width and len(word) > 1:
                    cut = len(word) - 1
                    while cut > 1 and font.size(word[:cut])[0] > width:
                        cut -= 1
                    lines.append(word[:cut])
                    word = word[cut:]
                line = word
            lines.append(line)
        if len(lines) > most:
            lines = lines[:most]
            lines[-1] = self._cut(lines[-1], size, width)
            lines.append(_CUT)  # a mark for fits(), dropped by lines()
        return lines

    def height_of(self, text: str, size: int, width: int) -> int:
        """How high ``text`` stands when wrapped to ``width`` at ``size``."""
        return len(self.lines(text, size, width)) * self.line_height(size)

    def fits(self, text: str, size: int, rect: pygame.Rect) -> bool:
        lines = self.lines(text, size, rect.width)
        if self._wrapped[(text, size, rect.width)][-1] is _CUT:
            return False  # cut at the most a text may take: smaller, it may not be
        return len(lines) * self.line_height(size) <= rect.height and all(
            self.width_of(line, size) <= rect.width for line in lines
        )

    def text(
        self,
        surface: pygame.Surface,
        text: str,
        rect: pygame.Rect,
        *,
        size: int | None = None,
        floor: int | None = None,
        color: RGB = TEXT,
        align: str = "left",
        shorten: bool = False,
    ) -> int:
        """Draw ``text`` in ``rect``: as large as ``size`` (default: the floor), shrinking
        to fit but never below ``floor``, then wrapping; return the size used.

        Lines are centred vertically in ``rect``. What does not fit at the floor on
        the lines ``rect`` holds is cut and recorded as not whole (``shorten``: as
        shortened on purpose, for a box of fixed lines).
        """
        low = floor or self.floor
        size = max(size or low, low)
        while size > low and not self.fits(text, size, rect):
            size -= 1
        lines = self.lines(text, size, rect.width)
        line_h = self.line_height(size)
        room = max(1, rect.height // line_h)
        whole = len(lines) <= rect.height // line_h  # a line taller than its box is cut too
        if not whole:
            lines = lines[:room]
            lines[-1] = self._cut(lines[-1], size, rect.width)
        whole = whole and self._wrapped[(text, size, rect.width)][-1] is not _CUT
        top = rect.top + max(0, (rect.height - len(lines) * line_h) // 2)
        for i, line in enumerate(lines):
            line_whole = whole
            if self.width_of(line, size) > rect.width:
                line, line_whole = self._cut(line, size, rect.width), False
            self._line(
                surface, line, size, low, rect, top + i * line_h, color, align, line_whole, shorten
            )
        return size

    def _cut(self, line: str, size: int, width: int) -> str:
        while line and self.width_of(line + "…", size) > width:
            line = line[:-1]
        return line.rstrip() + "…"

    def _line(
        self,
        surface: pygame.Surface,
        line: str,
        size: int,
        floor: int,
        rect: pygame.Rect,
        top: int,
        color: RGB,
        align: str,
        whole: bool,
        shorten: bool = False,
    ) -> None:
        if self.font(size).size(printable(line))[0] == 0:
            return  # nothing to see (a soft hyphen alone): SDL refuses a text of no width
        key = (line, size, color)
        image = self._rendered.pop(key, None)
        if image is None:
            image = self.font(size).render(printable(line), True, color)
            if len(self._rendered) >= TEXT_CACHE_ENTRIES:  # the least recently used goes
                del self._rendered[next(iter(self._rendered))]
        self._rendered[key] = image  # the most recently used goes last
        if align == "center":
            x = rect.centerx - image.get_width() // 2
        elif align == "right":
            x = rect.right - image.get_width()
        else:
            x = rect.left
        drawn = surface.blit(image, (x, top))
        if line.strip():
            shortened = shorten and not whole
            self.texts.append(Drawn(line, drawn.move(self.origin), size, floor, whole, shortened))

    # -- touch -----------------------------------------------------------------

    def target(self, rect: pygame.Rect, event: InputEvent) -> None:
        """A tap inside ``rect`` means ``event``."""
        self.targets.append((rect.move(self.origin), event))

    # -- buttons ---------------------------------------------------------------

    def button(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        label: str,
        event: InputEvent,
        *,
        highlight: bool = False,
        size: int | None = None,
    ) -> None:
        radius = max(4, rect.height // 5)
        pygame.draw.rect(surface, PANEL_LIGHT if highlight else PANEL, rect, border_radius=radius)
        pygame.draw.rect(surface, ACCENT if highlight else DIM, rect, 2, border_radius=radius)
        if label == MENU_ICON:
            self._menu_icon(surface, rect)
        else:
            inner = rect.inflate(-2 * self.button_margin, -4)
            self.text(surface, label, inner, size=size or self.big, align="center")
        self.target(rect, event)

    def _menu_icon(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """Three bars: the menu, without a word to fit."""
        bar_w = min(rect.width, rect.height) // 2
        bar_h = max(2, rect.height // 12)
        for i in (-1, 0, 1):
            bar = pygame.Rect(0, 0, bar_w, bar_h)
            bar.center = (rect.centerx, rect.centery + i * bar_h * 3)
            pygame.draw.rect(surface, TEXT, bar)

    @property
    def tenth(self) -> int:
        """A key figure's least height (the tokens, the fuses, the fireworks): a tenth of
        the panel's shorter side."""
        return math.ceil(self.unit / 10)

    @property
    def button_margin(self) -> int:
        return max(3, self.floor // 3)

    @property
    def button_height(self) -> int:
        """A row of buttons: a finger's width (40 px at 480x320), a line at the floor."""
        return max(int(self.unit * 0.14), self.line_height(self.floor) + 8)

    def bar_rows(self, labels: Sequence[str], width: int) -> int:
        """How many rows a button bar needs for every label to fit at the floor: 1 or 2."""
        return 1 if self._bar_widths(labels, width) is not None else 2

    def bar_height(self, labels: Sequence[str], width: int) -> int:
        rows = self.bar_rows(labels, width)
        return rows * self.button_height + (rows - 1) * self.gap

    @property
    def gap(self) -> int:
        return max(3, self.unit // 100)

    def _bar_widths(self, labels: Sequence[str], width: int) -> list[int] | None:
        """Cell widths for one row: equal if every label fits so, else by label width."""
        count = len(labels)
        room = width - self.gap * (count - 1)
        icon = self.button_height
        needs = [
            icon
            if label == MENU_ICON
            else self.width_of(label, self.floor) + 2 * self.button_margin
            for label in labels
        ]
        if max(needs) <= room // count:
            return [room // count] * count
        if sum(needs) > room:
            return None
        spare = (room - sum(needs)) // count
        return [need + spare for need in needs]

    def button_bar(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        buttons: Sequence[tuple[str, InputEvent]],
    ) -> None:
        """A row of buttons in ``rect``; two rows when the labels need it (see bar_height)."""
        labels = [label for label, _ in buttons]
        widths = self._bar_widths(labels, rect.width)
        rows: list[Sequence[tuple[str, InputEvent]]] = [buttons]
        if widths is None:
            half = -(-len(buttons) // 2)
            rows = [buttons[:half], buttons[half:]]
        row_h = (rect.height - self.gap * (len(rows) - 1)) // len(rows)
        for r, row in enumerate(rows):
            row_widths = self._bar_widths([label for label, _ in row], rect.width)
            if row_widths is None:  # still too wide: equal cells, the labels wrap or cut
                room = rect.width - self.gap * (len(row) - 1)
                row_widths = [room // len(row)] * len(row)
            # one size for the whole row: the largest at which every label fits
            size = self.big
            for (label, _), cell_w in zip(row, row_widths, strict=True):
                inner = pygame.Rect(0, 0, cell_w - 2 * self.button_margin, row_h - 4)
                while (
                    label != MENU_ICON and size > self.floor and not self.fits(label, size, inner)
                ):
                    size -= 1
            x = rect.left
            y = rect.top + r * (row_h + self.gap)
            for (label, event), cell_w in zip(row, row_widths, strict=True):
                self.button(surface, pygame.Rect(x, y, cell_w, row_h), label, event, size=size)
                x += cell_w + self.gap

    # -- cards and tokens ------------------------------------------------------

    def symbol(
        self, surface: pygame.Surface, color: Color, center: tuple[int, int], r: int, ink: RGB
    ) -> None:
        """A shape per suit, so the suits read without colour vision."""
        cx, cy = center
        if color is Color.RED:  # circle
            pygame.draw.circle(surface, ink, center, r)
        elif color is Color.YELLOW:  # star
            points = []
            for i in range(10):
                radius = r if i % 2 == 0 else r * 0.45
                angle = -math.pi / 2 + i * math.pi / 5
                points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
            pygame.draw.polygon(surface, ink, points)
        elif color is Color.GREEN:  # triangle
            pygame.draw.polygon(
                surface, ink, [(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)]
            )
        elif color is Color.BLUE:  # square
            pygame.draw.rect(surface, ink, (cx - r * 0.8, cy - r * 0.8, r * 1.6, r * 1.6))
        elif color is Color.WHITE:  # diamond
            pygame.draw.polygon(
                surface, ink, [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
            )
        else:  # multicolor: a ring
            pygame.draw.circle(surface, ink, center, r, max(2, r // 3))
            pygame.draw.circle(surface, ink, center, max(1, r // 4))

    def card_face(self, surface: pygame.Surface, rect: pygame.Rect, color: Color) -> RGB:
        """The card's background in its suit colour; returns the ink to write on it."""
        radius = max(3, rect.width // 8)
        if color is Color.MULTICOLOR:
            band = rect.height / len(RAINBOW)
            clip = surface.get_clip()
            surface.set_clip(rect)
            for i, stripe in enumerate(RAINBOW):
                pygame.draw.rect(
                    surface, stripe, (rect.left, rect.top + i * band, rect.width, band + 1)
                )
            surface.set_clip(clip)
            return (255, 255, 255)
        pygame.draw.rect(surface, SUIT_RGB[color], rect, border_radius=radius)
        return ink_on(color)

    def card(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        color: Color | None,
        label: str | None,
        *,
        empty: bool = False,
        mark: str | None = None,
    ) -> None:
        """A card: its suit colour and symbol on the top band (a mark at its right, for
        ``!`` or ``×``), and ``label`` (the rank, a key) large on the rest, never under."""
        radius = max(3, rect.width // 8)
        band = self.line_height(self.floor)
        r = max(3, min(band // 2 - 2, rect.width // 6))
        if color is None:  # not chosen yet
            pygame.draw.rect(surface, PANEL, rect, border_radius=radius)
            pygame.draw.rect(surface, DIM, rect, 2, border_radius=radius)
            ink: RGB = DIM
        elif empty:  # a firework not started: the outline of its colour
            pygame.draw.rect(surface, PANEL, rect, border_radius=radius)
            width = max(2, rect.width // 18)
            pygame.draw.rect(surface, SUIT_RGB[color], rect, width, border_radius=radius)
            ink = SUIT_RGB[color]
        else:
            ink = self.card_face(surface, rect, color)
        top = pygame.Rect(rect.left + 2, rect.top + 2, rect.width - 4, band)
        if rect.height < self.card_height():
            # a flat card, one line high (a compact screen): the symbol, then the label
            top.centery = rect.centery
            r = max(3, min(r, top.height // 2 - 1))
            needed = 2 * r + 4 + self.width_of(f"{label or ''}{mark or ''}", self.floor) + 6
            if color is not None and needed <= top.width:  # the symbol only where it fits
                self.symbol(surface, color, (top.left + r + 2, top.centery), r, ink)
            else:
                r = -2
            right = top.right
            if mark:
                badge_w = self.width_of(mark, self.floor) + 4
                badge = pygame.Rect(top.right - badge_w, top.top, badge_w, band)
                pygame.draw.rect(surface, DARK_INK, badge, border_radius=3)
                self.text(surface, mark, badge, color=WARN, align="center")
                right = badge.left
            if label is not None:
                face = pygame.Rect(
                    top.left + 2 * r + 4, top.top, right - top.left - 2 * r - 4, band
                )
                self.text(surface, label, face, color=ink, align="center")
            return
        if color is not None:
            self.symbol(surface, color, (top.left + r + 2, top.centery), r, ink)
        if mark:
            badge_w = self.width_of(mark, self.floor) + 4
            badge = pygame.Rect(top.right - badge_w, top.top, badge_w, band)
            pygame.draw.rect(surface, DARK_INK, badge, border_radius=3)
            self.text(surface, mark, badge, color=WARN, align="center")
        if label is not None:
            face = pygame.Rect(rect.left, top.bottom, rect.width, rect.bottom - top.bottom - 2)
            size = max(self.floor, int(face.height * 0.8))
            self.text(surface, label, face, size=size, color=ink, align="center")

    def card_height(self) -> int:
        """The smallest card that holds its top band and a rank at the floor."""
        return 2 * self.line_height(self.floor) + 6

    def flat_card_height(self) -> int:
        """A flat card: the symbol and the rank side by side, one line at the floor."""
        return self.line_height(self.floor) + 6

    def tokens(
        self, surface: pygame.Surface, rect: pygame.Rect, hints: int, per_token: int = 1
    ) -> None:
        """The 8 hint tokens, blue when available, a light ring when spent, and their
        number, so nobody counts circles across the table. ``hints`` is in the engine's
        units, ``per_token`` of them a token (2 with Clue Starved: a half token is a
        token half blue, and the number says "7½")."""
        whole, half = divmod(hints, per_token)
        number = token_count(hints, per_token)
        number_w = self.width_of("8½" if per_token > 1 else "8", self.big) + self.pad
        dots = pygame.Rect(rect.left, rect.top, rect.width - number_w - self.pad, rect.height)
        diameter = min(rect.height, int(dots.width / (MAX_HINTS * 1.08)))
        if diameter < max(self.line_height(self.floor), min(rect.height, self.tenth)):
            # too narrow for eight tokens a tenth of the panel high: one token, large,
            # and the number of those left out of 8
            diameter = max(min(rect.height, self.line_height(self.big)), self.tenth)
            r = diameter // 2
            center = (rect.left + r, rect.centery)
            pygame.draw.circle(surface, HINT_BLUE if hints else SPENT, center, r)
            pygame.draw.circle(surface, (210, 230, 255), center, max(2, r // 4))
            box = pygame.Rect(rect.left + diameter + self.pad, rect.top, 0, rect.height)
            box.width = rect.right - box.left
            said = f"{number}/{MAX_HINTS}"
            if self.width_of(said, self.floor) > box.width:  # "7½" where "7½/8" is too wide
                said = number
            self.text(surface, said, box, size=self.big, floor=self.floor, color=HINT_BLUE)
            return
        step = min(diameter * 1.3, (dots.width - diameter) / (MAX_HINTS - 1))
        r = diameter // 2
        for i in range(MAX_HINTS):
            center = (int(dots.left + r + i * step), rect.centery)
            if i < whole:
                pygame.draw.circle(surface, HINT_BLUE, center, r)
                pygame.draw.circle(surface, (210, 230, 255), center, max(2, r // 4))
            else:
                pygame.draw.circle(surface, SPENT, center, r, max(2, r // 5))
                if i == whole and half:  # half a token: its left half blue
                    clip = surface.get_clip()
                    surface.set_clip(pygame.Rect(center[0] - r, center[1] - r, r, 2 * r))
                    pygame.draw.circle(surface, HINT_BLUE, center, r)
                    surface.set_clip(clip)
        right = int(dots.left + 2 * r + (MAX_HINTS - 1) * step) + self.pad
        box = pygame.Rect(right, rect.top, number_w, rect.height)
        self.text(surface, number, box, size=self.big, floor=self.big, color=HINT_BLUE)

    def fuses(self, surface: pygame.Surface, rect: pygame.Rect, burnt: int) -> None:
        """The 3 fuses: a red flame when burnt, a light ring while not."""
        diameter = min(rect.height, int(rect.width / (MAX_FUSES * 1.1)))
        step = (rect.width - diameter) / (MAX_FUSES - 1)
        r = diameter // 2
        cy = rect.centery
        for i in range(MAX_FUSES):
            center = (int(rect.left + r + i * step), cy)
            if i < burnt:
                pygame.draw.circle(surface, FUSE_RED, center, r)
                flame = [
                    (center[0], cy - r * 0.7),
                    (center[0] + r * 0.45, cy + r * 0.35),
                    (center[0] - r * 0.45, cy + r * 0.35),
                ]
                pygame.draw.polygon(surface, (255, 220, 90), flame)
            else:
                pygame.draw.circle(surface, SPENT, center, r, max(2, r // 5))


#: The label of the menu button, drawn as an icon (three bars).
MENU_ICON = "≡"
