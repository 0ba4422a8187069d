"""Die Verbotene Stadt's own words in the service's mails (``presentation.MAIL_WORDS`` of
:class:`games.rules.base.Presentation`): English templates said in the reader's language by the
service; a phrase not given here is said in the service's own, generic words.  Its sealed
answers are dials and challenge answers, and a dial not shown stays secret: a "reveal" mail
must not promise that every choice is shown."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

MAIL_WORDS: Mapping[str, str] = MappingProxyType(
    {
        "revealed": (
            "Every sealed answer is in; anything shown is listed below (a dial that is not shown "
            "stays secret). It is not your move yet; you will get a mail when it is."
        ),
        "revealed_subject": "Answers in: the sealed window has closed",
    }
)
