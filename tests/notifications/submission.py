"""A provider's SMTP submission server for tests (aiosmtpd on loopback): STARTTLS (587) or
implicit TLS (465), AUTH with the account's password, and refusals for rate on demand, the way
providers answer an account that sends too much (``421 4.7.0 Too many messages``)."""

from __future__ import annotations

import base64
import email
import shlex
import ssl
import subprocess
import threading
from dataclasses import dataclass, field
from email.message import Message
from email.policy import default as default_policy
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from tests.notifications.mailbox import Received, free_port

USER = "league@lotus.test"
PASSWORD = "app-password-for-smtp"
TOKEN = "oauth2-access-token"  # what tokens_of hands out, and XOAUTH2 takes


def token_of(user: str) -> str:
    """An OAuth2 token hook (EMAIL_OAUTH2_TOKEN_HOOK) for the test account."""
    return TOKEN if user == USER else "not-a-token"


@dataclass
class Provider:
    """What reached the provider, and how it answers: ``refuse`` holds replies to give RCPT
    (one per attempt, e.g. ``"451 4.7.1 Rate limit exceeded, try again later"``)."""

    mails: list[Received] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    refused: int = 0
    arrived: threading.Condition = field(default_factory=threading.Condition)

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        if self.refusals:
            self.refused += 1
            return self.refusals.pop(0)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def auth_XOAUTH2(self, server: Any, args: list[str]) -> AuthResult:
        """``AUTH XOAUTH2 <base64 of user=…^Aauth=Bearer …^A^A>`` (Google's and Microsoft's way)."""
        expected = f"user={USER}\x01auth=Bearer {TOKEN}\x01\x01"
        given = base64.b64decode(args[1]).decode() if len(args) > 1 else ""
        return AuthResult(success=given == expected, handled=False)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message: Message = email.message_from_bytes(envelope.original_content, policy=default_policy)
        with self.arrived:
            for rcpt in envelope.rcpt_tos:
                self.mails.append(Received(rcpt.lower(), message))
            self.arrived.notify_all()
        return "250 2.0.0 queued"

    def wait_for(self, count: int, timeout: float) -> bool:
        with self.arrived:
            return self.arrived.wait_for(lambda: len(self.mails) >= count, timeout)


def _authenticate(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
    ok = isinstance(data, LoginPassword) and (data.login, data.password) == (USER.encode(), PASSWORD.encode())
    return AuthResult(success=ok, handled=False)


def certificate(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "smtp-cert.pem", folder / "smtp-key.pem"
    request = shlex.split(
        "openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 "
        "-addext subjectAltName=IP:127.0.0.1 -days 2"
    )
    subprocess.run(
        [*request, "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True, timeout=60
    )
    return cert, key


def private_ca(folder: Path) -> tuple[Path, Path, Path]:
    """A CA of its own, made here, and a certificate for 127.0.0.1 it signed: the CA's file (for
    the client to trust), the server's certificate and key."""
    ca, ca_key = folder / "ca.pem", folder / "ca-key.pem"
    cert, key, request = folder / "smtp-cert.pem", folder / "smtp-key.pem", folder / "smtp.csr"
    extensions = folder / "smtp.ext"
    extensions.write_text(
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=critical,CA:FALSE\n"
        "keyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n"
        "authorityKeyIdentifier=keyid\nsubjectKeyIdentifier=hash\n"
    )
    steps = [
        "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=League-Test-CA "
        "-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign "
        f"-keyout {ca_key} -out {ca}",
        f"openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout {key} -out {request}",
        f"openssl x509 -req -in {request} -CA {ca} -CAkey {ca_key} -CAcreateserial -days 2 "
        f"-extfile {extensions} -out {cert}",
    ]
    for step in steps:
        subprocess.run(shlex.split(step), check=True, capture_output=True, timeout=60, cwd=folder)
    return ca, cert, key


def start_provider(
    folder: Path, mode: str = "starttls", *, signed_by_private_ca: bool = False
) -> tuple[Provider, Controller, Path]:
    """A submission server: ``starttls`` (587's way: STARTTLS required before AUTH) or ``ssl``
    (465's: TLS from the first byte).  The file the client must trust (in ``folder``): the
    server's self-signed certificate, or the private CA that signed it."""
    if signed_by_private_ca:
        trust, cert, key = private_ca(folder)
    else:
        cert, key = certificate(folder)
        trust = cert
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    provider = Provider()
    common: dict[str, Any] = {
        "hostname": "127.0.0.1",
        "port": free_port(),
        "authenticator": _authenticate,
        "auth_required": True,
        "auth_require_tls": True,
    }
    if mode == "ssl":  # (aiosmtpd counts only STARTTLS as TLS for AUTH: this one is TLS throughout)
        common["auth_require_tls"] = False
        server = Controller(provider, ssl_context=context, server_hostname="127.0.0.1", **common)
    else:
        server = Controller(provider, tls_context=context, require_starttls=True, **common)
    server.start()
    return provider, server, trust
