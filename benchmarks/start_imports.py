"""What the companion does before its first frame: start time, CPU time and imports.

    .venv/bin/python benchmarks/start_imports.py [RUNS] [--no-web] [--python PATH]
        [--against CHECKOUT]

``--python PATH``: the interpreter whose start is measured (default: the one running
this script). The appliance's is Debian's ``/usr/bin/python3`` in a venv made as
``systemd/install.sh`` makes it, with the package installed (not editable)::

    /usr/bin/python3 -m venv /tmp/appliance
    /tmp/appliance/bin/pip install -q . pytest   # pytest: app_speed's Xvfb helper
    .venv/bin/python benchmarks/start_imports.py --python /tmp/appliance/bin/python

``--against CHECKOUT``: also times, between the starts, the start of another checkout of
the companion (its own data directory, made with its own storage; no configuration file,
so no page for phones), and prints this checkout's median over its. Issue 23 measured
0.185 s on the code of 7e03efc, whose start then had no page for phones; on a machine
whose speed moves by half within an hour, the ratio at the same moment says what a
figure of the day cannot::

    git worktree add --detach /tmp/before 7e03efc
    .venv/bin/python benchmarks/start_imports.py 15 --against /tmp/before

Whatever the interpreter, the companion's code is the checkout's (``python -m`` run
from it puts it first on ``sys.path``); its start, ``site`` and what its venv installs
are the interpreter's.

Starts its own Xvfb, makes a data directory with a game to resume, then starts
``hanabi-companion run`` (:data:`CONSOLE_SCRIPT`) RUNS times (default 9) with ``$NOTIFY_SOCKET``
set, as the appliance starts: with a configuration file
that turns the page for phones on (``[web]``, on a free port; ``--no-web``: no
configuration file, no page): the app sends ``READY=1`` right after presenting
its first frame, and at that moment this script reads the process's CPU time
(utime + stime, ``/proc/PID/stat``) and stops it. Prints the median wall time
(spawn to ``READY=1``), the median CPU time (which a busy machine disturbs far
less than the wall time), the same for the floor under it (:data:`FLOOR`: a pygame
program with the companion's libraries, its window and one flip, run between the
starts), and, from one more start run with ``-X importtime``
(which slows the start it reports on, so the timed starts run without it), the
modules imported before the first frame: the top-level packages and the
slowest imports (cumulative microseconds, as ``-X importtime`` prints them).

Bytecode is cached as an install leaves it (in a private
``PYTHONPYCACHEPREFIX``, not in the checkout). Any module the first frame
does not need is a candidate for a lazy import (docs/decisions/0059-first-frame-imports.md,
"The first frame imports only what it needs"). Takes about 20 s.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

from app_speed import REPO, X, game_to_resume, xvfb

RUNS = 9

#: What the appliance's service runs (``ExecStart=…/venv/bin/hanabi-companion run``): the
#: console script pip writes for ``[project.scripts]``, its lines as they are, given to
#: ``python -c`` so that the code is the checkout's. (``python -m companion`` would add
#: ``runpy`` and ``importlib.util``, which the service does not import.)
CONSOLE_SCRIPT = """
import re
import sys
from companion.shell.cli import main
if __name__ == "__main__":
    sys.argv[0] = re.sub(r"(-script\\.pyw|\\.exe)?$", "", sys.argv[0])
    sys.exit(main())
"""


def console_script(checkout: Path) -> str:
    """:data:`CONSOLE_SCRIPT` for ``checkout``: the ``hanabi-companion`` entry point its own
    ``pyproject.toml`` names (an older checkout's is ``companion.cli:main``)."""
    with (checkout / "pyproject.toml").open("rb") as file:
        target = tomllib.load(file)["project"]["scripts"]["hanabi-companion"]
    module, _, function = target.partition(":")
    imported = function if function == "main" else f"{function} as main"
    return CONSOLE_SCRIPT.replace(
        "from companion.shell.cli import main", f"from {module} import {imported}"
    )


def run_arguments(data: Path, config: Path | None, gpio: str = "none") -> list[str]:
    """The ``run`` of ``app_speed.py``'s start: the stored game resumed, no GPIO (``gpio``:
    the pin factory); with ``config`` (the page for phones on), as the appliance runs."""
    configured = [] if config is None else ["--config", str(config)]
    return ["--data-dir", str(data), "--size", "480x320", "--gpio", gpio, *configured]


def web_config(folder: Path) -> Path:
    """A configuration file that turns the page for phones on, on a port free now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    path = folder / "config.toml"
    path.write_text(f'[web]\nenabled = true\nport = {port}\nbind = "127.0.0.1"\n')
    return path


#: The floor under the companion's start: what any pygame program with the companion's
#: libraries pays before its first frame (Python, ``import pygame, msgspec``, SDL's video
#: and a window made as the companion makes it under x11: no OpenGL, no D-Bus session bus
#: autolaunched, see ``companion/panel/display.py``; one flip), then ``READY=1``.
FLOOR = """
import os, socket
import msgspec, pygame
os.environ["SDL_FRAMEBUFFER_ACCELERATION"] = "0"
os.environ.setdefault("DBUS_SESSION_BUS_ADDRESS", "disabled:")
pygame.display.init()
pygame.display.set_mode((480, 320))
pygame.font.init()
pygame.display.flip()
socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(b"READY=1", os.environ["NOTIFY_SOCKET"])
"""


def start_once(
    python: str,
    env: dict[str, str],
    data: Path,
    config: Path | None,
    scratch: Path,
    importtime: bool = False,
    checkout: Path = REPO,
) -> tuple[float, float, str]:
    """One start of ``python``: (wall s to READY=1, CPU s at READY=1, its standard error). With
    ``importtime``, Python runs with ``-X importtime`` (which slows the start it measures,
    so the timed starts run without it) and the standard error holds its lines. ``checkout``:
    the companion's code started (``python -c`` runs in it)."""
    command = [
        python,
        *(["-X", "importtime"] if importtime else []),
        "-c",
        console_script(checkout),
        "run",
        *run_arguments(data, config),
    ]
    return spawn_to_ready(command, env, scratch, checkout)


def floor_once(python: str, env: dict[str, str], scratch: Path) -> tuple[float, float, str]:
    """One run of :data:`FLOOR`, timed as a start."""
    return spawn_to_ready([python, "-c", FLOOR], env, scratch)


def spawn_to_ready(
    command: list[str], env: dict[str, str], scratch: Path, cwd: Path = REPO
) -> tuple[float, float, str]:
    """(wall s from spawn to READY=1, CPU s at READY=1, standard error) of ``command``."""
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify_path = scratch / "notify"
    notify_path.unlink(missing_ok=True)
    notify.bind(str(notify_path))
    notify.settimeout(0.05)
    stderr_path = scratch / "stderr"
    with stderr_path.open("wb") as stderr:
        spawned = time.perf_counter()
        process = subprocess.Popen(
            command,
            env={**env, "NOTIFY_SOCKET": str(notify_path)},
            cwd=cwd,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if b"READY=1" in notify.recv(4096).split(b"\n"):
                    break
            except TimeoutError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        f"the companion did not start: {stderr_path.read_text()[-2000:]}"
                    ) from None
        wall = time.perf_counter() - spawned
        fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    finally:
        process.kill()
        process.wait()
        notify.close()
    return wall, cpu, stderr_path.read_text()


#: The data directory of an older checkout's start (``--against``), made with its own
#: storage: a 3-player game to resume, as :func:`app_speed.game_to_resume` makes ours.
OLDER_GAME = """
import sys
from pathlib import Path
from companion.storage import Storage
from engine.setup import GameSetup
storage = Storage.open(Path(sys.argv[1]))
storage.new_game(GameSetup(players=3))
storage.close()
"""


def older_game_to_resume(python: str, env: dict[str, str], checkout: Path) -> Path:
    """A data directory with a game to resume, in ``checkout``'s own storage format."""
    data = Path(tempfile.mkdtemp(prefix="start-imports-older-"))
    subprocess.run([python, "-c", OLDER_GAME, str(data)], env=env, cwd=checkout, check=True)
    return data


def imports_before_first_frame(text: str) -> list[tuple[int, int, str]]:
    """(self µs, cumulative µs, module) of each ``-X importtime`` line."""
    rows = []
    for line in text.splitlines():
        if not line.startswith("import time:") or "[us]" in line:
            continue
        own, cumulative, name = line.removeprefix("import time:").split("|")
        rows.append((int(own), int(cumulative), name.rstrip()))
    return rows


def start_environment(display_name: str, prefix: str) -> tuple[dict[str, str], str, Path]:
    """What a measured start runs in: the X server, no SDL driver forced, no systemd to
    notify, bytecode cached in a folder of its own (as an install has it); that folder,
    and a scratch folder."""
    env = {**os.environ, "DISPLAY": display_name}
    for name in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY", "PYTHONDONTWRITEBYTECODE"):
        env.pop(name, None)
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
        env.pop(name, None)
        os.environ.pop(name, None)
    pycache = tempfile.mkdtemp(prefix=f"{prefix}-pycache-")
    env["PYTHONPYCACHEPREFIX"] = pycache
    return env, pycache, Path(tempfile.mkdtemp(prefix=f"{prefix}-"))


def interpreter_option(parser: argparse.ArgumentParser) -> None:
    """``--python PATH``, the interpreter whose start is measured."""
    parser.add_argument(
        "--python",
        default=sys.executable,
        metavar="PATH",
        help="the interpreter whose start is measured (default: this one)",
    )


def interpreter_version(python: str) -> str:
    """``Python 3.11.2``: what ``python --version`` says."""
    said = subprocess.run([python, "--version"], capture_output=True, text=True, check=True)
    return said.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description="Start to first frame: times and imports.")
    parser.add_argument("runs", nargs="?", type=int, default=RUNS, help=f"default {RUNS}")
    parser.add_argument("--no-web", action="store_true", help="without the page for phones")
    interpreter_option(parser)
    parser.add_argument(
        "--against",
        type=Path,
        metavar="CHECKOUT",
        help="also time the start of another checkout (e.g. a git worktree of an older"
        " commit) between the starts, without a configuration file",
    )
    options = parser.parse_args()
    runs, web, against = options.runs, not options.no_web, options.against
    python = os.path.abspath(options.python)  # the older checkout's starts run in its folder
    older: list[tuple[float, float, str]] = []
    with xvfb() as display_name:
        env, pycache, scratch = start_environment(display_name, "start-imports")
        x = X(display_name)
        older_data = None if against is None else older_game_to_resume(python, env, against)

        def start_older() -> None:
            """One start of the older checkout, if any (kept in ``older``)."""
            if against is not None and older_data is not None:
                timed = start_once(python, env, older_data, None, scratch, checkout=against)
                older.append(timed)

        try:
            data = game_to_resume(env, x)
            config = web_config(scratch) if web else None
            start_once(python, env, data, config, scratch)  # fills the bytecode cache
            start_older()  # the same for the older checkout, not counted:
            older.clear()
            starts, floors = [], []
            for _ in range(runs):  # interleaved: a busy machine slows both alike
                starts.append(start_once(python, env, data, config, scratch))
                start_older()
                floors.append(floor_once(python, env, scratch))
            imports = start_once(python, env, data, config, scratch, importtime=True)[2]
        finally:
            x.close()
            shutil.rmtree(pycache, ignore_errors=True)
            shutil.rmtree(scratch, ignore_errors=True)
            if older_data is not None:
                shutil.rmtree(older_data, ignore_errors=True)
        shutil.rmtree(data, ignore_errors=True)
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    walls = [wall for wall, _, _ in starts]
    cpus = [cpu for _, cpu, _ in starts]
    page = "with the page for phones" if web else "without the page for phones"
    print(f"{python} ({interpreter_version(python)})")
    print(f"start to first frame (spawn -> READY=1), {page}, {runs} runs, load average {load}:")
    print(f"  wall: median {statistics.median(walls):.3f} s (min {min(walls):.3f} s)")
    print(f"  CPU:  median {statistics.median(cpus):.3f} s (min {min(cpus):.3f} s, 10 ms ticks)")
    floor_walls = [wall for wall, _, _ in floors]
    floor_cpus = [cpu for _, cpu, _ in floors]
    print(
        "the floor (Python, pygame and msgspec imported, SDL's window, one flip; no companion):"
        f"\n  wall: median {statistics.median(floor_walls):.3f} s"
        f" (min {min(floor_walls):.3f} s), CPU: median {statistics.median(floor_cpus):.3f} s"
    )
    if older:
        older_wall = statistics.median(wall for wall, _, _ in older)
        print(
            f"{against}'s start, without a configuration file:\n  wall: median"
            f" {older_wall:.3f} s; this checkout's / it: "
            f"{statistics.median(walls) / older_wall:.2f}"
        )
    rows = imports_before_first_frame(imports)
    roots = {name.strip().split(".")[0] for _, _, name in rows}
    top = sorted(roots - set(sys.stdlib_module_names) - {"_frozen_importlib_external"})
    total = sum(own for own, _, _ in rows)
    print(
        f"imports before the first frame (one more start, with -X importtime): {len(rows)}"
        f" modules, {total / 1e6:.3f} s"
    )
    print("  packages outside the standard library: " + " ".join(top))
    print("  slowest (cumulative µs):")
    for _, cumulative, name in sorted(rows, reverse=True, key=lambda row: row[1])[:25]:
        print(f"    {cumulative:>8}  {name}")


if __name__ == "__main__":
    main()
