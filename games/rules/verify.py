"""Checking a game record's draws, with nothing but the standard library and this package
(``manage.py verify_game`` and ``tools/verify_record.py`` both run :func:`main`).

What is checked, in this order (COMMANDS.md "Checking the draws"):

1. the generator and the draw-seed recipe the record names are ones this code has
   (``games.rules.rng``; an unknown one is refused, never guessed at);
2. the commitment: ``sha256(seed)`` equals the record's ``seed-hash`` — the hash every mail
   of the game showed from its creation, before any player had contributed;
3. the draw seed: the seed mixed with the listed contributions as the record's ``draws``
   says (each player can recompute their own contribution from what they wrote);
4. the game: every move replayed through the rules from the state the draw seed sets up
   (an illegal move names its line);
5. the result: the final places and totals equal the record's ``result`` line.

A record from before draws were mixed has no ``seed-hash``: the seed's hash is printed to be
compared with the one its mails showed, and the rest is checked as above.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import entry, records, registry, rng
from .base import IllegalCommand, Outcome, Rules
from .recordtext import split_record

USAGE = "usage: python tools/verify_record.py RECORD_FILE  (or: python manage.py verify_game RECORD_FILE)"


class VerificationFailed(Exception):
    """The record does not verify; ``str()`` says what failed, for a person."""


@dataclass(frozen=True)
class Verified:
    """What a record was checked to be."""

    title: str
    colours: tuple[str, ...]
    seed_hash: str  # sha256 of the record's seed
    committed: bool  # the record carries the hash published at the start (and it matched)
    rng: str
    draws: str
    entropy: tuple[tuple[int, str], ...]
    draw_seed: str
    moves: int
    outcome: Outcome | None
    result_checked: bool  # the record's ``result`` line was compared (and matched)
    version_note: str = ""
    warning: str = ""  # what the check could not cover (a record that does not say it is whole)

    def lines(self) -> list[str]:
        """What was verified, for a person (80 columns)."""
        out = [f"Game: {self.title}, {len(self.colours)} seats ({' '.join(self.colours)})"]
        if self.committed:
            out += ["Commitment: the seed matches the seed-hash published at the start:"]
        else:
            out += [
                "Commitment: the record has no seed-hash; compare this with the seed hash",
                "the game's mails showed:",
            ]
        out.append(f"  sha256(seed): {self.seed_hash}")
        out.append(f"Generator: {self.rng}; draw seed made by: {self.draws}")
        if self.draws == rng.MIXED:
            given = dict(self.entropy)
            out.append("Contributions (seat, colour, value):")
            for seat, colour in enumerate(self.colours):
                out.append(f"  {seat} {colour:<7} {given.get(seat, 'none arrived')}")
            how = "the seed alone (no contribution)" if not given else "HMAC-SHA256(seed, contributions)"
            out += [f"Draw seed = {how}:", f"  {self.draw_seed}"]
        out.append(f"Moves: {self.moves} replayed through the rules, every one legal")
        if self.outcome is None:
            out.append("Result: the game is not over")
        else:
            result = records.format_result(self.colours, self.outcome.scores, self.outcome.rank)
            out.append(f"Final scores: {result}")
            out.append(
                "  (equal to the record's result line)"
                if self.result_checked
                else "  (the record has no result line)"
            )
        if self.version_note:
            out.append(f"Note: {self.version_note}")
        if self.warning:
            out.append(f"Warning: {self.warning}")
        out.append("OK: the record verifies.")
        return out


def builtin_board(rules: str, name: str) -> Any:
    """A board the record names, from the game's own board files."""
    return registry.get(rules).serial.load_board(name)


def verify_record(text: str, boards: Callable[[str, str], Any] = builtin_board) -> Verified:
    """Check a record (see the module's docstring); raises :class:`VerificationFailed`."""
    header, _ = split_record_or_fail(text)
    try:
        algorithm, draws = rng.check_algorithms(header.get("rng") or None, header.get("draws") or None)
    except rng.UnknownAlgorithm as error:
        raise VerificationFailed(f"cannot verify: {error}") from None
    seed = header.get("seed")
    if seed is None:
        raise VerificationFailed(
            "cannot verify: the record has no 'seed:' line (a game's seed is shown when it is over; "
            "a game played elsewhere, its chance written down, has none: import_game checks that "
            "each of its outcomes was possible)"
        )
    digest = rng.seed_digest(seed)
    published = header.get("seed-hash", "").lower()
    if draws == rng.MIXED and not published:
        raise VerificationFailed(
            "cannot verify: the record has no 'seed-hash:' line to check its seed against"
        )
    if published and published != digest:
        raise VerificationFailed(
            f"the seed does not match its commitment: sha256(seed) is {digest}, the record's "
            f"seed-hash is {published}"
        )
    try:
        record, final = entry.parse_record(text, boards, _parse)
    except IllegalCommand as error:
        raise VerificationFailed(f"the game does not replay: {error.message}") from None
    except (OSError, ValueError) as error:
        raise VerificationFailed(f"the game does not replay: {error}") from None
    rules = record.game_rules
    outcome = rules.outcome(final)
    checked = False
    if outcome is None and header.get("finished"):
        raise VerificationFailed(
            f"the record says the game finished ({header['finished']}), but its moves do not end "
            "the game: the record is cut short or changed"
        )
    warning = ""
    if outcome is None and not record.result and draws == rng.MIXED:
        warning = (
            "the record has no 'result:' line and its moves do not end the game, so only the "
            "moves it holds are checked: a finished game's record has its result"
        )
    if record.result:
        if outcome is None:
            raise VerificationFailed(
                f"the record says the result was '{record.result}', but its moves do not end the game"
            )
        replayed = records.format_result(record.colours, outcome.scores, outcome.rank)
        if replayed != record.result:
            raise VerificationFailed(
                f"the moves replay to '{replayed}', not to the record's result '{record.result}'"
            )
        checked = True
    note = ""
    if record.version and record.version != rules.about.VERSION:
        note = f"played under rules {record.version}; replayed under {rules.about.VERSION}"
    return Verified(
        title=str(rules.title),
        colours=record.colours,
        seed_hash=digest,
        committed=bool(published),
        rng=algorithm,
        draws=draws,
        entropy=record.entropy,
        draw_seed=record.draw_seed,
        moves=len(record.moves),
        outcome=outcome,
        result_checked=checked,
        version_note=note,
        warning=warning,
    )


def split_record_or_fail(text: str) -> tuple[dict[str, str], list[tuple[int, str]]]:
    try:
        return split_record(text)
    except IllegalCommand as error:
        raise VerificationFailed(f"not a game record: {error.message}") from None


def _parse(rules: Rules, state: Any, text: str, seat: int) -> Any:
    """The game's notation read for the seat that wrote the line (a game whose notation takes
    no seat reads it alike for every seat)."""
    return rules.parse_command(state, text, seat)


def main(argv: Sequence[str], out: Any = None, err: Any = None) -> int:
    """Verify the record in the file ``argv[0]``, print what was verified; 0 when it
    verifies, 1 when it does not, 2 on a usage error."""
    out = out or sys.stdout
    err = err or sys.stderr
    if len(argv) != 1:
        print(USAGE, file=err)
        return 2
    try:
        text = Path(argv[0]).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"FAILED: cannot read {argv[0]}: {error}", file=err)
        return 1
    try:
        verified = verify_record(text)
    except VerificationFailed as error:
        print(f"FAILED: {error}", file=err)
        return 1
    for line in verified.lines():
        print(line, file=out)
    return 0
