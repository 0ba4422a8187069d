"""Reading a game's board file: a built-in board by name, or a JSON file by path.

Each game keeps its boards in its package's ``boards/`` folder and its own ``Board.from_dict``
and error; the reading is the same, so it is here once.  Reading a file happens at the edge
(``load_board``): the engines only ever receive a board value inside a configuration.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any


def board_data(source: str | Path, package: str, error: type[Exception]) -> Any:
    """The JSON of a board: ``source`` is a file when it ends in ``.json`` or exists, else the
    name of a built-in board of ``package`` (``boards/<name>.json``); ``error`` is raised when
    there is no such board."""
    path = Path(source)
    if path.suffix == ".json" or path.exists():
        text = path.read_text(encoding="utf-8")
    else:
        ref = resources.files(package) / "boards" / f"{source}.json"
        if not ref.is_file():
            raise error(f"no built-in board '{source}' and no such file")
        text = ref.read_text(encoding="utf-8")
    return json.loads(text)
