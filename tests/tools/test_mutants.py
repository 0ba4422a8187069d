"""scripts/mutants: the sample it draws, the tests it picks, and a short run of the real thing."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tools.mutants.catalogue import Mutant, change, every_mutant, mutated_source, sample, survivors_of
from tools.mutants.picking import covering_tests, game_tests
from tools.mutants.report import is_rules

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "games" / "rules" / "whitelotus"


def test_the_same_seed_draws_the_same_sample_and_another_seed_another():
    mutants = every_mutant(ROOT, PACKAGE / "income.py")
    assert sample(mutants, 5, seed=1) == sample(mutants, 5, seed=1)
    assert sample(mutants, 5, seed=1) != sample(mutants, 5, seed=2)
    assert len(sample(mutants, 5, seed=1)) == 5


def test_a_sample_takes_one_mutant_per_place_and_kind_of_change():
    mutants = every_mutant(ROOT, PACKAGE / "income.py")
    everything = sample(mutants, None, seed=0)
    places = {(m.path, m.line, m.family) for m in everything}
    assert len(places) == len(everything)
    assert places == {(m.path, m.line, m.family) for m in mutants}


def test_type_annotations_are_not_mutated_as_they_are_never_evaluated(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        "from __future__ import annotations\n\ndef f(x: int | None, y: list[int]) -> int | None:\n"
        "    z: int | None = x\n    return x + 1\n",
        encoding="utf-8",
    )
    lines = {m.line for m in every_mutant(tmp_path, module) if m.family == "core/ReplaceBinaryOperator"}
    assert lines == {5}


def test_a_mutant_is_shown_as_the_line_it_changes():
    mutant = Mutant("games/rules/whitelotus/income.py", "core/ReplaceComparisonOperator_Eq_NotEq", 0, 0)
    before = (ROOT / mutant.path).read_text(encoding="utf-8")
    after = mutated_source(ROOT, mutant)
    shown = change(before, after)
    old, new = shown.split("  ->  ")
    assert "==" in old and "!=" in new and old.replace("==", "!=", 1) == new


def test_the_slow_property_tests_and_other_games_folders_are_left_out():
    whitelotus = game_tests(ROOT, "whitelotus")
    assert whitelotus and all(t.parent == ROOT / "tests" / "engine" / "whitelotus" for t in whitelotus)
    assert all(t.name != "test_properties.py" for t in whitelotus)
    verbotenestadt = game_tests(ROOT, "verbotenestadt")
    assert verbotenestadt and all("verbotenestadt" in t.parts for t in verbotenestadt)
    assert all(t.name != "test_properties.py" for t in verbotenestadt)


def test_only_the_tests_that_import_a_module_run_against_its_mutants():
    tests = game_tests(ROOT, "verbotenestadt")
    rules = ROOT / "games" / "rules" / "verbotenestadt"
    module = next(p for p in sorted(rules.glob("*.py")) if p.name != "__init__.py")
    chosen = covering_tests(ROOT, tests, module)
    assert chosen and set(chosen) <= set(tests)


def test_the_score_over_the_rules_modules_leaves_out_pictures_words_and_players():
    assert is_rules("games/rules/whitelotus/rebellion.py")
    assert is_rules("games/rules/verbotenestadt/dice.py")
    assert not is_rules("games/rules/whitelotus/picture.py")
    assert not is_rules("games/rules/verbotenestadt/bots.py")
    assert not is_rules("games/rules/verbotenestadt/__init__.py")


SAMPLE = 4
# what CI samples of each shipped game: one rules module against the test file written for it
# (a quarter of a minute each; the whole package against all its tests is run by hand)
QUICK = {
    "whitelotus": ("income.py", "tests/engine/whitelotus/test_income_and_tiles.py"),
    "verbotenestadt": ("dice.py", "tests/engine/verbotenestadt/test_dice.py"),
}


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(QUICK))
def test_a_sampled_run_prints_the_score_each_module_and_each_survivor(game):
    """What CI runs of the tool, on each shipped game; larger samples are run by hand
    (bench/RESULTS.md)."""
    module, tests = QUICK[game]
    run = subprocess.run(
        [
            str(ROOT / "scripts" / "mutants"),
            *(game, "--sample", str(SAMPLE), "--seed", "1", "--module", module, "--tests", tests),
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=True,
    )
    out = run.stdout.splitlines()
    summary = re.match(rf"^mutants {game}: (\d+) of {SAMPLE} killed, score (\d+)%$", out[0])
    assert summary, run.stdout
    killed = int(summary[1])
    assert killed >= 1
    assert int(summary[2]) == round(100 * killed / SAMPLE)
    group = r"^  (rules modules|drawing, words and players): \d+ of \d+ killed, score (\d+%|n/a)$"
    assert re.match(group, out[1]) and re.match(group, out[2]), run.stdout
    rest = out[3:]
    survivors = rest[rest.index("survivors:") + 1 :] if "survivors:" in rest else []
    modules = rest[: len(rest) - len(survivors) - (1 if survivors else 0)]
    module = rf"^  games/rules/{game}/\S+\.py: \d+ of \d+ killed, score \d+%$"
    assert modules and all(re.match(module, line) for line in modules), run.stdout
    assert len(survivors) == SAMPLE - killed
    survivor = rf"^  games/rules/{game}/\S+\.py:\d+: .+  ->  .+  \[core/\w+\]$"
    assert all(re.match(survivor, line) for line in survivors), run.stdout


def test_a_reports_survivors_are_found_again_when_their_file_has_moved(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f(x):\n    return x + 1 if x > 2 else x\n", encoding="utf-8")
    mutants = every_mutant(tmp_path, module)
    chosen = mutants[len(mutants) // 2]
    shown = change(module.read_text(encoding="utf-8"), mutated_source(tmp_path, chosen))
    survivor = f"m.py:{chosen.line}: {shown}  [{chosen.operator}]"
    report = f"mutants m: 0 of 1 killed, score 0%\nsurvivors:\n  {survivor}\n"
    assert survivors_of(tmp_path, report) == ([chosen], [])
    module.write_text("# a line above\n\n" + module.read_text(encoding="utf-8"), encoding="utf-8")
    (again,), gone = survivors_of(tmp_path, report)
    assert (again.operator, again.line, gone) == (chosen.operator, chosen.line + 2, [])
    commented = module.read_text(encoding="utf-8").replace(" else x\n", " else x  # why it is so\n")
    module.write_text(commented, encoding="utf-8")
    assert survivors_of(tmp_path, report)[0] == [again]  # a comment added since: the same mutant
    module.write_text("def f(x):\n    return x\n", encoding="utf-8")
    assert survivors_of(tmp_path, report) == ([], [survivor])
