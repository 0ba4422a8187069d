"""What the admin answers for an object the user may not see: a plain 404, as for one that
is not there.

Django's admin answers a change, delete or history page of an object outside the model
admin's queryset with a redirect and "… with ID “2” doesn't exist. Perhaps it was deleted?":
untrue for another league's game or season, and a message that tells apart an id that exists
from one that does not only by luck.  Every model admin of the moderators' admin mixes this in.
"""

from __future__ import annotations

from typing import Any, NoReturn

from django.http import Http404, HttpRequest


class NotFoundOutsideScope:
    """Answer 404 (GET and POST alike) for an object outside the user's queryset."""

    def _get_obj_does_not_exist_redirect(self, request: HttpRequest, opts: Any, object_id: str) -> NoReturn:
        raise Http404
