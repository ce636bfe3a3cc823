"""The panel's Phones page (issue 22): the pairing code a phone types, large, with the
QR code and the URL; the paired phones listed, each removed by the panel's keys or a tap.

Drawn with the real renderer (SDL dummy driver), read back as a phone would: the QR code
is decoded from the pixels (zxing-cpp), the code and the words from what the kit drew.
The app tests run a real App on a real SQLite file.
"""

from __future__ import annotations

import math
import os

import pygame
import pytest
import zxingcpp
from support.screen_states import PAIRED, STATES

from companion.core import i18n
from companion.core.controller import (
    PAIR_NO,
    PAIR_YES,
    REMOVE_NO,
    REMOVE_PHONE,
    REMOVE_YES,
    Controller,
    Info,
    Screen,
    UnpairPhone,
)
from companion.core.draft import SetupDraft
from companion.panel.keys import key_event
from companion.panel.screens import Renderer
from companion.panel.screens.phones import QUIET_ZONE, qr_matrix, spaced_code
from companion.shell.app import App
from companion.vocabulary.phone import Answer, PairedPhone, PhonePair, hash_token
from hardware.events import InputEvent, Key, Press, Select, Tap

SIZES = [(240, 320), (320, 240), (480, 320), (800, 480), (480, 800), (320, 480)]
URL = "http://192.168.100.200:8080/?code=k7m2q9xa"


@pytest.fixture(autouse=True, scope="module")
def headless() -> None:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.font.init()


def drawn(controller: Controller, size: tuple[int, int]) -> tuple[Renderer, pygame.Surface]:
    renderer = Renderer(size, strict=True)
    surface = pygame.Surface(size)
    renderer.draw(surface, controller)
    return renderer, surface


def decoded(surface: pygame.Surface) -> list[str]:
    """What a phone's camera reads on the panel: every QR code's text."""
    width, height = surface.get_size()
    pixels = pygame.image.tobytes(surface, "RGB")  # kept: the view does not hold it
    view = zxingcpp.ImageView(pixels, width, height, zxingcpp.ImageFormat.RGB)
    return [code.text for code in zxingcpp.read_barcodes(view)]


def qr_box(surface: pygame.Surface) -> pygame.Rect:
    """The QR code's box: the pure white pixels (its quiet zone; no text is pure white)."""
    mask = pygame.mask.from_threshold(surface, (255, 255, 255), (1, 1, 1, 255))
    boxes = mask.get_bounding_rects()
    assert boxes, "no QR code drawn"
    return boxes[0].unionall(boxes[1:])


def keys(controller: Controller, *names: str) -> list:
    """Keys typed on the keyboard, through the real key table."""
    effects = []
    for name in names:
        event = key_event(name, controller.screen, entry_step=None)
        assert event is not None, f"{name!r} means nothing on {controller.screen}"
        effects.extend(controller.handle(event))
    return effects


def tapped(targets: list, wanted: InputEvent) -> InputEvent | None:
    """A tap at the middle of what was drawn for ``wanted``, resolved as the app does
    (the last target drawn under the finger)."""
    rect = next(rect for rect, event in targets if event == wanted)
    return next((event for box, event in reversed(targets) if box.collidepoint(rect.center)), None)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("state", ["phones_page", "phones_page_paired"])
def test_the_pairing_code_qr_code_and_url_are_all_shown_and_legible(state, size, lang):
    """At every panel size: the pairing code as 3+3 digits, whole, at least a tenth of
    the panel high (the key figures' size), under its label; the URL in words; the QR
    code read back as the URL by a decoder, at 2 px a module at least."""
    controller = STATES[state](lang)
    renderer, surface = drawn(controller, size)
    texts = renderer.texts
    said = [text.text for text in texts]
    code = [text for text in texts if text.text == "048 213"]
    assert len(code) == 1, said
    figure = math.ceil(min(size) / 10 / 1.15)
    assert code[0].whole and code[0].size >= figure, code[0]
    label = i18n.tr(lang, "phones_pairing_code")
    assert label in " ".join(said), said
    assert "http://192.168.100.200:8080/" in said and "?code=k7m2q9xa" in said
    assert decoded(surface) == [URL]
    modules = len(qr_matrix(URL)) + 2 * QUIET_ZONE
    assert qr_box(surface).width >= 2 * modules  # 2 px a module at least, quiet zone too


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_code_and_the_qr_code_stay_put_when_a_phone_pairs(size, lang):
    """A phone paired while someone types the code from across the table: the status
    line appears, and the pairing code and the QR code keep their size and place."""
    before = drawn(STATES["phones_page"](lang), size)
    after = drawn(STATES["phones_page_paired"](lang), size)
    codes = [
        next((text.rect, text.size) for text in renderer.texts if text.text == "048 213")
        for renderer, _ in (before, after)
    ]
    assert codes[0] == codes[1]
    assert qr_box(before[1]) == qr_box(after[1])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lines", [1, 2, 8], ids=lambda n: f"notice{n}")
@pytest.mark.parametrize("state", ["phones_page", "phones_page_paired"])
def test_under_a_notice_the_url_and_the_code_are_still_said_whole(state, size, lines):
    """A device's notice (its banner up to a quarter of the panel) above the page: the
    URL and the pairing code are said whole, at their least sizes at least; a QR code
    drawn reads back (none is drawn rather than one under 2 px a module)."""
    controller = STATES[state]("de")
    notice = " ".join(["Scanner getrennt: /dev/input/by-id/usb-Reader"] * lines)
    controller.device_notices["scanner"] = notice
    renderer, surface = drawn(controller, size)
    page = [text for text in renderer.texts if text.text.rstrip("…") not in notice]
    assert all(text.whole and text.size >= text.floor for text in page), page
    said = [text.text for text in page]
    assert "048 213" in said and "?code=k7m2q9xa" in said, said
    white = pygame.mask.from_threshold(surface, (255, 255, 255), (1, 1, 1, 255))
    if white.count():
        assert decoded(surface) == [URL]


def test_the_code_is_said_in_two_groups_of_three():
    """The code is read out and typed as "123 456": two groups of three digits."""
    assert spaced_code("048213") == "048 213"
    assert spaced_code("000000") == "000 000"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_phone_pairing_while_the_page_is_open_is_said_on_it(size):
    """The status line says "Bo's phone can enter actions" on the Phones page; what
    just happened in the game is not said there."""
    controller = STATES["phones_page_paired"]("en")
    said = " ".join(text.text for text in drawn(controller, size)[0].texts)
    assert "Bo's phone can enter actions" in said
    controller.message = STATES["final_round_five"]("en").message  # the last action
    said = " ".join(text.text for text in drawn(controller, size)[0].texts)
    assert "phone can enter" not in said and "048 213" in said


def test_next_previous_and_ok_reach_and_remove_each_paired_phone():
    """The panel's keys: NEXT moves from the code to each phone in turn and round to the
    code; PREVIOUS the other way; OK removes the phone at the focus (UnpairPhone with
    its id); on the code, OK leaves the page."""
    controller = STATES["phones_page_paired"]("en")
    assert controller.focused_phone() is None
    assert keys(controller, "down") == [] and controller.focused_phone() == PAIRED[0]
    assert keys(controller, "down", "return") == []  # "Remove …'s phone? OK"
    assert keys(controller, "return") == [UnpairPhone(PAIRED[1].id)]
    assert keys(controller, "down", "down") == [] and controller.focused_phone() is None
    assert keys(controller, "up") == [] and controller.focused_phone() == PAIRED[2]
    assert keys(controller, "return", "return") == [UnpairPhone(PAIRED[2].id)]
    assert controller.screen is Screen.PHONES
    keys(controller, "up", "up", "up")  # the second, the first, the code
    assert controller.focused_phone() is None
    assert keys(controller, "return") == [] and controller.screen is not Screen.PHONES


def test_the_button_panels_next_and_ok_remove_a_phone():
    """The six-button panel has NEXT and OK (no PREVIOUS): NEXT, NEXT, NEXT, OK removes
    the third phone."""
    controller = STATES["phones_page_paired"]("en")
    for _ in range(3):
        assert controller.handle(Press(Key.NEXT)) == []
    assert controller.handle(Press(Key.OK)) == []  # asked first
    assert controller.handle(Press(Key.OK)) == [UnpairPhone(PAIRED[2].id)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_remove_asks_first_and_cancel_keeps_the_phone(size):
    """Issue 33: "Remove Di" acted on one tap. A tap (or OK) now asks "Remove Di's
    phone? OK" with Cancel and OK, nothing removed; Cancel, BACK or leaving the page keeps
    the phone; only OK then removes it."""
    for answer in (REMOVE_NO, Press(Key.BACK), Press(Key.MENU)):
        controller = STATES["phones_page_list"]("en")
        renderer, _ = drawn(controller, size)
        remove = tapped(renderer.targets, Select(f"{REMOVE_PHONE}{PAIRED[2].id}"))
        assert remove is not None and controller.handle(remove) == []
        assert controller.focused_phone() == PAIRED[2]  # the one asked about, highlighted
        renderer, _ = drawn(controller, size)
        said = " ".join(text.text for text in renderer.texts)
        assert "Remove Bo's phone? OK" in said
        assert tapped(renderer.targets, REMOVE_NO) == REMOVE_NO
        for key in ("down", "up", "tab"):  # nothing else answers it
            assert keys(controller, key) == []
        assert controller.handle(answer) == []
        assert len(controller.paired) == 3 and controller.pending_remove is None
        said = " ".join(text.text for text in drawn(controller, size)[0].texts)
        assert "phone? OK" not in said


def test_back_on_the_list_goes_to_the_code_then_leaves():
    """BACK (Escape, BackSpace, a long UNDO) on the list shows the code again; on the
    code it leaves the page."""
    controller = STATES["phones_page_list"]("en")
    assert keys(controller, "escape") == [] and controller.screen is Screen.PHONES
    assert controller.focused_phone() is None
    keys(controller, "down", "backspace")
    assert controller.focused_phone() is None and controller.screen is Screen.PHONES
    keys(controller, "backspace")
    assert controller.screen is Screen.GAME


def test_with_no_phone_paired_next_stays_on_the_code():
    """Nothing to list: NEXT keeps the code on the page."""
    controller = STATES["phones_page"]("en")
    assert keys(controller, "down", "up") == [] and controller.focused_phone() is None


def test_a_removed_phone_moves_the_focus_to_the_next_and_none_left_shows_the_code():
    """The phone at the focus removed (by a tap, or a key): the focus is on the one
    listed after it, the last one's on the one before; none left, the page shows the code."""
    controller = STATES["phones_page_list"]("en")
    assert controller.focused_phone() == PAIRED[1]
    del controller.paired[bytes([PAIRED[1].id]) * 32]
    assert controller.focused_phone() == PAIRED[2]
    assert keys(controller, "return", "return") == [UnpairPhone(PAIRED[2].id)]
    del controller.paired[bytes([PAIRED[2].id]) * 32]
    assert controller.focused_phone() == PAIRED[0]
    del controller.paired[bytes([PAIRED[0].id]) * 32]
    assert controller.focused_phone() is None
    said = " ".join(text.text for text in drawn(controller, (480, 320))[0].texts)
    assert "048 213" in said


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_each_paired_phone_is_listed_by_name_and_a_tap_removes_it(size, lang):
    """A tap: ">" on the code turns to the list; each phone's button says its name and
    removes that phone (UnpairPhone with its id), whichever has the focus."""
    controller = STATES["phones_page_paired"](lang)
    renderer, _ = drawn(controller, size)
    next_page = tapped(renderer.targets, Press(Key.NEXT))
    assert next_page == Press(Key.NEXT)
    controller.handle(next_page)
    renderer, _ = drawn(controller, size)
    for phone in PAIRED:
        renderer, _ = drawn(controller, size)
        remove = Select(f"{REMOVE_PHONE}{phone.id}")
        rect = next(rect for rect, event in renderer.targets if event == remove)
        label = i18n.tr(lang, "phones_remove", name=phone.name)
        inside = [text.text for text in renderer.texts if rect.contains(text.rect)]
        assert " ".join(inside) == label
        event = tapped(renderer.targets, remove)
        assert event is not None and controller.handle(event) == []  # asked first
        renderer, _ = drawn(controller, size)
        question = i18n.tr(lang, "phone_remove_confirm", name=phone.name)
        assert question in " ".join(text.text for text in renderer.texts)
        yes = tapped(renderer.targets, REMOVE_YES)
        assert yes is not None and controller.handle(yes) == [UnpairPhone(phone.id)]


def test_a_tap_on_a_phone_no_longer_paired_removes_nothing():
    """A stale target (the phone was removed meanwhile) changes nothing."""
    controller = STATES["phones_page_list"]("en")
    assert controller.handle(Select(f"{REMOVE_PHONE}99")) == []
    assert controller.handle(Select(f"{REMOVE_PHONE}x")) == []


# -- a real app: pairing, then removing, on the SQLite file -------------------------


@pytest.fixture
def app(make_app):
    return make_app((320, 240))


def open_phones_page(app: App) -> str:
    """A game started, then the menu's Phones row: the code the page shows."""
    app.controller.phones_url = URL  # as when the page for phones is served
    for event in (Press(Key.OK), Press(Key.MENU), Select("phones")):
        app.dispatch(event)
        app.step()
    code = app.controller.pairing_code
    assert app.controller.screen is Screen.PHONES and code is not None and len(code) == 6
    said = [text.text for text in app.renderer.texts]
    assert spaced_code(code) in said
    return code


def pair(app: App, code: str | None, name: str, *, confirm: bool = True) -> Answer:
    """A phone types ``code`` (None: the one the page shows now); the panel asks "Pair
    NAME's phone? OK" and the test answers it (OK, or ``confirm=False``: Cancel)."""
    answers: list[Answer] = []
    code = code if code is not None else app.controller.pairing_code
    assert code is not None
    request = PhonePair(code, name, hash_token(f"token of {name}"), answers.append)
    app.dispatch(request)
    app.step()
    if not answers:  # the right code: the panel asks, and the phone waits
        assert f"Pair {name}'s phone? OK" in said(app)
        app.dispatch(PAIR_YES if confirm else PAIR_NO)
        app.step()
    assert len(answers) == 1
    return answers[0]


def said(app: App) -> str:
    return " ".join(text.text for text in app.renderer.texts)


def test_a_phone_paired_then_removed_by_keys_is_stored_and_said(app):
    """The real app: the code the page shows pairs Ann's phone (stored, listed, said on
    the page); NEXT then OK removes it: the database forgets it and the page says so."""
    code = open_phones_page(app)
    answer = pair(app, code, "Ann")
    assert answer.ok and answer.name == "Ann"
    assert [phone.name for phone in app.storage.paired_phones().values()] == ["Ann"]
    assert "Ann's phone can enter actions" in said(app)
    app.dispatch(Press(Key.NEXT))
    app.step()
    assert "Remove Ann" in said(app)
    app.dispatch(Press(Key.OK))
    app.step()
    assert "Remove Ann's phone? OK" in said(app) and len(app.storage.paired_phones()) == 1
    app.dispatch(Press(Key.OK))
    app.step()
    assert app.storage.paired_phones() == {} and app.controller.paired == {}
    assert app.controller.message == Info("phone_removed", (("name", "Ann"),))
    new = app.controller.pairing_code or ""  # a phone paired: a new code
    assert new != code and "Ann's phone was removed" in said(app) and spaced_code(new) in said(app)


def test_a_phone_removed_by_a_tap_is_forgotten_the_other_kept(app):
    """Two phones paired; a tap on "Remove Bo" removes Bo's only, in the database too."""
    code = open_phones_page(app)
    assert pair(app, code, "Ann").ok and pair(app, None, "Bo").ok
    app.dispatch(Press(Key.NEXT))
    app.step()
    bo = next(phone for phone in app.controller.paired.values() if phone.name == "Bo")
    rect = next(r for r, e in app.targets if e == Select(f"{REMOVE_PHONE}{bo.id}"))
    app.dispatch(Tap(*rect.center))
    app.step()
    assert len(app.storage.paired_phones()) == 2  # asked first: "Remove Bo's phone? OK"
    rect = next(r for r, e in app.targets if e == REMOVE_YES)
    app.dispatch(Tap(*rect.center))
    app.step()
    assert [phone.name for phone in app.storage.paired_phones().values()] == ["Ann"]
    assert "Bo's phone was removed" in said(app)
    assert "Remove Ann" in said(app)  # the focus moved to the phone left


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_long_list_keeps_the_phone_at_the_focus_on_the_page(size):
    """More phones than the page holds: whichever has the focus is drawn, highlighted
    by its button, and the list starts at the first phone while it fits."""
    controller = STATES["phones_page"]("en")
    for number in range(1, 13):
        phone = PairedPhone(number, f"Phone {number}")
        controller.paired[bytes([number]) * 32] = phone
    for focus in range(12):
        controller.handle(Press(Key.NEXT))
        renderer, _ = drawn(controller, size)
        removes = [event for _, event in renderer.targets if isinstance(event, Select)]
        assert Select(f"{REMOVE_PHONE}{focus + 1}") in removes
        if focus < len(removes):
            assert removes[0] == Select(f"{REMOVE_PHONE}1")


def test_a_phone_with_the_right_code_waits_for_the_panels_ok(app):
    """Issue 37: the code alone pairs nothing: the panel asks "Pair Di's phone? OK";
    Cancel says no (nothing stored, the code kept), OK pairs and shows a new code."""
    code = open_phones_page(app)
    declined = pair(app, code, "Di", confirm=False)
    assert not declined.ok and declined.status == 403
    assert app.storage.paired_phones() == {} and app.controller.pairing_code == code
    answer = pair(app, code, "Di")
    assert answer.ok and answer.name == "Di"
    assert app.controller.pairing_code not in (None, code)  # one pairing per code
    assert spaced_code(app.controller.pairing_code or "") in said(app)


@pytest.mark.parametrize("size", SIZES)
def test_the_pairing_question_fits_every_panel(size):
    """The question and its two buttons are drawn whole at every panel size."""
    controller = Controller(SetupDraft(players=3))
    controller.phones_url = URL
    controller.pairing_code = "123456"
    controller.screen = Screen.PHONES
    controller.pending_pair = PhonePair("123456", "n" * 12, b"t")
    renderer, _ = drawn(controller, size)  # strict: nothing cut, nothing overlapping
    texts = [text.text for text in renderer.texts]
    assert f"Pair {'n' * 12}'s phone? OK" in " ".join(texts)  # wrapped on a small panel
    assert "Cancel" in texts and spaced_code("123456") in texts
