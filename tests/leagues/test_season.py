"""A season of 8 players, two rounds of two games each, played to the end by deadline
defaults, with one seat replaced: standings and ratings computed from the logs, the same
after a full replay, and equal to a hand computation (openskill called directly)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from openskill.models import PlackettLuce

from games import services
from games.models import Event, Game, Player, Snapshot
from games.projections import results
from games.rules import whitelotus as wl
from leagues.models import League, LeagueGame, Season
from leagues.projection import rebuild
from leagues.seating import SeatingError, season_shares, seat_round, share
from leagues.standings import standings
from notifications.models import OutboundMail
from notifications.outbound import sending
from tests.leagues.helpers import play_out, play_some, season_of

pytestmark = pytest.mark.django_db

EIGHT = ["Ada", "Bao", "Chen", "Dara", "Emil", "Fang", "Gita", "Hugo"]


@pytest.fixture
def season():
    league = League.objects.create(name="Autumn League", slug="autumn")
    return season_of(league, EIGHT)


def play_season(season):
    """Round 1 (the second table finishes first, and a seat of the first table changes hands
    midway), then round 2 (again the second table first)."""
    first, second = seat_round(season, seed="r")
    play_some(first, 40)
    gus = Player.objects.create(name="Gus", email="gus@example.org")
    left = first.seats.get(position=1).player
    services.replace_seat(first, 1, gus, by=None, reason="moved away")
    play_out(second)
    play_out(first)
    third, fourth = seat_round(season, seed="r")
    play_out(fourth)
    play_out(third)
    return {"order": [second, first, fourth, third], "left": left, "replaced_in": first}


def hand_points(rank: int, ranks: tuple[int, ...]) -> float:
    n, tied = len(ranks), ranks.count(rank)
    return sum(n - place for place in range(rank, rank + tied)) / tied


def test_eight_players_sit_at_two_tables_of_four_each_round(season):
    games = seat_round(season, seed="r")
    assert [g.seats.count() for g in games] == [4, 4]
    assert {s.player.name for g in games for s in g.seats.all()} == set(EIGHT)
    assert all(g.status == Game.Status.RUNNING for g in games)
    assert all(g.edition == season.edition_played for g in games)
    invited = OutboundMail.objects.filter(kind="invitation", game__in=games)
    assert invited.count() == 8  # starting a game invites every seat
    assert LeagueGame.objects.filter(season=season, round=1).count() == 2


def test_a_season_played_out_by_defaults(season, client):
    """One play-through (four whole games take a while), four checks."""
    played = play_season(season)
    standings_and_ratings_match_a_hand_computation(played, season)
    the_replaced_player_keeps_the_game_they_left_and_their_missed_moves(played, season)
    standings_are_the_same_after_a_full_replay(played, season)
    every_player_is_mailed_the_standings_when_a_game_ends(played, season, client)


def standings_and_ratings_match_a_hand_computation(played, season):
    order = played["order"]
    table = standings(season)
    assert table.games == 4
    model = PlackettLuce()
    ratings: dict[str, object] = {}
    points: dict[str, float] = {}
    wins: dict[str, int] = {}
    for game in order:  # the order in which they finished
        ranks = wl.outcome(services.state_at(game)).rank
        emails = [s.player.email for s in game.seats.order_by("position")]  # who holds it at the end
        teams = [[ratings.get(e) or model.rating(name=e)] for e in emails]
        for email, team in zip(emails, model.rate(teams, ranks=list(ranks)), strict=True):
            ratings[email] = team[0]
        for seat, email in enumerate(emails):
            points[email] = points.get(email, 0.0) + hand_points(ranks[seat], ranks)
            wins[email] = wins.get(email, 0) + (ranks[seat] == 1)
    rows = {r.email: r for r in table.rows}
    for email, rating in ratings.items():
        assert rows[email].rating.mu == pytest.approx(rating.mu)
        assert rows[email].rating.sigma == pytest.approx(rating.sigma)
        assert rows[email].points == pytest.approx(points[email])
        assert rows[email].wins == wins[email]
    ranked = [r.points for r in table.rows if r.played]
    assert ranked == sorted(ranked, reverse=True)
    assert all(r.played for r in table.rows[: len(ranked)])  # who has not played comes last
    assert sum(r.points for r in table.rows) == 4 * (3 + 2 + 1 + 0)


def the_replaced_player_keeps_the_game_they_left_and_their_missed_moves(played, season):
    rows = {r.email: r for r in standings(season).rows}
    left, game = played["left"], played["replaced_in"]
    replaced = game.events.get(kind=Event.Kind.SEAT_REPLACED)
    theirs = game.events.filter(kind=Event.Kind.DEFAULT, seat=1, seq__lt=replaced.seq).count()
    gus = game.events.filter(kind=Event.Kind.DEFAULT, seat=1, seq__gt=replaced.seq).count()
    assert theirs > 0 and gus > 0
    assert rows[left.email].left == [game.pk]
    assert rows[left.email].played == 1  # the other round's game only
    assert rows["gus@example.org"].played == 1 and rows["gus@example.org"].left == []
    assert rows["gus@example.org"].missed == gus
    others = sum(
        g.events.filter(kind=Event.Kind.DEFAULT, seat=s.position).count()
        for g in played["order"]
        if g != game
        for s in g.seats.filter(player=left)
    )
    assert rows[left.email].missed == theirs + others


def standings_are_the_same_after_a_full_replay(played, season):
    before = standings(season)
    Snapshot.objects.all().delete()
    services.clear_caches()
    rebuild()  # every projection again, from the log replayed from event 1
    after = standings(season)
    assert [vars(r) for r in after.rows] == [vars(r) for r in before.rows]
    assert all(services.replay_game(g)[1] for g in played["order"])


def every_player_is_mailed_the_standings_when_a_game_ends(played, season, client):
    rows = OutboundMail.objects.filter(kind="standings").order_by("pk")
    for row in rows:  # only these: rendering the thousand move mails would take long
        sending.deliver(row.pk)
    sent = list(rows.all())
    assert len(sent) == 16  # four games, four seats each
    first = played["order"][0]
    mail = next(m for m in sent if m.game == first and m.seat == 0)
    assert "Autumn League" in mail.subject
    assert "after 1 finished game:" in " ".join(mail.text.split())  # the standings as they stood then
    assert "You are in place " in mail.text
    assert mail.to_email == first.seats.get(position=0).player.email
    last = next(m for m in sent if m.game == played["order"][-1])
    assert (
        "after 4 finished games" in " ".join(last.text.split())
        and "https://lotus.test/leagues/autumn/" in last.text
    )
    page = client.get("/leagues/autumn/").content.decode()
    assert all(name in page for name in EIGHT) and "Gus" in page


def test_a_corrected_address_keeps_the_players_results(season):
    game = seat_round(season, seed="r")[0]
    play_out(game)
    holder = game.seats.get(position=0).player
    before = {r.name: r.points for r in standings(season).rows}
    holder.email = "new-address@example.org"
    holder.save()
    rows = {r.name: r for r in standings(season).rows}
    assert rows[holder.name].points == before[holder.name] and rows[holder.name].played == 1
    assert rows[holder.name].email == "new-address@example.org"


def test_the_league_page_reads_the_standings_once_for_all_its_seasons(season, client):
    for name in ("Winter", "Spring"):
        Season.objects.create(league=season.league, name=name, signup_open=False)
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/leagues/autumn/").content.decode()
    assert "Winter" in page and "Spring" in page and "Ada" in page
    assert sum('FROM "leagues_standingline"' in q["sql"] for q in queries) == 1


def test_the_standings_command_prints_every_season(season):
    Season.objects.create(league=season.league, name="Winter", signup_open=False)
    out = StringIO()
    call_command("league_standings", "autumn", stdout=out)
    text = out.getvalue()
    assert "Autumn League: Autumn (0 finished games)" in text and "Autumn League: Winter" in text
    assert text.index("Autumn (") < text.index("Winter (") and "Ada" in text


def test_the_seat_shares_of_a_season_are_read_in_two_queries(season):
    games = seat_round(season, seed="r") + seat_round(season, seed="r", while_running=True)
    expected: dict[int, list[float]] = {}
    for game in sorted(games, key=lambda g: g.pk):
        size = game.seats.count()
        for seat in game.seats.order_by("position"):
            expected.setdefault(seat.player_id, []).append(share(seat.position, size))
    with CaptureQueriesContext(connection) as queries:
        shares = season_shares(season)
    assert shares == expected and len(queries) == 2


def test_the_standings_never_show_an_address_for_a_name(season, client):
    """A replaced player's later corrected address is in no player any more: the public
    page shows no name rather than the old address."""
    game = seat_round(season, seed="r")[0]
    play_some(game, 3)
    left = game.seats.get(position=1).player
    gus = Player.objects.create(name="Gus", email="gus@example.org")
    services.replace_seat(game, 1, gus, by=None, reason="away")
    old = left.email
    left.email = "corrected@example.org"
    left.save()
    play_out(game)
    rows = {r.email: r for r in standings(season).rows}
    assert rows[old].name == "—" and rows[old].left == [game.pk]
    assert old not in client.get("/leagues/autumn/").content.decode()


def test_a_games_holdings_read_only_the_events_that_count(season, monkeypatch):
    """The created event, replacements, defaults, rollbacks and hand-overs to the bot: not
    every move of the log."""
    game = seat_round(season, seed="r")[0]
    play_some(game, 8)
    last_two = list(game.events.filter(kind=Event.Kind.DEFAULT).order_by("-seq")[:2])
    services.rollback(game, last_two[1].seq, by=None, reason="the last default was wrong")
    play_some(game, 2)
    every = list(game.events.order_by("seq"))
    in_effect = services.effective(every)
    expected = [sum(e.kind == Event.Kind.DEFAULT and e.seat == s for e in in_effect) for s in range(4)]
    counting = [
        e for e in every if e.seq == 1 or e.kind in ("seat_replaced", "default", "rolled_back", "bot_seated")
    ]
    assert len(counting) < len(every)  # the game has moves that do not count here
    loaded = []
    from_db = Event.from_db.__func__

    def counted(cls, *args, **kwargs):
        loaded.append(1)
        return from_db(cls, *args, **kwargs)

    monkeypatch.setattr(Event, "from_db", classmethod(counted))
    seats = results.holders_from(results.counted_events(game))
    assert [held[-1]["defaults"] for held in seats] == expected
    assert len(loaded) == len(counting)


def test_a_round_is_not_seated_again_while_the_last_one_is_being_played(season):
    seat_round(season, seed="r")
    with pytest.raises(SeatingError, match=r"Round 1 of .* is still being played \(2 of its games"):
        seat_round(season, seed="r")  # a second click on the admin action
    assert LeagueGame.objects.filter(season=season).count() == 2


def test_the_command_seats_the_next_round_while_the_last_runs_only_when_told(season):
    call_command("seat_round", "autumn", stdout=StringIO())
    with pytest.raises(CommandError, match="still being played"):
        call_command("seat_round", "autumn", stdout=StringIO())
    call_command("seat_round", "autumn", "--while-running", stdout=StringIO())
    assert sorted(LeagueGame.objects.filter(season=season).values_list("round", flat=True)) == [1, 1, 2, 2]


def test_the_next_round_is_seated_once_the_last_ones_games_are_over(season):
    for game in seat_round(season, seed="r"):
        play_out(game)
    assert [g.name for g in seat_round(season, seed="r")] == [
        "Autumn League: Autumn · 2.1",
        "Autumn League: Autumn · 2.2",
    ]
