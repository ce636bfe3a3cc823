"""Figures of the appliance in the system-test VM: boot to READY, key to screen, idle CPU, RSS.

Boots the same VM as the system tier (tests/system/vm.py: Debian, virtio-gpu
display, systemd, the checkout installed by systemd/install.sh), then measures:

- install time, and boot to READY (systemd's monotonic clock: kernel start to
  the service's READY=1, i.e. its first frame on the panel);
- key to screen: a QMP ``send-key`` of "h" (a hint) until QEMU's screendump
  differs, 5 times, median; the screendump's own time is part of it;
- idle CPU of the service over 30 s, as % of one core (from /proc/PID/stat);
- RSS of the service (VmRSS), after those frames.

The VM runs under TCG emulation here (this machine's nested KVM cannot boot a
Debian kernel), ~20-40x slower than native for Python: times are the
emulator's, CPU and memory are the guest's own.

Run as root: ``.venv/bin/python benchmarks/vm_figures.py [trixie|bookworm]``
(``HANABI_VM_ARCH=arm64`` for the Pi's architecture).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "system"))

import vm


def main() -> None:
    suite = sys.argv[1] if len(sys.argv) > 1 else "trixie"
    arch = vm.wanted_arch()
    directory = Path(tempfile.mkdtemp(prefix=f"vm-figures-{suite}-"))
    image = vm.build_image(suite, arch, log=directory / "build.log")
    payload = vm.make_payload(vm.make_wheelhouse(suite, arch), directory)
    accel = vm.probe_accelerator(image, directory)
    machine = vm.Machine(image, payload, directory, accel)
    figures: dict[str, float] = {}
    if image.build_seconds is not None:
        figures["image build (s)"] = image.build_seconds
    try:
        vm.install_and_reboot(machine, figures)
        appliance = vm.Appliance(machine, suite, arch, figures)
        appliance.wait_active(restarts=0)
        times = appliance.show("ActiveEnterTimestampMonotonic", "ExecMainStartTimestampMonotonic")
        entered = int(times["ActiveEnterTimestampMonotonic"])
        figures["boot to READY (s)"] = entered / 1e6
        figures["service start to READY (s)"] = (
            entered - int(times["ExecMainStartTimestampMonotonic"])
        ) / 1e6

        machine.send_keys("2", "ret")
        time.sleep(20)
        latencies = []
        for _ in range(5):
            _, before = machine.screendump()
            sent = time.monotonic()
            machine.send_keys("h", gap=0)
            while True:
                _, now = machine.screendump()
                if now != before:
                    latencies.append(time.monotonic() - sent)
                    break
                if time.monotonic() - sent > 120:
                    raise vm.VMError("the screen did not change within 120 s of a key")
            time.sleep(3)
        figures["key to changed screen, median of 5 (ms)"] = statistics.median(latencies) * 1000
        figures["key to changed screen, max (ms)"] = max(latencies) * 1000

        pid = appliance.show("MainPID")["MainPID"]
        time.sleep(5)
        figures["idle CPU over 30 s (% of a core)"] = appliance.idle_cpu(pid, 30)
        figures["RSS (MB)"] = appliance.rss_mb(pid)
    finally:
        machine.close()
    print(f"{suite} {arch} ({accel}), panel {vm.PANEL[0]}x{vm.PANEL[1]}:")
    for name, value in figures.items():
        print(f"  {name}: {value:.2f}")


if __name__ == "__main__":
    main()
