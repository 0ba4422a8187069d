"""The settings form of a player's own page (``games.web.views.player_page``).

The mail settings are stored by ``notifications.services.preferences`` (the same function the mail
commands ``mail all``, ``picture off``… call); language and time zone are the player's.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import get_language, gettext, gettext_lazy

from games.models import Game, Player
from games.presentation import zonechoice
from notifications.models import MailPreference
from notifications.services import preferences


def zones() -> tuple[str, ...]:
    """The IANA zones a player may choose, sorted (every real one Python knows: a zone a
    moderator set in the admin is among them; ``games.presentation.zonechoice``)."""
    return zonechoice.zones()


class SettingsForm(forms.Form):
    """The player's settings for all their games."""

    mode = forms.ChoiceField(label=gettext_lazy("Mails"), widget=forms.RadioSelect)
    picture = forms.BooleanField(label=gettext_lazy("Show the board picture in the mails"), required=False)
    language = forms.ChoiceField(label=gettext_lazy("Language"), choices=Player.Language.choices)
    time_zone = forms.ChoiceField(label=gettext_lazy("Time zone"))

    @staticmethod
    def mode_choices() -> list[tuple[str, str]]:
        return [(mode.value, gettext(preferences.DESCRIPTIONS[mode])) for mode in MailPreference.Mode]

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["mode"].choices = self.mode_choices()  # type: ignore[attr-defined]
        # grouped, the common zones of the page's language (the player's) first
        self.fields["time_zone"].choices = zonechoice.choices(get_language() or "en")  # type: ignore[attr-defined]
        self.fields["time_zone"].error_messages["invalid_choice"] = gettext(
            "“%(value)s” is not a time zone we know; choose one from the list (e.g. Europe/Berlin)."
        )
        self.fields["language"].error_messages["invalid_choice"] = gettext(
            "“%(value)s” is not a language of the service; choose English, Deutsch or Français."
        )


class GameSettingsForm(forms.Form):
    """One game set apart, as ``mail all here`` / ``picture off here`` do by mail."""

    game = forms.TypedChoiceField(label=gettext_lazy("Game"), coerce=int)
    mode = forms.ChoiceField(label=gettext_lazy("Mails"), widget=forms.RadioSelect)
    picture = forms.BooleanField(label=gettext_lazy("Show the board picture in the mails"), required=False)

    prefix = "apart"  # beside the form for all games on one page: its own names and ids

    def __init__(self, games: list[Game], *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["game"].choices = [(g.pk, str(g)) for g in games]  # type: ignore[attr-defined]
        self.fields["mode"].choices = SettingsForm.mode_choices()  # type: ignore[attr-defined]
        self.fields["game"].error_messages["invalid_choice"] = gettext(
            "Game %(value)s is not one of your games that are still on; choose one from the list."
        )


def initial(player: Player, mine: preferences.Preferences | None = None) -> dict[str, object]:
    """The form's values: the player's settings for all their games (``mine``, when read)."""
    mine = mine or preferences.of(player.pk, None)
    return {
        "mode": mine.mode,
        "picture": mine.picture,
        "language": player.language,
        # a zone the list does not know (free text in the admin) starts the select at UTC, as
        # the page reads it, never at the list's first entry, which a save would store
        "time_zone": player.time_zone if known_zone(player.time_zone) else "UTC",
    }


def known_zone(name: str) -> bool:
    """Whether the list offers this zone (else the mails and pages read it as UTC)."""
    return name in zones()


def save(player: Player, form: SettingsForm) -> None:
    """Store a valid form: the mail settings as the mail commands store them, for all games."""
    data = form.cleaned_data
    preferences.apply(player, None, preferences.Setting(mode=data["mode"], picture=bool(data["picture"])))
    player.language = data["language"]
    player.time_zone = data["time_zone"]
    player.save(update_fields=["language", "time_zone"])


def save_game(player: Player, form: GameSettingsForm) -> Game:
    """Store a valid form for its game only, as the mail commands do with ``here``."""
    data = form.cleaned_data
    game = Game.objects.get(pk=data["game"])
    setting = preferences.Setting(mode=data["mode"], picture=bool(data["picture"]), here=True)
    preferences.apply(player, game, setting)
    return game
