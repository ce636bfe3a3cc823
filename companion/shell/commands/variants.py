"""The ``variants`` command: Hanab Live's variants a printed deck can carry, by name.

One variant a line, in Hanab Live's order: its exact name (what a log's ``"variant"``
takes, GAME-LOG.md "Variants by name"), then the printed cards that stand for its suits,
with the suit's name where it is not the colour's (``W=Purple M=Rainbow``); the last
line counts them. Words given narrow the list to the names holding every one of them
(any case); none matching is exit status 1, as ``grep`` says it.
"""

from __future__ import annotations

import argparse

from engine.variants import search, table_source, variant_by_name


def variants_command(args: argparse.Namespace) -> int:
    """Print the variants a printed deck can carry (those matching the words given)."""
    text = " ".join(args.words)
    names = search(text)
    _, count, total = table_source()
    width = max((len(name) for name in names), default=0)
    for name in names:
        print(f"{name:<{width}}  {_printed_cards(name)}")
    if not text:
        print(f"{count:,} of Hanab Live's {total:,} variants can be played with a printed deck.")
        return 0
    if not names:
        print(f'No variant a printed deck can carry matches "{text}" ({count:,} can).')
        return 1
    print(f'{len(names)} of the {count:,} variants a printed deck can carry match "{text}".')
    return 0


def _printed_cards(name: str) -> str:
    """The printed cards of a variant's suits: ``R Y G B W=Purple M=Rainbow``."""
    parts = []
    for suit in variant_by_name(name).suits:
        letter = suit.color.letter
        same = suit.name.casefold() == suit.color.label
        parts.append(letter if same else f"{letter}={suit.name}")
    return " ".join(parts)
