"""What Die Verbotene Stadt's own mail partials show besides the text board (``mail_facts``):
the seat's dial, cards and partner, the target, an example plan, the sealed answer, the window
under way, and at the end the places, groups and partnerships, in the reader's words.

The service says the words through gettext; here a small ``Say`` speaks English or German
from the project's catalogue, so the facts are checked as a reader gets them. A golden file
keeps the facts of every decision of a golden game; the tests above it name the rules."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from games.rules import registry
from games.rules.base import Asked
from games.rules.verbotenestadt.mailfacts import mail_facts
from games.rules.verbotenestadt.views import view
from tests.engine.verbotenestadt.goldengames import catalogue, replayed, translate
from tests.engine.verbotenestadt.helpers import arrange, hands, started

VS = registry.get("verbotenestadt")
HERE = Path(__file__).parent / "golden"
NAMES = {"north": "Anna", "east": "Bertrand", "south": "Chiara", "west": "Dmitri"}
PLACES = {"en": ("1st", "2nd", "3rd", "4th"), "de": ("1.", "2.", "3.", "4.")}


class Said:
    """``Say`` in one language from the project's catalogue (the service's is gettext too)."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.catalogue = catalogue(language)

    def __call__(self, text: str) -> str:
        return self.catalogue.gettext(text)

    def plural(self, singular: str, plural: str, n: int) -> str:
        return self.catalogue.ngettext(singular, plural, n)

    def text(self, text: str) -> str:
        return self.catalogue.gettext(text)

    def colour(self, colour: str) -> str:
        return self.text(colour)

    def place(self, rank: int) -> str:
        return PLACES[self.language][rank - 1]

    def joined(self, items: Sequence[str]) -> str:
        return (" and " if self.language == "en" else " und ").join(items)


def _asked(state: Any, seat: int, decision: str = "", language: str = "en") -> Asked:
    return Asked(
        VS,
        state,
        view(state, seat),
        seat,
        decision,
        VS.legal(state, seat),
        language,
        NAMES,
        VS.outcome(state),
    )


def test_the_seat_sees_its_own_dial_and_cards_and_the_target_in_its_words():
    state = hands(started(3, dials=["rg", "yy", "bb"]), [("red", "hat"), ("blue", "coat")])
    facts = mail_facts(_asked(state, 0, "move"), Said("en"))
    assert facts["my_dial"] == "rg (red/green)"
    assert facts["my_cards"] == "hat (red), coat (blue)"
    assert facts["target"] == state.target and facts["target_colour"]
    assert facts["my_partner"] == "" and facts["my_score"] == 2  # two singles
    german = mail_facts(_asked(state, 0, "move", "de"), Said("de"))
    assert german["my_dial"] == "rg (Rot/Grün)"  # German writes the colours as nouns
    assert german["my_cards"].endswith("(Blau)")


def test_a_move_mail_gives_a_plan_of_two_officials_and_a_single_move_from_the_menu():
    state = started(3)
    facts = mail_facts(_asked(state, state.active, "move"), Said("en"))
    plan, move = facts["plan_example"], facts["move_example"]
    assert plan.startswith("plan ") and plan.endswith("; stop") and plan.count(";") == 2
    first, second = (part.split()[0 if i else 1] for i, part in enumerate(plan.split("; ")[:2]))
    assert first != second  # two different officials
    assert VS.parse_command(state, move) in VS.legal(state, state.active)
    assert VS.parse_command(state, plan).moves[0] == VS.parse_command(state, move)


def test_a_seat_with_no_move_gets_no_example():
    state = arrange(started(3), {})  # every official off the board
    facts = mail_facts(_asked(state, state.active, "move"), Said("en"))
    assert facts["plan_example"] == facts["move_example"] == ""


def test_only_the_dial_window_is_said_to_be_one():
    state = started(3)
    assert mail_facts(_asked(state, 0, "dial"), Said("en"))["dial_window"] is True
    assert mail_facts(_asked(state, 0, "move"), Said("en"))["dial_window"] is False
    assert "window" not in mail_facts(_asked(state, 0, "move"), Said("en"))


def test_a_dial_whose_official_left_the_board_is_drawn_by_lot_in_a_rebribe_window():
    state = started(3, dials=["rg", "yy", "bb"])
    on = mail_facts(_asked(state, 0, "rebribe"), Said("en"))
    assert on["window"] == "rebribe" and on["dial_by_lot"] is False
    gone = arrange(state, {code: sq for code, sq in _squares(state).items() if code != "rg"})
    assert mail_facts(_asked(gone, 0, "rebribe"), Said("en"))["dial_by_lot"] is True


def _squares(state: Any) -> dict[str, tuple[int, int]]:
    return {o["code"]: tuple(o["square"]) for o in view(state, None)["officials"] if o.get("square")}


def test_a_sealed_answer_is_said_as_the_seat_gave_it():
    state = started(3, dials=["rg", "yy", "bb"])
    facts = mail_facts(_asked(state, 0, "dial"), Said("en"))
    assert "my_answer" not in facts or facts["my_answer"]
    view_with = {**view(state, 0), "sealed": {"choice": "doubt"}}
    asked = Asked(VS, state, view_with, 0, "challenge", (), "de", NAMES, None)
    assert mail_facts(asked, Said("de"))["my_answer"] == translate("de")("doubt")
    asked = Asked(VS, state, {**view_with, "sealed": {"choice": "kk"}}, 0, "dial", (), "en", NAMES, None)
    assert mail_facts(asked, Said("en"))["my_answer"] == "kk (black/black)"


def test_an_official_code_that_is_no_official_is_shown_as_written():
    state = started(3)
    asked = Asked(VS, state, {**view(state, 0), "dial": {"code": "zz"}}, 0, "", (), "en", NAMES, None)
    assert mail_facts(asked, Said("en"))["my_dial"] == "zz"


def test_the_challenge_names_the_mover_with_the_players_name_and_what_entered_where():
    state = started(3)
    entry = {"seat": 1, "code": "yb", "pavilion": 4}
    asked = Asked(VS, state, {**view(state, 0), "entry": entry}, 0, "challenge", (), "en", NAMES, None)
    facts = mail_facts(asked, Said("en"))
    assert (facts["mover"], facts["entered"], facts["pavilion"]) == ("East (Bertrand)", "yb (yellow/blue)", 4)
    nameless = Asked(VS, state, {**view(state, 0), "entry": entry}, 0, "challenge", (), "en", {}, None)
    assert mail_facts(nameless, Said("en"))["mover"] == "East"


def _final(name: str) -> Any:
    return replayed(name)[0][-1]


def test_the_results_give_each_place_the_cards_and_only_the_groups_scored():
    final = _final("3p-bots")
    outcome = VS.outcome(final)
    facts = mail_facts(_asked(final, 0, "", "en"), Said("en"))
    rows = facts["results"]
    assert [r["total"] for r in rows] == sorted(outcome.scores, reverse=True)
    for row in rows:
        assert row["groups"].startswith(f"{row['cards']} card") or row["groups"] == "no cards"
        for group in ("singles", "pairs", "triples", "suits"):
            assert (group[:-1] in row["groups"]) == bool(row[group]), row
    assert facts["won"] == (outcome.rank[0] == 1) and facts["partnered"] is False
    assert facts["partnerships"] == []


def test_partners_results_name_each_partnership_once_with_its_place():
    final = _final("4p-partners")
    facts = mail_facts(_asked(final, 0, "", "en"), Said("en"))
    assert facts["partnered"] is True and len(facts["partnerships"]) == 2
    seats = [p["seats"] for p in facts["partnerships"]]
    assert all(" and " in s for s in seats) and len(set(seats)) == 2
    assert sum(p["won"] for p in facts["partnerships"]) >= 1
    assert all(r["own"] <= r["total"] for r in facts["results"])


def test_tied_places_are_said_to_be_tied():
    final = _final("4p-partners")
    facts = mail_facts(_asked(final, 0, "", "en"), Said("en"))
    places = [r["place"] for r in facts["results"]]
    assert sum(p.endswith("(tied)") for p in places) >= 2  # partners share a place


def _golden_facts(language: str) -> str:
    """The facts of every decision of the 3-player golden game, then of each seat's last mail
    of the partners' game."""
    states, _ = replayed("3p-bots")
    out = []
    for step, state in enumerate(states):
        for decision in VS.pending(state) or [None]:
            seat = decision.seat if decision else 0
            facts = mail_facts(
                _asked(state, seat, decision.kind if decision else "", language), Said(language)
            )
            out.append(json.dumps({"step": step, "seat": seat, **facts}, ensure_ascii=False, sort_keys=True))
    partners = _final("4p-partners")  # and each seat's mail at the end of a partners' game
    for seat in range(partners.players):
        facts = mail_facts(_asked(partners, seat, "", language), Said(language))
        out.append(json.dumps({"partners": True, "seat": seat, **facts}, ensure_ascii=False, sort_keys=True))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_facts_of_a_golden_games_decisions_are_as_recorded(language):
    """Regenerate with ``python -m tests.engine.verbotenestadt.test_mailfacts`` and read the diff."""
    assert _golden_facts(language) == (HERE / f"3p-bots.mailfacts.{language}.jsonl").read_text(
        encoding="utf-8"
    )


if __name__ == "__main__":
    for language in ("en", "de"):
        (HERE / f"3p-bots.mailfacts.{language}.jsonl").write_text(_golden_facts(language), encoding="utf-8")
