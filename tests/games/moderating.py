"""A moderator's act as the admin asks for it: the confirmation page first (the audit page's
form, a POST without a token), then the POST that carries that page's token."""

from __future__ import annotations

from typing import Any


def confirmed_act(client: Any, address: str, data: dict[str, Any], *, follow: bool = False) -> Any:
    """Open the act's confirmation page with ``data`` (the audit page's form sends it so), and
    confirm it; the answer to the confirming POST."""
    page = client.post(address, data, follow=True)
    assert page.status_code == 200, page.status_code
    token = (page.context or {}).get("token")
    assert token, f"no confirmation page for {address}"
    return client.post(page.context["action_url"], {**data, "token": token}, follow=follow)
