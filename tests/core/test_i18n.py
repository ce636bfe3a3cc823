"""Every string in every language (docs/rules.md section 5: ratings; 7: refusals).

A language is one module of ``companion/core/languages``, found by discovery. Every
language holds the same keys with the same placeholders; the English and French
rating sentences are the rule books' words exactly; every refusal the engine can
raise has a sentence in every language with nothing left unfilled; French sets
a no-break space before ``: ? ! ;`` and says one word per thing.
"""

from __future__ import annotations

import gettext
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest

from companion.core import i18n, languages
from companion.core.i18n import (
    COLOR_NAMES,
    LANGUAGES,
    RATINGS,
    REFUSALS,
    TEXTS,
    card_name,
    color_name,
    end_reason_text,
    rating_sentence,
    rating_title,
    refusal_text,
    tr,
)
from companion.core.languages import Language
from companion.shell.cli import build_parser
from companion.shell.config import DEFAULT_CONFIG_TOML, parse_config
from engine import (
    Discard,
    EndReason,
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

R, Y, G, B, W, M = Color
RULES = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
NAMES = ("Ann", "Bo", "Cy")
#: The no-break space French sets before ``: ? ! ;``
#: (docs/decisions/0017-french-typography-and-terms.md).
NB = "\u00a0"
OTHERS = [lang for lang in LANGUAGES if lang != "en"]


def C(code: str) -> Card:
    return Card.from_code(code)


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


LEFTOVER = re.compile(r"[{}]")


# -- one file per language ---------------------------------------------------------


def test_every_language_is_one_module_of_the_languages_package():
    """Discovery: the modules of companion/core/languages are the languages, English first."""
    assert LANGUAGES[0] == "en"
    assert {"en", "fr", "de"} <= set(LANGUAGES)
    for table in (TEXTS, COLOR_NAMES, RATINGS, REFUSALS, i18n.HELP_ROWS, i18n.COUNTED):
        assert tuple(table) == LANGUAGES
    assert tuple(i18n.LANGUAGE_NAMES) == tuple(i18n.PLURAL_FORM) == LANGUAGES
    assert i18n.LANGUAGE_NAMES["de"] == "Deutsch"


def test_a_new_language_is_one_new_file(tmp_path, monkeypatch):
    """One module defining LANGUAGE, dropped into the package, is a language."""
    (tmp_path / "xx.py").write_text(
        "import msgspec\n"
        "from companion.core.languages.en import LANGUAGE as EN\n"
        "LANGUAGE = msgspec.structs.replace(EN, code='xx', name='Xx')\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(languages, "__path__", [*languages.__path__, str(tmp_path)])
    monkeypatch.delitem(sys.modules, "companion.core.languages.xx", raising=False)
    try:
        found = [language.code for language in languages.discover()]
    finally:
        sys.modules.pop("companion.core.languages.xx", None)
    assert found[0] == "en" and "xx" in found and set(LANGUAGES) <= set(found)


def test_a_module_without_its_language_is_refused(tmp_path, monkeypatch):
    (tmp_path / "yy.py").write_text("LANGUAGE = None\n", encoding="utf-8")
    monkeypatch.setattr(languages, "__path__", [*languages.__path__, str(tmp_path)])
    try:
        with pytest.raises(TypeError, match="yy"):
            languages.discover()
    finally:
        sys.modules.pop("companion.core.languages.yy", None)


LOADED_LANGUAGES = """
import sys
{steps}
print(" ".join(sorted(name.rsplit(".", 1)[1] for name in sys.modules
                      if name.startswith("companion.core.languages."))))
"""


@pytest.mark.parametrize(
    ("steps", "loaded"),
    [
        ("import companion.shell.app, companion.shell.cli, companion.shell.config", ""),
        ("from companion.core import i18n; i18n.tr('fr', 'title')", "fr"),
        ("from companion.core import i18n; i18n.tr('xx', 'title')", "en"),
        ("from companion.shell.config import DEFAULT_CONFIG_TOML", " ".join(sorted(LANGUAGES))),
    ],
)
def test_a_language_is_loaded_when_its_words_are_first_needed(steps, loaded):
    """A start imports no language's module until a screen asks for its words, then
    only that one (English for a code it does not know); the default configuration,
    which names every language by its own name, loads them all."""
    code = LOADED_LANGUAGES.format(steps=steps)
    said = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert said.strip() == loaded


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_is_offered_by_the_config_and_the_command_line(lang):
    """Nothing but the language's file names it: the config's choices (and the comment
    of the config written at install), ``run --lang`` and ``render --lang`` follow."""
    assert parse_config(f'[screen]\nlanguage = "{lang}"\n').screen.language == lang
    assert f'"{lang}" ({i18n.LANGUAGE_NAMES[lang]})' in DEFAULT_CONFIG_TOML
    parser = build_parser(hardware=False)
    assert parser.parse_args(["run", "--lang", lang]).lang == lang
    render = ["render", "game.log", "--size", "480x320", "--out", "o.png", "--lang", lang]
    assert parser.parse_args(render).lang == lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_the_same_keys(lang):
    assert set(TEXTS["en"]) - set(TEXTS[lang]) == set()
    assert set(TEXTS[lang]) - set(TEXTS["en"]) == set()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("key", sorted(TEXTS["en"]))
def test_each_text_has_the_same_placeholders_and_formats_in_every_language(key, lang):
    english, text = TEXTS["en"][key], TEXTS[lang][key]
    assert placeholders(english) == placeholders(text)
    params = {name: "7" for name in placeholders(english)}
    said = tr(lang, key, **params)
    assert said.strip() and not LEFTOVER.search(said), (lang, key, said)


def test_an_unknown_language_falls_back_to_english():
    assert "xx" not in LANGUAGES
    assert tr("xx", "hint_tokens") == "Hints"
    assert color_name("xx", R) == "red"
    assert card_name("xx", C("R3")) == "red 3"
    assert i18n.counted("xx", "turns", 2) == "2 turns"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_colour_has_a_name(lang):
    assert set(COLOR_NAMES[lang]) == set(Color)
    assert len(set(COLOR_NAMES[lang].values())) == len(Color)


def test_card_names_read_naturally():
    assert card_name("en", C("R3")) == "red 3"
    assert card_name("fr", C("W4")) == "4 blanc"
    assert card_name("fr", C("M1")) == "1 multicolore"
    assert card_name("de", C("W4")) == "Weiß 4"
    assert card_name("de", C("M1")) == "Bunt 1"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_names_a_card_with_its_colour_and_rank_once(lang):
    """The card template holds the word order, and nothing else to fill."""
    template = i18n.language(lang).card
    assert placeholders(template) == {"color", "rank"}
    name = card_name(lang, C("G2"))
    assert color_name(lang, G) in name and "2" in name


@pytest.mark.parametrize("lang", LANGUAGES)
def test_soft_key_labels_fit_the_small_buttons(lang):
    """German words are long: a soft key's label is at most 8 characters, a button's 9."""
    for key, text in TEXTS[lang].items():
        if key.startswith("softkey_"):
            assert len(text) <= 8, (key, text)
        if key.startswith("button_") or key in ("cancel", "confirm"):
            assert len(text) <= 9, (key, text)


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
        f"Extraordinaire, restera gravée dans les mémoires{NB}!",
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


def rules_section(number: int) -> str:
    text = RULES.read_text(encoding="utf-8")
    return text.split(f"## {number}.")[1].split("\n## ")[0]


def test_5_the_table_above_is_rules_md_section_5():
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in rules_section(5).splitlines()
        if line.startswith("|")
    ][2:]  # the header and its rule
    assert [(english, french) for _, english, french in rows] == list(SECTION_5.values())


@pytest.mark.parametrize("rating", list(Rating), ids=lambda r: r.value)
def test_5_every_rating_has_the_rule_books_sentence_in_english_and_french(rating):
    english, french = SECTION_5[rating]
    assert rating_sentence("en", rating) == english
    assert rating_sentence("fr", rating) == french


@pytest.mark.parametrize("rating", list(Rating), ids=lambda r: r.value)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_5_every_rating_has_a_title_that_opens_its_sentence(rating, lang):
    title = rating_title(lang, rating)
    assert title and rating_sentence(lang, rating).startswith(title + ",")
    assert set(RATINGS[lang]) == set(Rating)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_5_every_band_has_its_own_title_and_sentence_in_every_language(lang):
    titles = [rating_title(lang, rating) for rating in Rating]
    sentences = [rating_sentence(lang, rating) for rating in Rating]
    assert len(set(titles)) == len(set(sentences)) == len(Rating)
    if lang != "en":
        assert sentences != [rating_sentence("en", rating) for rating in Rating]


def test_5_the_german_bands_go_from_boos_to_the_stars():
    """The German edition's tone: boos at the bottom, the stars at the top."""
    assert "Buh" in rating_sentence("de", Rating.HORRIBLE)
    assert rating_title("de", Rating.LEGENDARY) == "Legendär"
    assert "Sterne" in rating_sentence("de", Rating.DIVINE)


def test_6_the_crowning_piece_rates_a_perfect_display_as_rules_md_says():
    """Section 6: the crowning piece shows the band of a perfect display (the engine's
    rating, whatever the scale says of the score); docs/rules.md says the same."""
    for multicolor, band in (
        (Multicolor.NONE, Rating.LEGENDARY),
        (Multicolor.SHORT, Rating.DIVINE),
    ):
        options = GameOptions(crowning_piece=True, multicolor=multicolor)
        setup = GameSetup(players=2, names=("Ann", "Bo"), options=options)
        colors = [suit.color for suit in setup.suits]
        actions = [Play(Card(color, rank)) for color in colors for rank in range(1, 6)]
        game = Game.replay(setup, actions)
        assert game.is_over and game.rating is band
        assert rating_title("en", band) in rules_section(6).split("**Crowning piece")[1]


@pytest.mark.parametrize("reason", list(EndReason), ids=lambda r: r.value)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_4_every_end_reason_has_a_sentence(reason, lang):
    text = end_reason_text(lang, reason, name="Bo")
    assert text and not LEFTOVER.search(text)
    other = "fr" if lang == "en" else "en"
    assert text != end_reason_text(other, reason, name="Bo")


# -- section 7: every refusal in every language -----------------------------------


def refusal_codes() -> set[str]:
    return {cls.code for cls in IllegalAction.__subclasses__()}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_7_every_refusal_code_of_the_engine_has_a_sentence_in_every_language(lang):
    codes = refusal_codes()
    assert len(codes) >= 15
    assert codes - set(REFUSALS[lang]) == set()
    assert set(REFUSALS[lang]) - codes == {IllegalAction.code}  # no stale sentence


@pytest.mark.parametrize("lang", LANGUAGES)
def test_7_every_refusal_has_the_same_placeholders_in_every_language(lang):
    for code, english in REFUSALS["en"].items():
        assert placeholders(REFUSALS[lang][code]) == placeholders(english), code


def test_7_english_refusals_are_the_engines_own_sentences():
    """English goes through the same table as every language, written from the engine."""
    for cls in IllegalAction.__subclasses__():
        if "default_message" in vars(cls):
            assert REFUSALS["en"][cls.code] == cls.default_message, cls.code
    assert REFUSALS["en"][IllegalAction.code] == IllegalAction.default_message


def refused(game: Game, action) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    return info.value


def empty_hand_refusals() -> list[IllegalAction]:
    """The crowning piece plays on with shrinking hands. Those positions are rare in a
    simulated game, so the hands are set by hand (as tests/engine/test_game.py does)."""
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
    return errors + empty_hand_refusals() + hand_memory_refusals() + variant_refusals()


def variant_refusals() -> list[IllegalAction]:
    """The refusals of Hanab Live's variants by name (issue 35): a clue the variant
    forbids, and a card the special rules rule out of its slot."""

    def game(variant: str, hand_memory: bool = False) -> Game:
        options = GameOptions(variant=variant, hand_memory=hand_memory)
        return Game(GameSetup(players=3, names=NAMES, options=options))

    alternating = game("Alternating Clues (5 Suits)")
    errors = [
        refused(game("White (5 Suits)"), Hint(to=1, color=M)),  # hint_color_not_named
        refused(game("Color Mute (5 Suits)"), Hint(to=1, color=R)),  # no_color_hints
        refused(game("Number Mute (5 Suits)"), Hint(to=1, rank=1)),  # no_rank_hints
        refused(game("Pink-Ones (5 Suits)"), Hint(to=1, rank=1)),  # rank_hint_not_allowed
        refused(game("Rainbow (6 Suits)"), Hint(to=1, color=M)),  # hint_color_touches_all
    ]
    alternating.apply(Hint(to=1, color=R))
    errors.append(refused(alternating, Hint(to=2, color=B)))  # hint_must_name_rank
    alternating.apply(Hint(to=2, rank=3))
    errors.append(refused(alternating, Hint(to=0, rank=4)))  # hint_must_name_color
    # White-Ones: no colour clue touches a 1, so a red hint that missed a slot leaves its
    # red 1 possible and rules out red 2 to 5 (colours and ranks all still possible)
    white_ones = game("White-Ones (5 Suits)", hand_memory=True)
    white_ones.apply(Hint(to=2, color=R, slots=(1,)))  # Ann tells Cy: red, slot 1
    white_ones.apply(Hint(to=0, rank=5, slots=(2,)))
    errors.append(refused(white_ones, Play(C("R3"), slot=2)))  # card_not_possible
    return errors


def hand_memory_refusals() -> list[IllegalAction]:
    """Hand memory (issue 14): Ann hints Bo red on slots 1 and 4, then the slips a table
    makes."""
    setup = GameSetup(players=3, names=NAMES, options=GameOptions(hand_memory=True))
    game = Game(setup)
    errors = [
        refused(game, Hint(to=1, color=R)),  # hint_needs_slots
        refused(game, Play(C("R1"))),  # slot_needed
        refused(game, Play(C("R1"), slot=6)),  # no_such_slot
        refused(game, Hint(to=1, color=R, slots=(2, 2))),  # slot_repeated
        refused(game, Hint(to=1, color=R, slots=())),  # hint_touches_nothing
    ]
    game.apply(Hint(to=1, color=R, slots=(1, 4)))
    errors.append(refused(game, Play(C("B1"), slot=1)))  # card_not_in_slot
    errors.append(refused(game, Play(C("R1"), slot=2)))  # card_ruled_out
    game.apply(Play(C("B1"), slot=2))  # Bo: red now in slots 2 and 4
    errors.append(refused(game, Hint(to=1, color=R, slots=(2,))))  # hint_must_touch
    game = Game.replay(setup, [Hint(to=1, color=R, slots=(1,))])
    game.apply(Hint(to=0, color=B, slots=(1,)))
    errors.append(refused(game, Hint(to=1, color=B, slots=(1,))))  # hint_cannot_touch
    plain = Game(GameSetup(players=3, names=NAMES))
    errors.append(refused(plain, Play(C("R1"), slot=1)))  # slots_not_recorded
    return errors + reveal_refusals()


def reveal_refusals() -> list[IllegalAction]:
    """The hands shown at the end (issue 34): a reveal too early, in a game without hand
    memory, twice, or not the whole hand."""
    from engine.reveal import Reveal, Reveals

    def refused_reveal(game: Game, reveal: Reveal, before: tuple[Reveal, ...] = ()):
        reveals = Reveals(game)
        for earlier in before:
            reveals.add(earlier)
        with pytest.raises(IllegalAction) as info:
            reveals.add(reveal)
        return info.value

    setup = GameSetup(players=3, names=NAMES, options=GameOptions(hand_memory=True))
    playing = Game(setup)
    over = Game(setup)
    for code in ("B5", "G5", "Y5"):  # a storm: over at once
        over.apply(Play(C(code), slot=1))
    whole = Reveal(1, (C("R1"), C("R1"), C("R2"), C("R3"), C("R4")))
    return [
        refused_reveal(playing, Reveal(0, ())),  # reveal_before_end
        refused_reveal(Game(GameSetup(players=3, names=NAMES)), Reveal(0, ())),  # no memory
        refused_reveal(over, Reveal(1, (C("R1"),))),  # reveal_wrong_count
        refused_reveal(over, whole, (whole,)),  # revealed_twice
    ]


RAISED = realistic_refusals()


def test_7_the_realistic_refusals_cover_every_code():
    assert {error.code for error in RAISED} == refusal_codes()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("error", RAISED, ids=lambda e: f"{e.code}-{sorted(e.params)}")
def test_7_every_refusal_reads_in_every_language_with_nothing_left_unfilled(error, lang):
    text = refusal_text(lang, error, NAMES)
    assert text and not LEFTOVER.search(text), text
    if lang != "en":
        assert text != refusal_text("en", error, NAMES)  # its own words, not English


@pytest.mark.parametrize("error", RAISED, ids=lambda e: f"{e.code}-{sorted(e.params)}")
def test_7_english_says_what_the_engine_says(error):
    """The engine's sentence, word for word; only a card is named in words ("red 5"),
    where the engine writes its code ("R5")."""
    text = refusal_text("en", error, NAMES)
    if "card" in error.params:  # the card in words, or the engine's sentence up to it
        card = error.params["card"]
        assert card_name("en", card) in text or str(error).startswith(text + ": " + card.code())
    else:
        assert text == str(error)


def test_7_refusals_name_the_players_and_the_card():
    game = Game(GameSetup(players=3, names=NAMES))
    error = refused(game, Hint(player=2))
    assert refusal_text("en", error, NAMES) == "It is Ann's turn, not Cy's"
    assert refusal_text("fr", error, NAMES) == "Ce n'est pas au tour de Cy, mais de Ann"
    assert refusal_text("de", error, NAMES) == "Ann ist dran, nicht Cy"
    game = Game.replay(game.setup, [Play(C("B1"))] * 3)
    error = refused(game, Play(C("B1")))
    assert refusal_text("en", error, NAMES).startswith("Every blue 1 is already revealed (3 ")
    assert refusal_text("fr", error, NAMES).startswith("1 bleu déjà révélé 3 fois")
    assert refusal_text("de", error, NAMES).startswith("Jede Blau 1 ist schon aufgedeckt (3 ")


def test_7_the_rules_example_in_every_language():
    game = Game(GameSetup(players=2))
    error = refused(game, Discard(C("R1")))
    assert refusal_text("en", error) == "All 8 hint tokens are available: you cannot discard"
    assert f"({refusal_text('en', error)})" in rules_section(7).replace('"', "")
    assert (
        refusal_text("fr", error) == f"Les 8 indices sont disponibles{NB}: impossible de défausser"
    )
    assert refusal_text("de", error) == (
        "Alle 8 Hinweisplättchen sind verfügbar: Abwerfen ist nicht erlaubt"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("code", ["not_your_turn", "hint_to_empty_hand"])
def test_7_refusals_without_names_leave_nothing_unfilled(code, lang):
    error = next(error for error in RAISED if error.code == code)
    text = refusal_text(lang, error)
    assert not LEFTOVER.search(text), text
    assert tr(lang, "player_n", n=1) in text or tr(lang, "player_n", n=2) in text


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
    """English and German: 1 is singular, 0 plural; French: 0 and 1 singular."""
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
    assert [i18n.counted("de", "turns", n) for n in (0, 1, 2)] == ["0 Züge", "1 Zug", "2 Züge"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_plural_rule_is_its_gettext_expression(lang):
    """The function and gettext's ``plural=`` expression it stands for agree."""
    words = i18n.language(lang)
    rule = gettext.c2py(words.plural_expression)
    assert [words.plural(n) for n in range(200)] == [rule(n) for n in range(200)]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_help_explains_every_mark_the_game_screen_shows(lang):
    """Max, Pace, "!", "×" and "unseen" appear on the game screen: Help says what they mean,
    and that the fireworks can be tapped; every language has the same rows."""
    rows = i18n.HELP_ROWS[lang]
    assert len(rows) == len(i18n.HELP_ROWS["en"])
    keys = [keys for keys, _buttons, _meaning in rows]
    pace_word = i18n.tr(lang, "pace", pace=0).split()[0]
    for mark in ("Max", pace_word, "!", "×", i18n.tr(lang, "unseen")):
        assert mark in keys, mark
    tap_the_fireworks = {"en": "fireworks", "fr": "feux", "de": "Feuerwerke"}
    if lang in tap_the_fireworks:
        assert any(tap_the_fireworks[lang] in buttons for _k, buttons, _m in rows[-1:])
    assert all(buttons for _k, buttons, _m in rows[-1:])  # the last row: tap the fireworks


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_names_the_buttons_by_their_soft_key_labels(lang):
    """The help's button column uses the labels the soft keys show."""
    buttons = " ".join(buttons for _k, buttons, _m in i18n.HELP_ROWS[lang])
    for key in ("hint", "play", "discard", "undo", "next", "ok"):
        assert tr(lang, f"softkey_{key}") in buttons, key


# -- typography and terms ----------------------------------------------------------


def every_string(lang: str) -> list[str]:
    """Every string a language shows, its placeholders left out."""
    words: Language = i18n.language(lang)
    strings = [words.name, *words.texts.values(), *words.colors.values()]
    strings += [text for pair in words.ratings.values() for text in pair]
    strings += [text for row in words.help_rows for text in row]
    strings += [text for forms in words.counted.values() for text in forms]
    strings += list(words.refusals.values())
    marks = {"!", "?", ":", ";"}  # the help's marks, signs on their own
    return [re.sub(r"\{[^}]*\}", "X", text) for text in strings if text not in marks]


def test_french_sets_a_no_break_space_before_high_punctuation():
    """French typography: U+00A0 before ``: ? ! ;``, never a plain or narrow space."""
    signs = 0
    for text in every_string("fr"):
        for match in re.finditer(r"[:?!;]", text):
            signs += 1
            assert text[match.start() - 1 : match.start()] == NB, text
        assert "\u202f" not in text, text
    assert signs > 30


@pytest.mark.parametrize("lang", OTHERS)
def test_only_french_spaces_its_punctuation(lang):
    if lang == "fr":
        return
    for text in every_string(lang):
        assert not re.search(r"[ \u00a0\u202f][:?!;]", text), text


#: One word per thing: (the word, keys that must use it, words that must not appear).
TERMS = {
    "fr": [
        ("mèche", ("fuses", "strikeout_keeps_score", "ev_misplay", "end_strikeout"), ("orage",)),
        ("indice", ("hint_tokens", "ev_bonus_lost", "ev_tokens_gained"), ("jeton",)),
        ("défausse", ("discards", "ev_misplay", "will_discard"), ("rebut",)),
        ("erreur", ("ev_misplay", "will_misplay"), ("faute",)),
    ],
    "de": [
        ("blitz", ("fuses", "strikeout_keeps_score", "ev_misplay", "end_strikeout"), ("gewitter",)),
        ("ablagestapel", ("discards", "ev_misplay", "will_discard"), ("abwurfstapel",)),
        ("fehler", ("ev_misplay", "will_misplay"), ("fehlwurf",)),
    ],
}


@pytest.mark.parametrize("lang", sorted(TERMS))
def test_one_word_per_thing(lang):
    """The set-up's option and the play messages name a fuse with the same word
    (French said "Orage" in the set-up and "mèche" in play), and so on."""
    strings = [text.lower() for text in every_string(lang)]
    for word, keys, doubles in TERMS[lang]:
        for key in keys:
            assert word in tr(lang, key).lower(), (word, key)
        for double in doubles:
            assert not any(double in text for text in strings), double


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_hanab_live_variant_is_named_by_its_name_in_every_language(lang):
    """Issue 35: a game of a variant by name lists it under that name (a proper name,
    Hanab Live's), then its other options in the language's words."""
    options = GameOptions(variant="Pink-Ones (5 Suits)", timed_display=True)
    words = i18n.variant_name(lang, options)
    assert (
        words == f"Pink-Ones (5 Suits), {i18n.variant_name(lang, GameOptions(timed_display=True))}"
    )
