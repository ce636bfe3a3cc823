"""The table as a phone sees it: an immutable snapshot of plain values.

The app loop builds one from the controller after every change and publishes it
(:class:`SnapshotBoard`); the web thread only reads the latest. Every text is
already in the table's language, from :mod:`companion.core.i18n`: the page has no
strings of its own but the few labels carried in :attr:`Snapshot.labels`.

>>> from companion.core.controller import Controller, SetupDraft
>>> snapshot = build_snapshot(Controller(SetupDraft(players=2)))
>>> snapshot.playing, snapshot.actions, dict(snapshot.labels)["my_hand"]
(False, 0, 'My hand')
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from msgspec import Struct, to_builtins

from companion.core import i18n
from companion.core.controller import (
    Controller,
    Happened,
    Screen,
    Shown,
    Undone,
    message_words,
)
from companion.core.entry import KEY_KINDS, refused_before_entry
from engine.actions import Action
from engine.cards import Color
from engine.game import Event, Game
from engine.memory import SlotKnowledge
from engine.setup import GameSetup

#: How many of the last actions the page lists, newest first.
RECENT_ACTIONS = 8

#: The page's own labels, by the key the page reads and the i18n key it is said with.
LABELS = {
    "my_hand": "web_my_hand",
    "pick_seat": "web_pick_seat",
    "change_seat": "web_change_seat",
    "everyone": "web_everyone",
    "table": "web_table",
    "recent": "web_recent",
    "discards": "discards",
    "no_discards": "no_discards",
    "no_game": "web_no_game",
    "offline": "web_offline",
    "hints": "hint_tokens",
    "fuses": "fuses",
    "deck": "deck",
    "no_hand_memory": "web_no_hand_memory",
    "history": "history",
    # phones as input (issue 22): pairing, then the panel's own words for each step
    "pair_open": "web_pair_open",
    "pair_code": "web_pair_code",
    "pair_name": "web_pair_name",
    "pair": "web_pair",
    "pair_waiting": "web_pair_waiting",
    "paired_as": "web_paired_as",
    "setup_title": "web_setup_title",
    "setup_search": "web_setup_search",
    "setup_next": "web_setup_next",
    "setup_more": "web_setup_more",
    "setup_none_found": "web_setup_none_found",
    "setup_pair": "web_setup_pair",
    "variant_none": "variant_none",
    "moved_on": "web_moved_on",
    "no_answer": "web_no_answer",
    "sending": "web_sending",
    "act_hint": "button_hint",
    "act_play": "button_play",
    "act_discard": "button_discard",
    "act_undo": "button_undo",
    "gives_hint": "entry_hint",
    "plays": "entry_play",
    "discards_card": "entry_discard",
    "pick_receiver": "entry_pick_receiver",
    "pick_clue": "entry_pick_clue",
    "pick_slots": "entry_pick_slots",
    "pick_slot": "entry_pick_slot",
    "slot": "entry_slot",
    "pick_color": "entry_pick_color",
    "pick_rank": "entry_pick_rank",
    "pick_announce": "entry_pick_announce",
    "no_announce": "entry_no_announce",
    "announced": "entry_announce",
    "undo_title": "undo_title",
    "cancel": "cancel",
    "confirm": "confirm",
    "back": "web_back",
    "play_log": "web_play_log",
    "replay": "web_replay",
    "story": "story_title",
    "story_legend": "story_legend",
    # the hands shown at the end (issue 34): a phone shows its own seat's
    "show_hand": "web_show_hand",
    "reveal_pick_color": "reveal_pick_color",
    "reveal_pick_rank": "reveal_pick_rank",
    "reveal_confirm": "reveal_confirm",
    "reveal_tap_change": "reveal_tap_change",
    "undo_reveal_title": "undo_reveal_title",
}


class SuitView(Struct, frozen=True):
    """One suit of the game: its letter (``R``…), its name, its firework's top rank."""

    letter: str
    name: str
    top: int
    dead: bool  # a card it needs is gone for good: it can never be completed


class DiscardView(Struct, frozen=True):
    """One discarded card; ``mark`` is ``!`` (the last copy of a card still needed),
    ``×`` (a card a firework needed, gone for good) or empty."""

    letter: str
    rank: int
    mark: str


class SlotView(Struct, frozen=True):
    """What the table heard about one card of a hand (hand memory), slot 1 first.

    ``color`` is the suit's letter when the hints leave one, else empty and
    ``not_colors`` the letters it cannot be; ``rank`` the rank when one is left (else 0)
    and ``not_ranks`` the ranks it cannot be.
    """

    number: int
    color: str
    not_colors: tuple[str, ...]
    rank: int
    not_ranks: tuple[int, ...]
    touched: bool


class SeatView(Struct, frozen=True):
    name: str
    current: bool
    hand: tuple[SlotView, ...]
    #: The hand shown at the end, slot 1 first, as card codes (``R3``); empty: not shown.
    shown: tuple[str, ...] = ()


class Snapshot(Struct, frozen=True):
    """Everything the page shows. ``actions`` (the actions recorded so far) is the SSE
    event id; ``game`` tells one game from the next (a new game starts again at 0)."""

    language: str
    labels: tuple[tuple[str, str], ...]
    #: The panel shows the set-up: a paired phone may choose the next game's variant.
    setting_up: bool = False
    #: The next game's variant as the set-up has it, in words ("No variant" for none).
    next_variant: str = ""
    playing: bool = False
    game: str = ""
    actions: int = 0
    turn: str = ""
    final_round: str = ""
    hints: int = 0
    #: The hint tokens in words: ``7``, ``7½`` (Clue Starved counts half tokens).
    tokens: str = ""
    #: The variant in words: ``Base game``, ``Pink (6 Suits), empty clues``.
    variant: str = ""
    fuses: int = 0
    max_fuses: int = 3
    deck: int = 0
    score_line: str = ""
    suits: tuple[SuitView, ...] = ()
    discards_title: str = ""
    discards: tuple[tuple[str, tuple[DiscardView, ...]], ...] = ()
    recent: tuple[str, ...] = ()
    over: bool = False
    result_title: str = ""
    result_sentence: str = ""
    hand_memory: bool = False
    seats: tuple[SeatView, ...] = ()
    # what a paired phone needs to enter actions (issue 22)
    #: The seat whose turn it is (-1: no game, or the game is over).
    current: int = -1
    #: How many cards each seat holds, by seat.
    hand_sizes: tuple[int, ...] = ()
    #: The suits' letters a colour hint may name, and those of the game's cards.
    clue_colors: tuple[str, ...] = ()
    card_colors: tuple[str, ...] = ()
    #: Whether a play may announce a colour first (timed display).
    timed_display: bool = False
    #: The newest action in words, with the phone that entered it ("… (Ann's phone)").
    last_action: str = ""
    #: What storage found and no player has acknowledged yet (OK on the panel), in words.
    findings: tuple[str, ...] = ()
    #: The actions refused now whatever is entered after ("discard": all 8 hint tokens…),
    #: each with its sentence: the page refuses them at the first tap, as the panel does
    #: at the first key (:func:`~companion.core.entry.refused_before_entry`).
    refused: tuple[tuple[str, str], ...] = ()
    #: The finished game's BG Stats link, and its QR code as an SVG data URI ("": none).
    play_link: str = ""
    play_qr: str = ""
    #: Every hand shown: the Hanab Live replay's link and its QR code ("": none), or the
    #: sentence saying why the game cannot go there.
    replay_link: str = ""
    replay_qr: str = ""
    replay_why_not: str = ""
    #: The finished game's curve: per turn (0: the start) the score, the highest reachable
    #: score, the pace (None at the end) and the hint tokens; and its drops, in words.
    story: tuple[tuple[int, int, int, int | None, int], ...] = ()
    story_drops: tuple[str, ...] = ()
    #: The seats whose hand was shown at the end, in the order they were; what the end
    #: says of them ("Hands shown: Ann, Bo", or that the whole deal is known: "" for
    #: none); ``deal_known``: every hand is shown (where the replay's link will go).
    revealed: tuple[int, ...] = ()
    reveal_line: str = ""
    deal_known: bool = False
    #: What undo would take back, in words: the last hand shown, else the last action.
    undo_what: str = ""

    def to_json(self) -> dict[str, Any]:
        """Plain JSON values: the views (nested ones too) become objects, the labels an object,
        and tuples stay tuples, which JSON writes as lists."""
        data: dict[str, Any] = to_builtins(self)
        data["labels"] = dict(self.labels)
        data["refused"] = dict(self.refused)
        return data


@lru_cache(maxsize=8)
def labels(lang: str) -> tuple[tuple[str, str], ...]:
    """The page's labels in ``lang``, as (name, text) pairs."""
    return tuple((name, i18n.tr(lang, key)) for name, key in LABELS.items())


def build_snapshot(controller: Controller, *, game_key: str = "") -> Snapshot:
    """The table as the controller has it now; ``game_key`` names the stored game."""
    lang = controller.language
    game = controller.game
    findings = tuple(controller.findings_words())
    if findings:
        findings += (i18n.tr(lang, "web_findings_ok"),)
    setup: dict[str, Any] = {
        "setting_up": controller.screen is Screen.SETUP,
        "next_variant": controller.draft.options.variant or i18n.tr(lang, "variant_none"),
    }
    if game is None:
        return Snapshot(language=lang, labels=labels(lang), findings=findings, **setup)
    from companion.core.words import final_round_text, score_text, token_count, turn_text

    names = game.setup.names
    over = game.is_over
    title = sentence = ""
    if over:
        title, sentence = _result(lang, game)
    dead = set(game.dead_fireworks())
    suits = tuple(
        SuitView(
            suit.color.letter,
            i18n.suit_name(lang, suit),
            game.position.fireworks[suit.color],
            suit.color in dead,
        )
        for suit in game.setup.suits
    )
    memory = game.setup.options.hand_memory
    current = game.current_player
    reveals = controller.reveals
    replay = controller.replay_end()
    shown = {reveal.player: tuple(card.code() for card in reveal.cards) for reveal in reveals.shown}
    seats = tuple(
        SeatView(name, seat == current, _hand(game, seat) if memory else (), shown.get(seat, ()))
        for seat, name in enumerate(names)
    )
    recent = tuple(
        _described(lang, event, names, game.setup.hint_cost)
        for event in reversed(game.events[-RECENT_ACTIONS:])
    )
    return Snapshot(
        **setup,
        language=lang,
        labels=labels(lang),
        playing=True,
        game=game_key or game.setup.started_at or "",
        actions=len(game.actions),
        turn="" if over else turn_text(lang, game),
        final_round="" if over else final_round_text(lang, game),
        hints=game.position.hints,
        tokens=token_count(game.position.hints, game.setup.hint_cost),
        variant=i18n.variant_name(lang, game.setup.options),
        fuses=game.position.fuses,
        deck=game.position.deck,
        score_line=_score_line(lang, game, score_text),
        suits=suits,
        discards_title=_discard_title(lang, game),
        discards=_discards(game),
        recent=recent,
        over=over,
        result_title=title,
        result_sentence=sentence,
        hand_memory=memory,
        seats=seats,
        current=-1 if over or current is None else current,
        hand_sizes=tuple(game.position.hands),
        clue_colors=tuple(s.color.letter for s in game.setup.suits if s.named_in_hints),
        card_colors=tuple(s.color.letter for s in game.setup.suits),
        timed_display=game.setup.options.timed_display,
        last_action=_last_action(controller),
        findings=findings,
        refused=_refused(lang, game),
        play_link=controller.end_link() or "",
        play_qr=play_qr(controller.end_link() or ""),
        replay_link=replay.link if replay else "",
        replay_qr=play_qr(replay.link if replay else ""),
        replay_why_not=replay.why_not if replay else "",
        **(_story(lang, game) if over else {}),
        revealed=tuple(reveals.seats),
        reveal_line=controller.reveal_words(),
        deal_known=reveals.complete,
        undo_what=_undo_what(lang, controller),
    )


def _undo_what(lang: str, controller: Controller) -> str:
    """What undo would take back: the last hand shown, else the newest action."""
    shown = controller.reveals.shown
    if shown:
        return i18n.reveal_text(lang, shown[-1], controller.names)
    game = controller.game
    if game is None or not game.events:
        return ""
    return _described(lang, game.events[-1], controller.names, game.setup.hint_cost)


def _refused(lang: str, game: Game) -> tuple[tuple[str, str], ...]:
    """The actions refused now whatever is entered after, by kind, with the sentence the
    panel says at the first key."""
    refused = []
    for kind in KEY_KINDS.values():
        error = refused_before_entry(game, kind)
        if error is not None:
            refused.append((kind.value, i18n.refusal_text(lang, error, game.setup.names)))
    return tuple(refused)


def _story(lang: str, game: Game) -> dict[str, Any]:
    """The finished game's curve and drops (made once per game: the snapshot is made at
    every frame)."""
    return _told(lang, game.setup, tuple(game.actions))


@lru_cache(maxsize=2)
def _told(lang: str, setup: GameSetup, actions: tuple[Action, ...]) -> dict[str, Any]:
    from companion.core.story_words import drop_words
    from engine.story import story

    game = Game.replay(setup, list(actions))
    told = story(game)
    return {
        "story": tuple((p.turn, p.score, p.max_score, p.pace, p.hints) for p in told.points),
        "story_drops": tuple(drop_words(lang, drop, game) for drop in told.drops)
        or (i18n.tr(lang, "story_no_drop"),),
    }


@lru_cache(maxsize=2)
def play_qr(link: str) -> str:
    """The QR code of ``link`` as an SVG data URI (made on the companion: the page loads
    nothing from elsewhere); "" for no link. Made once per link, not once per frame."""
    if not link:
        return ""
    import segno

    code = segno.make(link, error="l", boost_error=True, micro=False)
    return str(code.svg_data_uri(scale=4, border=4, dark="#000", light="#fff"))


def _last_action(controller: Controller) -> str:
    """The newest action in words: the panel's status line when it says it (with the phone
    that entered it), else the newest event."""
    game = controller.game
    assert game is not None
    message = controller.message
    if isinstance(message, Happened | Undone | Shown):
        return message_words(controller.language, message, controller.names, game.setup.hint_cost)
    if not game.events:
        return ""
    return i18n.describe_event(
        controller.language, game.events[-1], controller.names, game.setup.hint_cost
    )


def _score_line(lang: str, game: Game, score_text: Callable[[str, Game], str]) -> str:
    if game.is_over:
        return i18n.tr(lang, "score", score=game.score) + f" / {game.setup.max_score}"
    return score_text(lang, game)


def _result(lang: str, game: Game) -> tuple[str, str]:
    """The end's title and sentence, as the end screen says them."""
    from engine.outcome import Outcome

    reason = game.end_reason
    assert reason is not None
    reason_text = i18n.end_reason_text(lang, reason, game.setup.names[game.position.current])
    rating = game.rating
    if rating is not None:
        return i18n.rating_title(lang, rating), i18n.rating_sentence(lang, rating)
    won = game.outcome is Outcome.WON
    return i18n.tr(lang, "end_perfect") if won else i18n.tr(lang, "lost"), reason_text


def _discard_title(lang: str, game: Game) -> str:
    pile = game.position.discards
    title = i18n.tr(lang, "discards")
    return f"{title} ({len(pile)})" if pile else title


def _discards(game: Game) -> tuple[tuple[str, tuple[DiscardView, ...]], ...]:
    """The discard pile by suit (the game's suit order), each suit rank by rank."""
    critical = set(game.critical_cards())
    lost = set(game.lost_cards())
    groups = []
    for suit in game.setup.suits:
        cards = sorted(card for card in game.position.discards if card.color == suit.color)
        if cards:
            views = tuple(
                DiscardView(
                    card.color.letter,
                    card.rank,
                    "×" if card in lost else ("!" if card in critical else ""),
                )
                for card in cards
            )
            groups.append((suit.color.letter, views))
    return tuple(groups)


@lru_cache(maxsize=256)
def _described(lang: str, event: Event, names: tuple[str, ...], per_token: int) -> str:
    """An action in words (the same few events are said again after every action)."""
    return i18n.describe_event(lang, event, names, per_token)


def _hand(game: Game, seat: int) -> tuple[SlotView, ...]:
    colors = tuple(suit.color for suit in game.setup.suits)
    return tuple(
        _slot(number, known, colors) for number, known in enumerate(game.hand_memory(seat), start=1)
    )


@lru_cache(maxsize=1024)
def _slot(number: int, known: SlotKnowledge, colors: tuple[Color, ...]) -> SlotView:
    """One slot's view (cached: most slots are the same from one action to the next)."""
    color = known.color
    rank = known.rank
    ruled_out = (
        () if color is not None else tuple(c.letter for c in colors if c not in known.colors)
    )
    return SlotView(
        number=number,
        color=color.letter if color is not None else "",
        not_colors=ruled_out,
        rank=rank or 0,
        not_ranks=tuple(r for r in range(1, 6) if r not in known.ranks) if rank is None else (),
        touched=known.touched,
    )


class SnapshotBoard:
    """Where the app loop leaves the latest snapshot and the web thread reads it.

    Thread-safe: :meth:`publish` (app thread) swaps the reference under a lock and calls
    the listener (the server's wake-up, which hands over to its own loop); :meth:`latest`
    (any thread) reads it. ``revision`` grows by one each time the snapshot changes.
    """

    def __init__(self, snapshot: Snapshot) -> None:
        self._lock = threading.Lock()
        self._snapshot = snapshot
        self._revision = 0
        self._listener: Callable[[], None] | None = None

    def publish(self, snapshot: Snapshot) -> bool:
        """Make ``snapshot`` the latest; False (nothing sent) when it is the same table."""
        with self._lock:
            if snapshot == self._snapshot:
                return False
            self._snapshot = snapshot
            self._revision += 1
            listener = self._listener
        if listener is not None:
            listener()
        return True

    def latest(self) -> tuple[int, Snapshot]:
        with self._lock:
            return self._revision, self._snapshot

    def listen(self, listener: Callable[[], None] | None) -> None:
        with self._lock:
            self._listener = listener
