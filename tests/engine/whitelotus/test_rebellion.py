"""Phase 4: the rebellion, the battle and the spoils (001 "4. Rebellion" l.267-410 and the
"Nachtrag" l.492-495, 004 2.4 l.193-233, 002 "4. REBELLION" l.135-175)."""

from __future__ import annotations

import pytest

from games.rules.base import Decision, IllegalCommand
from games.rules.whitelotus import apply
from games.rules.whitelotus.commands import Army, Take
from games.rules.whitelotus.constants import Building
from games.rules.whitelotus.decisions import legal, pending
from games.rules.whitelotus.state import PalaceChoices, Rebellion, RebellionOffer, Spoils
from tests.engine.whitelotus.helpers import area, begin, blank, entries, hands, holds, kinds, play, seat

RED, BLUE, GREEN, YELLOW, PURPLE, ORANGE = range(6)


def _run(state, *moves):
    """Play ``(colour, command)`` pairs in order; return the state and the joined log."""
    log = []
    for colour, text in moves:
        state, more = play(state, colour, text)
        log += more
    return state, log


def _asked(state):
    return [(d.seat, d.kind) for d in pending(state)]


def _takes(state, colour):
    """The areas (by name) the spoils menu of ``colour`` offers."""
    return sorted(state.board.label(c.area) for c in legal(state, seat(state, colour)) if isinstance(c, Take))


def _battle(log):
    (battle,) = entries(log, "battle")
    return battle


# --- kosmos: who leads ----------------------------------------------------------------------


def test_kosmos_rebellion_is_offered_first_to_the_player_with_most_villages():
    """001 l.272-276: the player with most villages is asked first, then the next most."""
    s = holds(blank(players=4), "red", Hangzhou="palace")
    s = holds(s, "blue", Fuzhou="village")
    s = holds(s, "green", Quanzhou="village", Guangzhou="village")
    s = holds(s, "yellow", Dadu="fort")
    s, log = begin(s, "rebellion")
    assert isinstance(s.phase, RebellionOffer)
    assert pending(s) == (Decision(GREEN, "lead"),)
    assert "rebellion" not in kinds(log)
    s, log = play(s, "green", "decline")
    assert entries(log, "declined") == [{"seat": GREEN}]
    assert pending(s) == (Decision(BLUE, "lead"),)


def test_kosmos_player_without_a_village_is_never_asked():
    """001 l.269-271: a rebel leader must hold at least one village."""
    s = holds(blank(players=4), "red", Hangzhou="palace")
    s = holds(s, "blue", Fuzhou="village")
    s = holds(s, "yellow", Dadu="fort", Jinan="palace")
    s, _ = begin(s, "rebellion")
    assert s.phase.queue == (BLUE,)
    s, log = play(s, "blue", "decline")
    assert entries(log, "no_rebellion") == [{"reason": "declined"}]
    assert "lead" not in [d.kind for d in pending(s)]


def test_kosmos_village_tie_goes_to_the_first_player_after_the_emperor():
    """004 l.197: on equal villages the first player after the emperor in turn order decides."""
    s = holds(blank(players=5, emperor="green"), "green", Hangzhou="palace")
    s = holds(s, "red", Fuzhou="village")
    s = holds(s, "blue", Quanzhou="village")
    s = holds(s, "yellow", Dadu="village")
    s = holds(s, "purple", Jinan="fort")
    s, _ = begin(s, "rebellion")
    assert s.phase.queue == (YELLOW, RED, BLUE)
    assert pending(s) == (Decision(YELLOW, "lead"),)


def test_kosmos_emperor_is_never_asked_to_lead():
    """001 l.268-269 / 004 l.195: the emperor asks; he cannot rise against himself."""
    s = holds(
        blank(players=3), "red", Hangzhou="palace", Fuzhou="village", Quanzhou="village", Pingjiang="village"
    )
    s = holds(s, "blue", Dadu="village")
    s, _ = begin(s, "rebellion")
    assert s.phase.queue == (BLUE,)
    with pytest.raises(IllegalCommand, match="Nothing is yours to decide now: waiting for Blue"):
        play(s, "red", "lead")
    s, log = play(s, "blue", "decline")
    assert kinds(log)[:2] == ["declined", "no_rebellion"]
    assert s.rebel == -1


def test_kosmos_all_decline_means_no_rebellion():
    """001 l.275-276: "Will niemand rebellieren, findet keine Rebellion statt"."""
    s = holds(blank(players=3), "red", Hangzhou="palace")
    s = holds(s, "blue", Fuzhou="village")
    s = holds(s, "green", Quanzhou="village")
    s, _ = begin(s, "rebellion")
    s, log = _run(s, ("blue", "decline"), ("green", "decline"))
    assert entries(log, "declined") == [{"seat": BLUE}, {"seat": GREEN}]
    assert entries(log, "no_rebellion") == [{"reason": "declined"}]
    assert "battle" not in kinds(log)
    assert isinstance(s.phase, PalaceChoices)  # phase 5 begins
    assert s.army == (3, 3, 3)


def test_kosmos_no_village_anywhere_means_no_rebellion():
    """001 l.269-271: nobody holds a village, so nobody can lead."""
    s = holds(blank(players=3), "red", Hangzhou="palace")
    s = holds(s, "blue", Fuzhou="fort")
    s, log = begin(s, "rebellion")
    assert entries(log, "no_rebellion") == [{"reason": "no_villages"}]
    assert isinstance(s.phase, PalaceChoices)


def test_kosmos_lead_makes_the_asked_player_rebel_leader():
    """001 l.278-280: who starts the rebellion takes the rebel marker and is the leader."""
    s = holds(blank(players=3), "red", Hangzhou="palace")
    s = holds(s, "blue", Fuzhou="village")
    s = holds(s, "green", Quanzhou="village", Guangzhou="village")
    s, _ = begin(s, "rebellion")
    s, log = _run(s, ("green", "decline"), ("blue", "lead"))
    assert entries(log, "rebellion") == [{"leader": BLUE, "emperor": RED}]
    assert s.rebel == BLUE
    assert isinstance(s.phase, Rebellion)
    assert (s.phase.leader, s.phase.stage) == (BLUE, "sides")


def test_kosmos_only_the_player_asked_may_answer():
    """001 l.272-276: players are asked one at a time, most villages first."""
    s = holds(blank(players=3), "red", Hangzhou="palace")
    s = holds(s, "blue", Fuzhou="village")
    s = holds(s, "green", Quanzhou="village", Guangzhou="village")
    s, _ = begin(s, "rebellion")
    with pytest.raises(IllegalCommand, match="Nothing is yours to decide now: waiting for Green"):
        play(s, "blue", "lead")
    with pytest.raises(IllegalCommand, match="'side' is not a move now"):
        play(s, "green", "side rebels")


# --- designer: who leads --------------------------------------------------------------------


def test_designer_rebellion_is_mandatory():
    """002 l.136: "There must be a rebellion"; nobody is asked."""
    s = holds(blank(players=3, edition="designer"), "red", Hangzhou="palace")
    s = holds(s, "blue", Fuzhou="village")
    s, log = begin(s, "rebellion")
    assert entries(log, "rebellion") == [{"leader": BLUE, "emperor": RED}]
    assert isinstance(s.phase, Rebellion)
    assert s.phase.stage == "both"
    with pytest.raises(IllegalCommand, match="'decline' is not a move now"):
        play(s, "blue", "decline")


def test_designer_leader_tie_goes_to_the_closest_left_of_the_emperor():
    """002 l.136-138: tied villages: the tied player closest to the left of the emperor."""
    s = holds(blank(players=5, edition="designer", emperor="green"), "green", Hangzhou="palace")
    s = holds(s, "red", Fuzhou="village")
    s = holds(s, "blue", Quanzhou="village")
    s = holds(s, "yellow", Dadu="village")
    s, _ = begin(s, "rebellion")
    assert s.rebel == YELLOW


def test_designer_leader_may_hold_no_village():
    """002 l.136: the rebellion is mandatory, so a leader is named even with no village at all."""
    s = holds(blank(players=4, edition="designer", emperor="blue"), "blue", Hangzhou="palace")
    s = holds(s, "red", Fuzhou="fort")
    s, _ = begin(s, "rebellion")
    assert s.rebel == GREEN


def test_designer_emperor_cannot_be_the_leader():
    """002 l.138-140: the emperor with most villages: the next most villages leads."""
    s = holds(
        blank(players=3, edition="designer"), "red", Hangzhou="palace", Fuzhou="village", Quanzhou="village"
    )
    s = holds(s, "green", Dadu="village")
    s, _ = begin(s, "rebellion")
    assert s.rebel == GREEN


# --- sides and army -------------------------------------------------------------------------


def _kosmos_four(**army):
    """Red emperor (1 palace), green leads (2 villages); blue and yellow choose."""
    s = holds(blank(players=4), "red", Hangzhou="palace")
    s = holds(s, "green", Fuzhou="village", Quanzhou="village")
    s = holds(s, "blue", Dadu="fort")
    s = holds(s, "yellow", Jinan="fort")
    s = hands(s, army=army)
    s, _ = begin(s, "rebellion")
    s, _ = play(s, "green", "lead")
    return s


def test_kosmos_sides_are_revealed_before_army_is_committed():
    """004 l.203-205: dragon cards revealed together, then army cards taken and revealed."""
    s = _kosmos_four()
    assert sorted(_asked(s)) == [(BLUE, "side"), (YELLOW, "side")]
    assert all(d.sealed for d in pending(s))
    with pytest.raises(IllegalCommand, match="First choose your side"):
        play(s, "blue", "army 1")
    s, log = _run(s, ("blue", "side rebels"), ("yellow", "side emperor"))
    assert entries(log, "sides") == [{"sides": [0, 1, 1, 0], "leader": GREEN}]
    assert s.phase.stage == "army"
    assert sorted(_asked(s)) == [(RED, "army"), (BLUE, "army"), (GREEN, "army"), (YELLOW, "army")]


def test_army_points_committed_run_from_none_to_the_whole_hand():
    """004 l.205: army cards from the hand; none at all is a commitment too."""
    s = _kosmos_four(blue=2)
    s, _ = _run(s, ("blue", "side rebels"), ("yellow", "side emperor"))
    blue = seat(s, "blue")
    for amount in (-1, 3):
        with pytest.raises(IllegalCommand, match=f"You cannot commit {amount} army points: you have 2"):
            apply(s, blue, Army(amount))
    for amount in (0, 2):
        committed, _ = apply(s, blue, Army(amount))
        assert committed.phase.army[blue] == amount


def test_kosmos_emperor_and_leader_do_not_choose_a_side():
    """004 l.201-203: the emperor and the rebel leader do not pick a side."""
    s = _kosmos_four()
    with pytest.raises(IllegalCommand, match="Nothing is yours to decide now"):
        play(s, "red", "side rebels")
    with pytest.raises(IllegalCommand, match="Nothing is yours to decide now"):
        play(s, "green", "side emperor")
    s, _ = _run(s, ("blue", "side rebels"), ("yellow", "side emperor"))
    with pytest.raises(IllegalCommand, match="Sides are already chosen"):
        play(s, "green", "side emperor")


def test_designer_side_and_army_are_sealed_together():
    """002 l.144-155: colour card and army cards are chosen secretly and revealed together."""
    s = holds(blank(players=3, edition="designer"), "red", Hangzhou="palace")
    s = holds(s, "blue", Fuzhou="village")
    s, _ = begin(s, "rebellion")
    assert sorted(_asked(s)) == [(RED, "army"), (BLUE, "army"), (GREEN, "side")]
    s, log = play(s, "green", "army 2")
    assert "sides" not in kinds(log)
    assert sorted(_asked(s)) == [(RED, "army"), (BLUE, "army"), (GREEN, "side")]
    with pytest.raises(IllegalCommand, match="do not choose a side"):
        play(s, "red", "side rebels")
    with pytest.raises(IllegalCommand, match="do not choose a side"):
        play(s, "blue", "side emperor")


def test_sealed_side_can_be_changed_before_the_last_one_arrives():
    """001 l.288-293 (sealed dragon card); base.Decision: a sealed choice may change until all are in."""
    s = _kosmos_four()
    s, log = _run(s, ("blue", "side rebels"), ("blue", "side emperor"))
    assert "sides" not in kinds(log)
    s, log = play(s, "yellow", "side rebels")
    assert entries(log, "sides") == [{"sides": [0, 0, 1, 1], "leader": GREEN}]
    with pytest.raises(IllegalCommand, match="Sides are already chosen"):
        play(s, "blue", "side rebels")


def test_sealed_army_can_be_changed_before_the_last_one_arrives():
    """001 l.295-300: army is sealed until all reveal; the engine lets a sealed answer change until then."""
    s = _kosmos_four()
    s, _ = _run(
        s,
        ("blue", "side rebels"),
        ("yellow", "side emperor"),
        ("red", "army 3"),
        ("red", "army 0"),
        ("blue", "army 1"),
        ("yellow", "army 0"),
    )
    s, log = play(s, "green", "army 2")
    assert _battle(log)["army"] == [0, 1, 2, 0]


def test_cannot_commit_more_army_than_held():
    """001 l.295-298: a player commits army cards from his hand."""
    s = _kosmos_four(blue=2)
    s, _ = _run(s, ("blue", "side rebels"), ("yellow", "side emperor"))
    with pytest.raises(IllegalCommand, match="You cannot commit 3 army points: you have 2"):
        play(s, "blue", "army 3")


# --- strength -------------------------------------------------------------------------------


def _three(edition="kosmos", red_palaces=1, blue_villages=1, green_side="emperor", **extra):
    """Red emperor, blue leader, green chooses ``green_side``; areas far apart unless ``extra``."""
    palaces = ["Hangzhou", "Dadu", "Jinan"][:red_palaces]
    villages = ["Chengdu", "Kunming", "Guilin", "Xining"][:blue_villages]
    s = holds(blank(players=3, edition=edition), "red", **dict.fromkeys(palaces, "palace"))
    s = holds(s, "blue", **dict.fromkeys(villages, "village"))
    for colour, where in extra.items():
        s = holds(s, colour, **where)
    s, _ = begin(s, "rebellion")
    if edition == "kosmos":
        s, _ = _run(s, ("blue", "lead"), ("green", f"side {green_side}"))
    else:
        s, _ = play(s, "green", f"side {green_side}")
    return s


def _fight(s, red, blue, green):
    return _run(s, ("red", f"army {red}"), ("blue", f"army {blue}"), ("green", f"army {green}"))


def test_emperor_side_adds_two_per_emperor_palace():
    """001 l.304-305: the emperor adds 2 battle points per palace of his on the board."""
    s = _three(red_palaces=2)
    s, log = _fight(s, 1, 3, 0)
    battle = _battle(log)
    assert (battle["emperor_strength"], battle["rebel_strength"]) == (5, 4)
    assert battle["winner"] == "emperor"


def test_kosmos_rebels_add_one_per_leader_village():
    """001 l.309-310 / 004 l.207: the rebel leader adds 1 per village of his."""
    s = _three(blue_villages=3)
    s, log = _fight(s, 0, 0, 0)
    battle = _battle(log)
    assert (battle["emperor_strength"], battle["rebel_strength"]) == (2, 3)
    assert battle["winner"] == "rebels"


def test_designer_rebels_add_two_per_leader_village():
    """002 l.156-157: "The Rebel Leader gains an additional +2 for each Village he controls"."""
    s = _three(edition="designer", blue_villages=3)
    s, log = _fight(s, 0, 0, 0)
    battle = _battle(log)
    assert (battle["emperor_strength"], battle["rebel_strength"]) == (2, 6)
    assert battle["winner"] == "rebels"


def test_allies_buildings_add_nothing():
    """001 l.310-311: "Paläste und Dörfer der Verbündeten bringen keine Zusatzpunkte"."""
    s = _three(green_side="emperor", green={"Shangdu": "palace", "Yidu": "village"})
    s, log = _fight(s, 1, 1, 1)
    battle = _battle(log)
    assert (battle["emperor_strength"], battle["rebel_strength"]) == (4, 2)
    s = _three(green_side="rebels", green={"Shangdu": "palace", "Yidu": "village"})
    s, log = _fight(s, 1, 1, 1)
    battle = _battle(log)
    assert (battle["emperor_strength"], battle["rebel_strength"]) == (3, 3)


def test_emperor_side_wins_a_tie():
    """001 l.313-316: "Bei gleich starken Seiten gewinnen der Kaiser und seine Verbündeten"."""
    s = _three(blue_villages=2, green_side="rebels")
    s, log = _fight(s, 2, 1, 1)
    battle = _battle(log)
    assert (battle["emperor_strength"], battle["rebel_strength"]) == (4, 4)
    assert battle["winner"] == "emperor"


def test_designer_emperor_side_wins_a_tie():
    """002 l.160: "In the case of a tie the Emperor's side wins"."""
    s = _three(edition="designer", blue_villages=1)
    s, log = _fight(s, 2, 2, 0)
    battle = _battle(log)
    assert (battle["emperor_strength"], battle["rebel_strength"]) == (4, 4)
    assert battle["winner"] == "emperor"


def test_all_committed_army_is_discarded_by_winners_and_losers():
    """001 l.317-320 / 004 l.209: every committed army card is discarded, by all players."""
    s = _three(green_side="emperor")
    s, log = _fight(s, 2, 1, 3)
    assert _battle(log)["winner"] == "emperor"
    assert isinstance(s.phase, PalaceChoices)  # no income yet
    assert s.army == (1, 2, 0)


# --- spoils ---------------------------------------------------------------------------------


def _five_rebels_win(edition="kosmos"):
    """5 players: red emperor + green lose; yellow leads, blue and purple (1 army each) win."""
    s = holds(
        blank(players=5, edition=edition), "red", Hangzhou="palace", Haizhou="village", Kaifeng="village"
    )
    s = holds(s, "green", Pingjiang="fort", Jiqing="temple")
    s = holds(s, "yellow", Fuzhou="village", Quanzhou="village", Guangzhou="village")
    s = holds(s, "blue", Yangzhou="ricefield")
    s = holds(s, "purple", Xuzhou="fort", Yidu="fort")
    s, _ = begin(s, "rebellion")
    if edition == "kosmos":
        s, _ = play(s, "yellow", "lead")
    assert s.rebel == YELLOW
    s, log = _run(
        s,
        ("green", "side emperor"),
        ("blue", "side rebels"),
        ("purple", "side rebels"),
        ("red", "army 0"),
        ("green", "army 0"),
        ("yellow", "army 0"),
        ("blue", "army 1"),
        ("purple", "army 1"),
    )
    assert _battle(log)["winner"] == "rebels"
    return s


def test_winning_leader_picks_first_then_allies_by_army_committed():
    """001 l.328-332, 361-364: the winning leader first, then the ally who committed most army."""
    s = holds(blank(players=4), "red", Hangzhou="palace", Pingjiang="village", Haizhou="village")
    s = holds(s, "yellow", Fuzhou="village", Quanzhou="village")
    s = holds(s, "blue", Jinan="fort")
    s = holds(s, "green", Dadu="fort")
    s, _ = begin(s, "rebellion")
    s, log = _run(
        s,
        ("yellow", "lead"),
        ("blue", "side emperor"),
        ("green", "side emperor"),
        ("red", "army 3"),
        ("blue", "army 1"),
        ("green", "army 2"),
        ("yellow", "army 0"),
    )
    assert _battle(log)["winner"] == "emperor"
    assert isinstance(s.phase, Spoils)
    assert s.phase.groups == ((RED,), (GREEN,), (BLUE,))
    assert pending(s) == (Decision(RED, "take"),)


def test_kosmos_tied_allies_pick_first_clockwise_from_the_winning_leader():
    """001 l.333-336: equal army: first the one sitting first to the left of the winning leader."""
    s = _five_rebels_win()
    assert s.phase.groups == ((YELLOW,), (PURPLE,), (BLUE,))
    assert pending(s) == (Decision(YELLOW, "take"),)
    s, _ = play(s, "yellow", "take Pingjiang")
    assert pending(s) == (Decision(PURPLE, "take"),)


def test_designer_emperor_decides_which_tied_winner_picks_first():
    """002 l.165-166: "In the case of a tie the Emperor decides who will pick first"."""
    s = _five_rebels_win(edition="designer")
    s, _ = play(s, "yellow", "take Pingjiang")
    assert pending(s) == (Decision(RED, "first"),)
    with pytest.raises(IllegalCommand, match="Nothing is yours to decide now: waiting for Red"):
        play(s, "blue", "first blue")
    with pytest.raises(IllegalCommand, match="green is not one of the tied winners"):
        play(s, "red", "first green")
    s, log = play(s, "red", "first blue")
    assert entries(log, "pick_order") == [{"seat": RED, "first": BLUE}]
    assert pending(s) == (Decision(BLUE, "take"),)


def test_winner_may_only_take_a_loser_area_next_to_his_own():
    """001 l.339-341: "Man darf nur ein Gebiet übernehmen, das an ein eigenes Gebiet ... angrenzt"."""
    s = _three(
        blue_villages=0,
        red={"Pingjiang": "village", "Jinan": "village"},
        blue={"Fuzhou": "village", "Quanzhou": "village"},
    )
    s, _ = _fight(s, 0, 3, 0)
    assert pending(s) == (Decision(BLUE, "take"),)
    assert _takes(s, "blue") == ["Hangzhou", "Pingjiang"]
    with pytest.raises(IllegalCommand, match="You cannot take Jinan: it is not next to one of your areas"):
        play(s, "blue", "take Jinan")


def test_winner_without_an_area_may_take_any_loser_area():
    """001 l.342-345: a player with no area may take any area of a loser."""
    s = holds(blank(players=4), "red", Hangzhou="palace", Pingjiang="village")
    s = holds(s, "blue", Fuzhou="village", Quanzhou="village")
    s = holds(s, "yellow", Jinan="village", Chengdu="fort")
    s, _ = begin(s, "rebellion")
    s, _ = _run(
        s,
        ("blue", "lead"),
        ("green", "side rebels"),
        ("yellow", "side emperor"),
        ("red", "army 0"),
        ("blue", "army 3"),
        ("green", "army 1"),
        ("yellow", "army 0"),
    )
    s, _ = play(s, "blue", "take Pingjiang")
    assert pending(s) == (Decision(GREEN, "take"),)
    assert _takes(s, "green") == ["Chengdu", "Jinan"]
    s, _ = play(s, "green", "take Chengdu")
    assert s.owner[area("Chengdu")] == GREEN


def test_kosmos_a_loser_loses_at_most_one_area():
    """001 l.347-348 / 004 l.221: no loser may lose more than one area."""
    s = holds(blank(players=4), "red", Hangzhou="palace", Pingjiang="village")
    s = holds(s, "blue", Fuzhou="village", Quanzhou="village")
    s = holds(s, "green", Yangzhou="fort")
    s = holds(s, "yellow", Haizhou="village", Yidu="village")
    s, _ = begin(s, "rebellion")
    s, _ = _run(
        s,
        ("blue", "lead"),
        ("green", "side rebels"),
        ("yellow", "side emperor"),
        ("red", "army 0"),
        ("blue", "army 3"),
        ("green", "army 1"),
        ("yellow", "army 0"),
    )
    s, _ = play(s, "blue", "take Pingjiang")
    assert _takes(s, "green") == ["Haizhou", "Yidu"]
    with pytest.raises(IllegalCommand, match="red has already lost an area in this rebellion"):
        play(s, "green", "take Hangzhou")


def test_kosmos_only_the_loser_who_lost_an_area_is_refused_for_that_reason():
    """001 l.347-348: the reason "has already lost an area" names only the loser hit; another
    loser's far area is refused for being far."""
    s = holds(blank(players=4), "red", Hangzhou="palace", Pingjiang="village")
    s = holds(s, "blue", Fuzhou="village", Quanzhou="village")
    s = holds(s, "green", Yangzhou="fort")
    s = holds(s, "yellow", Haizhou="village", Yidu="village", Chengdu="fort")
    s, _ = begin(s, "rebellion")
    s, _ = _run(
        s,
        ("blue", "lead"),
        ("green", "side rebels"),
        ("yellow", "side emperor"),
        ("red", "army 0"),
        ("blue", "army 3"),
        ("green", "army 1"),
        ("yellow", "army 0"),
    )
    s, _ = play(s, "blue", "take Pingjiang")
    with pytest.raises(IllegalCommand, match="You cannot take Chengdu: it is not next to one of your areas"):
        play(s, "green", "take Chengdu")


def test_designer_a_loser_can_lose_several_areas():
    """002 l.175: "A player can lose control of more than one chip"."""
    s = holds(
        blank(players=3, edition="designer"), "red", Hangzhou="palace", Pingjiang="village", Haizhou="village"
    )
    s = holds(s, "blue", Fuzhou="village", Quanzhou="village")
    s = holds(s, "green", Yangzhou="fort")
    s, _ = begin(s, "rebellion")
    s, _ = _run(s, ("green", "side rebels"), ("red", "army 0"), ("blue", "army 1"), ("green", "army 0"))
    s, _ = play(s, "blue", "take Pingjiang")
    assert _takes(s, "green") == ["Haizhou", "Hangzhou"]
    s, _ = play(s, "green", "take Haizhou")
    assert [s.owner[area(a)] for a in ("Pingjiang", "Haizhou", "Hangzhou")] == [BLUE, GREEN, RED]


def test_winner_who_cannot_take_an_area_gets_a_vp_chip():
    """001 l.350-352 / 002 l.169-170: a winner who cannot take an area gets a VP chip instead."""
    s = _three(
        edition="designer",
        red_palaces=2,
        green_side="emperor",
        red={"Pingjiang": "village"},
        green={"Yangzhou": "fort", "Yidu": "fort"},
        blue={"Fuzhou": "village", "Quanzhou": "village"},
    )
    s, log = _fight(s, 3, 0, 0)  # designer: no one-loss limit; green's forts border no rebel area
    assert _battle(log)["winner"] == "emperor"
    s, log = play(s, "red", "take Fuzhou")
    assert entries(log, "consolation") == [{"seat": GREEN}]
    assert s.vp == (0, 0, 1)
    assert s.owner[area("Quanzhou")] == BLUE


def test_taken_area_keeps_its_building():
    """001 l.354-359: the chip is swapped for one of the taker's colour; the building never changes."""
    s = _three(red={"Pingjiang": "temple"}, blue={"Fuzhou": "village", "Quanzhou": "village"})
    s, _ = _fight(s, 0, 3, 0)
    s, log = play(s, "blue", "take Pingjiang")
    assert entries(log, "took") == [
        {"seat": BLUE, "area": area("Pingjiang"), "from": RED, "building": int(Building.TEMPLE)}
    ]
    assert s.owner[area("Pingjiang")] == BLUE
    assert s.building[area("Pingjiang")] == Building.TEMPLE


def test_winner_without_a_free_chip_of_that_building_cannot_take_it():
    """001 l.357-359 + chip mix l.25-28: the swap needs a chip of the same building (3 palaces each)."""
    s = holds(
        blank(players=3),
        "red",
        Hangzhou="palace",
        Dadu="palace",
        Jinan="palace",
        Pingjiang="village",
        Haizhou="village",
    )
    s = holds(
        s,
        "blue",
        Chengdu="palace",
        Kunming="palace",
        Guilin="palace",
        Fuzhou="village",
        Yangzhou="village",
        Quanzhou="village",
        Guangzhou="village",
    )
    s, _ = begin(s, "rebellion")
    s, log = _run(
        s,
        ("blue", "lead"),
        ("green", "side emperor"),
        ("red", "army 0"),
        ("blue", "army 3"),
        ("green", "army 0"),
    )
    assert _battle(log)["winner"] == "rebels"
    assert _takes(s, "blue") == ["Haizhou", "Pingjiang"]
    with pytest.raises(IllegalCommand, match="you have no palace chip left"):
        play(s, "blue", "take Hangzhou")


def test_single_legal_target_is_taken_automatically():
    """001 l.339-341: with one area to take, the engine takes it (logged as forced)."""
    s = _three(blue={"Fuzhou": "village"})
    s, log = _fight(s, 0, 3, 0)
    assert entries(log, "forced") == [{"seat": BLUE, "kind": "take"}]
    assert entries(log, "took") == [
        {"seat": BLUE, "area": area("Hangzhou"), "from": RED, "building": int(Building.PALACE)}
    ]


def test_only_areas_of_the_losing_side_can_be_taken():
    """001 l.323-325: the reward is an area taken from one of the losers."""
    s = _three(
        green_side="rebels",
        red={"Pingjiang": "village"},
        blue={"Fuzhou": "village", "Quanzhou": "village"},
        green={"Guangzhou": "fort"},
    )
    s, _ = _fight(s, 0, 3, 0)
    with pytest.raises(IllegalCommand, match="it does not belong to a player on the losing side"):
        play(s, "blue", "take Guangzhou")


def test_rebel_marker_is_put_back_after_the_rebellion():
    """001 l.409-410: the rebel marker goes back beside the board after the rebellion."""
    s = _three(blue={"Fuzhou": "village"})
    assert s.rebel == BLUE
    s, _ = _fight(s, 0, 3, 0)
    assert s.rebel == -1
    assert not isinstance(s.phase, Rebellion | Spoils)


# --- the emperor after a rebellion ----------------------------------------------------------


def test_kosmos_most_palaces_after_the_spoils_becomes_emperor():
    """001 l.402-403: most palaces after the rebellion: becomes emperor (checked once, at the end)."""
    s = holds(blank(players=4), "red", Hangzhou="palace", Pingjiang="village")
    s = holds(s, "blue", Fuzhou="village", Quanzhou="village")
    s = holds(s, "yellow", Jinan="village")
    s, _ = begin(s, "rebellion")
    s, _ = _run(
        s,
        ("blue", "lead"),
        ("green", "side rebels"),
        ("yellow", "side emperor"),
        ("red", "army 0"),
        ("blue", "army 3"),
        ("green", "army 1"),
        ("yellow", "army 0"),
    )
    s, log = play(s, "blue", "take Hangzhou")
    assert s.emperor == BLUE
    assert entries(log, "emperor") == [{"seat": BLUE, "previous": RED, "palaces": 1}]
    order = kinds(log)
    assert order.index("emperor") > max(i for i, k in enumerate(order) if k == "took")
    assert [e["seat"] for e in entries(log, "took")] == [BLUE, GREEN]


def test_kosmos_equal_palaces_to_the_emperor_change_nothing():
    """001 l.258-259, 402-403: equal palaces to the emperor after the spoils: the emperor stays."""
    s = holds(blank(players=3), "red", Hangzhou="palace", Dadu="palace")
    s = holds(s, "blue", Fuzhou="village", Quanzhou="village", Chengdu="palace")
    s = holds(s, "green", Pingjiang="palace", Jiqing="village")
    s, _ = begin(s, "rebellion")
    s, log = _run(
        s,
        ("blue", "lead"),
        ("green", "side emperor"),
        ("red", "army 0"),
        ("blue", "army 3"),
        ("green", "army 0"),
    )
    assert _battle(log)["winner"] == "rebels"
    s, log = play(s, "blue", "take Pingjiang")
    assert (s.palaces(RED), s.palaces(BLUE)) == (2, 2)
    assert s.emperor == RED
    assert "emperor" not in kinds(log)


def test_kosmos_nachtrag_the_palace_taker_wins_a_tie_for_most_palaces():
    """001 l.492-495: emperor no longer has most, several tie: whoever took a palace from him rules."""
    s = holds(blank(players=3), "red", Hangzhou="palace", Dadu="palace", Pingjiang="village")
    s = holds(s, "blue", Jinan="palace", Kunming="palace")
    s = holds(s, "green", Chengdu="palace", Fuzhou="village", Quanzhou="village")
    s, _ = begin(s, "rebellion")
    assert s.phase.queue == (GREEN,)
    s, log = _run(
        s,
        ("green", "lead"),
        ("blue", "side emperor"),
        ("red", "army 0"),
        ("blue", "army 0"),
        ("green", "army 3"),
    )
    assert _battle(log)["winner"] == "rebels"
    s, log = play(s, "green", "take Hangzhou")
    assert [s.palaces(x) for x in (RED, BLUE, GREEN)] == [1, 2, 2]
    assert s.emperor == GREEN
    assert entries(log, "emperor") == [{"seat": GREEN, "previous": RED, "palaces": 2}]


def test_designer_emperor_changes_at_once_when_a_palace_changes_hands():
    """002 l.113-115, 170-172: the emperor switches mid-spoils; the new one orders tied winners."""
    s = holds(
        blank(players=4, edition="designer"), "red", Hangzhou="palace", Pingjiang="village", Haizhou="village"
    )
    s = holds(s, "blue", Fuzhou="village", Quanzhou="village", Guangzhou="village")
    s = holds(s, "green", Yangzhou="fort")
    s = holds(s, "yellow", Jiqing="temple")
    s, _ = begin(s, "rebellion")
    assert s.rebel == BLUE
    s, log = _run(
        s,
        ("green", "side rebels"),
        ("yellow", "side rebels"),
        ("red", "army 0"),
        ("blue", "army 0"),
        ("green", "army 1"),
        ("yellow", "army 1"),
    )
    assert _battle(log)["winner"] == "rebels"
    s, log = play(s, "blue", "take Hangzhou")
    assert s.emperor == BLUE
    assert entries(log, "emperor") == [{"seat": BLUE, "previous": RED, "palaces": 1}]
    assert pending(s) == (Decision(BLUE, "first"),)


def test_emperor_gets_no_vp_chip_after_a_rebellion():
    """001 l.404-405 / 004 l.233: the emperor's VP chip is given only in phase 3."""
    s = holds(blank(players=3), "red", Hangzhou="palace", Pingjiang="village")
    s = holds(s, "blue", Fuzhou="village", Quanzhou="village")
    s, _ = begin(s, "rebellion")
    s, _ = _run(
        s,
        ("blue", "lead"),
        ("green", "side emperor"),
        ("red", "army 0"),
        ("blue", "army 3"),
        ("green", "army 0"),
    )
    s, log = play(s, "blue", "take Hangzhou")
    assert s.emperor == BLUE
    assert "emperor_vp" not in kinds(log)
    assert s.vp == (0, 0, 0)


# --- the examples of seed 001 (l.367-400) ---------------------------------------------------


def test_example_five_players_rebels_win_third_rebel_gets_a_vp_chip():
    """001 l.368-378: 2 vs 3, rebels win; leader and the stronger ally take; the third gets a VP chip."""
    s = holds(blank(players=5), "red", Hangzhou="palace", Haizhou="village")
    s = holds(s, "blue", Pingjiang="village")
    s = holds(s, "green", Fuzhou="village", Quanzhou="village")
    s = holds(s, "purple", Yangzhou="fort")
    s = holds(s, "yellow", Jiqing="ricefield", Yidu="temple")
    s, _ = begin(s, "rebellion")
    assert s.phase.queue == (GREEN, BLUE)
    s, log = _run(
        s,
        ("green", "lead"),
        ("blue", "side emperor"),
        ("yellow", "side rebels"),
        ("purple", "side rebels"),
        ("red", "army 2"),
        ("blue", "army 1"),
        ("green", "army 1"),
        ("purple", "army 3"),
        ("yellow", "army 1"),
    )
    battle = _battle(log)
    assert (battle["emperor_strength"], battle["rebel_strength"], battle["winner"]) == (5, 7, "rebels")
    assert pending(s) == (Decision(GREEN, "take"),)
    assert _takes(s, "green") == ["Hangzhou", "Pingjiang"]
    s, log = play(s, "green", "take Pingjiang")
    assert pending(s) == (Decision(PURPLE, "take"),)
    assert _takes(s, "purple") == ["Haizhou", "Hangzhou"]
    s, log = play(s, "purple", "take Haizhou")
    assert entries(log, "consolation") == [{"seat": YELLOW}]
    assert s.vp == (0, 0, 0, 1, 0)
    assert [s.owner[area(a)] for a in ("Pingjiang", "Haizhou", "Hangzhou")] == [GREEN, PURPLE, RED]
    assert s.emperor == RED
    assert s.army == (1, 2, 2, 2, 0)


def test_example_four_players_emperor_alone_wins_and_takes_one_area():
    """001 l.382-385: 1 vs 3, the emperor wins and takes one area; the others are lucky."""
    s = holds(blank(players=4), "red", Hangzhou="palace", Dadu="palace")
    s = holds(s, "blue", Fuzhou="village", Quanzhou="village")
    s = holds(s, "green", Pingjiang="fort")
    s = holds(s, "yellow", Yangzhou="temple", Haizhou="village")
    s, _ = begin(s, "rebellion")
    s, log = _run(
        s,
        ("blue", "lead"),
        ("green", "side rebels"),
        ("yellow", "side rebels"),
        ("red", "army 3"),
        ("blue", "army 1"),
        ("green", "army 1"),
        ("yellow", "army 1"),
    )
    battle = _battle(log)
    assert (battle["emperor_strength"], battle["rebel_strength"], battle["winner"]) == (7, 5, "emperor")
    assert pending(s) == (Decision(RED, "take"),)
    assert _takes(s, "red") == ["Fuzhou", "Haizhou", "Pingjiang", "Yangzhou"]
    s, log = play(s, "red", "take Yangzhou")
    assert [e["area"] for e in entries(log, "took")] == [area("Yangzhou")]
    assert "consolation" not in kinds(log)
    assert [s.owner[area(a)] for a in ("Fuzhou", "Quanzhou", "Pingjiang", "Yangzhou", "Haizhou")] == [
        BLUE,
        BLUE,
        GREEN,
        RED,
        YELLOW,
    ]
    assert isinstance(s.phase, PalaceChoices)


def _six_players(yellow_area):
    """001 l.387-400: red, blue, yellow (emperor's side) vs green, purple, orange, equal strength."""
    s = holds(blank(players=6), "red", Hangzhou="palace")
    s = holds(s, "green", Fuzhou="village", Quanzhou="village")
    s = holds(s, "purple", Yangzhou="fort")
    s = holds(s, "orange", Jiqing="temple")
    s = holds(s, "blue", Xuzhou="ricefield")
    s = holds(s, "yellow", **{yellow_area: "fort"})
    s, _ = begin(s, "rebellion")
    s, log = _run(
        s,
        ("green", "lead"),
        ("blue", "side emperor"),
        ("yellow", "side emperor"),
        ("purple", "side rebels"),
        ("orange", "side rebels"),
        ("red", "army 1"),
        ("blue", "army 2"),
        ("yellow", "army 2"),
        ("green", "army 1"),
        ("purple", "army 2"),
        ("orange", "army 2"),
    )
    battle = _battle(log)
    assert (battle["emperor_strength"], battle["rebel_strength"], battle["winner"]) == (7, 7, "emperor")
    assert pending(s) == (Decision(RED, "take"),)
    s, _ = play(s, "red", "take Fuzhou")
    assert pending(s) == (Decision(BLUE, "take"),)  # tied with yellow: first clockwise from red
    assert _takes(s, "blue") == ["Jiqing", "Yangzhou"]
    return play(s, "blue", "take Yangzhou")


def test_example_six_players_tie_emperor_side_wins_and_last_ally_takes_from_last_rebel():
    """001 l.387-398: equal strength, the emperor's side wins; tied allies clockwise from the leader."""
    s, log = _six_players("Guangzhou")
    assert entries(log, "forced") == [{"seat": YELLOW, "kind": "take"}]
    assert [(e["seat"], e["area"]) for e in entries(log, "took")] == [
        (BLUE, area("Yangzhou")),
        (YELLOW, area("Jiqing")),
    ]
    assert [s.owner[area(a)] for a in ("Fuzhou", "Yangzhou", "Jiqing", "Quanzhou")] == [
        RED,
        BLUE,
        YELLOW,
        GREEN,
    ]
    assert s.vp == (0,) * 6


def test_example_six_players_last_ally_without_adjacent_area_gets_a_vp_chip():
    """001 l.398-400: no area of the last rebel next to his own: a VP chip as consolation."""
    s, log = _six_players("Dadu")
    assert entries(log, "consolation") == [{"seat": YELLOW}]
    assert s.vp == (0, 0, 0, 1, 0, 0)
    assert s.owner[area("Jiqing")] == ORANGE


def test_kosmos_a_loser_seated_before_the_one_hit_is_not_taken_for_hit():
    """001 l.347-348: yellow lost an area; red, seated before yellow, has not, so red's far
    area is refused for being far."""
    s = holds(blank(players=4), "red", Hangzhou="palace", Pingjiang="village", Chengdu="fort")
    s = holds(s, "blue", Fuzhou="village")
    s = holds(s, "green", Yangzhou="fort", Jinan="village", Dadu="village", Shangdu="village")
    s = holds(s, "yellow", Haizhou="village", Yidu="village")
    s, _ = begin(s, "rebellion")
    s, log = _run(
        s,
        ("green", "lead"),
        ("blue", "side rebels"),
        ("yellow", "side emperor"),
        ("red", "army 0"),
        ("green", "army 3"),
        ("blue", "army 1"),
        ("yellow", "army 0"),
    )
    assert _battle(log)["winner"] == "rebels"
    s, _ = play(s, "green", "take Haizhou")
    with pytest.raises(IllegalCommand, match="You cannot take Chengdu: it is not next to one of your areas"):
        play(s, "blue", "take Chengdu")
