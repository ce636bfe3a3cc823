"""The companion as a real process on SDL's dummy screen, for the tests that start it.

``RunningCompanion`` starts ``hanabi-companion run`` with a notify socket of its own;
``ready`` waits for READY=1, and leaving the block stops it with SIGTERM.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMMAND = [sys.executable, "-m", "companion"]
DUMMY_RUN = ("--display", "dummy", "--gpio", "none")


class RunningCompanion:
    """`hanabi-companion run` as a real process on the dummy screen; READY=1 says it is up."""

    def __init__(self, tmp_path: Path, data_dir: Path) -> None:
        self.socket_path = str(tmp_path / f"notify-{os.getpid()}-{id(self)}")
        self.data_dir = data_dir
        self.returncode: int | None = None
        self.stderr = ""

    def __enter__(self) -> RunningCompanion:
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.listener.bind(self.socket_path)
        self.listener.settimeout(60)
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "NOTIFY_SOCKET": self.socket_path}
        for name in ("WATCHDOG_USEC", "WATCHDOG_PID", "INVOCATION_ID"):
            env.pop(name, None)
        self.process = subprocess.Popen(
            [*COMMAND, "run", "--data-dir", str(self.data_dir), *DUMMY_RUN],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        return self

    def ready(self) -> bool:
        while True:
            message = self.listener.recv(256).decode()
            if message == "READY=1":
                return True

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            _, self.stderr = self.process.communicate(timeout=30)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            self.listener.close()
        self.returncode = self.process.returncode
