"""Each moderator act confirmed first: what it will do, in sentences, and the token that the
confirming POST must carry.

The token names the game, the act and the game's head when the page was shown: a POST whose
token is missing, forged, older than an hour, or from before the game moved on does nothing
but show the page again, so what the moderator confirmed is what happens.
"""

from __future__ import annotations

from typing import Any

from django.core import signing
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games.admin.actions import Action, TimeControlsForm
from games.admin.audit import colour
from games.models import Game, Player
from games.services import timing
from games.services.timing import TimeControls

SALT = "games.admin.confirm"
MAX_AGE = 3600  # seconds a confirmation page stays good for


def token(game: Game, action: Action) -> str:
    return signing.dumps({"game": game.pk, "action": action.name, "head": game.head_seq}, salt=SALT)


def confirmed(text: str, game: Game, action: Action) -> bool:
    """Was this token given for this act on this game at its present head?"""
    try:
        data = signing.loads(text, salt=SALT, max_age=MAX_AGE)
    except signing.BadSignature:  # SignatureExpired included
        return False
    return bool(data == {"game": game.pk, "action": action.name, "head": game.head_seq})


def _when(moment: Any) -> str:
    return f"{timezone.localtime(moment):%Y-%m-%d %H:%M} ({timezone.get_current_timezone_name()})"


def _seat(game: Game, position: int) -> Any:
    return game.seats.select_related("player").get(position=position)


def what_happens(action: Action, game: Game, data: dict[str, Any], form: Any) -> list[str]:
    """The act's effect on this game, as the confirmation page says it."""
    if action.name == "pause":
        return [
            gettext(
                "%(game)s is paused: no move is taken, no default is played and the deadlines "
                "stop until a moderator resumes it."
            )
            % {"game": game}
        ]
    if action.name == "resume":
        return [
            gettext(
                "%(game)s runs again: moves are taken, and every deadline moves on by the time the "
                "game stood still."
            )
            % {"game": game}
        ]
    if action.name == "extend":
        owed = list(game.decisions.owed().order_by("seat"))
        seats = {s.position: s for s in game.seats.select_related("player")}
        lines = [
            gettext("%(seat)s: the deadline moves from %(before)s to %(after)s.")
            % {
                "seat": f"{colour(seats[d.seat].colour)} ({seats[d.seat].player.name})",
                "before": _when(d.deadline_at) if d.deadline_at else "—",
                "after": _when(data["until"]),
            }
            for d in owed
        ]
        return lines or [gettext("Nobody owes a decision now: there is no deadline to extend.")]
    if action.name == "replace":
        seat = _seat(game, data["position"])
        player: Player | None = data.get("player")
        new = f"{player.name} <{player.email}>" if player else f"{data['name'].strip()} <{data['email']}>"
        lines = [
            gettext(
                "The %(colour)s seat passes from %(old)s to %(new)s, who gets the seat's mails from now on."
            )
            % {"colour": colour(seat.colour), "old": seat.player, "new": new}
        ]
        if player is None:
            lines.append(gettext("%(new)s is new to the service and is added as a player.") % {"new": new})
        if seat.bot_since:
            lines.append(gettext("The bot stops playing the seat."))
        lines.append(gettext("A later rollback does not give the seat back."))
        return lines
    if action.name in ("bot", "unbot"):
        seat = _seat(game, data["position"])
        if action.name == "bot":
            text = gettext("From now on the bot plays the %(colour)s seat for %(player)s, who keeps it.")
        else:
            text = gettext("%(player)s plays the %(colour)s seat again; the bot stops.")
        return [text % {"colour": colour(seat.colour), "player": seat.player.name}]
    if action.name == "time":
        return _time_controls(game, data, form)
    return []


def _time_controls(game: Game, data: dict[str, Any], form: Any) -> list[str]:
    before = timing.controls(game).to_dict()
    after = TimeControls.from_dict({k: v for k, v in data.items() if k != "reason"}).to_dict()
    lines = []
    for name in TimeControlsForm.field_order:
        if name == "reason" or before.get(name) == after.get(name):
            continue
        lines.append(
            gettext("%(name)s: %(before)s → %(after)s")
            % {
                "name": form.fields[name].label,
                "before": _value(before.get(name)),
                "after": _value(after.get(name)),
            }
        )
    if not lines:
        return [gettext("The time controls stay as they are.")]
    count = ngettext(
        "%(count)d time control changes, for the decisions that begin from now on (the deadlines "
        "owed now stay):",
        "%(count)d time controls change, for the decisions that begin from now on (the deadlines "
        "owed now stay):",
        len(lines),
    ) % {"count": len(lines)}
    return [count, *lines]


def _value(value: Any) -> str:
    if value is None:
        return gettext("none")
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, list | tuple):
        return ", ".join(f"{v:g}" for v in value) or gettext("none")
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
