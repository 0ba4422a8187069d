"""Draws anyone can verify, without Django: the mixed draw seed (games.rules.rng) and the
record checker (games.rules.verify) against honest, tampered and old records."""

from __future__ import annotations

import hashlib
import hmac
from functools import cache

import pytest

from games.rules import entry, records, registry, rng, verify
from games.rules import whitelotus as wl
from games.rules.verify import VerificationFailed
from games.rules.whitelotus import record as wl_record

SEED = "verify-me"
ENTROPY = ((0, rng.contribution("thunder", "<a@x>")), (2, rng.contribution("", "<c@x>")))


def test_the_draw_seed_is_an_hmac_of_the_contributions_keyed_by_the_server_seed():
    text = "draws:mixed/1\n" + "".join(f"{s}={v}\n" for s, v in ENTROPY)
    expected = hmac.new(SEED.encode(), text.encode(), hashlib.sha256).hexdigest()
    assert rng.mixed_seed(SEED, ENTROPY) == expected


def test_the_draw_seed_does_not_depend_on_the_order_the_contributions_arrived_in():
    assert rng.mixed_seed(SEED, ENTROPY) == rng.mixed_seed(SEED, tuple(reversed(ENTROPY)))


def test_each_contribution_changes_the_draw_seed():
    other = ((0, ENTROPY[0][1]), (2, rng.contribution("x", "<c@x>")))
    assert rng.mixed_seed(SEED, ENTROPY) != rng.mixed_seed(SEED, other)
    assert rng.mixed_seed(SEED, ENTROPY) != rng.mixed_seed(SEED, ENTROPY[:1])


def test_without_contributions_the_draws_rest_on_the_server_seed_alone():
    assert rng.mixed_seed(SEED, ()) == SEED
    assert rng.draw_seed(SEED, rng.MIXED, ()) == SEED


def test_an_old_game_draws_with_its_seed_whatever_is_listed():
    assert rng.draw_seed(SEED, None, ENTROPY) == SEED


def test_a_contribution_is_the_digest_of_the_players_text_and_message_id():
    expected = hashlib.sha256(b"thunder\n<a@x>").hexdigest()
    assert rng.contribution(" thunder ", "<a@x>") == expected


def test_a_value_that_is_no_contribution_is_refused():
    with pytest.raises(ValueError, match="not a contribution"):
        rng.mixed_seed(SEED, [(0, "not hex")])


def test_an_unknown_generator_or_recipe_is_refused_not_guessed():
    with pytest.raises(rng.UnknownAlgorithm, match="hmac-sha256-counter/1"):
        rng.check_algorithms("mersenne/1", None)
    with pytest.raises(rng.UnknownAlgorithm, match="mixed/1"):
        rng.check_algorithms(None, "mixed/9")


def test_a_game_without_named_algorithms_reads_as_the_first_generator_and_plain_draws():
    assert rng.check_algorithms(None, None) == (rng.RNG, rng.PLAIN)


# --- records --------------------------------------------------------------------------------------


def boards(rules: str, name: str):
    return registry.get(rules).serial.load_board(name)


@cache
def finished_record(entropy: tuple[tuple[int, str], ...] = ENTROPY) -> str:
    """A whole 3-player game with mixed draws, played by defaults, as its record."""
    config = wl.Config(wl.Serial.load_board(), ("red", "blue", "green"))
    draw = rng.draw_seed(SEED, rng.MIXED, entropy)
    state = wl.setup(config, draw)
    moves = []
    while wl.outcome(state) is None:
        seat = wl.pending(state)[0].seat
        command = wl.default(state, seat)
        moves.append((seat, command))
        state, _ = wl.apply(state, seat, command)
    result = wl.outcome(state)
    assert result is not None
    record = records.Record(
        rules="whitelotus",
        edition="kosmos",
        board=config.board,
        colours=config.colours,
        options=wl.config_to_data(config)["options"],
        first_seat=0,
        seed=SEED,
        moves=tuple(moves),
        rng=rng.RNG,
        draws=rng.MIXED,
        entropy=entropy,
        seed_hash=rng.seed_digest(SEED),
        result=records.format_result(config.colours, result.scores, result.rank),
    )
    return records.format_record(record, config)


def replace_header(text: str, key: str, value: str) -> str:
    lines = text.splitlines()
    out = [f"{key}: {value}" if line.startswith(f"{key}:") else line for line in lines]
    return "\n".join(out) + "\n"


def test_an_honest_record_verifies_and_says_what_was_checked():
    verified = verify.verify_record(finished_record())
    text = "\n".join(verified.lines())
    assert verified.committed and verified.result_checked
    assert verified.draw_seed == rng.mixed_seed(SEED, ENTROPY)
    assert "the seed matches the seed-hash published" in text
    assert f"sha256(seed): {rng.seed_digest(SEED)}" in text
    assert "\n  1 blue    none arrived\n" in text
    assert f"\n  0 red     {ENTROPY[0][1]}\n" in text
    assert all(len(line) <= 80 for line in text.splitlines())
    assert f"Moves: {verified.moves} replayed" in text
    assert "equal to the record's result line" in text
    assert text.endswith("OK: the record verifies.")


def test_a_tampered_seed_does_not_match_its_commitment():
    text = replace_header(finished_record(), "seed", "another-seed")
    with pytest.raises(VerificationFailed, match="does not match its commitment"):
        verify.verify_record(text)


def test_a_tampered_contribution_replays_to_another_game():
    forged = rng.contribution("forged", "<a@x>")
    text = replace_header(finished_record(), "entropy", f"0={forged} 2={ENTROPY[1][1]}")
    with pytest.raises(VerificationFailed, match=r"does not replay|not to the record's result"):
        verify.verify_record(text)


def test_a_dropped_contribution_replays_to_another_game():
    text = replace_header(finished_record(), "entropy", f"2={ENTROPY[1][1]}")
    with pytest.raises(VerificationFailed, match=r"does not replay|not to the record's result"):
        verify.verify_record(text)


def test_a_tampered_move_is_named_or_changes_the_result():
    header, _, body = finished_record().partition("\n\n")
    lines = body.splitlines()
    first_place = next(i for i, line in enumerate(lines) if ": place " in line)
    lines[first_place] = lines[first_place].rsplit(" ", 1)[0] + " Kunming"
    with pytest.raises(VerificationFailed, match=r"does not replay|not to the record's result"):
        verify.verify_record(header + "\n\n" + "\n".join(lines) + "\n")


def test_a_tampered_result_is_caught():
    text = finished_record()
    result = next(line for line in text.splitlines() if line.startswith("result:"))
    winner = result.split()[2]
    forged = result.replace(f"1 {winner}", f"1 {winner}0", 1)
    with pytest.raises(VerificationFailed, match="not to the record's result"):
        verify.verify_record(text.replace(result, forged))


def test_an_unknown_generator_in_a_record_is_refused():
    text = replace_header(finished_record(), "rng", "mersenne/1")
    with pytest.raises(VerificationFailed, match="unknown random generator 'mersenne/1'"):
        verify.verify_record(text)


def test_a_mixed_record_without_its_seed_hash_cannot_be_verified():
    text = "\n".join(line for line in finished_record().splitlines() if not line.startswith("seed-hash:"))
    with pytest.raises(VerificationFailed, match="no 'seed-hash:' line"):
        verify.verify_record(text + "\n")


def test_an_old_record_replays_with_its_seed_and_prints_the_seeds_hash_to_compare():
    config = wl.Config(wl.Serial.load_board(), ("red", "blue", "green"))
    state = wl.setup(config, "7")
    seat = wl.pending(state)[0].seat
    old = wl_record.format_record(wl_record.Record(config, "7", ((seat, wl.default(state, seat)),)))
    verified = verify.verify_record(old)
    assert verified.draws == rng.PLAIN and verified.draw_seed == "7" and verified.moves == 1
    assert not verified.committed
    text = "\n".join(verified.lines())
    assert "compare this with the seed hash" in text and f"sha256(seed): {rng.seed_digest('7')}" in text


def test_old_records_are_still_read_by_the_service_reader():
    config = wl.Config(wl.Serial.load_board(), ("red", "blue", "green"))
    old = wl_record.format_record(wl_record.Record(config, "7", ()))
    record, _ = entry.parse_record(old, boards)
    assert (record.seed, record.draws, record.entropy, record.draw_seed) == ("7", "", (), "7")


def test_the_verifier_main_exits_1_and_says_why_on_a_tampered_record(tmp_path, capsys):
    path = tmp_path / "game.txt"
    path.write_text(replace_header(finished_record(), "seed", "x"), encoding="utf-8")
    assert verify.main([str(path)]) == 1
    assert "FAILED: the seed does not match its commitment" in capsys.readouterr().err
