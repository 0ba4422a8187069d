# ruff: noqa: E501  (the layouts are data, one per line as the clients write them)
"""The layouts of real mail clients around a reply (issue 29), each kind tested in several of
its real forms, written as the clients write them (their attribution, header-block, marker and
signature formats as seen in their own mails and in the public reply-parsing corpora, e.g.
crisp-oss/email-reply-parser's fixtures in corpus/crisp): the player's command is what is left.

The kinds: a reply written below an attribution and the quote (bottom-posting), text under a
forward's header block with nothing above it, invisible tracking characters, Outlook's header
block in more languages, attributions that begin with a numeric date and time or name
"<name> via <service>", attributions wrapped over two lines in English and German, decorated
"Original Message" markers, and German mobile apps' "sent from" signatures.  Closing lines and
quoted lines stay dropped, as COMMANDS.md says."""

from __future__ import annotations

import pytest

from notifications.inbound.parsing import parse_message, strip_reply

Q = "> Your move: place a marker.\n> What you can do now:\n>   place Ningxia\n"

LAYOUTS = {
    "bottom_tb": f"On 28.11.2026 09:00, White Lotus wrote:\n{Q}\nplace Ningxia\n",
    "bottom_gmail": f"On Sat, Nov 28, 2026 at 9:00 AM White Lotus <play+abc@lotus.test> wrote:\n\n{Q}\n\nplace Ningxia\n",
    "bottom_numeric": f"28.11.2026 09:00 GMT+01:00, White Lotus <play@lotus.test>:\n{Q}\nplace Ningxia\n",
    "bottom_no_verb": f"White Lotus <play@lotus.test> schrieb am Sa., 28. Nov. 2026, 09:00:\n\n{Q}\nplace Ningxia\n",
    "fwd_own": "---------- Forwarded message ---------\nFrom: Ada <ada@example.org>\nDate: Sat, Nov 28, 2026 at 9:00 AM\nSubject: Re: Your move\nTo: <play+tok@lotus.test>\n\nplace Ningxia\n",
    "fwd_apple": "Begin forwarded message:\n\nFrom: Ada <ada@example.org>\nSubject: Re: Your move\nDate: 28 November 2026 at 09:00:00 CET\nTo: play+tok@lotus.test\n\nplace Ningxia\n",
    "invisible": "place Ningxia\n\u200c\u034f \u200c\u034f \u200c\u034f\n\ufeff\u200b\n",
    "fi": "place Ningxia\n\nLähettäjä: White Lotus <play@lotus.test>\nLähetetty: lauantai 28. marraskuuta 2026 9.00\nVastaanottaja: Ada <ada@example.org>\nAihe: Your move\n\nsomething\n",
    "tr": "place Ningxia\n\nKimden: White Lotus <play@lotus.test>\nGönderildi: 28 Kasım 2026 Cumartesi 09:00\nKime: Ada\nKonu: Your move\n\nsomething\n",
    "hu": "place Ningxia\n\nFeladó: White Lotus <play@lotus.test>\nElküldve: 2026. november 28. 9:00\nCímzett: Ada\nTárgy: Your move\n\nsomething\n",
    "es": "place Ningxia\n\nDe: White Lotus <play@lotus.test>\nEnviado: sábado, 28 de noviembre de 2026 9:00\nPara: Ada\nAsunto: Your move\n\nsomething\n",
    "fr": "place Ningxia\n\nDe : White Lotus <play@lotus.test>\nEnvoyé : samedi 28 novembre 2026 09:00\nÀ : Ada\nObjet : Your move\n\nsomething\n",
    "de_blank": "place Ningxia\n\nVon: White Lotus <play@lotus.test>\n\nGesendet: Samstag, 28. November 2026 09:00\n\nAn: Ada\n\nBetreff: Your move\n\nsomething\n",
    "ro": "place Ningxia\n\nDe la: White Lotus <play@lotus.test>\nTrimis: sâmbătă, 28 noiembrie 2026 09:00\nCătre: Ada\nSubiect: Your move\n\nsomething\n",
    "el": "place Ningxia\n\nΑπό: White Lotus <play@lotus.test>\nΣτάλθηκε: Σάββατο, 28 Νοεμβρίου 2026 9:00 πμ\nΠρος: Ada\nΘέμα: Your move\n\nsomething\n",
    "numeric_attr": "place Ningxia\n\n28.11.2026 09:00 White Lotus wrote:\n\nsomething\n",
    "numeric_attr2": "place Ningxia\n\n2026-11-28 9:00 GMT+01:00 White Lotus <play@lotus.test>:\nsomething\n",
    "numeric_attr3": "place Ningxia\n\n11/28/2026 9:00 AM, White Lotus wrote:\nsomething\n",
    "via": "place Ningxia\n\nWhite Lotus via lotus wrote:\nsomething\n",
    "via2": "place Ningxia\n\nOn Sat, 28 Nov 2026, White Lotus via lotus <play@lotus.test> wrote:\nsomething\n",
    "via3": "place Ningxia\n\nWhite Lotus via Lotus Games <play@lotus.test> schrieb am Sa., 28. Nov. 2026:\nsomething\n",
    "wrap_en": "place Ningxia\n\nOn Sat, Nov 28, 2026 at 9:00 AM White Lotus\n<play+abcdef@lotus.test> wrote:\nsomething\n",
    "wrap_en2": "place Ningxia\n\nOn 28/11/2026 09:00, White Lotus wrote:\nsomething\n",
    "wrap_en3": "place Ningxia\n\nOn Saturday, November 28, 2026, White Lotus <play@lotus.test>\nwrote:\nsomething\n",
    "wrap_de": "place Ningxia\n\nAm Sa., 28. Nov. 2026 um 09:00 Uhr schrieb White Lotus\n<play@lotus.test>:\nsomething\n",
    "wrap_de2": "place Ningxia\n\nAm 28.11.2026 um 09:00 schrieb White\nLotus:\nsomething\n",
    "orig1": "place Ningxia\n\n----- Original Message -----\nsomething\n",
    "orig2": "place Ningxia\n\n*** Original Message ***\nsomething\n",
    "orig3": "place Ningxia\n\n——— Original Message ———\nsomething\n",
    "orig4": "place Ningxia\n\n-----Ursprüngliche Nachricht-----\nsomething\n",
    "orig5": "place Ningxia\n\n-------- Original message --------\nFrom: White Lotus\nsomething\n",
    "orig6": "place Ningxia\n\n[Original Message]\nsomething\n",
    "orig7": "place Ningxia\n\n– Original Message –\nsomething\n",
    "de_sig1": "place Ningxia\n\nDiese Nachricht wurde von meinem Android-Mobiltelefon mit GMX Mail gesendet.\n",
    "de_sig2": "place Ningxia\n\nVon meinem iPhone gesendet\n",
    "de_sig3": "place Ningxia\n\nGesendet von meinem Huawei Mobiltelefon\n",
    "de_sig4": "place Ningxia\n\nGesendet mit der WEB.DE Mail App\n",
    "de_sig5": "place Ningxia\n\nVon meinem/meiner Galaxy gesendet\n",
    "de_sig6": "place Ningxia\n\nDiese Nachricht wurde von meinem Android Mobiltelefon mit WEB.DE Mail gesendet.\n",
    "de_sig7": "place Ningxia\n\nGesendet von Outlook für Android<https://aka.ms/AAb9ysg>\n",
    "de_sig8": "place Ningxia\n\nVon meinem Samsung Galaxy Smartphone gesendet.\n",
    "de_sig9": "place Ningxia\n\nMit freundlichen Grüßen\nVon meinem iPad gesendet\n",
    "via_q": "place Ningxia\n\n'White Lotus' via Lotus Games <play@lotus.test> wrote:\nsomething\n",
    "via_on_wrap": "place Ningxia\n\nOn Sat, Nov 28, 2026 at 9:00 AM 'White Lotus' via Lotus Games <\nplay@lotus.test> wrote:\nsomething\n",
    "via_noaddr": "place Ningxia\n\nOn Sat, Nov 28, 2026 at 9:00 AM 'White Lotus' via Lotus Games wrote:\nsomething\n",
    "via_de": "place Ningxia\n\nAm Sa., 28. Nov. 2026 um 09:00 Uhr schrieb 'White Lotus' via Lotus Games <\nplay@lotus.test>:\nsomething\n",
    "num_rfc": "place Ningxia\n\nSat, 28 Nov 2026 09:00:00 +0100 White Lotus <play@lotus.test>:\nsomething\n",
    "num_iso_wrote": 'place Ningxia\n\n2026-11-28 09:00 GMT+01:00 "White Lotus" <play@lotus.test> wrote:\nsomething\n',
    "num_us": "place Ningxia\n\n11/28/26 9:00 AM White Lotus <play@lotus.test> wrote:\nsomething\n",
    "num_fr": "place Ningxia\n\n28/11/2026 09:00, White Lotus <play@lotus.test> a écrit :\nsomething\n",
    "num_de_no_addr": "place Ningxia\n\n28.11.2026 09:00 schrieb White Lotus:\nsomething\n",
    "num_time_first": "place Ningxia\n\n09:00, 28.11.2026, White Lotus wrote:\nsomething\n",
    "num_wrapped": "place Ningxia\n\n28.11.2026 09:00 GMT+01:00 White Lotus\n<play@lotus.test>:\nsomething\n",
    "num_wrapped2": "place Ningxia\n\n2026年11月28日(土) 9:00 White Lotus <\nplay@lotus.test>:\nsomething\n",
    "wrap_en_short": "place Ningxia\n\nOn Sat, Nov 28,\n2026 at 9:00 AM White Lotus <play@lotus.test> wrote:\nsomething\n",
    "wrap_en_3": "place Ningxia\n\nOn Saturday, 28 November 2026 at 09:00:00 CET, White Lotus\n<play@lotus.test>\nwrote:\nsomething\n",
    "wrap_de_3": "place Ningxia\n\nWhite Lotus <play@lotus.test> schrieb am Sa., 28. Nov.\n2026, 09:00:\nsomething\n",
    "wrap_de_4": "place Ningxia\n\nAm Samstag, 28. November 2026, 09:00:00 CET schrieb White Lotus\n<play@lotus.test>:\nsomething\n",
    "wrap_de_5": "place Ningxia\n\nAm 28.11.2026 um 09:00 schrieb White Lotus\n<play+abcdefghijklmnopqrstuvwxyz@lotus.test>:\nsomething\n",
    "wrap_en_name": "place Ningxia\n\nWhite Lotus <play@lotus.test> wrote on Sat, Nov 28,\n2026 at 9:00 AM:\nsomething\n",
    "bottom_attr_wrapped": "On Sat, Nov 28, 2026 at 9:00 AM White Lotus <\nplay@lotus.test> wrote:\n\n> Your move\n> place Ningxia\n\nplace Ningxia\n",
    "bottom_de_wrapped": "Am Sa., 28. Nov. 2026 um 09:00 Uhr schrieb White Lotus <\nplay@lotus.test>:\n\n> Your move\n>\n\nplace Ningxia\n",
    "bottom_outlook_quote": "-----Original Message-----\nFrom: White Lotus <play@lotus.test>\nSent: Saturday\nTo: Ada\nSubject: Your move\n\n> Your move\n\nplace Ningxia\n",
    "bottom_after_sig": "On Sat, Nov 28, 2026 at 9:00 AM White Lotus <play@lotus.test> wrote:\n> Your move\n> --\n> White Lotus by mail\n\nplace Ningxia\n",
    "bottom_nested": "On Sat, Nov 28, 2026 Ada wrote:\n> On Fri, Nov 27 White Lotus wrote:\n>> Your move\n> place 3\n\nplace Ningxia\n",
    "bottom_quote_blank": "White Lotus wrote:\n\n> Your move\n\n> more\n\nplace Ningxia\n",
    "dated_via": "place Ningxia\n\n2013/7/20 ada via Lotus Games <play@lotus.test>\n\n> Your move\n",
    "dated_via_unmarked": "place Ningxia\n\n2013/7/20 ada via Lotus Games <play@lotus.test>\n\nsomething\n",
    "dated_via_wrapped": "place Ningxia\n\n2013/7/20 ada via Lotus Games <\nplay@lotus.test>\n\nsomething\n",
    "dated_addr": "place Ningxia\n\n2011/4/7 White Lotus <play@lotus.test>\n\nsomething\n",
    "signoff_galaxy": "place Ningxia\n\nSent from my Galaxy, please excuse any typos.\n",
    "signoff_iphone6": "place Ningxia\n\nFrom my iPhone 6\n",
    "signoff_galaxy_s7": "place Ningxia\n\nFrom my Samsung Galaxy S7\n",
    "signoff_cell": "place Ningxia\n\nSent from my cell\n",
    "signoff_brevity": "place Ningxia\n\nSent from my iPhone - please excuse brevity\n",
    "signoff_de_typos": "place Ningxia\n\nVon meinem iPhone gesendet. Bitte entschuldigen Sie Tippfehler.\n",
    "it_from_wrapped": "place Ningxia\n\nDa: White Lotus Games Service <\nplay+q7xk2m4wz3c5vnb6yd2a4h7efg@lotus.test>\nInviato: sabato 28 novembre 2026 09:00\nA: Ada\nOggetto: Re: Your move\n\nsomething\n",
    "it_mac": "place Ningxia\n\nDa: White Lotus <play@lotus.test>\nData: sabato, 28 novembre 2026 09:00\nA: Ada <ada@example.org>\nOggetto: Re: Your move\n\nsomething\n",
    "es_enviado_el": "place Ningxia\n\nDe: White Lotus <play@lotus.test>\nEnviado el: sábado, 28 de noviembre de 2026 9:00\nPara: Ada\nAsunto: Your move\n\nsomething\n",
    "pt_enviada": "place Ningxia\n\nDe: White Lotus <play@lotus.test>\nEnviada: 28 de novembro de 2026 09:00\nPara: Ada\nAssunto: Your move\n\nsomething\n",
    "nl_block": "place Ningxia\n\nVan: White Lotus <play@lotus.test>\nVerzonden: zaterdag 28 november 2026 09:00\nAan: Ada\nOnderwerp: Your move\n\nsomething\n",
    "sv_block": "place Ningxia\n\nFrån: White Lotus <play@lotus.test>\nSkickat: den 28 november 2026 09:00\nTill: Ada\nÄmne: Your move\n\nsomething\n",
    "da_block": "place Ningxia\n\nFra: White Lotus <play@lotus.test>\nSendt: 28. november 2026 09:00\nTil: Ada\nEmne: Your move\n\nsomething\n",
    "no_block": "place Ningxia\n\nFra: White Lotus <play@lotus.test>\nSendt: lørdag 28. november 2026 09:00\nTil: Ada\nEmne: Your move\n\nsomething\n",
    "pl_block": "place Ningxia\n\nOd: White Lotus <play@lotus.test>\nWysłano: sobota, 28 listopada 2026 09:00\nDo: Ada\nTemat: Your move\n\nsomething\n",
    "cs_block": "place Ningxia\n\nOd: White Lotus <play@lotus.test>\nOdesláno: sobota 28. listopadu 2026 9:00\nKomu: Ada\nPředmět: Your move\n\nsomething\n",
    "gmail_date_first": "place Ningxia\n\n2016-03-03 17:21 GMT+01:00 White Lotus <play@lotus.test>:\n\nsomething\n",
    "gmail_wrote_own_line": "place Ningxia\n\nOn Thu, 31 Mar 2016 at 11:16 White Lotus\nwrote:\n\nsomething\n",
    "de_no_um_cut_in_address": 'place Ningxia\n\nAm 21.04.2016 17:48 schrieb "White Lotus" <play+q7xk2m4wz3c5vnb6yd2a4h7efg@lotus.\nexample>:\nsomething\n',
    "de_no_um_cut_in_local_part": 'place Ningxia\n\nAm 21.04.2016 17:48 schrieb "White Lotus" <play+q7xk2m4\nwz3c5vnb6yd2a4h7efg@lotus.example>:\n> something\n',
    "tracking_glyph": "place Ningxia\n\n\u1427\n",
    "tracking_glyph_padded": "place Ningxia\n\u200c\n\u1427\n\u2800\n",
    "fwd_wrapped_subject": "---------- Forwarded message ---------\nFrom: Ada <ada@example.org>\nDate: Sat, Nov 28, 2026 at 9:00 AM\nSubject: Re: [White Lotus] Your move: place a control\nmarker\nTo: <play+tok@lotus.test>\n\nplace Ningxia\n",
    "fwd_folded_subject": "---------- Forwarded message ---------\nFrom: Ada <ada@example.org>\nDate: Sat, Nov 28, 2026 at 9:00 AM\nSubject: Re: [White Lotus] Your move: place a control\n marker\nTo: White Lotus <play+tok@lotus.test>\n\nplace Ningxia\n",
    "fwd_wrapped_to": "---------- Forwarded message ---------\nFrom: Ada <ada@example.org>\nDate: Sat, Nov 28, 2026 at 9:00 AM\nSubject: Re: Your move\nTo: White Lotus <\nplay+abcdefghijklmnopqrstuvwxyz@lotus.test>\n\nplace Ningxia\n",
    "fwd_subject_last_wrapped": "Begin forwarded message:\n\nFrom: Ada <ada@example.org>\nDate: 28 November 2026 at 09:00:00 CET\nTo: play+tok@lotus.test\nSubject: Re: [White Lotus] Your move: place a control marker in a province of\nyour choice\n\nplace Ningxia\n",
}


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_the_command_is_what_is_left_of_a_real_clients_layout(name):
    assert strip_reply(LAYOUTS[name]).strip() == "place Ningxia"


def test_text_that_only_mentions_dates_forwards_and_sent_from_is_kept():
    text = (
        "Sent from home, as promised:\n28.11.2026 09:00 is fine for me\n"
        "I forwarded the message to Bao\nplace Ningxia"
    )
    assert strip_reply(text) == text


def test_a_forward_of_a_game_mail_with_nothing_above_gives_its_greeting_which_is_refused():
    # the forwarded text is read, never applied blindly: a game mail starts with its greeting,
    # which is no command, so the whole mail is refused (a mail is applied whole or not at all)
    text = "---------- Forwarded message ---------\nFrom: White Lotus <play@lotus.test>\nTo: Ada\n\nHello Ada,\n  place Ningxia\n"
    assert strip_reply(text).split("\n")[0] == "Hello Ada,"


def test_a_bottom_posted_reply_in_a_real_mail_is_read_whole():
    raw = (
        b"From: Ada <ada@example.org>\r\nTo: play+tok@lotus.test\r\nSubject: Re: Your move\r\n"
        b"Message-ID: <b1@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        b"Am Sa., 28. Nov. 2026 um 09:00 Uhr schrieb White Lotus <\r\nplay+tok@lotus.test>:\r\n\r\n"
        b"> Du bist am Zug\r\n>\r\n\r\nsetze Ningxia\r\n\r\nVon meinem iPhone gesendet\r\n"
    )
    assert parse_message(raw).lines == ("setze Ningxia",)


@pytest.mark.parametrize(
    "text",
    [
        "Hi,\nThanks, here are my moves:\nplace Ningxia\nbid red 3",
        "stand\nGruß\npass",
        "Danke\nGrüße an alle\nsetze Ningxia",
        "Hi,\nBest, Ada\nside rebels",
        "Salut\nCordialement vôtre, voici:\npose Ningxia",
        "My moves\n----------\nplace Ningxia\nbid red 3",
        "Meine Züge:\n__________________\nsetze Ningxia",
    ],
)
def test_a_line_taken_for_a_signature_never_drops_a_command_below_it(text):
    # mail-parser-reply cuts at any line starting "Thanks," / "Grüße" / "Best," / "Cordialement"
    # and drops everything below it, and a separator line with a few lines under it looks like a
    # footer: a mail is applied whole or not at all, so every command stays (and prose between
    # commands is refused, never silently lost with the commands under it)
    expected = "\n".join(line for line in text.split("\n") if line.strip("-_"))
    assert strip_reply(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "place Ningxia\n\nFrom my phone I see nothing of the board",
        "place Ningxia\n\nSent from my iPhone, then I went home",
        "place Ningxia\n\n2013/7/20 was the day I learned the game",
    ],
)
def test_sentences_that_start_like_a_sign_off_or_an_attribution_are_kept(text):
    assert strip_reply(text) == text


def test_a_command_under_a_forwarded_subject_is_never_taken_for_its_wrapped_end():
    # the line under a long last field is its wrapped end only when it could not be a command:
    # this one is read (and refused with the greeting above it), never dropped
    subject = "Subject: Re: [White Lotus] Your move: place a control marker in one province"
    text = f"---------- Forwarded message ---------\nFrom: Ada <ada@example.org>\n{subject}\nplace Ningxia\n\nHello"
    assert strip_reply(text) == "place Ningxia\n\nHello"


@pytest.mark.parametrize(
    "text",
    [
        "place Ningxia\n2026/11/28 is the date\n<ada@example.org>\npass",
        "place Ningxia\nDa: White Lotus <play@lotus.test>\npass\nInviato: sabato",
        "place Ningxia\nFrom: Ada <ada@example.org>\nHi\nTo: Bao",
        "On Sat, Nov 28, 2026 at 9:00 AM White Lotus\npass\nwrote:\nsomething",
    ],
)
def test_no_command_or_short_line_is_taken_for_a_wrapped_field_or_attribution(text):
    # a field or an attribution is wrapped only where a client wraps (a line near the width, an
    # open "<"), a date and an address only inside the address, and never over a command
    assert strip_reply(text) == text
