"""A Debian VM the way a Pi boots the companion: DRM display, systemd, our installer.

The system tier's machinery, used by ``tests/system/test_appliance.py`` and
``benchmarks/vm_figures.py``:

- :func:`build_image` makes (once, then from a cache keyed on its inputs) a
  Debian root file system with ``debootstrap``, Debian's own kernel, Mesa and
  Python, plus a test agent (``guest_agent.py``) on a virtio-serial port;
- :func:`make_wheelhouse` downloads the wheels the installer needs for the
  VM's Python, because the VM has no network;
- :class:`Machine` boots it in QEMU with a ``virtio-gpu-pci`` display (a real
  ``/dev/dri/card0`` at a panel's mode), a second disk holding the checkout
  and the wheels, QMP for the screen (``screendump``) and the keyboard
  (``send-key``), and runs commands through the agent.

Nothing here is the appliance: the checkout is installed in the VM by
``systemd/install.sh``, exactly as on a Pi.

Switches (environment): ``HANABI_VM_SUITES`` (``trixie``, ``bookworm`` or
both, space-separated; default ``trixie``), ``HANABI_VM_ARCH`` (``amd64``, or
``arm64`` for the Pi's architecture under ``qemu-system-aarch64``),
``HANABI_VM_CACHE`` (where images and wheels are kept; default
``/var/cache/hanabi-companion-vm``), ``HANABI_VM_ACCEL`` (``kvm`` or ``tcg`` to
skip the probe), ``HANABI_VM_MIRROR`` (default: this machine's own Debian mirror,
read from its apt sources).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import inspect
import json
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent

#: The panel the VM's display pretends to be: the driver's preferred mode.
PANEL = (800, 480)

#: What the image holds besides Debian's minimal base. The companion's own
#: packages are *not* all here on purpose where install.sh must be tested to
#: ask for them; those it would install with apt are pre-installed because the
#: VM has no network (install.sh then finds them and asks apt for nothing).
#: python3-gpiozero is Debian's 1.6: the venv's 2.x must win over it.
IMAGE_PACKAGES = (
    "linux-image-{kernel_arch}",
    "systemd-sysv",
    "udev",
    "kmod",
    "procps",
    "python3",
    "python3-venv",
    "python3-gpiozero",
    "python3-evdev",
    "libdrm2",
    "libgbm1",
    "libegl1",
    "libegl-mesa0",
    "libgles2",
    "libgl1-mesa-dri",
)

SUITES = {"trixie": "3.13", "bookworm": "3.11"}
"""Debian suites the system test boots, with their Python."""

ARCHES = {
    "amd64": {
        "qemu": "qemu-system-x86_64",
        "kernel_arch": "amd64",
        "wheel_platforms": (
            "manylinux_2_17_x86_64",
            "manylinux2014_x86_64",
            "manylinux_2_28_x86_64",
        ),
        "machine": ["-machine", "q35", "-cpu", "max"],
        "console": "ttyS0",
    },
    "arm64": {
        "qemu": "qemu-system-aarch64",
        "kernel_arch": "arm64",
        "wheel_platforms": (
            "manylinux_2_17_aarch64",
            "manylinux2014_aarch64",
            "manylinux_2_28_aarch64",
            "manylinux_2_34_aarch64",
        ),
        # The Pi 4's core; a USB keyboard, since -M virt has no PS/2.
        "machine": [
            "-machine", "virt", "-cpu", "cortex-a72",
            "-device", "qemu-xhci", "-device", "usb-kbd",
        ],
        "console": "ttyAMA0",
    },
}  # fmt: skip

#: Bump to rebuild every cached image (the key also covers the packages, the agent and
#: :func:`_configure_rootfs`).
RECIPE_VERSION = 1


class VMError(RuntimeError):
    """The VM could not be built, booted or reached; the message says which step."""


@dataclass(frozen=True)
class Image:
    """A bootable image: the kernel, its initramfs and the root file system."""

    suite: str
    arch: str
    kernel: Path
    initrd: Path
    disk: Path
    build_seconds: float | None  # None: taken from the cache


def cache_dir() -> Path:
    return Path(os.environ.get("HANABI_VM_CACHE", "/var/cache/hanabi-companion-vm"))


def wanted_suites() -> list[str]:
    suites = os.environ.get("HANABI_VM_SUITES", "trixie").split()
    unknown = [s for s in suites if s not in SUITES]
    if unknown:
        raise VMError(f"HANABI_VM_SUITES: unknown suite(s) {unknown}; known: {sorted(SUITES)}")
    return suites


def wanted_arch() -> str:
    arch = os.environ.get("HANABI_VM_ARCH", "amd64")
    if arch not in ARCHES:
        raise VMError(f"HANABI_VM_ARCH: {arch!r} is not one of {sorted(ARCHES)}")
    return arch


def missing_tools(arch: str) -> list[str]:
    """The host commands the system tier needs that are not installed."""
    needed = [ARCHES[arch]["qemu"], "qemu-img", "debootstrap", "mkfs.ext4"]
    if arch != host_arch():
        needed.append("qemu-" + {"arm64": "aarch64", "amd64": "x86_64"}[arch] + "-static")
    return [tool for tool in needed if shutil.which(tool) is None]


def host_arch() -> str:
    return {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())


def debian_mirror() -> str:
    """The Debian mirror this machine's apt uses (or ``$HANABI_VM_MIRROR``)."""
    if mirror := os.environ.get("HANABI_VM_MIRROR"):
        return mirror
    sources = [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d").glob("*"))]
    for path in sources:
        with contextlib.suppress(OSError):
            text = path.read_text()
            for match in re.finditer(r"^(?:URIs:\s*|deb\s+(?:\[[^]]*\]\s+)?)(\S+)", text, re.M):
                uri = match.group(1).rstrip("/")
                if uri.endswith("/debian"):
                    return uri
    raise VMError("no Debian mirror found in /etc/apt/sources*: set HANABI_VM_MIRROR")


def _recipe_key(suite: str, arch: str) -> str:
    digest = hashlib.sha256()
    digest.update(f"{RECIPE_VERSION} {suite} {arch} {IMAGE_PACKAGES}".encode())
    digest.update((HERE / "guest_agent.py").read_bytes())
    digest.update(AGENT_UNIT.encode())
    # The configuration step's code, blind to formatting (a reformat rebuilds nothing).
    digest.update(re.sub(r"\s+", "", inspect.getsource(_configure_rootfs)).encode())
    return digest.hexdigest()[:16]


AGENT_UNIT = """\
[Unit]
Description=hanabi-companion system-test agent (test image only)
After=dev-virtio\\x2dports-org.hanabi.agent.device
Wants=dev-virtio\\x2dports-org.hanabi.agent.device

[Service]
ExecStart=/usr/bin/python3 /usr/local/lib/hanabi-test-agent.py
Restart=always
RestartSec=1

[Install]
WantedBy=multi-user.target
"""


def build_image(suite: str, arch: str, log: Path | None = None) -> Image:
    """The image for ``suite``/``arch``: from the cache, else built (needs root)."""
    key = _recipe_key(suite, arch)
    where = cache_dir() / f"{suite}-{arch}-{key}"
    image = Image(suite, arch, where / "vmlinuz", where / "initrd.img", where / "root.img", None)
    if image.disk.exists() and image.kernel.exists() and image.initrd.exists():
        return image
    if os.geteuid() != 0:
        raise VMError("building the VM image needs root (debootstrap, device nodes)")
    started = time.monotonic()
    where.parent.mkdir(parents=True, exist_ok=True)
    for stale in where.parent.glob(f"{suite}-{arch}-*"):
        if stale != where:
            shutil.rmtree(stale, ignore_errors=True)  # an older recipe's image
    work = Path(tempfile.mkdtemp(prefix=f"vm-{suite}-", dir=where.parent))
    rootfs = work / "rootfs"
    spec = ARCHES[arch]
    packages = ",".join(p.format(kernel_arch=spec["kernel_arch"]) for p in IMAGE_PACKAGES)
    output = open(log, "a") if log else subprocess.DEVNULL  # noqa: SIM115
    try:
        command = [
            "debootstrap",
            "--variant=minbase",
            f"--arch={arch}",
            f"--include={packages}",
            suite,
            str(rootfs),
            debian_mirror(),
        ]
        subprocess.run(command, check=True, stdout=output, stderr=subprocess.STDOUT)
        _configure_rootfs(rootfs)
        boot = rootfs / "boot"
        kernels = sorted(boot.glob("vmlinuz-*"))
        initrds = sorted(boot.glob("initrd.img-*"))
        if not kernels or not initrds:
            raise VMError(f"debootstrap of {suite} left no kernel or initramfs in /boot")
        shutil.copy(kernels[-1], work / "vmlinuz")
        shutil.copy(initrds[-1], work / "initrd.img")
        subprocess.run(
            [
                "mkfs.ext4",
                "-q",
                "-F",
                "-L",
                "hanabi-root",
                "-d",
                str(rootfs),
                str(work / "root.img"),
                "3G",
            ],
            check=True,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        shutil.rmtree(rootfs)
        if where.exists():
            shutil.rmtree(where)
        work.rename(where)
    except subprocess.CalledProcessError as error:
        raise VMError(f"building the {suite} image failed: {error}") from None
    finally:
        if output is not subprocess.DEVNULL:
            output.close()
        shutil.rmtree(work, ignore_errors=True)
    return Image(suite, arch, image.kernel, image.initrd, image.disk, time.monotonic() - started)


def _configure_rootfs(rootfs: Path) -> None:
    """What the test image needs on top of debootstrap: names, mounts, the agent."""
    (rootfs / "etc/hostname").write_text("hanabi-vm\n")
    (rootfs / "etc/hosts").write_text("127.0.0.1 localhost\n127.0.1.1 hanabi-vm\n")
    (rootfs / "etc/fstab").write_text("LABEL=hanabi-root / ext4 defaults 0 1\n")
    (rootfs / "mnt/payload").mkdir(parents=True, exist_ok=True)
    agent = rootfs / "usr/local/lib/hanabi-test-agent.py"
    agent.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(HERE / "guest_agent.py", agent)
    unit = rootfs / "etc/systemd/system/hanabi-test-agent.service"
    unit.write_text(AGENT_UNIT)
    wants = rootfs / "etc/systemd/system/multi-user.target.wants"
    wants.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        (wants / "hanabi-test-agent.service").symlink_to(
            "/etc/systemd/system/hanabi-test-agent.service"
        )
    # A login on the serial console helps whoever debugs the image by hand.
    (rootfs / "etc/machine-id").write_text("")
    subprocess.run(["chroot", str(rootfs), "passwd", "-d", "root"], check=True, capture_output=True)
    # The journal kept on disk, so a check can read the boot before a restart.
    (rootfs / "var/log/journal").mkdir(parents=True, exist_ok=True)


def make_wheelhouse(suite: str, arch: str, extra: tuple[str, ...] = ()) -> Path:
    """Wheels of every dependency (and of the build backend) for the VM's Python."""
    python = SUITES[suite]
    requirements = sorted(
        {
            "setuptools>=68",
            *_project_dependencies(),
            "lgpio>=0.2",  # only where a wheel exists; the installer reports the rest
            *extra,
        }
    )
    key = hashlib.sha256(f"{python} {arch} {requirements}".encode()).hexdigest()[:16]
    where = cache_dir() / f"wheels-{python}-{arch}-{key}"
    if (where / ".complete").exists():
        return where
    where.mkdir(parents=True, exist_ok=True)
    platforms = [arg for plat in ARCHES[arch]["wheel_platforms"] for arg in ("--platform", plat)]
    base = [
        sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
        "--only-binary=:all:", "--python-version", python, *platforms, "-d", str(where),
    ]  # fmt: skip
    for requirement in requirements:
        done = subprocess.run([*base, requirement], capture_output=True, text=True, check=False)
        # lgpio: only where a wheel exists; evdev: compiled, the installer takes
        # Debian's python3-evdev (in the image: the VM has no network)
        if done.returncode != 0 and not requirement.startswith(("lgpio", "evdev")):
            raise VMError(f"pip download {requirement} for Python {python}: {done.stderr[-2000:]}")
    (where / ".complete").touch()
    return where


def _project_dependencies() -> list[str]:
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    tests = project["optional-dependencies"]["test"]
    # playwright drives the host's Chromium (tests/web/test_web_browser.py), never in the VM
    return list(project["dependencies"]) + [r for r in tests if not r.startswith("playwright")]


def make_payload(wheels: Path, directory: Path) -> Path:
    """An ext4 image labelled ``payload``: the checkout (as git sees it) and the wheels."""
    tree = directory / "payload"
    checkout = tree / "hanabi-companion"
    checkout.mkdir(parents=True)
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, files):
        source = REPO / name.decode()
        if source.is_file():
            target = checkout / name.decode()
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    shutil.copytree(wheels, tree / "wheels")
    image = directory / "payload.img"
    size_mb = 64 + sum(p.stat().st_size for p in tree.rglob("*") if p.is_file()) // 2**20 * 2
    subprocess.run(
        ["mkfs.ext4", "-q", "-F", "-L", "payload", "-d", str(tree), str(image), f"{size_mb}M"],
        check=True,
        capture_output=True,
    )
    shutil.rmtree(tree)
    return image


def probe_accelerator(image: Image, directory: Path) -> str:
    """``kvm`` if KVM boots this kernel to user space within 60 s, else ``tcg``.

    The nested KVM of some sandboxes exposes /dev/kvm but cannot run a Debian
    kernel (it aborts on an MSR, or hangs): try it once, fall back to emulation.
    """
    if forced := os.environ.get("HANABI_VM_ACCEL"):
        return forced
    if image.arch != host_arch() or not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return "tcg"
    console = directory / "kvm-probe.log"
    command = [
        ARCHES[image.arch]["qemu"], "-accel", "kvm", "-cpu", "host", "-m", "512",
        "-kernel", str(image.kernel), "-initrd", str(image.initrd),
        "-append", "console=ttyS0 panic=-1 rdinit=/bin/false", "-no-reboot",
        "-display", "none", "-serial", f"file:{console}", "-nic", "none",
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    reached = False
    while time.monotonic() < deadline and process.poll() is None:
        text = console.read_text(errors="replace") if console.exists() else ""
        if "Run /bin/false as init process" in text or "Attempted to kill init" in text:
            reached = True
            break
        time.sleep(0.5)
    if process.poll() is None:
        process.kill()
    process.wait()
    if not reached:
        text = console.read_text(errors="replace") if console.exists() else ""
        reached = "Run /bin/false as init process" in text
    return "kvm" if reached else "tcg"


#: The port the installed companion serves its page for phones on (its default).
GUEST_WEB_PORT = 8080

#: Run in the guest by :meth:`Machine.bring_up_network`: the first network card gets
#: 10.0.2.15/24 (SIOCSIFADDR, SIOCSIFNETMASK) and is brought up (SIOCSIFFLAGS).
_NETWORK_UP = """
import fcntl, os, socket, struct
name = sorted(n for n in os.listdir('/sys/class/net') if n != 'lo')[0].encode()
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
def addr(ip):
    return struct.pack('16sH2s4s8s', name, socket.AF_INET, b'\\0\\0', socket.inet_aton(ip), b'')
fcntl.ioctl(s, 0x8916, addr('10.0.2.15'))
fcntl.ioctl(s, 0x891C, addr('255.255.255.0'))
flags = struct.unpack('16sH', fcntl.ioctl(s, 0x8913, struct.pack('16sH', name, 0)))[1]
fcntl.ioctl(s, 0x8914, struct.pack('16sH', name, flags | 1))
print(name.decode())
"""


def free_local_port() -> int:
    """A TCP port nothing listens on at 127.0.0.1 now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Machine:
    """A running VM: QEMU, its QMP monitor and the test agent."""

    def __init__(self, image: Image, payload: Path, directory: Path, accel: str) -> None:
        self.image = image
        self.directory = directory
        self.accel = accel
        spec = ARCHES[image.arch]
        overlay = directory / "overlay.qcow2"
        subprocess.run(
            [
                "qemu-img",
                "create",
                "-q",
                "-f",
                "qcow2",
                "-b",
                str(image.disk),
                "-F",
                "raw",
                str(overlay),
            ],
            check=True,
        )
        self.console_log = directory / "console.log"
        #: The host's port that QEMU forwards to the guest's page for phones (8080): a
        #: user-mode network, restricted (the guest reaches nothing outside it).
        self.web_port = free_local_port()
        self.qmp_path = directory / "qmp.sock"
        self.agent_path = directory / "agent.sock"
        cpu = ["-cpu", "host"] if accel == "kvm" else []
        machine = list(spec["machine"])
        if cpu and "-cpu" in machine:
            index = machine.index("-cpu")
            del machine[index : index + 2]
        command = [
            spec["qemu"], *machine, *cpu, "-accel", accel, "-m", "1024", "-smp", "2",
            "-kernel", str(image.kernel), "-initrd", str(image.initrd),
            "-append", f"root=LABEL=hanabi-root rw console={spec['console']} "
                       "systemd.journald.forward_to_console=0 loglevel=4",
            "-drive", f"file={overlay},if=virtio,format=qcow2",
            "-drive", f"file={payload},if=virtio,format=raw,readonly=on",
            "-vga", "none",  # the only display: virtio-gpu, as a Pi has one panel
            "-device", f"virtio-gpu-pci,xres={PANEL[0]},yres={PANEL[1]}",
            "-display", "none",
            "-serial", f"file:{self.console_log}",
            "-device", "virtio-serial-pci",
            "-chardev", f"socket,id=agent,path={self.agent_path},server=on,wait=off",
            "-device", "virtserialport,chardev=agent,name=org.hanabi.agent",
            "-qmp", f"unix:{self.qmp_path},server=on,wait=off",
            "-nic", f"user,model=virtio-net-pci,restrict=on,"
                    f"hostfwd=tcp:127.0.0.1:{self.web_port}-:{GUEST_WEB_PORT}",
        ]  # fmt: skip
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=open(directory / "qemu.log", "w"),  # noqa: SIM115
        )
        self._qmp = self._connect(self.qmp_path)
        self._qmp_file = self._qmp.makefile("rwb", buffering=0)
        self._qmp_file.readline()  # the greeting
        self.qmp("qmp_capabilities")
        self._agent = self._connect(self.agent_path)
        self._agent_buffer = b""
        self._next_id = 0

    def _connect(self, path: Path) -> socket.socket:
        deadline = time.monotonic() + 30
        while True:
            try:
                sock = socket.socket(socket.AF_UNIX)
                sock.connect(str(path))
                return sock
            except OSError:
                sock.close()
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise VMError(
                        f"QEMU did not start: {(self.directory / 'qemu.log').read_text()[-2000:]}"
                    ) from None
                time.sleep(0.1)

    # -- QMP: the machine's screen and keyboard ------------------------------------------

    def qmp(self, command: str, **arguments: object) -> object:
        message = {"execute": command, **({"arguments": arguments} if arguments else {})}
        self._qmp_file.write(json.dumps(message).encode() + b"\n")
        while True:
            reply = json.loads(self._qmp_file.readline())
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise VMError(f"QMP {command}: {reply['error']}")
            # an asynchronous event (RESET, ...): not ours

    def screendump(self) -> tuple[tuple[int, int], bytes]:
        """The display's pixels now: (width, height) and RGB bytes, row by row."""
        path = self.directory / "screen.ppm"
        path.unlink(missing_ok=True)
        self.qmp("screendump", filename=str(path))
        return read_ppm(path.read_bytes())

    def send_keys(self, *keys: str, hold_ms: int = 100, gap: float = 0.3) -> None:
        """Press each key as a keyboard would (QEMU key names: ``2``, ``ret``, ``h``)."""
        for key in keys:
            self.qmp("send-key", keys=[{"type": "qcode", "data": key}], **{"hold-time": hold_ms})
            time.sleep(gap)

    # -- the agent: commands inside the VM ------------------------------------------------

    def mount_payload(self) -> None:
        """Mount the checkout and the wheels (the second disk) on /mnt/payload, read-only."""
        self.sh(
            "mountpoint -q /mnt/payload || { udevadm settle -t 60; "
            "mount -o ro LABEL=payload /mnt/payload; }",
            timeout=90,
        )

    def wait_for_agent(self, timeout: float) -> float:
        """Wait until the agent answers (the VM has booted); seconds waited."""
        started = time.monotonic()
        deadline = started + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or self.process.poll() is not None:
                raise VMError(
                    f"the VM did not come up in {timeout:.0f} s; console:\n{self.console_tail()}"
                )
            with contextlib.suppress(TimeoutError):
                self._request({"argv": ["true"], "timeout": 10}, timeout=min(5.0, left))
                return time.monotonic() - started

    def run(
        self, *argv: str, timeout: float = 120, check: bool = True, stdin: str = ""
    ) -> subprocess.CompletedProcess[str]:
        """Run a command in the VM as root; raise on a non-zero exit unless ``check=False``."""
        answer = self._request(
            {"argv": list(argv), "timeout": timeout, "stdin": stdin}, timeout=timeout + 30
        )
        result = subprocess.CompletedProcess(
            list(argv), answer["rc"], answer["stdout"], answer["stderr"]
        )
        if check and result.returncode != 0:
            raise VMError(
                f"in the VM, {' '.join(argv)} exited {result.returncode}:\n"
                f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
            )
        return result

    def bring_up_network(self) -> None:
        """Give the guest's network card QEMU's user-mode address (10.0.2.15/24) and bring
        it up, with the kernel's own ioctls (the image has no network tools: a Pi's own
        network is set up by its OS, not by our installer)."""
        self.run("python3", "-c", _NETWORK_UP, timeout=60)

    def sh(self, script: str, timeout: float = 120, check: bool = True) -> str:
        return self.run("sh", "-c", script, timeout=timeout, check=check).stdout

    def read_binary(self, *argv: str, timeout: float = 60) -> bytes:
        answer = self._request(
            {"argv": list(argv), "timeout": timeout, "binary": True}, timeout + 30
        )
        if answer["rc"] != 0:
            raise VMError(f"in the VM, {' '.join(argv)} exited {answer['rc']}: {answer['stderr']}")
        return base64.b64decode(answer["stdout"])

    def _request(self, request: dict, timeout: float) -> dict:
        self._next_id += 1
        request["id"] = self._next_id
        self._agent.sendall(json.dumps(request).encode() + b"\n")
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in self._agent_buffer:
                line, self._agent_buffer = self._agent_buffer.split(b"\n", 1)
                with contextlib.suppress(ValueError):
                    answer = json.loads(line)
                    if answer.get("id") == request["id"]:
                        return answer
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no answer from the VM agent to {request['argv']}")
            self._agent.settimeout(left)
            try:
                chunk = self._agent.recv(1 << 20)
            except TimeoutError:
                continue
            if not chunk:
                raise VMError("the VM agent's socket closed")
            self._agent_buffer += chunk

    def reboot(self, timeout: float) -> float:
        """Reboot the guest as ``systemctl reboot`` does; seconds until the agent answers."""
        with contextlib.suppress(TimeoutError, VMError):
            self._request({"argv": ["systemctl", "reboot"], "timeout": 5}, timeout=5)
        # Wait until the old system has gone (the agent stops answering quickly).
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                self._request({"argv": ["true"], "timeout": 2}, timeout=2)
            except TimeoutError:
                break
            time.sleep(0.5)
        return self.wait_for_agent(timeout)

    def console_tail(self, lines: int = 40) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.console_log.read_text(errors="replace").splitlines()[-lines:])
        return ""

    def close(self) -> None:
        with contextlib.suppress(OSError, VMError, ValueError):
            self.qmp("quit")
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for sock in (self._agent, self._qmp):
            sock.close()


# The VM has no GPU: Mesa's software rasteriser stands in for the Pi's vc4/v3d.
# softpipe, not llvmpipe: the unit's MemoryDenyWriteExecute= forbids a JIT.
# TCG emulation runs Python 20-40x slower than this machine (the render
# command: 7.2 s in the VM, 0.41 s here), so a frame can take seconds: the
# watchdog gets a minute instead of the Pi's 10 s, and a start (READY=1
# after the first frame: 40-90 s here at boot) 5 minutes instead of systemd's
# default 90 s. Only in the VM.
VM_DROPIN = """\
# Written by the system test (tests/system): the VM is not a Pi.
[Service]
Environment=GALLIUM_DRIVER=softpipe
WatchdogSec=60s
TimeoutStartSec=300s
"""


def install_and_reboot(machine: Machine, figures: dict[str, float]) -> str:
    """Boot, install the checkout as the README says, reboot; the installer's output.

    Adds to ``figures``: seconds to the first boot, the install, and the reboot.
    """
    figures["first boot to agent (s)"] = machine.wait_for_agent(900)
    machine.mount_payload()
    # The README: get the checkout, run the installer (offline: the wheels).
    machine.run("cp", "-a", "/mnt/payload/hanabi-companion", "/root/hanabi-companion")
    started = time.monotonic()
    done = machine.run(
        "sh", "-c",
        "cd /root/hanabi-companion && systemd/install.sh --wheels /mnt/payload/wheels 2>&1",
        timeout=1800, check=False,
    )  # fmt: skip
    figures["install (s)"] = time.monotonic() - started
    if done.returncode != 0:
        raise VMError(f"install.sh failed in the VM:\n{done.stdout}")
    machine.run("mkdir", "-p", "/etc/systemd/system/hanabi-companion.service.d")
    machine.run("tee", "/etc/systemd/system/hanabi-companion.service.d/vm.conf", stdin=VM_DROPIN)
    # Boot as a Pi does: the enabled service starts by itself.
    figures["reboot to agent (s)"] = machine.reboot(900)
    machine.mount_payload()
    return done.stdout


def read_ppm(data: bytes) -> tuple[tuple[int, int], bytes]:
    """A binary PPM (P6, maxval 255) as ((width, height), RGB bytes).

    >>> read_ppm(b"P6\\n2 1\\n255\\n" + bytes([255, 0, 0, 0, 0, 255]))
    ((2, 1), b'\\xff\\x00\\x00\\x00\\x00\\xff')
    """
    match = re.match(rb"P6\s+(\d+)\s+(\d+)\s+255\s", data)
    if not match:
        raise VMError("screendump is not a P6 PPM with maxval 255")
    width, height = int(match.group(1)), int(match.group(2))
    pixels = data[match.end() : match.end() + width * height * 3]
    if len(pixels) != width * height * 3:
        raise VMError("screendump is truncated")
    return (width, height), pixels


def differing_pixels(a: bytes, b: bytes) -> int:
    """How many RGB pixels differ between two frames of equal size."""
    if len(a) != len(b):
        raise ValueError(f"frames of different sizes: {len(a)} and {len(b)} bytes")
    count = 0
    for start in range(0, len(a), 3 * 4096):
        chunk_a, chunk_b = a[start : start + 3 * 4096], b[start : start + 3 * 4096]
        if chunk_a != chunk_b:
            count += sum(
                chunk_a[i : i + 3] != chunk_b[i : i + 3] for i in range(0, len(chunk_a), 3)
            )
    return count


def rgb_of_png(data: bytes) -> tuple[tuple[int, int], bytes]:
    """A PNG (what ``render`` writes) as ((width, height), RGB bytes)."""
    import io

    import pygame

    surface = pygame.image.load(io.BytesIO(data), "screen.png")
    return surface.get_size(), pygame.image.tobytes(surface, "RGB")


@dataclass
class Appliance:
    """The booted VM with the companion installed, and what it took to get there."""

    machine: Machine
    suite: str
    arch: str
    figures: dict[str, float] = field(default_factory=dict)
    install_output: str = ""

    def show(self, *properties: str) -> dict[str, str]:
        """``systemctl show`` of the service: the named properties."""
        args = [arg for name in properties for arg in ("-p", name)]
        text = self.machine.run("systemctl", "show", "hanabi-companion.service", *args).stdout
        return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)

    def wait_active(self, *, restarts: int, timeout: float = 420) -> dict[str, str]:
        """Wait until the service is active (READY=1 sent) with ``NRestarts`` at
        ``restarts`` (or more, which the caller's checks then see)."""
        deadline = time.monotonic() + timeout
        state: dict[str, str] = {}
        while time.monotonic() < deadline:
            state = self.show("ActiveState", "SubState", "NRestarts", "MainPID")
            if state["ActiveState"] == "active" and int(state["NRestarts"]) >= restarts:
                return state
            time.sleep(1)
        raise AssertionError(f"service not active after {restarts} restarts: {state}")

    def idle_cpu(self, pid: str, seconds: float) -> float:
        """CPU the process used over ``seconds`` of the guest's clock, in % of one core."""
        script = (
            f"t0=$(cut -d' ' -f14,15 /proc/{pid}/stat); u0=$(cut -d' ' -f1 /proc/uptime); "
            f"sleep {seconds}; t1=$(cut -d' ' -f14,15 /proc/{pid}/stat); "
            "u1=$(cut -d' ' -f1 /proc/uptime); echo $t0 $t1 $u0 $u1 $(getconf CLK_TCK)"
        )
        u0, s0, u1, s1, up0, up1, hz = self.machine.sh(script, timeout=seconds + 120).split()
        ticks = int(u1) + int(s1) - int(u0) - int(s0)
        return 100 * ticks / int(hz) / (float(up1) - float(up0))

    def rss_mb(self, pid: str) -> float:
        """The process's resident memory (VmRSS), in MB."""
        return int(self.machine.sh(f"grep VmRSS /proc/{pid}/status").split()[1]) / 1024

    def restarts(self) -> int:
        return int(self.show("NRestarts")["NRestarts"])

    def keep_frames(self, name: str, size: tuple[int, int], *frames: bytes) -> list[Path]:
        """Save RGB frames as PNGs beside the VM's logs (for a failing comparison)."""
        import pygame

        paths = []
        for index, frame in enumerate(frames):
            path = self.machine.directory / f"{name}-{index}.png"
            pygame.image.save(pygame.image.frombuffer(frame, size, "RGB"), str(path))
            paths.append(path)
        return paths

    def export(self) -> str:
        """The game in progress as hanabi-log/1, read as the service's own user."""
        return self.machine.run(
            "runuser", "-u", "hanabi", "--", "/opt/hanabi-companion/venv/bin/hanabi-companion",
            "export", "--data-dir", "/var/lib/hanabi-companion",
        ).stdout  # fmt: skip

    def render(self, log: str, size: tuple[int, int]) -> tuple[tuple[int, int], bytes]:
        """What ``render`` draws for a log, in the VM with the installed program (RGB)."""
        self.machine.run("tee", "/tmp/render.jsonl", stdin=log)
        self.machine.run(
            "/opt/hanabi-companion/venv/bin/hanabi-companion", "render", "/tmp/render.jsonl",
            "--size", f"{size[0]}x{size[1]}", "--out", "/tmp/render.png",
        )  # fmt: skip
        return rgb_of_png(self.machine.read_binary("cat", "/tmp/render.png"))

    def wait_for_screen(self, expected: bytes, timeout: float = 60, name: str = "screen") -> int:
        """Wait until the VM's display shows ``expected``; the pixels still differing
        (then both frames are kept as ``name-0.png``, ``name-1.png`` beside the logs)."""
        deadline = time.monotonic() + timeout
        while True:
            size, pixels = self.machine.screendump()
            differing = differing_pixels(pixels, expected)
            if differing == 0:
                return 0
            if time.monotonic() > deadline:
                self.keep_frames(name, size, pixels, expected)
                return differing
            time.sleep(1)
