"""Properties of the controller: any input is safe, and storage can rebuild the game."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import event as note
from hypothesis import strategies as st
from support.table_stories import (
    BACK,
    DISCARD,
    HINT,
    OK,
    PLAY,
    UNDO,
    replayed,
)

from companion.core.controller import (
    MENU_ROWS,
    SETUP_ROWS,
    Controller,
    FinishGame,
    Happened,
    Info,
    RecordAction,
    RecordUndo,
    Refused,
    Screen,
    SetupDraft,
    StartGame,
    Undone,
)
from companion.core.i18n import LANGUAGES, describe_event, refusal_text, tr
from engine import (
    ALL_CARDS,
    Multicolor,
)
from engine.cards import Card, Color
from engine.options import GameOptions
from hardware.events import (
    CardScanned,
    ChooseColor,
    ChooseNumber,
    ChooseRank,
    DeviceStatus,
    Key,
    Press,
    Select,
    Tap,
    TypeText,
)

# -- property: any input is safe, and storage can rebuild the game ---------------

KEYS = st.builds(Press, st.sampled_from(list(Key)))
GAME_KEYS = st.builds(
    Press,
    st.sampled_from([Key.OK, Key.HINT, Key.PLAY, Key.DISCARD, Key.UNDO, Key.OK, Key.BACK]),
)
INPUTS = st.one_of(
    KEYS,
    GAME_KEYS,
    GAME_KEYS,
    st.builds(ChooseColor, st.sampled_from(list(Color))),
    st.builds(ChooseRank, st.integers(-1, 9)),
    st.builds(ChooseNumber, st.integers(0, 9)),
    st.builds(TypeText, st.text(max_size=4)),
    st.builds(
        CardScanned,
        st.sampled_from(["04A1", ""]),
        st.one_of(st.none(), st.sampled_from(ALL_CARDS)),
    ),
    st.builds(Tap, st.integers(-5, 500), st.integers(-5, 500)),
    st.builds(Select, st.sampled_from([*SETUP_ROWS, *MENU_ROWS, "nowhere"])),
    st.builds(DeviceStatus, st.just("scanner"), st.booleans(), st.just("gone")),
)


def say(c: Controller) -> None:
    """Every message must be sayable in every language."""
    message = c.message
    for lang in LANGUAGES:
        if isinstance(message, Happened | Undone):
            describe_event(lang, message.event, c.names)
        elif isinstance(message, Refused):
            refusal_text(lang, message.error, c.names)
        elif isinstance(message, Info):
            tr(lang, message.key, **dict(message.params))


def typed(key: Key, card: Card) -> list:
    return [Press(key), ChooseColor(card.color), ChooseRank(card.rank), OK]


def turn(c: Controller, kind: str, pick: int) -> list:
    """A whole turn typed at the table; ``pick`` chooses the card among those that make sense."""
    stuck = c.screen in (Screen.ENTRY, Screen.MENU, Screen.HELP, Screen.HISTORY, Screen.UNDO)
    back = [BACK] if stuck and pick % 4 != 3 else []  # usually the table backs out first
    if kind == "hint":
        return [*back, HINT]
    if kind == "undo":
        return [*back, UNDO, OK]
    game = c.game
    cards = list(ALL_CARDS)
    if game is not None and kind in ("fit", "spare"):
        position, copies = game.position, game.setup.copies
        possible = [card for card in cards if position.seen[card.ordinal] < copies[card.ordinal]]
        fitting = [card for card in possible if card.rank == position.fireworks[card.color] + 1]
        cards = (fitting if kind == "fit" else possible) or cards
        if kind == "spare" and position.hints == 8 and c.screen is Screen.GAME:
            back.append(HINT)  # a token to give back first
    card = cards[pick % len(cards)]
    if kind == "scan":
        return [*back, CardScanned("t", card), PLAY if pick % 2 else DISCARD]
    return back + typed(Key.DISCARD if kind in ("spare", "discard") else Key.PLAY, card)


TURNS = st.tuples(
    st.sampled_from(["fit"] * 5 + ["spare"] * 4 + ["play", "discard", "scan", "hint"]),
    st.integers(0, 59),
)
#: Mostly whole turns (long games, final rounds, storms), some raw inputs and undos.
STEPS = st.integers(0, 14).flatmap(
    lambda roll: INPUTS if roll < 2 else st.just(("undo", 0)) if roll == 2 else TURNS
)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.integers(2, 5),
    st.sampled_from(list(Multicolor)),
    st.booleans(),
    st.integers(0, 200).flatmap(lambda n: st.lists(STEPS, min_size=n, max_size=n)),
)
def test_property_any_input_is_safe_and_the_effects_rebuild_the_game(
    players, multicolor, timed, steps
):
    """Never raises; the game is always its replay; the recorded effects rebuild its actions."""
    options = GameOptions(multicolor=multicolor, timed_display=timed)
    c = Controller(SetupDraft(players=players, options=options))
    stored: list | None = None  # what storage holds: the recorded actions of the game
    stored_setup = None
    screens = set()
    for step in [OK, *steps]:
        for event_ in turn(c, *step) if isinstance(step, tuple) else [step]:
            effects = c.handle(event_)
            for effect in effects:
                if isinstance(effect, StartGame):
                    stored, stored_setup = [], effect.setup
                elif isinstance(effect, RecordAction):
                    stored.append(effect.action)
                elif isinstance(effect, RecordUndo):
                    stored.pop()
            assert effects.count(FinishGame()) <= 1
            if FinishGame() in effects:
                assert c.game.is_over and c.screen is Screen.END
            game = c.game
            if game is not None:
                assert stored == game.actions and stored_setup == game.setup
                assert len(game.events) == len(game.actions)
                assert replayed(game) == game.position
            if c.screen is Screen.ENTRY:
                assert c.entry is not None
            screens.add(c.screen)
            say(c)
    if c.game is not None:
        note(f"actions: {len(c.game.actions) // 20 * 20}+")
        note(f"ended: {c.game.end_reason}")
        note(f"final round seen: {any(e.final_round_started for e in c.game.events)}")
    for screen in screens:
        note(f"visited {screen.value}")
