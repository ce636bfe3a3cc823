"""Memory stays bounded while playing (issue 10, item 7): the caches that grow with play
have a bound. benchmarks/memory.py prints the resident memory after 1 and 100 games."""

from __future__ import annotations

import pygame
import pytest

from companion.screens import TEXT_CACHE_ENTRIES, Renderer


@pytest.fixture
def surface(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame.font.init()
    return pygame.Surface((480, 320))


def test_the_rendered_text_cache_keeps_at_most_its_bound_and_drops_the_least_recent(surface):
    """Every new message is a new line of text: the cache must not keep them all."""
    renderer = Renderer((480, 320))
    rect = pygame.Rect(0, 0, 400, 24)
    renderer.text(surface, "the score line", 20, rect)
    for number in range(3 * TEXT_CACHE_ENTRIES):
        renderer.text(surface, f"message {number}", 20, rect)
        if number % 50 == 0:
            renderer.text(surface, "the score line", 20, rect)  # drawn every frame
    cached = {key[0] for key in renderer._rendered}
    assert len(renderer._rendered) == TEXT_CACHE_ENTRIES
    assert "the score line" in cached  # used recently: kept
    assert "message 0" not in cached  # the oldest: dropped
    assert f"message {3 * TEXT_CACHE_ENTRIES - 1}" in cached
