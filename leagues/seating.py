"""Seating a season's members into games: table sizes, who sits where, creating the games.

Table sizes: a game takes ``lo`` to ``hi`` players (its ``player_counts``) and is taken to play
best at ``(lo + hi) // 2``: White Lotus takes 3 to 6 and plays best at 4, so ``n`` members sit
at ``round(n / 4)`` tables (halves rounded up), kept between ``ceil(n / 6)`` and
``floor(n / 3)``, and the members are spread over them as evenly as possible (sizes differ by
at most one, larger tables first).  8 players: 4 + 4; 7: 4 + 3; 10: 4 + 3 + 3; 5: one table
of 5.  A season's games are games of its game (``Season.rules``).

Who plays with whom: each round deals the members in an order shuffled by a hash of the
season, the round and the player (reproducible, and different from round to round).

Seat order: seat 0 starts, so over a season nobody should always start or always sit last.
A seat's *position share* is ``position / (size - 1)`` (0 first, 1 last).  At each table the
player whose earlier seats in the season have the highest mean share sits first, and so on
down (a player new to the season counts as 0.5); over the rounds each member's mean share
evens out towards 0.5 (tested in tests/leagues/test_scoring_and_seating.py).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max

from games import services
from games.models import Event, Game, Player
from games.rules import registry
from games.services.timing import TimeControls
from leagues.models import LeagueGame, Season


class SeatingError(services.GameError):
    """A season that cannot be seated; ``str()`` is for the moderator."""


def table_sizes(n: int, counts: Sequence[int] = (3, 4, 5, 6)) -> list[int]:
    """The sizes of the tables ``n`` members sit at, for a game of ``counts`` players."""
    lo, hi = min(counts), max(counts)
    best = (lo + hi) // 2
    if n < lo:
        raise SeatingError(f"A round needs at least {lo} players; the season has {n}.")
    tables = min(max((2 * n + best) // (2 * best), math.ceil(n / hi)), n // lo)
    base, extra = divmod(n, tables)
    sizes = [base + 1] * extra + [base] * (tables - extra)
    if any(size not in counts for size in sizes):  # counts with a gap: 4 only, say
        allowed = ", ".join(str(c) for c in sorted(counts))
        raise SeatingError(f"{n} players cannot sit at tables of {allowed} players each.")
    return sizes


def season_counts(season: Season) -> tuple[int, ...]:
    """The numbers of players a game of the season may have: its game's player counts that
    its edition and options allow (Die Verbotene Stadt's partner variant: only 4)."""
    rules = registry.get(season.rules)
    if season.edition_played not in rules.about.editions:
        raise SeatingError(
            f"{season} cannot be seated: {rules.title} has no edition '{season.edition_played}' "
            f"(its editions: {', '.join(rules.about.editions)})."
        )
    try:
        board = services.board(season.board_played, season.rules)
    except (OSError, ValueError) as error:
        raise SeatingError(f"{season} cannot be seated: its board {season.board_played!r}: {error}") from None
    options = services.game_options(rules, season.options)
    counts = []
    for n in rules.player_counts:
        try:
            rules.serial.make_config(board, n, season.edition_played, options, 0)
        except (TypeError, ValueError):
            continue
        counts.append(n)
    if not counts:
        raise SeatingError(f"{season} cannot be seated: no number of players fits its edition and options.")
    return tuple(counts)


def _shuffle_key(salt: str, player: int) -> str:
    return hashlib.sha256(f"{salt}:{player}".encode()).hexdigest()


def plan_round(
    players: Sequence[int],
    shares: Mapping[int, Sequence[float]],
    salt: str,
    counts: Sequence[int] = (3, 4, 5, 6),
) -> list[list[int]]:
    """The tables of one round, each in seat order.  ``shares``: each player's position
    shares in the season so far; ``counts``: the game's player counts."""
    order = sorted(players, key=lambda p: _shuffle_key(salt, p))
    tables: list[list[int]] = []
    start = 0
    for size in table_sizes(len(order), counts):
        tables.append(order[start : start + size])
        start += size

    def mean(p: int) -> float:
        seen = shares.get(p, ())
        return sum(seen) / len(seen) if seen else 0.5

    return [sorted(table, key=lambda p: (-mean(p), _shuffle_key(salt + ":seat", p))) for table in tables]


def share(position: int, size: int) -> float:
    return position / (size - 1)


def season_shares(season: Season) -> dict[int, list[float]]:
    """Each player's position shares in the season's games so far, from their first seats
    (the created event), so a later replacement does not move who sat where."""
    firsts = Event.objects.filter(game__league_game__season=season, seq=1).order_by("game")
    tables = [payload["players"] for payload in firsts.values_list("payload", flat=True)]
    wanted = {seat["email"] for table in tables for seat in table}
    emails = dict(Player.objects.filter(email__in=wanted).values_list("email", "pk"))
    out: dict[int, list[float]] = {}
    for created in tables:
        for seat in created:
            pk = emails.get(seat["email"])
            if pk is not None:
                out.setdefault(pk, []).append(share(seat["position"], len(created)))
    return out


def seat_round(
    season: Season, *, by: User | None = None, seed: str | None = None, while_running: bool = False
) -> list[Game]:
    """Seat every member of the season into new games of its next round, and start them:
    starting a game mails every seat its invitation (the outbox, on commit).  A season with a
    ready window (``Season.ready_hours``) creates them waiting for their players' ``ready``
    instead: each seat is mailed (``seated``), and a game starts when all are ready or when
    its window is over (games.services.create_game).

    A round is seated once the games of the one before are over, unless ``while_running``:
    so a second click on the admin action (or two moderators at once: the season's row is
    locked while it is seated) cannot seat the same members into two rounds."""
    members = list(season.members.order_by("pk"))
    refusals = [r for r in (moderator_refusal(season, m) for m in members) if r]
    if refusals:
        raise SeatingError(" ".join(refusals))
    with transaction.atomic():
        Season.objects.select_for_update().filter(pk=season.pk).first()
        last = season.league_games.aggregate(last=Max("round"))["last"] or 0
        running = season.league_games.filter(round=last).exclude(game__status=Game.Status.FINISHED)
        if last and not while_running and running.exists():
            raise SeatingError(
                f"Round {last} of {season} is still being played ({running.count()} of its games are "
                "not over): seat the next round when they are, or on purpose with "
                "`manage.py seat_round --while-running`."
            )
        number = last + 1
        salt = f"{season.pk}:{number}:{seed or ''}"
        counts = season_counts(season)
        plan = plan_round([m.pk for m in members], season_shares(season), salt, counts)
        by_pk = {m.pk: m for m in members}
        games = []
        for index, table in enumerate(plan, start=1):
            game = services.create_game(
                [by_pk[pk] for pk in table],
                rules=season.rules,
                edition=season.edition_played,
                options=season.options,
                board_name=season.board_played,
                seed=f"{seed}:{number}:{index}" if seed is not None else None,
                name=f"{season} · {number}.{index}",  # round.table: the same in every language
                time_controls=_clock(season),
                by=by,
                ready_hours=season.ready_hours,
                press=season.press or None,  # blank: the game's default
            )
            LeagueGame.objects.create(game=game, season=season, round=number)
            if not season.ready_hours:  # else it starts when its players are ready
                services.start_game(game, by=by)
            game.refresh_from_db()
            games.append(game)
        return games


def _clock(season: Season) -> TimeControls | None:
    """The season's clock over its game's suitable one (None: the game's, as a new game gets)."""
    if not season.time_controls:
        return None
    return TimeControls.from_dict({**registry.get(season.rules).about.time_controls, **season.time_controls})


def moderator_refusal(season: Season, player: Player) -> str:
    """Why ``player`` may not join or be seated in ``season`` ("" if they may)."""
    if player.user_id is not None and season.league.moderators.filter(pk=player.user_id).exists():
        return f"{player} moderates {season.league} and cannot play in its games."
    return ""
