"""Every string in English and French (docs/rules.md section 5: ratings; 7: refusals).

The French and English tables must hold the same keys with the same
placeholders; the rating sentences are the rule books' words exactly; every
refusal the engine can raise has a French sentence with nothing left unfilled.
"""

from __future__ import annotations

import random
import re
import string
from pathlib import Path

import pytest

from companion import i18n
from companion.i18n import (
    COLOR_NAMES,
    LANGUAGES,
    RATINGS,
    REFUSALS_FR,
    TEXTS,
    card_name,
    color_name,
    describe_event,
    end_reason_text,
    rating_sentence,
    rating_title,
    refusal_text,
    tr,
)
from engine import (
    Discard,
    EndReason,
    EventKind,
    Game,
    GameSetup,
    Hint,
    Multicolor,
    Play,
    Rating,
)
from engine.cards import Card, Color
from engine.errors import IllegalAction
from engine.options import GameOptions
from engine.table import SimulatedTable

R, Y, G, B, W, M = Color
RULES = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
NAMES = ("Ann", "Bo", "Cy")


def C(code: str) -> Card:
    return Card.from_code(code)


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


LEFTOVER = re.compile(r"[{}]")


# -- the two tables -------------------------------------------------------------


def test_both_languages_have_the_same_keys():
    assert tuple(TEXTS) == LANGUAGES == ("en", "fr")
    assert set(TEXTS["en"]) - set(TEXTS["fr"]) == set()
    assert set(TEXTS["fr"]) - set(TEXTS["en"]) == set()


@pytest.mark.parametrize("key", sorted(TEXTS["en"]))
def test_each_text_has_the_same_placeholders_and_formats_in_both_languages(key):
    english, french = TEXTS["en"][key], TEXTS["fr"][key]
    assert placeholders(english) == placeholders(french)
    params = {name: "7" for name in placeholders(english)}
    for lang in LANGUAGES:
        text = tr(lang, key, **params)
        assert text.strip() and not LEFTOVER.search(text), (lang, key, text)


def test_an_unknown_language_falls_back_to_english():
    assert tr("de", "hint_tokens") == "Hints"
    assert color_name("de", R) == "red"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_colour_has_a_name(lang):
    assert set(COLOR_NAMES[lang]) == set(Color)
    assert len(set(COLOR_NAMES[lang].values())) == len(Color)


def test_card_names_read_naturally():
    assert card_name("en", C("R3")) == "red 3"
    assert card_name("fr", C("W4")) == "4 blanc"
    assert card_name("fr", C("M1")) == "1 multicolore"


# -- section 5: the rating scale, word for word ---------------------------------

#: docs/rules.md section 5, one row per band from the lowest, (English, French).
SECTION_5 = {
    Rating.HORRIBLE: ("Horrible, booed by the crowd", "Horrible, huées de la foule"),
    Rating.MEDIOCRE: (
        "Mediocre, just a spattering of applause",
        "Médiocre, à peine quelques applaudissements",
    ),
    Rating.HONOURABLE: (
        "Honourable, but will not be remembered for very long",
        "Honorable, mais ne restera pas dans les mémoires",
    ),
    Rating.EXCELLENT: ("Excellent, crowd pleasing", "Excellente, ravit la foule"),
    Rating.AMAZING: (
        "Amazing, will be remembered for a very long time!",
        "Extraordinaire, restera gravée dans les mémoires !",
    ),
    Rating.LEGENDARY: (
        "Legendary, everyone left speechless, stars in their eyes",
        "Légendaire, petits et grands sans voix, des étoiles dans les yeux",
    ),
    Rating.DIVINE: (
        "Divine, the display outshines the stars",
        "Divine, laisse en émoi le ciel lui-même",
    ),
}


def test_5_the_table_above_is_rules_md_section_5():
    text = RULES.read_text(encoding="utf-8")
    section = text.split("## 5.")[1].split("\n## ")[0]
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in section.splitlines()
        if line.startswith("|")
    ][2:]  # the header and its rule
    assert [(english, french) for _, english, french in rows] == list(SECTION_5.values())


@pytest.mark.parametrize("rating", list(Rating), ids=lambda r: r.value)
def test_5_every_rating_has_the_rule_books_sentence_in_both_languages(rating):
    english, french = SECTION_5[rating]
    assert rating_sentence("en", rating) == english
    assert rating_sentence("fr", rating) == french


@pytest.mark.parametrize("rating", list(Rating), ids=lambda r: r.value)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_5_every_rating_has_a_title_that_opens_its_sentence(rating, lang):
    title = rating_title(lang, rating)
    assert title and rating_sentence(lang, rating).startswith(title + ",")
    assert set(RATINGS[lang]) == set(Rating)


@pytest.mark.parametrize("reason", list(EndReason), ids=lambda r: r.value)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_4_every_end_reason_has_a_sentence(reason, lang):
    text = end_reason_text(lang, reason, name="Bo")
    assert text and not LEFTOVER.search(text)
    assert text != end_reason_text("fr" if lang == "en" else "en", reason, name="Bo")


# -- section 7: every refusal in French -------------------------------------------


def refusal_codes() -> set[str]:
    return {cls.code for cls in IllegalAction.__subclasses__()}


def test_7_every_refusal_code_of_the_engine_has_a_french_sentence():
    codes = refusal_codes()
    assert len(codes) >= 15
    assert codes - set(REFUSALS_FR) == set()
    assert set(REFUSALS_FR) - codes == {IllegalAction.code}  # no stale sentence


def refused(game: Game, action) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    return info.value


def empty_hand_refusals() -> list[IllegalAction]:
    """The crowning piece plays on with shrinking hands. Those positions are rare in a
    simulated game, so the hands are set by hand (as tests/test_game.py does)."""
    errors = []
    for hands, action in (
        ([0, 2, 2], Discard(C("R1"))),  # empty_hand
        ([2, 0, 2], Hint(to=1, rank=1)),  # hint_to_empty_hand
        ([2, 0, 0], Hint()),  # no_one_to_hint
    ):
        game = Game(GameSetup(players=3, names=NAMES, options=GameOptions(crowning_piece=True)))
        game.position.hands = hands
        game.position.deck = 0
        errors.append(refused(game, action))
    return errors


def realistic_refusals() -> list[IllegalAction]:
    """One refusal of each kind, raised by the engine at a 3-player table."""
    setup = GameSetup(players=3, names=NAMES)
    game = Game(setup)
    errors = [
        refused(game, Discard(C("R1"))),  # hint_tokens_full
        refused(game, Hint(player=2)),  # not_your_turn
        refused(game, Hint(to=7)),  # no_such_seat
        refused(game, Play(C("R1"), player=5)),  # no_such_seat
        refused(game, Hint(to=0)),  # hint_to_self
        refused(game, Hint(to=1, color=R, rank=1)),  # hint_names_both
        refused(game, Play(C("M3"))),  # suit_not_in_game (a card)
        refused(game, Hint(to=1, color=M)),  # suit_not_in_game (a colour)
        refused(game, Hint(to=1, rank=7)),  # no_such_rank
        refused(game, Play(C("R1"), R)),  # announce_not_allowed
    ]
    with pytest.raises(IllegalAction) as info:
        game.undo()
    errors.append(info.value)  # nothing_to_undo
    for _ in range(8):
        game.apply(Hint())
    errors.append(refused(game, Hint()))  # no_hint_tokens
    game = Game.replay(setup, [Play(C("R5")), Play(C("R1")), Play(C("R1"))])
    errors.append(refused(game, Play(C("R5"))))  # card_exhausted, the only copy
    game.apply(Play(C("R1")))  # third fuse: over
    errors.append(refused(game, Play(C("Y1"))))  # card_exhausted, all 3
    errors.append(refused(game, Hint()))  # game_over
    wild = Game(
        GameSetup(
            players=3,
            names=NAMES,
            options=GameOptions(multicolor=Multicolor.SHORT, wild_multicolor=True),
        )
    )
    errors.append(refused(wild, Hint(to=1, color=M)))  # hint_color_not_allowed
    timed = Game(GameSetup(players=3, names=NAMES, options=GameOptions(timed_display=True)))
    errors.append(refused(timed, Play(C("R1"), M)))  # suit_not_in_game (an announce)
    return errors + empty_hand_refusals()


REFUSALS = realistic_refusals()


def test_7_the_realistic_refusals_cover_every_code():
    assert {error.code for error in REFUSALS} == refusal_codes()


@pytest.mark.parametrize("error", REFUSALS, ids=lambda e: f"{e.code}-{sorted(e.params)}")
def test_7_every_refusal_reads_in_french_with_nothing_left_unfilled(error):
    text = refusal_text("fr", error, NAMES)
    assert text and not LEFTOVER.search(text), text
    assert text != str(error)  # French, not the engine's English
    assert refusal_text("en", error, NAMES) == str(error)


def test_7_french_refusals_name_the_players_and_the_card():
    game = Game(GameSetup(players=3, names=NAMES))
    text = refusal_text("fr", refused(game, Hint(player=2)), NAMES)
    assert text == "Ce n'est pas au tour de Cy, mais de Ann"
    game = Game.replay(game.setup, [Play(C("B1"))] * 3)
    text = refusal_text("fr", refused(game, Play(C("B1"))), NAMES)
    assert text.startswith("Tous les 1 bleu ont déjà été révélés")


def test_7_the_rules_example_in_french():
    game = Game(GameSetup(players=2))
    text = refusal_text("fr", refused(game, Discard(C("R1"))))
    assert text == "Les 8 jetons indice sont disponibles : impossible de défausser"


@pytest.mark.parametrize("code", ["not_your_turn", "hint_to_empty_hand"])
def test_7_french_refusals_without_names_leave_nothing_unfilled(code):
    error = next(error for error in REFUSALS if error.code == code)
    text = refusal_text("fr", error)
    assert not LEFTOVER.search(text), text


# -- what each action did, in both languages -------------------------------------


def events_of(setup: GameSetup, actions: list) -> list:
    return Game.replay(setup, actions).events


TWO = GameSetup(players=2, names=("Ann", "Bo"))


def test_event_hint():
    event = events_of(TWO, [Hint(to=1, rank=1)])[-1]
    assert event.kind is EventKind.HINT
    assert describe_event("en", event, TWO.names) == "Ann gave a hint"
    assert describe_event("fr", event, TWO.names) == "Ann a donné un indice"


def test_event_play():
    event = events_of(TWO, [Hint(), Play(C("R1"))])[-1]
    assert event.kind is EventKind.PLAY
    assert describe_event("en", event, TWO.names) == "Bo played red 1"
    assert describe_event("fr", event, TWO.names) == "Bo a posé 1 rouge"


def test_event_play_completing_a_firework():
    actions = [Hint()] + [Play(Card(R, rank)) for rank in range(1, 6)]
    event = events_of(TWO, actions)[-1]
    assert event.firework_completed and event.hints_change == 1
    assert describe_event("en", event, TWO.names) == (
        "Bo played red 5: firework complete! (+1 hint)"
    )
    assert describe_event("fr", event, TWO.names) == (
        "Bo a posé 5 rouge : feu d'artifice complet ! (+1 indice)"
    )


def test_event_completion_bonus_lost_with_8_tokens():
    event = events_of(TWO, [Play(Card(R, rank)) for rank in range(1, 6)])[-1]
    assert event.bonus_lost
    assert describe_event("en", event, TWO.names) == (
        "Ann played red 5: firework complete! (bonus lost: all 8 hint tokens were there)"
    )
    assert describe_event("fr", event, TWO.names) == (
        "Ann a posé 5 rouge : feu d'artifice complet ! (bonus perdu : les 8 jetons étaient là)"
    )


def test_event_misplay():
    event = events_of(TWO, [Play(C("R3")), Play(C("R4"))])[-1]
    assert event.kind is EventKind.MISPLAY
    assert describe_event("en", event, TWO.names) == "Misplay: red 4 is discarded, fuse 2 of 3"
    assert describe_event("fr", event, TWO.names) == (
        "Erreur : 4 rouge va à la défausse, mèche 2 sur 3"
    )


def test_event_misplay_after_a_wrong_announce():
    timed = GameSetup(players=2, names=("Ann", "Bo"), options=GameOptions(timed_display=True))
    event = events_of(timed, [Play(C("R1"), Y)])[-1]
    assert event.kind is EventKind.MISPLAY and event.announce_right is False
    assert describe_event("en", event, timed.names) == (
        "Wrong colour announced: red 1 is discarded, fuse 1 of 3"
    )
    assert describe_event("fr", event, timed.names) == (
        "Mauvaise couleur annoncée : 1 rouge va à la défausse, mèche 1 sur 3"
    )


def test_event_discard():
    event = events_of(TWO, [Hint(), Discard(C("B3"))])[-1]
    assert event.kind is EventKind.DISCARD
    assert describe_event("en", event, TWO.names) == "Bo discarded blue 3 (+1 hint)"
    assert describe_event("fr", event, TWO.names) == "Bo a défaussé 3 bleu (+1 indice)"


def test_event_last_card_drawn_starts_the_final_round():
    for seed in range(50):
        table = SimulatedTable(TWO, random.Random(seed), skill=1.0)
        table.play_out()
        starts = [event for event in table.game.events if event.final_round_started]
        if starts:
            break
    event = starts[0]
    assert describe_event("en", event, TWO.names).endswith(". Last card drawn: final round!")
    assert describe_event("fr", event, TWO.names).endswith(
        ". Dernière carte piochée : dernier tour !"
    )


@pytest.mark.parametrize("kind", list(EventKind), ids=lambda k: k.value)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_kind_is_described_in_every_language(kind, lang):
    game = Game.replay(TWO, [Hint(), Play(C("R1")), Play(C("R3")), Discard(C("B2"))])
    (event,) = [event for event in game.events if event.kind is kind]
    text = describe_event(lang, event, TWO.names)
    assert text and not LEFTOVER.search(text)


def test_event_two_tokens_back_reads_in_the_plural():
    timed = GameSetup(players=2, names=("Ann", "Bo"), options=GameOptions(timed_display=True))
    actions = [Hint(), Hint()] + [Play(Card(R, rank)) for rank in range(1, 5)] + [Play(C("R5"), R)]
    event = events_of(timed, actions)[-1]
    assert event.hints_change == 2
    assert describe_event("en", event, timed.names).endswith("(+2 hints)")
    assert describe_event("fr", event, timed.names).endswith("(+2 indices)")


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_language_counts_every_word_in_its_own_plural_forms(lang):
    """gettext's convention: each language its plural rule, each counted word its forms."""
    assert lang in i18n.PLURAL_FORM
    assert i18n.COUNTED[lang].keys() == i18n.COUNTED["en"].keys()
    forms = max(i18n.PLURAL_FORM[lang](n) for n in range(200)) + 1
    for key, texts in i18n.COUNTED[lang].items():
        assert len(texts) == forms, key
        assert all("{n}" in text for text in texts), key


def test_plurals_follow_each_languages_rule():
    """English: 1 is singular, 0 plural; French: 0 and 1 singular."""
    assert [i18n.counted("en", "misplays", n) for n in (0, 1, 2)] == [
        "0 misplays",
        "1 misplay",
        "2 misplays",
    ]
    assert [i18n.counted("fr", "misplays", n) for n in (0, 1, 2)] == [
        "0 erreur",
        "1 erreur",
        "2 erreurs",
    ]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_help_explains_every_mark_the_game_screen_shows(lang):
    """Max, Pace, "!", "×" and "dead" appear on the game screen: Help says what they mean,
    and that the fireworks can be tapped; every language has the same rows."""
    rows = i18n.HELP_ROWS[lang]
    assert len(rows) == len(i18n.HELP_ROWS["en"])
    keys = [keys for keys, _buttons, _meaning in rows]
    pace_word = i18n.tr(lang, "pace", pace=0).split()[0]
    for mark in ("Max", pace_word, "!", "×", i18n.tr(lang, "dead")):
        assert mark in keys, mark
    assert any("fireworks" in buttons or "feux" in buttons for _k, buttons, _m in rows)
