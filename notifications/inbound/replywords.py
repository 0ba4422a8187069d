"""What mail clients write around a reply, in the languages of the world's clients (data only).

Used by :mod:`notifications.inbound.quotes` and its :mod:`~notifications.inbound.attributions` and
:mod:`~notifications.inbound.replyheaders`. Gathered from the clients' own strings (Gmail, Outlook
desktop and mobile, Apple Mail, Thunderbird's ``mailnews.reply_header_*``, Android and iOS mail)
in at least en, de, fr, nl, es, it, pt, pl, sv, da, no, cs, ru, uk, ja and zh. Everything is
compared lower-cased, after no-break spaces became spaces.
"""

from __future__ import annotations

import re

# "wrote" as attribution lines say it: "On … wrote:", "Am … schrieb …:", "Le … a écrit :",
# "Op … schreef … het volgende:", "El … escribió:", "Em … escreveu:", "Il … ha scritto:",
# "… napisał(a):", "Den … skrev …:", "Dne … napsal(a):", "… пользователь … написал:",
# "… написав(ла):", "… 写道：", "…のメッセージ:".
WROTE = re.compile(
    r"(?:^|[\s>\"'”),])(?:wrote|writes|schrieb|geschrieben|a écrit|écrit|schreef|geschreven"
    r"|escribió|escreveu|ha scritto|scrisse|napisał\(a\)|napisała?|nadesłał|skrev|skriver"
    r"|napsal\(a\)|napsala?|написал\(а\)|написала?|пишет|написав\(ла\)|написав|пише|kirjoitti|írta"
    r"|yazdı)(?=[\s:：(]|$)"
    r"|写道|寫道|のメッセージ|は書きました|書きました",
)

# The first word of an attribution that begins with its date: "On", "Am", "Le", "Op", "El",
# "Em", "Il", "Den", "Dnia", "Dne", "В" (and a digit or weekday, tested apart).
INTRO_WORDS = frozenset(
    {"on", "am", "le", "op", "el", "em", "il", "den", "dnia", "dne", "dňa", "в", "у", "w", "el día"}
)

# Header fields of a quoted message's header block (Outlook, Apple Mail forwards, webmail).
FROM_FIELDS = frozenset(
    {
        *("from", "von", "de", "van", "da", "od", "fra", "från", "от", "від", "kimden", "feladó"),
        *("lähettäjä", "发件人", "寄件者", "差出人", "送信者"),
        # Outlook's header block in more languages (Office's own strings): ro, el, ca, hr/sr,
        # lt, et, bg, ko, ar, he, vi, id, ms
        *("de la", "από", "šalje", "nuo", "saatja", "보낸 사람", "من", "מאת", "từ", "dari"),
    }
)
OTHER_FIELDS = frozenset(
    {
        *("sent", "to", "cc", "bcc", "date", "subject", "reply-to", "organization"),
        *("gesendet", "an", "datum", "betreff", "kopie", "antwort an"),
        *("envoyé", "à", "a", "objet", "date d'envoi", "répondre à"),
        *("verzonden", "aan", "onderwerp", "verstuurd"),
        *("enviado", "enviada", "enviado el", "enviado em", "enviada em", "para", "asunto", "fecha"),
        *("assunto", "data", "inviato", "oggetto", "cc:"),
        *("wysłano", "wysłane", "do", "temat", "dw", "kopia"),
        *("sendt", "til", "emne", "dato", "kopi"),
        *("skickat", "till", "ämne", "kopia"),
        *("odesláno", "komu", "předmět"),
        *("отправлено", "кому", "тема", "дата", "копия"),
        *("надіслано", "копія"),
        *("收件人", "发送时间", "主题", "抄送", "日期", "收件者", "主旨", "副本", "傳送時間"),
        *("送信日時", "宛先", "件名", "日付"),
        *("lähetetty", "vastaanottaja", "aihe", "kopio", "päivämäärä"),  # fi
        *("gönderildi", "gönderilme tarihi", "kime", "konu", "bilgi", "tarih"),  # tr
        *("elküldve", "címzett", "tárgy", "másolatot kap", "dátum"),  # hu
        *("trimis", "către", "subiect"),  # ro
        *("στάλθηκε", "προς", "θέμα", "κοιν", "ημερομηνία"),  # el
        *("enviat", "per a", "assumpte"),  # ca
        *("poslano", "prima", "predmet", "odoslané", "zadeva"),  # hr, sr, sk, sl
        *("išsiųsta", "kam", "saadetud", "adressaat", "teema"),  # lt, et
        *("изпратено", "до", "относно"),  # bg
        *("보낸 날짜", "받는 사람", "제목", "참조"),  # ko
        *("تم الإرسال", "إلى", "الموضوع", "נשלח", "אל", "נושא"),  # ar, he
        *("đã gửi", "đến", "chủ đề", "dikirim", "kepada", "perihal", "subjek"),  # vi, id
    }
)
_FIELD_NAMES = sorted(FROM_FIELDS | OTHER_FIELDS, key=len, reverse=True)
# "From: …", "*From:* …", "De : …" (French puts a space before the colon), "发件人：…".
FIELD = re.compile(
    r"\*{0,2}(" + "|".join(re.escape(name) for name in _FIELD_NAMES) + r")\*{0,2} ?[:：]",
    re.IGNORECASE,
)

# "-----Original Message-----" and the forward markers, between dashes (or underscores).
ORIGINAL_MESSAGE = frozenset(
    {
        *("original message", "ursprüngliche nachricht", "originalnachricht", "message d'origine"),
        *("message original", "mensaje original", "messaggio originale", "mensagem original"),
        *("oorspronkelijk bericht", "origineel bericht", "wiadomość oryginalna"),
        *("oryginalna wiadomość", "oprindelig meddelelse", "opprinnelig melding"),
        *("originalmelding", "ursprungligt meddelande", "originalmeddelande", "původní zpráva"),
        *("исходное сообщение", "оригинальное сообщение", "исходное письмо", "вихідне повідомлення"),
        *("оригінальне повідомлення", "початкове повідомлення", "原始邮件", "原始郵件", "原始信件"),
        *("元のメッセージ", "オリジナルメッセージ", "原文"),
        *("forwarded message", "weitergeleitete nachricht", "message transféré", "mensaje reenviado"),
        *("messaggio inoltrato", "mensagem encaminhada", "doorgestuurd bericht"),
        *("wiadomość przekazana dalej", "przekazana wiadomość", "videresendt meddelelse"),
        *("videresendt melding", "vidarebefordrat meddelande", "přeposlaná zpráva"),
        *("пересланное сообщение", "переслане повідомлення", "转发的邮件", "轉寄的郵件"),
        *("転送されたメッセージ", "nachricht weitergeleitet"),
        # more of Outlook's and webmails' languages: da, fi, hu, tr, ro, el, hr, sk, bg, ko,
        # ar, he, id, vi
        *("oprindelig besked", "original besked", "alkuperäinen viesti", "eredeti üzenet"),
        *("orijinal ileti", "özgün ileti", "mesaj original", "mesajul original", "αρχικό μήνυμα"),
        *("izvorna poruka", "pôvodná správa", "оригинално съобщение", "원본 메시지"),
        *("الرسالة الأصلية", "הודעה מקורית", "pesan asli", "thư gốc"),
        *("videresendt besked", "välitetty viesti", "továbbított üzenet", "iletilen ileti"),
        *("mesaj redirecționat", "προωθημένο μήνυμα", "proslijeđena poruka", "пренасочено съобщение"),
        *("전달된 메시지", "pesan yang diteruskan", "thư đã chuyển tiếp"),
    }
)
# The markers above that begin a forward (not a reply's "Original Message").
FORWARD_MARKERS = frozenset(
    marker
    for marker in ORIGINAL_MESSAGE
    if any(w in marker for w in ("forward", "weitergeleitet", "transféré", "reenviado", "inoltrato"))
    or any(
        w in marker for w in ("encaminhada", "doorgestuurd", "przekazan", "videresendt", "vidarebefordrat")
    )
    or any(w in marker for w in ("přeposlaná", "пересланное", "переслане", "转发", "轉寄", "転送"))
    or any(w in marker for w in ("välitetty", "továbbított", "iletilen", "redirecționat", "προωθημένο"))
    or any(w in marker for w in ("proslijeđena", "пренасочено", "전달된", "diteruskan", "chuyển tiếp"))
)
# Apple Mail's forward line, no dashes: "Begin forwarded message:".
FORWARD_LINES = frozenset(
    {
        *("begin forwarded message", "anfang der weitergeleiteten nachricht"),
        *("début du message réexpédié", "début du message transféré", "inicio del mensaje reenviado"),
        *("inizio messaggio inoltrato", "início da mensagem reencaminhada", "mensagem encaminhada"),
        *("begin doorgestuurd bericht", "początek przekazywanej wiadomości"),
        *("videresendt besked start", "videresendt melding", "vidarebefordrat mejl"),
        *("början på vidarebefordrat brev", "začátek přeposílané zprávy"),
        *("начало переадресованного сообщения", "початок пересланого повідомлення"),
        *("転送されたメッセージ", "转发的邮件", "以下是转发的邮件"),
    }
)

# A device or app signature line: "Sent from my iPhone", "Von meinem iPhone gesendet",
# "Envoyé de mon iPhone", "Enviado desde mi iPhone", "Verstuurd vanaf mijn iPhone",
# "Sendt fra min iPad", "Get Outlook for Android", "iPhoneから送信", "发自我的iPhone".
DEVICE_SIGNATURE = re.compile(
    r"(?:sent (?:from|with|via|using) |get outlook for |outlook for \S+ herunterladen"
    r"|this (?:message|e-?mail) was sent (?:from|with|using|via) "
    r"|von meine[mr](?:/meine[mr])? .+ gesendet|gesendet (?:von|mit|vom) "
    r"|diese (?:nachricht|e-?mail|mail) wurde (?:von|mit|über) .+ (?:gesendet|versendet|verschickt)"
    r"|ce (?:message|courriel|mail) a été envoyé (?:de|depuis|avec|à partir de) "
    r"|outlook für .+ (?:beziehen|herunterladen)"
    r"|holen sie sich outlook für |envoyé (?:de|depuis|à partir de|avec|par) |obtenir outlook pour "
    r"|télécharge[zr] outlook pour |enviado (?:desde|de|do|con|com|a partir do) |enviada (?:desde|de|do) "
    r"|obt(?:ener|én) outlook para |baixe o outlook para |obtenha o outlook para "
    r"|inviato (?:da|dal|dalla|con) |scarica outlook per |ottieni outlook per "
    r"|verstuurd (?:vanaf|van|met) |verzonden (?:vanaf|van|met) |outlook voor .+ downloaden"
    r"|download outlook voor |wysłane (?:z|ze|przy) |wysłano (?:z|ze) |pobierz (?:aplikację )?outlook "
    r"|skickat från |skickades från |hämta outlook för |sendt fra |hent outlook til |hent outlook for "
    r"|få outlook for |odesláno z |stáhněte si outlook |отправлено (?:с|из|со) |получите outlook для "
    r"|скачайте outlook для |надіслано (?:з|із|зі|від) |завантажте outlook для )"
    r".*"
    r"|from my (?:iphone|ipad|ipod|android|galaxy|samsung|blackberry|mobile|cell|phone|smartphone"
    r"|tablet|pixel|huawei|xiaomi|nokia|motorola|sony|kindle)"
    r"(?: (?:[\w+-]*\d[\w+-]*|plus|pro|max|mini|ultra|lite|edge|note|galaxy|android|phone|smartphone"
    r"|mobile|device|tablet)){0,3}\.?"
    r"|.{1,40}から送信|(?:从我的|發自我的|发自我的|來自我的|来自我的).{1,40}",
)
# What a phone's signature may add after it: "…, please excuse any typos.", "- sorry for the
# brevity", "… Bitte entschuldigen Sie Tippfehler.", "… Excusez les fautes de frappe."
TYPO_APOLOGY = re.compile(
    r"\s*[,.;:!–—-]+\s*(?:please |pls |kindly )?(?:excuse|pardon|forgive|ignore|sorry for|apologies for)"
    r"\b.{0,60}$"
    r"|\s*[,.;:!–—-]+\s*(?:bitte )?(?:entschuldige|verzeih|excusez|pardonnez|désolé)\w*\b.{0,60}$"
)

# Closing phrases, matched as a whole line (without trailing punctuation): the sign-off after
# which only a name and contact lines follow.
CLOSINGS = frozenset(
    {
        *("best regards", "kind regards", "regards", "best", "cheers", "thanks", "thank you"),
        *("many thanks", "thanks a lot", "best wishes", "all the best", "warm regards", "sincerely"),
        *("yours", "yours sincerely", "br", "take care", "thx"),
        *("mit freundlichen grüßen", "mit freundlichen grüssen", "viele grüße", "viele grüsse"),
        *("liebe grüße", "liebe grüsse", "beste grüße", "beste grüsse", "grüße", "grüsse", "gruß"),
        *("gruss", "herzliche grüße", "schöne grüße", "lg", "vg", "mfg", "danke", "vielen dank"),
        *("cordialement", "bien cordialement", "bien à vous", "salutations", "amicalement", "merci"),
        *("merci beaucoup", "bonne journée", "à bientôt", "bises", "sincères salutations"),
        *("met vriendelijke groet", "met vriendelijke groeten", "vriendelijke groet", "groeten"),
        *("groet", "mvg", "hartelijke groeten", "bedankt", "dank je", "dank u"),
        *("saludos", "un saludo", "atentamente", "gracias", "muchas gracias", "cordialmente"),
        *("un abrazo", "saludos cordiales"),
        *("cordiali saluti", "saluti", "grazie", "distinti saluti", "un saluto", "grazie mille"),
        *("atenciosamente", "cumprimentos", "abraços", "abraço", "obrigado", "obrigada", "att"),
        *("pozdrawiam", "z poważaniem", "z powazaniem", "dziękuję", "pozdrowienia"),
        *("med vänliga hälsningar", "vänliga hälsningar", "hälsningar", "bästa hälsningar", "tack"),
        *("med venlig hilsen", "venlig hilsen", "hilsen", "mvh", "kh", "knus", "bedste hilsner"),
        *("vh", "med vennlig hilsen", "vennlig hilsen", "beste hilsen", "takk"),
        *("s pozdravem", "děkuji", "s úctou", "díky"),
        *("с уважением", "спасибо", "с наилучшими пожеланиями", "всего доброго", "всего хорошего"),
        *("з повагою", "дякую", "з найкращими побажаннями"),
        *("谢谢", "此致", "祝好", "此致敬礼"),
    }
)

# The warning a mail server puts above a mail from outside the organisation.
BANNER = re.compile(
    r"\[?(?:caution|warning|attention|external|external email|extern|achtung|vorsicht|warnung"
    r"|avertissement|precaución|atención|attenzione|let op|uwaga|varning|advarsel"
    r"|upozornění|внимание|увага)\]?\s*[:!-]?.{0,80}(?:outside|external|extern|außerhalb|ausserhalb|extérieur|externe"
    r"|fuera de|exterior|esterno|esterna|buiten|spoza|utanför|uden for|utenfor|mimo|вне|внешн"
    r"|ззовні|поза)"
)
