"""Fixtures the games tests share: a moderator (in the moderators group, staff) and a test
client logged in as them."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group


@pytest.fixture
def moderator(django_user_model: Any) -> Any:
    user = django_user_model.objects.create_user("mod", "mod@example.org", "pw", is_staff=True)
    user.groups.add(Group.objects.get_or_create(name="moderators")[0])
    return user


@pytest.fixture
def mod(client: Any, moderator: Any) -> Any:
    client.force_login(moderator)
    return client
