"""Scripts of the project's own upkeep: board builders, the import contract, mutation testing."""
