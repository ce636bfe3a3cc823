"""The loop's sleep: woken by a thread's poke or by input on a device, never polling.

FIFOs stand in for /dev/input/event* devices. The pytest timeouts bound
liveness only: a sleep that is not woken runs into its 60 s timeout and fails.
"""

from __future__ import annotations

import os
import threading

import pytest

from companion.panel.sleeping import Sleeper


@pytest.fixture
def devices(tmp_path):
    os.mkfifo(tmp_path / "event0")
    return tmp_path


@pytest.mark.timeout(30)
def test_a_poke_from_another_thread_wakes_the_sleep(devices):
    sleeper = Sleeper("evdev", input_dir=devices)
    try:
        threading.Timer(0.1, sleeper.poke).start()
        sleeper.sleep(60)
        # the poke was drained: the next sleep really sleeps (bounded here by 0 s)
        sleeper.sleep(0)
    finally:
        sleeper.close()


@pytest.mark.timeout(30)
def test_input_on_a_device_wakes_the_sleep(devices):
    """A key on the console's keyboard (kmsdrm/evdev) wakes the loop; SDL reads it itself."""
    sleeper = Sleeper("kmsdrm", input_dir=devices)
    writer = None
    try:
        sleeper.sleep(0)  # opens the devices present
        writer = os.open(devices / "event0", os.O_WRONLY | os.O_NONBLOCK)
        threading.Timer(0.1, os.write, args=(writer, b"x" * 24)).start()
        sleeper.sleep(60)
    finally:
        if writer is not None:
            os.close(writer)
        sleeper.close()


def test_devices_follow_plugging(devices):
    sleeper = Sleeper("evdev", input_dir=devices)
    try:
        sleeper.sleep(0)
        assert list(sleeper._devices) == [str(devices / "event0")]
        (devices / "event0").unlink()
        os.mkfifo(devices / "event3")
        sleeper.sleep(0)
        assert list(sleeper._devices) == [str(devices / "event3")]
    finally:
        sleeper.close()


def test_many_pokes_never_block_a_thread(devices):
    """A full pipe means a wake-up is pending already: poke never blocks the button thread."""
    sleeper = Sleeper("dummy", input_dir=devices)
    try:
        for _ in range(200_000):
            sleeper.poke()
        sleeper.sleep(0)
    finally:
        sleeper.close()


@pytest.mark.parametrize(("driver", "can_sleep"), [("wayland", False), ("dummy", True)])
def test_unknown_driver_falls_back_to_pygame_waiting(devices, driver, can_sleep):
    sleeper = Sleeper(driver, input_dir=devices)
    assert sleeper.can_sleep is can_sleep
    sleeper.close()


X11_SLEEPER = """
import sys, pygame
pygame.display.init()
pygame.display.set_mode((120, 80))
from companion.panel.sleeping import Sleeper
sleeper = Sleeper(pygame.display.get_driver())
made = "ctypes" in sys.modules
print(sleeper.driver, made, sleeper.can_sleep, "ctypes" in sys.modules)
"""


@pytest.mark.timeout(60)
def test_the_x_connection_is_found_when_the_loop_first_sleeps_not_before(xvfb):
    """In an X window the loop sleeps on the X server's connection; its descriptor (found
    with ctypes) is looked up when the loop is first about to sleep, after the first frame,
    not when the sleeper is made."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", X11_SLEEPER], env=xvfb, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["x11", "False", "True", "True"]
