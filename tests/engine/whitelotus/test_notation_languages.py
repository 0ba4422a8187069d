"""German and French words in the notation (words.py, notation.py; games/rules/whitelotus/COMMANDS.md
"German and French").

Every keyword and argument word of words.py, in a state where the command is legal, parses to
the same command as the English line; accents are optional and case does not matter;
format_command_in writes lines that parse back; no spelling means two things.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from pathlib import Path

import pytest

from games.rules.base import IllegalCommand
from games.rules.whitelotus import apply, legal, parse_command, pending, setup
from games.rules.whitelotus.commands import (
    COMMAND_TYPES,
    Bid,
    Command,
    Decline,
    Give,
    Lead,
    Out,
    PalaceChoice,
    Pass,
    Place,
    Side,
)
from games.rules.whitelotus.constants import COLOURS
from games.rules.whitelotus.notation import format_command, format_command_in
from games.rules.whitelotus.state import State
from games.rules.whitelotus.words import COLOURS as COLOUR_WORDS
from games.rules.whitelotus.words import (
    ENGLISH_KEYWORDS,
    KEYWORDS,
    LANGUAGES,
    POINTS,
    SIDES,
    TABLES,
    argument_hint,
    closest_keyword,
    key,
    keyword_hint,
)
from tests.engine.whitelotus.helpers import area, blank, config, holds, new_game
from tests.engine.whitelotus.randomgames import play_random

OTHER = ("de", "fr")
Example = tuple[State, int, Command]


def _shape(command: Command) -> tuple[str, ...]:
    """A command's kind, and for side, palace and give the argument word it is written with."""
    if isinstance(command, Side):
        return ("side", "rebels" if command.rebels else "emperor")
    if isinstance(command, PalaceChoice):
        return ("palace", "army" if command.army else "influence")
    if isinstance(command, Give):
        return ("give", "army" if command.army else "influence")
    return (command.kind,)


def _examples() -> dict[tuple[str, ...], Example]:
    """For every shape of command, a state of a random game and a seat for which it is legal."""
    found: dict[tuple[str, ...], Example] = {}
    start = setup(config(4, "kosmos", negotiation=True), "gifts")
    for army in (False, True):
        gift = Give(1, 1, army=army)
        apply(start, 0, gift)  # legal: start hands hold influence and army
        found[_shape(gift)] = (start, 0, gift)
    for n in range(20):
        for edition in ("kosmos", "designer"):
            for state, _, _, _, _ in play_random(config(4, edition), f"words-{n}", f"key-{n}"):
                for decision in pending(state):
                    for command in legal(state, decision.seat):
                        found.setdefault(_shape(command), (state, decision.seat, command))
        if len(found) == len(COMMAND_TYPES) + 3:  # side, palace and give have two shapes each
            return found
    raise AssertionError(f"no random game showed {set(COMMAND_TYPES) - {s[0] for s in found}}")


EXAMPLES = _examples()


def _keyword(kind: str) -> str:
    """The keyword a command is written with: its kind, but a temple's extra draw is ``tile``."""
    return "tile" if kind == "draw" else kind


def _strip_accents(text: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


def _with_keyword(line: str, word: str) -> str:
    return " ".join([word, *line.split()[1:]])


def test_the_examples_cover_every_command_type():
    """words.py: every command type has German and French keywords; the examples show them all."""
    assert {shape[0] for shape in EXAMPLES} == set(COMMAND_TYPES)
    for language in LANGUAGES:  # a temple's extra draw is written with the tile keyword
        assert set(KEYWORDS[language]) == set(COMMAND_TYPES) - {"draw"}


@pytest.mark.parametrize("language", OTHER)
@pytest.mark.parametrize("shape", sorted(EXAMPLES), ids="-".join)
def test_every_keyword_parses_to_the_english_command(shape, language):
    """notation.py: each German/French spelling of a keyword = the English keyword, in a state
    where the command is legal, with English or translated arguments."""
    state, seat, command = EXAMPLES[shape]
    english = format_command(state, command)
    assert parse_command(state, english, seat) == command
    translated = format_command_in(state, command, language)
    for word in KEYWORDS[language][_keyword(command.kind)]:
        assert parse_command(state, _with_keyword(english, word), seat) == command
        assert parse_command(state, _with_keyword(translated, word), seat) == command


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_colour_word_names_the_colour(language):
    """words.py COLOURS: every spelling of a colour names it, in a game with all six colours."""
    s = new_game(6)
    for colour, spellings in COLOUR_WORDS[language].items():
        target = s.seat_of(colour)
        assert target is not None
        for word in spellings:
            assert parse_command(s, f"out {word}") == Out(target)
            assert parse_command(s, f"bid {word} 3") == Bid(target, 3)
            assert parse_command(s, f"give {word} 2 army") == Give(target, 2, army=True)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_side_and_points_word(language):
    """words.py SIDES, POINTS: side, palace and gift words in every spelling."""
    s = blank(3, edition="designer")
    s = holds(s, "red", Ningxia="palace", Dadu="palace")
    for word in SIDES[language]["rebels"]:
        assert parse_command(s, f"side {word}") == Side(rebels=True)
    for word in SIDES[language]["emperor"]:
        assert parse_command(s, f"side {word}") == Side(rebels=False)
    for word in POINTS[language]["influence"]:
        assert parse_command(s, f"palace {word}", 0) == PalaceChoice(0)
        assert parse_command(s, f"palace 1 {word}", 0) == PalaceChoice(1)
        assert parse_command(s, f"give blue 2 {word}") == Give(1, 2, army=False)
    for word in POINTS[language]["army"]:
        assert parse_command(s, f"palace {word}", 0) == PalaceChoice(2)
        assert parse_command(s, f"palace 1 {word}", 0) == PalaceChoice(1)
        assert parse_command(s, f"give blue 2 {word}") == Give(1, 2, army=True)


@pytest.mark.parametrize("language", OTHER)
@pytest.mark.parametrize("shape", sorted(EXAMPLES), ids="-".join)
def test_accents_are_optional_and_case_does_not_matter(shape, language):
    """words.py key(): `armée` = `armee` = `ARMÉE`; every spelling, without accents, in any case."""
    state, seat, command = EXAMPLES[shape]
    line = format_command_in(state, command, language)
    for word in KEYWORDS[language][_keyword(command.kind)]:
        written = _with_keyword(line, word)
        for variant in (
            _strip_accents(written),
            written.upper(),
            _strip_accents(written).upper(),
            written.title(),
        ):
            assert parse_command(state, variant, seat) == command, variant


def test_umlauts_may_be_written_out_and_sharp_s_is_ss():
    """words.py: `führe` = `fuehre` = `fuhre`, `plättchen` = `plaettchen`, `grün` = `gruen`,
    `einfluß` = `einfluss`."""
    s = blank(3, edition="designer")
    s = holds(s, "red", Ningxia="palace")
    for word in ("führe", "fuehre", "fuhre", "FÜHRE", "FUEHREN"):
        assert parse_command(s, word) == Lead()
    for word in ("plättchen", "plaettchen", "plattchen", "Plättchen"):
        assert parse_command(s, f"{word} Shazhou").kind == "tile"
    assert parse_command(s, "gib grün 1 einfluß") == parse_command(s, "gib gruen 1 einfluss")
    assert parse_command(s, "gib grün 1 einfluß") == Give(2, 1, army=False)


def test_languages_may_be_mixed():
    """notation.py: a keyword of one language with arguments of another."""
    s = new_game(3)
    assert parse_command(s, "setze Ningxia") == parse_command(s, "pose 4") == Place(area("Ningxia"))
    assert parse_command(s, "biete rouge 3") == parse_command(s, "mise rot 3") == Bid(0, 3)
    assert parse_command(s, "camp Kaiser") == Side(rebels=False)
    assert parse_command(s, "donne blau 2 armee") == Give(1, 2, army=True)
    assert parse_command(s, "passe") == parse_command(s, "passen") == parse_command(s, "passer") == Pass()
    assert parse_command(s, "nein") == parse_command(s, "non") == Decline()


def test_lines_in_german_and_french():
    """notation.py format_command_in: the first spelling of each word (see the game's COMMANDS.md)."""
    s = new_game(3)
    lines = {
        Place(area("Ningxia")): ("setze Ningxia", "pose Ningxia"),
        Bid(2, 7): ("biete grün 7", "mise vert 7"),
        Side(rebels=True): ("seite rebellen", "camp rebelles"),
        Side(rebels=False): ("seite kaiser", "camp empereur"),
        PalaceChoice(0): ("palast einfluss", "palais influence"),
        PalaceChoice(2): ("palast 2 armee", "palais 2 armée"),
        Give(1, 3, army=False): ("gib blau 3 einfluss", "donne bleu 3 influence"),
        Out(1): ("raus blau", "dehors bleu"),
        Lead(): ("führe", "mène"),
        Decline(): ("ablehnen", "refuse"),
    }
    for command, (de, fr) in lines.items():
        assert format_command_in(s, command, "de") == de
        assert format_command_in(s, command, "fr") == fr
        assert format_command_in(s, command, "en") == format_command(s, command)


@pytest.mark.parametrize(
    ("players", "edition", "negotiation"), [(3, "kosmos", False), (5, "designer", True), (6, "kosmos", True)]
)
def test_format_command_in_round_trips_every_legal_command_of_random_games(players, edition, negotiation):
    """notation.py: parse_command(state, format_command_in(state, c, lang), seat) == c, for
    every legal command of every seat at every step, in German and French."""
    cfg = config(players, edition, negotiation=negotiation)
    checked = 0
    for game in range(3):
        for state, who, move, _, _ in play_random(cfg, f"lang-{game}", f"lang-key-{game}"):
            commands = [(s, c) for s in range(state.players) for c in legal(state, s)]
            commands.append((who, move))  # a gift is not in the menu
            for seat, command in commands:
                assert format_command_in(state, command, "en") == format_command(state, command)
                for language in OTHER:
                    line = format_command_in(state, command, language)
                    assert parse_command(state, line, seat) == command, line
                    checked += 1
    assert checked > 1000


def test_no_spelling_means_two_words() -> None:
    """words.py: one folded spelling, one canonical word, across all three languages."""
    for name, table in TABLES.items():
        meanings: dict[str, set[str]] = defaultdict(set)
        for language in LANGUAGES:
            assert set(table[language]) == set(table["en"]), (name, language)
            for canonical, spellings in table[language].items():
                assert spellings, (name, language, canonical)
                for word in spellings:
                    meanings[key(word)].add(canonical)
        clashes = {word: means for word, means in meanings.items() if len(means) > 1}
        assert not clashes, name
    assert set(COLOUR_WORDS["en"]) == set(COLOURS)
    assert KEYWORDS["en"] == {kind: (kind,) for kind in ENGLISH_KEYWORDS}
    assert set(ENGLISH_KEYWORDS) == set(COMMAND_TYPES) - {"draw"}  # draw is written "tile"


def test_shared_spellings_mean_the_same_in_both_languages():
    """words.py: `passe` is pass in German and French; `armee`/`armée` is army in both."""
    assert "passe" in KEYWORDS["de"]["pass"] and "passe" in KEYWORDS["fr"]["pass"]
    assert key(KEYWORDS["de"]["army"][0]) == key(KEYWORDS["fr"]["army"][0]) == "armee"


def test_unknown_keyword_suggests_the_closest_in_any_language():
    """notation.py: the closest spelling of any language is suggested; the English keywords listed."""
    s = new_game(3)
    for typed, guess in (("setz", "setze"), ("résou", "résous"), ("donnez", "donne"), ("plase", "place")):
        assert closest_keyword(typed) == guess
        with pytest.raises(IllegalCommand, match=f"Did you mean '{guess}'\\?") as caught:
            parse_command(s, f"{typed} Ningxia")
        assert str(caught.value).endswith(f"Commands: {', '.join(ENGLISH_KEYWORDS)}.")
    assert closest_keyword("xyzzy") is None


def test_wrong_arguments_in_german_or_french_are_explained():
    """notation.py: the English syntax follows a German or French line that does not parse."""
    s = new_game(3)
    with pytest.raises(IllegalCommand, match="'lila' is not a colour in this game"):
        parse_command(s, "biete lila 3")
    with pytest.raises(IllegalCommand, match="'gauche' is not a side"):
        parse_command(s, "camp gauche")
    with pytest.raises(IllegalCommand, match="'gold' is neither influence nor army"):
        parse_command(s, "gib blau 1 gold")
    with pytest.raises(IllegalCommand, match="Write: place <province>"):
        parse_command(s, "setze")


def test_keyword_hint_lists_every_spelling_with_its_english_meaning():
    """words.py keyword_hint(): one line per keyword, for mails."""
    for language in OTHER:
        hint = keyword_hint(language).splitlines()
        assert len(hint) == len(ENGLISH_KEYWORDS)
        for line, kind in zip(hint, ENGLISH_KEYWORDS, strict=True):
            assert line == f"{', '.join(KEYWORDS[language][kind])} = {kind}"
        arguments = argument_hint(language)
        for table in (COLOUR_WORDS, SIDES, POINTS):
            for spellings in table[language].values():
                assert "/".join(spellings) in arguments
    assert keyword_hint("de").splitlines()[0] == "setze, setzen = place"
    assert keyword_hint("en") == ", ".join(ENGLISH_KEYWORDS)
    with pytest.raises(ValueError, match="unknown language"):
        keyword_hint("it")
    with pytest.raises(ValueError, match="unknown language"):
        format_command_in(new_game(3), Pass(), "it")


def _documented_rows() -> list[list[set[str]]]:
    """The rows of the tables in White Lotus's COMMANDS.md, "German and French": per column, the words."""
    text = (Path(__file__).parents[3] / "games/rules/whitelotus/COMMANDS.md").read_text()
    section = text.split("## German and French", 1)[1].split("\n## ", 1)[0]  # up to the next part, if any
    rows = []
    for line in section.splitlines():
        if line.startswith("| `"):
            cells = line.strip("|").split("|")
            rows.append([set(re.findall(r"`([^`]+)`", cell)) for cell in cells])
    return rows


def test_commands_md_lists_the_words_of_words_py():
    """White Lotus's COMMANDS.md: the tables of German and French words are those of words.py, in order."""
    expected = []
    for table in (KEYWORDS, COLOUR_WORDS, SIDES, POINTS):
        for canonical in table["en"]:
            expected.append([set(table[language][canonical]) for language in LANGUAGES])
    assert _documented_rows() == expected


@pytest.mark.parametrize(("players", "edition"), [(4, "kosmos"), (5, "designer")])
def test_menus_in_german_and_french_offer_every_legal_command_in_their_own_words(players, edition):
    """menu.py: the menu of a German or French mail names each legal command by the word the
    player writes, and every alternative it spells out in full parses."""
    from games.rules.whitelotus.menu import describe

    cfg = config(players, edition, negotiation=True)
    checked = 0
    for state, who, _, _, _ in play_random(cfg, "menu-lang", "menu-key"):
        for language in OTHER:
            menu = describe(state, who, language)
            text = "\n".join(menu)
            for command in legal(state, who):
                assert format_command_in(state, command, language).split()[0] in text
            for line in menu:
                for alternative in line.split("  ")[0].split(" | "):
                    if "<" not in alternative and "(" not in alternative:
                        parse_command(state, alternative, who)
                        checked += 1
        assert describe(state, who) == describe(state, who, "en")
    assert checked > 50


def test_a_german_menu_reads_german():
    from games.rules.whitelotus.menu import describe

    state = setup(config(3, "kosmos"), "menu")
    assert describe(state, 0, "de")[0].startswith("setze <Provinz>  wobei <Provinz> eines ist von: ")
    assert describe(state, 0, "fr")[0].startswith("pose <province>  où <province> est l'une de : ")
