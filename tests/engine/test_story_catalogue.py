"""Every sentence and word a game lists as what it says (``MESSAGES``: its narration's
templates, the parts and words put into them, its page words) has a German and a French entry
in the catalogues the pages and mails read (the service's, notifications/locale, and each
game's own), with the same placeholders: a template without one would be shown in English to a
German or French reader.

Each check holds a game to what docs/ADDING-A-GAME.md asks of it.  A game that gives
``MESSAGES`` is held to its list two ways: what random games ask to translate, and the texts its
narration's module writes, are all listed.  A game that gives ``PAGE_WORDS`` has a word for every
code of each kind it names.  A game that draws by chance says each outcome in every language so
that it reads back.  (A game that leaves ``MESSAGES`` to its default, its title, brings its
words in its own catalogue: tests/contract/test_every_game.py holds that to all it says.)"""

from __future__ import annotations

from collections.abc import Iterator
from string import Formatter
from typing import Any

import pytest

from games.rules import base, registry
from games.rules.base import Message, Rules
from tests.catalogues import LANGUAGES, catalogue_paths, read_po, translations


def catalogue(language: str) -> dict[str, str]:
    """msgid -> translation, as Django merges the catalogues of ``LOCALE_PATHS``: the
    service's first, then each registered game's own (an earlier one wins)."""
    found: dict[str, str] = {}
    for path in catalogue_paths(language):
        for e in read_po(path):
            if "fuzzy" not in e["flags"] and e.get("msgctxt") is None:  # type: ignore[operator]
                found.setdefault(str(e["msgid"]), translations(e)[0])
    return found


def gives(game: str, name: str) -> bool:
    """Does the game's package give ``about.name`` itself (not the contract's default)?"""
    made = type(registry.get(game).about)
    return any(name in vars(c) for c in made.__mro__ if issubclass(c, base.About) and c is not base.About)


LISTING = tuple(g for g in registry.names() if gives(g, "MESSAGES"))
WORDING = tuple(g for g in registry.names() if gives(g, "PAGE_WORDS"))
DRAWING = tuple(g for g in registry.names() if registry.get(g).draws_chance)


def names(text: str) -> set[str]:
    return {n for _, n, _, _ in Formatter().parse(text) if n}


def random_games(rules: Rules, games: int = 3, steps: int = 800) -> Iterator[tuple[Any, Any]]:
    """(state, log entry) of a few games played by the game's own bots, private entries too."""
    board = rules.serial.load_board(rules.about.default_board)
    for i in range(games):
        players = rules.player_counts[i % len(rules.player_counts)]
        edition = rules.about.editions[i % len(rules.about.editions)]
        config = rules.serial.make_config(board, players, edition, {}, None)
        state = rules.setup(config, f"story-{i}")
        bots = [rules.about.Bot(f"story-{i}-{seat}") for seat in range(players)]
        for _ in range(steps):
            pending = rules.pending(state)
            if not pending:
                break
            seat = pending[0].seat
            state, log = rules.apply(state, seat, bots[seat].choose(state, seat))
            for entry in log:
                yield state, entry


def said(rules: Rules) -> set[str]:
    asked: set[str] = set()
    for state, entry in random_games(rules):
        message: Message = rules.narration(state, entry)
        asked.update(message.templates())
        message.render(lambda text: asked.add(text) or text)  # type: ignore[func-returns-value]
    return asked


@pytest.fixture(scope="module", params=LANGUAGES)
def entries(request: pytest.FixtureRequest) -> tuple[str, dict[str, str]]:
    return request.param, catalogue(request.param)


@pytest.mark.parametrize("game", LISTING)
def test_everything_a_game_says_has_a_german_and_a_french_entry(game, entries):
    language, found = entries
    rules = registry.get(game)
    missing = sorted(m for m in rules.about.MESSAGES if not found.get(m))
    assert not missing, f"{game}: {len(missing)} phrases have no {language} entry: {missing}"
    wrong = sorted(m for m in rules.about.MESSAGES if names(found[m]) != names(m))
    assert not wrong, f"{game}: {language} entries with other placeholders: {wrong}"


@pytest.mark.parametrize("game", LISTING)
def test_random_games_ask_only_for_what_the_game_lists(game):
    rules = registry.get(game)
    unlisted = sorted(said(rules) - set(rules.about.MESSAGES))
    assert not unlisted, f"{game} narrates templates it does not list in MESSAGES: {unlisted}"


@pytest.mark.parametrize("game", WORDING)
def test_every_code_of_a_kind_a_game_words_for_pages_has_its_word(game):
    """A kind of code the game names in ``PAGE_WORDS`` is worded whole: a code left out would
    be the one shown as it is among words (a kind the game does not name is all codes)."""
    rules = registry.get(game)
    words = rules.about.PAGE_WORDS
    codes = {
        "option": set(rules.about.OPTIONS),
        "edition": set(rules.about.editions),
        "board": {rules.about.default_board},
        "value": {v for v in rules.about.OPTIONS.values() if isinstance(v, str)},
    }
    assert set(words) & set(codes), f"{game} gives PAGE_WORDS for none of {sorted(codes)}"
    for kind in set(words) & set(codes):
        assert codes[kind] <= set(words[kind]), f"{game}: a {kind} without words"


@pytest.mark.parametrize("game", DRAWING)
def test_chance_said_in_each_language_reads_back_as_the_same_outcome(game):
    rules = registry.get(game)
    played = [state for state, _entry in random_games(rules, games=1)]
    assert played
    state = played[-1]
    outcomes = list(rules.chance.drawn(state))
    assert outcomes
    for language in rules.notation.words.LANGUAGES:
        for outcome in outcomes:
            said = rules.chance.format_in(state, outcome, language)
            assert rules.chance.parse(state, said) == outcome, (language, said)
    german = {rules.chance.format_in(state, o, "de").split()[0] for o in outcomes}
    assert not german & set(rules.chance.SYNTAX), "German chance lines begin with English keywords"


def narration_literals(game: str) -> set[str]:
    """Every text the module of the game's ``narration`` writes as a template or a word: the
    values of its dict literals and the first argument of each ``Message(...)``, that have
    letters."""
    import ast
    import inspect
    from pathlib import Path

    narration = registry.get(game).module.narration
    source = Path(str(inspect.getsourcefile(narration))).read_text(encoding="utf-8")
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


@pytest.mark.parametrize("game", LISTING)
def test_every_template_written_in_a_games_narration_is_listed(game):
    rules = registry.get(game)
    unlisted = sorted(narration_literals(game) - set(rules.about.MESSAGES))
    assert not unlisted, f"{game}'s narration writes texts it does not list in MESSAGES: {unlisted}"
