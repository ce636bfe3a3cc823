"""A paired phone chooses the next game's variant while the panel shows the set-up
(issue 35, decision 0124): the set-up takes it and the panel says which phone chose
what; anywhere else, from an unpaired phone or with a name the table does not have, one
sentence and nothing changes. Start stays the panel's."""

from __future__ import annotations

from companion.core import i18n
from companion.core.controller import Controller, Info, Screen, SetupDraft, message_words
from companion.core.effects import PhoneOutcome, PhoneReply
from companion.core.results import PhonesLoaded
from companion.vocabulary.phone import PairedPhone, PhoneSetup
from hardware.events import Key, Press, Select, TypeText

TOKEN = b"di-token-hash"
MUDDY = "Muddy Rainbow (6 Suits)"


def at_setup() -> Controller:
    controller = Controller(SetupDraft(players=3))
    controller.handle(PhonesLoaded({TOKEN: PairedPhone(7, "Di")}))
    assert controller.screen is Screen.SETUP
    return controller


def reply(controller: Controller, variant: object, token: bytes = TOKEN) -> PhoneReply:
    (answer,) = controller.handle(PhoneSetup(variant, token))  # type: ignore[arg-type]
    assert isinstance(answer, PhoneReply)
    return answer


def test_a_paired_phone_chooses_the_variant_at_the_set_up() -> None:
    controller = at_setup()
    answer = reply(controller, MUDDY)
    assert answer.outcome is PhoneOutcome.RECORDED and answer.phone_id == 7
    assert controller.draft.options.variant == MUDDY
    words = message_words("en", controller.message, ())
    assert words == f"Variant for the next game: {MUDDY} (from Di's phone)"
    assert message_words("en", answer.message, ()) == words  # the phone is told the same
    controller.handle(Press(Key.OK))  # Start: the panel's
    assert controller.game is not None
    assert controller.game.setup.options.variant == MUDDY


def test_no_variant_is_a_choice_too() -> None:
    controller = at_setup()
    reply(controller, MUDDY)
    answer = reply(controller, None)
    assert answer.outcome is PhoneOutcome.RECORDED
    assert controller.draft.options.variant is None
    assert "No variant" in message_words("en", answer.message, ())


def test_the_panels_open_search_closes_on_a_phones_choice() -> None:
    controller = at_setup()
    controller.handle(Select("variant"))
    controller.handle(TypeText("pink"))
    assert controller.variant_search == "pink"
    reply(controller, MUDDY)
    assert controller.variant_search is None
    assert controller.draft.options.variant == MUDDY


def test_refused_in_one_sentence_and_nothing_changes() -> None:
    controller = at_setup()
    reply(controller, MUDDY)
    unknown = reply(controller, "Muddy Rainbow (7 Suits)")
    assert unknown.outcome is PhoneOutcome.REFUSED
    assert message_words("en", unknown.message, ()) == (
        "No variant a printed deck can carry has that name."
    )
    stranger = reply(controller, "Pink (6 Suits)", token=b"someone else")
    assert stranger.outcome is PhoneOutcome.NOT_PAIRED
    assert controller.draft.options.variant == MUDDY
    controller.handle(Press(Key.OK))  # Start: the game screen
    assert controller.screen is Screen.GAME
    closed = reply(controller, "Pink (6 Suits)")
    assert closed.outcome is PhoneOutcome.SETUP_CLOSED
    assert closed.message == Info("phone_setup_closed")
    assert controller.draft.options.variant == MUDDY


def test_every_language_says_it() -> None:
    for lang in i18n.LANGUAGES:
        for key in ("phone_setup_closed", "phone_variant_unknown", "web_setup_title"):
            assert i18n.tr(lang, key) != key
        chosen = i18n.tr(lang, "phone_variant_chosen", variant=MUDDY, phone="Di")
        assert MUDDY in chosen and "Di" in chosen
