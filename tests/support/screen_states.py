"""Representative table states for the screens' tests: the hard cases for a layout.

Five players with the longest names allowed, six suits, the final round, the timed
display, the crowning piece, a long discard pile, a device notice, a long history.
Each builder takes a language and returns the controller as the table would have it.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from companion.core.controller import (
    HINT_LEVEL_ROW,
    MAX_NAME_LENGTH,
    MORE_CLUES,
    REMOVE_PHONE,
    SETUP_ROWS,
    SOFT_KEYS,
    Controller,
    GamePage,
    Happened,
    HintLevel,
    Info,
    Refused,
    Screen,
    SetupDraft,
)
from companion.storage import GameStatus, HistoryRow, PlayerStatsRow, StatsRow
from companion.vocabulary.phone import PairedPhone
from engine import Card, Color, GameSetup, Multicolor
from engine.errors import HintTokensFull
from engine.game import Game
from engine.options import GameOptions
from engine.outcome import EndReason, Outcome, Rating
from engine.table import SimulatedTable
from hardware.events import (
    ChooseColor,
    ChooseRank,
    ChooseSeat,
    ChooseSlot,
    Key,
    Press,
    Select,
)

LONG_NAMES = ("Bernadette", "Christopher", "Dominique", "Emmanuelle", "Maximiliane")
assert all(len(name) <= MAX_NAME_LENGTH for name in LONG_NAMES)
SIX_SUITS = GameOptions(multicolor=Multicolor.SHORT)


def _played(setup: GameSetup, until: Callable[[Game], bool], seed_range: int = 300) -> Game:
    """A simulated game stopped at the first turn where ``until`` holds."""
    for seed in range(seed_range):
        table = SimulatedTable(setup, random.Random(seed), skill=0.8)
        while not table.game.is_over:
            if until(table.game):
                return table.game
            table.step()
        if until(table.game):
            return table.game
    raise AssertionError("no seed reaches the state")


def _five_players(options: GameOptions = SIX_SUITS) -> GameSetup:
    return GameSetup(players=5, names=LONG_NAMES, options=options)


def _draft(lang: str) -> SetupDraft:
    return SetupDraft(players=5, names=list(LONG_NAMES), language=lang, options=SIX_SUITS)


def _with_last_action(controller: Controller) -> Controller:
    game = controller.game
    if game is not None and game.events:
        controller.message = Happened(game.events[-1])
    return controller


def final_round_five(lang: str) -> Controller:
    """Five long names, six suits, the final round with four still to play."""
    game = _played(
        _five_players(),
        lambda g: (order := g.final_round_order()) is not None and len(order) == 4,
    )
    return _with_last_action(Controller(_draft(lang), game))


def discard_page_long_pile(lang: str) -> Controller:
    """The discard page of a game with many discards, six suits."""
    game = _played(_five_players(), lambda g: len(g.position.discards) >= 18)
    controller = _with_last_action(Controller(_draft(lang), game))
    controller.page = GamePage.DISCARDS
    return controller


def refusal_five(lang: str) -> Controller:
    """A refusal on the status line (all 8 tokens: no discard), final round running."""
    controller = final_round_five(lang)
    controller.message = Refused(HintTokensFull())
    return controller


def device_notice(lang: str) -> Controller:
    """A device notice banner over the game (it covered the turn line): the scanner
    unplugged, five players, six suits."""
    game = _played(_five_players(), lambda g: len(g.events) >= 20)
    controller = _with_last_action(Controller(_draft(lang), game))
    controller.device_notices["scanner"] = "scanner: /dev/ttyUSB0 disconnected"
    return controller


def entry_preview_five(lang: str) -> Controller:
    """A play being confirmed in the final round, its preview said."""
    controller = final_round_five(lang)
    controller.handle(Press(Key.PLAY))
    controller.handle(ChooseColor(Color.MULTICOLOR))
    controller.handle(ChooseRank(5))
    return controller


def entry_colour_six_suits(lang: str) -> Controller:
    controller = final_round_five(lang)
    controller.handle(Press(Key.DISCARD))
    return controller


def entry_scanned(lang: str) -> Controller:
    """A card scanned first: "play or discard?"."""
    from hardware.events import CardScanned

    controller = final_round_five(lang)
    controller.handle(CardScanned("0012345678", Card.from_code("M5")))
    return controller


def timed_display_announced(lang: str) -> Controller:
    """Timed display: a play with a colour announced, being confirmed."""
    game = Game(GameSetup(players=5, names=LONG_NAMES, options=GameOptions(timed_display=True)))
    controller = Controller(_draft(lang), game)
    for event in (Press(Key.PLAY), ChooseColor(Color.RED), ChooseRank(1), Press(Key.PREVIOUS)):
        controller.handle(event)
    controller.handle(ChooseColor(Color.BLUE))
    return controller


def timed_display_announcing(lang: str) -> Controller:
    """Timed display: the announce asked from the start of the entry."""
    game = Game(GameSetup(players=5, names=LONG_NAMES, options=GameOptions(timed_display=True)))
    controller = Controller(_draft(lang), game)
    controller.handle(Press(Key.PLAY))
    controller.handle(Press(Key.PREVIOUS))
    return controller


def crowning_losing_discard(lang: str) -> Controller:
    """Crowning piece: discarding a last copy loses the game; the preview says so."""
    setup = _five_players(GameOptions(crowning_piece=True))
    game = _played(
        setup,
        lambda g: (
            g.position.hints < 8
            and any(card.rank < 5 and card.rank > 1 for card in g.critical_cards())
        ),
    )
    card = next(card for card in game.critical_cards() if 1 < card.rank < 5)
    controller = Controller(_draft(lang), game)
    controller.handle(Press(Key.DISCARD))
    controller.handle(ChooseColor(card.color))
    controller.handle(ChooseRank(card.rank))
    return controller


def undo_five(lang: str) -> Controller:
    controller = final_round_five(lang)
    controller.handle(Press(Key.UNDO))
    return controller


def end_five(lang: str) -> Controller:
    game = _played(_five_players(), lambda g: g.is_over and g.outcome is Outcome.FINISHED)
    return Controller(_draft(lang), game)


def end_five_discards(lang: str) -> Controller:
    controller = end_five(lang)
    controller.handle(Press(Key.NEXT))
    return controller


def end_lost(lang: str) -> Controller:
    game = _played(_five_players(), lambda g: g.is_over and g.outcome is Outcome.LOST)
    return Controller(_draft(lang), game)


def setup_five(lang: str) -> Controller:
    controller = Controller(_draft(lang))
    controller.can_quit = True
    return controller


def setup_refused_start(lang: str) -> Controller:
    draft = _draft(lang)
    draft.options = GameOptions(
        crowning_piece=True, multicolor=Multicolor.SHORT, timed_display=True
    )
    controller = Controller(draft)
    controller.handle(Press(Key.OK))
    return controller


def setup_typing_a_name(lang: str) -> Controller:
    controller = Controller(_draft(lang))
    controller.focus = 3  # the names row
    controller.handle(Press(Key.OK))
    return controller


def setup_unfinished_game(lang: str) -> Controller:
    """Start with a game unfinished: the question on the set-up screen."""
    controller = final_round_five(lang)
    controller.handle(Press(Key.MENU))
    controller.handle(Press(Key.NEXT))
    controller.handle(Press(Key.OK))  # New game
    controller.handle(Press(Key.OK))  # Start: asks first
    assert isinstance(controller.message, Info)
    return controller


def menu_desktop(lang: str) -> Controller:
    controller = final_round_five(lang)
    controller.can_quit = True
    controller.handle(Press(Key.MENU))
    return controller


def help_page(page: int) -> Callable[[str], Controller]:
    def build(lang: str) -> Controller:
        controller = final_round_five(lang)
        controller.handle(Press(Key.HELP))
        for _ in range(page):
            controller.handle(Press(Key.NEXT))
        return controller

    build.__doc__ = f"Help, turned {page} times"
    return build


def history_long(lang: str) -> Controller:
    """Eleven finished games with every option, one abandoned (resumable, at the top),
    one damaged."""
    controller = final_round_five(lang)
    controller.screen = Screen.HISTORY
    every = GameOptions(
        multicolor=Multicolor.SHORT, wild_multicolor=True, timed_display=True, empty_clues=True
    )
    rows = [
        HistoryRow(
            n,
            f"2026-11-{n:02d}T20:00:00+00:00",
            f"2026-11-{n:02d}T20:40:00+00:00",
            5,
            LONG_NAMES,
            every,
            23,
            30,
            Rating.AMAZING,
            Outcome.FINISHED,
            EndReason.FINAL_ROUND,
        )
        for n in range(1, 12)
    ]
    rows.insert(
        0,
        HistoryRow(
            12, "2026-11-12T20:00:00+00:00", "2026-11-12T20:10:00+00:00", 5, LONG_NAMES,
            every, 9, 30, None, None, None, status=GameStatus.ABANDONED,
        ),
    )  # fmt: skip
    rows.insert(
        1,
        HistoryRow(
            11, "2026-11-11T20:00:00+00:00", None, 0, (), GameOptions(), 0, 0, None, None,
            None, damaged="Stored game 11 is damaged: line 3 is not JSON",
        ),
    )  # fmt: skip
    controller.history = (
        rows,
        [StatsRow(5, every, 11, 23, 23.0, 2, 3, 1.42), StatsRow(2, GameOptions(), 3, 25, 21.7)],
    )
    controller.player_stats = [  # the figures per player (issue 34): long names, every share
        PlayerStatsRow(name, 14 - seat, 30, 22.4, 3, 1, 1.38 if seat else None)
        for seat, name in enumerate(LONG_NAMES)
    ]
    return controller


# -- hand memory (issue 14) --------------------------------------------------------------

HAND_MEMORY = GameOptions(multicolor=Multicolor.SHORT, hand_memory=True)


def _hand_memory_game(lang: str) -> Controller:
    """Five long names, six suits, hand memory: a few hints and a play, Ann to act with
    slot 1 known as a multicolor 5, slot 2 a 5 that is not multicolor."""
    from engine import Discard, Hint, Play

    game = Game(_five_players(HAND_MEMORY))
    for action in (
        Hint(1, Color.RED, player=0, slots=(1, 3)),
        Hint(2, None, 2, player=1, slots=(2,)),
        Play(Card.from_code("R1"), player=2, slot=4),
        Hint(0, Color.MULTICOLOR, player=3, slots=(1,)),
        Hint(0, None, 5, player=4, slots=(1, 2)),
        Hint(1, None, 1, player=0, slots=(2, 4)),
        Discard(Card.from_code("Y1"), player=1, slot=4),
        Hint(0, None, 4, player=2, slots=(4,)),
        Discard(Card.from_code("B3"), player=3, slot=1),
        Hint(0, Color.GREEN, player=4, slots=(3,)),
    ):
        game.apply(action)
    return _with_last_action(Controller(_draft(lang), game))


def hand_memory_game(lang: str) -> Controller:
    return _hand_memory_game(lang)


def hand_memory_final_round(lang: str) -> Controller:
    """The hardest game screen with hand memory: five long names, six suits, the final
    round with four still to play, a long refusal on the status line."""
    game = _played(
        _five_players(HAND_MEMORY),
        lambda g: (order := g.final_round_order()) is not None and len(order) == 4,
    )
    controller = Controller(_draft(lang), game)
    controller.message = Refused(HintTokensFull())
    return controller


def hand_memory_hands_page(lang: str) -> Controller:
    """Every player's hand memory: the game screen's page after the discards."""
    controller = _hand_memory_game(lang)
    controller.page = GamePage.HANDS
    return controller


def hand_memory_refusal(lang: str) -> Controller:
    """A hand-memory refusal on the status line beside the hand strip: a slot the hand
    has not. (A refusal said during an entry is the entry's: cancelled, the status line
    shows the last action again; here the refusal is set on the line, a drawing case.)"""
    controller = _hand_memory_game(lang)
    controller.handle(Press(Key.PLAY))
    controller.handle(ChooseSlot(5))
    refusal = controller.message
    assert isinstance(refusal, Refused)
    controller.handle(Press(Key.BACK))
    controller.message = refusal
    return controller


def hand_memory_receiver(lang: str) -> Controller:
    """A hint: to whom? Four long names."""
    controller = _hand_memory_game(lang)
    controller.handle(Press(Key.HINT))
    return controller


def hand_memory_clue_page(page: int) -> Callable[[str], Controller]:
    def build(lang: str) -> Controller:
        controller = hand_memory_receiver(lang)
        controller.handle(ChooseSeat(1))
        for _ in range(page):  # the button under "›" turns the clues
            controller.handle(Press(SOFT_KEYS[controller.soft_choices().index(MORE_CLUES)]))
        return controller

    build.__doc__ = f"A hint's clues, page {page + 1} (six suits)"
    return build


def hand_memory_clue_refused(lang: str) -> Controller:
    """A hint's clues with a refusal said above them: "m" typed with wild multicolor
    (a hint cannot name it), the long sentence on two lines or more."""
    options = GameOptions(multicolor=Multicolor.SHORT, wild_multicolor=True, hand_memory=True)
    controller = _with_last_action(Controller(_draft(lang), Game(_five_players(options))))
    for event in (Press(Key.HINT), ChooseSeat(1), ChooseColor(Color.MULTICOLOR)):
        controller.handle(event)
    assert isinstance(controller.message, Refused)
    return controller


def hand_memory_slots_refused(lang: str) -> Controller:
    """A hint's slots being picked, said as a sentence, with a contradiction said live:
    Christopher's slot 4 was hinted red, this red hint leaves it out."""
    controller = hand_memory_receiver(lang)
    for event in (ChooseSeat(1), ChooseColor(Color.RED), ChooseSlot(1), ChooseSlot(2)):
        controller.handle(event)
    return controller


def hand_memory_play_slot(lang: str) -> Controller:
    """A play: from which slot? Ann's hand drawn with what the hints said."""
    controller = _hand_memory_game(lang)
    controller.handle(Press(Key.PLAY))
    return controller


def hand_memory_play_confirm(lang: str) -> Controller:
    controller = hand_memory_play_slot(lang)
    for event in (ChooseSlot(1), ChooseColor(Color.MULTICOLOR), ChooseRank(5)):
        controller.handle(event)
    return controller


def hand_memory_pad_slot(lang: str) -> Controller:
    """A card placed on the play pad: only its slot is asked."""
    from hardware.events import CardScanned

    controller = _hand_memory_game(lang)
    controller.handle(CardScanned("0012345678", Card.from_code("M5"), role="play"))
    return controller


def hand_memory_pad_refused(lang: str) -> Controller:
    """A card on the play pad and a slot it cannot be in: the longest refusal of hand
    memory beside the card, asked again (German wraps it to seven lines at 240x320)."""
    from hardware.events import CardScanned

    controller = _hand_memory_game(lang)
    controller.handle(CardScanned("0012345678", Card.from_code("R1"), role="play"))
    controller.handle(ChooseSlot(1))
    assert isinstance(controller.message, Refused)
    return controller


def setup_hand_memory_on(lang: str) -> Controller:
    """The set-up, hand memory just chosen (the Hints row, from colour or rank to slots):
    how to hold the cards, said once."""
    controller = Controller(_draft(lang))
    controller.focus = SETUP_ROWS.index(HINT_LEVEL_ROW)
    controller.handle(Press(Key.OK))
    assert controller.draft.hint_level is HintLevel.SLOTS
    return controller


# -- issue 33: hints with their content (the content level) ---------------------------------


def _content_game(lang: str) -> Controller:
    """Five long names, six suits, the content level: hints with their colour or rank and
    no receiver (one from a phone names it), Maximiliane's last."""
    from engine import Hint, Play

    game = Game(_five_players())
    for action in (
        Hint(None, Color.MULTICOLOR, player=0),
        Hint(None, None, 4, player=1),
        Hint(3, Color.YELLOW, player=2),  # a phone's: the receiver named
        Play(Card.from_code("R1"), player=3),
        Hint(None, Color.GREEN, player=4),
    ):
        game.apply(action)
    return _with_last_action(Controller(_draft(lang), game, hint_level=HintLevel.CONTENT))


def hint_content_last_action(lang: str) -> Controller:
    """The game screen after a hint at the content level: "Maximiliane hinted green"."""
    return _content_game(lang)


def hint_content_actions_page(lang: str) -> Controller:
    """The recent actions, hints with their colour or rank."""
    controller = _content_game(lang)
    controller.page = GamePage.ACTIONS
    return controller


def hint_content_clue_page(page: int) -> Callable[[str], Controller]:
    def build(lang: str) -> Controller:
        controller = _content_game(lang)
        controller.handle(Press(Key.HINT))
        for _ in range(page):  # the button under "›" turns the clues
            controller.handle(Press(SOFT_KEYS[controller.soft_choices().index(MORE_CLUES)]))
        return controller

    build.__doc__ = f"A hint's colour or rank at the content level, page {page + 1}"
    return build


def setup_hint_level(lang: str) -> Controller:
    """The set-up, its Hints row focused (colour or rank, the default)."""
    controller = Controller(_draft(lang))
    controller.focus = SETUP_ROWS.index(HINT_LEVEL_ROW)
    return controller


# -- issue 20, the smaller defects ----------------------------------------------------------


def entry_bonus_lost(lang: str) -> Controller:
    """A 5 being confirmed with all 8 hint tokens there: the preview says the bonus is
    lost, the longest preview of a play (five long names)."""
    from engine import Play

    game = Game.replay(_five_players(), [Play(Card.from_code(f"R{r}")) for r in range(1, 5)])
    controller = _with_last_action(Controller(_draft(lang), game))
    for event in (Press(Key.PLAY), ChooseColor(Color.RED), ChooseRank(5)):
        controller.handle(event)
    return controller


def entry_refused_change(lang: str) -> Controller:
    """A card that cannot exist being confirmed: the refusal, and the "Change" button in
    place of OK (every red 1 is out)."""
    from engine import Discard, Hint, Play

    actions = [Play(Card.from_code("R1")), Hint(), Discard(Card.from_code("R1"))]
    actions += [Hint(), Discard(Card.from_code("R1"))]
    game = Game.replay(_five_players(), actions)
    controller = _with_last_action(Controller(_draft(lang), game))
    for event in (Press(Key.PLAY), ChooseColor(Color.RED), ChooseRank(1)):
        controller.handle(event)
    assert controller.entry_refusal() is not None
    return controller


def hand_memory_receiver_unknown(lang: str) -> Controller:
    """At "to whom?", key 1, Ann's own seat: refused, the sentence above the receivers'
    tiles."""
    controller = hand_memory_receiver(lang)
    controller.handle(ChooseSeat(0))
    assert isinstance(controller.message, Refused)
    return controller


def hand_memory_hint_refused(lang: str) -> Controller:
    """A hint refused as it stands: no OK is offered, the slots are the choice."""
    controller = hand_memory_slots_refused(lang)
    assert controller.entry_refusal() is not None
    return controller


def history_resume_question(lang: str) -> Controller:
    """OK on an abandoned game while one is in play: the question above the list."""
    controller = history_long(lang)
    controller.handle(Press(Key.OK))
    assert isinstance(controller.message, Info)
    return controller


def phones_page(lang: str) -> Controller:
    """The menu's Phones page: the QR code and the URL (a long IPv4 address), the
    pairing code (the app makes it when the page opens)."""
    controller = final_round_five(lang)
    controller.phones_url = "http://192.168.100.200:8080/?code=k7m2q9xa"
    controller.handle(Press(Key.MENU))
    controller.choose_menu("phones")
    controller.pairing_code = "048213"
    return controller


#: Three phones paired, the longest names a phone is listed under.
PAIRED = (
    PairedPhone(1, LONG_NAMES[4], "2026-11-20T20:40:00+00:00"),
    PairedPhone(2, "Christoph 2", "2026-11-20T20:41:00+00:00"),
    PairedPhone(3, "Bo", "2026-11-20T20:42:00+00:00"),
)


def phones_page_paired(lang: str) -> Controller:
    """The Phones page with three phones paired, the last just now: its status line
    ("Bo's phone can enter actions") under the pairing code."""
    controller = phones_page(lang)
    for phone in PAIRED:
        controller.paired[bytes([phone.id]) * 32] = phone
    controller.message = Info("phone_paired", (("name", PAIRED[-1].name),))
    return controller


def phones_page_list(lang: str) -> Controller:
    """The Phones page's list of paired phones (NEXT twice: the second at the focus),
    just after one was removed: the status line says so."""
    controller = phones_page_paired(lang)
    controller.handle(Press(Key.NEXT))
    controller.handle(Press(Key.NEXT))
    controller.message = Info("phone_removed", (("name", "Dominique"),))
    return controller


def phones_page_removing(lang: str) -> Controller:
    """The Phones page asks before removing the phone with the longest name (a tap on
    its button): "Remove …'s phone? OK", with Cancel and OK."""
    controller = phones_page_list(lang)
    controller.handle(Select(f"{REMOVE_PHONE}{PAIRED[0].id}"))
    return controller


def phones_page_off(lang: str) -> Controller:
    """The Phones page when the page for phones is off: one sentence says how to turn it on."""
    controller = final_round_five(lang)
    controller.handle(Press(Key.MENU))
    controller.choose_menu("phones")
    return controller


#: Every state, by name.
STATES: dict[str, Callable[[str], Controller]] = {
    "final_round_five": final_round_five,
    "discard_page_long_pile": discard_page_long_pile,
    "refusal_five": refusal_five,
    "device_notice": device_notice,
    "entry_preview_five": entry_preview_five,
    "entry_colour_six_suits": entry_colour_six_suits,
    "entry_scanned": entry_scanned,
    "timed_display_announced": timed_display_announced,
    "timed_display_announcing": timed_display_announcing,
    "crowning_losing_discard": crowning_losing_discard,
    "undo_five": undo_five,
    "end_five": end_five,
    "end_five_discards": end_five_discards,
    "end_lost": end_lost,
    "setup_five": setup_five,
    "setup_refused_start": setup_refused_start,
    "setup_typing_a_name": setup_typing_a_name,
    "setup_unfinished_game": setup_unfinished_game,
    "menu_desktop": menu_desktop,
    "help_first_page": help_page(0),
    "help_last_page": help_page(12),
    "history_long": history_long,
    "hand_memory_game": hand_memory_game,
    "hand_memory_final_round": hand_memory_final_round,
    "hand_memory_hands_page": hand_memory_hands_page,
    "hand_memory_refusal": hand_memory_refusal,
    "hand_memory_receiver": hand_memory_receiver,
    "hand_memory_clues_colours": hand_memory_clue_page(0),
    "hand_memory_clues_multicolor": hand_memory_clue_page(1),
    "hand_memory_clues_ranks": hand_memory_clue_page(2),
    "hand_memory_clue_refused": hand_memory_clue_refused,
    "hand_memory_slots_refused": hand_memory_slots_refused,
    "hand_memory_play_slot": hand_memory_play_slot,
    "hand_memory_play_confirm": hand_memory_play_confirm,
    "hand_memory_pad_slot": hand_memory_pad_slot,
    "hand_memory_pad_refused": hand_memory_pad_refused,
    "setup_hand_memory_on": setup_hand_memory_on,
    "hint_content_last_action": hint_content_last_action,
    "hint_content_actions_page": hint_content_actions_page,
    "hint_content_colours": hint_content_clue_page(0),
    "hint_content_ranks": hint_content_clue_page(2),
    "setup_hint_level": setup_hint_level,
    "entry_bonus_lost": entry_bonus_lost,
    "entry_refused_change": entry_refused_change,
    "hand_memory_receiver_unknown": hand_memory_receiver_unknown,
    "hand_memory_hint_refused": hand_memory_hint_refused,
    "history_resume_question": history_resume_question,
    "phones_page": phones_page,
    "phones_page_off": phones_page_off,
    "phones_page_paired": phones_page_paired,
    "phones_page_list": phones_page_list,
    "phones_page_removing": phones_page_removing,
}

__all__ = ["STATES"]
