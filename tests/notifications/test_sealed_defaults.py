"""A default played for a sealed decision is as secret as a choice sent by mail: the others
are told that the deadline passed, not what was chosen (a bid, a dial) before the reveal."""

from __future__ import annotations

from types import SimpleNamespace

from django.utils import translation

from games.models import Event
from games.presentation.seatview import _default_news
from games.rules.base import Decision

COLOURS = {0: "red", 1: "blue"}


# how the stand-in game writes its commands in German and French (English: as stored)
NOTATION = {"bid 3 against green": {"de": "biete 3 gegen grün", "fr": "mise 3 contre vert"}}


def _rules(sealed: bool) -> SimpleNamespace:
    return SimpleNamespace(
        pending=lambda state: (Decision(0, "bid", sealed), Decision(1, "bid", sealed)),
        serial=SimpleNamespace(command_from_dict=lambda data: data["text"]),
        format_command_in=lambda state, command, language: NOTATION.get(command, {}).get(language, command),
    )


def _default(text: str) -> Event:
    return Event(kind=Event.Kind.DEFAULT, seat=0, command_text=text, payload={"command": {"text": text}})


def test_others_are_not_told_a_sealed_default():
    with translation.override("en"):
        told = _default_news(_rules(sealed=True), object(), _default("bid 3 against green"), COLOURS, seat=1)
    assert "bid 3" not in told
    assert told == "Red's deadline passed; the default was played for their sealed choice"


def test_the_seat_itself_is_told_its_sealed_default():
    with translation.override("en"):
        told = _default_news(_rules(sealed=True), object(), _default("bid 3 against green"), COLOURS, seat=0)
    assert told.endswith("the default move was played: bid 3 against green")


def test_an_open_default_is_told_to_everyone():
    with translation.override("en"):
        told = _default_news(_rules(sealed=False), object(), _default("place Ningxia"), COLOURS, seat=1)
    assert told.endswith("the default move was played: place Ningxia")


def test_the_sealed_default_is_said_in_german_and_french():
    for language in ("de", "fr"):
        with translation.override(language):
            told = _default_news(_rules(sealed=True), object(), _default("bid 3"), COLOURS, seat=1)
        assert "bid 3" not in told and "sealed choice" not in told


def test_the_seat_is_told_its_default_in_the_notation_it_writes():
    told = {}
    for language in ("en", "de", "fr"):
        with translation.override(language):
            told[language] = _default_news(
                _rules(sealed=True), object(), _default("bid 3 against green"), COLOURS, seat=0
            )
    assert told["en"].endswith(": bid 3 against green")
    assert told["de"].endswith(": biete 3 gegen grün")
    assert "mise 3 contre vert" in told["fr"]
