"""Components and fixed numbers of White Lotus (seed 001 "Spielmaterial", seed 002 "COMPONENTS")."""

from __future__ import annotations

from enum import IntEnum


class Building(IntEnum):
    """What a tile or chip shows.  0 is used in state arrays for "no tile"."""

    VILLAGE = 1
    PALACE = 2
    TEMPLE = 3
    FORT = 4
    RICEFIELD = 5

    @property
    def label(self) -> str:
        return self.name.lower()


BUILDINGS = tuple(Building)
NO_TILE = 0
NEUTRAL = -1  # owner of an area nobody holds

# 39 neutral tiles: 17 village, 5 palace, 5 temple, 6 fort, 6 ricefield (001 l.15-23).
TILE_COUNTS = {
    Building.VILLAGE: 17,
    Building.PALACE: 5,
    Building.TEMPLE: 5,
    Building.FORT: 6,
    Building.RICEFIELD: 6,
}
# Start tiles on the lotus areas (001 l.90-98): one each of palace/temple/ricefield/fort,
# 3 villages, a 4th village with 6 players.
START_TILES = (Building.PALACE, Building.TEMPLE, Building.RICEFIELD, Building.FORT) + (Building.VILLAGE,) * 3

# 16 chips per colour; fronts 3 palace, 4 temple, 5 fort, 4 ricefield; every back a village
# (001 l.25-28).  Villages use any chip whose front is not in use.
CHIPS_PER_COLOUR = 16
CHIP_LIMIT = {
    Building.PALACE: 3,
    Building.TEMPLE: 4,
    Building.FORT: 5,
    Building.RICEFIELD: 4,
    Building.VILLAGE: CHIPS_PER_COLOUR,
}
MARKERS_PER_COLOUR = 5

# Final scoring (001 l.432-467, 002 "WINNING THE GAME").
BUILDING_VP = {
    Building.PALACE: 3,
    Building.TEMPLE: 2,
    Building.FORT: 1,
    Building.RICEFIELD: 1,
    Building.VILLAGE: 1,
}
DRAGON_VP = 2
TERRITORY_VP = 3

# Starting hand: influence 2x3 + 2x2 + 2x1 = 12 points, army 3x1 = 3 points (001 l.62-65).
START_INFLUENCE = 12
START_ARMY = 3
# New cards every year (001 l.412-425).
INCOME_INFLUENCE = 10
INCOME_ARMY = 2
PALACE_INFLUENCE = 2
PALACE_ARMY = 1
TEMPLE_INFLUENCE = 3
RICEFIELD_INFLUENCE = 1
RICEFIELD_ARMY = 1
FORT_ARMY = 2

EMPEROR_PALACE_STRENGTH = 2  # per palace of the emperor in a rebellion (001 l.304, 002)

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")

KOSMOS = "kosmos"
DESIGNER = "designer"
EDITIONS = (KOSMOS, DESIGNER)
DESIGNER_TURNS = 4  # 002 "The game will last for 4 turns"
