"""``manage.py enter_game``: enter a game played elsewhere by hand, one line at a time."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import jobs, services
from games.rules.base import IllegalCommand
from games.rules.entry import HELP, Answer, Draft

WORDS = ("board", "legal", "undo", "text", "help", "import", "quit")


class Command(BaseCommand):
    help = (
        "Enter a game played elsewhere by hand: its header, then one line at a time ('colour: "
        "command', 'chance: outcome', '# comment'), each answered at once with what the engine made "
        "of it or why it is not possible and what was legal there. With FILE, every line taken is "
        "saved there at once and a later run continues from it. 'import' makes it a game of the "
        "service (as import_game does); 'board', 'legal', 'undo', 'text' and 'help' are at hand."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "file", nargs="?", metavar="FILE", help="the draft: saved after every line, continued"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"]) if options["file"] else None
        boards = lambda rules, name: services.board(name, rules)  # noqa: E731
        draft = Draft(boards, services.parse_command)
        if path is not None and path.exists():
            draft, said = Draft.load(path.read_text(encoding="utf-8"), boards, services.parse_command)
            lines = len(draft.reader.lines) if draft.reader else 0
            self.stdout.write(
                f"Continuing {path}: {len(draft.header)} header line(s), {lines} line(s) after it."
            )
            if said:
                self.stdout.write(said)
            self.stdout.write(draft.next_up())
        else:
            self.stdout.write(HELP)
        interactive = sys.stdin.isatty()
        while True:
            if interactive:
                self.stdout.write("> ", ending="")
                self.stdout.flush()
            raw = sys.stdin.readline()
            if not raw:  # the end of the input: what was taken is saved
                break
            line = raw.rstrip("\n")
            word = line.strip().lower()
            if word in WORDS:
                if word == "quit":
                    break
                if word == "import":
                    self._import(draft)
                    return
                self.stdout.write(self._word(draft, word))
                if word == "undo" and path is not None:
                    path.write_text(draft.text, encoding="utf-8")
                continue
            answer = draft.feed(line)
            self.stdout.write(_said(answer))
            if answer.ok and path is not None:
                path.write_text(draft.text, encoding="utf-8")
        if path is not None:
            self.stdout.write(f"Saved to {path}; run enter_game {path} again to go on.")

    def _word(self, draft: Draft, word: str) -> str:
        if word == "board":
            return draft.board()
        if word == "legal":
            legal = draft.legal()
            return "\n".join([draft.next_up(), *(f"  {line}" for line in legal)])
        if word == "undo":
            return _said(draft.undo())
        if word == "text":
            return draft.text.rstrip("\n")
        return HELP

    def _import(self, draft: Draft) -> None:
        try:
            draft.finished()
        except IllegalCommand as error:
            raise CommandError(f"Not complete: {error.message}") from None
        try:
            game = jobs.import_record(draft.text)
        except jobs.JobError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(jobs.describe_imported(game))


def _said(answer: Answer) -> str:
    head = ("ok: " if answer.ok else "refused: ") + answer.text
    if answer.legal and (not answer.ok or answer.waiting):
        shown = list(answer.legal[:12])
        more = f"  … and {len(answer.legal) - 12} more" if len(answer.legal) > 12 else ""
        return "\n".join(
            [head, "  legal here:", *(f"    {line}" for line in shown)] + ([more] if more else [])
        )
    return head
