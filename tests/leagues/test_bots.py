"""A season's rule for dropped seats: after N defaults in a row the bot plays the seat; the
standings mark the games and the players the bot played for."""

from __future__ import annotations

import pytest

from games import services
from games.models import Event, Game, PendingDecision
from games.services import bots
from leagues.mail import standings_context
from leagues.models import League, Season
from leagues.seating import seat_round
from leagues.standings import standings
from notifications.models import OutboundMail
from notifications.outbound import emails
from tests.leagues.helpers import play_out, season_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def league() -> League:
    return League.objects.create(name="Bot League", slug="bots")


def default_seat_until(game: Game, seat: int, times: int) -> None:
    """Play every other seat by hand (its default, as a command) and let ``seat`` default,
    until it has defaulted ``times`` times in a row."""
    rules = services.rules_of(game)
    missed = 0
    for _ in range(500):
        if missed == times:
            return
        owed = PendingDecision.objects.owed().filter(game=game).order_by("seat").first()
        assert owed is not None
        if owed.seat == seat:
            services.apply_default(game, seat)
            missed += 1
        else:
            services.submit(game, owed.seat, rules.default(services.head_state(game), owed.seat))
    pytest.fail("the seat was never asked often enough")


def test_after_the_seasons_number_of_defaults_in_a_row_the_bot_plays_the_seat(league):
    season = season_of(league, ["Ada", "Bao", "Chen"], bot_after_defaults=2)
    (game,) = seat_round(season, seed="r")
    default_seat_until(game, 1, 1)
    assert bots.bot_seats(game) == set()  # one default is not two in a row
    default_seat_until(game, 1, 1)
    assert bots.bot_seats(game) == {1}
    seated = game.events.get(kind=Event.Kind.BOT_SEATED)
    last_default = game.events.filter(kind=Event.Kind.DEFAULT, seat=1).latest("seq")
    assert seated.seq == last_default.seq + 1  # in the transaction of the default that reached it
    assert (seated.source, seated.actor, seated.seat) == ("system", None, 1)
    assert "2 moves in a row were played by default" in seated.reason
    player = game.seats.get(position=1).player
    told = OutboundMail.objects.get(kind="to_bot", to_email=player.email)
    text = " ".join(emails.render(told).text.split())
    assert "the service handed your seat" in text and "2 moves in a row" in text


def test_a_move_of_its_own_between_defaults_starts_the_count_again(league):
    season = season_of(league, ["Ada", "Bao", "Chen"], bot_after_defaults=2)
    (game,) = seat_round(season, seed="r")
    default_seat_until(game, 1, 1)
    rules = services.rules_of(game)
    while (owed := PendingDecision.objects.owed().filter(game=game).order_by("seat").first()).seat != 1:
        services.submit(game, owed.seat, rules.default(services.head_state(game), owed.seat))
    services.submit(game, 1, rules.default(services.head_state(game), 1))  # Bao answers once
    default_seat_until(game, 1, 1)
    assert bots.bot_seats(game) == set()


def test_a_season_that_says_0_never_hands_a_seat_to_the_bot(league):
    season = season_of(league, ["Ada", "Bao", "Chen"], bot_after_defaults=0)
    (game,) = seat_round(season, seed="r")
    default_seat_until(game, 1, 6)
    assert bots.bot_seats(game) == set()


def test_new_seasons_hand_a_seat_to_the_bot_after_three_defaults_in_a_row(league):
    assert Season(league=league, name="New").bot_after_defaults == 3


def test_the_standings_mark_the_game_and_the_player_the_bot_played_for_and_the_result_stays_theirs(league):
    season = season_of(league, ["Ada", "Bao", "Chen"], bot_after_defaults=0)
    (game,) = seat_round(season, seed="r")
    bots.hand_to_bot(game, 1, by=None, reason="Bao asked for it")
    bao = game.seats.get(position=1).player
    play_out(game)
    rows = {r.name: r for r in standings(season).rows}
    assert rows[bao.name].bot_games == [game.pk] and rows[bao.name].played == 1
    assert all(r.bot_games == [] for name, r in rows.items() if name != bao.name)
    mail = OutboundMail.objects.get(kind="standings", seat=0)
    context = standings_context(mail)
    colour = game.seats.get(position=1).colour
    assert context["bot_seats"].lower() == colour
    text = emails.render(mail).text
    assert f"In this game the bot played for a while for: {colour.capitalize()}" in " ".join(text.split())
    assert f"{bao.name} *" in text
    assert "* The bot played for this player in at least one game" in text
