"""``manage.py service_words``: the words the service's catalogue already says in German and
French, which a game's author may use without an entry of their own (docs/ADDING-A-GAME.md)."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

from django.core.management import call_command
from django.utils import translation

from notifications.services.servicewords import LANGUAGES, service_words


def listed(*args: str) -> list[list[str]]:
    out = StringIO()
    call_command("service_words", *args, stdout=out)
    return [line.split("\t") for line in out.getvalue().splitlines()]


def test_a_word_is_listed_with_its_german_and_french():
    lines = listed("red", "The game is over.")
    assert ["red", "Rot", "rouge"] in lines
    assert ["The game is over.", "Die Partie ist zu Ende.", "La partie est terminée."] in lines
    assert all(len(line) == 3 for line in lines)


def test_a_word_is_found_whole_not_inside_another():
    msgids = [line[0] for line in listed("red")]
    assert msgids and all("ignored" not in m and "registered" not in m for m in msgids)


def test_of_a_games_template_only_the_msgids_the_service_already_says(tmp_path: Path):
    pot = tmp_path / "django.pot"
    pot.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "The game is over."\nmsgstr ""\n\n'
        '#, python-brace-format\nmsgid "{seat} takes a card: {card}."\nmsgstr ""\n\n'
        'msgid "red"\nmsgstr ""\n',
        encoding="utf-8",
    )
    assert sorted(line[0] for line in listed("--of", str(pot))) == ["The game is over.", "red"]


def test_every_word_listed_is_what_a_games_translate_gets():
    """Each listed msgid is what ``gettext`` says for it in each language, with the games'
    catalogues read too: the listing names no entry a game cannot reach as it is."""
    found = service_words()
    assert len(found) > 500
    for language in LANGUAGES:
        with translation.override(language):
            wrong = [m for m, said in found if translation.gettext(m) != said[language]]
        assert not wrong, f"{language}: {wrong[:5]}"
