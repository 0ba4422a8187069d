"""Import-linter contract types of this project (``[tool.importlinter] contract_types``).

``floors``: the house's floors (:class:`FloorsContract`), each module importing only from its
own room or the floors below.

``registry_games``: a forbidden contract whose forbidden modules are every game package the
registry lists (``games.rules.registry.PACKAGES``), so that a new game is covered by the line
that registers it and by nothing else: pyproject names no game.  Everything else is the
``forbidden`` contract's (``source_modules``, ``ignore_imports``, indirect imports).
"""

from __future__ import annotations

from typing import Any, cast

from grimp import ImportGraph
from importlinter.application import output
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck

from games.rules import registry


class RegistryGamesContract(ForbiddenContract):
    """Forbids importing any registered game's package from the source modules."""

    def __init__(self, name: str, session_options: dict[str, Any], contract_options: dict[str, Any]) -> None:
        if "forbidden_modules" in contract_options:
            raise ValueError(f"{name}: the forbidden modules are the registry's games; name none")
        options = {**contract_options, "forbidden_modules": sorted(registry.PACKAGES.values())}
        super().__init__(name, session_options, options)


class Floors:
    """The floors of the house, read from the contract's ``floors``: top first, each a string of
    rooms separated by ``|`` (rooms of one floor may not import each other), each room one or
    more module prefixes joined by ``+``.  A module stands in the room of its longest prefix."""

    def __init__(self, floors: list[str]) -> None:
        self.rooms: dict[str, tuple[int, int]] = {}  # prefix -> (floor from the bottom, room)
        for height, floor in enumerate(reversed(floors)):
            for room, text in enumerate(floor.split("|")):
                for prefix in text.split("+"):
                    if prefix.strip() in self.rooms:
                        raise ValueError(f"{prefix.strip()} is on two floors")
                    self.rooms[prefix.strip()] = (height, room)

    def place(self, module: str) -> tuple[int, int] | None:
        """(floor, room) of a module, or None where no prefix covers it."""
        while module:
            if module in self.rooms:
                return self.rooms[module]
            module = module.rpartition(".")[0]
        return None

    def allowed(self, importer: str, imported: str) -> bool:
        """An import down a floor, or within one room."""
        upper, lower = self.place(importer), self.place(imported)
        if upper is None or lower is None:
            return True  # outside the house (Django, the standard library)
        return lower[0] < upper[0] or lower == upper


class FloorsContract(Contract):
    """Every module of the root packages stands on a floor, and imports only from its own room
    or the floors below; a package's own ``__init__`` that imports nothing stands nowhere.

    Unlike a ``layers`` contract, a floor may name a module of a package whose other modules stand
    on other floors (``notifications.models`` with the store, ``notifications`` with mail).
    Direct imports are enough: a chain that only ever goes down cannot come back up."""

    floors = fields.ListField(subfield=fields.StringField())

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        floors = Floors(cast(list[str], self.floors))
        roots = self.session_options["root_packages"]
        homeless, upward = [], []
        for module in sorted(graph.modules):
            if module.split(".")[0] not in roots or floors.place(module) is not None:
                continue
            if module in roots and not graph.find_modules_directly_imported_by(module):
                continue
            homeless.append(module)
        for importer in sorted(graph.modules):
            if importer.split(".")[0] not in roots:
                continue
            for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                if not floors.allowed(importer, imported):
                    lines = graph.get_import_details(importer=importer, imported=imported)
                    where = ", ".join(str(line["line_number"]) for line in lines)
                    upward.append(f"{importer} -> {imported} (l. {where})")
        return ContractCheck(
            kept=not homeless and not upward, metadata={"homeless": homeless, "upward": upward}
        )

    def render_broken_contract(self, check: ContractCheck) -> None:
        for module in check.metadata["homeless"]:
            output.print_error(f"{module} stands on no floor: name it (or its package) in `floors`")
        for line in check.metadata["upward"]:
            output.print_error(f"up a floor or across rooms: {line}")
