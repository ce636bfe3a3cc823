"""Drawing: each screen drawn from the controller's state, nothing else.

:meth:`Renderer.draw` only reads the controller. It returns the tap targets
it drew (a rectangle and the input event a tap there means), so the touch
screen speaks the same vocabulary as the buttons. Fonts are loaded once per
size.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime

import pygame

from companion import i18n
from companion.controller import (
    MENU_ROWS,
    SETUP_ROWS,
    SOFT_KEYS,
    Controller,
    EntryKind,
    EntryStep,
    Happened,
    Info,
    Refused,
    Screen,
    SetupDraft,
    Undone,
)
from engine.cards import Card, Color
from engine.errors import IllegalAction
from engine.game import Event, EventKind, Game
from engine.setup import MAX_FUSES, MAX_HINTS
from hardware.events import ChooseColor, ChooseRank, InputEvent, Key, Press, Select

Target = tuple[pygame.Rect, InputEvent]

BACKGROUND = (16, 21, 34)
PANEL = (30, 38, 58)
PANEL_LIGHT = (48, 60, 90)
TEXT = (236, 238, 244)
DIM = (150, 158, 178)
ACCENT = (255, 196, 60)
WARN = (255, 120, 80)
GOOD = (110, 220, 140)
HINT_BLUE = (70, 150, 255)
FUSE_RED = (235, 70, 50)

SUIT_RGB = {
    Color.RED: (222, 56, 56),
    Color.YELLOW: (242, 204, 48),
    Color.GREEN: (52, 174, 84),
    Color.BLUE: (58, 116, 232),
    Color.WHITE: (238, 238, 238),
    Color.MULTICOLOR: (180, 90, 220),
}
RAINBOW = [(222, 56, 56), (242, 204, 48), (52, 174, 84), (58, 116, 232), (180, 90, 220)]
COLOR_KEYS = {c: c.letter.lower() for c in Color}


#: Lines of text kept rendered (least recently used dropped first): a few frames' worth.
#: Each is a surface (up to ~40 KB at 480x320); 2,000 of them grew the companion by 25 MB.
TEXT_CACHE_ENTRIES = 300


def ink_on(color: Color) -> tuple[int, int, int]:
    """Text colour readable on a card of that suit."""
    return (20, 20, 28) if color in (Color.YELLOW, Color.WHITE) else (255, 255, 255)


class Renderer:
    """Draws the controller's screens on a surface of a fixed size."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.width, self.height = size
        self.unit = max(1, min(self.width / 480, self.height / 320))
        if not pygame.font.get_init():
            pygame.font.init()
        self._fonts: dict[int, pygame.font.Font] = {}
        self._rendered: dict[tuple[object, ...], tuple[pygame.Surface, int]] = {}
        self._veil = pygame.Surface(size, pygame.SRCALPHA)
        self._veil.fill((0, 0, 0, 170))
        self.targets: list[Target] = []
        #: Every line of text drawn in the last frame, with where and how large it landed.
        self.texts: list[tuple[str, pygame.Rect, int]] = []

    # -- primitives ----------------------------------------------------------

    def font(self, px: int) -> pygame.font.Font:
        px = max(10, int(px))
        font = self._fonts.get(px)
        if font is None:
            # pygame's bundled font: present everywhere, no font packages needed.
            font = self._fonts[px] = pygame.font.Font(None, int(px * 1.35))
        return font

    def text(
        self,
        surface: pygame.Surface,
        text: str,
        px: int,
        rect: pygame.Rect,
        *,
        color: tuple[int, int, int] = TEXT,
        align: str = "left",
    ) -> pygame.Rect:
        """Draw one line inside ``rect``, shrinking the font until it fits."""
        image, size = self._fitted(text, int(px), color, rect.width, rect.height)
        y = rect.centery - image.get_height() // 2
        if align == "center":
            x = rect.centerx - image.get_width() // 2
        elif align == "right":
            x = rect.right - image.get_width()
        else:
            x = rect.left
        clip = surface.get_clip()
        surface.set_clip(rect.inflate(0, max(4, rect.height // 3)).clip(clip))
        drawn = surface.blit(image, (x, y))
        surface.set_clip(clip)
        self.texts.append((text, pygame.Rect(x, y, image.get_width(), image.get_height()), size))
        return drawn

    def _fitted(
        self, text: str, px: int, color: tuple[int, int, int], width: int, height: int
    ) -> tuple[pygame.Surface, int]:
        """The rendered line, shrunk to fit; cached, as most text is the same frame to frame."""
        key = (text, px, color, width, height)
        cached = self._rendered.pop(key, None)
        if cached is not None:
            self._rendered[key] = cached  # the most recently used goes last
            return cached
        size = px
        image = self.font(size).render(text, True, color)
        while (image.get_width() > width or image.get_height() > height * 1.3) and size > 10:
            size -= 1
            image = self.font(size).render(text, True, color)
        if image.get_width() > width:
            image = image.subsurface((0, 0, width, image.get_height()))
        if len(self._rendered) >= TEXT_CACHE_ENTRIES:  # least recently used goes first
            del self._rendered[next(iter(self._rendered))]
        self._rendered[key] = (image, size)
        return image, size

    def wrap(
        self,
        surface: pygame.Surface,
        text: str,
        px: int,
        rect: pygame.Rect,
        *,
        color: tuple[int, int, int] = TEXT,
        align: str = "left",
    ) -> None:
        """Draw text on as many lines as ``rect`` holds, word-wrapped."""
        font = self.font(px)
        line_h = font.get_linesize()
        while px > 10 and len(self._lines(text, font, rect.width)) * line_h > rect.height:
            px -= 1
            font = self.font(px)
            line_h = font.get_linesize()
        lines = self._lines(text, font, rect.width)
        y = rect.top + max(0, (rect.height - len(lines) * line_h) // 2)
        for line in lines:
            if y + line_h > rect.bottom + line_h // 3:
                break
            self.text(
                surface,
                line,
                px,
                pygame.Rect(rect.left, y, rect.width, line_h),
                color=color,
                align=align,
            )
            y += line_h

    @staticmethod
    def _lines(text: str, font: pygame.font.Font, width: int) -> list[str]:
        lines: list[str] = []
        for paragraph in text.split("\n"):
            line = ""
            for word in paragraph.split(" "):
                candidate = f"{line} {word}".strip()
                if font.size(candidate)[0] <= width or not line:
                    line = candidate
                else:
                    lines.append(line)
                    line = word
            lines.append(line)
        return lines

    def button(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        label: str,
        event: InputEvent,
        *,
        highlight: bool = False,
    ) -> None:
        radius = max(4, rect.height // 5)
        pygame.draw.rect(surface, PANEL_LIGHT if highlight else PANEL, rect, border_radius=radius)
        pygame.draw.rect(surface, ACCENT if highlight else DIM, rect, 2, border_radius=radius)
        self.text(surface, label, int(rect.height * 0.42), rect.inflate(-8, -4), align="center")
        self.targets.append((rect, event))

    def button_bar(
        self, surface: pygame.Surface, rect: pygame.Rect, buttons: Sequence[tuple[str, InputEvent]]
    ) -> None:
        gap = max(3, int(4 * self.unit))
        width = (rect.width - gap * (len(buttons) - 1)) // max(1, len(buttons))
        for i, (label, event) in enumerate(buttons):
            cell = pygame.Rect(rect.left + i * (width + gap), rect.top, width, rect.height)
            self.button(surface, cell, label, event)

    def symbol(
        self,
        surface: pygame.Surface,
        color: Color,
        center: tuple[int, int],
        r: int,
        ink: tuple[int, int, int],
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

    def card(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        color: Color | None,
        rank: int | None,
        *,
        empty: bool = False,
        mark: str | None = None,
        show_rank: bool = True,
    ) -> None:
        """A card face: suit colour, suit symbol, rank large."""
        radius = max(3, rect.width // 8)
        if color is None:
            pygame.draw.rect(surface, PANEL, rect, border_radius=radius)
            pygame.draw.rect(surface, DIM, rect, 2, border_radius=radius)
            self.text(
                surface,
                "?" if rank is None else str(rank),
                int(rect.height * 0.55),
                rect,
                color=DIM,
                align="center",
            )
            return
        rgb = SUIT_RGB[color]
        if empty:
            pygame.draw.rect(surface, PANEL, rect, border_radius=radius)
            pygame.draw.rect(surface, rgb, rect, max(2, rect.width // 18), border_radius=radius)
            ink = rgb
        else:
            if color is Color.MULTICOLOR:
                band = rect.height / len(RAINBOW)
                clip = surface.get_clip()
                surface.set_clip(rect)
                for i, stripe in enumerate(RAINBOW):
                    pygame.draw.rect(
                        surface, stripe, (rect.left, rect.top + i * band, rect.width, band + 1)
                    )
                surface.set_clip(clip)
                ink = (255, 255, 255)
            else:
                pygame.draw.rect(surface, rgb, rect, border_radius=radius)
                ink = ink_on(color)
        r = max(3, min(rect.width, rect.height) // 7)
        self.symbol(surface, color, (rect.left + r + 3, rect.top + r + 3), r, ink)
        label = "–" if rank in (None, 0) else str(rank)
        if not show_rank:
            return
        number = rect.inflate(-rect.width // 6, -rect.height // 5).move(0, rect.height // 12)
        self.text(surface, label, int(rect.height * 0.55), number, color=ink, align="center")
        if mark:
            badge = pygame.Rect(0, 0, max(14, rect.width // 2), max(14, rect.height // 3))
            badge.midbottom = (rect.centerx, rect.bottom - 2)
            pygame.draw.rect(surface, (20, 20, 28), badge, border_radius=3)
            self.text(surface, mark, int(badge.height * 0.8), badge, color=WARN, align="center")

    # -- the screens ---------------------------------------------------------------

    def draw(self, surface: pygame.Surface, controller: Controller) -> list[Target]:
        """Draw the controller's current screen; return its tap targets."""
        self.targets = []
        self.texts = []
        surface.fill(BACKGROUND)
        screen = controller.screen
        if screen is Screen.SETUP:
            self.draw_setup(surface, controller)
        elif screen in (Screen.GAME, Screen.UNDO) and controller.game is not None:
            self.draw_game(surface, controller)
            if screen is Screen.UNDO:
                self.targets = []  # only the dialog answers taps
                self.draw_undo(surface, controller)
        elif screen is Screen.ENTRY and controller.game is not None:
            self.draw_entry(surface, controller)
        elif screen is Screen.END and controller.game is not None:
            self.draw_end(surface, controller)
        elif screen is Screen.MENU:
            self.draw_menu(surface, controller)
        elif screen is Screen.HISTORY:
            self.draw_history(surface, controller)
        elif screen is Screen.HELP:
            self.draw_help(surface, controller)
        if controller.notice:
            banner = pygame.Rect(0, 0, self.width, max(18, self.height // 14))
            pygame.draw.rect(surface, WARN, banner)
            self.text(
                surface,
                controller.notice,
                int(banner.height * 0.7),
                banner.inflate(-8, 0),
                color=(20, 20, 28),
                align="center",
            )
        return self.targets

    def message_text(self, controller: Controller) -> tuple[str, tuple[int, int, int]]:
        lang, message = controller.language, controller.message
        names = controller.names
        if isinstance(message, Happened):
            return i18n.describe_event(lang, message.event, names), TEXT
        if isinstance(message, Refused):
            return i18n.refusal_text(lang, message.error, names), WARN
        if isinstance(message, Undone):
            what = i18n.describe_event(lang, message.event, names)
            return i18n.tr(lang, "ev_undone", what=what), ACCENT
        if isinstance(message, Info):
            return i18n.tr(lang, message.key, **dict(message.params)), WARN
        return "", TEXT

    def draw_game(self, surface: pygame.Surface, controller: Controller) -> None:
        game, lang = controller.game, controller.language
        assert game is not None
        w, h = self.width, self.height
        # Sizes follow the panel's shorter side: a portrait 320x480 draws its parts as a
        # 480x320 does, with the top bar on two rows and the extra height for the status.
        unit = min(w, h)
        portrait = h > w
        pad = max(4, unit // 60)
        wide = w >= 700
        main_w = int(w * 0.6) if wide else w
        top_h = int(unit * 0.13)
        head_h = 2 * top_h if portrait else top_h
        fw_h = int(unit * 0.29)
        tok_h = int(unit * 0.12)
        btn_h = max(int(unit * 0.14), 32)
        status_top = head_h + fw_h + tok_h + 3 * pad
        status_h = h - status_top - btn_h - 2 * pad
        line_h = min(status_h // 2, int(unit * 0.16))  # portrait: no giant letters
        # A tall panel has room for the discard pile under the status lines: no page to turn.
        pile_top = status_top + 2 * line_h + pad
        pile_h = h - btn_h - 2 * pad - pile_top
        pile_below = portrait and pile_h >= int(unit * 0.3)
        one_page = wide or pile_below
        position = game.position

        # whose turn, the fuses, the draw pile
        name = game.setup.names[position.current]
        bar_h = top_h - pad
        deck_w = int(bar_h * 2.1)
        fuses_w = int(bar_h * 3.3)
        if portrait:  # whose turn on a row of its own, the fuses and the pile below
            turn = pygame.Rect(pad, pad, w - 2 * pad, bar_h)
            fuses = pygame.Rect(pad, top_h + pad, fuses_w, bar_h)
        else:
            turn = pygame.Rect(pad, pad, main_w - deck_w - fuses_w - 4 * pad, bar_h)
            fuses = pygame.Rect(turn.right + pad, pad, fuses_w, bar_h)
        self.text(
            surface, i18n.tr(lang, "turn_of", name=name), int(top_h * 0.7), turn, color=ACCENT
        )
        self.draw_fuses(surface, game, fuses)
        deck = pygame.Rect(fuses.right + 2 * pad, fuses.top, deck_w, bar_h)
        pile = pygame.Rect(deck.left, deck.top, int(deck.height * 0.72), deck.height)
        pygame.draw.rect(surface, PANEL_LIGHT, pile, border_radius=4)
        pygame.draw.rect(surface, DIM, pile, 2, border_radius=4)
        self.text(
            surface,
            str(position.deck),
            int(top_h * 0.8),
            pygame.Rect(pile.right + pad, deck.top, deck.width - pile.width - pad, deck.height),
        )

        if controller.page == 1 and not one_page:
            area = pygame.Rect(pad, head_h + pad, w - 2 * pad, fw_h + tok_h + pad)
            self.draw_discards(surface, game, area, lang)
        else:
            self.draw_fireworks(
                surface, game, pygame.Rect(pad, head_h + pad, main_w - 2 * pad, fw_h), lang
            )
            self.draw_tokens(
                surface, game, pygame.Rect(pad, head_h + fw_h + 2 * pad, main_w - 2 * pad, tok_h)
            )
        if wide:
            side = pygame.Rect(main_w + pad, pad, w - main_w - 2 * pad, h - btn_h - 3 * pad)
            pygame.draw.rect(surface, PANEL, side, border_radius=8)
            self.draw_discards(surface, game, side.inflate(-2 * pad, -2 * pad), lang)
        if pile_below:
            below = pygame.Rect(pad, pile_top, w - 2 * pad, pile_h)
            pygame.draw.rect(surface, PANEL, below, border_radius=8)
            self.draw_discards(surface, game, below.inflate(-2 * pad, -2 * pad), lang)

        # what just happened, the final round, the team's margins
        status = pygame.Rect(pad, status_top, main_w - 2 * pad, status_h)
        text, color = self.message_text(controller)
        self.text(
            surface,
            text,
            int(line_h * 0.75),
            pygame.Rect(status.left, status.top, status.width, line_h),
            color=color,
        )
        order = game.final_round_order()
        if order:
            names = [game.setup.names[seat] for seat in order]
            joined = (
                names[0]
                if len(names) == 1
                else (", ".join(names[:-1]) + f" {i18n.tr(lang, 'then')} " + names[-1])
            )
            second = i18n.tr(lang, "final_round", order=joined)
            second_color = ACCENT
        else:
            second = "  ·  ".join(
                [
                    i18n.tr(lang, "score", score=game.score),
                    i18n.tr(lang, "max_score", score=game.max_score),
                    i18n.tr(lang, "pace", pace=game.pace),
                ]
            )
            if not one_page:
                second += f"  ·  {i18n.tr(lang, 'discards')} {len(position.discards)}"
            second_color = DIM
        self.text(
            surface,
            second,
            int(line_h * 0.7),
            pygame.Rect(status.left, status.top + line_h, status.width, line_h),
            color=second_color,
        )

        bar = pygame.Rect(pad, h - btn_h - pad, w - 2 * pad, btn_h)
        self.button_bar(
            surface,
            bar,
            [
                (i18n.tr(lang, "button_hint"), Press(Key.HINT)),
                (i18n.tr(lang, "button_play"), Press(Key.PLAY)),
                (i18n.tr(lang, "button_discard"), Press(Key.DISCARD)),
                (i18n.tr(lang, "button_undo"), Press(Key.UNDO)),
                ("Menu", Press(Key.MENU)),
            ],
        )
        if not one_page:  # the fireworks/discards area toggles pages when tapped
            self.targets.append(
                (pygame.Rect(0, head_h, w, fw_h + tok_h + 2 * pad), Press(Key.NEXT))
            )

    def draw_fireworks(
        self, surface: pygame.Surface, game: Game, rect: pygame.Rect, lang: str
    ) -> None:
        suits = game.setup.suits
        gap = max(4, rect.width // 60)
        width = min((rect.width - gap * (len(suits) - 1)) // len(suits), int(rect.height * 0.8))
        total = width * len(suits) + gap * (len(suits) - 1)
        left = rect.left + (rect.width - total) // 2
        dead = set(game.dead_fireworks())
        for i, suit in enumerate(suits):
            top = game.position.fireworks[suit.color]
            card = pygame.Rect(left + i * (width + gap), rect.top, width, rect.height)
            self.card(
                surface,
                card,
                suit.color,
                top,
                empty=top == 0,
                mark=i18n.tr(lang, "dead") if suit.color in dead and top < 5 else None,
            )

    def draw_tokens(self, surface: pygame.Surface, game: Game, rect: pygame.Rect) -> None:
        """The 8 hint tokens: blue when available, an empty ring when spent."""
        diameter = min(rect.height, int(rect.width / (MAX_HINTS * 1.15)))
        step = min(diameter * 1.3, (rect.width - diameter) / (MAX_HINTS - 1))
        r = diameter // 2
        for i in range(MAX_HINTS):
            center = (int(rect.left + r + i * step), rect.centery)
            if i < game.position.hints:
                pygame.draw.circle(surface, HINT_BLUE, center, r)
                pygame.draw.circle(surface, (210, 230, 255), center, max(2, r // 4))
            else:
                pygame.draw.circle(surface, PANEL_LIGHT, center, r, max(2, r // 5))

    def draw_fuses(self, surface: pygame.Surface, game: Game, rect: pygame.Rect) -> None:
        """The 3 fuses: a red flame when burnt, a dark ring while not."""
        diameter = min(rect.height, int(rect.width / (MAX_FUSES * 1.1)))
        step = (rect.width - diameter) / (MAX_FUSES - 1)
        r = diameter // 2
        cy = rect.centery
        for i in range(MAX_FUSES):
            center = (int(rect.left + r + i * step), cy)
            if i < game.position.fuses:
                pygame.draw.circle(surface, FUSE_RED, center, r)
                flame = [
                    (center[0], cy - r * 0.7),
                    (center[0] + r * 0.45, cy + r * 0.35),
                    (center[0] - r * 0.45, cy + r * 0.35),
                ]
                pygame.draw.polygon(surface, (255, 220, 90), flame)
            else:
                pygame.draw.circle(surface, (120, 60, 50), center, r, max(2, r // 5))

    def draw_discards(
        self, surface: pygame.Surface, game: Game, rect: pygame.Rect, lang: str
    ) -> None:
        title_h = max(16, rect.height // 9)
        self.text(
            surface,
            i18n.tr(lang, "discards"),
            int(title_h * 0.8),
            pygame.Rect(rect.left, rect.top, rect.width, title_h),
            color=DIM,
        )
        pile = game.position.discards
        if not pile:
            self.text(
                surface,
                i18n.tr(lang, "no_discards"),
                int(title_h * 0.7),
                pygame.Rect(rect.left, rect.top + title_h, rect.width, title_h),
                color=DIM,
            )
            return
        critical = set(game.critical_cards())
        lost = set(game.lost_cards())
        suits = [s for s in game.setup.suits if any(c.color is s.color for c in pile)]
        # One row per suit; when rows would be too short to read, the suits flow into
        # two or three columns.
        min_row = max(26, self.height // 9)
        body = rect.height - title_h
        columns = 1
        while columns < 3 and body // -(-len(suits) // columns) < min_row:
            columns += 1
        rows = -(-len(suits) // columns)
        row_h = min(body // rows, int(rect.width / 5))
        column_w = rect.width // columns
        for index, suit in enumerate(suits):
            cards = sorted(c for c in pile if c.color is suit.color)
            left = rect.left + (index // rows) * column_w
            y = rect.top + title_h + (index % rows) * row_h
            card_w = min(int(row_h * 0.72), (column_w - 6) // max(1, len(cards)) - 3)
            for i, card in enumerate(cards):
                box = pygame.Rect(left + i * (card_w + 3), y + 2, card_w, row_h - 4)
                mark = "×" if card in lost else ("!" if card in critical else None)
                self.card(surface, box, card.color, card.rank, mark=mark)

    def draw_entry(self, surface: pygame.Surface, controller: Controller) -> None:
        game, entry, lang = controller.game, controller.entry, controller.language
        assert game is not None and entry is not None
        w, h = self.width, self.height
        pad = max(4, h // 60)
        name = game.setup.names[game.position.current]
        title_h = int(h * 0.13)
        if entry.kind is None and entry.card is not None:
            title = i18n.tr(lang, "entry_scanned", card=i18n.card_name(lang, entry.card))
        elif entry.kind is EntryKind.DISCARD:
            title = i18n.tr(lang, "entry_discard", name=name)
        else:
            title = i18n.tr(lang, "entry_play", name=name)
        self.text(
            surface,
            title,
            int(title_h * 0.7),
            pygame.Rect(pad, pad, w - 2 * pad, title_h),
            color=ACCENT,
        )

        btn_h = max(int(h * 0.14), 32)
        body_top = title_h + 2 * pad
        card_h = int(h * 0.36)
        card_rect = pygame.Rect(pad * 2, body_top, int(card_h * 0.7), card_h)
        self.card(surface, card_rect, entry.color, entry.rank)

        info = pygame.Rect(
            card_rect.right + 3 * pad, body_top, w - card_rect.right - 5 * pad, card_h
        )
        step = controller.entry_step()
        prompt = (
            {
                EntryStep.COLOR: i18n.tr(lang, "entry_pick_color"),
                EntryStep.ANNOUNCE: i18n.tr(lang, "entry_pick_announce"),
                EntryStep.RANK: i18n.tr(lang, "entry_pick_rank"),
                EntryStep.CONFIRM: i18n.tr(lang, "entry_confirm"),
            }.get(step, "")
            if step is not None
            else ""
        )
        line_h = info.height // 3
        if isinstance(controller.preview, IllegalAction):
            prompt = i18n.tr(lang, "refused")
        self.text(
            surface, prompt, int(line_h * 0.6), pygame.Rect(info.left, info.top, info.width, line_h)
        )
        # What the entry will do; with no choices left to show, it may use their room too.
        preview = controller.preview
        room = pygame.Rect(info.left, info.top + line_h, info.width, 2 * line_h)
        if not controller.soft_choices():
            room.height = h - room.top - max(int(h * 0.14), 32) - 2 * pad
        if isinstance(preview, IllegalAction):
            text = i18n.refusal_text(lang, preview, game.setup.names)
            self.wrap(surface, text, int(line_h * 0.55), room, color=WARN)
        elif isinstance(preview, Event):
            color = GOOD if preview.kind is not EventKind.MISPLAY else WARN
            self.wrap(
                surface, self.preview_text(lang, preview), int(line_h * 0.55), room, color=color
            )

        choices_top = body_top + card_h + pad
        choices_h = h - choices_top - btn_h - 2 * pad
        choices = controller.soft_choices()
        if choices:
            gap = max(3, w // 100)
            tile_w = (w - 2 * pad - gap * 5) // 6
            for i, choice in enumerate(choices):
                tile = pygame.Rect(pad + i * (tile_w + gap), choices_top, tile_w, choices_h)
                label_h = max(12, tile.height // 4)
                face = pygame.Rect(tile.left, tile.top, tile.width, tile.height - label_h)
                if isinstance(choice, Color):
                    self.card(surface, face, choice, None, show_rank=False)
                    key_hint = COLOR_KEYS[choice]
                    event: InputEvent = ChooseColor(choice)
                else:
                    self.card(surface, face, entry.color, int(str(choice)), empty=True)
                    key_hint = str(choice)
                    event = ChooseRank(int(str(choice)))
                self.text(
                    surface,
                    f"{i18n.tr(lang, 'softkey_' + SOFT_KEYS[i].value)} · {key_hint}",
                    int(label_h * 0.8),
                    pygame.Rect(tile.left, face.bottom, tile.width, label_h),
                    color=DIM,
                    align="center",
                )
                self.targets.append((tile, event))
        elif (
            game.setup.options.timed_display
            and step is EntryStep.CONFIRM
            and entry.kind is EntryKind.PLAY
        ):
            announced = (
                i18n.tr(lang, "entry_announce", color=i18n.color_name(lang, entry.announce))
                if entry.announce is not None
                else i18n.tr(lang, "entry_no_announce")
            )
            self.text(
                surface,
                announced,
                int(choices_h * 0.3),
                pygame.Rect(pad, choices_top, w - 2 * pad, choices_h // 2),
            )

        bar = pygame.Rect(pad, h - btn_h - pad, w - 2 * pad, btn_h)
        cancel = (i18n.tr(lang, "cancel"), Press(Key.BACK))
        if step is EntryStep.KIND:
            buttons = [
                (i18n.tr(lang, "button_play"), Press(Key.PLAY)),
                (i18n.tr(lang, "button_discard"), Press(Key.DISCARD)),
                cancel,
            ]
        elif step is EntryStep.CONFIRM:
            buttons = [cancel]
            if game.setup.options.timed_display and entry.kind is EntryKind.PLAY:
                buttons.append((i18n.tr(lang, "button_announce"), Press(Key.PREVIOUS)))
            buttons.append((i18n.tr(lang, "confirm"), Press(Key.OK)))
        else:
            buttons = [cancel]
        self.button_bar(surface, bar, buttons)

    def preview_text(self, lang: str, event: Event) -> str:
        card = event.card
        assert card is not None
        color = i18n.color_name(lang, card.color)
        if event.kind is EventKind.PLAY:
            text = (
                i18n.tr(lang, "will_complete", color=color)
                if event.firework_completed
                else i18n.tr(lang, "will_fit", color=color, rank=card.rank)
            )
        elif event.kind is EventKind.MISPLAY:
            key = "will_wrong_announce" if event.announce_right is False else "will_misplay"
            text = i18n.tr(lang, key, fuses=event.fuses_after)
        else:
            text = i18n.tr(lang, "will_discard")
        if event.end is not None:
            text += " " + i18n.tr(lang, "will_end")
        return f"{i18n.card_name(lang, card)}: {text}"

    def draw_undo(self, surface: pygame.Surface, controller: Controller) -> None:
        lang = controller.language
        w, h = self.width, self.height
        surface.blit(self._veil, (0, 0))
        box = pygame.Rect(0, 0, int(w * 0.9), int(h * 0.6))
        box.center = (w // 2, h // 2)
        pygame.draw.rect(surface, PANEL, box, border_radius=10)
        pygame.draw.rect(surface, ACCENT, box, 2, border_radius=10)
        inner = box.inflate(-box.width // 12, -box.height // 10)
        row = inner.height // 4
        self.text(
            surface,
            i18n.tr(lang, "undo_title"),
            int(row * 0.6),
            pygame.Rect(inner.left, inner.top, inner.width, row),
            color=ACCENT,
            align="center",
        )
        last = controller.last_event()
        if last is not None:
            self.wrap(
                surface,
                i18n.describe_event(lang, last, controller.names),
                int(row * 0.45),
                pygame.Rect(inner.left, inner.top + row, inner.width, row * 1.6),
                align="center",
            )
        buttons = pygame.Rect(inner.left, inner.bottom - row, inner.width, row)
        self.button_bar(
            surface,
            buttons,
            [(i18n.tr(lang, "cancel"), Press(Key.BACK)), (i18n.tr(lang, "confirm"), Press(Key.OK))],
        )

    def draw_end(self, surface: pygame.Surface, controller: Controller) -> None:
        game, lang = controller.game, controller.language
        assert game is not None
        w, h = self.width, self.height
        pad = max(4, h // 60)
        btn_h = max(int(h * 0.14), 32)
        score_h = int(h * 0.3)
        score_rect = pygame.Rect(pad, pad, int(w * 0.32), score_h)
        self.text(
            surface, str(game.score), int(score_h * 0.95), score_rect, color=ACCENT, align="center"
        )
        self.text(
            surface,
            f"/ {game.setup.max_score}",
            int(score_h * 0.25),
            pygame.Rect(
                score_rect.left, score_rect.bottom - score_h // 6, score_rect.width, score_h // 5
            ),
            color=DIM,
            align="center",
        )
        right = pygame.Rect(score_rect.right + pad, pad, w - score_rect.right - 2 * pad, score_h)
        rating = game.rating
        reason = game.end_reason
        assert reason is not None
        seat_name = game.setup.names[game.position.current]
        reason_text = i18n.end_reason_text(lang, reason, seat_name)
        if rating is not None:
            title, sentence = i18n.rating_title(lang, rating), i18n.rating_sentence(lang, rating)
        else:
            title = (
                i18n.tr(lang, "end_perfect")
                if game.outcome and game.outcome.value == "won"
                else i18n.tr(lang, "lost")
            )
            sentence = reason_text
        self.text(
            surface,
            title,
            int(score_h * 0.33),
            pygame.Rect(right.left, right.top, right.width, score_h // 3),
            color=TEXT,
        )
        self.wrap(
            surface,
            sentence,
            int(score_h * 0.22),
            pygame.Rect(right.left, right.top + score_h // 3, right.width, score_h * 2 // 3),
            color=DIM,
        )
        y = score_rect.bottom + pad
        line = int(h * 0.08)
        if rating is not None:  # otherwise the reason is already the sentence above
            self.text(
                surface,
                reason_text,
                int(line * 0.75),
                pygame.Rect(pad, y, w - 2 * pad, line),
                color=ACCENT,
                align="center",
            )
        y += line + pad
        fw_h = int(h * 0.22)
        self.draw_fireworks(surface, game, pygame.Rect(pad, y, w - 2 * pad, fw_h), lang)
        y += fw_h + pad
        kinds = [event.kind for event in game.events]
        figures = " · ".join(
            [
                i18n.counted(lang, "turns", len(game.events)),
                i18n.counted(lang, "hints", kinds.count(EventKind.HINT)),
                i18n.counted(lang, "discards", kinds.count(EventKind.DISCARD)),
                i18n.counted(lang, "misplays", kinds.count(EventKind.MISPLAY)),
            ]
        )
        self.text(
            surface,
            figures,
            int(line * 0.7),
            pygame.Rect(pad, y, w - 2 * pad, line),
            color=DIM,
            align="center",
        )
        bar = pygame.Rect(pad, h - btn_h - pad, w - 2 * pad, btn_h)
        self.button_bar(
            surface,
            bar,
            [
                (i18n.tr(lang, "button_undo"), Press(Key.UNDO)),
                (i18n.tr(lang, "new_game"), Press(Key.OK)),
            ],
        )

    def setup_value(self, draft: SetupDraft, row: str, lang: str) -> str:
        if row == "players":
            return str(draft.players)
        if row == "first_player":
            return draft.name(draft.first_player % draft.players)
        if row == "names":
            return ", ".join(draft.name(seat) for seat in range(draft.players))
        if row == "language":
            return i18n.LANGUAGE_NAMES[draft.language]
        if row == "start":
            return ">>"
        return i18n.option_value(lang, row, draft.options.value(row))

    def draw_list(
        self,
        surface: pygame.Surface,
        title: str,
        rows: Sequence[tuple[str, str]],
        focus: int,
        targets: Sequence[InputEvent],
        *,
        footer: str = "",
    ) -> None:
        w, h = self.width, self.height
        pad, title_h, _ = self.page(surface, title)
        footer_h = int(h * 0.1) if footer else 0
        row_h = max(int(44 * self.unit), h // 9) if h >= 300 else h // 7
        visible = max(1, (h - title_h - footer_h - 2 * pad) // row_h)
        first = min(max(0, focus - visible // 2), max(0, len(rows) - visible))
        for i, (label, value) in enumerate(rows[first : first + visible]):
            index = first + i
            rect = pygame.Rect(pad, title_h + pad + i * row_h, w - 2 * pad, row_h - 3)
            highlight = index == focus
            pygame.draw.rect(surface, PANEL_LIGHT if highlight else PANEL, rect, border_radius=6)
            if highlight:
                pygame.draw.rect(surface, ACCENT, rect, 2, border_radius=6)
            half = rect.inflate(-16, -6)
            self.text(
                surface,
                label,
                int(row_h * 0.45),
                pygame.Rect(half.left, half.top, half.width // 2, half.height),
            )
            self.text(
                surface,
                value,
                int(row_h * 0.45),
                pygame.Rect(half.centerx, half.top, half.width // 2, half.height),
                color=ACCENT if highlight else TEXT,
                align="right",
            )
            self.targets.append((rect, targets[index]))
        if footer:
            self.text(
                surface,
                footer,
                int(footer_h * 0.6),
                pygame.Rect(pad, h - footer_h - pad, w - 2 * pad, footer_h),
                color=DIM,
                align="center",
            )

    def draw_setup(self, surface: pygame.Surface, controller: Controller) -> None:
        draft, lang = controller.draft, controller.language
        rows = []
        for row in SETUP_ROWS:
            label = i18n.tr(lang, row)
            rows.append((label, self.setup_value(draft, row, lang)))
        footer = ""
        if controller.editing_name is not None:
            seat = controller.editing_name
            typed = draft.names[seat] if seat < len(draft.names) else ""
            footer = f"{i18n.tr(lang, 'edit_name', n=seat + 1)}: {typed}_"
        elif controller.message is not None:  # a refused Start, a refusal: always said
            footer, _color = self.message_text(controller)
        self.draw_list(
            surface,
            i18n.tr(lang, "setup_title"),
            rows,
            controller.focus,
            [Select(row) for row in SETUP_ROWS],
            footer=footer,
        )

    def draw_menu(self, surface: pygame.Surface, controller: Controller) -> None:
        lang = controller.language
        rows = [(i18n.tr(lang, row), "") for row in MENU_ROWS]
        rows[-1] = (i18n.tr(lang, "language"), i18n.LANGUAGE_NAMES[lang])
        self.draw_list(
            surface,
            i18n.tr(lang, "menu"),
            rows,
            controller.menu_focus,
            [Select(row) for row in MENU_ROWS],
        )

    def page(self, surface: pygame.Surface, title: str) -> tuple[int, int, int]:
        """Draw a page's title; return its padding, title height and button-bar height."""
        w, h = self.width, self.height
        pad, title_h, btn_h = max(4, h // 60), int(h * 0.13), max(int(h * 0.13), 32)
        self.text(
            surface,
            title,
            int(title_h * 0.7),
            pygame.Rect(pad, pad, w - 2 * pad, title_h),
            color=ACCENT,
        )
        return pad, title_h, btn_h

    def draw_history(self, surface: pygame.Surface, controller: Controller) -> None:
        lang = controller.language
        w, h = self.width, self.height
        pad, title_h, btn_h = self.page(surface, i18n.tr(lang, "history"))
        history = controller.history or ([], [])
        games, stats = history
        line = max(16, int(h * 0.075))
        y = title_h + pad
        bottom = h - btn_h - 2 * pad
        if stats:
            self.text(
                surface,
                i18n.tr(lang, "stats"),
                int(line * 0.7),
                pygame.Rect(pad, y, w - 2 * pad, line),
                color=DIM,
            )
            y += line
            for row in stats:
                if y + line > bottom - line:
                    break
                variant = i18n.variant_name(lang, row.options)
                text = f"{row.players}P · {variant}: {row.best} / {row.average:.1f} ({row.games})"
                self.text(surface, text, int(line * 0.7), pygame.Rect(pad, y, w - 2 * pad, line))
                y += line
            y += pad
        if not games:
            self.text(
                surface,
                i18n.tr(lang, "history_empty"),
                int(line * 0.7),
                pygame.Rect(pad, y, w - 2 * pad, line),
                color=DIM,
            )
        for game_row in games[controller.scroll :]:
            if y + line > bottom:
                break
            when = _short_date(game_row.finished_at or game_row.started_at)
            if game_row.damaged:  # its log no longer replays: a row that says so
                damaged = i18n.tr(lang, "history_damaged", game=game_row.id)
                self.text(
                    surface,
                    f"{when}  {damaged}",
                    int(line * 0.7),
                    pygame.Rect(pad, y, w - 2 * pad, line),
                    color=WARN,
                )
                y += line
                continue
            rating = (
                i18n.rating_title(lang, game_row.rating)
                if game_row.rating
                else i18n.tr(lang, "lost")
            )
            variant = i18n.variant_name(lang, game_row.options)
            text = f"{when}  {game_row.players}P  {variant}  {game_row.score}  {rating}"
            self.text(surface, text, int(line * 0.7), pygame.Rect(pad, y, w - 2 * pad, line))
            y += line
        self.button_bar(
            surface,
            pygame.Rect(pad, h - btn_h - pad, w - 2 * pad, btn_h),
            [
                ("<", Press(Key.PREVIOUS)),
                (">", Press(Key.NEXT)),
                (i18n.tr(lang, "resume") if controller.game else "OK", Press(Key.BACK)),
            ],
        )

    def draw_help(self, surface: pygame.Surface, controller: Controller) -> None:
        lang = controller.language
        w, h = self.width, self.height
        pad, title_h, btn_h = self.page(surface, i18n.tr(lang, "help_title"))
        rows = i18n.HELP_ROWS[lang if lang in i18n.HELP_ROWS else "en"]
        area = pygame.Rect(pad, title_h + pad, w - 2 * pad, h - title_h - btn_h - 3 * pad)
        line = max(area.height // len(rows), min(24, area.height // 4))
        fits = max(1, area.height // line)
        first = min(controller.scroll, max(0, len(rows) - fits))  # NEXT / PREVIOUS scroll
        for i, (keys, button_names, meaning) in enumerate(rows[first : first + fits]):
            y = area.top + i * line
            self.text(
                surface,
                keys,
                int(line * 0.62),
                pygame.Rect(area.left, y, area.width * 0.27, line),
                color=ACCENT,
            )
            self.text(
                surface,
                button_names,
                int(line * 0.62),
                pygame.Rect(area.left + area.width * 0.28, y, area.width * 0.27, line),
                color=HINT_BLUE,
            )
            self.text(
                surface,
                meaning,
                int(line * 0.62),
                pygame.Rect(area.left + area.width * 0.56, y, area.width * 0.44, line),
            )
        buttons: list[tuple[str, InputEvent]] = [("OK", Press(Key.BACK))]
        if fits < len(rows):
            buttons = [("<", Press(Key.PREVIOUS)), (">", Press(Key.NEXT)), *buttons]
        self.button_bar(surface, pygame.Rect(pad, h - btn_h - pad, w - 2 * pad, btn_h), buttons)


def _short_date(stamp: str | None) -> str:
    if not stamp:
        return "?"
    try:
        return datetime.fromisoformat(stamp).strftime("%d/%m %H:%M")
    except ValueError:
        return stamp[:16]


__all__ = ["Card", "Renderer", "Target"]
