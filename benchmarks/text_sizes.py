"""The smallest text on each screen at each panel size, against its floor.

Draws every representative state of the screens' tests (tests/support/screen_states.py:
five long names, six suits, the final round, the timed display, the crowning
piece, a long discard pile, a notice, a long history) at six panel sizes in
every language, and prints, per state and size, the smallest text drawn (in px,
the font's pixel size) and the floor (1/18 of the panel's shorter side).

    .venv/bin/python benchmarks/text_sizes.py
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import pygame
from support.screen_states import STATES

from companion.core import i18n
from companion.panel.screens import Renderer

SIZES = [(320, 240), (480, 320), (800, 480), (240, 320), (320, 480), (480, 800)]


def main() -> None:
    pygame.font.init()
    print("smallest text in px (every language), per state and panel; floor = shorter/18")
    header = "state".ljust(26) + "".join(f"{w}x{h}".rjust(9) for w, h in SIZES)
    print(header)
    print("floor".ljust(26) + "".join(str(math.ceil(min(s) / 18)).rjust(9) for s in SIZES))
    cut = 0
    for name, build in STATES.items():
        row = name.ljust(26)
        for size in SIZES:
            smallest = 10**6
            for lang in i18n.LANGUAGES:
                renderer = Renderer(size)
                renderer.draw(pygame.Surface(size), build(lang))
                smallest = min([smallest, *(drawn.size for drawn in renderer.texts)])
                cut += sum(not drawn.whole for drawn in renderer.texts)
            row += str(smallest).rjust(9)
        print(row)
    print(f"lines cut: {cut}")


if __name__ == "__main__":
    main()
