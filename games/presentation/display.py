"""What the game pages show, as plain values for the templates: built from the game's view (the
only thing shown to a person may be rendered from) and from the lines of the log a reader may
see (``LogEntry.visible_to``).  The views in ``games.web.views`` choose the reader: a spectator,
one seat, or everyone once the game is over.

Every game has its own partials for what only it has (``games/<rules>/_state.html``,
``_players.html``, ``_hand.html``); a game without them gets the plain ones in
``games/generic/`` (``partials``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from typing import Any

from django.template import TemplateDoesNotExist
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.timesince import timeuntil
from django.utils.translation import gettext, gettext_noop

from games import services
from games.models import Event, Game, PendingDecision, Seat
from games.presentation import words
from games.presentation.picture import board_svg, has_picture
from games.presentation.steps import Step, Timeline
from games.rules import chance, records, registry
from games.rules.base import Rules

__all__ = [
    "LogItem",
    "LogPart",
    "Waiting",
    "board",
    "board_text",
    "deadline_text",
    "event_text",
    "hand",
    "log_html",
    "log_items",
    "log_items_for",
    "log_parts",
    "names",
    "partials",
    "players",
    "view_of",
    "waiting",
    "with_commitment",
]

Reader = int | None  # a seat, or None for a spectator


@dataclass(frozen=True)
class LogItem:
    step: int
    seq: int
    colour: str  # the seat that acted, or ""
    kind: str
    summary: str  # what the event was, for events the engine did not narrate
    lines: list[tuple[str, str]] = field(default_factory=list)  # (text, the colour it was said to only)
    opens: str = ""  # the line that opens a part of the game here ("Year 3 …"), if one does


@dataclass(frozen=True)
class LogPart:
    """A part of the log folded on the page: a year or a turn (``rules.about.CHAPTERS``), or a
    stretch of ``STRETCH`` steps of a game without them."""

    label: str
    items: list[LogItem]

    @property
    def first(self) -> int:
        return self.items[0].step

    @property
    def last(self) -> int:
        return self.items[-1].step


STRETCH = 50  # steps per fold of a log without chapters


@dataclass(frozen=True)
class Waiting:
    colour: str
    name: str
    kind: str  # what they must decide, in the words of the mails ("place a control marker")
    sealed: bool
    deadline: str  # "2026-11-25 14:00 UTC" or ""
    due_in: str  # "in 2 days, 3 hours", "overdue" or "" (in the active language)
    deadline_at: datetime | None = None  # for the page's {% when %}: the reader's zone


def names(seats: list[Seat]) -> dict[str, str]:
    """Player names by colour; a seat the service's bot plays is named so ("Ada (bot)")."""
    return {s.colour: f"{s.player.name} (bot)" if s.bot_since else s.player.name for s in seats}


def board(
    state: Any,
    view: dict[str, Any],
    seat_names: dict[str, str],
    *,
    rules: str | None = None,
    game: Game | None = None,
) -> str:
    """The board as inline SVG (drawn by ``games.presentation.picture`` from the view), on the board of
    ``game`` (else the state's own board, where a game's state keeps it); a game without a
    picture: its text board (``rules.text_board``) as preformatted text."""
    if game is not None:
        rules = game.rules
    if rules is None:
        raise TypeError("board() needs the game or its rules")
    if not has_picture(rules):
        lines = (game.engine if game is not None else registry.get(rules)).text_board(
            view, seat_names, gettext
        )
        return format_html('<pre class="text-board">{}</pre>', "\n".join(lines))
    drawn_on = services.board(game.board, game.rules) if game is not None else state.board
    return board_svg(drawn_on, view, names=seat_names, rules=rules, translate=gettext)


def board_text(game: Game, view: dict[str, Any], seat_names: dict[str, str]) -> list[str]:
    """The board written out by the game itself (``rules.text_board``, as the mails carry it)
    in the reader's language, line by line: on a phone, where the picture's names and pieces
    are a few pixels high, the page shows it before the picture in 12 px, each line wrapped in
    its box (pages.css)."""
    return game.engine.text_board(view, seat_names, gettext)


def view_of(game: Game, state: Any, reader: Reader) -> dict[str, Any]:
    """``rules.view(state, reader)`` with what every page shows of any game, where the game's
    view does not say it itself: the seed's hash (public from the start) and, once the game is
    over, the result from its ``Outcome`` (by seat colour) and the seed.  White Lotus's view
    says all of it, so its pages are as they were."""
    rules = game.engine
    view = dict(rules.view(state, reader))
    view["seed_digest"] = game.seed_hash  # the commitment: the hash of the server's seed
    if "outcome" not in view:
        result = rules.outcome(state)
        if result is not None:
            colours = [p["colour"] for p in view["players"]]
            view["outcome"] = {
                "scores": {c: dict(result.breakdown[s]) for s, c in enumerate(colours)},
                "rank": {c: result.rank[s] for s, c in enumerate(colours)},
                "winners": [colours[s] for s in result.winners],
            }
            if "seed" not in view and isinstance(getattr(state, "seed", None), str):
                view["seed"] = state.seed
    if getattr(state, "seed", None) == "":  # a game played elsewhere: its chance written down
        view["written_down"] = True
    return with_commitment(game, view)


def with_commitment(game: Game, view: dict[str, Any]) -> dict[str, Any]:
    """A view with the game's commitment as every page and mail calls it: ``seed_digest`` the
    hash of the server's seed, published from the start; once the seed is shown (the game is
    over), ``seed`` the server's seed (not the draw seed a game's state keeps: for a game whose
    draws were mixed they differ) and ``entropy`` the contributions its draws were mixed
    with, by colour (none: left out), so the chain can be checked (``games.rules.verify``)."""
    view["seed_digest"] = game.seed_hash
    if "seed" not in view:
        return view
    created = game.events.get(seq=1).payload
    view["seed"] = created["seed"]
    started = game.events.filter(kind=Event.Kind.STARTED).order_by("seq").first()
    if "draws" in created and started is not None:
        colours = dict(game.seats.values_list("position", "colour"))
        entropy = [(colours.get(s, str(s)), value) for s, value in services.contributions_of(started)]
        if entropy:
            view["entropy"] = [{"colour": c, "value": v} for c, v in entropy]
    return view


@cache
def partials(rules: str) -> dict[str, str]:
    """The templates of the parts of a page that differ from game to game: the game's own
    (``games/<rules>/``) or the plain ones (``games/generic/``)."""
    out = {}
    for part in ("state", "players", "hand", "notation"):
        name = f"games/{rules}/_{part}.html"
        try:
            get_template(name)
        except TemplateDoesNotExist:
            name = f"games/generic/_{part}.html"
        out[part] = name
    return out


def game_title(rules: Rules) -> str:
    """The game's name for people, in the reader's language ("Der weiße Lotus")."""
    return words.game_name(rules)


def players(view: dict[str, Any], seat_names: dict[str, str], rules: Rules) -> list[dict[str, Any]]:
    """The view's players, each with its name (and, where the game has chips, its chips in
    the game's words for them, ``PAGE_WORDS["chip"]``)."""
    ranks = view.get("outcome", {}).get("rank", {})
    colour_of = {p.get("seat", i): p["colour"] for i, p in enumerate(view["players"])}
    out = []
    for p in view["players"]:
        row = {**p, "rank": ranks.get(p["colour"], ""), "name": seat_names.get(p["colour"], "")}
        if isinstance(p.get("partner"), int):  # a partnership game: the partner's colour and name
            partner = colour_of.get(p["partner"], "")
            row["partner_colour"] = partner
            row["partner_name"] = seat_names.get(partner, "")
        if isinstance(p.get("chips"), dict):
            row["chip_words"] = ", ".join(
                f"{words.game_word(rules, 'chip', k)} {v}" for k, v in p["chips"].items() if v
            ) or gettext("none")
        out.append(row)
    return out


def deadline_text(
    at: datetime | None, now: datetime | None = None, *, stopped_at: datetime | None = None
) -> tuple[str, str]:
    """A deadline in UTC with the zone named, and how far off it is.  While the game's clock
    is stopped (``stopped_at``: paused, a player on vacation) the time left stands still, and
    the deadline moves on by as much when the clock restarts (``timing.restart_clock``)."""
    if at is None:
        return "", ""
    now = now or timezone.now()
    shown = at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    if stopped_at is not None:
        left = (
            gettext("overdue")
            if at <= stopped_at
            else gettext("%(time)s left") % {"time": timeuntil(at, stopped_at)}
        )
        return shown, gettext("%(left)s; the clock is stopped, the deadline moves on when it restarts") % {
            "left": left
        }
    if at <= now:
        return shown, gettext("overdue")
    return shown, gettext("in %(time)s") % {"time": timeuntil(at, now)}


def waiting(game: Game, view: dict[str, Any], seat_names: dict[str, str]) -> list[Waiting]:
    """Who must decide what now, with their deadlines (``PendingDecision`` rows)."""
    colours = view["players"]
    due = {d.seat: d.deadline_at for d in PendingDecision.objects.owed().filter(game=game)}
    seat_of = {p["colour"]: p["seat"] for p in colours}
    stopped = game.clock_stopped_at
    rules = game.engine
    out = []
    for decision in view["pending"]:
        at = due.get(seat_of[decision["colour"]])
        deadline, due_in = deadline_text(at, stopped_at=stopped)
        out.append(
            Waiting(
                decision["colour"],
                seat_names.get(decision["colour"], ""),
                rules.presentation.decision_text(view, decision["kind"], gettext),  # in the mails' words
                bool(decision.get("sealed")),
                deadline,
                due_in,
                at,
            )
        )
    return out


# The sentences of the events the engine does not narrate, said in the reader's language (a seat
# named by its colour in that language) when a log is rendered
EVENT_TEXTS: dict[str, str] = {
    Event.Kind.CREATED: gettext_noop("The game was set up."),
    Event.Kind.STARTED: gettext_noop("The game started."),
    Event.Kind.ROLLED_BACK: gettext_noop("A moderator undid the moves after event #%(seq)s."),
    Event.Kind.PAUSED: gettext_noop("A moderator paused the game."),
    Event.Kind.RESUMED: gettext_noop("A moderator resumed the game."),
    Event.Kind.DEADLINE_EXTENDED: gettext_noop("A moderator extended the deadline."),
    Event.Kind.SEAT_REPLACED: gettext_noop("The seat of %(colour)s was handed to another player."),
    Event.Kind.VACATION_STARTED: gettext_noop("%(colour)s went on vacation."),
    Event.Kind.VACATION_ENDED: gettext_noop("%(colour)s is back from vacation."),
    Event.Kind.TIME_CONTROLS: gettext_noop("A moderator changed the time controls."),
    Event.Kind.BOT_SEATED: gettext_noop("The seat of %(colour)s is now played by the service's bot."),
    Event.Kind.BOT_UNSEATED: gettext_noop("The player of %(colour)s took the seat back from the bot."),
    Event.Kind.DEFAULT: gettext_noop("%(colour)s missed the deadline: the default move was played."),
    # the value is listed by the start (it says nothing before: the server's seed is secret)
    Event.Kind.ENTROPY: gettext_noop("%(colour)s is ready: their contribution to the draws is in."),
}


def event_text(event: Event, colour: str, *, everything: bool = False, colours: Sequence[str] = ()) -> str:
    """A sentence for an event the engine does not narrate (moderators' acts, the start),
    saying no more than is public: no addresses, and the moderator's reason only once the
    game is over (it may name a hidden choice)."""
    p = event.payload
    said = {"colour": words.colour(colour).capitalize() if colour else colour, "seq": p.get("to_seq")}
    template = EVENT_TEXTS.get(event.kind)
    text = gettext(template) % said if template else ("" if event.kind in Event.Kind.values else event.kind)
    if event.kind == Event.Kind.STARTED and p.get("contributions"):  # public from the start on
        listed = ", ".join(
            f"{words.colour(colours[s]) if s < len(colours) else s} {value[:16]}…"
            for s, value in p["contributions"]
        )
        mixed = gettext("Its draws are mixed with the players' contributions: %(listed)s") % {
            "listed": listed
        }
        text = f"{text} {mixed}"
    if everything and event.reason:
        reason = gettext("Reason: %(reason)s") % {"reason": event.reason}
        text = f"{text} {reason}"
    return text.strip()


def log_items(
    tl: Timeline, colours: tuple[str, ...], reader: Reader, *, everything: bool = False
) -> list[LogItem]:
    """The log in readable lines, one item per step: what ``reader`` may read of it."""
    return [log_items_for(tl, step, colours, reader, everything=everything) for step in tl.steps]


def log_html(
    tl: Timeline, game: Game, reader: Reader, *, everything: bool = False, current: int | None = None
) -> SafeString:
    """The log as HTML, rendered once per reader and language for a game's head (a few hundred
    steps make it the dearest part of a page), with step ``current`` marked."""
    key = ("log", reader, everything, translation.get_language())
    rendered = tl.rendered.get(key)
    if rendered is None:
        colours = game.engine.seat_colours[: services.seats_of(game)]
        # no replay of a game waiting for ready: its setup is the server seed's alone
        waiting = game.status == Game.Status.NEW and game.ready_until is not None
        base = "" if waiting else reverse("games:replay", args=[game.pk])
        items = log_items(tl, colours, reader, everything=everything)
        rendered = tl.rendered[key] = render_to_string(
            "games/_log.html", {"parts": log_parts(items), "base": base}
        )
    if current is not None:
        here = f'<li id="step-{current}" data-step="{current}" class="'
        rendered = rendered.replace(here, here + "current ", 1)
        at = rendered.find(here)
        fold = rendered.rfind(FOLD, 0, at) if at >= 0 else -1
        if fold >= 0 and not rendered.startswith(FOLD + " open", fold):
            rendered = rendered[:fold] + FOLD + " open" + rendered[fold + len(FOLD) :]
    return mark_safe(rendered)  # the template engine escaped it; the mark is ours


FOLD = '<details class="log-part"'  # games/_log.html: the step shown is in an open part


def log_parts(items: list[LogItem]) -> list[LogPart]:
    """The log folded by the game's parts (the step that opens a year or a turn begins one;
    what comes before the first is "The start"), or every ``STRETCH`` steps without them."""
    parts: list[LogPart] = []
    chaptered = any(item.opens for item in items)
    for item in items:
        if chaptered:
            label = item.opens or ("" if parts else gettext("The start"))
        else:
            label = "" if (item.step - 1) % STRETCH else gettext("Steps from %(step)s") % {"step": item.step}
        if label or not parts:
            parts.append(LogPart(label, [item]))
        else:
            parts[-1].items.append(item)
    return parts


def log_items_for(
    tl: Timeline, step: Step, colours: tuple[str, ...], reader: Reader, *, everything: bool = False
) -> LogItem:
    event = step.event
    colour = colours[event.seat] if event.seat is not None and event.seat < len(colours) else ""
    summary = (
        ""
        if event.kind == Event.Kind.COMMAND
        else event_text(event, colour, everything=everything, colours=colours)
    )
    said = tl.lines(step, reader, everything=everything)
    lines = [(line.text, colours[line.private_to] if line.private_to is not None else "") for line in said]
    chapters = tl.game_rules.about.CHAPTERS  # none: the log folds every STRETCH steps
    opens = next((line.text.strip(" -–—") for line in said if line.kind in chapters), "")
    return LogItem(step.number, event.seq, colour, event.kind, summary, lines, opens)


def hand(
    view: dict[str, Any], seat_names: dict[str, str], seat: Reader = None, *, rules: str
) -> dict[str, Any] | None:
    """What only the view's seat knows (hand, sealed choice, drawn tile, a dial), if it is a
    seat's view: one that names its seat (``you``), or the view of ``seat``; ``view`` is the
    whole of that seat's view, for a game's own partial; its sealed choice in the words of the
    game ``rules``."""
    if "you" in view:
        colour = view["you"]
    elif seat is not None and 0 <= seat < len(view.get("players") or ()):
        colour = view["players"][seat]["colour"]
    else:
        return None
    sealed = view.get("sealed")
    return {
        "colour": colour,
        "seat": seat,
        "name": seat_names.get(colour, ""),
        "hand": view.get("hand"),
        "sealed": sealed_words(rules, sealed) if isinstance(sealed, dict) else (sealed or ""),
        "drawn": view.get("drawn"),
        "view": view,
    }


def sealed_words(rules: str, sealed: dict[str, Any]) -> str:
    """A view's sealed choice as words, in the reader's language, as the game ``rules`` says
    it (``sealed_text``): ``bid 5 against green``, ``Gebot 5 gegen Grün``."""
    return words.sealed_choice(registry.get(rules), sealed)


# --- a game played elsewhere: its comments and its chance, beside each replay step ----------------


def step_comments(tl: Timeline, step: Step) -> list[str]:
    """The record's comments on this step's move (the first step: those of its header and its
    setup's chance; the last: those after the record's last line), as written, without ``#``."""
    payload = step.event.payload or {}
    found: list[str] = []
    entered = payload.get("record") or {}
    if step.event.kind == Event.Kind.CREATED:
        found += [line.lstrip("#").strip() for line in entered.get("notes", []) if line.startswith("#")]
        found += [t for n in entered.get("setup", []) for t in records.Note.from_data(-1, n).texts]
    found += [t for n in payload.get("notes", []) for t in records.Note.from_data(0, n).texts]
    if step.number == len(tl):
        created = tl.steps[0].event.payload.get("record") or {}
        found += [line.lstrip("#").strip() for line in created.get("end", []) if line.startswith("#")]
    return [t for t in found if t]


def step_chance(tl: Timeline, step: Step) -> list[str]:
    """The outcomes of chance drawn at this step, as a record in the reader's language writes
    them (shown once the game is over: before, a drawn tile is its drawer's secret)."""
    rules = tl.game_rules
    before = tl.steps[step.number - 2].state if step.number > 1 else None
    drawn = (
        tuple(rules.chance.drawn(step.state))
        if before is None
        else chance.new_outcomes(rules.chance.drawn(before), rules.chance.drawn(step.state))
    )
    language = translation.get_language() or "en"
    if language not in rules.notation.words.LANGUAGES:
        return [rules.chance.format(step.state, outcome) for outcome in drawn]
    return [rules.chance.format_in(step.state, outcome, language) for outcome in drawn]
