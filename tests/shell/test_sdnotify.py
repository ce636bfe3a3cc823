"""Tests for companion.shell.sdnotify: real AF_UNIX datagram sockets stand in for systemd."""

from __future__ import annotations

import logging
import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.notify_socket import Receiver

from companion.shell import sdnotify
from companion.shell.sdnotify import Watchdog, extend_timeout, notify, ready, status, stopping


@pytest.fixture
def abstract_receiver() -> Iterator[Receiver]:
    name = f"hanabi-companion-test-{uuid.uuid4().hex}"
    receiver = Receiver.bind(b"\0" + name.encode(), "@" + name)
    yield receiver
    receiver.close()


@pytest.fixture(autouse=True)
def _no_inherited_systemd_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests may themselves run under systemd: start from a clean slate."""
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
        monkeypatch.delenv(name, raising=False)


def test_notify_sends_the_message_to_notify_socket(
    receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", receiver.path)
    assert notify("READY=1") is True
    assert receiver.receive() == "READY=1"


def test_notify_explicit_socket_path_wins_over_environment(
    receiver: Receiver, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "elsewhere"))
    assert notify("STATUS=x", socket_path=receiver.path) is True
    assert receiver.receive() == "STATUS=x"


def test_notify_reaches_an_abstract_socket(abstract_receiver: Receiver) -> None:
    assert notify("READY=1", socket_path=abstract_receiver.path) is True
    assert abstract_receiver.receive() == "READY=1"


def test_notify_outside_systemd_returns_false() -> None:
    assert "NOTIFY_SOCKET" not in os.environ
    assert notify("READY=1") is False


def test_notify_to_missing_socket_returns_false_and_logs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger=sdnotify.__name__):
        assert notify("READY=1", socket_path=str(tmp_path / "gone")) is False
    assert "READY=1" in caplog.text


def test_notify_ignores_a_relative_socket_path(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger=sdnotify.__name__):
        assert notify("READY=1", socket_path="relative/notify") is False
    assert "relative/notify" in caplog.text


def test_helpers_send_the_standard_messages(receiver: Receiver) -> None:
    assert ready(socket_path=receiver.path)
    assert stopping(socket_path=receiver.path)
    assert status("Game 3: 17 points\nfinal round", socket_path=receiver.path)
    assert receiver.receive() == "READY=1"
    assert receiver.receive() == "STOPPING=1"
    assert receiver.receive() == "STATUS=Game 3: 17 points final round"


def test_extend_timeout_asks_for_microseconds(receiver: Receiver) -> None:
    """sd_notify(3) wants whole microseconds: 45 s is 45000000, 0.5 s is 500000."""
    assert extend_timeout(45, socket_path=receiver.path)
    assert extend_timeout(0.5, socket_path=receiver.path)
    assert [receiver.receive(), receiver.receive()] == [
        "EXTEND_TIMEOUT_USEC=45000000",
        "EXTEND_TIMEOUT_USEC=500000",
    ]


def test_extend_timeout_outside_systemd_is_a_no_op() -> None:
    assert extend_timeout(45) is False


def test_watchdog_interval_is_half_the_timeout() -> None:
    watchdog = Watchdog({"WATCHDOG_USEC": "10000000"})
    assert watchdog.enabled
    assert watchdog.timeout == 10.0
    assert watchdog.interval == 5.0


def test_watchdog_disabled_without_watchdog_usec(receiver: Receiver) -> None:
    watchdog = Watchdog({"NOTIFY_SOCKET": receiver.path})
    assert not watchdog.enabled
    assert watchdog.interval is None
    assert watchdog.ping(0.0) is False
    assert receiver.nothing_pending()


def test_watchdog_for_another_pid_is_disabled() -> None:
    other_pid = str(os.getpid() + 1)
    assert not Watchdog({"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": other_pid}).enabled


def test_watchdog_for_this_pid_is_enabled() -> None:
    own_pid = str(os.getpid())
    assert Watchdog({"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": own_pid}).enabled


@pytest.mark.parametrize(
    ("name", "value"),
    [("WATCHDOG_USEC", "ten"), ("WATCHDOG_USEC", "-5"), ("WATCHDOG_PID", "x")],
)
def test_watchdog_rejects_malformed_environment(name: str, value: str) -> None:
    environ = {"WATCHDOG_USEC": "1000000", name: value}
    with pytest.raises(ValueError, match=name):
        Watchdog(environ)


def test_watchdog_pings_when_due_and_not_before(receiver: Receiver) -> None:
    watchdog = Watchdog({"WATCHDOG_USEC": "2000000", "NOTIFY_SOCKET": receiver.path})
    assert watchdog.ping(100.0) is True  # the first call always pings
    assert receiver.receive() == "WATCHDOG=1"
    assert watchdog.ping(100.5) is False
    assert watchdog.ping(100.999) is False
    assert receiver.nothing_pending()
    assert watchdog.ping(101.0) is True
    assert receiver.receive() == "WATCHDOG=1"
    assert watchdog.ping(101.2) is False


def test_watchdog_reads_os_environ_by_default(
    receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "4000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    monkeypatch.setenv("NOTIFY_SOCKET", receiver.path)
    watchdog = Watchdog()
    assert watchdog.interval == 2.0
    assert watchdog.ping(0.0)
    assert receiver.receive() == "WATCHDOG=1"


def test_watchdog_retries_after_a_failed_ping(tmp_path: Path) -> None:
    path = tmp_path / "late"
    watchdog = Watchdog({"WATCHDOG_USEC": "2000000"}, socket_path=str(path))
    assert watchdog.ping(0.0) is False  # nobody listening yet
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        sock.bind(str(path))
        sock.settimeout(5)
        assert watchdog.ping(0.1) is True  # still due: the failed ping did not count
        assert sock.recv(64) == b"WATCHDOG=1"
    finally:
        sock.close()
