"""Memory stays bounded while playing (issue 10, item 7): the caches that grow with play
have a bound. benchmarks/memory.py prints the resident memory after 1 and 100 games."""

from __future__ import annotations

import pygame
import pytest

from companion.panel.screens import TEXT_CACHE_ENTRIES, Renderer


@pytest.fixture
def surface(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame.font.init()
    return pygame.Surface((480, 320))


def test_the_rendered_text_cache_keeps_at_most_its_bound_and_drops_the_least_recent(surface):
    """Every new message is a new line of text: the cache must not keep them all."""
    kit = Renderer((480, 320)).kit
    rect = pygame.Rect(0, 0, 400, 24)
    kit.text(surface, "the score line", rect, size=20)
    for number in range(3 * TEXT_CACHE_ENTRIES):
        kit.text(surface, f"message {number}", rect, size=20)
        if number % 50 == 0:
            kit.text(surface, "the score line", rect, size=20)  # drawn every frame
    cached = {key[0] for key in kit._rendered}
    assert len(kit._rendered) == TEXT_CACHE_ENTRIES
    assert "the score line" in cached  # used recently: kept
    assert "message 0" not in cached  # the oldest: dropped
    assert f"message {3 * TEXT_CACHE_ENTRIES - 1}" in cached
