"""The companion: the pygame app, its storage and its command line."""

import os

# pygame prints a banner on import; the companion's output is its own (JSON lines, logs).
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# One X window class however the app is started (console script or python -m); pygame
# derives it from argv[0] when it is imported unless this is set first.
os.environ.setdefault("SDL_VIDEO_X11_WMCLASS", "hanabi-companion")
