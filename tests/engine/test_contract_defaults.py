"""The contract's defaults (games.rules.base: the parts of Rules), as a game of the required names alone gets
them: Sealed Bids (tests.contract.sealedbids) saved and replayed, read and written in three
languages, configured, played by its bot; and the registry's ``register`` for tests."""

from __future__ import annotations

import types
from pathlib import Path

import pytest

from games.rules import registry
from games.rules.base import REQUIRED, Config, IllegalCommand, LogEntry, Rules
from tests.contract import sealedbids
from tests.contract.sealedbids import Bid

GAME = Rules("sealedbids", sealedbids)


def _started(players: int = 3) -> tuple[Config, object]:
    config = GAME.serial.make_config(
        GAME.serial.load_board(GAME.about.default_board), players, GAME.about.editions[0], {}, None
    )
    return config, GAME.setup(config, "defaults")


def _played(moves: int) -> tuple[Config, object, list[tuple[int, Bid]]]:
    config, state = _started()
    done = []
    for _ in range(moves):
        seat = GAME.pending(state)[0].seat
        command = GAME.default(state, seat)
        done.append((seat, command))
        state, _ = GAME.apply(state, seat, command)
    return config, state, done


def test_a_game_of_the_required_names_alone_is_one_edition_with_no_board_options_or_clock():
    assert len(REQUIRED) == 14
    assert [n for n in REQUIRED if not hasattr(sealedbids, n)] == []
    assert GAME.about.editions == ("standard",)
    assert GAME.about.default_board == "" and GAME.serial.load_board("").name == ""
    assert (
        dict(GAME.about.OPTIONS) == {}
        and dict(GAME.about.time_controls) == {}
        and dict(GAME.about.short_windows) == {}
    )
    assert not GAME.about.REVEALS and GAME.about.VERSION == "sealedbids-1"
    assert GAME.about.MESSAGES == ("Sealed Bids",)


def test_replay_is_setup_then_each_move_applied():
    config, state, moves = _played(7)
    assert GAME.serial.replay(config, "defaults", moves) == state


def test_a_dataclass_state_and_command_keep_as_data_and_read_back():
    config, state, _ = _played(4)  # a round resolved and a bid sealed: None and numbers
    data = GAME.serial.state_to_dict(state)
    assert data["bids"] == [2, None, None] and data["hands"][0] == [2, 3, 4, 5] and data["round"] == 1
    assert GAME.serial.state_from_dict(data, config) == state
    assert GAME.serial.state_from_dict(data, config).config is config
    assert GAME.serial.command_from_dict(GAME.serial.command_to_dict(Bid(4))) == Bid(4)


def test_a_command_of_another_package_is_not_read():
    with pytest.raises(ValueError, match="not a module of"):
        GAME.serial.command_from_dict({"command": "games.rules.whitelotus.commands:Pass"})


def test_a_config_keeps_as_data_and_one_without_options_reads():
    config, _ = _started(4)
    data = GAME.serial.config_to_data(config)
    assert GAME.serial.config_from_data(data, config.board) == config
    del data["options"]
    assert GAME.serial.config_from_data(data, config.board).options == {}


def test_what_the_game_cannot_have_is_refused_by_its_title():
    board = GAME.serial.load_board("")
    with pytest.raises(ValueError, match="Sealed Bids is played by 2, 3, 4 players, not 5"):
        GAME.serial.make_config(board, 5, "standard", {}, None)
    with pytest.raises(ValueError, match="no edition 'kosmos'"):
        GAME.serial.make_config(board, 3, "kosmos", {}, None)
    with pytest.raises(ValueError, match="unknown options: negotiation"):
        GAME.serial.make_config(board, 3, "standard", {"negotiation": True}, None)
    with pytest.raises(ValueError, match="without a board"):
        GAME.serial.load_board("china")


def test_a_game_without_chance_draws_nothing_and_refuses_what_a_record_says_was_drawn():
    config, state = _started()
    assert (
        GAME.chance.drawn(state) == () and dict(GAME.chance.SYNTAX) == {} and GAME.chance.SEEDED_FIELDS == ()
    )
    with pytest.raises(IllegalCommand, match="Nothing is drawn in this game"):
        GAME.chance.parse(state, "draw 3")
    with pytest.raises(IllegalCommand):
        GAME.setup(config, "", ["something drawn"])
    with pytest.raises(IllegalCommand):
        GAME.apply(state, 0, Bid(1), ["something drawn"])


def test_the_words_and_syntax_are_read_off_the_commands_in_each_language():
    _, state = _started()
    words = GAME.notation.words
    assert [words.keyword(w) for w in ("bid", "BIETE", "misé", "pass")] == ["bid", "bid", "bid", None]
    assert words.closest_keyword("bidd") == "bid"
    assert words.keyword_hint("de") == "biete = bid"
    assert dict(GAME.notation.SYNTAX) == {"bid": "bid <number>"}
    assert GAME.notation.syntax("bid", "fr") == "mise <number>"
    assert GAME.notation.describe(state, 0, "de") == ["biete 1", "biete 2", "biete 3", "biete 4", "biete 5"]
    assert GAME.notation.format_command(state, Bid(2)) == "bid 2"
    assert GAME.notation.clean("ｂｉｄ\u200b ３") == "bid 3"


def test_narrate_is_the_narration_rendered_and_a_decision_its_kind():
    _, state = _started()
    entry = LogEntry("sealed", {"seat": 1})
    assert GAME.presentation.narrate(state, entry) == "Jade has made a sealed bid."
    german = {"{seat} has made a sealed bid.": "{seat} hat verdeckt geboten."}
    assert GAME.presentation.narrate(state, entry, lambda s: german.get(s, s)) == "Jade hat verdeckt geboten."
    assert GAME.presentation.decision_text({}, "bid") == "bid"
    assert GAME.presentation.sealed_text({"bid": 3}) == "bid 3" and GAME.presentation.sealed_text(None) == ""
    assert GAME.notation.public(Bid(3)) is None


def test_the_default_bot_chooses_a_legal_command_the_same_for_the_same_key_and_state():
    _, state = _started()
    chosen = {GAME.about.Bot(f"k{i}").choose(state, 0) for i in range(20)}
    assert chosen <= set(GAME.legal(state, 0)) and len(chosen) > 1
    assert GAME.about.Bot("k1").choose(state, 0) == GAME.about.Bot("k1").choose(state, 0)


def test_a_package_without_a_required_name_is_refused_with_what_it_lacks():
    lacking = types.ModuleType("tests.lacking")
    for name in REQUIRED:
        if name not in ("narration", "text_board"):
            setattr(lacking, name, getattr(sealedbids, name))
    with pytest.raises(TypeError, match="lacks narration, text_board"):
        Rules("lacking", lacking)


def test_a_test_registers_a_game_for_a_while_and_not_over_another():
    with registry.register("sealedbids", sealedbids) as game:
        assert registry.get("sealedbids") is game and "sealedbids" in registry.names()
        with (
            pytest.raises(ValueError, match="registered already"),
            registry.register("sealedbids", sealedbids),
        ):
            pass
    assert "sealedbids" not in registry.names()
    with pytest.raises(registry.UnknownRules):
        registry.get("sealedbids")


def test_a_registered_game_s_own_catalogue_and_templates_are_found_while_it_is_registered():
    own = Path(str(sealedbids.__file__)).with_name("locale")
    assert (own / "de" / "LC_MESSAGES" / "django.mo").is_file()
    assert own not in registry.locale_dirs()
    with registry.register("sealedbids", sealedbids):
        assert registry.locale_dirs()[-1] == own  # after the registered games' own
        assert not any(folder.parent == own.parent for folder in registry.template_dirs())  # it has none
    assert own not in registry.locale_dirs()
