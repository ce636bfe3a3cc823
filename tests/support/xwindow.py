"""The companion's window in a real X server (the ``xvfb`` fixture): found, focused and
typed into with xdotool, as the app, the burst and the phone-page tests drive it."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest


def find_window(app: subprocess.Popen[bytes] | subprocess.Popen[str], env: dict[str, str]) -> str:
    """The window of ``app`` once it is shown, focused; the test fails (``app`` killed)
    if it does not appear within 20 s, or says why ``app`` ended first."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        found = subprocess.run(
            ["xdotool", "search", "--classname", "hanabi-companion"],
            env=env,
            capture_output=True,
            text=True,
        )
        if found.stdout.strip():
            window = found.stdout.split()[0]
            subprocess.run(["xdotool", "windowfocus", "--sync", window], env=env, check=False)
            time.sleep(0.3)  # let the window take the focus before the first key
            return window
        if app.poll() is not None:
            err = app.communicate()[1]
            pytest.fail(f"the companion ended: {err.decode() if isinstance(err, bytes) else err}")
        time.sleep(0.1)
    app.kill()
    pytest.fail("the companion's window did not appear within 20 s")


def keys(env: dict[str, str], window: str, *names: str) -> None:
    """Type ``names`` (xdotool key names) into ``window``, a person's pace apart."""
    for name in names:
        subprocess.run(["xdotool", "key", "--window", window, name], env=env, check=True)
        time.sleep(0.05)


@contextlib.contextmanager
def x_server() -> Iterator[dict[str, str]]:
    """A private X server (Xvfb, 1024x768): the environment a program started in it needs
    (its DISPLAY; no SDL driver or Wayland display forced)."""
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    env = {**os.environ, "DISPLAY": f":{number}"}
    env.pop("SDL_VIDEODRIVER", None)
    env.pop("WAYLAND_DISPLAY", None)
    try:
        yield env
    finally:
        server.terminate()
        server.wait(timeout=10)


COMMAND = [sys.executable, "-m", "companion"]


def start_app(
    env: dict[str, str], data: Path, *options: str
) -> tuple[subprocess.Popen[bytes], str]:
    app = subprocess.Popen(
        [*COMMAND, "run", "--data-dir", str(data), "--size", "480x320", "--gpio", "none", *options],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    return app, find_window(app, env)


def export(data: Path) -> str:
    done = subprocess.run(
        [*COMMAND, "export", "--data-dir", str(data)], capture_output=True, text=True, check=True
    )
    return done.stdout


def wait_for_actions(data: Path, count: int) -> list[dict[str, object]]:
    deadline = time.monotonic() + 10
    lines: list[dict[str, object]] = []
    while time.monotonic() < deadline:
        if (data / "games.db").exists():
            text = export(data) if _has_game(data) else ""
            # the actions: not the header, nor the end line (a comment)
            lines = [json.loads(line) for line in text.splitlines()[1:] if line[:1] != "#"]
            if len(lines) >= count:
                return lines
        time.sleep(0.1)
    pytest.fail(f"expected {count} stored actions, found {len(lines)}: {lines}")


def _has_game(data: Path) -> bool:
    done = subprocess.run([*COMMAND, "export", "--data-dir", str(data)], capture_output=True)
    return done.returncode == 0
