"""German, as a German Hanabi table speaks it (the words of Abacusspiele's edition).

The edition's words: *Hinweisplättchen* (hint tokens), *Gewitter-Plättchen*
with a *Blitz* on their back (fuses: here one word, *Blitz*), *Nachziehstapel*,
*Ablagestapel*, *ausspielen*, *abwerfen*, the *bunten* cards. Colours are
nouns (*Rot*, *Bunt*) and a card reads like its label, colour first: *Rot 3*,
so that no sentence needs an inflected adjective. The rating sentences are in
the tone of the German edition's scale, in our own words. The players are
addressed as *du*, as at a games table. After a colon a whole sentence opens
with a capital ("Verloren: Der dritte Blitz hat eingeschlagen"), a fragment
does not ("passt nicht: Fehler").
"""

from __future__ import annotations

from companion.languages import Language
from engine.cards import Color
from engine.game import Rating

LANGUAGE = Language(
    code="de",
    name="Deutsch",
    texts={
        "title": "Hanabi",
        "hint_tokens": "Hinweise",
        "fuses": "Blitze",
        "deck": "Stapel",
        "turn_of": "{name} ist dran",
        "max_score": "Max {score}",
        "pace": "Puffer {pace}",
        "score": "Punkte {score}",
        "discards": "Ablagestapel",
        "no_discards": "Noch keine Karte abgeworfen",
        "unseen": "ungesehen",
        "recent_actions": "Letzte Züge",
        "no_actions": "Noch kein Zug",
        "critical": "letzte",
        "final_round": "Letzte Runde: {name} ist dran, dann {order}",
        "final_round_last": "Letzte Runde: zuletzt ist {name} dran",
        "last_turn": "Letzter Zug: {name}",
        # actions
        "ev_hint": "{name} hat einen Hinweis gegeben",
        "ev_hint_to": "{name} hat {receiver} einen Hinweis gegeben",
        "ev_hint_clue": "{name} an {receiver}: {clue}",
        "ev_hint_slots_one": "{name} an {receiver}: {clue}, Platz {slots}",
        "ev_hint_slots_many": "{name} an {receiver}: {clue}, Plätze {slots}",
        "ev_hint_no_slot": "{name} an {receiver}: kein {clue}",
        "clue_rank": "{rank}er",
        "ev_play": "{name} hat {card} ausgespielt",
        "ev_complete": "{name} hat {card} ausgespielt: Feuerwerk komplett!",
        "ev_misplay": "Fehler: {card} kommt auf den Ablagestapel, Blitz {fuses} von 3",
        "ev_misplay_announce": (
            "Falsche Farbe angesagt: {card} kommt auf den Ablagestapel, Blitz {fuses} von 3"
        ),
        "ev_discard": "{name} hat {card} abgeworfen",
        "ev_tokens_gained": "+{n} Hinweis",
        "ev_tokens_gained_plural": "+{n} Hinweise",
        "crowning_one_variant": "Das große Finale lässt sich nur mit einer anderen Variante kombinieren",
        "ev_bonus_lost": "Bonus verfallen: Alle 8 Hinweisplättchen lagen bereit",
        "ev_final_round": "Letzte Karte gezogen: letzte Runde!",
        "ev_undone": "Zurückgenommen: {what}",
        # entry
        "entry_play": "{name} spielt aus",
        "entry_discard": "{name} wirft ab",
        "entry_scanned": "{card} gelesen: ausspielen oder abwerfen?",
        "entry_pick_color": "Farbe?",
        "entry_pick_announce": "Welche Farbe ansagen?",
        "softkey_hint": "HINWEIS",
        "softkey_play": "SPIELEN",
        "softkey_discard": "ABWERFEN",
        "softkey_undo": "ZURÜCK",
        "softkey_next": "WEITER",
        "softkey_ok": "OK",
        "start_abandons_the_game": (
            "Das laufende Spiel wird abgebrochen: zum Bestätigen noch einmal Starten"
        ),
        "entry_pick_rank": "Zahl?",
        "entry_announce": "Angesagt: {color}",
        "entry_no_announce": "Keine Farbe angesagt",
        "entry_confirm": "OK zum Eintragen",
        "hand_memory": "Handgedächtnis",
        "hand_memory_how_to_hold": "Handgedächtnis: jede neue Karte links in die Hand stecken (Platz 1), die Karten nie umsortieren",
        "entry_hint": "{name} gibt einen Hinweis",
        "entry_pick_receiver": "An wen?",
        "entry_no_such_seat": "Es gibt keinen Spieler {n}: Die Plätze gehen von 1 bis {players}",
        "entry_pick_clue": "Farbe oder Zahl?",
        "entry_pick_slots": "Welche Plätze betrifft er? Dann OK",
        "entry_pick_slot": "Von welchem Platz?",
        "hint_preview": "{name}: {what}",
        "hint_touched_color_one": "{clue} auf Platz {slots}",
        "hint_touched_color_many": "{clue} auf den Plätzen {slots}",
        "hint_touched_rank_one": "{clue} auf Platz {slots}",
        "hint_touched_rank_many": "{clue} auf den Plätzen {slots}",
        "hint_touched_color_none": "kein {clue}",
        "hint_touched_rank_none": "keine {clue}",
        "hint_missed_one": "nicht auf Platz {slots}",
        "hint_missed_many": "nicht auf den Plätzen {slots}",
        "hint_touched_and_missed": "{touched}, {missed}",
        "list_and": "{first} und {last}",
        "entry_slot": "Platz {slot}",
        "hands": "Hände",
        "will_fit": "passt: Feuerwerk {color} steigt auf {rank}",
        "will_complete": "vollendet das Feuerwerk {color}",
        "will_misplay": "passt nicht: Fehler, Blitz {fuses} von 3",
        "will_wrong_announce": "falsche Farbe angesagt: Fehler, Blitz {fuses} von 3",
        "will_discard": "kommt auf den Ablagestapel",
        "will_end": "und beendet das Spiel",
        "will_lose": "und das Spiel ist verloren",
        "quit": "Beenden",
        "back_to_score": "Ergebnis",
        "cancel": "Abbruch",
        "confirm": "OK",
        "entry_change": "Ändern",
        # undo
        "undo_title": "Letzte Aktion zurücknehmen?",
        "undo_nothing": "Nichts zurückzunehmen",
        # end
        "game_over": "Spielende",
        "end_perfect": "Perfektes Feuerwerk!",
        "end_strikeout": "Verloren: Der dritte Blitz hat eingeschlagen",
        "end_final_round": "Die letzte Runde ist gespielt",
        "end_critical_discard": "Verloren: Eine unverzichtbare Karte ist weg",
        "end_no_legal_action": "Verloren: {name} hatte keinen erlaubten Zug mehr",
        "lost": "Verloren",
        "points": "Punkte",
        "new_game_hint": "OK: neues Spiel · Zurück: zurücknehmen",
        # set-up
        "setup_title": "Neues Spiel",
        "players": "Spieler",
        "first_player": "Startspieler",
        "names": "Namen",
        "multicolor": "Bunte Karten",
        "multicolor_none": "keine",
        "multicolor_short": "kurz (5 Karten)",
        "multicolor_full": "voll (10 Karten)",
        "variant_base": "Grundspiel",
        "variant_multicolor_short": "Bunt (5 Karten)",
        "variant_multicolor_full": "Bunt (10 Karten)",
        "wild_multicolor": "Bunt als Joker",
        "crowning_piece": "Großes Finale",
        "timed_display": "Farbansage",
        "empty_clues": "Leere Hinweise",
        "strikeout_keeps_score": "Punkte trotz 3 Blitzen",
        "language": "Sprache",
        "start": "Starten",
        "yes": "ja",
        "button_hint": "Hinweis",
        "button_play": "Spielen",
        "button_discard": "Abwerfen",
        "button_undo": "Zurück",
        "button_announce": "Ansagen",
        "no": "nein",
        "edit_name": "Name von Spieler {n} (Enter: weiter)",
        "player_n": "Spieler {n}",
        # menu, history, help
        "menu": "Menü",
        "resume": "Zurück zum Spiel",
        "new_game": "Neues Spiel",
        "history": "Verlauf",
        "help": "Hilfe",
        "history_empty": "Noch kein Spiel beendet",
        "history_unfinished": "unvollendet",
        "history_resume": "Spiel {game} fortsetzen",
        "resume_abandons_the_game": "Das laufende Spiel wird abgebrochen: zum Bestätigen noch einmal Fortsetzen",
        "history_damaged": "Spiel {game}: beschädigt, beiseitegelegt",
        "history_unreadable": "Der Verlauf ist nicht lesbar: Die Spieldatenbank ist beschädigt",
        "game_damaged_kept_aside": "Spiel {game} ist beschädigt und kann nicht fortgesetzt werden: Es bleibt in der Datenbank beiseitegelegt; ein neues Spiel kann beginnen",
        "storage_full": "Die SD-Karte ist voll: Diese Aktion wurde nicht gespeichert",
        "storage_busy": "Ein anderes Programm benutzt die Spieldatenbank: Diese Aktion wurde nicht gespeichert; bitte erneut versuchen",
        "storage_read_only": "Die Spieldatenbank ist schreibgeschützt: Diese Aktion wurde nicht gespeichert",
        "storage_io_error": "Die SD-Karte hat nicht geantwortet: Diese Aktion wurde nicht gespeichert; bitte erneut versuchen",
        "storage_failed": "Die Spieldatenbank hat das Speichern verweigert: Nichts wurde gespeichert; bitte erneut versuchen",
        "journal_damaged_kept_aside": "Das Journal der Spiele war beschädigt: Die letzten vor dem Halt gespeicherten Aktionen können fehlen; eine Kopie liegt unter {copy}",
        "journal_orphan_moved_aside": "Ein Journal ohne seine Spieldatenbank wurde als {copy} beiseitegelegt; eine neue Datenbank wurde begonnen",
        "database_emptied": "Die Spieldatenbank war leer oder fehlte, obwohl sie {games} Spiele enthielt; eine neue wurde begonnen",
        "games_missing": "Seit dem letzten Start fehlen Spiele in der Datenbank: {games}",
        "actions_missing": "Spiel {game} hat seine letzten gespeicherten Aktionen verloren ({missing}): Das Journal wurde abgeschnitten",
        "database_corrupt_moved_aside": "Beschädigte Spieldatenbank als {copy} beiseitegelegt; eine neue wurde begonnen",
        "database_foreign_moved_aside": "Datei games.db eines anderen Programms als {copy} beiseitegelegt; eine neue Spieldatenbank wurde begonnen",
        "database_newer_moved_aside": "Spieldatenbank einer neueren Version als {copy} beiseitegelegt; eine neue wurde begonnen",
        "stats": "Bestes / Schnitt",
        "help_title": "Tasten und Knöpfe",
        "refused": "Abgelehnt",
        "unknown_tag": "Unbekannter Karten-Tag {tag}: zuerst das Kartenspiel einlesen",
        "scanner_off": "Scanner getrennt",
        "buttons": "Knöpfe",
        "keys": "Tasten",
    },
    colors={
        Color.RED: "Rot",
        Color.YELLOW: "Gelb",
        Color.GREEN: "Grün",
        Color.BLUE: "Blau",
        Color.WHITE: "Weiß",
        Color.MULTICOLOR: "Bunt",
    },
    ratings={
        Rating.HORRIBLE: ("Schrecklich", "Schrecklich, Buhrufe aus der Menge"),
        Rating.MEDIOCRE: ("Mäßig", "Mäßig, nur hier und da ein Klatschen"),
        Rating.HONOURABLE: ("Ordentlich", "Ordentlich, aber schnell wieder vergessen"),
        Rating.EXCELLENT: ("Hervorragend", "Hervorragend, das Publikum ist begeistert"),
        Rating.AMAZING: ("Großartig", "Großartig, davon wird man noch lange reden!"),
        Rating.LEGENDARY: (
            "Legendär",
            "Legendär, alle sind sprachlos, mit Sternen in den Augen",
        ),
        Rating.DIVINE: ("Göttlich", "Göttlich, das Feuerwerk überstrahlt die Sterne"),
    },
    help_rows=(
        ("h", "HINWEIS", "Hinweis eintragen"),
        ("p / d", "SPIELEN / ABWERFEN", "Ausspielen / Abwerfen eintragen"),
        ("r y g b w m", "Softkeys", "Farbe der Karte"),
        ("1-5", "Softkeys", "Zahl der Karte"),
        ("Enter", "OK", "bestätigen"),
        ("Esc", "ZURÜCK lang", "Eingabe abbrechen"),
        ("Rücktaste", "", "einen Schritt zurück (Eingabe)"),
        ("u, Rücktaste", "ZURÜCK", "letzte Aktion zurücknehmen"),
        ("a", "WEITER (Eingabe)", "Farbe ansagen (Farbansage)"),
        ("Tab / hoch / runter", "WEITER", "nächste Seite (Ablagestapel, letzte Züge) / Zeile"),
        ("links / rechts", "", "neues Spiel, Menü: den Wert der Zeile ändern"),
        ("m", "OK lang", "Menü"),
        ("2-5", "", "Spieler (neues Spiel)"),
        ("h", "HINWEIS", "Handgedächtnis: an wen, Farbe oder Zahl, Plätze, OK"),
        ("1-5", "Softkeys", "Handgedächtnis: ein Platz (1 = die neueste, links)"),
        ("Tab", "WEITER", "Handgedächtnis: die Hände aller (eine Seite)"),
        ("Max", "", "beste noch mögliche Punktzahl"),
        ("Puffer", "", "Abwürfe, bevor Max sinkt"),
        ("!", "", "letztes Exemplar einer noch gebrauchten Karte"),
        ("×", "", "alle Exemplare weg: Karte verloren, Feuerwerk gedeckelt"),
        ("ungesehen", "", "Karten einer Farbe, weder gespielt noch abgeworfen"),
        ("tippen", "Feuerwerke", "nächste Seite: Ablagestapel, Züge"),
    ),
    plural=lambda n: int(n != 1),
    plural_expression="n != 1",
    counted={
        "cards": ("{n} Karte", "{n} Karten"),
        "turns": ("{n} Zug", "{n} Züge"),
        "hints": ("{n} Hinweis", "{n} Hinweise"),
        "discards": ("{n} Abwurf", "{n} Abwürfe"),
        "misplays": ("{n} Fehler", "{n} Fehler"),
    },
    refusals={
        "game_over": "Das Spiel ist vorbei: keine Aktion mehr",
        "not_your_turn": "{player_name} ist dran, nicht {claimed_name}",
        "no_such_seat": "An einem Tisch mit {players} Spielern gibt es keinen Platz {seat}",
        "no_hint_tokens": "Kein Hinweisplättchen mehr: kein Hinweis möglich",
        "hint_tokens_full": "Alle 8 Hinweisplättchen sind verfügbar: Abwerfen ist nicht erlaubt",
        "hint_to_self": "Du kannst dir selbst keinen Hinweis geben",
        "hint_names_both": "Ein Hinweis nennt eine Farbe oder eine Zahl, nie beides",
        "no_such_rank": "Ein Hinweis nennt eine Zahl von 1 bis 5, nicht {rank}",
        "hint_color_not_allowed": (
            "Mit {color} als Joker nennt kein Hinweis {color}: "
            "Jeder Farbhinweis zeigt auch diese Karten"
        ),
        "hint_to_empty_hand": (
            "{seat_name} hat keine Karte mehr: Ein Hinweis muss mindestens eine Karte zeigen"
        ),
        "no_one_to_hint": "Niemand sonst hat noch Karten: Es gibt niemanden für einen Hinweis",
        "empty_hand": "Du hast keine Karte mehr zum Ausspielen oder Abwerfen",
        "suit_not_in_game": "In diesem Spiel gibt es keine Farbe {color}",
        "card_exhausted": (
            "Jede {card} ist schon aufgedeckt ({copies} im Spiel): Diese Karte kann es "
            "nicht mehr geben. Bitte die Karte prüfen"
        ),
        "announce_not_allowed": "Eine Farbe ansagen geht nur in der Variante Farbansage",
        "nothing_to_undo": "Nichts zurückzunehmen: Das Spiel hat gerade erst begonnen",
        "slots_not_recorded": (
            "Dieses Spiel führt kein Handgedächtnis: Plätze werden nicht eingetragen"
        ),
        "slot_needed": "Mit Handgedächtnis: Von welchem Platz kam die Karte?",
        "hint_needs_slots": (
            "Mit Handgedächtnis nennt ein Hinweis, an wen er geht, eine Farbe oder Zahl "
            "und die Plätze, die er betrifft"
        ),
        "no_such_slot": "{seat_name} hat {cards}: Es gibt keinen Platz {slot}",
        "slot_repeated": "Platz {slot} ist zweimal genannt",
        "hint_touches_nothing": "Ein Hinweis muss mindestens eine Karte zeigen",
        "hint_must_touch": (
            "Platz {slot} von {seat_name} kann nur {clue} sein: Ein Hinweis {clue} muss ihn "
            "betreffen. Bitte die Plätze prüfen oder den früheren Hinweis zurücknehmen"
        ),
        "hint_cannot_touch": (
            "Platz {slot} von {seat_name} kann nicht {clue} sein: Ein Hinweis {clue} kann ihn "
            "nicht betreffen. Bitte die Plätze prüfen oder den früheren Hinweis zurücknehmen"
        ),
        "card_not_in_slot": (
            "Platz {slot} bekam den Hinweis {clue}: {card} kann dort nicht liegen. "
            "Bitte den Platz prüfen oder den Hinweis zurücknehmen"
        ),
        "card_ruled_out": (
            "Platz {slot} kann nicht {clue} sein: {card} kann dort nicht liegen. "
            "Bitte den Platz prüfen oder den Hinweis zurücknehmen"
        ),
        "illegal_action": "Dieser Zug ist nicht erlaubt",
    },
    card="{color} {rank}",
)
