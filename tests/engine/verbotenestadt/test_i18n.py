"""Every sentence the Verbotene Stadt engine may say (refusals, narration, decisions, syntax
lines, the words put into them) has a German and a French entry with the same placeholders,
and narration reads in German."""

from __future__ import annotations

import ast
import gettext
import importlib
import re
from pathlib import Path
from string import Formatter

import pytest

from games.rules.verbotenestadt.commands import Move
from games.rules.verbotenestadt.engine import apply
from tests.catalogues import translator
from tests.engine.verbotenestadt.helpers import TO_2_SQUARES, arrange, started

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "games" / "rules" / "verbotenestadt"
# its own catalogue, then the service's (the words every game shares), as the settings merge them
LOCALES = (PACKAGE / "locale", ROOT / "notifications" / "locale")
narrate_module = importlib.import_module("games.rules.verbotenestadt.narrate")
notation = importlib.import_module("games.rules.verbotenestadt.notation")


def engine_strings() -> set[str]:
    found: set[str] = set()
    # the package, and the shared refusals of games.rules.commandline its notation says
    for path in [
        *sorted(PACKAGE.glob("*.py")),
        PACKAGE.parent / "commandline.py",
        PACKAGE.parent / "chance.py",
    ]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("Message", "MoveError", "_refuse")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.add(node.args[0].value)
    found |= {*narrate_module.MESSAGES, *notation.SYNTAX.values(), notation.COMMAND_LIST}
    return found - {"{text}"}


def catalogue(language: str) -> dict[str, str]:
    entries: dict[str, str] = {}
    for locale in LOCALES:
        text = (locale / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
        for m in re.finditer(r'^msgid ((?:".*"\n)+)msgstr ((?:".*"\n?)+)', text, re.M):

            def joined(block: str) -> str:
                return "".join(re.findall(r'"(.*)"', block)).replace('\\"', '"').replace("\\\\", "\\")

            entries.setdefault(joined(m.group(1)), joined(m.group(2)))
    return entries


def translations(language: str) -> gettext.NullTranslations:
    return translator(language)


def names(text: str) -> set[str]:
    return {n for _, n, _, _ in Formatter().parse(text) if n}


@pytest.mark.parametrize("language", ["de", "fr"])
def test_every_engine_sentence_has_a_translation_with_the_same_placeholders(language):
    entries = catalogue(language)
    missing = sorted(s for s in engine_strings() if not entries.get(s))
    assert not missing
    wrong = sorted(s for s in engine_strings() if names(entries[s]) != names(s))
    assert not wrong


def test_narration_reads_in_german():
    translation = translations("de")
    state = arrange(started(3), TO_2_SQUARES, target=2)
    state, log = apply(state, 0, Move("rr", ("n",)))
    lines = [narrate_module.narrate(state, e, translation.gettext) for e in log if e.private_to is None]
    assert "Nord zieht rr (Rot/Rot) nach Norden in den Zielpavillon." in lines
    assert any(line.startswith("Nord nimmt eine Karte aus Pavillon 2: ") for line in lines)


def test_a_final_score_s_parts_are_the_groups_it_scored_in_the_reader_s_words():
    """The game-over table's parts: the cards and the groups counted, the empty groups, the
    partner's seat and the seat's own points (columns of their own) left out."""
    from games.rules.verbotenestadt.mailfacts import score_parts

    scored = {
        "total": 14,
        "cards": 9,
        "singles": 1,
        "pairs": 2,
        "triples": 0,
        "suits": 1,
        "own": 7,
        "partner": 2,
    }
    assert score_parts(scored).render() == "9 cards: 1 suit (hat, coat, trousers), 2 pairs, 1 single"
    german = score_parts(scored).render(translations("de").gettext)
    assert german == "9 Karten: 1 Anzug (Hut, Mantel, Hose), 2 Paare, 1 Einzelkarte"
    assert score_parts({"total": 0, "cards": 0}).render() == "no cards"
    assert score_parts({"total": 1, "cards": 1}).render(translations("fr").gettext) == "1 carte"
