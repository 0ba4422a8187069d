"""The board picture in a mail: an inline PNG in the HTML part, the text board kept for
plain-text readers.

The picture shows public facts only (it is drawn from the spectator's view), so every seat's
mail about one event shows the same picture: it is drawn once per (game, event, language —
the panel's words are the reader's) and kept in ``BoardPicture``, a cache in the database
rather than in Django's cache, because the mails of one event are sent by several worker
processes (and retried by others later), and the database is the one store they all share
on every deployment (the local default has no Redis); the unique key makes two workers that
race on a new event harmless (the second insert is ignored; both drew the same bytes).
The mail sweep drops rows a few days old.

Which mails carry it: those that show a new board (the game began or moved on, a rollback,
the end) or ask for a decision, and the ``status`` answer (the player asked for the board);
never to a player who wrote ``picture off``, and not where the seat's last picture shows the
same map (``picture_for``: then the picture is not even rasterised unless another mail of
that event needs it).  The Content-ID is fixed by the row's Message-ID, because the stored
HTML refers to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from email.mime.image import MIMEImage
from typing import Any

from django.core.mail import EmailMultiAlternatives
from django.db.models import BinaryField, Case, Value, When
from django.utils import timezone
from django.utils.translation import gettext

from games.models import Game, Seat
from games.presentation.picture import PNG_WIDTH, Drawn, board_svg, draw_png, has_picture, parts_of
from games.rules.base import Rules
from notifications.models import BoardPicture, OutboundMail

# mails that show a board the player has not seen yet, or a decision
NEW_BOARD = frozenset(
    {
        "invitation",
        "decision",
        "reveal",
        "year",
        "game_over",
        "defaulted",
        "rolled_back",
        "reminder",
        "status",
    }
)
# notices that carry the menu again when the seat must decide (their context names the decision)
PROMPTING = frozenset({"resumed", "deadline_extended", "back", "rolled_back"})
KEEP = timedelta(days=3)  # long enough for every retry of a mail (the last is after about 21 h)


# mails that carry the picture even when the seat's last one showed the same map: the game's
# first and last boards, a rollback's, and the board a player asked for
ALWAYS = frozenset({"invitation", "game_over", "rolled_back", "status"})
# the parts of the picture that are the map (the rest is the panel: year, step, scores, whose
# move, all said in the mail's text as well)
MAP_PART = "province-"


def shows_picture(mail: OutboundMail) -> bool:
    if mail.game is not None and not has_picture(mail.game.rules):  # its text board alone
        return False
    return mail.kind in NEW_BOARD or (mail.kind in PROMPTING and bool(mail.context.get("decision")))


def picture_for(mail: OutboundMail, game: Game, language: str, state: Any, names: Mapping[str, str]) -> bytes:
    """The PNG ``mail`` carries, or ``b""`` where the seat's last picture shows this very map
    (the text board is always there).

    The picture is rasterised only when a mail needs it: for a new event the SVG's parts are
    worked out first (about a hundredth of the rasterising), and where the map is the one the
    seat was last shown, the row keeps those parts and no PNG (a sketch).  A later mail of the
    same event that does need the picture (another seat's, whose map did change) draws it
    then and fills the row in.  A game without a picture (``games.presentation.picture.has_picture``)
    has its text board alone: ``b""``."""
    if not has_picture(game.rules):
        return b""
    previous = _previous_board(mail)
    if previous == mail.seq:  # the seat's last board mail was about this very event
        return b""
    # this event's picture and the parts of the seat's previous one, in one read (the
    # previous one's PNG is not fetched: its parts say whether the map is the same)
    kept = {
        seq: (bytes(png), parts)
        for seq, png, parts in BoardPicture.objects.filter(
            game=game, language=language, seq__in={mail.seq, mail.seq if previous is None else previous}
        )
        .annotate(here=Case(When(seq=mail.seq, then="png"), default=Value(b""), output_field=BinaryField()))
        .values_list("seq", "here", "parts")
    }
    row = kept.get(mail.seq)
    if row is not None:
        png, parts = row
    else:
        png, parts = b"", parts_of(_svg(game.engine, state, names))
    if previous is not None and _same_map(kept.get(previous, (b"", {}))[1], parts):
        if row is None:  # kept, so that the next mail compares with this event's map
            BoardPicture.objects.bulk_create(
                [BoardPicture(game=game, seq=mail.seq, language=language, png=b"", parts=parts, bands=[])],
                ignore_conflicts=True,
            )
        return b""
    return png or _drawn(game, mail.seq, language, state, names, sketched=row is not None)


def _previous_board(mail: OutboundMail) -> int | None:
    """The event of the seat's previous board mail, written before this one (a reminder speaks
    of the event its decision did).

    Comparing with the previous board mail is enough: a mail that left its picture out showed
    the map of the last one that carried it, so by induction the seat's newest picture shows
    that map too.  Mails that failed do not count (the player never saw them)."""
    if mail.kind in ALWAYS or mail.game_id is None or mail.seat is None:
        return None
    return (
        OutboundMail.objects.filter(
            game_id=mail.game_id, seat=mail.seat, seq__lte=mail.seq, kind__in=NEW_BOARD | PROMPTING
        )
        .filter(pk__lt=mail.pk if mail.pk is not None else 2**62)
        .exclude(status=OutboundMail.Status.FAILED)
        .order_by("-seq", "-pk")
        .values_list("seq", flat=True)
        .first()
    )


def _same_map(then: Mapping[str, Any], parts: Mapping[str, Any]) -> bool:
    """Whether ``parts`` (of a picture) show the map of the picture of the seat's previous board
    mail (``then``: its parts); where those are no longer kept (pruned), no."""
    return bool(parts) and bool(then) and _map_of(then) == _map_of(parts)


def _map_of(parts: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in parts.items() if k.startswith(MAP_PART)}


def picture_cid(mail: OutboundMail) -> str:
    """The Content-ID of the row's picture, without angle brackets."""
    return f"board.{mail.message_id}"


def _drawn(
    game: Game, seq: int, language: str, state: Any, names: Mapping[str, str], *, sketched: bool
) -> bytes:
    """Rasterise the board after ``seq`` and keep it (``sketched``: its row holds the parts
    only, and gets the PNG now)."""
    # the newest picture of the game drawn before it in this language: only what changed
    # since is drawn again (any earlier picture would do: the parts say what differs)
    before = (
        BoardPicture.objects.filter(game=game, language=language, seq__lt=seq)
        .exclude(parts={})
        .exclude(png=b"")
        .order_by("-seq")
        .values_list("png", "parts", "bands")
        .first()
    )
    earlier = (
        Drawn(bytes(before[0]), before[1], before[2]) if before else _of_another_game(game, seq, language)
    )
    drawn = draw_of(game.engine, state, names, earlier)  # the call benchmarks and tests wrap
    png = bytes(drawn)
    parts, bands = (dict(drawn.parts), list(drawn.bands)) if isinstance(drawn, Drawn) else ({}, [])
    if sketched:  # another worker may have drawn it meanwhile: the same bytes
        BoardPicture.objects.filter(game=game, seq=seq, language=language).update(
            png=png, parts=parts, bands=bands
        )
    else:  # ignore_conflicts: another worker stored it meanwhile (the same bytes); no error to roll back
        BoardPicture.objects.bulk_create(
            [BoardPicture(game=game, seq=seq, language=language, png=png, parts=parts, bands=bands)],
            ignore_conflicts=True,
        )
    return png


# how far back another game's picture is looked for (a season's games start within minutes)
KIN_WINDOW = timedelta(hours=1)


def _of_another_game(game: Game, seq: int, language: str) -> Drawn | None:
    """For a game's first picture: the picture of the same event of another game just like it
    (the same game, board and seat colours), drawn within the last hour, to draw this one from
    (only the panel's names and the parts that differ are drawn again).  A season's start draws
    its thousands of invitations' boards so instead of each from nothing: the start's map is
    the same in every game.  Same colours, because a redrawn picture keeps the palette of the
    one it is drawn from."""
    colours = list(game.seats.order_by("position").values_list("colour", flat=True))
    kin = (
        BoardPicture.objects.filter(
            created_at__gte=timezone.now() - KIN_WINDOW,
            language=language,
            seq=seq,
            game__rules=game.rules,
            game__board=game.board,
        )
        .exclude(game=game)
        .exclude(parts={})
        .exclude(png=b"")
        .order_by("-created_at")
        .values_list("game_id", "png", "parts", "bands")[:3]
    )
    for game_id, png, parts, bands in kin:
        theirs = Seat.objects.filter(game_id=game_id).order_by("position").values_list("colour", flat=True)
        if list(theirs) == colours:
            return Drawn(bytes(png), parts, bands)
    return None


def _svg(rules: Rules, state: Any, names: Mapping[str, str]) -> str:
    view = rules.view(state, None)
    return board_svg(state.board, view, names=names, rules=rules.name, translate=gettext)


def draw_of(rules: Rules, state: Any, names: Mapping[str, str], before: Drawn | None = None) -> Drawn:
    """Rasterise the spectator's board of a state of the game ``rules`` (the one call
    the cache saves), from the picture of an earlier event where there is one."""
    return draw_png(_svg(rules, state, names), PNG_WIDTH, before)


def attach_picture(message: EmailMultiAlternatives, mail: OutboundMail, png: bytes) -> None:
    """Add the picture as an inline PNG; the message becomes multipart/related, so mail
    clients show it inside the HTML part instead of as an attachment."""
    image = MIMEImage(png, "png")
    image.add_header("Content-Disposition", "inline", filename="board.png")
    image.add_header("Content-ID", f"<{picture_cid(mail)}>")
    message.attach(image)
    message.mixed_subtype = "related"


def prune(now: Any = None) -> int:
    """Drop pictures older than ``KEEP`` (the mail sweep calls it)."""
    cutoff = (now or timezone.now()) - KEEP
    deleted, _ = BoardPicture.objects.filter(created_at__lt=cutoff).delete()
    return deleted
