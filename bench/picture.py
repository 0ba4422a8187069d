"""Board picture benchmark (issue 6): how long the SVG and the PNG of a 6-player game take.

The bots of ``selfplay`` play a 6-player kosmos game to the first bid of year 3; its board is
drawn from the spectator's view many times: the SVG alone, and the PNG (SVG included) with the
PNG cache cleared each time, as for a mail about a new event.  No database.

    python -m bench.picture
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from bench.common import pct

RUNS = 30


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "whitelotus.settings")
    import django

    django.setup()
    from games.picture import PNG_WIDTH, board_png, board_svg
    from games.picture.raster import svg_to_png
    from games.rules import whitelotus as wl
    from games.rules.whitelotus.constants import COLOURS
    from games.rules.whitelotus.selfplay import Bot

    state = wl.setup(wl.Config(wl.load_board(), COLOURS), "bench-picture")
    bots = [Bot(f"bench-picture:bot:{s}") for s in range(6)]
    while decisions := wl.pending(state):
        if state.year >= 3 and state.phase.name == "bidding":
            break
        seat = decisions[0].seat
        state, _ = wl.apply(state, seat, bots[seat].choose(state, seat))
    view = wl.view(state, None)
    names = {c: f"Player {i}" for i, c in enumerate(COLOURS)}
    svg_times, png_times = [], []
    for _ in range(RUNS):
        start = time.perf_counter()
        svg = board_svg(state.board, view, names=names)
        svg_times.append(time.perf_counter() - start)
        svg_to_png.cache_clear()
        start = time.perf_counter()
        png = board_png(state.board, view, names=names)
        png_times.append(time.perf_counter() - start)
    out = sys.stdout
    out.write(f"6p kosmos, year {state.year}, {state.phase.name}; {RUNS} runs\n")
    for label, times in (("SVG", svg_times), ("PNG (SVG included)", png_times)):
        out.write(
            f"{label:<20} p50 {statistics.median(times) * 1000:7.1f} ms  "
            f"p95 {pct(times, 95) * 1000:7.1f} ms  min {min(times) * 1000:7.1f} ms\n"
        )
    out.write(f"SVG {len(svg) / 1000:.1f} kB; PNG {len(png) / 1000:.1f} kB, {PNG_WIDTH} px wide\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
