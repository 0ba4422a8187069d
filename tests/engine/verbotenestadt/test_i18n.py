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
from tests.engine.verbotenestadt.helpers import TO_2_SQUARES, arrange, started

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "games" / "rules" / "verbotenestadt"
LOCALE = ROOT / "notifications" / "locale"
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
    text = (LOCALE / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    entries: dict[str, str] = {}
    for m in re.finditer(r'^msgid ((?:".*"\n)+)msgstr ((?:".*"\n?)+)', text, re.M):

        def joined(block: str) -> str:
            return "".join(re.findall(r'"(.*)"', block)).replace('\\"', '"').replace("\\\\", "\\")

        entries[joined(m.group(1))] = joined(m.group(2))
    return entries


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
    translation = gettext.GNUTranslations((LOCALE / "de" / "LC_MESSAGES" / "django.mo").open("rb"))
    state = arrange(started(3), TO_2_SQUARES, target=2)
    state, log = apply(state, 0, Move("rr", ("n",)))
    lines = [narrate_module.narrate(state, e, translation.gettext) for e in log if e.private_to is None]
    assert "Nord zieht rr (Rot/Rot) nach Norden in den Zielpavillon." in lines
    assert any(line.startswith("Nord nimmt eine Karte aus Pavillon 2: ") for line in lines)
