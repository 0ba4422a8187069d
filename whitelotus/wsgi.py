from __future__ import annotations

import logging
import os

from django.core.wsgi import get_wsgi_application

from notifications.services.redact import RedactTokens

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "whitelotus.settings")
application = get_wsgi_application()
# gunicorn writes its access log (each request's path, so each seat page's key) through a
# logger of its own, outside Django's LOGGING: the same filter cuts the keys out there
logging.getLogger("gunicorn.access").addFilter(RedactTokens())
