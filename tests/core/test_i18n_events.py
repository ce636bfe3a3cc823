"""What each action did, in every language: the line of the last action and the recent
actions name who did what, a hint's content and slots, a play, a misplay, a discard, the
last card drawn (the rest of the strings: tests/core/test_i18n.py)."""

from __future__ import annotations

import random
import re

import pytest

from companion.core.i18n import (
    LANGUAGES,
    describe_event,
)
from engine import (
    Discard,
    EventKind,
    Game,
    GameSetup,
    Hint,
    Play,
)
from engine.cards import Card, Color
from engine.options import GameOptions
from engine.table import SimulatedTable

R, Y, G, B, W, M = Color
#: The no-break space French sets before ``: ? ! ;``
#: (docs/decisions/0017-french-typography-and-terms.md).
NB = "\u00a0"


def C(code: str) -> Card:
    return Card.from_code(code)


LEFTOVER = re.compile(r"[{}]")


# -- what each action did, in every language ------------------------------------


def events_of(setup: GameSetup, actions: list) -> list:
    return Game.replay(setup, actions).events


TWO = GameSetup(players=2, names=("Ann", "Bo"))


def test_event_hint_without_its_content_says_who_gave_it():
    event = events_of(TWO, [Hint()])[-1]
    assert event.kind is EventKind.HINT
    assert describe_event("en", event, TWO.names) == "Ann gave a hint"
    assert describe_event("fr", event, TWO.names) == "Ann a donné un indice"
    assert describe_event("de", event, TWO.names) == "Ann hat einen Hinweis gegeben"


@pytest.mark.parametrize(
    ("lang", "color_hint", "rank_hint", "receiver_only"),
    [
        ("en", "Ann told Bo: yellow", "Ann told Bo: 1s", "Ann gave Bo a hint"),
        (
            "fr",
            "Ann a dit à Bo\u00a0: jaune",
            "Ann a dit à Bo\u00a0: 1",
            "Ann a donné un indice à Bo",
        ),
        ("de", "Ann an Bo: Gelb", "Ann an Bo: 1er", "Ann hat Bo einen Hinweis gegeben"),
    ],
)
def test_the_last_action_line_names_the_hint(lang, color_hint, rank_hint, receiver_only):
    """Issue 20: what a hint said is shown, as far as the table told it: the receiver
    and the clue without hand memory."""
    events = events_of(TWO, [Hint(to=1, color=Color.YELLOW), Hint(to=0, rank=1), Hint(to=1)])
    assert describe_event(lang, events[0], TWO.names) == color_hint
    assert describe_event(lang, events[1], TWO.names) == rank_hint.replace("Ann", "X").replace(
        "Bo", "Ann"
    ).replace("X", "Bo")
    assert describe_event(lang, events[2], TWO.names) == receiver_only


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "en",
            ["Ann told Bo: yellow, slots 2 and 3", "Bo told Ann: 1s, slot 1", "Ann told Bo: no 5s"],
        ),
        (
            "fr",
            [
                "Ann a dit à Bo\u00a0: jaune, emplacements 2 et 3",
                "Bo a dit à Ann\u00a0: 1, emplacement 1",
                "Ann a dit à Bo\u00a0: aucun 5",
            ],
        ),
        (
            "de",
            ["Ann an Bo: Gelb, Plätze 2 und 3", "Bo an Ann: 1er, Platz 1", "Ann an Bo: kein 5er"],
        ),
    ],
)
def test_with_hand_memory_the_hint_line_names_its_slots(lang, expected):
    """Issue 20: with hand memory the line adds the slots the hint touched."""
    setup = GameSetup(
        players=2,
        names=("Ann", "Bo"),
        options=GameOptions(hand_memory=True, empty_clues=True),
    )
    events = events_of(
        setup,
        [
            Hint(to=1, color=Color.YELLOW, slots=(3, 2)),
            Hint(to=0, rank=1, slots=(1,)),
            Hint(to=1, rank=5, slots=()),
        ],
    )
    assert [describe_event(lang, event, setup.names) for event in events] == expected


def test_event_play():
    event = events_of(TWO, [Hint(), Play(C("R1"))])[-1]
    assert event.kind is EventKind.PLAY
    assert describe_event("en", event, TWO.names) == "Bo played red 1"
    assert describe_event("fr", event, TWO.names) == "Bo a posé 1 rouge"
    assert describe_event("de", event, TWO.names) == "Bo hat Rot 1 ausgespielt"


def test_event_play_completing_a_firework():
    actions = [Hint()] + [Play(Card(R, rank)) for rank in range(1, 6)]
    event = events_of(TWO, actions)[-1]
    assert event.firework_completed and event.hints_change == 1
    assert describe_event("en", event, TWO.names) == (
        "Bo played red 5: firework complete! (+1 hint)"
    )
    assert describe_event("fr", event, TWO.names) == (
        f"Bo a posé 5 rouge{NB}: feu d'artifice complet{NB}! (+1 indice)"
    )
    assert describe_event("de", event, TWO.names) == (
        "Bo hat Rot 5 ausgespielt: Feuerwerk komplett! (+1 Hinweis)"
    )


def test_event_completion_bonus_lost_with_8_tokens():
    event = events_of(TWO, [Play(Card(R, rank)) for rank in range(1, 6)])[-1]
    assert event.bonus_lost
    assert describe_event("en", event, TWO.names) == (
        "Ann played red 5: firework complete! (bonus lost: all 8 hint tokens were there)"
    )
    assert describe_event("fr", event, TWO.names) == (
        f"Ann a posé 5 rouge{NB}: feu d'artifice complet{NB}! "
        f"(bonus perdu{NB}: les 8 indices étaient là)"
    )
    assert describe_event("de", event, TWO.names) == (
        "Ann hat Rot 5 ausgespielt: Feuerwerk komplett! "
        "(Bonus verfallen: Alle 8 Hinweisplättchen lagen bereit)"
    )


def test_event_misplay():
    """Issue 33: a misplay names who made it, as every other line does."""
    event = events_of(TWO, [Play(C("R3")), Play(C("R4"))])[-1]
    assert event.kind is EventKind.MISPLAY
    assert describe_event("en", event, TWO.names) == "Bo misplayed red 4: discarded, fuse 2 of 3"
    assert describe_event("fr", event, TWO.names) == (
        f"Erreur{NB}: Bo a posé 4 rouge, qui va à la défausse, mèche 2 sur 3"
    )
    assert describe_event("de", event, TWO.names) == (
        "Fehler von Bo: Rot 4 kommt auf den Ablagestapel, Blitz 2 von 3"
    )


def test_event_misplay_after_a_wrong_announce():
    timed = GameSetup(players=2, names=("Ann", "Bo"), options=GameOptions(timed_display=True))
    event = events_of(timed, [Play(C("R1"), Y)])[-1]
    assert event.kind is EventKind.MISPLAY and event.announce_right is False
    assert describe_event("en", event, timed.names) == (
        "Ann announced the wrong colour: red 1 discarded, fuse 1 of 3"
    )
    assert describe_event("fr", event, timed.names) == (
        f"Mauvaise couleur annoncée par Ann{NB}: 1 rouge va à la défausse, mèche 1 sur 3"
    )
    assert describe_event("de", event, timed.names) == (
        "Ann hat die falsche Farbe angesagt: Rot 1 kommt auf den Ablagestapel, Blitz 1 von 3"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_line_of_what_happened_names_who_did_it(lang: str) -> None:
    """Issue 33: every kind of action said on the last-action line, the actions page and
    the phones names the player who made it (a misplay said "Misplay: red 2 is
    discarded" and no one)."""
    timed = GameSetup(
        players=3, names=("Xavi", "Yuki", "Zoe"), options=GameOptions(timed_display=True)
    )
    actions = [
        Hint(),  # count only
        Hint(to=0, color=R),  # its content
        Play(C("R1")),  # played
        Play(C("B3")),  # misplayed
        Discard(C("W2")),
        Play(C("G1"), Y),  # the wrong colour announced
        Play(C("R2"), R),  # the right one
    ]
    events = events_of(timed, actions)
    assert {event.kind for event in events} == set(EventKind)
    for event in events:
        text = describe_event(lang, event, timed.names)
        assert timed.names[event.player] in text, text


def test_event_discard():
    event = events_of(TWO, [Hint(), Discard(C("B3"))])[-1]
    assert event.kind is EventKind.DISCARD
    assert describe_event("en", event, TWO.names) == "Bo discarded blue 3 (+1 hint)"
    assert describe_event("fr", event, TWO.names) == "Bo a défaussé 3 bleu (+1 indice)"
    assert describe_event("de", event, TWO.names) == "Bo hat Blau 3 abgeworfen (+1 Hinweis)"


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
        f". Dernière carte piochée{NB}: dernier tour{NB}!"
    )
    assert describe_event("de", event, TWO.names).endswith(". Letzte Karte gezogen: letzte Runde!")


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
    assert describe_event("de", event, timed.names).endswith("(+2 Hinweise)")
