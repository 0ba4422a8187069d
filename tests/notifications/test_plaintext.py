"""The wrapping every text part goes through (notifications.outbound.plaintext), on hand-made lines."""

from __future__ import annotations

from django.utils.translation import gettext

from games.rules import registry
from notifications.outbound.plaintext import LIMIT, SIGNATURE, WIDTH, wrap, wrap_line

PROSE = (
    "How to play by mail: reply to the mails of this game with one command per line. Lines "
    "starting with # are ignored, and so is the quoted text of the mail you answer."
)
MENU = (
    "  place <province>  where <province> is one of: Shazhou (1), Guazhou (2), Zhangye (3), "
    "Ningxia (4), Shangdu (5), Dadu (6), Jiuquan (7), Liangzhou (8), Lanzhou (9)"
)


def test_a_paragraph_is_wrapped_between_words_at_the_width():
    lines = wrap(PROSE).splitlines()
    assert len(lines) == 3 and all(len(line) <= WIDTH for line in lines)
    assert " ".join(lines) == PROSE


def test_a_menu_line_breaks_between_its_provinces_and_hangs_under_itself():
    lines = wrap(MENU).splitlines()
    assert lines[0].startswith("  place <province>  where")  # its double space kept
    assert all(line.startswith("      ") for line in lines[1:])  # never at the menu's own indent
    assert all(len(line) <= WIDTH for line in lines)
    for name in ("Shazhou (1),", "Ningxia (4),", "Liangzhou (8),", "Lanzhou (9)"):
        assert any(name in line for line in lines), name  # a name is never parted from its number
    assert " ".join(line.strip() for line in lines) == MENU.strip()


def test_a_bullet_continues_under_its_text():
    lines = wrap_line("  - " + PROSE)
    assert lines[0].startswith("  - ") and all(line.startswith("    ") for line in lines[1:])


def test_a_url_gets_a_line_of_its_own_and_is_never_broken():
    url = "https://lotus.test/games/seat/" + "k" * 70 + "/"
    assert wrap(f"Your page (keep it private): {url} (see there)").splitlines() == [
        "Your page (keep it private):",
        url,
        "(see there)",
    ]
    assert len(url) > LIMIT  # longer than any line may be, still whole


def test_the_signature_separator_is_dash_dash_space_and_blank_lines_are_single():
    text = wrap("Hello,\n\n\n\nbody\n--\nWhite Lotus by mail\n\n")
    assert text == f"Hello,\n\nbody\n{SIGNATURE}\nWhite Lotus by mail\n"


def test_a_short_line_is_left_as_it_is():
    board = " 16 Fengxiang *  village    Blue  [Red, Yellow]"
    assert wrap(board) == board + "\n"


def test_a_players_long_board_line_is_broken_after_a_semicolon_and_indented():
    view = {
        "areas": [
            {
                "in_play": True,
                "number": 1,
                "name": "Xian",
                "lotus": True,
                "dragon": False,
                "building": None,
                "owner": None,
                "markers": [],
            }
        ],
        "players": [
            {
                "colour": "yellow",
                "emperor": True,
                "chips": {"village": 4, "palace": 2, "temple": 1, "fort": 3, "ricefield": 2},
                "vp_chips": 3,
                "score": {"total": 21},
            }
        ],
    }
    lines = registry.get("whitelotus").text_board(view, {"yellow": "Dara Featherstonehaugh"}, gettext)[3:]
    assert lines == [
        "Yellow Dara Featherstonehaugh (emperor): chips village 4, palace 2,",
        "    temple 1, fort 3, ricefield 2; VP chips 3; score 21",
    ]
