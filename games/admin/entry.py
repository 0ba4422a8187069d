"""The moderators' page for entering a game played elsewhere by hand: a header,
then lines one at a time, each answered at once (``games.rules.entry.Draft``), the board on
request, the draft kept after every line taken so that it can be continued later, and, once
complete, imported as a game (``games.jobs.import_record``, as ``manage.py import_game``).

Who may: the moderators (``games.services.permissions``), as for the audit pages.  The draft is a
working copy (``RecordDraft``), not a game: nothing of it is an event until it is imported.
"""

from __future__ import annotations

from typing import NamedTuple

from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext

from games import jobs, services
from games.admin.views import _moderator
from games.models import RecordDraft
from games.rules.base import IllegalCommand
from games.rules.entry import HELP, Answer, Draft
from games.services import permissions

MOST_LEGAL = 40  # the legal lines the page lists


class Said(NamedTuple):
    """A line's answer as the page shows it."""

    ok: bool
    text: str


def _said(answer: Answer) -> str:
    """What a line came to, in the moderator's language where the engine narrated it."""
    if answer.said:
        return " ".join(m.render(gettext) for m in answer.said)
    return answer.text.removeprefix("Taken: ")  # the page says "Taken" itself


def _draft(record: RecordDraft) -> tuple[Draft, str]:
    return Draft.load(record.text, lambda rules, name: services.board(name, rules), services.parse_command)


def enter_view(
    model_admin: admin.ModelAdmin[RecordDraft], request: HttpRequest, draft_id: int
) -> HttpResponse:
    """The draft, what the last lines came to, what may come next, and the form for more."""
    _moderator(request)
    record = get_object_or_404(permissions.drafts_of(request.user), pk=draft_id)  # scoped as games
    draft, said = _draft(record)
    answers: list[Answer] = []
    show_board = False
    here = reverse("admin:games_recorddraft_enter", args=[record.pk])
    if request.method == "POST":
        action = request.POST.get("action", "lines")
        if action == "undo":
            answers.append(draft.undo())
        elif action == "board":
            show_board = True
        elif action == "import":
            return _import(request, record, draft, here)
        else:
            for line in request.POST.get("lines", "").splitlines() or [""]:
                answer = draft.feed(line)
                answers.append(answer)
                if not answer.ok:
                    break
        if draft.text != record.text:
            record.text = draft.text
            record.save(update_fields=["text", "updated_at"])
    refused = next((a for a in answers if not a.ok), None)
    legal = list(refused.legal) if refused is not None and refused.legal else draft.legal()
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": RecordDraft._meta,
        "title": gettext("Entering %(name)s") % {"name": record.name},
        "record": record,
        "text": draft.text,
        "said": said,
        "answers": [Said(a.ok, _said(a)) for a in answers],
        "next_up": draft.next_up_message().render(gettext),
        "legal": legal[:MOST_LEGAL],
        "more_legal": max(0, len(legal) - MOST_LEGAL),
        "board": draft.board() if show_board else "",
        "in_header": draft.reader is None,
        "complete": draft.reader is not None and not draft.reader.waiting() and draft.reader.started,
        "help": HELP,
        "here": here,
    }
    return TemplateResponse(request, "admin/games/recorddraft/enter.html", context)


def _import(request: HttpRequest, record: RecordDraft, draft: Draft, here: str) -> HttpResponse:
    try:
        draft.finished()
        game = jobs.import_record(draft.text)
    except IllegalCommand as error:
        messages.error(request, gettext("Not complete: %(error)s") % {"error": error.message})
        return HttpResponseRedirect(here)
    except jobs.JobError as error:
        messages.error(request, str(error))
        return HttpResponseRedirect(here)
    record.game = game
    record.save(update_fields=["game", "updated_at"])
    messages.success(request, gettext("Imported as game %(id)s: %(game)s.") % {"id": game.pk, "game": game})
    return HttpResponseRedirect(reverse("games:game", args=[game.pk]))
