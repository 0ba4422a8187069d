"""The mailbox page: pick an address, read its mails, answer as that address.

Only with ``settings.LOCAL_MAILBOX`` (on by default when ``DEBUG``): otherwise every URL here
is a 404, so production never shows it.  The stored HTML is served to a sandboxed iframe with
a Content-Security-Policy that forbids scripts and anything outside this site.
"""

from __future__ import annotations

import smtplib
import time
from collections.abc import Callable
from email.message import EmailMessage
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.db.models import Count, Max
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_POST

from games.models import Seat
from notifications.localmail.bots import is_bot
from notifications.localmail.models import LocalMail
from notifications.localmail.reading import html_for_frame, read
from notifications.localmail.replying import send_reply
from notifications.models import InboundMail
from notifications.services.redact import redact

FRAME_POLICY = "sandbox allow-popups allow-popups-to-escape-sandbox; default-src 'none'; " + (
    "img-src 'self' data:; style-src 'unsafe-inline'"
)
MAX_BODY = 4000
WAIT_FOR_PROCESSING = 5.0  # seconds


def mailbox_only(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not settings.LOCAL_MAILBOX:
            raise Http404("The local mailbox is off (it is for local play only).")
        return view(request, *args, **kwargs)

    return guarded


def _seats(address: str) -> list[Seat]:
    return list(
        Seat.objects.select_related("game", "player")
        .filter(player__email__iexact=address)
        .order_by("-game_id", "position")
    )


@mailbox_only
def index(request: HttpRequest) -> HttpResponse:
    boxes = [
        {**box, "bot": is_bot(box["to_address"]), "seats": _seats(box["to_address"])}
        for box in LocalMail.objects.values("to_address").annotate(count=Count("id"), last=Max("id"))
    ]
    boxes.sort(key=lambda b: (b["bot"], -b["last"]))  # people first, the busiest box on top
    return render(request, "notifications/mailbox/index.html", {"boxes": boxes})


@mailbox_only
def address_view(request: HttpRequest, address: str, pk: int | None = None) -> HttpResponse:
    address = address.lower()
    mails = list(LocalMail.objects.filter(to_address=address).defer("raw").order_by("-id")[:200])
    if pk is None and mails:
        pk = mails[0].pk
    current = get_object_or_404(LocalMail, pk=pk, to_address=address) if pk is not None else None
    seen = _int(request.GET.get("seen"))
    context = {
        "address": address,
        "bot": is_bot(address),
        "mails": mails,
        "current": current,
        "reading": read(current) if current is not None else None,
        "seats": _seats(address),
        "seen": seen,
        "newest": mails[0].pk if mails else 0,
        "since": list(LocalMail.objects.filter(pk__gt=seen).defer("raw").order_by("pk")[:50]) if seen else [],
    }
    return render(request, "notifications/mailbox/address.html", context)


@mailbox_only
@xframe_options_sameorigin
def mail_html(request: HttpRequest, pk: int) -> HttpResponse:
    mail = get_object_or_404(LocalMail, pk=pk)
    response = HttpResponse(html_for_frame(read(mail).html, mail.pk), content_type="text/html; charset=utf-8")
    response["Content-Security-Policy"] = FRAME_POLICY
    return response


@mailbox_only
def mail_cid(request: HttpRequest, pk: int, cid: str) -> HttpResponse:
    part = read(get_object_or_404(LocalMail, pk=pk)).inline.get(cid)
    if part is None:
        raise Http404("No inline part with that Content-ID in this mail.")
    response = HttpResponse(part.data, content_type=part.content_type)
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "sandbox; default-src 'none'"
    return response


@mailbox_only
def mail_raw(request: HttpRequest, pk: int) -> HttpResponse:
    mail = get_object_or_404(LocalMail, pk=pk)
    return HttpResponse(bytes(mail.raw), content_type="text/plain; charset=utf-8")


@mailbox_only
@require_POST
def reply(request: HttpRequest, pk: int) -> HttpResponse:
    mail = get_object_or_404(LocalMail, pk=pk)
    here = f"/mailbox/{mail.to_address}/{mail.pk}/"
    body = request.POST.get("commands", "").strip()
    if not body:
        messages.error(request, "Write at least one command line to send.")
        return redirect(here)
    if len(body) > MAX_BODY:
        messages.error(request, f"That is more than {MAX_BODY} characters: nothing was sent.")
        return redirect(here)
    newest = LocalMail.objects.aggregate(m=Max("id"))["m"] or 0
    try:
        sent = send_reply(mail, body)
    except (smtplib.SMTPException, OSError) as error:
        messages.error(
            request,
            f"Could not send by SMTP to {settings.SMTPD_HOST}:{settings.SMTPD_PORT} ({error}). "
            "Is the SMTP listener running (scripts/serve starts it)?",
        )
        return redirect(here)
    level, outcome = _outcome(sent)
    messages.add_message(request, level, f'Sent "{sent["Subject"]}" to the game by SMTP. {outcome}')
    return redirect(f"/mailbox/{mail.to_address}/?seen={newest}")


# what the reply's outcome looks like on the page: only applied commands (or a status or help
# answer) are a success; a refusal, a reply the game would not take from this address or seat,
# and a mail it did not read at all are shown as what they are
_LEVELS = {
    InboundMail.Status.APPLIED: messages.SUCCESS,
    InboundMail.Status.ANSWERED: messages.SUCCESS,
    InboundMail.Status.REFUSED: messages.ERROR,
    InboundMail.Status.WRONG_SENDER: messages.ERROR,
    InboundMail.Status.FORMER_SEAT: messages.ERROR,
    InboundMail.Status.UNKNOWN: messages.WARNING,
    InboundMail.Status.IGNORED: messages.WARNING,
    InboundMail.Status.UNREADABLE: messages.WARNING,
}
_ANSWERED = {
    InboundMail.Status.REFUSED: "Refused: nothing was played. The answer in this mailbox says why and "
    "what is legal.",
    InboundMail.Status.WRONG_SENDER: "Not taken: this address does not hold the seat. The answer says which "
    "address does.",
    InboundMail.Status.FORMER_SEAT: "Not taken: the seat has been handed to another player since.",
    InboundMail.Status.UNKNOWN: "Not taken: the mail has no valid reply address, so nobody answers it.",
    InboundMail.Status.IGNORED: "Not taken: it looks like an automatic mail, which the game does not answer.",
    InboundMail.Status.UNREADABLE: "Not taken: the game could not read it as a mail.",
}


def _outcome(sent: EmailMessage) -> tuple[int, str]:
    """What the inbound pipeline made of the reply, and how it is shown.  With tasks in-process
    it is done when the listener says 250; with a worker it may take a moment, which is worth
    waiting for here."""
    message_id = str(sent["Message-ID"]).strip().strip("<>")
    deadline = time.monotonic() + WAIT_FOR_PROCESSING
    while True:
        stored = InboundMail.objects.filter(message_id=message_id).first()
        if stored is not None and stored.status != InboundMail.Status.NEW:
            break
        if time.monotonic() > deadline:
            return messages.INFO, "It is waiting to be processed: refresh in a moment."
        time.sleep(0.2)
    status = InboundMail.Status(stored.status)
    said = f"The game says: {stored.get_status_display()} ({redact(stored.outcome)})."
    lead = _ANSWERED.get(status, "")
    return _LEVELS.get(status, messages.INFO), f"{lead} {said}" if lead else said


def _int(value: str | None) -> int:
    try:
        return int(value or 0)
    except ValueError:
        return 0
