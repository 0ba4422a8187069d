"""Game pages: the public page (spectator view), the private seat page (secret link), the
player's own page (secret link: their games and settings) and the replay viewer.
Server-rendered; the replay page's script only fetches a step's fragment to step without a
reload, and every control is a plain link that works without it.

Who reads decides what is rendered: a spectator gets ``rules.view(state, None)`` and the public
log; a seat page ``rules.view(state, seat)`` and the lines said to that seat; the replay of a
finished game every seat's view and the whole log, sealed choices included.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.views.decorators.http import require_POST

from games import jobs, services
from games.jobs import record_json
from games.models import Game, Player, Seat
from games.presentation import display as pages
from games.presentation import zonechoice
from games.presentation.steps import Step, Timeline, at_head, timeline
from games.services import links
from games.services import press as table_talk
from games.web import archive, forms, player_games, seatpage
from notifications.services import preferences


def index(request: HttpRequest) -> HttpResponse:
    """Every game, searchable and paged (``games.web.archive``): the search is a plain GET form,
    so a search is a link."""
    form = archive.ArchiveForm(request.GET or None)
    page = archive.page_of(form.filtered(), request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "games/index.html",
        {
            "form": form,
            "page": page,
            "rows": archive.rows(list(page.object_list)),
            "query": query.urlencode(),
            "searched": any(v for k, v in request.GET.items() if k not in ("page", "order")),
            # the filters past the first are folded (a phone's first screen shows the results),
            # open when one of them is in use or the search could not be read
            "more_filters": bool(form.errors)
            or any(v for k, v in request.GET.items() if k in form.fields and k != next(iter(form.fields))),
        },
    )


def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    return render(request, "games/game.html", _page(game, None))


def seat_page(request: HttpRequest, key: str) -> HttpResponse:
    seat = links.seat_for_key(key)
    if seat is None:
        raise Http404()  # no hint whether the key never existed or its seat changed hands
    # in the player's language and time zone, as their mails are (the switcher may change the
    # language for this browser)
    with (
        translation.override(reader_language(request, seat.player)),
        timezone.override(player_games.zone_of(seat.player)),
    ):
        context = _page(seat.game, seat.position)
        context["seat"] = seat
        # the moves a mail may make now: none while the game is paused (or not started, or
        # over), when the service refuses every move
        running = seat.game.status == Game.Status.RUNNING
        rules = services.rules_of(seat.game)
        language = translation.get_language()
        context["menu"] = (
            rules.notation.describe(context["state"], seat.position, language) if running else []
        )
        # at the top: the decision in words, its deadline, and each command as a one-tap reply
        context["decision"] = seatpage.decision(seat, context["state"], rules, language)
        context["mail_settings"] = preferences.of(seat.player_id, seat.game_id)
        # the talk this seat said or was told, and nothing else (``Press.reaches``)
        colours = {s.position: s.colour for s in seat.game.seats.all()}
        context["press"] = table_talk.shown(table_talk.of_seat(seat.game, seat.position), colours)
        # no link to the player's own page: whoever holds this seat's link would see every seat
        # link of the player and could lock them out; that page is linked from their mails only
        response = render(request, "games/seat.html", context)
        response["Content-Language"] = translation.get_language()  # the page's, not the request's
    return _private(response)


def reader_language(request: HttpRequest, player: Player) -> str:
    """A player's own pages speak their language, unless this browser chose another with the
    switcher (its cookie)."""
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    return chosen if chosen in dict(settings.LANGUAGES) else player.language


def player_page(request: HttpRequest, key: str) -> HttpResponse:
    """The player's games (what they must decide first) and their settings, in their language
    and time zone.  A POST of a settings form is authorised by the key, as the page is: the
    settings for all games (``form=all``), one game set apart (``form=game``), or a game
    brought back to them (``form=forget``)."""
    player = links.player_for_key(key)
    if player is None:
        raise Http404()
    here = reverse("games:player", args=[key])
    zone = player_games.zone_of(player)
    with translation.override(reader_language(request, player)), timezone.override(zone):
        unfinished = player_games.unfinished(player)
        settings_now = preferences.of(player.pk, None)  # read once: a save redirects
        form = forms.SettingsForm(initial=forms.initial(player, settings_now))
        game_form = forms.GameSettingsForm(unfinished, initial={"mode": settings_now.mode})
        refused = False
        if request.method == "POST":
            which = request.POST.get("form", "all")
            if which == "game":
                game_form = forms.GameSettingsForm(unfinished, request.POST)
                if game_form.is_valid():
                    chosen = forms.save_game(player, game_form)
                    return redirect(f"{here}?saved=game&game={chosen.pk}#settings")
            elif which == "forget":
                game_id = request.POST.get("game", "")
                back = next((g for g in unfinished if str(g.pk) == game_id), None)
                if back is not None:
                    preferences.forget(player, back)
                    return redirect(f"{here}?saved=forget&game={back.pk}#settings")
            else:
                form = forms.SettingsForm(request.POST)
                if form.is_valid():
                    forms.save(player, form)
                    return redirect(f"{here}?saved=all#settings")
            refused = True
        apart = set(preferences.set_apart(player))
        saved_game = next((g for g in unfinished if str(g.pk) == request.GET.get("game")), None)
        context = {
            "player": player,
            "games": player_games.games_of(player, page=request.GET.get("page")),
            "form": form,
            "game_form": game_form,
            "apart": [(g, preferences.of(player.pk, g.pk)) for g in unfinished if g.pk in apart],
            "mail_settings": settings_now,
            "saved": "" if refused else request.GET.get("saved", ""),
            "saved_game": saved_game,
            "refused": refused,
            "renewed": request.GET.get("renewed") == "1",
            "unknown_zone": "" if forms.known_zone(player.time_zone) else player.time_zone,
            "zone_place": zonechoice.place(str(zone), translation.get_language() or "en"),
            "key": key,
        }
        # rendered here, in the reader's language and zone; a refused form is answered 400
        response = render(request, "games/player.html", context, status=400 if refused else 200)
        response["Content-Language"] = translation.get_language()
    return _private(response)


@require_POST
def renew_player_link(request: HttpRequest, key: str) -> HttpResponse:
    """A new link for the player's page; the old one (this one) opens nothing from now on."""
    player = links.player_for_key(key)
    if player is None:
        raise Http404()
    fresh = links.renew_player_key(player)
    return _private(redirect(reverse("games:player", args=[fresh]) + "?renewed=1"))


def _private(response: HttpResponse) -> HttpResponse:
    # the link is the credential: it must not leak through a Referer, a search index or a cache
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Cache-Control"] = "private, no-store"
    return response


def replay(request: HttpRequest, game_id: int, step: int | None = None) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    if step is None:
        asked = request.GET.get("step", "")  # the slider's form, without the script
        if asked.isascii() and asked.isdigit():  # "²" is a digit to isdigit, not to int
            return redirect("games:replay-step", game.pk, int(asked))
        step = 1
    if game.status == Game.Status.NEW and game.ready_until is not None:
        # its state is set up from the server's seed alone until the start mixes in the
        # seats' contributions: nobody may see it, nor a draw of it
        raise Http404("The replay opens when the game starts.")
    tl = timeline(game)
    current = tl.step(step)
    if current is None:
        raise Http404("There is no such step in this game.")
    seats = _seats(game)
    everything = game.status == Game.Status.FINISHED
    context = _frame(game, tl, current, seats, everything)
    if everything:  # once the game is over: every message, at the step it was said after
        later = tl.step(current.number + 1)
        said = game.press_messages.filter(seq__gte=current.event.seq).order_by("created_at", "pk")
        if later is not None:
            said = said.filter(seq__lt=later.event.seq)
        context["press"] = table_talk.shown(said, {s.position: s.colour for s in seats})
    if request.GET.get("fragment"):
        return render(request, "games/replay_frame.html", context)
    context["log"] = pages.log_html(tl, game, None, everything=everything, current=current.number)
    return render(request, "games/replay.html", context)


def _seats(game: Game) -> list[Seat]:
    return list(game.seats.select_related("player").order_by("position"))


def record(request: HttpRequest, game_id: int) -> HttpResponse:
    """A finished game's record, without the players' addresses: what anyone needs to check
    its draws (``python tools/verify_record.py record.txt``) or to import it elsewhere
    (``manage.py import_game``).  Not before the end: the record holds the seed, from which
    every future draw follows (and a record without it would not replay)."""
    game = _over(game_id)
    response = HttpResponse(jobs.export_record(game, public=True), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="game-{game.pk}.txt"'
    return response


def record_as_json(request: HttpRequest, game_id: int) -> HttpResponse:
    """The same record as JSON (``games.jobs.record_json``), on the same terms: finished games only."""
    game = _over(game_id)
    about = {
        "id": game.pk,
        "name": game.name or f"Game {game.pk}",  # data: the same whoever asks
        "game": services.rules_of(game).title,
        "status": game.status,
        "url": links.game_page_url(game),
    }
    data = record_json.from_text(jobs.export_record(game, public=True), about)
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'inline; filename="game-{game.pk}.json"'
    return response


def _over(game_id: int) -> Game:
    game = get_object_or_404(Game, pk=game_id)
    if game.status != Game.Status.FINISHED:
        raise Http404("The record is published when the game is over.")
    return game


def _page(game: Game, reader: int | None) -> dict[str, Any]:
    """The game at its head as ``reader`` (a seat, or None for a spectator) may see it."""
    seats = _seats(game)
    names = pages.names(seats)
    tl = at_head(game)  # no replay: the head's state and the log's lines are read
    state = tl.head.state
    view = pages.view_of(game, state, reader)
    # a game waiting for its players' ready: its draws are not made yet, so no board is shown
    waiting_ready = game.status == Game.Status.NEW and game.ready_until is not None
    return {
        "waiting_ready": waiting_ready,
        "record_url": reverse("games:record", args=[game.pk]) if game.status == Game.Status.FINISHED else "",
        "json_url": reverse("games:record-json", args=[game.pk])
        if game.status == Game.Status.FINISHED
        else "",
        "game": game,
        "game_title": pages.game_title(game.engine),
        "partials": pages.partials(game.rules),
        "state": state,
        "view": view,
        "board": "" if waiting_ready else pages.board(state, view, names, game=game),
        "board_text": "" if waiting_ready else pages.board_text(game, view, names),
        "players": pages.players(view, names, game.engine),
        "mine": None if waiting_ready else pages.hand(view, names, reader, rules=game.rules),
        "waiting": pages.waiting(game, view, names),
        "log": pages.log_html(tl, game, reader),
        "replay_url": reverse("games:replay-step", args=[game.pk, len(tl)]),
        "steps": len(tl),
    }


def _frame(game: Game, tl: Timeline, current: Step, seats: list[Seat], everything: bool) -> dict[str, Any]:
    """One replay step: the board and players after it, what happened in it, and (once the
    game is over) what each seat held at that moment."""
    names = pages.names(seats)
    state = current.state
    view = pages.view_of(game, state, None)
    colours = tuple(s.colour for s in seats)
    n = current.number
    return {
        "game": game,
        "game_title": pages.game_title(game.engine),
        "partials": pages.partials(game.rules),
        "view": view,
        "step": n,
        "steps": len(tl),
        "seq": current.event.seq,
        "item": pages.log_items_for(tl, current, colours, None, everything=everything),
        "comments": pages.step_comments(tl, current),
        "chance": pages.step_chance(tl, current) if everything else [],
        "board": pages.board(state, view, names, game=game),
        "players": pages.players(view, names, game.engine),
        "hands": [
            pages.hand(pages.view_of(game, state, s.position), names, s.position, rules=game.rules)
            for s in seats
        ]
        if everything
        else [],
        "everything": everything,
        "url": reverse("games:replay-step", args=[game.pk, n]),
        "link": links.replay_url(game, n),
        "first_url": reverse("games:replay-step", args=[game.pk, 1]),
        "last_url": reverse("games:replay-step", args=[game.pk, len(tl)]),
        "prev_url": reverse("games:replay-step", args=[game.pk, n - 1]) if n > 1 else "",
        "next_url": reverse("games:replay-step", args=[game.pk, n + 1]) if n < len(tl) else "",
        "game_url": reverse("games:game", args=[game.pk]),
    }
