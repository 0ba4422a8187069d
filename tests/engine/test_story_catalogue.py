"""Every sentence and word a game's story may say (its narration's templates, the parts and
words put into them, the outcomes of chance as pages show them) has a German and a French
entry in the catalogue the pages and mails read (notifications/locale), with the same
placeholders: a template without one would be shown in English to a German or French reader.

Checked two ways for every game of the registry: the list the game gives of what it says
(``rules.MESSAGES``), and what random games actually ask to translate (a template missing from
that list is caught too)."""

from __future__ import annotations

from collections.abc import Iterator
from string import Formatter
from typing import Any

import pytest

from games.rules import registry
from games.rules.base import GameRules, Message
from tests.notifications.test_i18n import LANGUAGES, po_path, read_po, translations


def catalogue(language: str) -> dict[str, str]:
    return {
        str(e["msgid"]): translations(e)[0]
        for e in read_po(po_path(language))
        if "fuzzy" not in e["flags"]  # type: ignore[operator]
    }


def names(text: str) -> set[str]:
    return {n for _, n, _, _ in Formatter().parse(text) if n}


def random_games(rules: GameRules, games: int = 3, steps: int = 800) -> Iterator[tuple[Any, Any]]:
    """(state, log entry) of a few games played by the game's own bots, private entries too."""
    board = rules.load_board(rules.default_board)
    for i in range(games):
        players = rules.player_counts[i % len(rules.player_counts)]
        edition = rules.editions[i % len(rules.editions)]
        config = rules.make_config(board, players, edition, {}, None)
        state = rules.setup(config, f"story-{i}")
        bots = [rules.Bot(f"story-{i}-{seat}") for seat in range(players)]
        for _ in range(steps):
            pending = rules.pending(state)
            if not pending:
                break
            seat = pending[0].seat
            state, log = rules.apply(state, seat, bots[seat].choose(state, seat))
            for entry in log:
                yield state, entry


def said(rules: GameRules) -> set[str]:
    asked: set[str] = set()
    for state, entry in random_games(rules):
        message: Message = rules.narration(state, entry)
        asked.update(message.templates())
        message.render(lambda text: asked.add(text) or text)  # type: ignore[func-returns-value]
    return asked


@pytest.fixture(scope="module", params=LANGUAGES)
def entries(request: pytest.FixtureRequest) -> tuple[str, dict[str, str]]:
    return request.param, catalogue(request.param)


@pytest.mark.parametrize("game", registry.names())
def test_everything_a_game_says_has_a_german_and_a_french_entry(game, entries):
    language, found = entries
    rules = registry.get(game)
    missing = sorted(m for m in rules.MESSAGES if not found.get(m))
    assert not missing, f"{game}: {len(missing)} phrases have no {language} entry: {missing}"
    wrong = sorted(m for m in rules.MESSAGES if names(found[m]) != names(m))
    assert not wrong, f"{game}: {language} entries with other placeholders: {wrong}"


@pytest.mark.parametrize("game", registry.names())
def test_random_games_ask_only_for_what_the_game_lists(game):
    rules = registry.get(game)
    unlisted = sorted(said(rules) - set(rules.MESSAGES))
    assert not unlisted, f"{game} narrates templates it does not list in MESSAGES: {unlisted}"


@pytest.mark.parametrize("game", registry.names())
def test_every_option_edition_and_board_of_a_game_has_words_for_pages(game):
    rules = registry.get(game)
    words = rules.PAGE_WORDS
    assert set(rules.OPTIONS) <= set(words["option"]), "an option without words"
    assert set(rules.editions) <= set(words["edition"]), "an edition without words"
    assert rules.default_board in words["board"]
    values = {v for v in rules.OPTIONS.values() if isinstance(v, str)}
    assert values <= set(words.get("value", {})), "an option's value without words"


@pytest.mark.parametrize("game", registry.names())
def test_chance_said_in_each_language_reads_back_as_the_same_outcome(game):
    rules = registry.get(game)
    played = [state for state, _entry in random_games(rules, games=1)]
    assert played
    state = played[-1]
    outcomes = list(rules.drawn(state))
    assert outcomes
    for language in rules.words.LANGUAGES:
        for outcome in outcomes:
            said = rules.format_chance_in(state, outcome, language)
            assert rules.parse_chance(state, said) == outcome, (language, said)
    german = {rules.format_chance_in(state, o, "de").split()[0] for o in outcomes}
    assert not german & set(rules.CHANCE), "German chance lines begin with English keywords"


def narration_literals(game: str) -> set[str]:
    """Every text the game's narrate.py writes as a template or a word: the values of its dict
    literals and the first argument of each ``Message(...)``, that have letters."""
    import ast
    import importlib
    from pathlib import Path

    package = importlib.import_module(registry.PACKAGES[game])
    source = Path(str(package.__file__)).with_name("narrate.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    # word lists are module-level tuples (SIDE_WORDS = ("rebels", "emperor")); a tuple in a
    # function is a test of kinds (kind in ("dial",))
    word_lists = [
        n.value
        for n in tree.body
        if isinstance(n, ast.Assign | ast.AnnAssign) and isinstance(n.value, ast.Tuple)
    ]
    found: set[str] = set()
    for node in [*ast.walk(tree), *word_lists]:
        if isinstance(node, ast.Dict):
            candidates = list(node.values)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Message" and node.args:
            candidates = [node.args[0]]
        elif node in word_lists and isinstance(node, ast.Tuple):
            candidates = list(node.elts)
        else:
            continue
        for value in candidates:
            if isinstance(value, ast.Tuple) and value.elts:  # TEXTS: (template, values)
                value = value.elts[0]
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.add(value.value)
    return {text for text in found if any(c.isalpha() for c in text.replace("{text}", ""))}


@pytest.mark.parametrize("game", registry.names())
def test_every_template_written_in_a_games_narration_is_listed(game):
    rules = registry.get(game)
    unlisted = sorted(narration_literals(game) - set(rules.MESSAGES))
    assert not unlisted, f"{game}'s narrate.py writes texts it does not list in MESSAGES: {unlisted}"
