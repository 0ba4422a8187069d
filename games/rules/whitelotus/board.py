"""The board: provinces, their adjacency and the geometry a picture needs.

A board is data (JSON, see ``boards/china.json``); a league can load another file with
:func:`load_board`.  Loading reads a file, so it happens at the edge: the engine itself only
ever receives a :class:`Board` value inside the game's configuration.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import text
from ..boardfiles import board_data

# Lower case, accents and punctuation removed: how a typed province name is compared.
fold = text.fold


@dataclass(frozen=True, slots=True)
class Province:
    index: int  # 0-based position in state arrays
    number: int  # what players type, 1-based
    name: str
    brown: bool
    lotus: bool
    dragon: bool
    coastal: bool
    adjacent: frozenset[int]  # indexes
    cells: tuple[tuple[int, int], ...]


class BoardError(ValueError):
    """A board file that does not describe a playable board."""


@dataclass(frozen=True, slots=True)
class Board:
    name: str
    title: str
    provinces: tuple[Province, ...]
    width: int
    height: int
    sea: tuple[tuple[int, int], ...]
    digest: str  # sha256 of the canonical JSON, pinned in game records
    masks: tuple[int, ...]  # per province: bitmask of its neighbours
    light: frozenset[int]  # provinces used with 3-5 players
    light_order: tuple[int, ...]
    light_mask: int
    full_mask: int

    @property
    def size(self) -> int:
        return len(self.provinces)

    def in_play(self, players: int) -> frozenset[int]:
        """Indexes of the areas used with this many players (brown areas only with 6)."""
        return frozenset(range(self.size)) if players >= 6 else self.light

    def play_areas(self, players: int) -> tuple[int, ...]:
        """The areas in play, in number order."""
        return tuple(range(self.size)) if players >= 6 else self.light_order

    def play_mask(self, players: int) -> int:
        return self.full_mask if players >= 6 else self.light_mask

    def adjacency_mask(self, index: int) -> int:
        return self.masks[index]

    def lookup(self, text: str) -> Province | None:
        """A province by number or by name (case, accents and punctuation ignored)."""
        key = text.strip()
        if key.isascii() and key.isdigit():
            n = int(key)
            return next((p for p in self.provinces if p.number == n), None)
        folded = fold(key)
        return next((p for p in self.provinces if fold(p.name) == folded), None)

    def label(self, index: int) -> str:
        return self.provinces[index].name

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Board:
        if data.get("format") != 1:
            raise BoardError("unknown board format (expected 1)")
        raw = sorted(data["provinces"], key=lambda p: p["number"])
        numbers = [p["number"] for p in raw]
        if numbers != list(range(1, len(raw) + 1)):
            raise BoardError("provinces must be numbered 1..N without gaps")
        names = [fold(p["name"]) for p in raw]
        if len(set(names)) != len(names) or any(not n or n.isdigit() for n in names):
            raise BoardError("province names must be distinct, non-numeric words")
        provinces = tuple(
            Province(
                index=i,
                number=p["number"],
                name=p["name"],
                brown=bool(p.get("brown", False)),
                lotus=bool(p.get("lotus", False)),
                dragon=bool(p.get("dragon", False)),
                coastal=bool(p.get("coastal", False)),
                adjacent=frozenset(n - 1 for n in p["adjacent"]),
                cells=tuple((int(x), int(y)) for x, y in p.get("cells", ())),
            )
            for i, p in enumerate(raw)
        )
        for p in provinces:
            for q in p.adjacent:
                if not 0 <= q < len(provinces) or q == p.index:
                    raise BoardError(f"{p.name}: bad neighbour {q + 1}")
                if p.index not in provinces[q].adjacent:
                    raise BoardError(f"adjacency not symmetric: {p.name} / {provinces[q].name}")
        canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return cls(
            name=str(data["name"]),
            title=str(data.get("title", data["name"])),
            provinces=provinces,
            width=int(data["grid"]["width"]),
            height=int(data["grid"]["height"]),
            sea=tuple((int(x), int(y)) for x, y in data.get("sea", ())),
            digest=hashlib.sha256(canonical.encode("utf-8")).hexdigest(),
            masks=tuple(_mask(p.adjacent) for p in provinces),
            light=frozenset(p.index for p in provinces if not p.brown),
            light_order=tuple(p.index for p in provinces if not p.brown),
            light_mask=_mask(p.index for p in provinces if not p.brown),
            full_mask=(1 << len(provinces)) - 1,
        )


def _mask(indexes: Iterable[int]) -> int:
    m = 0
    for i in indexes:
        m |= 1 << i
    return m


def load_board(source: str | Path = "china") -> Board:
    """A built-in board by name (``"china"``) or a board file by path."""
    return Board.from_dict(board_data(source, "games.rules.whitelotus", BoardError))


def geometric_adjacency(board: Board) -> dict[int, frozenset[int]]:
    """Adjacency derived from the cells alone (two provinces touch along a cell edge)."""
    owner = {cell: p.index for p in board.provinces for cell in p.cells}
    found: dict[int, set[int]] = {p.index: set() for p in board.provinces}
    for (x, y), i in owner.items():
        for nb in ((x + 1, y), (x, y + 1)):
            j = owner.get(nb)
            if j is not None and j != i:
                found[i].add(j)
                found[j].add(i)
    return {i: frozenset(s) for i, s in found.items()}
