"""Import-linter contract types of this project (``[tool.importlinter] contract_types``).

``registry_games``: a forbidden contract whose forbidden modules are every game package the
registry lists (``games.rules.registry.PACKAGES``), so that a new game is covered by the line
that registers it and by nothing else: pyproject names no game.  Everything else is the
``forbidden`` contract's (``source_modules``, ``ignore_imports``, indirect imports).
"""

from __future__ import annotations

from typing import Any

from importlinter.contracts.forbidden import ForbiddenContract

from games.rules import registry


class RegistryGamesContract(ForbiddenContract):
    """Forbids importing any registered game's package from the source modules."""

    def __init__(self, name: str, session_options: dict[str, Any], contract_options: dict[str, Any]) -> None:
        if "forbidden_modules" in contract_options:
            raise ValueError(f"{name}: the forbidden modules are the registry's games; name none")
        options = {**contract_options, "forbidden_modules": sorted(registry.PACKAGES.values())}
        super().__init__(name, session_options, options)
