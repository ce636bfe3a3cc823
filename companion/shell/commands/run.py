"""The ``run`` command: the companion on its screen, with the devices of the configuration.

This is the appliance's start: whatever it imports comes before the first frame, so the
page for phones' server and the devices' libraries are imported where they start.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from companion.core.controller import Controller, QuitAllowed, SetupDraft, StartupNotice
from companion.panel.display import DisplayError, open_display
from companion.shell import sdnotify
from companion.shell.app import App, draft_from_config, open_findings, resume, storage_notice
from companion.shell.commands.stored import open_storage
from companion.shell.config import Config, ConfigError, load_config
from companion.shell.config_values import panel_size_problem
from companion.shell.devices import DeviceOptions, open_devices, window_tag_map
from companion.shell.no_tls import without_tls
from companion.shell.web_link import WebLink
from companion.storage import DataDirLock, Storage, StorageError, default_data_dir
from hardware.os_words import reason_in_words

#: How long the service waits at boot for a KMSDRM screen still coming up: its
#: DRM driver is loaded by udev alongside the services, late on a slow boot.
#: Minutes, so that a late screen never costs a failed start; a missing one is
#: then reported, and systemd tries again.
SCREEN_WAIT_SECONDS = 300.0


def run_command(args: argparse.Namespace) -> int:
    """Run the companion on the screen, with the buttons and scanner of the config."""
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    data_dir = args.data_dir or default_data_dir()
    config = _load_config(args.config)
    if config is None:
        return 2
    try:
        # One companion per data directory, for as long as this process lives.
        lock = DataDirLock(data_dir)
    except StorageError as error:
        print(f"hanabi-companion: {error}", file=sys.stderr)
        return 1
    with lock:
        storage = open_storage(data_dir)
        if storage is None:
            return 1
        try:
            draft = SetupDraft.from_settings(
                storage.get_setting("setup", {}) or {}, default=draft_from_config(config)
            )
            if args.lang:
                draft.language = args.lang
            controller, game_id = resume(storage, draft)
        except StorageError as error:
            print(f"hanabi-companion: {error}", file=sys.stderr)
            storage.close()
            return 1
        findings = open_findings(storage)  # said at every start until OK
        controller.handle(findings)
        # storage's own words only for what is not a finding (every finding has its own)
        own = None if findings.findings else storage_notice(storage, draft.language)
        notices = [own, controller.startup_notice]
        controller.handle(StartupNotice(" · ".join(filter(None, notices)) or None))
        with without_tls():  # the server, the keyboard reader's evdev: no OpenSSL loaded
            return _run_app(args, config, storage, controller, game_id)


def _load_config(path: Path | None) -> Config | None:
    """The configuration, or None after saying on stderr why it cannot be used."""
    try:
        return load_config(path)
    except ConfigError as error:
        print(f"hanabi-companion: the configuration is wrong:\n{error}", file=sys.stderr)
        return None
    except OSError as error:
        print(
            f"hanabi-companion: cannot read the configuration: {reason_in_words(error)}",
            file=sys.stderr,
        )
        return None


def _run_app(
    args: argparse.Namespace,
    config: Config,
    storage: Storage,
    controller: Controller,
    game_id: int | None,
) -> int:
    """Open the screen and the devices, and run the loop until it stops."""
    size = args.size or config.screen.size
    try:
        display = open_display(
            args.display or config.screen.display,
            size,
            fullscreen=args.fullscreen or config.screen.fullscreen,
            # Started by systemd (at boot): the DRM driver may still be loading.
            screen_wait=SCREEN_WAIT_SECONDS if os.environ.get("INVOCATION_ID") else 0.0,
            supervisor=sdnotify,
        )
    except DisplayError as error:
        print(f"hanabi-companion: {error}", file=sys.stderr)
        storage.close()
        return 1
    problem = panel_size_problem(*display.size)  # a full screen has the panel's own size
    if problem:
        print(f"hanabi-companion: {problem}", file=sys.stderr)
        display.close()
        storage.close()
        return 1
    # A desktop window can be closed from the menu; the service has no Quit (systemd
    # would start it again).
    controller.handle(QuitAllowed(not os.environ.get("INVOCATION_ID")))
    app = App(
        storage,
        display,
        controller,
        game_id,
        tag_map=window_tag_map(config, args.data_dir),
        reader_configured=config.scanner is not None,
    )
    app.check_after_first_frame = True  # the whole-file check, in the background
    web = _web_link(args, config, storage)
    if web is not None:
        app.attach_web(web)
    options = DeviceOptions(pin_factory=args.gpio, data_dir=args.data_dir)
    try:
        with open_devices(config, app.inbox.emit, options) as devices:
            if devices.notices:
                startup = controller.startup_notice
                notice = " · ".join([*devices.notices, *filter(None, [startup])])
                controller.handle(StartupNotice(notice))
            if devices.panel is not None:
                app.on_tokens = devices.panel.show_tokens
                app.on_beep = devices.panel.beep
            return app.run()
    finally:
        if web is not None:
            web.stop()
        display.close()
        storage.close()


def _web_link(args: argparse.Namespace, config: Config, storage: Storage) -> WebLink | None:
    """The page for phones, when ``[web]`` or ``--web`` turns it on; says its URL in one
    line (the journal has it under systemd). Served after the first frame."""
    if not (config.web.enabled or args.web):
        return None
    try:
        web = WebLink(storage, port=config.web.port, bind=config.web.bind)
    except StorageError as error:  # the table code could not be kept: no page
        print(f"hanabi-companion: no page for phones: {error}", file=sys.stderr)
        return None
    print(f"phones: {web.url}", flush=True)
    return web
