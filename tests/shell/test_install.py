"""Tests for systemd/install.sh, always run with --root into a temporary directory.

Nothing here touches the real system: with --root the script lays its files
down below the given directory and only prints the apt-get, useradd and
systemctl commands it would run.
"""

from __future__ import annotations

import grp
import hashlib
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from support.needs import unavailable

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "systemd" / "install.sh"
UNIT = REPO / "systemd" / "hanabi-companion.service"
WANTED_GROUPS = ["video", "render", "input", "gpio", "dialout"]


def run_install(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANABI_")}
    # The installer's Python is the tests' own: with --no-pip it reads the default
    # configuration from this checkout, whose imports (msgspec) a bare python3 may lack.
    env["HANABI_PYTHON"] = sys.executable
    result = subprocess.run(
        ["bash", str(SCRIPT), "--root", str(root), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
        check=False,
    )
    if check:
        assert result.returncode == 0, f"install.sh failed:\n{result.stdout}\n{result.stderr}"
    return result


def snapshot(root: Path) -> dict[str, tuple[str, int, str]]:
    """Every path below root: kind, permission bits, and content hash or link target."""
    tree: dict[str, tuple[str, int, str]] = {}
    for path in sorted(root.rglob("*")):
        info = path.lstat()
        relative = str(path.relative_to(root))
        mode = stat.S_IMODE(info.st_mode)
        if path.is_symlink():
            tree[relative] = ("link", mode, os.readlink(path))
        elif path.is_dir():
            tree[relative] = ("dir", mode, "")
        else:
            tree[relative] = ("file", mode, hashlib.sha256(path.read_bytes()).hexdigest())
    return tree


def existing_groups() -> list[str]:
    found = []
    for name in WANTED_GROUPS:
        try:
            grp.getgrnam(name)
        except KeyError:
            continue
        found.append(name)
    return found


@pytest.fixture
def root(tmp_path: Path) -> Path:
    directory = tmp_path / "root"
    directory.mkdir()
    return directory


def test_script_is_executable() -> None:
    assert os.access(SCRIPT, os.X_OK)


def test_help_lists_the_options() -> None:
    result = subprocess.run(
        ["bash", str(SCRIPT), "--help"], capture_output=True, text=True, check=True
    )
    for option in ("--root", "--no-apt", "--no-pip", "--wheels", "--uninstall", "--help"):
        assert option in result.stdout


def test_unknown_option_is_an_error(root: Path) -> None:
    result = run_install(root, "--frobnicate", check=False)
    assert result.returncode != 0
    assert "unknown option: --frobnicate" in result.stderr


def test_missing_root_directory_is_an_error(tmp_path: Path) -> None:
    result = run_install(tmp_path / "nowhere", "--no-apt", check=False)
    assert result.returncode != 0
    assert "no such directory" in result.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="as root this would install for real")
def test_refuses_to_touch_the_system_without_root() -> None:
    result = subprocess.run(
        ["bash", str(SCRIPT), "--no-apt", "--no-pip"], capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "run as root" in result.stderr


def test_lays_down_unit_config_and_venv(root: Path) -> None:
    result = run_install(root, "--no-apt", "--no-pip")

    unit = root / "etc/systemd/system/hanabi-companion.service"
    assert unit.read_bytes() == UNIT.read_bytes()
    assert stat.S_IMODE(unit.stat().st_mode) == 0o644

    config = root / "etc/hanabi-companion/config.toml"
    assert config.is_file()
    assert stat.S_IMODE(config.stat().st_mode) == 0o644
    assert "writing a minimal config" not in result.stderr  # the package's own defaults

    pyvenv = (root / "opt/hanabi-companion/venv/pyvenv.cfg").read_text()
    assert "include-system-site-packages = true" in pyvenv.splitlines()
    assert (root / "opt/hanabi-companion/venv/bin/python").exists()

    # The system itself is left alone: only told what would be done.
    assert "would run: systemctl daemon-reload" in result.stdout
    assert "would run: systemctl disable getty@tty1.service" in result.stdout
    assert "would run: systemctl enable hanabi-companion.service" in result.stdout
    # The state directory is systemd's job (StateDirectory=), not the installer's.
    assert not (root / "var/lib/hanabi-companion").exists()


def test_user_gets_the_groups_that_exist(root: Path) -> None:
    result = run_install(root, "--no-apt", "--no-pip")
    groups = existing_groups()
    if groups:
        expected = f"would run: usermod --append --groups {','.join(groups)} hanabi"
        assert expected in result.stdout
    dropin = root / "etc/systemd/system/hanabi-companion.service.d/groups.conf"
    if groups == WANTED_GROUPS:
        assert not dropin.exists()
    else:
        lines = dropin.read_text().splitlines()
        assert "SupplementaryGroups=" in lines
        assert f"SupplementaryGroups={' '.join(groups)}" in lines


def test_apt_is_asked_only_for_what_this_release_has(root: Path) -> None:
    """python3-lgpio is asked of apt only where the archive has it (Raspberry Pi OS);
    plain Debian's has not, and the installer says so instead of aborting."""
    if shutil.which("dpkg-query") is None:
        unavailable("dpkg-query is not installed (not a Debian system: install.sh skips apt)")
    lgpio = subprocess.run(
        ["dpkg-query", "-W", "-f=${Status}", "python3-lgpio"], capture_output=True, text=True
    )
    policy = subprocess.run(
        ["apt-cache", "policy", "python3-lgpio"], capture_output=True, text=True
    )
    in_archive = "Candidate:" in policy.stdout and "Candidate: (none)" not in policy.stdout
    result = run_install(root, "--no-pip")
    install_lines = [line for line in result.stdout.splitlines() if "apt-get install" in line]
    if "install ok installed" in lgpio.stdout:
        assert "python3-lgpio" not in result.stdout
    elif in_archive:
        assert "GPIO through python3-lgpio from its archive" in result.stdout
        assert any("python3-lgpio" in line for line in install_lines)
    else:
        assert "its archive has no python3-lgpio" in result.stdout
        assert not any("python3-lgpio" in line for line in install_lines)


def test_python3_lgpio_is_installed_where_the_archive_has_it(root: Path, tmp_path: Path) -> None:
    """Raspberry Pi OS's archive (stood in for by an apt-cache that offers python3-lgpio,
    and a dpkg-query that finds nothing installed): apt is asked for it, in one line."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "apt-cache").write_text(
        "#!/bin/sh\necho \"$2:\"\necho '  Installed: (none)'\necho '  Candidate: 2.2-1'\n"
    )
    (bin_dir / "dpkg-query").write_text("#!/bin/sh\nexit 1\n")
    for tool in bin_dir.iterdir():
        tool.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANABI_")}
    env["PATH"] = f"{bin_dir}:{env['PATH']}"
    result = subprocess.run(
        ["bash", str(SCRIPT), "--root", str(root), "--no-pip"],
        capture_output=True, text=True, env=env, timeout=240, check=True,
    )  # fmt: skip
    assert "GPIO through python3-lgpio from its archive" in result.stdout
    install_line = next(line for line in result.stdout.splitlines() if "apt-get install" in line)
    assert install_line.split()[-9:] == [
        "python3-venv", "libdrm2", "libgbm1", "libegl1", "libegl-mesa0", "libgles2",
        "libgl1-mesa-dri", "python3-evdev", "python3-lgpio",
    ]  # fmt: skip


def test_wheels_must_be_a_directory(root: Path) -> None:
    result = run_install(root, "--no-apt", "--wheels", str(root / "nowhere"), check=False)
    assert result.returncode != 0
    assert "--wheels" in result.stderr and "no such directory" in result.stderr


def test_no_apt_means_no_apt(root: Path) -> None:
    result = run_install(root, "--no-apt", "--no-pip")
    assert "apt-get" not in result.stdout


def test_second_run_changes_nothing(root: Path) -> None:
    run_install(root, "--no-apt", "--no-pip")
    first = snapshot(root)
    second_result = run_install(root, "--no-apt", "--no-pip")
    assert snapshot(root) == first
    assert "keeping the existing" in second_result.stdout
    assert "reusing the venv" in second_result.stdout


def test_existing_config_is_not_overwritten(root: Path) -> None:
    config = root / "etc/hanabi-companion/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('display = "fb:/dev/fb1"\n')
    run_install(root, "--no-apt", "--no-pip")
    assert config.read_text() == 'display = "fb:/dev/fb1"\n'


def test_unit_is_updated_on_reinstall(root: Path) -> None:
    run_install(root, "--no-apt", "--no-pip")
    unit = root / "etc/systemd/system/hanabi-companion.service"
    unit.write_text("[Service]\nExecStart=/bin/false\n")
    run_install(root, "--no-apt", "--no-pip")
    assert unit.read_bytes() == UNIT.read_bytes()


def test_uninstall_removes_everything_but_the_games(root: Path) -> None:
    run_install(root, "--no-apt", "--no-pip")
    # What the running service would have created:
    games = root / "var/lib/hanabi-companion/games.sqlite3"
    games.parent.mkdir(parents=True)
    games.write_bytes(b"SQLite format 3\0")
    cache = root / "var/cache/hanabi-companion/mesa_shader_cache/index"
    cache.parent.mkdir(parents=True)
    cache.write_bytes(b"x")

    result = run_install(root, "--uninstall")

    remaining_files = sorted(
        str(p.relative_to(root)) for p in root.rglob("*") if not p.is_dir() or p.is_symlink()
    )
    assert remaining_files == ["var/lib/hanabi-companion/games.sqlite3"]
    assert games.read_bytes() == b"SQLite format 3\0"
    assert not (root / "opt/hanabi-companion").exists()
    assert not (root / "etc/hanabi-companion").exists()
    assert not (root / "etc/systemd/system/hanabi-companion.service.d").exists()
    assert "would run: systemctl disable --now hanabi-companion.service" in result.stdout
    assert "would run: systemctl enable getty@tty1.service" in result.stdout
    assert "var/lib/hanabi-companion" in result.stdout


def test_uninstall_twice_is_harmless(root: Path) -> None:
    run_install(root, "--no-apt", "--no-pip")
    run_install(root, "--uninstall")
    run_install(root, "--uninstall")
    assert not (root / "opt/hanabi-companion").exists()


def test_real_install_into_a_system_site_packages_venv(root: Path) -> None:
    """Really create the venv and pip-install this checkout (about 20 s, needs PyPI)."""
    result = run_install(root, "--no-apt")
    venv = root / "opt/hanabi-companion/venv"
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()
    assert os.access(venv / "bin/hanabi-companion", os.X_OK)

    probe = subprocess.run(
        [
            str(venv / "bin/python"),
            "-c",
            "import sys, site, companion, engine, hardware\n"
            "print(companion.__file__)\n"
            "print(any(p in sys.path for p in site.getsitepackages([sys.base_prefix])))",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=root,
    )
    module_path, sees_system_packages = probe.stdout.splitlines()
    assert module_path.startswith(str(venv))  # installed, not picked up from the checkout
    assert sees_system_packages == "True"  # python3-lgpio comes from Debian

    config = (root / "etc/hanabi-companion/config.toml").read_text()
    default = subprocess.run(
        [
            str(venv / "bin/python"),
            "-c",
            "import sys\n"
            "try:\n"
            "    from companion.shell.config import DEFAULT_CONFIG_TOML\n"
            "except ImportError:\n"
            "    sys.exit(3)\n"
            "sys.stdout.write(DEFAULT_CONFIG_TOML)",
        ],
        capture_output=True,
        text=True,
        cwd=root,
    )
    if default.returncode == 3:  # companion.shell.config not written yet: the fallback
        assert config.startswith("# hanabi-companion configuration.")
    else:
        assert default.returncode == 0, default.stderr
        expected = default.stdout
        if "GPIO: off." in result.stdout:  # no lgpio here: the config turns GPIO off
            expected = expected.replace(
                'pin_factory = "auto"\n',
                'pin_factory = "none"  # install.sh: no lgpio for this system\n',
            )
        assert config.rstrip("\n") == expected.rstrip("\n")


def test_help_says_how_to_find_a_readers_stable_name() -> None:
    """Issue 11: the installer documents the by-id names of serial and keyboard readers."""
    result = subprocess.run(
        ["bash", str(SCRIPT), "--help"], capture_output=True, text=True, check=True
    )
    for text in ("/dev/serial/by-id/", "/dev/input/by-id/usb-...-event-kbd", "ls /dev/serial"):
        assert text in result.stdout


def test_the_page_for_phones_is_announced_where_avahi_is(root: Path) -> None:
    """Issue 21: with avahi installed (its services folder), the installer announces the
    page for phones as _http._tcp on the configured port; without avahi, nothing; a page
    turned off is not announced; --uninstall takes the announcement away."""
    run_install(root, "--no-apt", "--no-pip")
    assert not (root / "etc/avahi").exists()

    services = root / "etc/avahi/services"
    services.mkdir(parents=True)
    config = root / "etc/hanabi-companion/config.toml"
    config.write_text(config.read_text().replace("port = 8080", "port = 8765"))
    result = run_install(root, "--no-apt", "--no-pip")
    announced = (services / "hanabi-companion.service").read_text()
    assert "<type>_http._tcp</type>" in announced and "<port>8765</port>" in announced
    assert "announced as _http._tcp on port 8765" in result.stdout + result.stderr

    config.write_text(config.read_text().replace("enabled = true", "enabled = false"))
    run_install(root, "--no-apt", "--no-pip")
    assert not (services / "hanabi-companion.service").exists()

    config.write_text(config.read_text().replace("enabled = false", "enabled = true"))
    run_install(root, "--no-apt", "--no-pip")
    run_install(root, "--uninstall")
    assert not (services / "hanabi-companion.service").exists()
