"""``manage.py replay_game``: the game replayed from zero and compared with its head."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games import services
from games.jobs.common import JobError, _seats
from games.models import Game, Snapshot
from games.rules.base import IllegalCommand, Outcome

# --- replay_game ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ReplayCheck:
    game: Game
    state: Any  # rebuilt from zero
    snapshot_seq: int | None  # the snapshot the head was loaded from, if any

    @property
    def outcome(self) -> Outcome | None:
        return services.rules_of(self.game).outcome(self.state)


def replay_game(game: Game) -> ReplayCheck:
    """Rebuild the game from its events and compare with the head as the service loads it
    (latest snapshot + the events after it); :class:`JobError` says how they differ."""
    game.refresh_from_db()
    snap = _latest_snapshot(game)
    try:
        state, same = services.replay_game(game)
    except (IllegalCommand, services.GameError, ValueError, KeyError, TypeError) as error:
        message = error.message if isinstance(error, IllegalCommand) else str(error)
        raise JobError(f"Game {game.pk} does not replay: {message}{_version_note(game)}") from None
    if not same:
        where = f"snapshot #{snap.seq} and the events after it" if snap else "its events"
        detail = ""
        if snap is not None:
            replayed = services.rules_of(game).serial.state_to_dict(services.state_at(game, snap.seq))
            differing = _differing(snap.state, replayed)
            if differing:
                fields = ", ".join(differing)
                detail = f" Snapshot #{snap.seq} differs from the replay at #{snap.seq} in: {fields}."
        raise JobError(
            f"Game {game.pk} FAILED the replay check: the state rebuilt from its events differs from "
            f"the head at #{game.head_seq} loaded from {where}.{detail} Snapshots are only a cache: "
            "deleting this game's snapshots makes the service rebuild from the events."
            f"{_version_note(game)}"
        )
    return ReplayCheck(game, state, snap.seq if snap else None)


def _version_note(game: Game) -> str:
    """The version mismatch of the game and the code, as a sentence after another (or "")."""
    mismatch = services.version_mismatch(game)
    return "" if mismatch is None else f" {mismatch.render()}"


def _latest_snapshot(game: Game) -> Snapshot | None:
    """The snapshot the service loads the head from (as ``services.heads._load_head`` picks it)."""
    return services.usable_snapshot(game)


def _differing(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    return sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))


def describe_replay(check: ReplayCheck) -> str:
    game = check.game
    base = f"snapshot #{check.snapshot_seq} + later events" if check.snapshot_seq else "the events alone"
    lines = [
        f"OK: game {game.pk} replays from zero to the head at #{game.head_seq} (head loaded from {base})."
    ]
    mismatch = services.version_mismatch(game)
    if mismatch is not None:  # it replays, but under this code's rules, not the game's own
        lines.append(f"WARNING: {mismatch.render()}")
    result = check.outcome
    if result is not None:
        colours = [s.colour for s in _seats(game)]
        order = sorted(range(len(colours)), key=lambda s: (result.rank[s], s))
        lines.append(
            "Final scores: " + ", ".join(f"{result.rank[s]}. {colours[s]} {result.scores[s]}" for s in order)
        )
    return "\n".join(lines)
