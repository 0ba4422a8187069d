"""A private Dovecot for tests: Debian's dovecot-imapd started on loopback ports with its own
configuration under a temporary folder (the system's /etc/dovecot and ports 143/993 are never
used), one passwd-file user, maildir storage, a self-signed certificate for IMAPS and STARTTLS.
Mail is put in as a provider's delivery would (``doveadm save``) or by IMAP APPEND.

Runs as the current user; as root (CI), Dovecot's own processes and the mail files belong to
``nobody`` (Dovecot refuses to serve mail as root).  ``.ci/run`` installs the packages; in CI
a missing Dovecot fails the tests that need it instead of skipping them."""

from __future__ import annotations

import grp
import os
import pwd
import shlex
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from imapclient import IMAPClient

from notifications.imap.fetch import Account
from tests.conftest import IN_CI
from tests.notifications.mailbox import free_port

USER = "league"
PASSWORD = "app-password-for-tests"
#: what Dovecot says it can do when told to leave IDLE out (the poll-mode test)
WITHOUT_IDLE = "IMAP4rev1 SASL-IR LITERAL+ ID ENABLE NAMESPACE UIDPLUS MOVE UNSELECT CHILDREN"
SBIN = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"])

CONFIG = """\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <{root}/cert.pem
ssl_key = <{root}/key.pem
disable_plaintext_auth = yes
auth_mechanisms = plain login xoauth2
default_login_user = {user}
default_internal_user = {user}
default_internal_group = {group}
first_valid_uid = {uid}
mail_location = maildir:~/Maildir
mail_fsync = never
{capability}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = passwd-file
  args = username_format=%u {root}/passwd
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {imaps_port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
"""


def need(condition: bool, why: str) -> None:
    if not condition:
        if IN_CI:
            pytest.fail(f"CI must run the Dovecot tests: {why}")
        pytest.skip(why)


def tool(name: str) -> str:
    found = shutil.which(name, path=SBIN)
    need(found is not None, f"{name} is missing (apt-get install dovecot-imapd)")
    assert found is not None
    return found


@dataclass
class Dovecot:
    root: Path
    imap_port: int
    imaps_port: int
    process: subprocess.Popen[bytes]

    @property
    def config(self) -> Path:
        return self.root / "dovecot.conf"

    @property
    def ca_file(self) -> str:
        return str(self.root / "cert.pem")

    def account(self, **changes: object) -> Account:
        """The service's view of this mailbox: IMAPS with the test user's password."""
        account = Account(
            host="127.0.0.1",
            port=self.imaps_port,
            user=USER,
            password=PASSWORD,
            security="ssl",
            ca_file=self.ca_file,
            poll_seconds=0.5,
        )
        return replace(account, **changes)  # type: ignore[arg-type]

    def client(self) -> IMAPClient:
        context = ssl.create_default_context(cafile=self.ca_file)
        client = IMAPClient("127.0.0.1", self.imaps_port, ssl=True, ssl_context=context, timeout=30)
        client.login(USER, PASSWORD)
        return client

    def deliver(self, raw: bytes, folder: str = "INBOX") -> None:
        """As the provider's delivery agent puts a mail in (``doveadm save``)."""
        subprocess.run(
            [tool("doveadm"), "-c", str(self.config), "save", "-u", USER, "-m", folder],
            input=raw,
            check=True,
            timeout=60,
            capture_output=True,
        )

    def append_many(self, mails: list[bytes], folder: str = "INBOX") -> None:
        """Many mails at once, by IMAP APPEND on one connection."""
        client = self.client()
        try:
            for raw in mails:
                client.append(folder, raw)
        finally:
            client.logout()

    def uids(self, folder: str = "INBOX") -> list[int]:
        client = self.client()
        try:
            client.select_folder(folder, readonly=True)
            return sorted(int(u) for u in client.search(["ALL"]))
        finally:
            client.logout()

    def count(self, folder: str) -> int:
        client = self.client()
        try:
            if not client.folder_exists(folder):
                return 0
            return int(client.folder_status(folder, [b"MESSAGES"])[b"MESSAGES"])
        finally:
            client.logout()

    def message_ids(self, folder: str) -> list[str]:
        client = self.client()
        try:
            if not client.folder_exists(folder):
                return []
            client.select_folder(folder, readonly=True)
            uids = client.search(["ALL"])
            fetched = client.fetch(uids, ["BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]"]) if uids else {}
            return sorted(
                bytes(d[b"BODY[HEADER.FIELDS (MESSAGE-ID)]"]).decode().split(":", 1)[1].strip().strip("<>")
                for d in fetched.values()
            )
        finally:
            client.logout()

    def renumber(self) -> int:
        """Renumber the inbox as a server does when it has lost its index (a restore, a
        migration): Dovecot's UID list and indexes gone, it gives every message a new UID under
        a new UIDVALIDITY.  The new UIDVALIDITY."""
        maildir = self.root / "home" / USER / "Maildir"
        for path in maildir.iterdir():
            if path.name == "dovecot-uidlist" or path.name.startswith("dovecot.index"):
                path.unlink()
        client = self.client()
        try:
            return int(client.folder_status("INBOX", [b"UIDVALIDITY"])[b"UIDVALIDITY"])
        finally:
            client.logout()

    def log(self) -> str:
        path = self.root / "dovecot.log"
        return path.read_text(errors="replace")[-20000:] if path.exists() else "(no log)"


def _owner() -> tuple[str, str, int, int]:
    """Who Dovecot's processes and the mail are: the current user, or nobody under root."""
    if os.geteuid() == 0:
        user = pwd.getpwnam("nobody")
        return user.pw_name, grp.getgrgid(user.pw_gid).gr_name, user.pw_uid, user.pw_gid
    user = pwd.getpwuid(os.geteuid())
    return user.pw_name, grp.getgrgid(os.getegid()).gr_name, os.geteuid(), os.getegid()


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@contextmanager
def running_dovecot(*, idle: bool = True) -> Iterator[Dovecot]:
    """A private Dovecot on two free loopback ports (IMAP with STARTTLS, and IMAPS)."""
    dovecot = tool("dovecot")
    tool("doveadm")
    openssl = shutil.which("openssl")
    need(openssl is not None, "openssl is missing (for the test certificate)")
    assert openssl is not None
    root = Path(tempfile.mkdtemp(prefix="wl-dovecot-"))
    root.chmod(0o755)
    user, group, uid, gid = _owner()
    for name in ("run", "state", "home"):
        (root / name).mkdir()
    certificate = shlex.split(
        "req -x509 -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 "
        "-addext subjectAltName=IP:127.0.0.1,DNS:localhost -days 2"
    )
    keys = ["-keyout", str(root / "key.pem"), "-out", str(root / "cert.pem")]
    subprocess.run([openssl, *certificate, *keys], check=True, capture_output=True, timeout=60)
    home = root / "home" / USER
    home.mkdir()
    (root / "passwd").write_text(f"{USER}:{{PLAIN}}{PASSWORD}:{uid}:{gid}::{home}\n")
    if os.geteuid() == 0:
        os.chown(home, uid, gid)
    imap_port, imaps_port = free_port(), free_port()
    (root / "dovecot.conf").write_text(
        CONFIG.format(
            root=root,
            user=user,
            group=group,
            uid=uid,
            imap_port=imap_port,
            imaps_port=imaps_port,
            capability="" if idle else f"imap_capability = {WITHOUT_IDLE}",
        )
    )
    process = subprocess.Popen(
        [dovecot, "-F", "-c", str(root / "dovecot.conf")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    server = Dovecot(root, imap_port, imaps_port, process)
    try:
        deadline = time.monotonic() + 60
        while not (_listening(imap_port) and _listening(imaps_port)):
            assert process.poll() is None, f"Dovecot stopped: {process.stdout and process.stdout.read()!r}"
            assert time.monotonic() < deadline, "Dovecot did not listen within 60 s"
            time.sleep(0.05)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=30)
        print(server.log())  # shown when a test fails: what Dovecot said
        shutil.rmtree(root, ignore_errors=True)
