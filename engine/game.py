"""The game: a set-up, the actions so far, and the position they fold into.

The log is the truth. :class:`Game` applies actions one at a time to a
:class:`Position`; each applied action yields an :class:`Event` that records
what happened, so the screen, the history and the journal never recompute a
rule. Undo drops the last action and folds the rest again.

>>> from engine.actions import Discard, Hint, Play
>>> game = Game(GameSetup(players=2, names=("Ann", "Bo")))
>>> game.apply(Hint(to=1, rank=1)).hints_change
-1
>>> event = game.apply(Play(Card.from_code("R1")))
>>> event.kind, game.position.fireworks[Color.RED], game.score
(<EventKind.PLAY: 'play'>, 1, 1)
>>> game.apply(Play(Card.from_code("R3"))).fuse_burnt
True
>>> game.undo()
Play(card=Card(color=<Color.RED: 0>, rank=3), announce=None, player=None, at=None, slot=None)
>>> game.position.fuses
0
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Any, NamedTuple, NoReturn

from engine import errors
from engine.actions import Action, Discard, Hint, Play
from engine.cards import ALL_CARDS, Card, Color
from engine.memory import CARD_BITS, Clue, SlotKnowledge, knowledge, leave_slot
from engine.outcome import EndReason, Outcome, Rating, rating_for
from engine.setup import MAX_FUSES, GameSetup


class EventKind(Enum):
    """What kind of action was applied."""

    HINT = "hint"
    PLAY = "play"  # the card was placed on its firework
    MISPLAY = "misplay"  # the card went to the discard pile and a fuse burnt
    DISCARD = "discard"


class Event(NamedTuple):
    """What one applied action did: a history item, never recomputed."""

    turn: int  # 1 for the first action
    player: int
    action: Action
    kind: EventKind
    card: Card | None
    hints_change: int  # tokens spent (-1) or gained (+1, +2), after the cap of 8
    fuse_burnt: bool
    firework_completed: bool
    bonus_lost: bool  # a token the rules give was lost: all 8 were available
    announce_right: bool | None  # timed display: None when nothing was announced
    drew: bool
    final_round_started: bool
    end: EndReason | None
    hints_after: int  # hint tokens available after the action
    fuses_after: int  # fuses burnt after the action


class Position:
    """Everything the table can know after some actions; mutated only by :class:`Game`."""

    __slots__ = (
        "current",
        "deck",
        "discards",
        "end_reason",
        "final_round_turns_left",
        "fireworks",
        "fuses",
        "hands",
        "hints",
        "last_clue",
        "memory",
        "seen",
        "turns",
    )

    def __init__(self, setup: GameSetup) -> None:
        #: Hint tokens available, in the set-up's units (``GameSetup.hint_cost`` a hint).
        self.hints = setup.max_hints
        self.fuses = 0
        size = setup.hand_size
        self.deck = setup.initial_deck
        self.hands = [size] * setup.players
        #: With hand memory: per seat, what each slot may be (slot 1 first), as the masks
        #: of :mod:`engine.memory`; else None. (The clues that touched each slot are worked
        #: out from the actions when asked: :meth:`Game.hand_memory`, :class:`_SlotClues`.)
        self.memory: list[list[int]] | None = None
        if setup.options.hand_memory:
            self.memory = [[setup.fresh_mask] * size for _ in range(setup.players)]
        #: Top rank of each firework, indexed by colour (0: none yet).
        self.fireworks = [0] * len(Color)
        #: Played plus discarded copies of each card, indexed by ``Card.ordinal``.
        self.seen = [0] * len(ALL_CARDS)
        #: The discard pile in the order cards reached it (misplays included).
        self.discards: list[Card] = []
        self.current = setup.first_player
        self.turns = 0
        self.final_round_turns_left: int | None = None
        self.end_reason: EndReason | None = None
        #: What the last hint named, for alternating clues: a colour (1), a rank (2), or
        #: nothing known (0).
        self.last_clue = 0

    def copy(self) -> Position:
        """An independent copy (a few small lists, and a list per seat with hand memory)."""
        clone = Position.__new__(Position)
        for name in Position.__slots__:
            value = getattr(self, name)
            if name == "memory" and value is not None:
                value = [seat.copy() for seat in value]  # a new list of copied seats
            elif isinstance(value, list):
                value = value.copy()
            setattr(clone, name, value)
        return clone

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in Position.__slots__)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in Position.__slots__)
        return f"Position({fields})"


class Game:
    """A game in progress: set-up + actions, folded into a :class:`Position`."""

    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        self.position = Position(setup)
        self.actions: list[Action] = []
        self._events: list[Event] = []
        self._slot_clues: _SlotClues | None = None  # made by hand_memory, dropped by undo

    @classmethod
    def replay(cls, setup: GameSetup, actions: list[Action]) -> Game:
        """Fold ``actions`` over the set-up. Raises the first refusal."""
        game = cls(setup)
        game.fold_all(actions)
        return game

    @property
    def events(self) -> list[Event]:
        """What each action did, in order: one :class:`Event` per action.

        :meth:`fold` (a replay) does not describe its actions: their events are worked out
        here, all at once, the first time they are asked for.
        """
        if len(self._events) < len(self.actions):
            described = Game(self.setup)
            for action in self.actions:
                described.apply(action)
            self._events = described._events
        return self._events

    # -- acting -----------------------------------------------------------

    def apply(self, action: Action) -> Event:
        """Apply one action, or raise :class:`~engine.errors.IllegalAction` and change nothing."""
        events = self.events  # those of earlier folded actions first, if any
        hinted = _check(self.setup, self.position, action, self.actions)
        event = _advance(self.setup, self.position, action, hinted)
        assert event is not None  # described
        self.actions.append(action)
        events.append(event)
        return event

    def fold(self, action: Action) -> None:
        """:meth:`apply` without describing the action: a replay (the referee checking a log)
        reads no event, and :attr:`events` works them out when they are asked for."""
        self.fold_all((action,))

    def fold_all(self, actions: Iterable[Action]) -> None:
        """:meth:`fold` each action in turn, in one loop (a replay's); the first refusal is
        raised, and ``len(self.actions)`` is then the index of the action refused."""
        setup, position, folded = self.setup, self.position, self.actions
        for action in actions:
            hinted = _check(setup, position, action, folded)
            _advance(setup, position, action, hinted, False)
            folded.append(action)

    def check(self, action: Action) -> None:
        """Raise the refusal ``action`` would get, if any; change nothing."""
        _check(self.setup, self.position, action, self.actions)

    def check_kind(self, kind: type[Play] | type[Discard]) -> None:
        """Raise the refusal a play or a discard would get whatever its card (the game is
        over, no card in hand, all 8 hint tokens for a discard), so that a table hears it
        before it picks the card; change nothing.

        >>> from engine import GameSetup
        >>> Game(GameSetup(players=2)).check_kind(Discard)
        Traceback (most recent call last):
        ...
        engine.errors.HintTokensFull: All 8 hint tokens are available: you cannot discard
        """
        if self.position.end_reason is not None:
            raise errors.GameIsOver()
        _check_before_the_card(self.setup, self.position, kind)

    def check_color(self, color: Color) -> None:
        """Raise :class:`~engine.errors.SuitNotInGame` if this game has no suit of ``color``
        (a card's colour or an announcement, refused as soon as it is picked)."""
        _check_suit(self.setup, color)

    def check_slot(self, slot: int) -> None:
        """Raise the refusal a play or a discard from ``slot`` gets whatever its card (no
        hand memory, no such slot), so that the table hears it before it picks the card.

        >>> from engine import GameOptions, GameSetup
        >>> Game(GameSetup(players=4, options=GameOptions(hand_memory=True))).check_slot(5)
        Traceback (most recent call last):
        ...
        engine.errors.NoSuchSlot: Player 1 has 4 cards: there is no slot 5
        """
        if self.position.end_reason is not None:
            raise errors.GameIsOver()
        _check_slots(self.setup, self.position, self.position.current, (slot,))

    def hand_memory(self, seat: int) -> tuple[SlotKnowledge, ...]:
        """What the hints told ``seat`` about each card, slot 1 (the newest) first; an
        empty tuple without hand memory. (The referee keeps only the masks; the clues that
        touched each slot are folded from the actions here, the new ones at each call.)"""
        memory = self.position.memory
        if memory is None:
            return ()
        if self._slot_clues is None:
            self._slot_clues = _SlotClues(self.setup)
        clues = self._slot_clues.after(self.actions, memory)
        return tuple(map(knowledge, memory[seat], clues[seat]))

    def preview(self, action: Action) -> Event:
        """What ``action`` would do, without doing it (for a confirm step)."""
        hinted = _check(self.setup, self.position, action, self.actions)
        event = _advance(self.setup, self.position.copy(), action, hinted)
        assert event is not None  # described
        return event

    def undo(self) -> Action:
        """Drop the last action (even after the end) and return it."""
        if not self.actions:
            raise errors.NothingToUndo()
        undone = self.actions[-1]
        kept = self.actions[:-1]
        self.position = Position(self.setup)
        self.actions = []
        self._events = []
        self._slot_clues = None
        for action in kept:
            self.apply(action)
        return undone

    # -- what the table knows -------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.position.end_reason is not None

    @property
    def end_reason(self) -> EndReason | None:
        return self.position.end_reason

    @property
    def outcome(self) -> Outcome | None:
        reason = self.position.end_reason
        return None if reason is None else reason.outcome

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None once the game is over."""
        return None if self.is_over else self.position.current

    @property
    def fireworks_total(self) -> int:
        """The sum of the fireworks' top cards."""
        fireworks = self.position.fireworks
        return sum(fireworks[suit.color] for suit in self.setup.suits)

    @property
    def score(self) -> int:
        """The score as the rules count it: 0 for a lost game unless the option keeps it."""
        if self.outcome is Outcome.LOST and not self.setup.options.strikeout_keeps_score:
            return 0
        return self.fireworks_total

    def firework_limits(self) -> dict[Color, int]:
        """For each colour, the highest rank its firework can still reach."""
        position, copies = self.position, self.setup.copies
        limits = {}
        for suit in self.setup.suits:
            top = limit = position.fireworks[suit.color]
            base = suit.color * 5
            for rank in range(top + 1, 6):
                if position.seen[base + rank - 1] >= copies[base + rank - 1]:
                    break
                limit = rank
            limits[suit.color] = limit
        return limits

    def plays_left(self) -> int:
        """The most cards the team can still play, counting turns and cards."""
        position = self.position
        if self.is_over:
            return 0
        if self.setup.options.crowning_piece:
            return position.deck + sum(position.hands)
        if position.final_round_turns_left is not None:
            return position.final_round_turns_left
        return position.deck + self.setup.players

    @property
    def max_score(self) -> int:
        """The highest score still reachable from what has been revealed."""
        if self.is_over:
            return self.score
        total = self.fireworks_total
        missing = sum(self.firework_limits().values()) - total
        return total + min(missing, self.plays_left())

    @property
    def pace(self) -> int | None:
        """Discards the team can still afford before :attr:`max_score` drops."""
        if self.is_over:
            return None
        return self.plays_left() - (self.max_score - self.fireworks_total)

    def critical_cards(self) -> list[Card]:
        """Cards still needed whose every other copy is gone (the last copy)."""
        position, copies = self.position, self.setup.copies
        critical = []
        for color, limit in self.firework_limits().items():
            for rank in range(position.fireworks[color] + 1, limit + 1):
                card = Card(color, rank)
                if copies[card.ordinal] - position.seen[card.ordinal] == 1:
                    critical.append(card)
        return critical

    def lost_cards(self) -> list[Card]:
        """Cards a firework still needed whose every copy is gone (a discard pile's "×")."""
        position, copies = self.position, self.setup.copies
        needed = (
            Card(suit.color, rank)
            for suit in self.setup.suits
            for rank in range(position.fireworks[suit.color] + 1, 6)
        )
        return [card for card in needed if position.seen[card.ordinal] >= copies[card.ordinal]]

    def unseen(self, color: Color) -> int:
        """How many cards of a suit nobody has seen face up yet (neither played nor
        discarded): in the hands and the draw pile, what players count late in a game."""
        copies, seen = self.setup.copies, self.position.seen
        ordinals = [Card(color, rank).ordinal for rank in range(1, 6)]
        return sum(copies[ordinal] - seen[ordinal] for ordinal in ordinals)

    def dead_fireworks(self) -> list[Color]:
        """Fireworks that can no longer be completed (a card they need is gone)."""
        return [color for color, limit in self.firework_limits().items() if limit < 5]

    def final_round_order(self) -> list[int] | None:
        """The seats still to play in the final round, in order; None outside it."""
        left = self.position.final_round_turns_left
        if left is None or self.is_over:
            return None
        players, current = self.setup.players, self.position.current
        return [(current + i) % players for i in range(left)]

    @property
    def rating(self) -> Rating | None:
        """The rating band once the game is over; None while playing and when lost.

        The crowning piece has no scale (perfect or lost): its only rated result is the
        perfect display, whose band (legendary, or divine with six suits) says just that.
        """
        if not self.is_over or self.outcome is Outcome.LOST:
            return None
        return rating_for(self.score, self.setup.max_score)


# -- the rules themselves ---------------------------------------------------


def _check(
    setup: GameSetup, position: Position, action: Action, played: list[Action]
) -> list[int] | None:
    """Raise the refusal for ``action`` in ``position``, which ``played`` (the actions so
    far) folded into; change nothing. (``played`` words one refusal: the clues a slot had.)

    With hand memory, a hint's check works out the receiver's hand after it (its masks, to
    find a contradiction) and returns it, so that :func:`_advance` stores it without doing
    that work again; None for anything else.
    """
    if position.end_reason is not None:
        raise errors.GameIsOver()
    player = position.current
    claimed = action.player
    if claimed is not None and claimed != player:
        if not 0 <= claimed < setup.players:
            raise errors.NoSuchSeat(seat=claimed, players=setup.players)
        raise errors.NotYourTurn(names=setup.names, player=player, claimed=claimed)
    if type(action) is Hint:
        return _check_hint(setup, position, action, player)
    kind = type(action)
    if kind is not Play and kind is not Discard:
        raise TypeError(f"not an action: {action!r}")
    _check_before_the_card(setup, position, kind)
    slot = action.slot
    # Kept for the speed guard: the call only for a wrong slot (~9 % of a hand-memory replay).
    if slot is not None and (
        position.memory is None or type(slot) is not int or not 1 <= slot <= position.hands[player]
    ):
        _check_slots(setup, position, player, (slot,))  # raises, saying why
    card = action.card
    index = card.ordinal
    copies = setup.copies[index]
    if copies == 0:
        raise errors.SuitNotInGame(card=card)
    if position.seen[index] >= copies:
        raise errors.CardExhausted(card=card, copies=copies)
    if type(action) is Play and action.announce is not None:
        if not setup.options.timed_display:
            raise errors.AnnounceNotAllowed()
        _check_suit(setup, action.announce)
    memory = position.memory
    if memory is not None:
        # last, as a hint's missing slots: a card refused whatever its slot is said first
        if slot is None:
            raise errors.SlotNeeded()
        if not memory[player][slot - 1] & CARD_BITS[index]:
            clues = _SlotClues(setup).after(played, memory)[player][slot - 1]
            _refuse_card_in_slot(setup, knowledge(memory[player][slot - 1], clues), slot, card)
    return None


def _check_suit(setup: GameSetup, color: Color) -> None:
    if setup.suit(color) is None:
        raise errors.SuitNotInGame(color=color)


def _check_before_the_card(
    setup: GameSetup, position: Position, kind: type[Play] | type[Discard]
) -> None:
    """The refusals a play or a discard meets whatever its card."""
    if position.hands[position.current] == 0:
        raise errors.EmptyHand()
    if kind is Discard and position.hints >= setup.max_hints and not setup.discard_when_tokens_full:
        raise errors.HintTokensFull()


def _check_hint(setup: GameSetup, position: Position, hint: Hint, player: int) -> list[int] | None:
    """The refusals of a hint (RULES.md section 4). With hand memory (section 8) it also names
    its receiver, one clue and the slots it touched, and contradicts no earlier hint: then it
    returns the receiver's hand after it (its masks, worked out to find a contradiction), for
    :func:`_advance` to store; None without hand memory."""
    if position.hints < setup.hint_cost:
        raise errors.NoHintTokens()
    hands = position.hands
    to, color, rank, slots = hint.to, hint.color, hint.rank, hint.slots
    # may this hint touch no card (the option, or a variant's clues that touch nothing)?
    if color is not None:
        empty = setup.empty_color_hints
    else:
        empty = setup.empty_rank_hints if rank is not None else setup.empty_hints
    if to is not None:
        if not 0 <= to < setup.players:
            raise errors.NoSuchSeat(seat=to, players=setup.players)
        if to == player:
            raise errors.HintToSelf()
        if hands[to] == 0 and not empty:
            raise errors.HintToEmptyHand(names=setup.names, seat=to)
    elif not empty and sum(hands) == hands[player]:
        raise errors.NoOneToHint()  # every other hand is empty
    if color is not None:
        if rank is not None:
            raise errors.HintNamesBoth()
        suit = setup.suit(color)
        if suit is None:
            raise errors.SuitNotInGame(color=color)
        if not suit.named_in_hints:
            _refuse_color(setup, suit.touched_by_every_color_hint, color)
        if setup.alternating and position.last_clue == 1:
            raise errors.HintMustNameRank()
    elif rank is not None:
        if rank not in setup.clue_ranks:
            if rank not in (1, 2, 3, 4, 5):
                raise errors.NoSuchRank(rank=rank)
            if not setup.clue_ranks:
                raise errors.NoRankHints()
            raise errors.RankHintNotAllowed(rank=rank)
        if setup.alternating and position.last_clue == 2:
            raise errors.HintMustNameColor()
    memory = position.memory
    if memory is None:
        if slots is not None:
            raise errors.SlotsNotRecorded()
        return None
    # Hand memory: what the hint tells the receiver's slots (engine.memory's masks).
    if to is None or slots is None:
        raise errors.HintNeedsSlots()
    if color is not None:
        clue: Clue = color
        touched, missed = setup.color_clues[color]
    elif rank is not None:
        clue = rank
        touched, missed = setup.rank_clues[rank]
    else:
        raise errors.HintNeedsSlots()
    # A missed slot loses what the clue answers, a touched one keeps only that.
    _check_slots(setup, position, to, slots)
    before = memory[to]
    after = [mask & missed for mask in before]
    for slot in slots:
        after[slot - 1] = before[slot - 1] & touched
    if len(slots) > 1 and len(set(slots)) < len(slots):  # one slot cannot repeat (no set)
        _refuse_repeated_slot(slots)
    if not slots and not empty:
        raise errors.HintTouchesNothing()
    if 0 in after:
        _refuse_contradiction(setup, to, clue, slots, after)
    return after


def _refuse_color(setup: GameSetup, touched_by_every_color_hint: bool, color: Color) -> NoReturn:
    """Raise the refusal of a hint naming a colour the variant's hints do not name."""
    if touched_by_every_color_hint:
        raise errors.HintColorNotAllowed(color=color)
    if not setup.rules.named_colors():
        raise errors.NoColorHints()
    raise errors.HintColorNotNamed(color=color)


# The words of a refusal live in functions of their own: a closure (a generator expression,
# a lambda) in the checking function would make a cell for its variables at every call.


def _refuse_repeated_slot(slots: tuple[int, ...]) -> NoReturn:
    repeated = next(slot for slot in slots if slots.count(slot) > 1)
    raise errors.SlotRepeated(slot=repeated)


def _refuse_contradiction(
    setup: GameSetup, to: int, clue: Clue, slots: tuple[int, ...], after: list[int]
) -> NoReturn:
    """Raise the refusal of a hint that leaves a slot of ``to``'s hand (``after`` it) nothing
    (RULES.md section 8)."""
    empty = [number for number, mask in enumerate(after, start=1) if mask == 0]
    # A slot the hint should have touched first: the likelier slip is a mis-pointed hint.
    number = min(empty, key=lambda number: (number in slots, number))
    refusal = errors.HintCannotTouch if number in slots else errors.HintMustTouch
    raise refusal(names=setup.names, seat=to, slot=number, **_clue_params(clue))


def _check_slots(setup: GameSetup, position: Position, seat: int, slots: tuple[int, ...]) -> None:
    """Slots a card of ``seat`` can be in: a play's or a discard's one, a hint's."""
    if position.memory is None:
        raise errors.SlotsNotRecorded()
    size = position.hands[seat]
    for slot in slots:
        if type(slot) is not int or not 1 <= slot <= size:
            raise errors.NoSuchSlot(names=setup.names, seat=seat, slot=slot, size=size)


def _clue_params(clue: Color | int) -> dict[str, Any]:
    """A refusal's parameter for a clue: ``color`` or ``rank``."""
    return {"color": clue} if isinstance(clue, Color) else {"rank": clue}


def _refuse_card_in_slot(setup: GameSetup, slot: SlotKnowledge, number: int, card: Card) -> None:
    """Raise the refusal of a revealed card its slot cannot hold (RULES.md section 8): a
    hint that touched the slot and cannot touch the card, else the colour or the rank the
    hints ruled out, else the card itself (a special suit's or rank's rules)."""
    fact: Color | int | None = None
    kind: type[Color] | type[int] | None = None
    if card.color not in slot.colors:
        fact, kind = card.color, Color
    elif card.rank not in slot.ranks:
        fact, kind = card.rank, int
    bit = CARD_BITS[card.ordinal]
    for clue in slot.clues:
        if kind is not None and (type(clue) is Color) != (kind is Color):
            continue  # the clue of the kind that rules the card out is the one to name
        touched = setup.color_clues[clue][0] if type(clue) is Color else setup.rank_clues[clue][0]
        if not touched & bit:
            raise errors.CardNotInSlot(slot=number, card=card, **_clue_params(clue))
    if fact is None:
        raise errors.CardNotPossible(slot=number, card=card)
    raise errors.CardRuledOut(slot=number, card=card, **_clue_params(fact))


def _advance(
    setup: GameSetup,
    position: Position,
    action: Action,
    hinted: list[int] | None,
    describe: bool = True,
) -> Event | None:
    """Apply a checked action to ``position`` and say what happened (None when not asked
    to ``describe`` it: a replay's fold); ``hinted`` is what :func:`_check` returned (with
    hand memory, the receiver's hand after a hint)."""
    player = position.current
    card: Card | None = None
    fuse_burnt = completed = bonus_lost = drew = final_round_started = False
    announce_right: bool | None = None
    end: EndReason | None = None
    hands = position.hands
    discarded = False  # the card went to the discard pile (not a misplay)

    if type(action) is Hint:
        position.hints -= setup.hint_cost
        hints_change = -setup.hint_cost
        if setup.alternating:  # what it named, if the table said
            position.last_clue = 1 if action.color is not None else 2 * (action.rank is not None)
        if hinted is not None:  # hand memory: the receiver's masks after the hint
            assert position.memory is not None and action.to is not None
            position.memory[action.to] = hinted
    else:
        card = action.card
        color, rank = card
        index = card.ordinal
        position.seen[index] += 1
        hints_change = 0
        # an inverted suit's card (orange) is discarded when played, played when discarded
        if (type(action) is Discard) is not setup.inverted[index]:
            discarded = True
            position.discards.append(card)
            if position.hints < setup.max_hints:
                position.hints += 1
                hints_change = 1
            else:  # a discard with every token available: an inverted suit's variant
                bonus_lost = True
        else:
            announce = action.announce if type(action) is Play else None
            if announce is not None:
                announce_right = announce is color
            if rank == position.fireworks[color] + 1 and announce_right is not False:
                position.fireworks[color] = rank
                completed = rank == 5
                earned = completed * setup.token_for_a_firework + (announce_right is True)
                if earned:  # most plays earn nothing
                    room = setup.max_hints - position.hints
                    hints_change = min(earned, room)
                    bonus_lost = earned > room
                    position.hints += hints_change
                # every firework complete: they add up to the highest score
                if completed and sum(position.fireworks) == setup.max_score:
                    end = EndReason.PERFECT
            else:  # a misplay
                position.discards.append(card)
                position.fuses += 1
                fuse_burnt = True
                if position.fuses >= MAX_FUSES:
                    end = EndReason.STRIKEOUT
        if (  # the last copy of a card its firework still needs is gone (not played)
            end is None
            and setup.options.crowning_piece
            and rank > position.fireworks[color]
            and position.seen[index] == setup.copies[index]
        ):
            end = EndReason.CRITICAL_DISCARD
        if end is None and position.deck > 0:  # a card drawn: the hand keeps its size
            position.deck -= 1
            drew = True
            final_round_started = position.deck == 0 and not setup.options.crowning_piece
        else:
            hands[player] -= 1
        if position.memory is not None and action.slot is not None:
            leave_slot(position.memory[player], action.slot, drew, setup.fresh_mask)

    position.turns += 1
    if end is None:
        if position.final_round_turns_left is not None:
            position.final_round_turns_left -= 1
            if position.final_round_turns_left == 0:
                end = EndReason.FINAL_ROUND
        elif final_round_started:
            position.final_round_turns_left = setup.players
    if end is None:
        following = (player + 1) % setup.players
        position.current = following
        if hands[following] == 0 and (
            position.hints < setup.hint_cost
            or (not setup.empty_hints and not any(size for size in hands))
        ):
            end = EndReason.NO_LEGAL_ACTION
    if end is not None:
        position.end_reason = end
        position.final_round_turns_left = None

    if not describe:
        return None
    return Event(
        turn=position.turns,
        player=player,
        action=action,
        kind=_event_kind(action, fuse_burnt, discarded),
        card=card,
        hints_change=hints_change,
        fuse_burnt=fuse_burnt,
        firework_completed=completed,
        bonus_lost=bonus_lost,
        announce_right=announce_right,
        drew=drew,
        final_round_started=final_round_started,
        end=end,
        hints_after=position.hints,
        fuses_after=position.fuses,
    )


def _event_kind(action: Action, fuse_burnt: bool, discarded: bool) -> EventKind:
    if type(action) is Hint:
        return EventKind.HINT
    if discarded:
        return EventKind.DISCARD
    return EventKind.MISPLAY if fuse_burnt else EventKind.PLAY


class _SlotClues:
    """The clues that touched each slot, per seat (slot 1 first), worked out from the actions.

    Only :meth:`Game.hand_memory` and one refusal's words read them, so the referee does
    not keep them up to date at every action: they are folded in when asked.

    The cards move as :func:`_advance` moves the masks (:func:`~engine.memory.leave_slot`):
    a hint adds its clue to the slots it touched; a card played or discarded leaves its
    slot, and the card drawn, if any, takes slot 1. A card is drawn while the deck has one,
    unless the action ended the game first (a perfect game, the third fuse, a critical
    discard): only the last action can have done that, so whether it drew is read from
    the length of the hand's masks. Asked again after more actions, it folds only the new
    ones (:meth:`Game.undo` starts it again).
    """

    __slots__ = ("current", "deck", "folded", "players", "seats")

    def __init__(self, setup: GameSetup) -> None:
        self.seats: list[list[tuple[Clue, ...]]] = [
            [()] * setup.hand_size for _ in range(setup.players)
        ]
        self.deck = setup.initial_deck
        self.current = setup.first_player
        self.folded = 0  # the actions already folded in
        self.players = setup.players

    def after(self, actions: list[Action], memory: list[list[int]]) -> list[list[tuple[Clue, ...]]]:
        """The clues of every seat's slots after ``actions`` (which begin with those already
        folded in), whose masks are ``memory``."""
        last = len(actions)
        for number in range(self.folded, last):
            action = actions[number]
            if type(action) is Hint:
                assert action.to is not None and action.slots is not None
                clue: Clue | None = action.color if action.color is not None else action.rank
                assert clue is not None
                seat = self.seats[action.to]
                for slot in action.slots:
                    seat[slot - 1] += (clue,)
            else:
                assert action.slot is not None
                seat = self.seats[self.current]
                # a card was drawn unless the deck was empty or the game's last action ended it
                drew = self.deck > 0 and (
                    number < last - 1 or len(seat) - 1 < len(memory[self.current])
                )
                if drew:
                    self.deck -= 1
                leave_slot(seat, action.slot, drew, ())
            self.current = (self.current + 1) % self.players
        self.folded = last
        return self.seats
