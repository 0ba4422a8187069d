"""Bots for dropped seats against deadline defaults, in self-play: is the bot clearly better?

For each game the service hosts, plays N seeds at 4 players in two line-ups, rotating the
seats over the seeds: one bot among three all-default seats, and one all-default seat among
three bots.  Prints, per game and line-up, the mean score, mean rank and win rate (a shared
first place counts as a win) of the bot seats and of the default seats, and the mean score of
a bot seat relative to a default seat of the same games.
No database.  Run: ``python -m bench.bots [--games N] [--players P]``
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Sequence

from games.rules import registry
from games.rules.selfplay import Match, bot_match


def lineups(players: int, games: int) -> dict[str, list[frozenset[int]]]:
    """Which seats the bots play in each of ``games`` games, seats rotating."""
    everyone = frozenset(range(players))
    return {
        "1 bot, the rest defaults": [frozenset({g % players}) for g in range(games)],
        "1 default, the rest bots": [everyone - {g % players} for g in range(games)],
    }


def figures(matches: Sequence[Match]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for side in ("bot", "default"):
        scores, ranks, wins = [], [], []
        for m in matches:
            for seat, score in enumerate(m.scores):
                if (seat in m.bots) == (side == "bot"):
                    scores.append(score)
                    ranks.append(m.rank[seat])
                    wins.append(1.0 if m.rank[seat] == 1 else 0.0)
        out[side] = {
            "score": statistics.fmean(scores),
            "rank": statistics.fmean(ranks),
            "win": statistics.fmean(wins),
        }
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per game and line-up")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args(argv)
    for name in registry.names():
        rules = registry.get(name)
        print(f"{rules.title}, {args.players} players, {args.games} games per line-up")
        for label, seatings in lineups(args.players, args.games).items():
            matches = [bot_match(rules, args.players, f"bench{g}", bots) for g, bots in enumerate(seatings)]
            f = figures(matches)
            bot, dflt = f["bot"], f["default"]
            ratio = bot["score"] / dflt["score"] if dflt["score"] else float("inf")
            print(f"  {label}:")
            for side, row in (("bot", bot), ("default", dflt)):
                print(
                    f"    {side:<8} mean score {row['score']:6.1f}  mean rank {row['rank']:4.2f}  "
                    f"wins {row['win']:5.0%}"
                )
            print(f"    a bot seat scores {ratio:.2f} times a default seat")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
