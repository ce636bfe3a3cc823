"""Issue 36: storage's findings on the banner until a player presses OK over them, in the
table's language, and on the phones' snapshot (docs/decisions 0089)."""

from __future__ import annotations

import pytest

from companion.core.controller import (
    AcknowledgeFindings,
    Controller,
    FindingsOpen,
    Screen,
    SetupDraft,
    StartupNotice,
)
from companion.core.i18n import tr
from companion.vocabulary.records import Finding
from companion.web.snapshot import build_snapshot
from hardware.events import Key, Press

EMPTIED = Finding("f1", "database_emptied", {"games": 4}, "2026-11-21T10:15:00Z")
DAMAGED = Finding("f2", "finished_game_damaged", {"game": 3}, "2026-11-21T10:15:00Z")


def test_the_banner_says_the_findings_one_at_a_time_and_how_to_say_they_were_seen():
    controller = Controller(SetupDraft(players=2))
    controller.handle(StartupNotice("A scanner is missing"))
    controller.handle(FindingsOpen((EMPTIED, DAMAGED)))
    how = tr("en", "findings_ok_of", index=1, count=2)
    words = tr("en", "database_emptied", games=4)
    assert controller.notice == f"{how} {words} · A scanner is missing"


def test_ok_over_a_finding_acknowledges_it_and_does_nothing_else():
    controller = Controller(SetupDraft(players=2))
    controller.handle(FindingsOpen((EMPTIED, DAMAGED)))
    assert controller.handle(Press(Key.OK)) == [AcknowledgeFindings(("f1",))]
    assert controller.screen is Screen.SETUP  # no game started by that OK
    assert controller.notice == (
        tr("en", "findings_ok") + " " + tr("en", "finished_game_damaged", game=3)
    )
    assert controller.handle(Press(Key.OK)) == [AcknowledgeFindings(("f2",))]
    assert controller.notice is None
    effects = controller.handle(Press(Key.OK))  # the next OK is the screen's again
    assert [type(effect).__name__ for effect in effects] == ["SaveSettings", "StartGame"]


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_every_finding_has_its_words_in_every_language(language):
    for key in (
        "ledger_damaged",
        "ledger_missing",
        "findings_file_lost",
        "findings_ok",
        "web_findings_ok",
    ):
        assert tr(language, key) != key
    assert "3" in tr(language, "finished_game_damaged", game=3)
    assert "2" in tr(language, "findings_ok_of", index=1, count=2)


def test_the_phones_see_the_findings_until_ok():
    controller = Controller(SetupDraft(players=2))
    assert build_snapshot(controller).findings == ()
    controller.handle(FindingsOpen((EMPTIED,)))
    assert build_snapshot(controller).findings == (
        tr("en", "database_emptied", games=4),
        tr("en", "web_findings_ok"),
    )
    controller.handle(Press(Key.OK))
    assert build_snapshot(controller).findings == ()
