"""A game registered by a registry line, and not one of those the project ships, keeps the
game-wide tests green: every test module that runs over the registered games (it reads
``registry.names()``, ``PACKAGES``, ``locale_dirs()`` or ``template_dirs()``) is run again in a
process of its own with Dealer's Draw (tests/contract/dealersdraw: a game with chance and its
own catalogue, written to docs/ADDING-A-GAME.md) in the registry, as a game's author's line
would put it there (tests/extragames.py).  The shipped games' cases are left to this run."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests import extragames

ROOT = Path(__file__).resolve().parents[1]
EXTRA = "dealersdraw=tests.contract.dealersdraw"
GAME_WIDE = re.compile(r"\bregistry\.(names|PACKAGES|locale_dirs|template_dirs)\b")
SHIPPED = "not whitelotus and not verbotenestadt and not sealedbids"


def game_wide_modules() -> list[str]:
    """The test modules that run over the registered games."""
    here = Path(__file__).resolve()
    return sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "tests").rglob("test_*.py")
        if path != here and GAME_WIDE.search(path.read_text(encoding="utf-8"))
    )


def test_the_game_wide_modules_are_found():
    modules = game_wide_modules()
    for module in (
        "tests/contract/test_every_game.py",
        "tests/engine/test_story_catalogue.py",
        "tests/engine/test_registry.py",
        "tests/games/test_page_languages.py",
        "tests/test_game_names.py",
    ):
        assert module in modules


def test_a_malformed_extra_game_is_refused():
    with pytest.raises(ValueError, match="name=package"):
        extragames.from_environment({extragames.VARIABLE: "tests.contract.dealersdraw"})
    assert extragames.from_environment({extragames.VARIABLE: f" {EXTRA} ,"}) == {
        "dealersdraw": "tests.contract.dealersdraw"
    }


@pytest.mark.slow
def test_the_game_wide_tests_pass_with_a_further_game_registered():
    modules = game_wide_modules()
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-v", "-k", SHIPPED]
    run = subprocess.run(
        [*command, *modules],
        cwd=ROOT,
        env=extragames.run_environment(EXTRA),
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    passed = [line for line in run.stdout.splitlines() if re.search(r"\[[^]]*\bdealersdraw\b", line)]
    passed = [line for line in passed if "PASSED" in line]
    # the contract test's whole game by mail, the registry's and the view schema's checks, chance
    # read back in every language: each over the extra game, as over a shipped one
    for test in (
        "test_it_is_played_to_the_end_by_its_bot",
        "test_every_game_gives_every_function_of_the_contract",
        "test_every_view_of_a_random_game_has_what_the_service_reads",
        "test_chance_said_in_each_language_reads_back_as_the_same_outcome",
    ):
        assert any(test in line for line in passed), test
