"""The page for phones in a variant by Hanab Live's name (issue 35), in a real browser.

The companion runs in its window (Xvfb, keys by xdotool) with ``[game] variant`` in its
config file: the game started with Return is that variant, and the phone's page (Debian's
Chromium through Playwright) names it under the score line, names the multicolour cards'
firework by the special suit, and shows Clue Starved's half tokens as ``7½/8``.
A phone choosing the next game's variant: tests/web/test_phone_setup.py (decision 0124).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.xwindow import keys
from test_web_browser import free_port, start_app, wait_for_actions, wait_for_port

pytestmark = pytest.mark.xvfb


def test_the_phone_names_the_variant_and_shows_half_tokens(
    xvfb: dict[str, str], page: Any, tmp_path: Path
) -> None:
    data, config = tmp_path / "data", tmp_path / "config.toml"
    port = free_port()
    config.write_text(
        '[game]\nplayers = 3\nhints = "count"\nvariant = "Clue Starved & Pink (6 Suits)"\n\n'
        f'[web]\nenabled = true\nport = {port}\nbind = "127.0.0.1"\n',
        encoding="utf-8",
    )
    app, window, url = start_app(xvfb, data, config)
    try:
        wait_for_port(port)
        page.goto(url)
        keys(xvfb, window, "Return")  # start: the config's variant
        wait_for_actions(page, 0)
        assert page.inner_text("#table-variant") == "Clue Starved & Pink (6 Suits)"
        assert page.inner_text("#hints") == "8/8"
        pink = page.get_attribute("#fireworks .card:last-child", "title")
        assert pink == "Pink"
        keys(xvfb, window, "h")  # a hint: a whole token (two halves)
        wait_for_actions(page, 1)
        assert page.inner_text("#hints") == "7/8"
        keys(xvfb, window, "d", "r", "1", "Return")  # a discard: half a token back
        wait_for_actions(page, 2)
        assert page.inner_text("#hints") == "7½/8"
    finally:
        app.terminate()
        app.wait(timeout=20)
