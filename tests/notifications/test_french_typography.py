"""French typography, set by one function at render time (games.presentation.typography)."""

from __future__ import annotations

from games.presentation.typography import NBSP, NNBSP, french_typography, french_typography_html
from notifications.outbound.plaintext import wrap


def test_a_colon_gets_a_no_break_space_whether_the_string_had_a_space_or_none():
    assert french_typography("Date limite : demain") == f"Date limite{NBSP}: demain"
    assert french_typography("(ou: mise vert 0)") == f"(ou{NBSP}: mise vert 0)"


def test_semicolon_exclamation_and_question_marks_get_a_narrow_no_break_space():
    assert french_typography("jetons - ; score 0") == f"jetons -{NNBSP}; score 0"
    assert french_typography("Bravo !") == f"Bravo{NNBSP}!"
    assert french_typography("Vraiment?") == f"Vraiment{NNBSP}?"
    assert french_typography("Quoi ?!") == f"Quoi{NNBSP}?!"


def test_times_urls_and_addresses_are_left_as_they_are():
    assert french_typography("avant mer 09:00 UTC") == "avant mer 09:00 UTC"
    url = "https://example.org/seat/abc?token=x:y"
    assert french_typography(f"Votre page : {url}") == f"Votre page{NBSP}: {url}"
    assert french_typography("mailto:ada@example.org") == "mailto:ada@example.org"
    assert french_typography("score 2:1") == "score 2:1"


def test_a_line_quoted_from_the_players_mail_is_left_as_they_wrote_it():
    text = "Cette ligne a échoué :\n  > dis bleu: salut!"
    assert french_typography(text) == f"Cette ligne a échoué{NBSP}:\n  > dis bleu: salut!"


def test_guillemets_get_no_break_spaces_and_double_quotes_around_prose_become_guillemets():
    assert french_typography("écrivez « mail digest »") == f"écrivez «{NBSP}mail digest{NBSP}»"
    assert french_typography('la ligue "Atlantis"') == f"la ligue «{NBSP}Atlantis{NBSP}»"
    assert french_typography("la ligue “Atlantis”") == f"la ligue «{NBSP}Atlantis{NBSP}»"


def test_applying_it_twice_changes_nothing_more():
    text = "Date limite : 09:00 ; « ici » ! Vraiment ?"
    once = french_typography(text)
    assert french_typography(once) == once


def test_html_gets_it_in_its_text_but_not_in_tags_attributes_or_code():
    assert french_typography_html("<p>&lt;province&gt; : x</p>") == f"<p>&lt;province&gt;{NBSP}: x</p>"
    html = '<p title="a: b">Date limite : demain</p><pre>dis bleu: salut</pre><code>x ;</code>'
    assert french_typography_html(html) == (
        f'<p title="a: b">Date limite{NBSP}: demain</p><pre>dis bleu: salut</pre><code>x ;</code>'
    )


def test_a_line_is_never_wrapped_at_the_no_break_space():
    line = french_typography("mot " * 17 + "fin : suite de la phrase")
    for out in wrap(line).splitlines():
        assert not out.startswith(":")
    assert f"fin{NBSP}:" in wrap(line)


def test_table_talk_is_relayed_as_the_player_wrote_it():
    assert french_typography("Rouge vous dit :\n  | hello!") == f"Rouge vous dit{NBSP}:\n  | hello!"
    html = '<p>Rouge dit :</p><blockquote>hello!</blockquote><span class="said">ok?</span> fin ?'
    assert french_typography_html(html) == (
        f'<p>Rouge dit{NBSP}:</p><blockquote>hello!</blockquote><span class="said">ok?</span> fin{NNBSP}?'
    )
