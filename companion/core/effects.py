"""The controller's outputs: the effects the app carries out and the messages it says.

An effect is what the app must do, in order, before it draws again (store an action,
answer a phone, beep); a message is the last thing that happened, for the status line
and a phone's answer. A phone is answered with a :class:`PhoneOutcome`, never an HTTP
status: the web side says what each outcome is over HTTP
(:data:`companion.web.answers.HTTP_STATUS`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from msgspec import Struct

from companion.core import i18n
from companion.core.hint_level import UNKNOWN_HINT_LEVEL, HintLevel
from companion.vocabulary.phone import PhoneEvent, PhonePair
from engine.actions import Action
from engine.errors import IllegalAction
from engine.game import Event
from engine.reveal import Reveal
from engine.setup import GameSetup
from hardware.wiring import BeepKind

# -- messages: the last thing that happened, for the status line ------------


class Happened(Struct, frozen=True):
    """An action was recorded; ``event`` says what it did, ``by`` the phone that entered
    it (empty: the panel)."""

    event: Event
    by: str = ""


class Refused(Struct, frozen=True):
    """An action was refused; nothing changed."""

    error: IllegalAction


class Undone(Struct, frozen=True):
    """The last action was taken back (``by``: the phone that asked, else empty)."""

    event: Event
    by: str = ""


class Shown(Struct, frozen=True):
    """A hand was shown at the end (``undone``: taken back), ``by`` the phone that entered
    it (empty: the panel). A preview's ``reveal`` holds the cards entered so far."""

    reveal: Reveal
    by: str = ""
    undone: bool = False


class Info(Struct, frozen=True):
    """Anything else worth a line: a key of :mod:`companion.core.i18n` and its parameters."""

    key: str
    params: tuple[tuple[str, object], ...] = ()


Message = Happened | Refused | Undone | Shown | Info


def message_words(
    lang: str, message: Message | None, names: tuple[str, ...], per_token: int = 1
) -> str:
    """A message in words, as the panel's status line and a phone's answer say it; an
    action a phone entered ends with whose phone it was.

    >>> from engine import GameSetup, Game, Hint
    >>> game = Game(GameSetup(players=2, names=("Ann", "Bo")))
    >>> message_words("en", Happened(game.apply(Hint(to=1, rank=2)), by="Ann"), ("Ann", "Bo"))
    "Ann told Bo: 2s (Ann's phone)"
    """
    if isinstance(message, Refused):
        return i18n.refusal_text(lang, message.error, names)
    if isinstance(message, Info):
        return i18n.tr(lang, message.key, **dict(message.params))
    if message is None:
        return ""
    if isinstance(message, Shown):
        text = i18n.reveal_text(lang, message.reveal, names)
    else:
        text = i18n.describe_event(lang, message.event, names, per_token)
    if isinstance(message, Undone) or (isinstance(message, Shown) and message.undone):
        text = i18n.tr(lang, "ev_undone", what=text)
    if message.by:
        text = i18n.tr(lang, "entered_on_phone", text=text, name=message.by)
    return text


# -- a phone's answer ----------------------------------------------------------


class PhoneOutcome(StrEnum):
    """How the controller judged a phone's request: what its answer is about."""

    RECORDED = "recorded"  # the action or the undo was recorded (stored, then answered)
    PREVIEWED = "previewed"  # a preview asked for: what the action would do
    PREVIEW_REFUSED = "preview_refused"  # a preview asked for: the rules would refuse it
    REFUSED = "refused"  # the rules refuse the action; nothing changed
    NOTHING_TO_UNDO = "nothing_to_undo"
    NO_GAME = "no_game"  # no game in play
    STALE = "stale"  # the phone saw another position than the table's
    NOT_PAIRED = "not_paired"  # the phone's token is not (or no longer) paired
    PAGE_CLOSED = "page_closed"  # a pairing while the Phones page does not show its code
    WRONG_CODE = "wrong_code"  # a pairing with another code than the one shown
    OTHER_GAME = "other_game"  # asked of another game than the one in play
    NOT_STORED = "not_stored"  # the storage could not keep it (a full card, a lock): retry
    DECLINED = "declined"  # the right code, but the person at the panel said no
    PAIR_BUSY = "pair_busy"  # the right code while the panel asks about another phone
    CODE_SPENT = "code_spent"  # this address tried too many wrong codes at this code
    SETUP_CLOSED = "setup_closed"  # a variant chosen while the panel shows no set-up

    @property
    def ok(self) -> bool:
        """Whether the request was (or, a preview, would be) carried out."""
        return self in (PhoneOutcome.RECORDED, PhoneOutcome.PREVIEWED)


# -- effects: what the app must do, in order, before drawing ---------------


class StartGame(Struct, frozen=True):
    """Store a new game with this set-up (the one in play, if unfinished, is abandoned),
    and what it records of a hint, kept with it (the log's header says only hand memory)."""

    setup: GameSetup
    hint_level: HintLevel = UNKNOWN_HINT_LEVEL


class RecordAction(Struct, frozen=True):
    """Store an action of the game in play."""

    action: Action
    #: The phone's request that made it, answered once it is stored (None: the panel's).
    reply: PhoneReply | None = None


class RecordReveal(Struct, frozen=True):
    """Store a hand shown at the end of the game on screen (after its last action)."""

    reveal: Reveal
    #: The phone's request that made it, answered once it is stored (None: the panel's).
    reply: PhoneReply | None = None


class RecordUndo(Struct, frozen=True):
    """Drop the last stored action of the game in play (or the last hand shown at its end)."""

    reply: PhoneReply | None = None


class PhoneReply(Struct, frozen=True):
    """An answer to a phone (given after storing the action this comes with, if any).

    ``message`` is what it is told (in words by :func:`message_words`), ``preview`` what
    its action would do (a preview asked for), ``outcome`` how the request was judged,
    ``actions`` the count of actions after it, ``keep`` whether the answer is remembered
    for a retry of the same request (a refusal by the rules; a stored action keeps its
    answer with it)."""

    request: PhoneEvent
    phone_id: int
    message: Message | None
    outcome: PhoneOutcome
    actions: int | None = None
    preview: Event | None = None
    keep: bool = False

    @property
    def ok(self) -> bool:
        """Whether it was recorded (or, a preview, would be)."""
        return self.outcome.ok


class PairPhone(Struct, frozen=True):
    """Pair the phone that gave the right code (the app stores it, then answers)."""

    request: PhonePair


class UnpairPhone(Struct, frozen=True):
    """Remove a paired phone (its token stops acting at once)."""

    phone_id: int


class NewPairingCode(Struct, frozen=True):
    """Make a new pairing code: the Phones page opened, or a phone was paired with it
    (the app answers with :class:`~companion.core.results.PairingCodeMade`)."""


class FinishGame(Struct, frozen=True):
    """Store the end of the game in play."""


class SaveSettings(Struct, frozen=True):
    """Remember the set-up's choices for the next start."""

    settings: dict[str, Any]


class LoadHistory(Struct, frozen=True):
    """Read the history for its screen: the first page of games and the statistics, or
    (``before``) the page of games older than game ``before``, added after those shown.
    The app answers with :class:`~companion.core.results.HistoryLoaded`."""

    before: int | None = None


class ResumeGame(Struct, frozen=True):
    """Take up an unfinished game from the history (the app loads it and answers with
    :class:`~companion.core.results.GameLoaded`)."""

    game_id: int


class Quit(Struct, frozen=True):
    """Close the companion (the menu's Quit, on a desktop)."""


class Beep(Struct, frozen=True):
    """Sound the buzzer, if there is one."""

    kind: BeepKind


class AcknowledgeFindings(Struct, frozen=True):
    """A player pressed OK over the findings on the banner: storage notes them seen (they
    are no longer said at a start)."""

    ids: tuple[str, ...]


class NewTableCode(Struct, frozen=True):
    """Make a new table code for the page for phones: the old links stop working."""


Effect = (
    StartGame
    | RecordAction
    | RecordReveal
    | RecordUndo
    | FinishGame
    | SaveSettings
    | LoadHistory
    | ResumeGame
    | Beep
    | Quit
    | NewTableCode
    | PhoneReply
    | PairPhone
    | UnpairPhone
    | NewPairingCode
    | AcknowledgeFindings
)
