"""Every string the companion shows, in English and French.

>>> tr("fr", "hint_tokens")
'Indices'
>>> rating_sentence("en", Rating.AMAZING)
'Amazing, will be remembered for a very long time!'
>>> card_name("fr", Card.from_code("W4"))
'4 blanc'
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

from engine.cards import Card, Color
from engine.errors import IllegalAction
from engine.game import EndReason, Event, EventKind, Rating
from engine.options import GameOptions, OptionValue

LANGUAGES = ("en", "fr")
"""Every language of the app; a new one is a new entry in each table of this module."""

#: Each language by its own name, as the set-up and the menu offer it.
LANGUAGE_NAMES = {"en": "English", "fr": "Français"}

#: The help screen: (keyboard keys, buttons, what they do), row by row.
HELP_ROWS: dict[str, list[tuple[str, str, str]]] = {
    "en": [
        ("h", "HINT", "record a hint"),
        ("p / d", "PLAY / DISCARD", "enter a play / a discard"),
        ("r y g b w m", "soft keys", "colour of the card"),
        ("1-5", "soft keys", "rank of the card"),
        ("Return", "OK", "confirm"),
        ("Escape", "hold UNDO", "cancel"),
        ("BackSpace", "", "step back one choice (entry)"),
        ("u, BackSpace", "UNDO", "undo the last action"),
        ("a", "NEXT (entry)", "announce a colour (timed)"),
        ("Tab / arrows", "NEXT", "next page / row"),
        ("m", "hold OK", "menu"),
        ("2-5", "", "players (set-up)"),
        ("Max", "", "best score still possible"),
        ("Pace", "", "discards left before Max drops"),
        ("!", "", "last copy of a card still needed"),
        ("×", "", "every copy gone: firework capped"),
        ("dead", "", "this firework cannot be completed"),
        ("tap", "fireworks", "show the discard pile"),
    ],
    "fr": [
        ("h", "INDICE", "noter un indice"),
        ("p / d", "POSER / DÉF", "poser / défausser"),
        ("r y g b w m", "touches", "couleur de la carte"),
        ("1-5", "touches", "valeur de la carte"),
        ("Entrée", "OK", "confirmer"),
        ("Échap", "ANNUL long", "annuler la saisie"),
        ("Retour", "", "revenir d'un choix (saisie)"),
        ("u, Retour", "ANNUL", "annuler la dernière action"),
        ("a", "SUIV (saisie)", "annoncer une couleur"),
        ("Tab / flèches", "SUIV", "page / ligne suivante"),
        ("m", "OK long", "menu"),
        ("2-5", "", "joueurs (préparation)"),
        ("Max", "", "meilleur score encore possible"),
        ("Marge", "", "défausses possibles avant que Max baisse"),
        ("!", "", "dernier exemplaire d'une carte utile"),
        ("×", "", "tous les exemplaires partis : feu plafonné"),
        ("perdu", "", "ce feu ne peut plus être complété"),
        ("toucher", "feux", "afficher la défausse"),
    ],
}

COLOR_NAMES = {
    "en": {
        Color.RED: "red",
        Color.YELLOW: "yellow",
        Color.GREEN: "green",
        Color.BLUE: "blue",
        Color.WHITE: "white",
        Color.MULTICOLOR: "multicolor",
    },
    "fr": {
        Color.RED: "rouge",
        Color.YELLOW: "jaune",
        Color.GREEN: "vert",
        Color.BLUE: "bleu",
        Color.WHITE: "blanc",
        Color.MULTICOLOR: "multicolore",
    },
}

RATINGS = {
    "en": {
        Rating.HORRIBLE: ("Horrible", "Horrible, booed by the crowd"),
        Rating.MEDIOCRE: ("Mediocre", "Mediocre, just a spattering of applause"),
        Rating.HONOURABLE: (
            "Honourable",
            "Honourable, but will not be remembered for very long",
        ),
        Rating.EXCELLENT: ("Excellent", "Excellent, crowd pleasing"),
        Rating.AMAZING: ("Amazing", "Amazing, will be remembered for a very long time!"),
        Rating.LEGENDARY: (
            "Legendary",
            "Legendary, everyone left speechless, stars in their eyes",
        ),
        Rating.DIVINE: ("Divine", "Divine, the display outshines the stars"),
    },
    "fr": {
        Rating.HORRIBLE: ("Horrible", "Horrible, huées de la foule"),
        Rating.MEDIOCRE: ("Médiocre", "Médiocre, à peine quelques applaudissements"),
        Rating.HONOURABLE: ("Honorable", "Honorable, mais ne restera pas dans les mémoires"),
        Rating.EXCELLENT: ("Excellente", "Excellente, ravit la foule"),
        Rating.AMAZING: (
            "Extraordinaire",
            "Extraordinaire, restera gravée dans les mémoires !",
        ),
        Rating.LEGENDARY: (
            "Légendaire",
            "Légendaire, petits et grands sans voix, des étoiles dans les yeux",
        ),
        Rating.DIVINE: ("Divine", "Divine, laisse en émoi le ciel lui-même"),
    },
}

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Hanabi",
        "hint_tokens": "Hints",
        "fuses": "Fuses",
        "deck": "Deck",
        "turn_of": "{name} to play",
        "max_score": "Max {score}",
        "pace": "Pace {pace}",
        "score": "Score {score}",
        "discards": "Discard pile",
        "no_discards": "No card discarded yet",
        "critical": "last copy",
        "dead": "dead",
        "final_round": "Final round: {order}",
        "then": "then",
        "last_turn": "Last turn: {name}",
        # actions
        "ev_hint": "{name} gave a hint",
        "ev_play": "{name} played {card}",
        "ev_complete": "{name} played {card}: firework complete!",
        "ev_misplay": "Misplay: {card} is discarded, fuse {fuses} of 3",
        "ev_misplay_announce": "Wrong colour announced: {card} is discarded, fuse {fuses} of 3",
        "ev_discard": "{name} discarded {card}",
        "ev_tokens_gained": "+{n} hint",
        "ev_tokens_gained_plural": "+{n} hints",
        "crowning_one_variant": "The crowning piece combines with one other variant only",
        "ev_bonus_lost": "bonus lost: all 8 hint tokens were there",
        "ev_final_round": "Last card drawn: final round!",
        "ev_undone": "Undone: {what}",
        # entry
        "entry_play": "{name} plays",
        "entry_discard": "{name} discards",
        "entry_scanned": "Scanned {card}: play or discard?",
        "entry_pick_color": "Colour?",
        "entry_pick_announce": "Announce which colour?",
        "softkey_hint": "HINT",
        "softkey_play": "PLAY",
        "softkey_discard": "DISC",
        "softkey_undo": "UNDO",
        "softkey_next": "NEXT",
        "softkey_ok": "OK",
        "start_abandons_the_game": "The game in progress will be abandoned: Start again to confirm",
        "entry_pick_rank": "Rank?",
        "entry_announce": "Announced: {color}",
        "entry_no_announce": "No colour announced",
        "entry_confirm": "OK to record",
        "will_fit": "fits: {color} firework goes to {rank}",
        "will_complete": "completes the {color} firework (+1 hint)",
        "will_misplay": "does not fit: misplay, fuse {fuses} of 3",
        "will_wrong_announce": "wrong colour announced: misplay, fuse {fuses} of 3",
        "will_discard": "goes to the discard pile (+1 hint)",
        "will_end": "and ends the game",
        "cancel": "Cancel",
        "confirm": "OK",
        # undo
        "undo_title": "Undo the last action?",
        "undo_nothing": "Nothing to undo",
        # end
        "game_over": "Game over",
        "end_perfect": "Perfect display!",
        "end_strikeout": "Lost: the third fuse burnt",
        "end_final_round": "The final round is over",
        "end_critical_discard": "Lost: an indispensable card is gone",
        "end_no_legal_action": "Lost: {name} had no legal action left",
        "lost": "Lost",
        "points": "points",
        "new_game_hint": "OK: new game · Undo: take back",
        # set-up
        "setup_title": "New game",
        "players": "Players",
        "first_player": "First player",
        "names": "Names",
        "multicolor": "Multicolor suit",
        "multicolor_none": "none",
        "multicolor_short": "short (5 cards)",
        "multicolor_full": "full (10 cards)",
        "variant_base": "Base game",
        "variant_multicolor_short": "Short multicolor",
        "variant_multicolor_full": "Full multicolor",
        "wild_multicolor": "Wild multicolor",
        "crowning_piece": "Crowning piece",
        "timed_display": "Timed display",
        "empty_clues": "Empty clues",
        "strikeout_keeps_score": "Storm keeps score",
        "language": "Language",
        "start": "Start",
        "yes": "yes",
        "button_hint": "Hint",
        "button_play": "Play",
        "button_discard": "Discard",
        "button_undo": "Undo",
        "button_announce": "Announce",
        "no": "no",
        "edit_name": "Name of player {n} (Return: next)",
        "player_n": "Player {n}",
        # menu, history, help
        "menu": "Menu",
        "resume": "Back to the game",
        "new_game": "New game",
        "history": "History",
        "help": "Help",
        "history_empty": "No finished game yet",
        "history_damaged": "Game {game}: damaged, kept aside",
        "history_unreadable": "The history cannot be read: the games database is damaged",
        "game_damaged_kept_aside": "Game {game} is damaged and cannot be resumed: it is kept aside in the database; a new game can start",
        "storage_full": "The SD card is full: this action was not saved",
        "journal_damaged_kept_aside": "The journal of the games was damaged: the last actions saved before the stop may be missing; a copy was kept as {copy}",
        "stats": "Best / average",
        "help_title": "Keys and buttons",
        "refused": "Refused",
        "unknown_tag": "Unknown card tag {tag}: enrol the deck first",
        "scanner_off": "Scanner disconnected",
        "buttons": "Buttons",
        "keys": "Keys",
    },
    "fr": {
        "title": "Hanabi",
        "hint_tokens": "Indices",
        "fuses": "Mèches",
        "deck": "Pioche",
        "turn_of": "À {name} de jouer",
        "max_score": "Max {score}",
        "pace": "Marge {pace}",
        "score": "Score {score}",
        "discards": "Défausse",
        "no_discards": "Aucune carte défaussée",
        "critical": "dernière",
        "dead": "perdu",
        "final_round": "Dernier tour : {order}",
        "then": "puis",
        "last_turn": "Dernier à jouer : {name}",
        "ev_hint": "{name} a donné un indice",
        "ev_play": "{name} a posé {card}",
        "ev_complete": "{name} a posé {card} : feu d'artifice complet !",
        "ev_misplay": "Erreur : {card} va à la défausse, mèche {fuses} sur 3",
        "ev_misplay_announce": (
            "Mauvaise couleur annoncée : {card} va à la défausse, mèche {fuses} sur 3"
        ),
        "ev_discard": "{name} a défaussé {card}",
        "ev_tokens_gained": "+{n} indice",
        "ev_tokens_gained_plural": "+{n} indices",
        "crowning_one_variant": "Le bouquet final ne se combine qu'avec une seule autre variante",
        "ev_bonus_lost": "bonus perdu : les 8 jetons étaient là",
        "ev_final_round": "Dernière carte piochée : dernier tour !",
        "ev_undone": "Annulé : {what}",
        "entry_play": "{name} pose",
        "entry_discard": "{name} défausse",
        "entry_scanned": "{card} lue : poser ou défausser ?",
        "entry_pick_color": "Couleur ?",
        "entry_pick_announce": "Annoncer quelle couleur ?",
        "softkey_hint": "INDICE",
        "softkey_play": "POSER",
        "softkey_discard": "DÉF",
        "softkey_undo": "ANNUL",
        "softkey_next": "SUIV",
        "softkey_ok": "OK",
        "start_abandons_the_game": "La partie en cours sera abandonnée : Commencer de nouveau pour confirmer",
        "entry_pick_rank": "Valeur ?",
        "entry_announce": "Annoncé : {color}",
        "entry_no_announce": "Pas de couleur annoncée",
        "entry_confirm": "OK pour enregistrer",
        "will_fit": "convient : le feu {color} passe à {rank}",
        "will_complete": "complète le feu {color} (+1 indice)",
        "will_misplay": "ne convient pas : erreur, mèche {fuses} sur 3",
        "will_wrong_announce": "mauvaise couleur annoncée : erreur, mèche {fuses} sur 3",
        "will_discard": "va à la défausse (+1 indice)",
        "will_end": "et termine la partie",
        "cancel": "Annuler",
        "confirm": "OK",
        "undo_title": "Annuler la dernière action ?",
        "undo_nothing": "Rien à annuler",
        "game_over": "Partie terminée",
        "end_perfect": "Feu d'artifice parfait !",
        "end_strikeout": "Perdu : la troisième mèche a brûlé",
        "end_final_round": "Le dernier tour est joué",
        "end_critical_discard": "Perdu : une carte indispensable est perdue",
        "end_no_legal_action": "Perdu : {name} n'avait plus d'action possible",
        "lost": "Perdu",
        "points": "points",
        "new_game_hint": "OK : nouvelle partie · Annuler : revenir",
        "setup_title": "Nouvelle partie",
        "players": "Joueurs",
        "first_player": "Premier joueur",
        "names": "Noms",
        "multicolor": "Couleur multicolore",
        "multicolor_none": "aucune",
        "multicolor_short": "courte (5 cartes)",
        "multicolor_full": "complète (10 cartes)",
        "variant_base": "Jeu de base",
        "variant_multicolor_short": "Multicolore courte",
        "variant_multicolor_full": "Multicolore complète",
        "wild_multicolor": "Multicolore joker",
        "crowning_piece": "Bouquet final",
        "timed_display": "Chorégraphie minutée",
        "empty_clues": "Indices vides",
        "strikeout_keeps_score": "Orage garde le score",
        "language": "Langue",
        "start": "Commencer",
        "yes": "oui",
        "button_hint": "Indice",
        "button_play": "Poser",
        "button_discard": "Défausser",
        "button_undo": "Annuler",
        "button_announce": "Annonce",
        "no": "non",
        "edit_name": "Nom du joueur {n} (Entrée : suivant)",
        "player_n": "Joueur {n}",
        "menu": "Menu",
        "resume": "Retour à la partie",
        "new_game": "Nouvelle partie",
        "history": "Historique",
        "help": "Aide",
        "history_empty": "Aucune partie terminée",
        "history_damaged": "Partie {game} : endommagée, mise de côté",
        "history_unreadable": "L'historique est illisible : la base des parties est endommagée",
        "game_damaged_kept_aside": "La partie {game} est endommagée et ne peut pas reprendre : elle est gardée de côté dans la base ; une nouvelle partie peut commencer",
        "storage_full": "La carte SD est pleine : cette action n'a pas été enregistrée",
        "journal_damaged_kept_aside": "Le journal des parties était endommagé : les dernières actions enregistrées avant l'arrêt peuvent manquer ; une copie est gardée sous {copy}",
        "stats": "Meilleur / moyenne",
        "help_title": "Touches et boutons",
        "refused": "Refusé",
        "unknown_tag": "Étiquette inconnue {tag} : enregistrez d'abord le paquet",
        "scanner_off": "Lecteur déconnecté",
        "buttons": "Boutons",
        "keys": "Touches",
    },
}

#: French sentences for the engine's refusals, by code (English comes from the engine).
#: Which plural form a count takes, by language (gettext's ``plural=`` expressions):
#: English "1 turn, 0 turns"; French "0 tour, 1 tour, 2 tours".
PLURAL_FORM: dict[str, Callable[[int], int]] = {
    "en": lambda n: int(n != 1),
    "fr": lambda n: int(n > 1),
}

#: Words counted on the screens, each with its forms in the order of ``PLURAL_FORM``.
COUNTED: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "turns": ("{n} turn", "{n} turns"),
        "hints": ("{n} hint", "{n} hints"),
        "discards": ("{n} discard", "{n} discards"),
        "misplays": ("{n} misplay", "{n} misplays"),
    },
    "fr": {
        "turns": ("{n} tour", "{n} tours"),
        "hints": ("{n} indice", "{n} indices"),
        "discards": ("{n} défausse", "{n} défausses"),
        "misplays": ("{n} erreur", "{n} erreurs"),
    },
}


def counted(lang: str, key: str, n: int) -> str:
    """``n`` things, in the form the language gives that number (ngettext's rule).

    >>> counted("en", "misplays", 1), counted("en", "misplays", 0), counted("fr", "misplays", 0)
    ('1 misplay', '0 misplays', '0 erreur')
    """
    lang = lang if lang in COUNTED else "en"
    return COUNTED[lang][key][PLURAL_FORM[lang](n)].format(n=n)


REFUSALS_FR = {
    "game_over": "La partie est terminée : plus aucune action",
    "not_your_turn": "Ce n'est pas au tour de {claimed_name}, mais de {player_name}",
    "no_such_seat": "Il n'y a pas de place {seat} à cette table",
    "no_hint_tokens": "Plus aucun jeton indice : impossible de donner un indice",
    "hint_tokens_full": "Les 8 jetons indice sont disponibles : impossible de défausser",
    "hint_to_self": "On ne peut pas se donner un indice à soi-même",
    "hint_names_both": "Un indice nomme une couleur ou une valeur, jamais les deux",
    "no_such_rank": "Un indice nomme une valeur de 1 à 5, pas {rank}",
    "hint_color_not_allowed": "Avec le multicolore joker, un indice ne peut pas nommer le multicolore",
    "hint_to_empty_hand": "{seat_name} n'a plus de carte : un indice doit désigner au moins une carte",
    "no_one_to_hint": "Personne d'autre n'a de carte : impossible de donner un indice",
    "empty_hand": "Vous n'avez plus de carte à poser ou défausser",
    "suit_not_in_game": "Cette couleur n'est pas dans cette partie",
    "card_exhausted": "Tous les {card} ont déjà été révélés : cette carte ne peut plus exister. "
    "Vérifiez la carte",
    "announce_not_allowed": "Annoncer une couleur n'est permis que dans la chorégraphie minutée",
    "nothing_to_undo": "Rien à annuler : la partie vient de commencer",
    "illegal_action": "Action interdite",
}


def has_text(key: str) -> bool:
    """Whether ``key`` is a text of the app (every language has the same keys)."""
    return key in TEXTS["en"]


def tr(lang: str, key: str, **params: object) -> str:
    """The text of ``key`` in ``lang`` (English if the language lacks it)."""
    table = TEXTS.get(lang, TEXTS["en"])
    template = table.get(key) or TEXTS["en"][key]
    return template.format(**params) if params else template


def option_value(lang: str, name: str, value: OptionValue) -> str:
    """A game option's value as the set-up screen shows it: yes/no, or the choice's words."""
    if isinstance(value, Enum):
        return tr(lang, f"{name}_{value.value}")
    return tr(lang, "yes" if value else "no")


def variant_name(lang: str, options: GameOptions) -> str:
    """The options of a game in words, for the history: ``Short multicolor, Timed display``."""
    parts = [
        tr(lang, f"variant_{name}_{value}" if isinstance(value, str) else name)
        for name, value in options.to_dict().items()
    ]
    return ", ".join(parts) or tr(lang, "variant_base")


def color_name(lang: str, color: Color) -> str:
    return COLOR_NAMES.get(lang, COLOR_NAMES["en"])[color]


def card_name(lang: str, card: Card) -> str:
    """``red 3`` / ``3 rouge``."""
    name = color_name(lang, card.color)
    return f"{card.rank} {name}" if lang == "fr" else f"{name} {card.rank}"


def rating_title(lang: str, rating: Rating) -> str:
    return RATINGS.get(lang, RATINGS["en"])[rating][0]


def rating_sentence(lang: str, rating: Rating) -> str:
    return RATINGS.get(lang, RATINGS["en"])[rating][1]


def refusal_text(lang: str, error: IllegalAction, names: tuple[str, ...] = ()) -> str:
    """Why an action was refused, in words a player understands."""
    if lang != "fr":
        return str(error)
    params: dict[str, object] = dict(error.params)
    for key in ("player", "claimed", "seat"):
        seat = params.get(key)
        if isinstance(seat, int):
            known = 0 <= seat < len(names)
            params[f"{key}_name"] = names[seat] if known else f"joueur {seat + 1}"
    card = params.get("card")
    if isinstance(card, Card):
        params["card"] = card_name("fr", card)
    template = REFUSALS_FR.get(error.code, REFUSALS_FR["illegal_action"])
    try:
        return template.format(**params)
    except (KeyError, IndexError):
        return REFUSALS_FR.get(error.code, str(error)).split(":")[0]


def end_reason_text(lang: str, reason: EndReason, name: str = "") -> str:
    return tr(lang, f"end_{reason.value}", name=name)


def describe_event(lang: str, event: Event, names: tuple[str, ...]) -> str:
    """One line saying what an action did: "Bo played red 3"."""
    name = names[event.player]
    card = card_name(lang, event.card) if event.card is not None else ""
    if event.kind is EventKind.HINT:
        text = tr(lang, "ev_hint", name=name)
    elif event.kind is EventKind.DISCARD:
        text = tr(lang, "ev_discard", name=name, card=card)
    elif event.kind is EventKind.MISPLAY:
        key = "ev_misplay_announce" if event.announce_right is False else "ev_misplay"
        text = tr(lang, key, card=card, fuses=event.fuses_after)
    else:
        text = tr(
            lang, "ev_complete" if event.firework_completed else "ev_play", name=name, card=card
        )
    extras = []
    if event.kind is not EventKind.HINT and event.hints_change > 0:
        key = "ev_tokens_gained_plural" if event.hints_change > 1 else "ev_tokens_gained"
        extras.append(tr(lang, key, n=event.hints_change))
    if event.bonus_lost:
        extras.append(tr(lang, "ev_bonus_lost"))
    if extras:
        text += " (" + ", ".join(extras) + ")"
    if event.final_round_started:
        text += ". " + tr(lang, "ev_final_round")
    return text
