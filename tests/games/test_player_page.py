"""A player's own page behind its secret link: their games (what they must decide first, with
the deadline in their own time zone), their leagues, and their settings, which the page's form
changes as the mail commands do."""

from __future__ import annotations

import html
import random
import re
import zoneinfo
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from games import services
from games.models import Game, PendingDecision, Player, PlayerKey
from games.presentation import steps
from games.rules import whitelotus as wl
from games.services import links
from leagues.models import League, Season
from notifications.models import OutboundMail
from notifications.outbound import emails
from notifications.services import preferences
from notifications.services.redact import redact
from tests.games.factories import play_randomly, players, running_game

pytestmark = pytest.mark.django_db

SETTINGS = {"mode": "all", "picture": "", "language": "de", "time_zone": "Europe/Berlin"}


@pytest.fixture(autouse=True)
def _fresh_timelines() -> None:
    steps.clear_cache()


def page_of(player: Player) -> str:
    return urlsplit(links.player_page_url(player)).path


def read(response) -> str:
    return html.unescape(response.content.decode()).replace("\xa0", " ")


def section(text: str, name: str) -> str:
    found = re.search(rf'<section id="{name}">(.*?)</section>', text, flags=re.DOTALL)
    assert found, f"no section {name}"
    return found.group(1)


def ada() -> Player:
    return Player.objects.get(email="ada@example.org")


# --- the key ----------------------------------------------------------------------------------


def test_the_page_opens_with_the_players_key_and_says_it_is_private():
    running_game(3, seed="me-open")
    url = links.player_page_url(ada())
    assert url.startswith("http://localhost:8000/me/") and links.player_page_url(ada()) == url
    assert re.fullmatch(r"[a-z2-7]{26}", url.rstrip("/").rsplit("/", 1)[1])  # 128 bits in base32
    response = Client().get(urlsplit(url).path)
    assert response.status_code == 200
    assert response["Referrer-Policy"] == "no-referrer" and "noindex" in response["X-Robots-Tag"]
    text = read(response)
    assert "<h1>Games of Ada</h1>" in text and "This page is private; do not share the link." in text


def test_a_bad_key_is_a_plain_404_for_the_page_and_its_forms():
    running_game(3, seed="me-bad")
    client = Client()
    assert client.get(reverse("games:player", args=["a" * 26])).status_code == 404
    assert client.post(reverse("games:player", args=["a" * 26]), SETTINGS).status_code == 404
    assert client.post(reverse("games:player-renew", args=["a" * 26])).status_code == 404


def test_a_new_link_kills_the_old_one():
    running_game(3, seed="me-renew")
    old = page_of(ada())
    client = Client()
    response = client.post(reverse("games:player-renew", args=[old.split("/")[2]]))
    assert response.status_code == 302
    new = urlsplit(response["Location"]).path
    assert new != old and new == page_of(ada())
    assert client.get(old).status_code == 404
    text = read(client.get(response["Location"]))
    assert "This is your new link: the old one no longer works." in text
    assert PlayerKey.objects.filter(player=ada()).count() == 1
    assert client.get(reverse("games:player-renew", args=[new.split("/")[2]])).status_code == 405


def test_a_new_link_also_renews_the_seat_links_the_old_page_listed():
    game = running_game(3, seed="me-renew-seats")
    seat = game.seats.get(player=ada())
    client = Client()
    old_page = page_of(ada())
    old_seat = reverse("games:seat", args=[links.seat_key(seat)])
    assert old_seat in read(client.get(old_page))  # whoever had the page could note it
    response = client.post(reverse("games:player-renew", args=[old_page.split("/")[2]]))
    new_seat = reverse("games:seat", args=[links.seat_key(seat)])
    assert new_seat != old_seat
    assert client.get(old_seat).status_code == 404
    assert client.get(new_seat).status_code == 200
    text = read(client.get(response["Location"]))
    assert new_seat in text and "The links of your seats changed too" in text
    mail = OutboundMail.objects.filter(game=game, seat=seat.position).order_by("pk").last()
    assert mail is not None
    body = emails.render(mail).text
    assert links.seat_page_url(seat) in body and old_seat not in body


def test_the_key_is_cut_out_of_the_logs():
    running_game(3, seed="me-redact")
    path = page_of(ada())
    assert redact(f"GET {path} HTTP/1.1") == "GET /me/[key]/ HTTP/1.1"


# --- the lists --------------------------------------------------------------------------------


def test_a_decision_owed_comes_first_with_its_deadline_in_the_players_zone():
    waiting = running_game(3, seed="me-waiting", name="Second table")  # red (Ada) places first...
    services.submit(waiting, 0, wl.legal(services.head_state(waiting), 0)[0])  # ...and has placed
    deciding = running_game(3, seed="me-deciding", name="First table")
    player = ada()
    player.time_zone = "Asia/Tokyo"
    player.save()
    text = read(Client().get(page_of(player)))
    assert text.index('id="decide"') < text.index('id="running"')
    decide = section(text, "decide")
    assert "First table" in decide and "Second table" not in decide
    assert "place a control marker" in decide or "place" in decide  # the game's words, as the mails say
    deadline = PendingDecision.objects.owed().get(game=deciding, seat=0).deadline_at
    tokyo = timezone.localtime(deadline, zoneinfo.ZoneInfo("Asia/Tokyo")).strftime("%Y-%m-%d %H:%M JST")
    assert f"{tokyo}</time>, Tokyo (Japan)" in decide
    assert re.search(r"in (1 day, 23 hours|2 days)", decide)
    assert f'href="{urlsplit(links.seat_page_url(deciding.seats.get(position=0))).path}"' in decide
    running = section(text, "running")
    assert "Second table" in running and "It is not your move: Blue (Bao) must" in running


@pytest.mark.parametrize(
    ("language", "named"), [("de", "Tokio (Japan)"), ("fr", "Tokyo (Japon)"), ("en", "Tokyo (Japan)")]
)
def test_the_page_names_the_players_zone_by_its_place_in_their_language(language, named):
    running_game(3, seed="me-zone-named")
    player = ada()
    player.time_zone, player.language = "Asia/Tokyo", language
    player.save()
    text = read(Client().get(page_of(player)))
    decide = section(text, "decide")
    assert f"</time>, {named}" in decide and "Asia/Tokyo" not in decide


def test_a_deadline_in_utc_names_its_zone_once():
    running_game(3, seed="me-zone-utc")
    player = ada()
    player.time_zone = "UTC"
    player.save()
    decide = section(read(Client().get(page_of(player))), "decide")
    assert re.search(r"\d\d:\d\d UTC</time><br>", decide), decide
    assert "UTC, UTC" not in decide


def test_owed_decisions_are_sorted_by_the_deadline_itself_not_its_local_text():
    from datetime import UTC, datetime

    from games.web import player_games

    early = running_game(3, seed="me-sort-a", name="Early")
    late = running_game(3, seed="me-sort-b", name="Late")
    # the night the clocks go back in Berlin: 02:30 CEST comes before 02:10 CET
    PendingDecision.objects.owed().filter(game=early, seat=0).update(
        deadline_at=datetime(2026, 10, 25, 0, 30, tzinfo=UTC)
    )
    PendingDecision.objects.owed().filter(game=late, seat=0).update(
        deadline_at=datetime(2026, 10, 25, 1, 10, tzinfo=UTC)
    )
    player = ada()
    player.time_zone = "Europe/Berlin"
    player.save()
    now = datetime(2026, 10, 24, tzinfo=UTC)
    assert [e.title for e in player_games.games_of(player, now).decide] == ["Early", "Late"]


def test_a_paused_games_deadline_says_the_clock_is_stopped():
    game = running_game(3, seed="me-paused")
    services.pause(game, by=None, reason="a holiday")
    decide = section(read(Client().get(page_of(ada()))), "decide")
    assert "the clock is stopped" in decide


def test_finished_and_not_yet_started_games_are_listed_with_the_result_and_a_replay():
    finished = running_game(3, seed="me-finished", name="Old table")
    state = play_randomly(finished, random.Random(5))
    waiting = services.create_game(players(3), seed="me-new", name="Next table")
    text = read(Client().get(page_of(ada())))
    rank = wl.outcome(state).rank[0]
    done = section(text, "finished")
    assert "Old table" in done and f"You placed {('1st', '2nd', '3rd')[rank - 1]}" in done
    assert f'href="{reverse("games:replay", args=[finished.pk])}"' in done
    assert "Next table" in section(text, "not-started") and waiting.status == Game.Status.NEW
    assert "Nothing: no game is waiting for you." in section(text, "decide")


def test_the_leagues_the_player_is_in_are_linked():
    league = League.objects.create(name="Autumn Lotus League", slug="autumn")
    season = Season.objects.create(league=league, name="2026 Autumn")
    season.memberships.create(player=players(1)[0])
    leagues = section(read(Client().get(page_of(ada()))), "leagues")
    assert "Autumn Lotus League: 2026 Autumn" in leagues and f'href="/leagues/autumn/{season.pk}/"' in leagues


def test_the_page_shows_nothing_another_seat_alone_may_see():
    rng = random.Random(7)
    game = services.create_game(players(4), seed="me-privacy")
    services.start_game(game)
    client = Client()
    pages = {p.pk: page_of(p) for p in players(4)}
    said: set[str] = set()
    state = services.head_state(game)
    checked = 0
    while wl.outcome(state) is None and checked < 40:
        decision = rng.choice(wl.pending(state))
        result = services.submit(game, decision.seat, rng.choice(wl.legal(state, decision.seat)))
        state = services.head_state(game)
        said |= {wl.narrate(result.state, e) for e in result.log if e.private_to is not None}
        sealed = [wl.view(state, s).get("sealed") for s in range(4)]
        if any(sealed) or rng.random() < 0.05:
            for path in pages.values():
                text = read(client.get(path))
                assert not [line for line in said if line in text]
                assert "Sealed choice" not in text and '<dl class="hand"' not in text
                assert not re.search(r"\bbid \d+ against\b", text)
                checked += 1
    assert checked >= 20 and said


# --- the settings -----------------------------------------------------------------------------


def test_the_settings_form_changes_what_the_mail_commands_change():
    game = running_game(3, seed="me-settings")
    player, other = ada(), Player.objects.get(email="bao@example.org")
    for line in ("mail all", "picture off"):  # Bao sets his by mail
        preferences.apply(other, game, preferences.parse(line))
    response = Client().post(page_of(player), SETTINGS)
    assert response.status_code == 302 and response["Location"].endswith("?saved=all#settings")
    assert preferences.of(player.pk, game.pk) == preferences.of(other.pk, game.pk)
    assert preferences.of(player.pk, None) == preferences.Preferences("all", False, False)
    player.refresh_from_db()
    assert (player.language, player.time_zone) == ("de", "Europe/Berlin")


def test_the_saved_settings_are_confirmed_in_the_players_new_language():
    running_game(3, seed="me-saved")
    client = Client()
    response = client.post(page_of(ada()), SETTINGS, follow=True)
    text = read(response)
    assert '<html lang="de">' in text and "<h1>Partien von Ada</h1>" in text
    saved = re.search(r'<p class="notice" role="status" id="saved">(.*?)</p>', text, flags=re.DOTALL)
    assert (
        saved
        and "Zeitzone: Berlin (Deutschland)." in saved.group(1)
        and "Bild des Spielplans: aus" in saved.group(1)
    )
    assert 'value="Europe/Berlin" selected' in text


def test_an_unknown_stored_time_zone_is_named_and_the_select_starts_at_utc():
    running_game(3, seed="me-zone-unknown")
    Player.objects.filter(pk=ada().pk).update(time_zone="Berlin")
    text = read(Client().get(page_of(ada())))
    assert "Your time zone “Berlin” is unknown; times are shown in UTC: choose yours below." in text
    assert 'value="UTC" selected' in text and 'value="Africa/Abidjan" selected' not in text


def test_the_form_needs_its_csrf_token():
    running_game(3, seed="me-csrf")
    client = Client(enforce_csrf_checks=True)
    path = page_of(ada())
    assert client.post(path, SETTINGS).status_code == 403
    client.get(path)
    token = client.cookies["csrftoken"].value
    assert client.post(path, {**SETTINGS, "csrfmiddlewaretoken": token}).status_code == 302
    assert ada().language == "de"


def test_an_unknown_time_zone_is_refused_naming_it_and_nothing_changes():
    running_game(3, seed="me-bad-zone")
    response = Client().post(page_of(ada()), {**SETTINGS, "time_zone": "Mars/Olympus"})
    assert response.status_code == 400
    text = read(response)
    assert "Nothing was changed" in text
    assert "“Mars/Olympus” is not a time zone we know; choose one from the list (e.g. Europe/Berlin)." in text
    player = ada()
    assert (player.language, player.time_zone) == ("en", "UTC")
    assert preferences.of(player.pk, None) == preferences.Preferences()


def test_the_page_speaks_the_players_language():
    running_game(3, seed="me-french")
    player = ada()
    player.language = "fr"
    player.save()
    text = read(Client().get(page_of(player)))
    assert '<html lang="fr">' in text and "Vous devez décider maintenant" in text


def test_the_seat_page_links_only_to_its_seat_and_never_to_the_players_own_page():
    """Whoever holds one seat's link must not reach the player's other seats, their settings or
    the button that makes a new link (issue 30): the player's page is linked from mails only."""
    game = running_game(3, seed="me-seat-link")
    running_game(3, seed="me-seat-link-2")  # Ada's other seat
    text = read(Client().get(urlsplit(links.seat_page_url(game.seats.get(position=0))).path))
    assert "/me/" not in text and page_of(ada()) not in text
    own = urlsplit(links.seat_page_url(game.seats.get(position=0))).path
    seat_links = set(re.findall(r'href="(/games/seat/[^"]+)"', text))
    assert seat_links <= {own}
    assert "once the game is over, the replay shows every message to everyone" in text


def test_setting_one_game_apart_does_what_the_here_commands_do_and_can_be_undone():
    game = running_game(3, seed="me-apart")
    other_game = running_game(3, seed="me-apart-2")
    player, other = ada(), Player.objects.get(email="bao@example.org")
    for line in ("mail digest here", "picture off here"):  # Bao sets this game apart by mail
        preferences.apply(other, game, preferences.parse(line))
    client = Client()
    form = {"form": "game", "apart-game": game.pk, "apart-mode": "digest", "apart-picture": ""}
    response = client.post(page_of(player), form)
    assert response.status_code == 302 and response["Location"].endswith(
        f"?saved=game&game={game.pk}#settings"
    )
    assert preferences.of(player.pk, game.pk) == preferences.of(other.pk, game.pk)
    assert preferences.of(player.pk, other_game.pk) == preferences.Preferences()  # the other game as before
    text = read(client.get(response["Location"]))
    assert f"Saved: {game} has settings of its own now." in text
    assert f'<tr data-game="{game.pk}"><td>{game}</td>' in section(text, "settings")
    response = client.post(page_of(player), {"form": "forget", "game": game.pk})
    assert response.status_code == 302
    assert preferences.of(player.pk, game.pk) == preferences.Preferences()
    assert "follows your settings for all games again" in read(client.get(response["Location"]))


def test_a_game_that_is_not_the_players_cannot_be_set_apart():
    running_game(3, seed="me-apart-mine")
    stranger = services.create_game(
        [Player.objects.create(name=n, email=f"{n}@example.net") for n in ("x", "y", "z")], seed="me-theirs"
    )
    form = {"form": "game", "apart-game": stranger.pk, "apart-mode": "all", "apart-picture": "on"}
    response = Client().post(page_of(ada()), form)
    assert response.status_code == 400
    assert f"Game {stranger.pk} is not one of your games that are still on" in read(response)
    assert not preferences.set_apart(ada())


def test_a_verbotene_stadt_game_is_told_in_its_own_words_and_its_end_with_the_place():
    from tests.games.helpers import play, vs_game

    game = vs_game(3, seed="me-vs", name="Forbidden table")
    player = ada()
    player.language = "de"
    player.save()
    rules = services.rules_of(game)
    state = services.head_state(game)
    owed = next(d for d in rules.pending(state) if d.seat == 0)
    with translation.override("de"):
        words = rules.presentation.decision_text(rules.view(state, 0), owed.kind, translation.gettext)
    decide = section(read(Client().get(page_of(player))), "decide")
    assert "Forbidden table" in decide and words in decide and "Die Verbotene Stadt" in decide
    state = play(game)
    rank = rules.outcome(state).rank[0]
    with translation.override("de"):
        place = translation.gettext(("1st", "2nd", "3rd")[rank - 1])
    finished = section(read(Client().get(page_of(player))), "finished")
    assert "Forbidden table" in finished and f"Du bist {place}" in finished


def test_the_pages_queries_grow_by_at_most_two_per_running_game():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries(games: int) -> int:
        for i in range(games - Game.objects.count()):
            running_game(3, seed=f"me-queries-{games}-{i}")
        url = page_of(ada())
        Client().get(url)  # keys issued on the first visit
        with CaptureQueriesContext(connection) as seen:
            assert Client().get(url).status_code == 200
        return len(seen)

    two, six = queries(2), queries(6)
    assert six - two <= 2 * 4, (two, six)
