"""The board picture in a mail: an inline PNG in the HTML part, the text board kept for
plain-text readers.

The SVG is drawn with the mail's text, from the same view (``emails._game_mail``), and is
not stored: a row's text is only kept once the mail went out, so every attempt renders text
and picture afresh from the row's event, and both come out the same each time (the PNG is
drawn with the fonts shipped in ``games/picture/fonts`` only, so it is the same bytes on any
machine).  The Content-ID is fixed by the row's Message-ID, because the stored HTML refers
to it (anymail's ``attach_inline_image`` makes a new random one on each call).
"""

from __future__ import annotations

from email.mime.image import MIMEImage

from django.core.mail import EmailMultiAlternatives

from games.picture import PNG_WIDTH, svg_to_png

from .models import OutboundMail

# the mails that show the board; answers to help and log, and refusals, keep to their point
PICTURE_KINDS = frozenset(
    {
        "invitation",
        "decision",
        "sealed",
        "reveal",
        "year",
        "game_over",
        "reminder",
        "status",
        "defaulted",
        "paused",
        "resumed",
        "rolled_back",
        "deadline_extended",
        "seat_replaced",
        "vacation",
        "back",
        "time_controls",
    }
)


def picture_cid(mail: OutboundMail) -> str:
    """The Content-ID of the row's picture, without angle brackets."""
    return f"board.{mail.message_id}"


def attach_picture(message: EmailMultiAlternatives, mail: OutboundMail, svg: str) -> None:
    """Add the picture as an inline PNG; the message becomes multipart/related, so mail
    clients show it inside the HTML part instead of as an attachment."""
    image = MIMEImage(svg_to_png(svg, PNG_WIDTH), "png")
    image.add_header("Content-Disposition", "inline", filename="board.png")
    image.add_header("Content-ID", f"<{picture_cid(mail)}>")
    message.attach(image)
    message.mixed_subtype = "related"
