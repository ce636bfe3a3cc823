"""hardware.wiring: the values the config names, importable without device libraries."""

from __future__ import annotations

import subprocess
import sys

import pytest

from hardware.wiring import PROTOCOLS, HardwareError, PanelPins


def test_config_loads_without_gpiozero_or_pyserial():
    """The companion's start does not pay for device libraries it may not use."""
    code = (
        "import sys, companion.shell.config, hardware.wiring;"
        "print(sorted(m for m in ('gpiozero', 'serial') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_protocols():
    assert PROTOCOLS == ("rdm6300", "line", "keyboard")


def test_a_pin_used_twice_is_refused_with_both_roles():
    with pytest.raises(HardwareError, match="ok: pin 5 is already used by hint"):
        PanelPins(hint=5, ok=5)
