"""Die Verbotene Stadt's games for the mail tests: players who read English, German and French,
and a game of them that north begins."""

from __future__ import annotations

from games import services
from games.models import Game, Player
from notifications.models import MailPreference

LANGUAGES = ("en", "de", "fr")


NAMES = ("Ada", "Bernd", "Claire", "Dana")


def vs_players(n: int, picture: bool = False) -> list[Player]:
    """Players in English, German and French; only the first wants the board picture (it is
    the slow part of a mail) and every player gets every mail (sealed, reveals too)."""
    out = []
    for i, name in enumerate(NAMES[:n]):
        player = Player.objects.get_or_create(
            email=f"{name.lower()}@vs.example.org",
            defaults={"name": name, "language": LANGUAGES[i % len(LANGUAGES)]},
        )[0]
        MailPreference.objects.get_or_create(
            player=player, game=None, defaults={"mode": "all", "picture": picture and i == 0}
        )
        out.append(player)
    return out


def new_game(n: int = 3, seed: str = "vs-mail", picture: bool = False, **options: object) -> Game:
    game = services.create_game(  # north begins (the default is by lot): the first mover reads English
        vs_players(n, picture), rules="verbotenestadt", seed=seed, options=options, first_seat=0
    )
    services.start_game(game)
    game.refresh_from_db()
    return game
