"""The languages of the screens: one module per language, found by :func:`discover`.

A language is one file in this package, ``<code>.py`` (``en.py``, ``fr.py``,
``de.py``…), that defines ``LANGUAGE``, a :class:`Language`. Nothing else names
it: :mod:`companion.core.i18n` lists whatever modules are here (:func:`codes`) and
imports each the first time its words are needed (:func:`load`: a start in one
language loads that one and English, the fallback), and the configuration's
choices, ``--lang``, the set-up's language row and the tests follow
:data:`companion.core.i18n.LANGUAGES`.

>>> [language.code for language in discover()][:1]
['en']
>>> sorted(language.code for language in discover())
['de', 'en', 'fr']
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from pathlib import Path

from msgspec import Struct

from engine.cards import Color
from engine.outcome import Rating

#: The language every other one falls back to, and the first one offered.
FALLBACK = "en"


class Language(Struct, frozen=True):
    """Every word of the app in one language."""

    #: ISO 639-1 code, and the name of the module that defines the language.
    code: str
    #: The language by its own name ("Français"), as the set-up offers it.
    name: str
    #: Every text of the screens by key (the same keys in every language).
    texts: Mapping[str, str]
    #: Each colour's name, as it reads alone and inside ``card``.
    colors: Mapping[Color, str]
    #: Each rating band: (title, the rule book's sentence, which opens with the title).
    ratings: Mapping[Rating, tuple[str, str]]
    #: The help screen: (keyboard keys, buttons, what they do), row by row.
    help_rows: tuple[tuple[str, str, str], ...]
    #: gettext's ``plural=`` expression, as a function: a count → the index of its form.
    plural: Callable[[int], int]
    #: The same rule as gettext writes it (``"n != 1"``), checked against ``plural``.
    plural_expression: str
    #: Words counted on the screens, each with its forms in the order of ``plural``.
    counted: Mapping[str, tuple[str, ...]]
    #: Why the engine refused an action, by the refusal's code (``engine/errors.py``).
    #: Placeholders: the error's parameters, ``{player_name}``, ``{claimed_name}``,
    #: ``{seat_name}`` (a seat's player), ``{card}`` (the card's name), ``{color}``.
    refusals: Mapping[str, str]
    #: A card's name, word order included: ``"{color} {rank}"`` or ``"{rank} {color}"``.
    card: str


def codes() -> list[str]:
    """The code of every language of this package, the fallback first, then by code:
    the names of its modules, listed without importing them (the package's ``.py``
    files: ``pkgutil``, which would list them too, is not imported at start)."""
    found = {
        path.stem
        for folder in __path__
        for path in Path(folder).glob("*.py")
        if not path.stem.startswith("_")
    }
    return sorted(found, key=lambda code: (code != FALLBACK, code))


def load(code: str) -> Language:
    """The language of the module ``code`` of this package (imported on the first call)."""
    module = importlib.import_module(f"{__name__}.{code}")
    language = getattr(module, "LANGUAGE", None)
    if not isinstance(language, Language) or language.code != code:
        raise TypeError(f"{module.__name__} must define LANGUAGE = Language(code={code!r}, …)")
    return language


def discover() -> list[Language]:
    """Every language of this package: the fallback first, then by code."""
    return [load(code) for code in codes()]
