"""The site's own middleware: French typography on the pages, as on the mails (one function,
``games.presentation.typography``, applied to every French HTML page once it is rendered, so no
template or catalogue string has to carry a no-break space by hand); and a request that leaves
its thread in the language it found it in."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from games.presentation.typography import french_typography_html, is_french


class FrenchTypographyMiddleware:
    """Listed before ``LocaleMiddleware``: it sees the response's ``Content-Language``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            not response.streaming
            and is_french(response.get("Content-Language") or "none")
            and response.get("Content-Type", "").startswith("text/html")
            and not request.path.startswith("/admin/")
        ):
            charset = response.charset or "utf-8"
            response.content = french_typography_html(response.content.decode(charset)).encode(charset)
            if response.has_header("Content-Length"):  # set by CommonMiddleware for the text before
                response.headers["Content-Length"] = str(len(response.content))
        return response


class LanguageKeptMiddleware:
    """Listed before ``LocaleMiddleware``: the reader's language it activates for a request is
    the thread's only for that request.  ``LocaleMiddleware`` activates the language and leaves
    it active when the response is done, so whatever the thread runs next (a mail rendered in
    the same process, the next test after a page was fetched in French) would speak the last
    reader's language instead of its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with translation.override(translation.get_language(), deactivate=False):
            return self.get_response(request)
