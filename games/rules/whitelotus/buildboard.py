"""Build the reconstructed China board (games/rules/whitelotus/boards/china.json).

The real board's adjacency is not in any source we have (see RULES.md, "The board").  This
script lays the 39 provinces out as offset "bricks" (each touches up to six neighbours, like
hexes), west to east and north to south, with the sea to the east and south, then jitters
the borders between horizontal neighbours in the middle cell row of each band, which changes
the shapes but never the adjacency.  The adjacency written to the file is derived from the
cells, and the test suite derives it again and compares.

Run: python -m games.rules.whitelotus.buildboard > games/rules/whitelotus/boards/china.json
"""

from __future__ import annotations

import hashlib
import json
import sys

BRICK_W, BRICK_H = 4, 3
# One row per band of bricks, north to south; odd rows are offset half a brick to the east.
# "*name" = brown area (6 players only), "name!" = start area with a white lotus,
# "name@" = dragon area, "~" = sea, "." = off the map.
GRID = [
    ["*Shazhou", "*Guazhou", "*Zhangye", "Ningxia!", "Shangdu", "Dadu", "~", "~"],
    ["*Jiuquan", "*Liangzhou", "*Lanzhou!", "Yanan!", "Taiyuan", "Zhending", "Jinan", "~"],
    ["*Xining", "*Hezhou", "Fengxiang!", "Changan", "Luoyang", "Kaifeng", "Yidu", "~"],
    ["Songpan!", "Hanzhong!", "Xiangyang", "Nanyang", "Xuzhou", "Yangzhou", "Haizhou", "~"],
    ["Chengdu!", "Chongqing!", "Jiangling", "Wuchang", "Jiqing", "Pingjiang", "Hangzhou@", "~"],
    [".", "Kunming", "Guilin", "Guangzhou", "Quanzhou@", "Fuzhou@", "~", "~"],
    ["~", "~", "~", "~", "~", "~", "~", "~"],
]
# (row, column of the western brick) -> shift of the border in the band's middle cell row.
JITTER = {
    (0, 3): 1,
    (1, 4): -1,
    (2, 2): 1,
    (2, 5): -1,
    (3, 1): -1,
    (3, 3): 1,
    (3, 5): 1,
    (4, 0): 1,
    (4, 2): -1,
    (4, 4): 1,
    (5, 2): 1,
    (1, 1): 1,
    (2, 0): -1,
    (0, 1): -1,
}


def brick_cells(row: int, col: int) -> set[tuple[int, int]]:
    x0 = col * BRICK_W + (BRICK_W // 2 if row % 2 else 0)
    y0 = row * BRICK_H
    return {(x, y) for x in range(x0, x0 + BRICK_W) for y in range(y0, y0 + BRICK_H)}


def build() -> dict[str, object]:
    owner: dict[tuple[int, int], str] = {}
    meta: dict[str, dict[str, object]] = {}
    sea: set[tuple[int, int]] = set()
    for r, row in enumerate(GRID):
        for c, raw in enumerate(row):
            cells = brick_cells(r, c)
            if raw == "~":
                sea |= cells
                continue
            if raw == ".":
                continue
            name = raw.strip("*!@")
            meta[name] = {
                "brown": raw.startswith("*"),
                "lotus": raw.endswith("!"),
                "dragon": raw.endswith("@"),
                "rc": (r, c),
            }
            for cell in cells:
                owner[cell] = name
    for (r, c), shift in JITTER.items():
        west, east = GRID[r][c].strip("*!@"), GRID[r][c + 1].strip("*!@")
        x_border = (c + 1) * BRICK_W + (BRICK_W // 2 if r % 2 else 0)
        y = r * BRICK_H + 1
        if shift > 0:  # the western province bulges east by one cell
            owner[(x_border, y)] = west
        else:
            owner[(x_border - 1, y)] = east
    names = sorted(meta, key=lambda n: meta[n]["rc"])  # type: ignore[arg-type, return-value]
    number = {n: i + 1 for i, n in enumerate(names)}
    cells_of: dict[str, list[list[int]]] = {n: [] for n in names}
    for (x, y), n in sorted(owner.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        cells_of[n].append([x, y])
    adjacent: dict[str, set[str]] = {n: set() for n in names}
    for (x, y), n in owner.items():
        for nb in ((x + 1, y), (x, y + 1)):
            m = owner.get(nb)
            if m is not None and m != n:
                adjacent[n].add(m)
                adjacent[m].add(n)
    coastal = {
        owner[c]
        for s in sea
        for c in ((s[0] - 1, s[1]), (s[0], s[1] - 1), (s[0] + 1, s[1]), (s[0], s[1] + 1))
        if c in owner
    }
    provinces = [
        {
            "number": number[n],
            "name": n,
            "brown": meta[n]["brown"],
            "lotus": meta[n]["lotus"],
            "dragon": meta[n]["dragon"],
            "coastal": n in coastal,
            "adjacent": sorted(number[m] for m in adjacent[n]),
            "cells": cells_of[n],
        }
        for n in names
    ]
    width = max(x for x, _ in owner | {c: "" for c in sea}) + 1
    height = max(y for _, y in owner | {c: "" for c in sea}) + 1
    board: dict[str, object] = {
        "format": 1,
        "name": "china",
        "title": "China under the Yuan (reconstructed)",
        "note": (
            "Reconstructed board: the published board's adjacency is in none of our sources. "
            "Counts follow the rules (39 provinces: 31 light + 8 brown in the north-west; "
            "7 light + 1 brown start areas with a white lotus, all inland in the west; 3 dragon "
            "provinces in the south-east; the sea to the east and south). Names are Yuan-era places; "
            "positions are approximate. Cells are unit squares on a grid, x east, y south; "
            "provinces are adjacent when their cells share an edge."
        ),
        "grid": {"width": width, "height": height},
        "sea": sorted([list(c) for c in sea], key=lambda c: (c[1], c[0])),
        "provinces": provinces,
    }
    return board


if __name__ == "__main__":
    data = build()
    text = json.dumps(data, indent=1, ensure_ascii=False)
    # keep each cell list on one line so the file stays readable
    import re

    text = re.sub(r"\[\s+(-?\d+),\s+(-?\d+)\s+\]", r"[\1, \2]", text)
    text = re.sub(r"\[\s+((?:\d+,\s+)*\d+)\s+\]", lambda m: "[" + " ".join(m.group(1).split()) + "]", text)
    sys.stdout.write(text + "\n")
    print(hashlib.sha256(text.encode()).hexdigest()[:12], file=sys.stderr)
