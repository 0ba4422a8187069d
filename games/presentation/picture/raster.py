"""The SVG rasterised to PNG for mails, with resvg (``resvg-py``: a wheel that bundles the
renderer, so it installs from the package registry alone, with no system library), then
stored as an 8-bit palette PNG with Pillow.

resvg draws text only with the fonts it is given.  A fresh machine may have none, so the
picture is drawn with the Liberation Sans files shipped in ``fonts/`` (SIL OFL, see
``fonts/LICENSE-OFL.txt``) and system fonts are never read: the same SVG gives the same PNG
on every machine, which also makes a retried mail carry the very same picture.

The board is flat colours, text and the anti-aliased edges between them: about a thousand
distinct colours, most of them a few pixels each.  The palette is the most frequent of them
(counted on every other pixel of every other row: a tenth of the time, the same ranking), so
every fill is kept exactly and an edge pixel takes the nearest kept colour; with no dithering
the PNG is a third of the size of resvg's true-colour one and looks the same.

A mail's picture is mostly redrawn from the previous event's (``redraw``): then it takes that
picture's palette, so its bytes depend on the picture it was drawn from; a retried mail still
carries the very same picture, because it is stored once per event (``BoardPicture``).
"""

from __future__ import annotations

import io
import struct
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Mapping, Sequence
from functools import lru_cache
from importlib import resources
from typing import cast

import resvg_py
from PIL import Image

from games.rules.drawing import style
from games.rules.drawing.incremental import Pixels, crop_svg

FONT_FILES = ("LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf")
PALETTE_SIZE = 40  # every fill and about 25 steps of anti-aliasing (64 gave 7 %, 256 30 % more bytes)
EDGE = 4  # pixels drawn around a rectangle that is drawn again, and not kept
ZLIB_LEVEL = 8  # 1.5 % more bytes than 9 in half the time (only the bands that changed are compressed)
BAND = (
    32  # rows of the PNG compressed apart (about zlib's 32 kB window): vs 64, 1 % more bytes, 6 % less time
)
# the fills the drawing uses: kept in the palette exactly, however few pixels show them
FILLS = (
    *style.PLAYER_FILL.values(),
    style.NEUTRAL_FILL,
    style.EMPTY_FILL,
    style.OUT_FILL,
    style.OUT_TEXT,
    style.LAND,
    style.SEA,
    style.INK,
    style.BORDER,
    "#ffffff",
    "#111111",
)


def font_paths() -> list[str]:
    folder = resources.files("games.presentation.picture") / "fonts"
    return [str(folder / name) for name in FONT_FILES]


@lru_cache(maxsize=16)
def svg_to_png(svg: str, width: int) -> bytes:
    """``svg`` drawn ``width`` pixels wide (height in proportion), on its own fonts only, as
    a palette PNG.

    Remembered for a few calls: the picture draws only public facts, so every seat's mail
    about one event carries the same picture, and it is drawn once."""
    return encode(rasterise(svg, width))


def rasterise(svg: str, width: int) -> Image.Image:
    """``svg`` drawn ``width`` pixels wide, as an opaque RGB image."""
    return Image.open(io.BytesIO(render(svg, width))).convert("RGB")


@lru_cache(maxsize=64)
def _piece(svg: str, width: int) -> Image.Image:
    """A crop drawn, remembered for a while: the same crop comes back often (a card whose
    "to decide" tag comes and goes while its score stays).  Never changed by its callers."""
    return rasterise(svg, width)


def redraw(
    svg: str | ET.Element,
    before: bytes,
    bands: Sequence[Sequence[int]],
    rects: Sequence[Pixels],
    scale: float,
) -> tuple[bytes, list[list[int]]]:
    """The palette PNG of ``svg`` (and its bands, ``write``), made from ``before`` (the
    palette PNG of an earlier SVG, the same size, written by ``write`` in ``bands``) by
    drawing only ``rects`` again (the parts that changed, ``incremental.dirty``): each a crop
    of the SVG at the same scale, mapped to ``before``'s palette and pasted at its
    whole-pixel place.  Only the bands of rows a rectangle touches are unpacked and packed
    again; the others keep their compressed bytes and checksum."""
    chunks = dict(_chunks(before))
    palette = list(chunks[b"PLTE"])
    width, height = size_of(before)
    touched = {b for r in rects for b in range(r[1] // BAND, (r[3] - 1) // BAND + 1)}
    image = Image.new("P", (width, height))
    data, offset, reuse = chunks[b"IDAT"], 2, {}
    for band, (length, checksum) in enumerate(bands):
        packed = data[offset : offset + length]
        offset += length
        if band not in touched:
            reuse[band] = (packed, checksum)
            continue
        rows = zlib.decompressobj(-15).decompress(packed)
        top, stride = band * BAND, width + 1
        raw = b"".join(rows[i * stride + 1 : (i + 1) * stride] for i in range(len(rows) // stride))
        image.paste(Image.frombytes("P", (width, len(rows) // stride), raw), (0, top))
    for rect in rects:
        # drawn a few pixels larger: the renderer's edge rows differ from a full drawing's
        x0, y0 = max(rect[0] - EDGE, 0), max(rect[1] - EDGE, 0)
        x1, y1 = min(rect[2] + EDGE, width), min(rect[3] + EDGE, height)
        piece = _piece(crop_svg(svg, (x0, y0, x1, y1), scale), x1 - x0)
        inner = (rect[0] - x0, rect[1] - y0, rect[2] - x0, rect[3] - y0)
        image.paste(quantise(piece.crop(inner), palette), rect[:2])
    return write(image, palette, reuse)


def render(svg: str, width: int) -> bytes:
    """resvg's own true-colour PNG of ``svg``, ``width`` pixels wide."""
    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg,
            width=width,
            skip_system_fonts=True,
            font_files=font_paths(),
            font_family="Liberation Sans",
            sans_serif_family="Liberation Sans",
        )
    )


def palette_png(png: bytes, colours: int = PALETTE_SIZE) -> bytes:
    """An opaque PNG again as an 8-bit palette PNG (``encode``)."""
    return encode(Image.open(io.BytesIO(png)).convert("RGB"), colours)


def encode(image: Image.Image, colours: int = PALETTE_SIZE) -> bytes:
    """An RGB image as an 8-bit palette PNG of its own palette (``palette_of``)."""
    palette = palette_of(image, colours)
    return write(quantise(image, palette), palette)[0]


def palette_of(image: Image.Image, colours: int = PALETTE_SIZE) -> list[int]:
    """The drawing's fills that ``image`` shows and its most frequent other colours,
    ``colours`` in all (ties in a fixed order, so the same picture gives the same bytes), as
    a flat list of channels."""
    sample = image.resize((max(image.width // 2, 1), max(image.height // 2, 1)), Image.Resampling.NEAREST)
    counts = sample.getcolors(maxcolors=sample.width * sample.height)
    assert counts is not None  # maxcolors is the pixel count: every colour is counted
    ranked = [cast(tuple[int, int, int], rgb) for _, rgb in sorted(counts, key=lambda c: (-c[0], c[1]))]
    fills = {tuple(int(f[k : k + 2], 16) for k in (1, 3, 5)) for f in FILLS}
    kept = [rgb for rgb in ranked if rgb in fills]
    kept += [rgb for rgb in ranked if rgb not in fills][: max(colours - len(kept), 0)]
    return [channel for rgb in kept for channel in rgb]


def quantise(image: Image.Image, palette: Sequence[int]) -> Image.Image:
    """Each pixel as the nearest colour of ``palette`` (no dithering: fills stay flat)."""
    holder = Image.new("P", (1, 1))
    holder.putpalette(list(palette))
    return image.quantize(palette=holder, dither=Image.Dither.NONE)


def write(
    indexed: Image.Image, palette: Sequence[int], reuse: Mapping[int, tuple[bytes, int]] | None = None
) -> tuple[bytes, list[list[int]]]:
    """A palette PNG written directly, and its bands: [compressed length, Adler-32] each.

    The rows are unfiltered (best for a few flat colours); the data is compressed in bands of
    ``BAND`` rows, each on its own (a full flush: no band refers to another), so the next
    picture keeps the bytes of every band where nothing changed (``reuse``: its bytes and
    checksum, by band) and unpacks and compresses only the others."""
    width, height = indexed.size
    raw = indexed.tobytes()
    reuse = reuse or {}
    stream, bands, total = [b"\x78\xda"], [], 1
    for band, top in enumerate(range(0, height, BAND)):
        count = min(top + BAND, height) - top
        if band in reuse:
            packed, checksum = reuse[band]
        else:
            rows = b"".join(b"\x00" + raw[y * width : (y + 1) * width] for y in range(top, top + count))
            checksum = zlib.adler32(rows)
            compressor = zlib.compressobj(ZLIB_LEVEL, zlib.DEFLATED, -15, 9)
            packed = compressor.compress(rows) + compressor.flush(zlib.Z_FULL_FLUSH)
        total = adler32_combine(total, checksum, count * (width + 1))
        stream.append(packed)
        bands.append([len(packed), checksum])
    stream.append(b"\x03\x00" + struct.pack(">I", total))  # an empty last block, the checksum
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    png = b"".join(
        [
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", bytes(palette)),
            _chunk(b"IDAT", b"".join(stream)),
            _chunk(b"IEND", b""),
        ]
    )
    return png, bands


def adler32_combine(first: int, second: int, length: int) -> int:
    """The Adler-32 of two pieces of data one after the other, from theirs and the second's
    length (zlib's adler32_combine, which Python's zlib does not offer)."""
    base = 65521
    rem = length % base
    low = first & 0xFFFF
    high = (rem * low) % base
    low = (low + (second & 0xFFFF) + base - 1) % base
    high = (high + (first >> 16) + (second >> 16) + base - rem) % base
    return (high << 16) | low


def palette_in(png: bytes) -> list[int]:
    """A palette PNG's palette, as a flat list of channels."""
    return list(dict(_chunks(png))[b"PLTE"])


def size_of(png: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def _chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """A PNG's chunks: (kind, data)."""
    out, at = [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        out.append((png[at + 4 : at + 8], png[at + 8 : at + 8 + length]))
        at += 12 + length
    return out


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
