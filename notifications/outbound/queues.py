"""Which queue a task goes to (what a player is waiting for goes first), and how it is put
there when the broker refuses it for a moment (:func:`publish`).

Three queues (all declared in settings, so a worker without ``-Q`` consumes them all):

* ``moves``: the work a player is waiting on right now: taking a reply in
  (``process_inbound``), the deadline sweep, the bots, and sending the mails that answer a
  move: decision mails, refusals and answers, confirmations, reminders and defaults
  (:data:`FIRST`);
* ``starts``: the invitation of the seat that moves first, which asks it to decide now.  It
  is a decision mail, but a season start writes thousands of them at once, each drawing a
  whole first board: on ``moves`` they stood in front of every reply (2,000 of them held
  every answer to a move for five minutes), so they have a queue of their own;
* ``mail``: everything else that is sent: invitations, news, digests, league and moderation
  mails.

A worker consuming several queues takes from them in turn, so with one worker a move still
waits behind at most one other task at a time instead of the whole pile; the deployments give
moves a worker of their own (``-Q moves``) beside one that serves all three
(deploy/README.md, "Queues").
Redis and RabbitMQ both honour separate queues, which message priorities within one queue on
Redis do not (kombu emulates them with a few sub-queues, polled in turn).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from notifications.services.redact import redact

log = logging.getLogger(__name__)

MOVES = "moves"
STARTS = "starts"
MAIL = "mail"
ORDER = (MOVES, STARTS, MAIL)  # the queues, what a player waits for most first

#: the mail kinds a player is waiting for after writing or at a deadline (everything else is bulk)
FIRST = frozenset(
    {
        "decision",
        "error",  # a refusal, with what would be legal
        "help",
        "status",
        "log",
        "preferences",
        "account",  # the answer to a mail to the service address (a reply to the digest)
        "wrong_sender",
        "former_seat",
        "sealed",  # the confirmation of a sealed choice
        "press_sent",
        "reminder",
        "defaulted",
        "missed",
        "rolled_back",
    }
)

#: tasks that always go first (the mail-sending ones are routed by their mails' kinds)
ROUTES = {
    "notifications.tasks.process_inbound": {"queue": MOVES},
    "notifications.tasks.sweep_deadlines": {"queue": MOVES},
    "games.tasks.play_bots": {"queue": MOVES},
    "notifications.tasks.send_mail": {"queue": MAIL},
    "notifications.tasks.send_mails": {"queue": MAIL},
    "notifications.tasks.send_digests": {"queue": MAIL},
    "notifications.tasks.sweep_mail": {"queue": MAIL},
    "notifications.tasks.fetch_mail": {"queue": MAIL},  # watches for 50 s: not ahead of a move
    "notifications.tasks.drain_outbox": {"queue": MOVES},  # what it sends first is decision mails
}


def goes_first(kind: str, context: Mapping[str, Any] | None = None) -> bool:
    """Whether a mail is one a player waits for: a move's answer (:data:`FIRST`), or any mail
    that asks its seat for a decision now: the invitation of the seat that moves first is that
    seat's decision mail (a season start of 2,000 games held its 2,000 first moves behind
    10,000 invitations)."""
    return kind in FIRST or bool((context or {}).get("decision"))


def queue_of(kind: str, context: Mapping[str, Any] | None = None) -> str:
    """The queue of a send task for one mail: a move's answer on ``moves``, another mail that
    asks for a decision now (the first mover's invitation) on ``starts``, the rest on ``mail``."""
    if kind in FIRST:
        return MOVES
    return STARTS if goes_first(kind, context) else MAIL


#: after a publish the broker refused (down, restarting), this process tries again so many
#: seconds later, off the caller's thread; only then is it the sweeps' (a reply left new is
#: taken up after a minute, a mail's row after two): a broker's restart of three seconds held
#: the replies and answers written meanwhile for two to three minutes
REPUBLISH_AFTER = (2.0, 5.0, 15.0)


def publish(task: Any, args: Sequence[Any], queue: str | None = None, attempt: int = 0) -> None:
    """``task.apply_async(args, queue=queue)``; on a broker's refusal, again later (what it was
    for is in the database: the sweeps find it if every try fails, or the process ends)."""
    try:
        task.apply_async(tuple(args), **({"queue": queue} if queue else {}))
    except Exception as error:  # broker unreachable
        what = f"{getattr(task, 'name', task)}{tuple(args)}"
        if attempt < len(REPUBLISH_AFTER):
            later = threading.Timer(REPUBLISH_AFTER[attempt], publish, (task, args, queue, attempt + 1))
            later.daemon = True
            later.start()
            log.warning(
                "could not enqueue %s (%s); trying again in %.0f s",
                what,
                redact(str(error)),
                REPUBLISH_AFTER[attempt],
            )
        else:
            log.warning("could not enqueue %s (%s); the sweep will take it up", what, redact(str(error)))
