"""How many mails a player wants, and whether with the board picture.

Set by mail (``mail decisions`` / ``mail all`` / ``mail digest``, ``picture off`` /
``picture on``, in English, German or French; ``here`` after it sets this game only) or on
the player's own page (``games.web.views.player_page``, for all their games), kept
in ``MailPreference`` rows, applied in one place: ``outbox.write`` asks ``wanted`` for every
planned row and does not write the ones a player does not want (the event log keeps the
news; the next mail the seat gets tells it, ``seatview.told_before``).

* ``decisions`` (the default): a mail when the player must decide, the game's end, and what
  always goes (below); reveals, years, others' moves and defaults, sealed confirmations are
  told in the next mail's "since my last mail".
* ``all``: every mail, as the service has always sent them.
* ``digest``: as ``decisions``, plus one mail a day with the news of every game where the
  player has nothing to decide (``digests.send_digests``, Celery beat).

Always sent, whatever the setting: moderators' notices, reminders and warnings about
deadlines, a default played on the player's own seat, answers and refusals.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.utils.translation import gettext, gettext_noop

from games.models import Game, PendingDecision, Player, Seat
from notifications.models import MailPreference
from notifications.services import kept_preferences
from notifications.services.mailwords import SUBJECTS

log = logging.getLogger(__name__)

Mode = MailPreference.Mode

# kinds that ``decisions`` and ``digest`` fold into the next mail's news
FOLDED = frozenset({"sealed", "year", "reveal", "defaulted"})

MODES = {
    "decisions": Mode.DECISIONS,
    "decision": Mode.DECISIONS,
    "entscheidungen": Mode.DECISIONS,
    "décisions": Mode.DECISIONS,
    "all": Mode.ALL,
    "alle": Mode.ALL,
    "alles": Mode.ALL,
    "tout": Mode.ALL,
    "tous": Mode.ALL,
    "digest": Mode.DIGEST,
    "zusammenfassung": Mode.DIGEST,
    "täglich": Mode.DIGEST,
    "taeglich": Mode.DIGEST,
    "résumé": Mode.DIGEST,
    "resume": Mode.DIGEST,
    "quotidien": Mode.DIGEST,
}
SWITCH = {"on": True, "an": True, "ein": True, "oui": True, "off": False, "aus": False, "non": False}
HERE = frozenset({"here", "hier", "ici"})
USAGE = (
    "Write one of: mail decisions, mail all, mail digest, picture on, picture off "
    "(add 'here' to set it for this game only)."
)

DESCRIPTIONS = {
    Mode.DECISIONS: gettext_noop(
        "a mail when you must decide and at the game's end; the rest is told in the next mail"
    ),
    Mode.ALL: gettext_noop("every mail: each reveal, each year, each move of the others"),
    Mode.DIGEST: gettext_noop(
        "a mail when you must decide, and one mail a day of news while you have nothing to decide"
    ),
}


@dataclass(frozen=True)
class Preferences:
    mode: str = Mode.DECISIONS
    picture: bool = True
    set_here: bool = False  # this game has a row of its own
    # what this game's own row says (empty, None: it follows the player's); the effective
    # settings above are what two preferences are compared by
    own_mode: str = field(default="", compare=False)
    own_picture: bool | None = field(default=None, compare=False)

    def describe(self) -> str:
        return gettext(DESCRIPTIONS[Mode(self.mode)])

    def own_lines(self, language: str) -> list[str]:
        """The lines that set this game's own settings, in ``language`` (``mail digest here``)."""
        lines = []
        if self.own_mode:
            lines.append(line(language, mode=self.own_mode, here=True))
        if self.own_picture is not None:
            lines.append(line(language, picture=self.own_picture, here=True))
        return lines


# how a setting is written in each language: the first spelling of each word above
_SPELLED: dict[str, dict[str, str]] = {
    "en": {"mail": "mail", "picture": "picture", "decisions": "decisions", "all": "all", "digest": "digest"}
    | {"on": "on", "off": "off", "here": "here"},
    "de": {"mail": "post", "picture": "bild", "decisions": "entscheidungen", "all": "alle"}
    | {"digest": "zusammenfassung", "on": "an", "off": "aus", "here": "hier"},
    "fr": {"mail": "courrier", "picture": "image", "decisions": "décisions", "all": "tout"}
    | {"digest": "résumé", "on": "oui", "off": "non", "here": "ici"},
}


def line(language: str, *, mode: str = "", picture: bool | None = None, here: bool = False) -> str:
    """A setting as a player writes it in ``language``: ``mail digest here``, ``bild aus``."""
    words = _SPELLED.get(language, _SPELLED["en"])
    said = [words["mail"], words[mode]] if mode else [words["picture"], words["on" if picture else "off"]]
    return " ".join([*said, words["here"]] if here else said)


class BadSetting(ValueError):
    pass


@dataclass(frozen=True)
class Setting:
    mode: str | None = None
    picture: bool | None = None
    here: bool = False


def parse(line: str) -> Setting:
    """``mail all``, ``Bild aus hier``, ``courrier résumé``…; raises BadSetting."""
    words = line.lower().split()
    here = len(words) == 3 and words[2] in HERE
    if len(words) != (3 if here else 2) or words[0] not in SUBJECTS:
        raise BadSetting(USAGE)
    if SUBJECTS[words[0]] == "mail":
        if words[1] not in MODES:
            raise BadSetting(USAGE)
        return Setting(mode=MODES[words[1]], here=here)
    if words[1] not in SWITCH:
        raise BadSetting(USAGE)
    return Setting(picture=SWITCH[words[1]], here=here)


def forget(player: Player, game: Game) -> None:
    """The game is no longer set apart: the player's settings for all games hold there again."""
    MailPreference.objects.filter(player=player, game=game).delete()


def set_apart(player: Player) -> list[int]:
    """The ids of the games where the player has settings of their own."""
    return list(
        MailPreference.objects.filter(player=player, game__isnull=False).values_list("game_id", flat=True)
    )


def is_setting(line: str) -> bool:
    return line.split()[0].lower() in SUBJECTS


def apply(player: Player, game: Game | None, setting: Setting) -> None:
    """Store the setting for the player's games (or only this one; the player's own page sets
    it for all their games, with no game at hand)."""
    row, _ = MailPreference.objects.get_or_create(player=player, game=game if setting.here else None)
    if setting.mode is not None:
        row.mode = setting.mode
    if setting.picture is not None:
        row.picture = setting.picture
    row.save()


def apply_by_mail(player: Player, game: Game | None, setting: Setting) -> list[dict[str, Any]]:
    """A setting written in a mail: ``here`` sets this game only; without it the setting is
    for all the player's games, every one of them: a game's own setting of the same kind
    (``mail digest here`` before ``mail decisions``) is cleared, so that the line does what
    it says.  The games whose own setting was cleared, as the answer tells them:
    ``{"game": id, "mode": "digest"}`` or ``{"game": id, "picture": False}``."""
    apply(player, game, setting)
    if setting.here:
        return []
    cleared: list[dict[str, Any]] = []
    rows = MailPreference.objects.select_for_update().filter(player=player, game__isnull=False)
    for row in rows.order_by("game_id"):
        if setting.mode is not None and row.mode:
            cleared.append({"game": row.game_id, "mode": row.mode})
            row.mode = ""
        if setting.picture is not None and row.picture is not None:
            cleared.append({"game": row.game_id, "picture": row.picture})
            row.picture = None
        if not row.mode and row.picture is None:
            row.delete()
        else:
            row.save()
    return cleared


def of(player_id: int, game_id: int | None) -> Preferences:
    return for_players([player_id], game_id)[player_id]


def for_players(player_ids: list[int], game_id: int | None) -> dict[int, Preferences]:
    """The preferences of these players in this game: one query."""
    found = {
        (player, game is not None): (mode, picture)
        for player, game, mode, picture in _rows(player_ids, game_id)
    }
    out = {}
    for pid in player_ids:
        mode, picture = str(Mode.DECISIONS), True
        here = False
        for key in ((pid, False), (pid, True)):  # the player's row, then the game's over it
            row = found.get(key)
            if row is None:
                continue
            here = here or key[1]
            mode = row[0] or mode
            picture = picture if row[1] is None else bool(row[1])
        own = found.get((pid, True))
        out[pid] = Preferences(
            mode,
            picture,
            here,
            own_mode=(own[0] or "") if own else "",
            own_picture=None if own is None or own[1] is None else bool(own[1]),
        )
    return out


def _rows(player_ids: list[int], game_id: int | None) -> list[tuple[int, int | None, str, bool | None]]:
    """(player, game, mode, picture) of the players' own rows and their rows for the game:
    every move that folds a mail asks this, so the process keeps them (``kept_preferences``)."""
    if not player_ids:
        return []
    return kept_preferences.rows(player_ids, game_id, _read)


def _read(player_ids: list[int], game_id: int | None) -> list[tuple[int, int | None, str, bool | None]]:
    """Raw SQL: the ORM's OR of two filters cost more to build than to run."""
    table = MailPreference._meta.db_table
    marks = ", ".join("%s" for _ in player_ids)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT player_id, game_id, mode, picture FROM {table} "
            f"WHERE player_id IN ({marks}) AND (game_id IS NULL OR game_id = %s)",
            [*player_ids, game_id or 0],
        )
        found: list[tuple[int, int | None, str, bool | None]] = cursor.fetchall()
        return found


def wanted(kind: str, seat: int, hit: Collection[int], prefs: Preferences) -> bool:
    """Does the seat's player want this mail now?  (``hit``: the seats a default was played for.)"""
    if prefs.mode == Mode.ALL or kind not in FOLDED:
        return True
    return kind == "defaulted" and seat in hit


# --- the daily digest ----------------------------------------------------------------------------


def digest_seats() -> list[Seat]:
    """Seats of running games whose player wants a digest and who owe no decision there (a
    seat the bot plays gets no mail at all, digests included)."""
    players = set(MailPreference.objects.filter(mode=Mode.DIGEST).values_list("player_id", flat=True))
    if not players:
        return []
    seats = list(
        Seat.objects.filter(
            player_id__in=players, game__status=Game.Status.RUNNING, bot_since__isnull=True
        ).select_related("game")
    )
    owing = set(
        PendingDecision.objects.owed()
        .filter(game_id__in={s.game_id for s in seats})
        .values_list("game_id", "seat")
    )
    return [
        s
        for s in seats
        if (s.game_id, s.position) not in owing and of(s.player_id, s.game_id).mode == Mode.DIGEST
    ]
