"""The system tier: one booted VM per Debian suite, installed the way the README says.

The ``appliance`` fixture builds (or takes from the cache) the image, boots it,
copies the checkout in, runs ``systemd/install.sh`` there, and reboots, so the
service starts at boot like on a Pi. It is module-scoped: the tests of
``test_appliance.py`` run in file order against that one machine, each naming
the check it makes. Figures of the run (image build, install, boot to READY)
are kept on the fixture for the closing lines of the report.

Skipped, with the reason in one line, only where this machine cannot run the
tier at all: QEMU or debootstrap missing, or no root to build a missing image.
``.ci/run`` installs the tools and runs as root: in CI (``CI`` set) the same
reasons fail the run instead (``tests/support/needs.py``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import vm
from support.needs import unavailable
from vm import Appliance


def _tier_unavailable(arch: str) -> str | None:
    missing = vm.missing_tools(arch)
    if missing:
        tools = ", ".join(missing)
        return f"the system tier needs {tools} (Debian: qemu-system-x86 qemu-utils debootstrap)"
    return None


@pytest.fixture(scope="module", params=vm.wanted_suites())
def appliance(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Appliance]:
    suite: str = request.param
    arch = vm.wanted_arch()
    reason = _tier_unavailable(arch)
    if reason:
        unavailable(reason)
    directory = tmp_path_factory.mktemp(f"vm-{suite}-{arch}")
    try:
        image = vm.build_image(suite, arch, log=directory / "build.log")
    except vm.VMError as error:
        if "needs root" in str(error):
            unavailable(str(error))
        raise
    figures: dict[str, float] = {}
    if image.build_seconds is not None:
        figures["image build (s)"] = image.build_seconds
    wheels = vm.make_wheelhouse(suite, arch)
    payload = vm.make_payload(wheels, directory)
    accel = vm.probe_accelerator(image, directory)
    machine = vm.Machine(image, payload, directory, accel)
    appliance = Appliance(machine, suite, arch, figures)
    try:
        appliance.install_output = vm.install_and_reboot(machine, figures)
        yield appliance
    finally:
        (directory / "console-tail.txt").write_text(machine.console_tail(200))
        machine.close()
        _report(request, appliance, accel)


#: Figures of each VM run, printed at the end of the session.
REPORTS: list[str] = []


def _report(request: pytest.FixtureRequest, appliance: Appliance, accel: str) -> None:
    lines = [f"{appliance.suite} {appliance.arch} ({accel}):"]
    lines += [f"  {name}: {value:.2f}" for name, value in appliance.figures.items()]
    REPORTS.append("\n".join(lines))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if REPORTS:
        terminalreporter.section("system tier figures")
        for report in REPORTS:
            terminalreporter.write_line(report)
