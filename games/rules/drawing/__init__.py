"""The drawing kit every game's picture is made with (pure: SVG text and boxes, no Django): shapes
and labels on a board (geometry), pieces of SVG cached and redrawn in parts (incremental), and
the picture's shared ink, fills and icons (style).
"""
