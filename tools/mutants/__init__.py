"""Mutation testing of one game's rules package against that game's own fast engine tests.

``scripts/mutants <game> [--sample N] [--seed S]``: cosmic-ray's operators list every small
change to the package's code (a comparison, an operator, a number, a boolean, ``and``/``or``, a
negated condition, a loop that never runs …); a seeded sample of them is applied one at a
time to a copy of the repository, and the game's engine tests that import the changed module
run against it. A mutant is killed when a test fails (or the run passes its time limit); the
survivors are changes no test notices.
"""
