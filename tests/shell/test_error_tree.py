"""The project's one exception tree (engine/errors.py): a root, and leaves that are builtins.

gpiozero's pattern: every exception the project raises on purpose is a
``CompanionError``, and each leaf also inherits the builtin a caller means to catch.
"""

from __future__ import annotations

import errno
import importlib
import inspect
import pkgutil

from companion.panel.display import DisplayError
from companion.shell.config import ConfigError
from companion.storage import (
    CompanionRunningError,
    DamagedGameError,
    GameStateError,
    StorageError,
    StorageFullError,
    UnknownGameError,
)
from engine.errors import CompanionError
from hardware.keyboard import DeviceGrabbedError, NotAnInputDeviceError
from hardware.scanner import PortInUseError, ScannerError
from hardware.wiring import HardwareError, NoGpioError, WiringError

BUILTIN_LEAVES = (ValueError, OSError, RuntimeError, LookupError)


def project_exceptions() -> list[type[BaseException]]:
    """Every exception class defined in engine/, hardware/ and companion/."""
    found = []
    for package in ("engine", "hardware", "companion"):
        for module_info in pkgutil.iter_modules([package]):
            if module_info.name == "__main__":  # `python -m companion`: it runs the command
                continue
            module = importlib.import_module(f"{package}.{module_info.name}")
            for _, value in inspect.getmembers(module, inspect.isclass):
                if issubclass(value, BaseException) and value.__module__ == module.__name__:
                    found.append(value)
    return found


def test_every_exception_of_the_project_is_a_companion_error_and_a_builtin():
    exceptions = project_exceptions()
    assert len(exceptions) >= 20  # the walk found the modules
    for cls in exceptions:
        assert issubclass(cls, CompanionError), cls
        if cls not in (CompanionError, HardwareError):  # the two roots catch by family
            assert issubclass(cls, BUILTIN_LEAVES), f"{cls.__name__} inherits no builtin"


def test_each_error_is_the_builtin_a_caller_means():
    assert issubclass(NoGpioError, RuntimeError) and not issubclass(NoGpioError, ValueError)
    assert issubclass(WiringError, ValueError)
    assert issubclass(ConfigError, ValueError)
    assert issubclass(StorageError, OSError)
    assert issubclass(UnknownGameError, LookupError) and issubclass(GameStateError, ValueError)
    assert issubclass(DisplayError, RuntimeError)
    assert issubclass(PortInUseError, OSError) and issubclass(PortInUseError, ScannerError)
    assert issubclass(ScannerError, HardwareError)
    assert issubclass(DeviceGrabbedError, OSError) and issubclass(DeviceGrabbedError, ScannerError)
    assert issubclass(NotAnInputDeviceError, ValueError)
    assert not issubclass(NotAnInputDeviceError, OSError)  # not retried: the config is wrong


def test_storage_faults_are_storage_errors_and_the_oserror_they_are():
    """Issue 10: a full card is ENOSPC, a second companion EAGAIN (BlockingIOError)."""
    assert issubclass(StorageFullError, StorageError)
    assert StorageFullError("full").errno == errno.ENOSPC
    assert str(StorageFullError("The SD card is full")) == "The SD card is full"
    assert issubclass(CompanionRunningError, StorageError)
    assert issubclass(CompanionRunningError, BlockingIOError)
    assert str(CompanionRunningError("Another companion")) == "Another companion"
    assert issubclass(DamagedGameError, StorageError)
    assert DamagedGameError("damaged", 3).game_id == 3
