"""The Celery broker of local play: a folder, with kombu's filesystem transport.

``scripts/serve`` runs a real worker and beat with no Redis: every process of the checkout
(runserver, the SMTP listener, the bots, beat, ``manage.py demo``) writes one file per message
into ``<folder>/queue`` and the one worker takes them from there.  kombu's transport claims a
message by renaming its file away, which is safe between processes, but it creates the message
file in place and writes it afterwards: a worker listing the folder in between would claim an
empty file.  So this transport writes each message beside the queue under a name no queue
matches and renames it in, which is atomic within one folder.

Limits, by design of the transport: a message is gone from the folder once the worker takes it,
so ``acks_late`` only brings unacknowledged messages back on a warm shutdown (Ctrl-C), not
after a crash; the minute mail sweep re-enqueues what was lost that way.  One worker only.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

TRANSPORT = "whitelotus.localbroker:Transport"
POLLING_INTERVAL = 0.2  # seconds between looks at the folder: a reply's mails follow at once


def transport_options(root: Path) -> dict[str, Any]:
    """Celery's ``broker_transport_options`` for a broker kept under ``root``."""
    queue = root / "queue"
    return {
        "data_folder_in": str(queue),
        "data_folder_out": str(queue),
        "control_folder": str(root / "control"),
        "polling_interval": POLLING_INTERVAL,
    }


class Channel(filesystem.Channel):
    # the stubs of kombu's virtual and filesystem channels name this argument differently
    def _put(self, queue: str, payload: dict[str, Any], **kwargs: Any) -> None:  # type: ignore[override]
        folder = Path(self.data_folder_out)
        # zero-padded, so that names sort in time order (kombu's do not past a power of ten)
        name = f"{round(monotonic() * 1000):015d}_{uuid.uuid4()}.{queue}.msg"
        aside = folder / f".{name}.part"  # kombu's queue lookup never matches this name
        try:
            aside.write_bytes(str_to_bytes(dumps(payload)))
            os.replace(aside, folder / name)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {name!r} to {folder}") from exc


class Transport(filesystem.Transport):
    Channel = Channel

    def __init__(self, client: Any, **kwargs: Any) -> None:
        super().__init__(client, **kwargs)
        # kombu wants the folders made beforehand; a fresh checkout has none yet
        options = client.transport_options
        for key in ("data_folder_in", "data_folder_out", "control_folder"):
            if options.get(key):
                Path(options[key]).mkdir(parents=True, exist_ok=True)
