"""Redrawing only what changed (dirty rectangles): the picture of an event is the picture of
an earlier event of the same game with the changed parts drawn again.

Every part of the drawing that may change from one event to the next (a province, the
panel's headline, each player's card, the legend) carries ``data-bbox="x0 y0 x1 y1"``: a
rectangle in picture units, placed by the drawing code, that holds everything the part
paints (its shapes, strokes, text and their anti-aliased edges).  ``parts`` reads an SVG
into a digest and a box per part; ``dirty`` compares two of them and gives the pixel
rectangles to draw again (the old and the new box of every part that changed), or ``None``
when a full drawing is due (the static ground changed, the parts differ, or the change
covers most of the picture); ``crop_svg`` writes the SVG of one rectangle: the ground and
only the parts that touch it, in their order, under a viewBox of that rectangle at the same
scale, so that the pixels it gives are those of the full drawing there.

Pure: no Django, no renderer (``raster`` draws).
"""

from __future__ import annotations

import hashlib
import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from typing import Any

SVG_NS = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG_NS)

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in picture units
Pixels = tuple[int, int, int, int]  # x0, y0, x1, y1 in pixels, x1 and y1 excluded
Parts = dict[str, tuple[str, Box]]  # key -> (digest, box)

GROUND = "ground"  # the key of everything painted that is not a part (background, sea, patterns)
FULL_SHARE = 0.5  # a change over more of the picture than this is drawn whole
PAD = 2  # pixels around a part's box, for anti-aliasing at the rounding
GAP = 16  # pixels apart that two rectangles may be and still be drawn as one (if it adds little)


def bbox_attr(box: Box) -> str:
    """The ``data-bbox`` attribute of a part (the drawing code writes it)."""
    return 'data-bbox="' + " ".join(f"{v:.1f}".rstrip("0").rstrip(".") for v in box) + '"'


def union(*boxes: Box) -> Box:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def text_box(x: float, baseline: float, text: str, size: float, anchor: str = "start") -> Box:
    """A generous box around a line of text (Liberation Sans: no glyph is wider than 1 em,
    few wider than 0.7; descenders reach 0.25 em below the baseline)."""
    width = 0.72 * size * len(text)
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    return (left, baseline - size, left + width, baseline + 0.3 * size)


def _tag(element: ET.Element) -> str:
    return element.tag.rpartition("}")[2]


def _key(element: ET.Element) -> str:
    if element.get("id"):
        return str(element.get("id"))
    return f"{element.get('class', _tag(element))}:{element.get('data-colour', '')}"


def _digest(element: ET.Element) -> str:
    """A digest of everything the element says (tags, attributes, text), a third of the time
    of serialising it."""
    said = repr([(node.tag, node.attrib, node.text, node.tail) for node in element.iter()])
    return hashlib.blake2b(said.encode(), digest_size=12).hexdigest()


def _box(element: ET.Element) -> Box:
    x0, y0, x1, y1 = (float(v) for v in str(element.get("data-bbox")).split())
    return x0, y0, x1, y1


def _children(root: ET.Element) -> list[tuple[ET.Element | None, ET.Element]]:
    """The painted children of the root, with those of its groups that hold parts flattened:
    (the group or None, the element)."""
    out: list[tuple[ET.Element | None, ET.Element]] = []
    for child in root:
        if _tag(child) == "title":
            continue  # not painted
        if _tag(child) == "g" and child.get("data-bbox") is None and any(c.get("data-bbox") for c in child):
            out.extend((child, grandchild) for grandchild in child)
        else:
            out.append((None, child))
    return out


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def parts(svg: str | ET.Element) -> Parts:
    """Every part's digest and box, and one digest for the ground (with the size)."""
    root = ET.fromstring(svg) if isinstance(svg, str) else svg
    found: Parts = {}
    ground = hashlib.blake2b(str(root.get("viewBox")).encode(), digest_size=12)
    for group, element in _children(root):
        if element.get("data-bbox") is None:
            ground.update(_digest(element).encode())
            if group is not None:
                ground.update(str(sorted(group.attrib.items())).encode())
            continue
        found[_key(element)] = (_digest(element), _box(element))
    width, height = _size(root)
    found[GROUND] = (ground.hexdigest(), (0.0, 0.0, width, height))
    return found


def _size(root: ET.Element) -> tuple[float, float]:
    _, _, width, height = (float(v) for v in str(root.get("viewBox")).split())
    return width, height


def dirty(
    old: Mapping[str, Sequence[Any]], new: Parts, scale: float, size: tuple[int, int]
) -> list[Pixels] | None:
    """The pixel rectangles of a picture ``size`` pixels large (drawn at ``scale`` pixels per
    unit) to draw again to turn the picture of ``old`` into that of ``new``; ``None``: draw
    it whole.  ``old`` may come back from JSON (lists for tuples)."""
    if (
        set(old) != set(new)
        or old[GROUND][0] != new[GROUND][0]
        or list(old[GROUND][1]) != list(new[GROUND][1])
    ):
        return None
    boxes: list[Box] = []
    for key, (digest, box) in new.items():
        then_digest, then_box = old[key]
        if then_digest != digest:
            boxes.append(box)
            then = tuple(float(v) for v in then_box)
            if then != box:
                boxes.append((then[0], then[1], then[2], then[3]))
    rects = merge([_pixels(box, scale, size) for box in boxes])
    area = sum((r[2] - r[0]) * (r[3] - r[1]) for r in rects)
    if area > FULL_SHARE * size[0] * size[1]:
        return None
    return rects


def _pixels(box: Box, scale: float, size: tuple[int, int]) -> Pixels:
    return (
        max(math.floor(box[0] * scale) - PAD, 0),
        max(math.floor(box[1] * scale) - PAD, 0),
        min(math.ceil(box[2] * scale) + PAD, size[0]),
        min(math.ceil(box[3] * scale) + PAD, size[1]),
    )


def merge(rects: list[Pixels]) -> list[Pixels]:
    """Overlapping rectangles joined into their common box, until none overlap, and so are
    close ones whose common box adds little (fewer, larger renders: each has a fixed cost)."""
    out = [r for r in rects if r[2] > r[0] and r[3] > r[1]]
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                near = a[0] <= b[2] + GAP and b[0] <= a[2] + GAP and a[1] <= b[3] + GAP and b[1] <= a[3] + GAP
                joined = (max(a[2], b[2]) - min(a[0], b[0])) * (max(a[3], b[3]) - min(a[1], b[1]))
                if near and joined <= 1.25 * (_area(a) + _area(b)):
                    out[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return sorted(out)


def _area(rect: Pixels) -> int:
    return (rect[2] - rect[0]) * (rect[3] - rect[1])


def crop_svg(svg: str | ET.Element, rect: Pixels, scale: float) -> str:
    """The SVG of pixel rectangle ``rect`` of the picture: the ground and the parts whose box
    meets it, in drawing order, without their lines of text that cannot reach it, seen
    through a viewBox of that rectangle (to be drawn ``rect``'s width in pixels wide, so at
    the same scale).  ``svg`` may be parsed already (it is not changed)."""
    root = ET.fromstring(svg) if isinstance(svg, str) else svg
    x0, y0, x1, y1 = (v / scale for v in rect)
    seen = (x0, y0, x1, y1)
    out = ET.Element(root.tag, dict(root.attrib))
    for child in root:
        if _tag(child) == "title":
            continue
        if child.get("data-bbox") is None and any(c.get("data-bbox") for c in child):
            offset = _offset(child)
            group = ET.SubElement(out, child.tag, dict(child.attrib))
            for grandchild in child:
                if grandchild.get("data-bbox") is None:
                    group.append(grandchild)
                elif _meets(_box(grandchild), seen):
                    group.append(_near(grandchild, seen, offset))
        elif child.get("data-bbox") is None:
            out.append(child)
        elif _meets(_box(child), seen):
            out.append(_near(child, seen, (0.0, 0.0)))
    out.set("viewBox", f"{x0:g} {y0:g} {x1 - x0:g} {y1 - y0:g}")
    out.set("width", f"{x1 - x0:g}")
    out.set("height", f"{y1 - y0:g}")
    return ET.tostring(out, encoding="unicode")


def _offset(group: ET.Element) -> tuple[float, float]:
    """Where a group of parts is moved to (the panel: ``translate(0 top)``)."""
    transform = group.get("transform", "")
    if not transform.startswith("translate("):
        return 0.0, 0.0
    values = [float(v) for v in transform[len("translate(") : -1].replace(",", " ").split()]
    return values[0], values[1] if len(values) > 1 else 0.0


def _near(part: ET.Element, rect: Box, offset: tuple[float, float]) -> ET.Element:
    """The part without its lines of text that cannot reach ``rect`` (laying out text is most
    of a small drawing's time): a shallow copy, the part itself is not changed.  Only a
    plain ``<text>`` child with a position is judged; its other shapes are always drawn."""
    copy = ET.Element(part.tag, dict(part.attrib))
    copy.text = part.text
    for node in part:
        if _tag(node) == "text" and node.get("x") is not None and node.get("y") is not None:
            box = text_box(
                float(str(node.get("x"))) + offset[0],
                float(str(node.get("y"))) + offset[1],
                "".join(node.itertext()) + ("    " if len(node) else ""),  # tspans may move apart (dx)
                float(node.get("font-size", "16")),
                node.get("text-anchor", "start"),
            )
            if not _meets(box, rect):
                continue
        copy.append(node)
    return copy


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
