"""Start to first frame in instructions, which a busy machine does not change.

    .venv/bin/python benchmarks/start_instructions.py [--no-web] [--python PATH] [--gpio mock]

The same start as ``start_imports.py`` (its own Xvfb, a data directory with a
game to resume, a configuration that turns the page for phones on; ``--no-web``:
none), run once under valgrind's callgrind with ``PYTHONHASHSEED=0`` and
bytecode cached as an install leaves it. The process ends the moment the app
would send ``READY=1`` (right after presenting its first frame): the
``sdnotify.ready`` of this one process is replaced by an ``os._exit``, so the
count holds the start and nothing after it. Prints callgrind's total (Ir) and,
from the same run, the biggest C-level costs by function (inclusive).

Where wall and CPU times vary several-fold with the machine's load, the count
varies by a few instructions from run to run: a change's effect on the start is
read here, its time in ``start_imports.py``. Takes about a minute (callgrind runs
the start about 50 times slower).

``--python PATH``: the interpreter whose start is counted (default: the one running
this script), e.g. the appliance's, Debian's ``/usr/bin/python3`` in a venv made as
``systemd/install.sh`` makes it (the commands are in ``start_imports.py``)::

    .venv/bin/python benchmarks/start_instructions.py --python /tmp/appliance/bin/python

``--gpio mock``: with the default button panel on gpiozero's mock pins (the start
otherwise runs with ``--gpio none``, as ``start_imports.py``'s): what a panel adds.

Debian's ``python3`` is stripped: callgrind names none of its functions, so the
breakdown has only the lines of SDL's libraries.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys

from app_speed import REPO, X, game_to_resume, xvfb
from start_imports import (
    interpreter_option,
    interpreter_version,
    run_arguments,
    start_environment,
    web_config,
)

#: The start, cut at READY=1: ``python -c`` with these lines, then ``run``'s arguments.
STARTER = """
import os, sys
import companion.shell.sdnotify
companion.shell.sdnotify.ready = lambda **_: os._exit(0)  # the first frame is on the screen
from companion.shell.cli import main
main(["run", *sys.argv[1:]])
"""

#: C functions worth naming in the breakdown (callgrind's inclusive counts).
NAMED = {
    "_PyParser_ASTFromString": "Python source compiled at run time (dataclasses' methods)",
    "marshal_loads": "bytecode read from the cache (every module imported)",
    "_imp_create_dynamic": "C extensions loaded",
    "pg_display_init": "SDL's video started (pygame.display.init)",
    "XOpenIM": "  of which libX11 reading the Compose table (x11 only)",
    "pg_set_mode": "the window opened (pygame.display.set_mode)",
}


def main() -> None:
    parser = argparse.ArgumentParser(description="Start to first frame in instructions.")
    parser.add_argument("--no-web", action="store_true", help="without the page for phones")
    interpreter_option(parser)
    parser.add_argument(
        "--gpio", choices=("none", "mock"), default="none", help="the button panel's pins"
    )
    options = parser.parse_args()
    web, python = not options.no_web, options.python
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        sys.exit("valgrind is not installed")
    with xvfb() as display_name:
        env, pycache, scratch = start_environment(display_name, "start-instructions")
        env["PYTHONHASHSEED"] = "0"
        x = X(display_name)
        try:
            data = game_to_resume(env, x)
            config = web_config(scratch) if web else None
            start = [python, "-c", STARTER, *run_arguments(data, config, options.gpio)]
            subprocess.run(start, env=env, cwd=REPO, capture_output=True, check=True)  # the cache
            out = scratch / "callgrind.out"
            with subprocess.Popen(
                [valgrind, "--tool=callgrind", f"--callgrind-out-file={out}", *start],
                env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            ) as run:  # fmt: skip
                _, said = run.communicate()
            # this process's total: a child forked on the way (SDL's D-Bus used to fork
            # one to run dbus-launch) prints its own, under its own pid
            total = re.search(rf"^=={run.pid}== Collected : (\d+)", said, re.M)
            if total is None:
                sys.exit(f"callgrind gave no total:\n{said[-2000:]}")
            annotated = subprocess.run(
                ["callgrind_annotate", "--inclusive=yes", str(out)],
                capture_output=True, text=True, check=False,
            ).stdout  # fmt: skip
        finally:
            x.close()
            shutil.rmtree(pycache, ignore_errors=True)
            shutil.rmtree(scratch, ignore_errors=True)
        shutil.rmtree(data, ignore_errors=True)
    instructions = int(total.group(1))
    page = "with the page for phones" if web else "without the page for phones"
    if options.gpio != "none":
        page += f", the button panel on --gpio {options.gpio}"
    print(f"{python} ({interpreter_version(python)})")
    print(f"start to first frame (READY=1), {page}: {instructions / 1e6:.1f} M instructions")
    for function, what in NAMED.items():
        found = re.search(rf"^\s*([\d,]+) \([^)]*\)\s+\S*:{function} \[", annotated, re.M)
        if found:
            share = int(found.group(1).replace(",", "")) / instructions
            print(f"  {share:6.1%}  {what}")


if __name__ == "__main__":
    main()
