"""The ``enrol`` command: which RFID tag is on which card of the deck, asked card by card.

``enrol`` asks for each card of the deck in turn and records which tag is on which
card. ``enrol --card R3`` forgets every tag of R3 and asks for each copy of R3 again
(two for a 3): a lost, damaged or replaced copy is fixed without needing its old tag;
every other card keeps its tags.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from companion.shell.commands.readers import (
    EXIT_ERROR,
    EXIT_OK,
    MULTICOLOR_MODES,
    Reads,
    readers_or_exit,
    run_with_scanner,
    say,
)
from companion.shell.devices import default_tag_map_path
from engine.cards import Card, CardFormatError
from engine.options import GameOptions, Multicolor
from hardware.events import CardScanned
from hardware.os_words import reason_in_words
from hardware.tagmap import TagMap, TagMapError, card_code_of


def deck_cards(multicolor: str = "none") -> list[Card]:
    """Every card of the deck, one entry per copy, in enrolment order.

    >>> [card.code() for card in deck_cards()][:6]
    ['R1', 'R1', 'R1', 'R2', 'R2', 'R3']
    >>> len(deck_cards()), len(deck_cards("short")), len(deck_cards("full"))
    (50, 55, 60)
    """
    if multicolor not in MULTICOLOR_MODES:
        raise ValueError(f"multicolor {multicolor!r} is not one of {', '.join(MULTICOLOR_MODES)}")
    return GameOptions(multicolor=Multicolor(multicolor)).deck_cards()


def check_deck(tag_map: TagMap, multicolor: str = "none") -> list[str]:
    """What is wrong with an enrolled deck: ``["R3: 1 tag, expected 2", ...]``."""
    expected = Counter(deck_cards(multicolor))
    actual = tag_map.counts()
    problems = []
    for card in sorted(expected.keys() | actual.keys()):
        if actual[card] != expected[card]:
            problems.append(f"{card.code()}: {actual[card]} tags, expected {expected[card]}")
    return problems


def enrol_command(args: argparse.Namespace) -> int:
    """Ask for each card (or each copy of ``--card``), read its tag, save the map."""
    path: Path = args.tag_map or default_tag_map_path(args.data_dir)
    asked = readers_or_exit(args)
    if isinstance(asked, int):
        return asked
    readers, _ = asked
    try:
        wanted = _cards_to_enrol(args)
        tag_map = TagMap.load(path) if args.card else TagMap()
    except (ValueError, TagMapError) as error:
        say(f"error: {error}", error=True)
        return EXIT_ERROR
    asked_for: list[Card] = []  # the cards asked for, once the readers started

    def enrol_cards(reads: Reads) -> int:
        if args.card:
            forgotten = tag_map.forget_card(wanted[0])
            say(f"Re-enrolling {wanted[0].code()}: forgot {len(forgotten)} old tag(s).")
        else:
            say(
                f"Enrolling a deck of {len(wanted)} cards into {path}."
                " Ctrl-C aborts (nothing saved)."
            )
        asked_for.extend(wanted)
        stream = reads.reads()
        for number, card in enumerate(wanted, start=1):
            if not _enrol_one(stream, tag_map, card, number, len(wanted)):
                return EXIT_ERROR
        return EXIT_OK

    status = run_with_scanner(args, TagMap(), enrol_cards, readers)
    if status != EXIT_OK:
        if asked_for:  # else the readers did not start: their one line said why
            say("Enrolment aborted: nothing saved.", error=True)
        return status
    if not args.card:
        problems = check_deck(tag_map, args.multicolor)
        if problems:
            say("error: the deck is not complete: " + "; ".join(problems), error=True)
            return EXIT_ERROR
    try:
        tag_map.save(path)
    except OSError as error:
        say(f"error: cannot save {path}: {reason_in_words(error)}", error=True)
        return EXIT_ERROR
    say(f"Saved {len(tag_map)} tags to {path}.")
    return EXIT_OK


def _cards_to_enrol(args: argparse.Namespace) -> list[Card]:
    deck = deck_cards(args.multicolor)
    if not args.card:
        return deck
    try:
        card = Card.from_code(args.card)
    except CardFormatError as error:
        raise ValueError(f"--card: {error}") from None
    copies = [known for known in deck if known == card]
    if not copies:
        raise ValueError(
            f"--card: {card.code()} is not in a deck with --multicolor {args.multicolor}"
        )
    return copies


def _enrol_one(
    stream: Iterator[CardScanned], tag_map: TagMap, card: Card, number: int, total: int
) -> bool:
    """Ask for ``card`` until a usable tag is read; False if stopped first."""
    say(f"Scan {card.code()} ({number}/{total}):")
    for read in stream:
        if card_code_of(read.tag) is not None:
            say(f"{read.tag} is a card code, not a tag: no enrolment needed. Scan {card.code()}:")
            continue
        if read.tag in tag_map:
            known = tag_map.lookup(read.tag)
            assert known is not None
            say(f"Tag {read.tag} is already {known.code()}. Scan {card.code()}:")
            continue
        tag_map.enrol(read.tag, card)
        say(f"{read.tag} = {card.code()}")
        return True
    return False
