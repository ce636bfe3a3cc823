"""The commands of ``hanabi-companion``, one module per command or family of commands.

:mod:`companion.shell.cli` builds the parser and imports a command's module only when
that command runs, so each command loads only what it needs (``replay`` never imports
pygame, nor the storage).
"""
