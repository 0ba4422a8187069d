"""Pure rules engines for the games the service hosts.

Nothing in this package imports Django, reads a clock, does I/O at play time or keeps
module-level mutable state; an import-linter contract in pyproject.toml enforces the first.
Each game is a sub-package implementing the contract in :mod:`games.rules.base`.
"""
