"""The Phones page (the menu): how a phone joins the table and how it may enter actions,
then the phones that may, each with a button that removes it.

The page opens on its code: the QR code of the table's page for phones, its URL in
words, and the pairing code a phone types to enter actions, large ("123 456", read
from across the table), with a button for a new table code (the old links then stop
working). NEXT (or the ">" button) turns to the paired phones, one button each
("Remove Ann"): NEXT and PREVIOUS move the focus along them and back to the code, OK
on the one at the focus (or a tap on one) asks "Remove Ann's phone? OK", and OK then
removes it (Cancel keeps it).

The QR code is made by ``segno`` (pure Python) and drawn module by module, black on
white with its quiet zone, never under :data:`LEAST_MODULE` pixels a module (a phone's
camera reads it from a hand's length). The URL is said in two lines, the address and
the code, each whole (a URL has no space to wrap at). How the room is shared (the QR
code, the pairing code's size, the sentence "Scan with a phone…") is worked out by
:func:`plan_room`; the status line's room is kept whether or not one is said, so that
the code does not move when a phone pairs (docs/decisions/0073-pairing-code-and-qr-sizes.md).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from enum import StrEnum

import pygame
from msgspec import Struct

from companion.core import i18n
from companion.core.controller import (
    NEW_CODE,
    PAIR_NO,
    PAIR_YES,
    REMOVE_NO,
    REMOVE_PHONE,
    REMOVE_YES,
    Controller,
    Info,
)
from companion.panel.screens.game import message_text
from companion.panel.screens.kit import ACCENT, GOOD, RGB, TEXT, WARN, Kit, Layout
from companion.panel.screens.lists import page_title
from companion.vocabulary.phone import PHONE_NAME_LENGTH
from hardware.events import InputEvent, Key, Press, Select

#: Modules of white around the code, as the QR standard asks (readers need it).
QUIET_ZONE = 4
#: The fewest pixels a module of the QR code is drawn with (a camera needs 2 at least).
LEAST_MODULE = 2
#: Pixels a module is given first, where the page has the room (a phone held further).
COMFORTABLE_MODULE = 3
#: The share of the page's room (its height, or its width if less) the QR code is given
#: first, before the pairing code grows: the two in balance on a large panel.
QR_SHARE = 0.6

#: The notices the Phones page says (a phone paired or removed, a new table code); the
#: others belong to the screen they were said on.
SAID_HERE = ("phone_paired", "phone_removed", "phones_new_code_done", "phone_pair_confirm")
#: The name the status line's room is measured with: as long as a phone's name may be.
STATUS_NAME = "n" * PHONE_NAME_LENGTH


def spaced_code(code: str) -> str:
    """The pairing code as it is read out and typed: two groups of three digits.

    >>> spaced_code("123456")
    '123 456'
    """
    half = (len(code) + 1) // 2
    return f"{code[:half]} {code[half:]}".strip()


def url_lines(url: str) -> list[str]:
    """The URL as whole lines: the address, then the query with the code.

    >>> url_lines("http://192.168.1.20:8080/?code=abcd2345")
    ['http://192.168.1.20:8080/', '?code=abcd2345']
    """
    address, mark, query = url.partition("?")
    return [address, mark + query] if mark else [address]


@functools.lru_cache(maxsize=4)
def qr_matrix(text: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code of ``text``: rows of dark (True) and light modules, without the quiet
    zone. Error correction M (15 %): a phone held at an angle to a glossy panel. Made
    once per URL (making one takes segno some 40 ms: every frame of the page did)."""
    import segno

    code = segno.make(text, error="m", micro=False)
    return tuple(tuple(bool(module) for module in row) for row in code.matrix)


def draw_qr(
    surface: pygame.Surface, rect: pygame.Rect, matrix: Sequence[Sequence[bool]]
) -> pygame.Rect:
    """The code, centred in ``rect``, whole modules of whole pixels; returns its box."""
    modules = len(matrix) + 2 * QUIET_ZONE
    size = max(1, min(rect.width, rect.height) // modules)
    side = size * modules
    box = pygame.Rect(0, 0, side, side)
    box.center = rect.center
    pygame.draw.rect(surface, (255, 255, 255), box)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                module = pygame.Rect(
                    box.left + (x + QUIET_ZONE) * size,
                    box.top + (y + QUIET_ZONE) * size,
                    size,
                    size,
                )
                pygame.draw.rect(surface, (0, 0, 0), module)
    return box


def said_here(controller: Controller) -> tuple[str, RGB] | None:
    """The status line of the Phones page: a phone to pair ("Pair Di's phone? OK"), a
    phone paired or removed, a new table code."""
    name = controller.pending_pair_name()
    if name is not None:  # asked until answered, whatever else was said
        return i18n.tr(controller.language, "phone_pair_confirm", name=name), GOOD
    removing = controller.removing_phone()
    if removing is not None:  # asked until answered too
        return i18n.tr(controller.language, "phone_remove_confirm", name=removing.name), WARN
    message = controller.message
    if not isinstance(message, Info) or message.key not in SAID_HERE:
        return None
    words, color = message_text(controller)
    return words, GOOD if message.key == "phone_paired" else color  # good news


def draw(kit: Kit, surface: pygame.Surface, controller: Controller) -> None:
    layout = kit.layout()
    if controller.focused_phone() is None or controller.pending_pair is not None:
        draw_code(kit, surface, controller, layout)
    else:
        draw_paired(kit, surface, controller, layout)


def _bar(
    kit: Kit, surface: pygame.Surface, layout: Layout, buttons: list[tuple[str, InputEvent]]
) -> pygame.Rect:
    inner_w = kit.width - 2 * kit.pad
    bar_h = kit.bar_height([label for label, _ in buttons], inner_w)
    bar = layout.place(
        "buttons", pygame.Rect(kit.pad, kit.height - kit.pad - bar_h, inner_w, bar_h)
    )
    kit.button_bar(surface, bar, buttons)
    return bar


class Sentence(StrEnum):
    """Where the code page says "Scan with a phone…" (and its status line)."""

    APART = "apart"  # above the URL; the status line under the pairing code
    SHARED = "shared"  # above the URL, in place of the status line while one is said
    LEFT_OUT = "left out"  # not said; the status line under the pairing code
    #: not said, and the status line's room not kept: only its own, while one is said
    #: (a notice's banner above the page)
    CROWDED = "crowded"


class Plan(Struct, frozen=True):
    """How the code page shares its room: the QR code's side, where the sentence
    "Scan with a phone…" goes, and the pairing code's size."""

    qr_side: int
    sentence: Sentence
    code_size: int


def plan_room(
    qr_side: Callable[[Sentence, int], int],
    words_alone: Callable[[int], bool],
    modules: int,
    sizes: list[int],
    share: int,
) -> Plan:
    """The first that leaves the QR code its room: the sentence apart, then sharing its
    place with the status line, then left out, then no room kept for the status line
    either (see :class:`Sentence`); the QR code at least ``share`` pixels across (its
    share of the page), then 3 pixels a module, then 2; the pairing code at its largest,
    then smaller. ``qr_side(sentence, code_size)``: the QR code's room then;
    ``words_alone(code_size)``: whether the words fit the page without a QR code."""
    share = max(COMFORTABLE_MODULE, share // modules) * modules
    for sentence in Sentence:
        for least in (share, COMFORTABLE_MODULE * modules, LEAST_MODULE * modules):
            for size in sizes:
                side = qr_side(sentence, size)
                if side >= least:
                    return Plan(side, sentence, size)
    # nothing fits (a notice's banner above the page): no QR code (under 2 pixels a
    # module no camera reads it), the words said whole, the URL among them
    size = next((size for size in sizes if words_alone(size)), sizes[-1])
    return Plan(0, Sentence.CROWDED, size)


def draw_code(kit: Kit, surface: pygame.Surface, controller: Controller, layout: Layout) -> None:
    """The page's code: the QR code, the URL, the pairing code; the status line."""
    lang = controller.language
    w, pad = kit.width, kit.pad
    inner_w = w - 2 * pad
    title = page_title(kit, surface, layout, i18n.tr(lang, "phones"))
    url = controller.phones_url
    buttons: list[tuple[str, InputEvent]] = [("OK", Press(Key.BACK))]
    if controller.pending_pair is not None:  # "Pair Di's phone?": yes or no, nothing else
        buttons = [(i18n.tr(lang, "cancel"), PAIR_NO), ("OK", PAIR_YES)]
    elif controller.paired:  # the paired phones, as NEXT turns to them
        buttons.insert(0, (">", Press(Key.NEXT)))
    if url is not None and controller.pending_pair is None:
        buttons.insert(0, (i18n.tr(lang, "phones_new_code"), NEW_CODE))
    bar = _bar(kit, surface, layout, buttons)
    top, bottom = title.bottom + pad, bar.top - pad
    status = said_here(controller)
    if url is None:
        sentences = [(i18n.tr(lang, "phones_off"), TEXT)]
        if status is not None:
            sentences.append(status)
        y = top
        for number, (text, color) in enumerate(sentences):
            box_h = min(kit.height_of(text, kit.floor, inner_w), bottom - y)
            box = layout.place(f"off {number}", pygame.Rect(pad, y, inner_w, box_h))
            kit.text(surface, text, box, color=color)
            y = box.bottom + pad
        return
    how = i18n.tr(lang, "phones_how")
    label = i18n.tr(lang, "phones_pairing_code")
    lines = url_lines(url)
    code = spaced_code(controller.pairing_code) if controller.pairing_code else ""
    line_h = kit.line_height(kit.floor)
    matrix = qr_matrix(url)
    modules = len(matrix) + 2 * QUIET_ZONE
    landscape = w > kit.height
    widest = max(kit.width_of(line, kit.floor) for line in lines)  # the URL is said whole
    # room for the status line whether or not it is said: the code and the QR code keep
    # their size when a phone pairs (someone may be typing the code from across the table)
    statuses = [status[0]] if status is not None else []
    statuses += [i18n.tr(lang, key, name=STATUS_NAME) for key in SAID_HERE]

    @functools.cache
    def heights(width: int) -> tuple[int, int, int]:
        """At ``width``: the sentence's height, the status line's room (the most any
        says), and the rest of the words' but the pairing code's line."""
        rest = len(lines) * line_h
        if code:
            rest += pad + kit.height_of(label, kit.floor, width)
        most = max(kit.height_of(text, kit.floor, width) for text in statuses)
        return kit.height_of(how, kit.floor, width), most, rest

    def words_height(sentence: Sentence, code_size: int, width: int) -> int:
        how_h, status_h, rest = heights(width)
        code_h = kit.line_height(code_size) if code else 0
        if sentence is Sentence.APART:
            return how_h + rest + code_h + pad + status_h
        if sentence is Sentence.SHARED:
            return max(how_h, status_h) + rest + code_h
        if sentence is Sentence.CROWDED:
            said = kit.height_of(status[0], kit.floor, width) + pad if status else 0
            return rest + code_h + said
        return rest + code_h + pad + status_h

    room = bottom - top

    def qr_side(sentence: Sentence, code_size: int) -> int:
        """The QR code's room beside (or above) these words; 0: they do not fit."""
        if not landscape:  # the QR code above the words, as wide as the panel
            if kit.width_of(code, code_size) > inner_w:
                return 0
            return min(inner_w, room - pad - words_height(sentence, code_size, inner_w))
        # at the left, as large as the words at its right leave it, in whole modules
        for side in range(room - room % modules, 0, -modules):
            width = inner_w - side - pad
            if (
                width >= max(widest, kit.width_of(code, code_size))
                and words_height(sentence, code_size, width) <= room
            ):
                return side
        return 0

    sizes = list(range(2 * kit.figure, kit.figure - 1, -1)) if code else [kit.floor]
    plan = plan_room(
        qr_side,
        lambda size: words_height(Sentence.CROWDED, size, inner_w) <= room,
        modules,
        sizes,
        int(min(room, inner_w) * QR_SHARE),
    )
    if not plan.qr_side:
        words = pygame.Rect(pad, top, inner_w, room)
    elif landscape:
        qr_area = pygame.Rect(pad, top, plan.qr_side, room)  # centred in its height
        words = pygame.Rect(qr_area.right + pad, top, w - qr_area.right - 2 * pad, room)
        layout.place("qr", draw_qr(surface, qr_area, matrix))
    else:
        qr_area = pygame.Rect(pad, top, inner_w, plan.qr_side)
        words = pygame.Rect(pad, qr_area.bottom + pad, inner_w, bottom - qr_area.bottom - pad)
        layout.place("qr", draw_qr(surface, qr_area, matrix))
    # the words, centred in their room (the status line's kept), top to bottom
    text_h = words_height(plan.sentence, plan.code_size, words.width)
    y = words.top + max(0, (words.height - text_h) // 2)

    def say(name: str, text: str, height: int, color: RGB, size: int | None = None) -> None:
        nonlocal y
        height = min(height, words.bottom - y)  # cut at the buttons, if it must be
        if height > 0:
            box = layout.place(name, pygame.Rect(words.left, y, words.width, height))
            kit.text(surface, text, box, size=size, floor=size, color=color)
            y = box.bottom

    how_h, status_h, _ = heights(words.width)
    if plan.sentence is Sentence.APART:
        say("how", how, how_h, TEXT)
    elif plan.sentence is Sentence.SHARED:
        shown, color = status or (how, TEXT)
        say("how", shown, max(how_h, status_h), color)
    for number, line in enumerate(lines):
        say(f"url {number}", line, line_h, ACCENT)
    if code:
        y += pad
        say("pairing", label, kit.height_of(label, kit.floor, words.width), TEXT)
        say("code", code, kit.line_height(plan.code_size), ACCENT, plan.code_size)
    if status is not None and plan.sentence is not Sentence.SHARED:
        y += pad
        say("status", status[0], kit.height_of(status[0], kit.floor, words.width), status[1])


def draw_paired(kit: Kit, surface: pygame.Surface, controller: Controller, layout: Layout) -> None:
    """The paired phones, one button each that removes it ("Remove Ann"), the focus
    highlighted and always shown; the status line above the buttons."""
    lang = controller.language
    w, pad = kit.width, kit.pad
    inner_w = w - 2 * pad
    title = page_title(kit, surface, layout, i18n.tr(lang, "phones_paired"))
    buttons: list[tuple[str, InputEvent]] = [
        ("<", Press(Key.PREVIOUS)),
        (">", Press(Key.NEXT)),
        ("OK", Press(Key.BACK)),
    ]
    if controller.removing_phone() is not None:  # "Remove Di's phone?": yes or no
        buttons = [(i18n.tr(lang, "cancel"), REMOVE_NO), ("OK", REMOVE_YES)]
    bar = _bar(kit, surface, layout, buttons)
    bottom = bar.top - pad
    status = said_here(controller)
    if status is not None:
        status_h = kit.height_of(status[0], kit.floor, inner_w)
        box = layout.place("status", pygame.Rect(pad, bottom - status_h, inner_w, status_h))
        kit.text(surface, status[0], box, color=status[1], align="center")
        bottom = box.top - pad
    phones = controller.paired_phones()
    focused = controller.focused_phone()
    focus = phones.index(focused) if focused is not None else 0
    row_h, gap = kit.button_height, kit.gap
    top = title.bottom + pad
    shown = max(1, (bottom - top + gap) // (row_h + gap))
    first = max(0, focus - shown + 1)
    y = top
    for index in range(first, min(len(phones), first + shown)):
        phone = phones[index]
        rect = layout.place(f"phone {index}", pygame.Rect(pad, y, inner_w, row_h))
        label = i18n.tr(lang, "phones_remove", name=phone.name)
        event = Select(f"{REMOVE_PHONE}{phone.id}")
        kit.button(surface, rect, label, event, highlight=index == focus)
        y = rect.bottom + gap
