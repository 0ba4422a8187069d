"""``python -m bench.load``: see the package's docstring."""

import sys

from bench.load.run import main

sys.exit(main(sys.argv[1:]))
