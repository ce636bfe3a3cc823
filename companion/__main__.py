"""``python -m companion``: the ``hanabi-companion`` command."""

from companion.shell.cli import main

raise SystemExit(main())
