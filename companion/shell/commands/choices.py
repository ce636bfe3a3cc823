"""The values the command line offers that its commands read too: pages and sizes.

Light on purpose: the parser imports it for every command, before it knows which runs.
"""

from __future__ import annotations

import argparse

#: Games `history` lists at a time (`--page N` for older ones).
HISTORY_LIST_PAGE = 20

#: The pages ``render --page`` draws: the game screen's, then the end screen's.
#: Each name's page (a :class:`~companion.core.controller.GamePage` value); ``end…`` on the
#: end screen, and ``hands`` on the end screen too once the game is over.
RENDER_PAGES = {
    "game": "table",
    "discards": "discards",
    "actions": "actions",
    "hands": "hands",
    "end": "table",
    "end-discards": "discards",
    "end-actions": "actions",
    "end-story": "story",
    "end-bgstats": "play_log",
    "end-replay": "replay",
}


def page_number(text: str) -> int:
    """A page number: 1 or more; :class:`argparse.ArgumentTypeError` otherwise."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a page number (1, 2, 3 …)")
    return int(text)


def parse_size(text: str) -> tuple[int, int]:
    """``480x320`` as (480, 320); :class:`argparse.ArgumentTypeError` for what is not a
    size, or a panel too small to hold the text at its floor."""
    # Only when a size is given: the configuration's checks (msgspec, the engine's
    # options) stay out of the commands that take none (``replay``).
    from companion.shell.config_values import panel_size_problem

    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 480x320") from None
    problem = panel_size_problem(width, height)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return width, height
