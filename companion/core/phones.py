"""Phones at the table: their moves (an action, an undo, a preview), their pairing, and
the Phones page of the panel.

:class:`PhonesFlow` is the controller's mixin for them (a flow over
:class:`~companion.core.state.ControllerState`). A phone's request is judged as the
panel's entry is, against the position the phone saw, and answered with a
:class:`~companion.core.effects.PhoneReply` and its
:class:`~companion.core.effects.PhoneOutcome`; an accepted action goes through the one
record path, :meth:`~companion.core.state.ControllerState._record`.
"""

from __future__ import annotations

from msgspec.structs import replace

from companion.core import i18n
from companion.core.effects import (
    Effect,
    Info,
    NewPairingCode,
    NewTableCode,
    PairPhone,
    PhoneOutcome,
    PhoneReply,
    Refused,
    Shown,
    Undone,
    UnpairPhone,
)
from companion.core.results import (
    PairingCodeMade,
    PhonePaired,
    PhoneRemoved,
    PhonesLoaded,
    PhonesServed,
)
from companion.core.revealing import RevealFlow
from companion.core.state import Screen
from companion.vocabulary.phone import (
    PAIRING_TRIES_PER_CODE,
    PairedPhone,
    PhoneMove,
    PhonePair,
    PhoneSetup,
    clean_name,
)
from engine.errors import IllegalAction
from engine.options import SetupError
from engine.reveal import Reveal
from hardware.events import InputEvent, Key, Press, Select

#: The Phones page's button that makes a new table code.
NEW_CODE = Select("phones_new_code")
#: How long the panel asks "Pair Di's phone?": the server waits 90 s for the answer
#: (``PAIR_ANSWER_SECONDS`` in companion/web/server.py), the question a little less.
PAIR_QUESTION_SECONDS = 85.0
#: The panel's answers to "Pair Di's phone?" (as OK and BACK).
PAIR_YES = Select("phones_pair_yes")
PAIR_NO = Select("phones_pair_no")
#: The Phones page's button that removes a paired phone: this, then the phone's id. It
#: asks first ("Remove Di's phone? OK"), answered as OK and BACK are.
REMOVE_PHONE = "remove_phone:"
REMOVE_YES = Select("phones_remove_yes")
REMOVE_NO = Select("phones_remove_no")

PhonesResult = PhonesServed | PhonesLoaded | PhonePaired | PhoneRemoved | PairingCodeMade


class PhonesFlow(RevealFlow):
    """A paired phone's moves, a phone's pairing, and the Phones page's keys."""

    def _phone_move(self, move: PhoneMove) -> list[Effect]:
        """A paired phone's action, undo or preview: checked as the panel's, against the
        position the phone saw; answered (and, accepted, recorded) by the app."""
        phone = self.paired.get(move.token_hash)
        if phone is None:
            return [PhoneReply(move, 0, Info("phone_not_paired"), PhoneOutcome.NOT_PAIRED)]
        game = self.game
        keep = not move.preview_only
        if game is None:
            no_game = PhoneOutcome.NO_GAME
            return [PhoneReply(move, phone.id, Info("phone_no_game"), no_game, keep=keep)]
        count = len(game.actions)
        if move.position != count:
            if move.position < count:
                what = i18n.describe_event(
                    self.language, game.events[-1], game.setup.names, game.setup.hint_cost
                )
                moved: Info = Info("phone_moved_on", (("what", what),))
            else:
                moved = Info("phone_moved_back")
            stale = PhoneOutcome.STALE
            return [PhoneReply(move, phone.id, moved, stale, count, keep=keep)]
        if move.action is None:
            return self._phone_undo(move, phone)
        if isinstance(move.action, Reveal):  # its seat's hand, at the end
            return self._phone_reveal(move, phone, move.action)
        action = replace(move.action, player=game.position.current)
        if move.preview_only:
            try:
                event = game.preview(action)
            except IllegalAction as error:
                refused = PhoneOutcome.PREVIEW_REFUSED
                return [PhoneReply(move, phone.id, Refused(error), refused, count)]
            previewed = PhoneOutcome.PREVIEWED
            return [PhoneReply(move, phone.id, None, previewed, count, preview=event)]
        return self._record(action, phone, move)

    def _phone_undo(self, move: PhoneMove, phone: PairedPhone) -> list[Effect]:
        """A phone's undo (or its preview): the last action taken back, if there is one."""
        game = self.game
        assert game is not None
        if not game.actions:
            keep = not move.preview_only
            nothing = PhoneOutcome.NOTHING_TO_UNDO
            return [PhoneReply(move, phone.id, Info("undo_nothing"), nothing, 0, keep=keep)]
        if move.preview_only:
            shown = self.reveals.shown  # the last hand shown goes first
            message: Undone | Shown = (
                Shown(shown[-1], by=phone.name, undone=True)
                if shown
                else Undone(game.events[-1], by=phone.name)
            )
            previewed = PhoneOutcome.PREVIEWED
            return [PhoneReply(move, phone.id, message, previewed, len(game.actions))]
        return [self._undo(phone, move)]

    def _phone_setup(self, request: PhoneSetup) -> list[Effect]:
        """A paired phone chooses the next game's variant, while the panel shows the
        set-up (a search open there closes on it); the panel says which phone chose
        what. Start, and every other row, stay the panel's (decision 0124)."""
        phone = self.paired.get(request.token_hash)
        if phone is None:
            return [PhoneReply(request, 0, Info("phone_not_paired"), PhoneOutcome.NOT_PAIRED)]
        if self.screen is not Screen.SETUP:
            closed = PhoneOutcome.SETUP_CLOSED
            return [PhoneReply(request, phone.id, Info("phone_setup_closed"), closed)]
        try:
            self.draft.choose_variant(request.variant)
        except SetupError:  # not a name of the list the page was given
            unknown = Info("phone_variant_unknown")
            return [PhoneReply(request, phone.id, unknown, PhoneOutcome.REFUSED)]
        self.variant_search = None
        variant = request.variant or i18n.tr(self.language, "variant_none")
        chosen = Info("phone_variant_chosen", (("variant", variant), ("phone", phone.name)))
        self.message = chosen
        return [PhoneReply(request, phone.id, chosen, PhoneOutcome.RECORDED)]

    def _phone_pair(self, request: PhonePair) -> list[Effect]:
        """Pairing needs the code the Phones page shows, while it shows it, and then the
        panel's OK ("Pair Di's phone? OK"): someone at the table opened the page and says
        yes. A wrong code changes nothing (the person typing the right one is not
        refused); the code changes once a phone is paired with it."""
        code = self.pairing_code
        if self.screen is not Screen.PHONES or code is None:
            closed = PhoneOutcome.PAGE_CLOSED
            return [PhoneReply(request, 0, Info("phone_pair_page_closed"), closed)]
        import hmac  # a phone pairing: not at start

        misses = self.pairing_misses.get(request.address, 0)
        if misses >= PAIRING_TRIES_PER_CODE:  # this address's guesses at this code are spent
            spent = PhoneOutcome.CODE_SPENT
            return [PhoneReply(request, 0, Info("phone_pair_code_spent"), spent)]
        if not hmac.compare_digest(request.code.encode(), code.encode()):
            self.pairing_misses[request.address] = misses + 1
            wrong = PhoneOutcome.WRONG_CODE
            return [PhoneReply(request, 0, Info("phone_pair_wrong"), wrong)]
        self._forget_stale_question()
        if self.pending_pair is not None:
            busy = PhoneOutcome.PAIR_BUSY
            return [PhoneReply(request, 0, Info("phone_pair_busy"), busy)]
        self.pending_pair = request
        self.pending_since = self._clock() if self._clock else None
        return []

    def _forget_stale_question(self) -> None:
        """A question asked longer than :data:`PAIR_QUESTION_SECONDS` ago is dropped: the
        phone stopped waiting (the server answers it "no answer in time"), and an OK
        then would pair a phone that never got its token."""
        since, clock = self.pending_since, self._clock
        if self.pending_pair is None or since is None or clock is None:
            return
        from datetime import datetime  # a phone waiting for the panel: not at start

        asked = datetime.fromisoformat(clock()) - datetime.fromisoformat(since)
        if asked.total_seconds() > PAIR_QUESTION_SECONDS:
            self.pending_pair = self.pending_since = None

    def pending_pair_name(self) -> str | None:
        """The name of the phone the panel asks about ("Pair Di's phone?"), else None."""
        request = self.pending_pair
        if request is None:
            return None
        return clean_name(request.name) or i18n.tr(self.language, "phones")

    def _on_pending_pair(self, event: InputEvent) -> list[Effect]:
        """The panel's answer to "Pair Di's phone? OK": OK pairs it (and the page shows a
        new code), BACK says no; every other input waits for the answer."""
        self._forget_stale_question()
        request = self.pending_pair
        if request is None:  # the phone stopped waiting: the key is the page's again
            return self._on_phones(event)
        if event in (Press(Key.OK), PAIR_YES):
            self.pending_pair = None
            return [PairPhone(request), NewPairingCode()]
        if event in (Press(Key.BACK), PAIR_NO):
            self.pending_pair = None
            declined = PhoneOutcome.DECLINED
            return [PhoneReply(request, 0, Info("phone_pair_declined"), declined)]
        return []

    def _apply_phones(self, result: PhonesResult) -> None:
        """The app's answer about the phones: served, loaded, paired, removed, a code."""
        if isinstance(result, PhonesServed):
            self.phones_url = result.url
            if result.renewed:
                self.message = Info("phones_new_code_done")
        elif isinstance(result, PhonesLoaded):
            self.paired = dict(result.paired)
        elif isinstance(result, PhonePaired):
            self.paired[result.token_hash] = result.phone
            self.message = Info("phone_paired", (("name", result.phone.name),))
        elif isinstance(result, PhoneRemoved):
            for token_hash, phone in list(self.paired.items()):
                if phone.id == result.phone_id:
                    del self.paired[token_hash]
                    self.message = Info("phone_removed", (("name", phone.name),))
        else:  # a new code: no wrong guess at it yet; a phone still waiting is forgotten
            self.pairing_code = result.code
            self.pending_pair = None
            self.pairing_misses = {}

    def paired_phones(self) -> list[PairedPhone]:
        """The paired phones as the Phones page lists them: the first paired first."""
        return sorted(self.paired.values(), key=lambda phone: phone.id)

    def focused_phone(self) -> PairedPhone | None:
        """The paired phone at the Phones page's focus; None: the page shows its code.
        A phone removed meanwhile moves the focus to the one listed after it (or before
        it, the last one gone; none left: back to the code)."""
        phones = self.paired_phones()
        if self.phone_focus is None or not phones:
            return None
        return phones[min(self.phone_focus, len(phones) - 1)]

    def removing_phone(self) -> PairedPhone | None:
        """The paired phone the panel asks about removing ("Remove Di's phone? OK"), else
        None (also once it is gone: removed meanwhile, nothing is asked)."""
        wanted = self.pending_remove
        return next((p for p in self.paired.values() if p.id == wanted), None)

    def _on_pending_remove(self, event: InputEvent) -> list[Effect]:
        """The panel's answer to "Remove Di's phone? OK": OK removes it, BACK (Cancel)
        keeps it; every other input waits for the answer."""
        phone = self.removing_phone()
        if phone is None:  # removed meanwhile: the key is the page's again
            self.pending_remove = None
            return self._on_phones(event)
        if event in (Press(Key.OK), REMOVE_YES):
            self.pending_remove = None
            return [UnpairPhone(phone.id)]
        if event in (Press(Key.BACK), REMOVE_NO):
            self.pending_remove = None
        return []

    def _on_phones(self, event: InputEvent) -> list[Effect]:
        """The Phones page: its pairing code, then (NEXT, PREVIOUS, round) each paired
        phone in turn, listed; OK asks to remove the phone at the focus, and on the code
        goes back, as BACK does (BACK on the list: to the code). Its buttons make a new
        table code and ask to remove a paired phone (a tap on one, wherever the focus
        is); the removal is OK's, after "Remove Di's phone? OK"."""
        if self.pending_pair is not None:
            return self._on_pending_pair(event)
        if self.pending_remove is not None:
            return self._on_pending_remove(event)
        if event == NEW_CODE and self.phones_url is not None:
            return [NewTableCode()]
        if isinstance(event, Select) and event.target.startswith(REMOVE_PHONE):
            phone_id = event.target.removeprefix(REMOVE_PHONE)
            for place, phone in enumerate(self.paired_phones()):
                if phone_id.isdigit() and phone.id == int(phone_id):  # asked, focused
                    self.pending_remove, self.phone_focus = phone.id, place
            return []
        if not isinstance(event, Press):
            return []
        focused, phones = self.focused_phone(), self.paired_phones()
        self.phone_focus = None if focused is None else phones.index(focused)
        count = len(phones)
        if event.key in (Key.NEXT, Key.PREVIOUS) and count:
            # the code, the first phone, ..., the last phone, the code again
            places = [None, *range(count)]
            step = 1 if event.key is Key.NEXT else -1
            self.phone_focus = places[(places.index(self.phone_focus) + step) % len(places)]
        elif event.key is Key.OK and focused is not None:
            self.pending_remove = focused.id
        elif event.key is Key.BACK and focused is not None:
            self.phone_focus = None
        elif event.key in (Key.BACK, Key.OK):
            self.screen = self._back_screen()
        return []
