"""Check a game record's draws and replay it, with nothing but the standard library and
``games/rules/`` (no Django, no database): the commitment (the seed's hash published when the
game was created), the players' contributions, the draw seed they make, every move, and the
final scores.  ``games.rules.verify`` says what is checked.

Run from the repository root (or from anywhere with games/rules/ beside this script's parent):

    python tools/verify_record.py game-12.txt

Exit status 0: verified (what was verified is printed); 1: it does not verify (what failed
is printed); 2: a usage error.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules.verify import main  # (after the path is set)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
