"""No text can break a screen (issue 24): a notice or a message of any length and any
characters is wrapped and cut to the band the layout gives it, on every screen and panel.

A damaged database's notice once carried SQLite's whole integrity report: the banner took
the screen's height and ``Renderer.draw`` died in ``subsurface``, a restart loop on the
appliance. The renderers here are strict: a layout flaw raises.
"""

from __future__ import annotations

import os
from functools import cache

import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.screen_states import STATES

from companion.core.controller import Controller, Info
from companion.panel.screens import BANNER_SHARE, Renderer

SIZES = [(240, 320), (320, 240), (480, 320), (320, 480), (800, 480)]

#: Text as a damaged file or a device can hand it over: any code point (control
#: characters, lone surrogates, the NUL byte, right-to-left marks, emoji), long lines, many
#: lines, words longer than the panel.
ODD_TEXT = st.one_of(
    st.text(min_size=1, max_size=3000),
    st.text(alphabet=st.characters(codec=None), min_size=1, max_size=400),
    st.lists(st.text(min_size=1, max_size=200), min_size=1, max_size=60).map("\n".join),
    st.integers(1, 4000).map(lambda n: "x" * n),
    st.just("On tree page 8 cell 66: invalid page number 1234567\n" * 200),
)


@pytest.fixture(autouse=True, scope="module")
def headless() -> None:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.font.init()


@cache
def renderer(size: tuple[int, int]) -> Renderer:
    return Renderer(size)


@cache
def state(name: str) -> Controller:
    return STATES[name]("en")


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    text=ODD_TEXT,
    size=st.sampled_from(SIZES),
    screen=st.sampled_from(sorted(STATES)),
    as_message=st.booleans(),
)
def test_any_text_as_notice_or_message_is_cut_to_its_band_on_every_screen(
    text, size, screen, as_message
):
    """The rule: whatever the notice or a message's words hold, the screen is drawn (no
    exception, no overlap), the notice band never takes more than its share of the panel,
    and every line drawn stays on the panel."""
    controller = state(screen)
    saved = controller.notice, controller.message
    try:
        if as_message:
            controller.message = Info("journal_damaged_kept_aside", (("copy", text),))
        else:
            controller.notice = text
        drawing = renderer(size)
        surface = pygame.Surface(size)
        drawing.draw(surface, controller)
        panel = pygame.Rect((0, 0), size)
        for drawn in drawing.texts:
            assert panel.contains(drawn.rect), (drawn, size)
        if not as_message:
            assert drawing.banner_height(text) <= size[1] * BANNER_SHARE
    finally:
        controller.notice, controller.message = saved
