"""The companion: the pygame app, its storage and its command line."""

import os

# pygame prints a banner on import; the companion's output is its own (JSON lines, logs).
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
