"""Where the frames go: a desktop window, the Pi's screen (KMSDRM), or an SPI framebuffer.

``open_display(spec, …)`` takes the ``[screen] display`` setting:

- ``auto``: a window when a desktop is there (``$DISPLAY`` or
  ``$WAYLAND_DISPLAY``), else ``kmsdrm``;
- ``window``: a desktop window;
- ``kmsdrm``: straight on HDMI, the DSI touchscreen or a DRM SPI panel;
- ``fb:/dev/fbN``: an old fbtft SPI panel. SDL 2 has no framebuffer driver, so
  the companion draws off-screen and writes the rows that changed into the
  framebuffer itself; input comes from SDL's ``evdev`` driver (touch, keys);
- ``dummy``: no screen at all (tests, benchmarks).

If the driver cannot start, :class:`DisplayError` says which and why. SDL's
silent off-screen fallback is never accepted in place of a real screen.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pygame

from engine.errors import CompanionError

if TYPE_CHECKING:
    from companion.panel.framebuffer import FramebufferWriter

log = logging.getLogger("hanabi-companion")

HEADLESS_DRIVERS = frozenset({"dummy", "offscreen", "evdev"})

#: SDL_FRAMEBUFFER_ACCELERATION for each video driver: how SDL makes the window
#: surface that pygame draws on. SDL 2's KMSDRM driver has no framebuffer of
#: its own: its window surface exists only as a texture of a renderer, and
#: only OpenGL ES works on the Pi (and on Mesa's KMS drivers), so it gets
#: "opengles2" (with "1" SDL picks desktop OpenGL on a GLES-only context and
#: the screen stays black; with "0" it has no window surface at all). Every
#: other driver gets "0": a plain window surface without OpenGL, ~90 MB less
#: under X, and all a desktop window, dummy or the ``fb:`` path need.
FRAMEBUFFER_ACCELERATION = {"kmsdrm": "opengles2"}


def video_driver() -> str:
    """The running SDL video driver's name, in lower case (SDL says ``"KMSDRM"``).

    The one place the name is read: compare only what this returns.
    """
    return pygame.display.get_driver().lower()


class DisplayError(CompanionError, RuntimeError):
    """The configured display cannot be used; the message says which and why."""


def sdl_driver_for(spec: str, environ: Mapping[str, str] | None = None) -> str | None:
    """The SDL video driver a display spec asks for (None: let SDL pick a desktop one).

    >>> sdl_driver_for("auto", {"DISPLAY": ":0"}) is None
    True
    >>> sdl_driver_for("auto", {}), sdl_driver_for("fb:/dev/fb1", {})
    ('kmsdrm', 'evdev')
    """
    env = os.environ if environ is None else environ
    if spec == "auto":
        return None if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY") else "kmsdrm"
    if spec == "window":
        return None
    if spec.startswith("fb:"):
        return "evdev"  # SDL's dummy video with evdev input: touch and keys still arrive
    if spec in ("kmsdrm", "dummy"):
        return spec
    raise DisplayError(f"unknown display {spec!r}: use auto, window, kmsdrm or fb:/dev/fbN")


# linux/kd.h: a virtual console's mode. In KD_GRAPHICS the kernel's console
# (fbcon) stops drawing on the framebuffer: no blinking cursor over the frame.
KDSETMODE = 0x4B3A
KD_TEXT = 0x00
KD_GRAPHICS = 0x01


class ConsoleGraphicsMode:
    """Keeps the kernel's text console off the framebuffer while the ``fb:`` path draws.

    fbcon shares the framebuffer with us and blinks its cursor into our frame
    (seen in the system-test VM: an 8x16 block at the top left). Switching the
    virtual console that is our terminal (tty1 under systemd) to graphics mode
    stops it; :meth:`restore` gives the text console back. Not a virtual console
    (a desktop terminal, a test): nothing to do.
    """

    def __init__(self, fd: int = 0) -> None:
        self.fd: int | None = None
        try:
            fcntl.ioctl(fd, KDSETMODE, KD_GRAPHICS)
        except OSError:
            return
        self.fd = fd

    def restore(self) -> None:
        if self.fd is not None:
            with contextlib.suppress(OSError):
                fcntl.ioctl(self.fd, KDSETMODE, KD_TEXT)
            self.fd = None


class Display:
    """A surface to draw on and a way to show it."""

    def __init__(
        self,
        surface: pygame.Surface,
        framebuffer: FramebufferWriter | None,
        console: ConsoleGraphicsMode | None = None,
    ) -> None:
        self.surface = surface
        self.framebuffer = framebuffer
        self.console = console

    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    def present(self) -> None:
        """Show the frame drawn on :attr:`surface`."""
        if self.framebuffer is not None:
            self.framebuffer.write(self.surface)  # only the rows that changed
        else:
            pygame.display.flip()

    def close(self) -> None:
        if self.framebuffer is not None:
            self.framebuffer.close()
        if self.console is not None:
            self.console.restore()
        pygame.display.quit()


#: Where the kernel lists each DRM card's outputs, with their state in
#: ``card1-HDMI-A-1/status`` ("connected", "disconnected" or "unknown").
DRM_SYSFS = Path("/sys/class/drm")
#: While waiting for the screen: how often /sys/class/drm is read (cheap), how
#: often SDL is asked once an output is connected there (udev may still be
#: giving the new device node its group), and how often anyway when none is
#: (an SDL start is not cheap: it loads libdrm and probes every card).
SCREEN_POLL_SECONDS = 0.5
SDL_RETRY_CONNECTED_SECONDS = 1.0
SDL_RETRY_SECONDS = 5.0
#: Each attempt while waiting asks systemd for this much more start time
#: (EXTEND_TIMEOUT_USEC=): enough for the attempt after it, and for opening the
#: screen and drawing the first frame once SDL has it.
START_EXTENSION_SECONDS = 60.0


def drm_outputs(sysfs_root: Path = DRM_SYSFS) -> dict[str, str]:
    """Each DRM output the kernel has and its state: ``{"card1-HDMI-A-1": "connected"}``.

    SDL's KMSDRM driver needs a card with a *connected* output; the kernel says
    so here before SDL can tell, and reading it costs nothing, so the wait for a
    late screen reads this instead of starting SDL again and again.
    """
    outputs: dict[str, str] = {}
    for status in sorted(sysfs_root.glob("card*-*/status")):
        with contextlib.suppress(OSError):  # a card going away while we read
            outputs[status.parent.name] = status.read_text().strip()
    return outputs


def describe_outputs(outputs: Mapping[str, str]) -> str:
    """The outputs in a few words, for the log and ``systemctl status``.

    >>> describe_outputs({})
    'no DRM device yet'
    >>> describe_outputs({"card1-HDMI-A-1": "disconnected", "card1-HDMI-A-2": "disconnected"})
    'card1-HDMI-A-1 disconnected, card1-HDMI-A-2 disconnected'
    """
    if not outputs:
        return "no DRM device yet"
    return ", ".join(f"{name} {state}" for name, state in outputs.items())


class Supervisor(Protocol):
    """Whoever supervises the start (systemd's notify socket under the service).

    The shell hands in :mod:`companion.shell.sdnotify`; without one nothing is told.
    """

    def extend_timeout(self, seconds: float) -> object:
        """Ask for ``seconds`` more before the start counts as failed."""
        ...

    def status(self, text: str) -> object:
        """Say what the start waits for (empty: nothing)."""
        ...


class Unsupervised:
    """No supervisor (a desktop window, a command typed by hand): nothing to tell."""

    def extend_timeout(self, seconds: float) -> object:
        return False

    def status(self, text: str) -> object:
        return False


def _init_video(
    wanted: str | None,
    screen_wait: float,
    drm_sysfs: Path = DRM_SYSFS,
    supervisor: Supervisor | None = None,
) -> None:
    """``pygame.display.init()``; on KMSDRM, waited for up to ``screen_wait`` seconds.

    At boot the service can start before the kernel's DRM driver (vc4 on a Pi,
    virtio-gpu in the system test's VM) has a card: the driver is a module that
    udev loads once the root file system is up, alongside the services, and
    nothing orders a service after it. (The unit loads the ``drm`` core first,
    so that its device allow-list covers the card when it comes: see
    docs/decisions/0030-screen-late-at-boot.md.)
    """
    try:
        pygame.display.init()
    except pygame.error as error:
        if wanted != "kmsdrm" or screen_wait <= 0:
            raise  # a desktop window, or a command typed by hand: say it at once
        _wait_for_screen(screen_wait, error, drm_sysfs, supervisor or Unsupervised())


def _wait_for_screen(
    limit: float, error: pygame.error, drm_sysfs: Path, sdnotify: Supervisor
) -> None:
    """Start SDL's video once the screen is there; its last error after ``limit`` s.

    SDL is asked again soon after /sys/class/drm shows a connected output, else
    every few seconds. Under systemd, ``systemctl status`` says what is awaited
    and each attempt extends the start timeout, so the wait is ours to bound,
    not ``TimeoutStartSec=``'s; the log says it once.
    """
    log.info("waiting up to %.0f s for the screen (%s)", limit, error)
    sdnotify.extend_timeout(START_EXTENSION_SECONDS)
    started = time.monotonic()
    last_attempt = started
    shown = ""
    while True:
        outputs = drm_outputs(drm_sysfs)
        connected = "connected" in outputs.values()
        now = time.monotonic()
        if now - started >= limit:
            try:
                pygame.display.init()
            except pygame.error as last:
                raise pygame.error(
                    f"{last}; after {limit:.0f} s: {describe_outputs(outputs)}"
                ) from None
            break
        retry = SDL_RETRY_CONNECTED_SECONDS if connected else SDL_RETRY_SECONDS
        if now - last_attempt >= retry:
            last_attempt = now
            sdnotify.extend_timeout(START_EXTENSION_SECONDS)
            try:
                pygame.display.init()
                break
            except pygame.error as again:
                error = again
        text = f"Waiting for the screen ({error}; {describe_outputs(outputs)}), up to {limit:.0f} s"
        if text != shown:
            sdnotify.status(text)
            shown = text
        time.sleep(SCREEN_POLL_SECONDS)
    sdnotify.extend_timeout(START_EXTENSION_SECONDS)  # for the screen and the first frame
    sdnotify.status("")  # nothing awaited any more
    log.info("the screen is there after %.0f s", time.monotonic() - started)


#: Seconds a desktop's X server gets to answer before a window is given up.
DESKTOP_WAIT_SECONDS = 3.0


def _desktop_after_all(display: str) -> str:
    """SDL fell back off-screen although ``$DISPLAY`` names a desktop: ask its X11 driver
    by name, a few times (a busy X server; seen under load in the Xvfb tests), so that
    the window opens or the error says why, instead of SDL's silent fallback."""
    pygame.display.quit()
    os.environ["SDL_VIDEODRIVER"] = "x11"
    deadline = time.monotonic() + DESKTOP_WAIT_SECONDS
    while True:
        try:
            pygame.display.init()
            return video_driver()
        except pygame.error as error:
            if time.monotonic() >= deadline:
                del os.environ["SDL_VIDEODRIVER"]
                raise DisplayError(
                    f"cannot open a window on the desktop {display}: {error}"
                ) from None
            time.sleep(0.25)


#: What ``$DBUS_SESSION_BUS_ADDRESS`` says when there is no session bus: an address no
#: transport accepts, so libdbus gives up at once instead of autolaunching one.
NO_SESSION_BUS = "disabled:"


def session_bus_named(environ: Mapping[str, str]) -> bool:
    """Whether a D-Bus session bus is there to be found: a desktop session names it in
    ``$DBUS_SESSION_BUS_ADDRESS``, systemd's user session at ``$XDG_RUNTIME_DIR/bus``.

    >>> session_bus_named({"DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"})
    True
    >>> session_bus_named({})  # a system service, an ssh session
    False
    """
    if environ.get("DBUS_SESSION_BUS_ADDRESS"):
        return True
    runtime = environ.get("XDG_RUNTIME_DIR")
    return runtime is not None and runtime != "" and Path(runtime, "bus").exists()


def window_icon() -> pygame.Surface:
    """The window's icon: the five suits' colours on the panel's navy. Set before the
    window opens, it also spares pygame loading its own default icon from its package
    data (~6 ms of the start: ``importlib.resources``, ``zipfile``, a BMP read)."""
    from companion.panel.screens.kit import BACKGROUND, SUIT_RGB
    from engine.cards import Color

    icon = pygame.Surface((32, 32))
    icon.fill(BACKGROUND)
    for color in (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE, Color.WHITE):
        icon.fill(SUIT_RGB[color], pygame.Rect(2 + color * 6, 4, 4, 24))
    return icon


def open_display(
    spec: str,
    size: tuple[int, int],
    *,
    fullscreen: bool = False,
    screen_wait: float = 0.0,
    title: str = "Hanabi companion",
    sysfs_root: Path = Path("/sys/class/graphics"),
    supervisor: Supervisor | None = None,
) -> Display:
    """Start the display named by ``spec``; :class:`DisplayError` if it cannot start.

    ``screen_wait``: seconds to wait for a KMSDRM screen that is not there yet
    (the service at boot); 0 reports at once (a command typed by hand). ``supervisor``
    is told what the wait is for, and asked for the time it takes (systemd).
    """
    wanted = sdl_driver_for(spec)
    if wanted is None:
        # A desktop window: forget a driver forced by the environment of a service.
        if os.environ.get("SDL_VIDEODRIVER") in HEADLESS_DRIVERS | {"kmsdrm"}:
            del os.environ["SDL_VIDEODRIVER"]
    else:
        os.environ["SDL_VIDEODRIVER"] = wanted
    os.environ.setdefault(
        "SDL_FRAMEBUFFER_ACCELERATION", FRAMEBUFFER_ACCELERATION.get(wanted or "", "0")
    )
    if not session_bus_named(os.environ):
        # SDL asks D-Bus for an input method and the screen saver; with no session bus
        # to find, libdbus forks the whole process to run ``dbus-launch`` (in vain on a
        # service, and slow: a fork of a process with pygame loaded, at every start).
        os.environ["DBUS_SESSION_BUS_ADDRESS"] = NO_SESSION_BUS
    try:
        _init_video(wanted, screen_wait, supervisor=supervisor)
    except pygame.error as error:
        if spec == "auto":
            raise DisplayError(
                "no screen found: no desktop session ($DISPLAY is not set) and the console's "
                f"KMS/DRM screen cannot be used ({error})"
            ) from None
        where = wanted or "a desktop window"
        raise DisplayError(f"cannot open the display ({where}): {error}") from None
    driver = video_driver()
    if driver in HEADLESS_DRIVERS and wanted is None and os.environ.get("DISPLAY"):
        driver = _desktop_after_all(os.environ["DISPLAY"])
    if driver in HEADLESS_DRIVERS and (wanted is None or wanted == "kmsdrm"):
        pygame.display.quit()
        raise DisplayError(
            f"no screen found: SDL fell back to its {driver!r} driver "
            "(no desktop session, and no KMS/DRM screen). Set [screen] display in the config"
        )
    pygame.display.set_caption(title)
    pygame.display.set_icon(window_icon())
    framebuffer = None
    if spec.startswith("fb:"):
        from companion.panel.framebuffer import FramebufferError, FramebufferWriter  # fb: only

        try:
            framebuffer = FramebufferWriter(spec[3:], sysfs_root=sysfs_root)
        except (FramebufferError, OSError) as error:
            pygame.display.quit()
            raise DisplayError(f"cannot use the framebuffer {spec[3:]}: {error}") from None
        size = framebuffer.size
        surface = pygame.Surface(size)
        pygame.display.set_mode((1, 1))  # the event loop needs a window, even a dummy one
        return Display(surface, framebuffer, ConsoleGraphicsMode())
    # On the console the panel's own mode, whatever the configured size: a
    # smaller "window" there makes SDL switch the panel to another mode.
    flags = pygame.FULLSCREEN if fullscreen or driver == "kmsdrm" else 0
    try:
        window = pygame.display.set_mode((0, 0) if flags else size, flags)
    except pygame.error as error:
        pygame.display.quit()
        raise DisplayError(
            f"cannot open a {size[0]}x{size[1]} screen on {driver}: {error}"
        ) from None
    return Display(window, None)
