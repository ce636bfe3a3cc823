"""The end screen's story page: the game's curve turn by turn, and why the best score dropped.

The curve (:func:`engine.story.story`) is drawn as four lines over the turns: the score,
the highest score still reachable, the pace and the hint tokens, each in its colour and
named in its colour above the chart; a tick in the warning colour marks each turn at
which the highest score dropped. Below the chart, every such turn in words ("turn 31: Bo
discarded the last blue 4: max 24"), at the floor: the words come first, the chart takes
the room they leave (at least :data:`MIN_CHART_LINES` lines of text high, else none).
"""

from __future__ import annotations

import pygame

from companion.core import i18n
from companion.core.controller import Controller
from companion.core.story_words import drop_words
from companion.panel.screens.kit import ACCENT, DIM, GOOD, HINT_BLUE, PANEL, TEXT, WARN, Kit
from engine.story import Point, story
from hardware.events import InputEvent

#: The chart is drawn only where it is at least this many lines of text at the floor high.
MIN_CHART_LINES = 3

#: Each line of the chart: the figure of a point it draws, and its colour.
SERIES = (
    ("score", ACCENT),
    ("max_score", TEXT),
    ("pace", GOOD),
    ("hints", HINT_BLUE),
)


def draw(
    kit: Kit, surface: pygame.Surface, controller: Controller, buttons: list[tuple[str, InputEvent]]
) -> None:
    """The page: its title and legend, the chart, the drops, the end screen's buttons."""
    game, lang = controller.game, controller.language
    assert game is not None
    layout = kit.layout()
    pad, inner_w = kit.pad, kit.width - 2 * kit.pad
    bar_h = kit.bar_height([label for label, _ in buttons], inner_w)
    bar = layout.place("buttons", pygame.Rect(pad, kit.height - pad - bar_h, inner_w, bar_h))
    kit.button_bar(surface, bar, buttons)
    told = story(game)
    title = i18n.tr(lang, "story_title")
    title_box = layout.place(
        "title", pygame.Rect(pad, pad, inner_w, kit.height_of(title, kit.floor, inner_w))
    )
    kit.text(surface, title, title_box, color=ACCENT)
    words = [drop_words(lang, drop, game) for drop in told.drops] or [
        i18n.tr(lang, "story_no_drop")
    ]
    heights = [kit.height_of(text, kit.floor, inner_w) for text in words]
    line_h = kit.line_height(kit.floor)
    legend_h = line_h
    top = title_box.bottom + pad
    room = bar.top - pad - top
    chart_h = room - legend_h - pad - sum(heights) - pad * len(heights)
    y = top
    if chart_h >= MIN_CHART_LINES * line_h:
        legend = layout.place("legend", pygame.Rect(pad, y, inner_w, legend_h))
        _legend(kit, surface, lang, legend)
        chart = layout.place("chart", pygame.Rect(pad, legend.bottom + pad, inner_w, chart_h))
        _chart(surface, chart, told.points, [drop.turn for drop in told.drops])
        y = chart.bottom + pad
    for number, (text, height) in enumerate(zip(words, heights, strict=True)):
        if y + height > bar.top - pad:
            break  # the first drops are the ones that mattered most: the later ones go
        box = layout.place(f"drop {number}", pygame.Rect(pad, y, inner_w, height))
        kit.text(surface, text, box, color=WARN if told.drops else DIM)
        y = box.bottom + pad


def _legend(kit: Kit, surface: pygame.Surface, lang: str, box: pygame.Rect) -> None:
    """The four series named in their colours, on one line; one dim line where they do not
    fit so (a narrow panel in German)."""
    names = i18n.tr(lang, "story_legend").split(" · ")
    widths = [kit.width_of(name, kit.floor) for name in names]
    gap = kit.width_of(" · ", kit.floor)
    if len(names) != len(SERIES) or sum(widths) + gap * (len(names) - 1) > box.width:
        kit.text(surface, " · ".join(names), box, color=DIM)
        return
    x = box.left
    for name, width, (_, color) in zip(names, widths, SERIES, strict=True):
        kit.text(surface, name, pygame.Rect(x, box.top, width, box.height), color=color)
        x += width + gap


def _chart(
    surface: pygame.Surface, box: pygame.Rect, points: tuple[Point, ...], drops: list[int]
) -> None:
    """The four series as lines over the turns, and a tick at each drop."""
    pygame.draw.rect(surface, PANEL, box)
    values = [v for p in points for v in (p.score, p.max_score, p.pace or 0, p.hints)]
    low, high = min(0, *values), max(1, *values)
    last = max(1, points[-1].turn)
    inner = box.inflate(-8, -8)

    def at(turn: int, value: int) -> tuple[int, int]:
        x = inner.left + round(turn * (inner.width - 1) / last)
        y = inner.bottom - 1 - round((value - low) * (inner.height - 1) / (high - low))
        return x, y

    for turn in drops:
        x, _ = at(turn, low)
        pygame.draw.line(surface, WARN, (x, inner.top), (x, inner.bottom - 1), 1)
    width = max(1, box.height // 60)
    for name, color in SERIES:
        line = [
            at(p.turn, value)
            for p in points
            if (value := getattr(p, name)) is not None  # the pace has none at the end
        ]
        if len(line) > 1:
            pygame.draw.lines(surface, color, False, line, width)
