"""What the entry under way asks and shows: the controller's mixin that reads it.

:class:`EntryView` (over :class:`~companion.core.state.ControllerState`) gives the
entry's step, the soft keys' choices, its preview and its refusal; the panel reads it,
the flows use it. The :class:`~companion.core.entry.Entry` value is in ``entry``.
"""

from __future__ import annotations

from companion.core.entry import (
    CLUES_PER_PAGE,
    MORE_CLUES,
    NOT_YET_COMPLETE,
    EntryKind,
    EntryStep,
)
from companion.core.state import ControllerState
from engine.actions import Action, Play
from engine.errors import IllegalAction
from hardware.events import (
    ChooseColor,
    ChooseRank,
    ChooseSeat,
    ChooseSlot,
    InputEvent,
)


class EntryView(ControllerState):
    """What the entry under way asks and shows: read by the panel, used by the flows."""

    def receivers(self) -> list[int]:
        """Who a hint may be for: every other seat, the next player first."""
        game = self.game
        if game is None:
            return []
        players, current = game.setup.players, game.position.current
        return [(current + i) % players for i in range(1, players)]

    def clue_pages(self) -> list[list[InputEvent]]:
        """A hint's clues, as pages of soft choices: the colours a hint may name, five
        to a page, then the ranks."""
        game = self.game
        if game is None:
            return []
        colors: list[InputEvent] = [
            ChooseColor(suit.color) for suit in game.setup.suits if suit.named_in_hints
        ]
        pages = [colors[i : i + CLUES_PER_PAGE] for i in range(0, len(colors), CLUES_PER_PAGE)]
        return [*pages, [ChooseRank(rank) for rank in range(1, 6)]]

    def entry_hand(self) -> int | None:
        """The seat whose hand the slot steps show: a hint's receiver, else the player."""
        entry, game = self.entry, self.game
        if entry is None or game is None:
            return None
        if entry.kind is EntryKind.HINT:
            return entry.to
        return game.position.current

    def entry_step(self) -> EntryStep | None:
        """Which part of the entry is asked; None when no entry is under way."""
        entry = self.entry
        if entry is None:
            return None
        if entry.kind is EntryKind.HINT:
            if not self.hand_memory:
                return EntryStep.CLUE  # the content level: the clue records the hint
            if entry.to is None:
                return EntryStep.RECEIVER
            if entry.clue is None:
                return EntryStep.CLUE
            return EntryStep.SLOTS
        if entry.choosing_announce:
            return EntryStep.ANNOUNCE
        # the slot: first when the card is typed (the player takes it from the hand,
        # then shows it), after "play or discard?" when a reader read it first
        if (
            self.hand_memory
            and entry.slot is None
            and (entry.card is None or entry.kind is not None)
        ):
            return EntryStep.SLOT
        if entry.color is None:
            return EntryStep.COLOR
        if entry.rank is None:
            return EntryStep.RANK
        if entry.kind is None:
            return EntryStep.KIND
        return EntryStep.CONFIRM

    def soft_choices(self) -> list[object]:
        """What each soft key picks on the entry screen, in button order."""
        step = self.entry_step()
        if self.game is None or step is None:
            return []
        if step in (EntryStep.COLOR, EntryStep.ANNOUNCE):
            return list(self.game.setup.colors)
        if step is EntryStep.RANK:
            return [1, 2, 3, 4, 5]
        if step is EntryStep.RECEIVER:
            return [ChooseSeat(seat) for seat in self.receivers()]
        if step is EntryStep.CLUE:
            pages = self.clue_pages()
            assert self.entry is not None
            page = pages[self.entry.clue_page % len(pages)]
            return [*page, MORE_CLUES]
        if step in (EntryStep.SLOTS, EntryStep.SLOT):
            seat = self.entry_hand()
            assert seat is not None
            return [ChooseSlot(slot) for slot in range(1, self.game.position.hands[seat] + 1)]
        return []

    def _refusal(self, action: Action) -> IllegalAction | None:
        """The refusal ``action`` gets, setting aside that its slots are still to come."""
        game = self.game
        assert game is not None
        try:
            game.check(action)
        except IllegalAction as error:
            if error.code not in NOT_YET_COMPLETE:
                return error
        return None

    def entry_refusal(self) -> IllegalAction | None:
        """Why the entry, complete, would be refused (then OK changes it), or None."""
        if self.entry is None or not isinstance(self.preview, IllegalAction):
            return None
        if self.entry_step() not in (EntryStep.CONFIRM, EntryStep.SLOTS):
            return None
        return self.preview

    def _update_preview(self) -> None:
        entry, game = self.entry, self.game
        self.preview = None
        if entry is None or game is None:
            return
        player = game.position.current
        if entry.kind is EntryKind.HINT:
            hint = entry.action(player, hand_memory=self.hand_memory)
            if hint is not None and entry.touched:  # nothing touched yet: nothing to say
                try:
                    self.preview = game.preview(hint)
                except IllegalAction as error:
                    self.preview = error
            return
        if entry.card is None:
            return
        action = entry.action(player, hand_memory=self.hand_memory)
        if action is None:
            if self.hand_memory:
                return  # no preview before the slot is known: where it was decides
            action = Play(entry.card, player=player)
        try:
            self.preview = game.preview(action)
        except IllegalAction as error:
            self.preview = error
