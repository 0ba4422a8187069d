"""The bots and the look-ahead they (and the deadline default) use: on the hand-made test board,
pavilion 2 at (0, 7) with its door (1, 7)."""

from __future__ import annotations

from games.rules.verbotenestadt.bots import Bot
from games.rules.verbotenestadt.commands import Believe, Doubt, Keep, Move, Plan, Stop
from games.rules.verbotenestadt.decisions import move_options
from games.rules.verbotenestadt.defaults import default
from games.rules.verbotenestadt.engine import apply
from games.rules.verbotenestadt.search import FAR, distance, distances, ranked
from games.rules.verbotenestadt.selfplay import play
from games.rules.verbotenestadt.state import evolve
from tests.engine.verbotenestadt.helpers import BOARD, arrange, config, hands, started

OTHERS = {"bb": (9, 12), "gg": (12, 12), "kk": (12, 2)}
OPEN = {"rr": (5, 7), "yy": (9, 2), **OTHERS}  # rr slides north into pavilion 2
BLOCKED = {"rr": (5, 7), "yy": (3, 7), **OTHERS}  # yy stands between rr and the door
FAR_AWAY = {"rr": (14, 3), "yy": (3, 7), **OTHERS}
DOOR_2 = (0, 7)


def first_move(command):
    return command.moves[0] if isinstance(command, Plan) else command


def test_distance_counts_the_moves_to_enter_with_the_others_standing_still():
    occupied = frozenset(s for c, s in BLOCKED.items() if c != "rr")
    assert distance(BOARD, frozenset(OTHERS.values()), (5, 7), DOOR_2, 2) == 1
    assert distance(BOARD, occupied, (5, 7), DOOR_2, 2, limit=3) == FAR
    whole = distances(BOARD, frozenset(OTHERS.values()), (5, 7), DOOR_2, 2)
    assert whole[(5, 7)] == 1 and all(d >= 1 for d in whole.values())
    # from every square one move away the distance is at most one more
    for square, d in whole.items():
        if d == 1:
            assert distance(BOARD, frozenset(OTHERS.values()), square, DOOR_2, 2) == 1


def test_a_bot_enters_with_its_own_official_when_it_can():
    state = arrange(started(3), OPEN, target=2)
    for i in range(10):
        assert Bot(f"k{i}").choose(state, 0) == Move("rr", ("n",))


def test_a_bot_moves_the_official_in_its_way_when_that_opens_the_path():
    state = arrange(started(3), BLOCKED, target=2)
    now, best = ranked(state, "rr", move_options(state, 0))
    assert now > 1 and best[0][0] == 1 and best[0][2].code == "yy"
    choices = [Bot(f"k{i}").choose(state, 0) for i in range(30)]
    assert all(first_move(c).code == "yy" for c in choices)
    plans = [c for c in choices if isinstance(c, Plan)]
    assert plans, "now and then the bot sends the move and the entry it opens as one plan"
    for plan in plans:
        assert plan.stop and plan.moves[1] == Move("rr", ("n",))
        moved, _ = apply(state, 0, plan.moves[0])
        if moved.phase == "move" and moved.active == 0:
            assert apply(moved, 0, plan.moves[1])[0].terrace[-1] == "rr"


def test_after_a_red_die_a_bot_stops_when_going_on_does_not_bring_its_official_closer():
    state = evolve(arrange(started(3), FAR_AWAY, target=2), moves=1)
    now, best = ranked(state, "rr", move_options(state, 0))
    assert now == FAR and all(d == FAR for d, *_ in best)
    assert all(Bot(f"k{i}").choose(state, 0) == Stop() for i in range(10))
    going_on = evolve(arrange(started(3), BLOCKED, target=2), moves=1)
    assert all(Bot(f"k{i}").choose(going_on, 0) != Stop() for i in range(10))


def test_a_bot_bluffs_now_and_then_once_it_may():
    state = arrange(started(3), {"yy": (5, 7), "rr": (14, 3), **OTHERS}, target=2)  # only yy can enter
    before = [Bot(f"k{i}").choose(state, 0) for i in range(40)]
    assert Move("yy", ("n",)) not in [first_move(c) for c in before]  # not yet allowed
    open_ = hands(state, [("red", "hat")], [("red", "coat")])
    after = [Bot(f"k{i}").choose(open_, 0) for i in range(40)]
    bluffs = sum(1 for c in after if c == Move("yy", ("n",)))
    assert 0 < bluffs < 40


def test_a_bot_doubts_now_and_then_and_mostly_keeps_its_dial():
    state = arrange(started(3), OPEN, target=2)
    state = hands(state, [("red", "hat")], [("red", "coat")], [("red", "trousers")])
    state, _ = apply(state, 0, Move("rr", ("n",)))  # a challenge: seats 1 and 2 answer
    answers = [Bot(f"k{i}").choose(state, 1) for i in range(40)]
    assert answers.count(Believe()) > answers.count(Doubt()) > 0
    keeps = 0
    for i in range(40):
        bot = Bot(f"k{i}")
        after, _ = apply(state, 1, bot.choose(state, 1))
        after, _ = apply(after, 2, Believe())
        if after.phase == "dial":
            keeps += bot.choose(after, 1) == Keep()
    assert keeps > 20


def test_the_default_first_move_enters_but_does_not_search_with_the_dial():
    # a default is public: moving the official in its bribed official's way (as a bot does)
    # would tell the dial, so it moves without it (test_rules_as_worded.py)
    state = arrange(started(3), BLOCKED, target=2)
    assert default(state, 0) == default(evolve(state, dials=("kk", *state.dials[1:])), 0)
    assert default(arrange(started(3), OPEN, target=2), 0) == Move("rr", ("n",))


def test_bots_are_deterministic_for_a_key_and_a_game_of_them_ends():
    cfg = config(4, first=None)
    a, moves_a, _ = play(cfg, "same")
    b, moves_b, _ = play(cfg, "same")
    assert moves_a == moves_b and a.phase == b.phase == "finished"
