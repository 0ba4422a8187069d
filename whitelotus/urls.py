"""URLs: the admin for moderators; game pages come with issue 6."""

from __future__ import annotations

from django.contrib import admin
from django.urls import path

urlpatterns = [
    path("admin/", admin.site.urls),
]
