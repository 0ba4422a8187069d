"""Board picture benchmark: how long the SVG and the PNG of a 6-player game take.

The bots of ``selfplay`` play a 6-player kosmos game to the first bid of year 3; its board is
drawn from the spectator's view many times: the SVG alone, and the PNG (SVG included) with the
PNG cache cleared each time, as for a mail about a new event, and apart the step that turns
resvg's true-colour PNG into the palette PNG the mails carry.  No database.

    python -m bench.picture
"""

from __future__ import annotations

import io
import os
import statistics
import sys
import time

from PIL import Image

from bench.common import pct

RUNS = 30


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "whitelotus.settings")
    import django

    django.setup()
    from games.presentation.picture import PNG_WIDTH, board_png, board_svg
    from games.presentation.picture.raster import palette_png, render, svg_to_png
    from games.rules import registry

    wl = registry.get("whitelotus")  # the game benchmarked, through the registry
    colours = wl.seat_colours[:6]
    board = wl.serial.load_board(wl.about.default_board)
    state = wl.setup(
        wl.serial.make_config(board, 6, wl.about.editions[0], wl.about.OPTIONS, 0), "bench-picture"
    )
    bots = [wl.about.Bot(f"bench-picture:bot:{s}") for s in range(6)]
    while decisions := wl.pending(state):
        if state.year >= 3 and state.phase.name == "bidding":
            break
        seat = decisions[0].seat
        state, _ = wl.apply(state, seat, bots[seat].choose(state, seat))
    view = wl.view(state, None)
    names = {c: f"Player {i}" for i, c in enumerate(colours)}
    svg_times, png_times, palette_times = [], [], []
    for _ in range(RUNS):
        start = time.perf_counter()
        svg = board_svg(board, view, names=names, rules="whitelotus")
        svg_times.append(time.perf_counter() - start)
        svg_to_png.cache_clear()
        start = time.perf_counter()
        png = board_png(board, view, names=names, rules="whitelotus")
        png_times.append(time.perf_counter() - start)
        rendered = render(svg, PNG_WIDTH)  # resvg's true-colour PNG, then the palette step alone
        start = time.perf_counter()
        palette_png(rendered)
        palette_times.append(time.perf_counter() - start)
    out = sys.stdout
    out.write(f"6p kosmos, year {state.year}, {state.phase.name}; {RUNS} runs\n")
    timed = (("SVG", svg_times), ("PNG (SVG included)", png_times), ("of which palette", palette_times))
    for label, times in timed:
        out.write(
            f"{label:<20} p50 {statistics.median(times) * 1000:7.1f} ms  "
            f"p95 {pct(times, 95) * 1000:7.1f} ms  min {min(times) * 1000:7.1f} ms\n"
        )
    kind = {"P": "8-bit palette", "RGBA": "true colour with alpha", "RGB": "true colour"}
    mode = Image.open(io.BytesIO(png)).mode
    out.write(
        f"SVG {len(svg) / 1000:.1f} kB; PNG {len(png) / 1000:.1f} kB, {PNG_WIDTH} px wide, "
        f"{kind.get(mode, mode)} (resvg's own: {len(rendered) / 1000:.1f} kB)\n"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
