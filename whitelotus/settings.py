"""Settings, all from the environment, in one place (see deploy/.env.example).

Defaults run on a laptop with nothing else installed: SQLite, mail to the console, Celery
tasks run eagerly only when no broker is configured.  With ``DEBUG`` off the defaults are
production-safe: a secret key must be given, cookies are secure, hosts must be listed.
"""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from kombu import Exchange, Queue

from games.rules import registry
from notifications.outbound import queues

BASE_DIR = Path(__file__).resolve().parent.parent


def env(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = env("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
# the links in mails and in the terminal; without SITE_URL, the local server's port (PORT, as
# scripts/serve takes it), so `PORT=9000 manage.py demo` prints links that open
SITE_URL = env("SITE_URL", f"http://localhost:{env('PORT', '8000')}")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "anymail",
    "axes",  # the admin login, throttled per account and per address (whitelotus/security.py)
    "games",
    "notifications",
    "leagues",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # /static/ served by the application itself, by ./scripts/serve as by gunicorn: from the app
    # folders while DEBUG is on, from STATIC_ROOT (collectstatic) when it is off; first, so a
    # stylesheet costs no session, locale or CSP work (a proxy in front may still serve them)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",  # CONTENT_SECURITY_POLICY below
    "django.contrib.sessions.middleware.SessionMiddleware",
    # the thread's language as it was once the response is done (before LocaleMiddleware)
    "games.web.middleware.LanguageKeptMiddleware",
    # French typography on French pages (before LocaleMiddleware: it reads Content-Language)
    "games.web.middleware.FrenchTypographyMiddleware",
    # pages in the reader's language: the switcher's cookie, else the browser's Accept-Language
    # (a seat page and the player's own page: their player's language unless switched)
    "django.middleware.locale.LocaleMiddleware",
    # a path or query with a NUL or undecodable bytes is a 400 (in the reader's language) before
    # any view looks a key up with it: Postgres refuses NUL in text, which was a 500
    "whitelotus.security.RefuseBadBytesMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # answers a locked-out login with AXES_LOCKOUT_TEMPLATE
]

ROOT_URLCONF = "whitelotus.urls"
CSRF_FAILURE_VIEW = "games.web.errors.csrf_failure"  # in the site's layout and the reader's language
WSGI_APPLICATION = "whitelotus.wsgi.application"
ASGI_APPLICATION = "whitelotus.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # the admin's base_site, with the accessibility rules every admin page gets; each game's
        # own partials, in its package (games.rules.registry.template_dirs)
        "DIRS": [BASE_DIR / "whitelotus" / "templates", *registry.template_dirs()],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # the game's own words in templates, from the presentation floor (games/presentation)
            "libraries": {"gamewords": "games.presentation.gamewords"},
        },
    },
]

# the game a new game is of when none is named (create_game, the demo, a new season): any
# registered game's name; the first the registry lists unless DEFAULT_GAME says another
DEFAULT_GAME = env("DEFAULT_GAME", registry.names()[0])
if DEFAULT_GAME not in registry.names():
    raise ImproperlyConfigured(
        f"DEFAULT_GAME: no game is called {DEFAULT_GAME!r} ({', '.join(registry.names())})"
    )

# DATABASE_URL: default a SQLite file beside the project; production: postgres://... (psycopg 3)
DATABASES = {
    "default": dj_database_url.parse(
        env("DATABASE_URL", f"sqlite:///{BASE_DIR / 'whitelotus.sqlite3'}"),
        conn_max_age=int(env("DB_CONN_MAX_AGE", "60")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # local play writes from several processes (web, SMTP listener, worker, beat, bots): WAL lets
    # readers go on during a write, IMMEDIATE takes the write lock when a transaction begins (a
    # read lock upgraded later fails at once with "database is locked"), and a writer waits up
    # to 20 s for the lock instead of failing
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        **DATABASES["default"].get("OPTIONS", {}),
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# django-axes first: it counts failed logins and refuses a locked-out account or address before
# the password is checked
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# the admin login: after AXES_FAILURE_LIMIT wrong passwords for one account, or from one
# address, that account (from anywhere) and that address (for any account) are refused for
# AXES_COOLOFF_TIME hours, even with the right password; `manage.py axes_reset` lifts it
AXES_FAILURE_LIMIT = int(env("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = float(env("AXES_COOLOFF_TIME", "1"))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False  # no banner on every manage.py command
AXES_LOCKOUT_TEMPLATE = "games/errors/locked.html"
AXES_CLIENT_IP_CALLABLE = "whitelotus.security.client_address"
# the reverse proxies in front of gunicorn (addresses or networks): X-Forwarded-For is read only
# when the request comes from one of them, from its end past each of them (whitelotus/security.py);
# a request from anywhere else is its REMOTE_ADDR, whatever it says of itself
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", "127.0.0.1/8,::1")
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError as _error:
        raise ImproperlyConfigured(f"TRUSTED_PROXIES: {_error}") from None
if "PROXY_COUNT" in os.environ:
    raise ImproperlyConfigured(
        "PROXY_COUNT is not read: the reverse proxies are TRUSTED_PROXIES, their addresses or "
        "networks (deploy/README.md, Security); remove PROXY_COUNT"
    )

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGE_COOKIE_SAMESITE = "Lax"  # the switcher's cookie is not sent along from other sites' forms
# the service's catalogue, then each game's own (``<package>/locale``, registry.locale_dirs):
# Django lets an earlier path win where two translate the same msgid, and the catalogues merge
# into one per language, so a game's entry for a msgid of the service (or of another game)
# would change every game's mails; with the service first a game only adds its own msgids
# (tests/contract/test_every_game.py fails on a game entry that contradicts another catalogue)
LOCALE_PATHS = [BASE_DIR / "notifications" / "locale", *registry.locale_dirs()]
LANGUAGES = [("en", "English"), ("de", "Deutsch"), ("fr", "Français")]
TIME_ZONE = env("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
# collectstatic writes a gzip beside each file; WhiteNoise sends it to browsers that take it.
# Names keep no content hash (a page's {% static %} needs no manifest, in tests neither), so
# WhiteNoise lets browsers cache them for its default minute
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# --- mail (the notifications app uses these) ---------------------------------------
# the local mailbox (/mailbox/): every mail sent is stored and can be answered from a page;
# for local play only, so it is on by default with DEBUG and never otherwise unless asked for
LOCAL_MAILBOX = env_bool("LOCAL_MAILBOX", DEBUG)
EMAIL_BACKEND = env(
    "EMAIL_BACKEND",
    "notifications.localmail.backend.EmailBackend"
    if LOCAL_MAILBOX
    else "django.core.mail.backends.console.EmailBackend",
)
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "White Lotus <lotus@localhost>")
# players reply to <REPLY_PREFIX>+<seat token>@<REPLY_DOMAIN>; mail to that domain must reach
# us (ESP inbound route, MTA pipe into `manage.py receive_email`, or `manage.py smtpd`)
REPLY_DOMAIN = env("REPLY_DOMAIN", "localhost")
REPLY_PREFIX = env("REPLY_PREFIX", "play")
MESSAGE_ID_DOMAIN = env("MESSAGE_ID_DOMAIN", REPLY_DOMAIN)
# who is told about bounced addresses and players who keep missing deadlines
MODERATOR_EMAILS = env_list("MODERATOR_EMAILS")
# the SMTP listener (`manage.py smtpd`) for self-hosting and local play
SMTPD_HOST = env("SMTPD_HOST", "127.0.0.1")
SMTPD_PORT = int(env("SMTPD_PORT", "8025"))
# django-anymail: EMAIL_BACKEND names the ESP backend; its keys come as ANYMAIL_<NAME> variables
ANYMAIL = {
    key.removeprefix("ANYMAIL_"): value for key, value in os.environ.items() if key.startswith("ANYMAIL_")
}
# the inbound and tracking webhooks answer 503 (the ESP retries) until WEBHOOK_SECRET ("user:password") is set
WEBHOOK_SECRET = env("WEBHOOK_SECRET")
if WEBHOOK_SECRET:
    ANYMAIL.setdefault("WEBHOOK_SECRET", WEBHOOK_SECRET)
EMAIL_HOST = env("EMAIL_HOST", "localhost")
EMAIL_PORT = int(env("EMAIL_PORT", "25"))
EMAIL_HOST_USER = env("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = int(env("EMAIL_TIMEOUT", "30"))

# --- an ordinary mailbox (notifications/imap, deploy/README.md "Run from an ordinary
# mailbox"): replies fetched by IMAP, mail sent by SMTP submission through the same account ---
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)  # port 465 (EMAIL_USE_TLS: STARTTLS on 587)
# with EMAIL_BACKEND=notifications.imap.smtp_oauth2.EmailBackend: f(user) -> OAuth2 token
EMAIL_OAUTH2_TOKEN_HOOK = env("EMAIL_OAUTH2_TOKEN_HOOK")
# a private CA (the provider's own, a test server's) trusted for SMTP submission instead of the
# system's; read by notifications.imap.submission.EmailBackend and smtp_oauth2's
EMAIL_CA_FILE = env("EMAIL_CA_FILE")
if EMAIL_CA_FILE and EMAIL_BACKEND == "django.core.mail.backends.smtp.EmailBackend":
    raise ImproperlyConfigured(
        "EMAIL_CA_FILE is read by EMAIL_BACKEND=notifications.imap.submission.EmailBackend "
        "(Django's SMTP backend with that CA), not by Django's own: set that one"
    )
# the seats' reply addresses: <REPLY_PREFIX><REPLY_SEPARATOR><token>@<REPLY_DOMAIN> ("+" or "-")
REPLY_SEPARATOR = env("REPLY_SEPARATOR", "+")
IMAP_HOST = env("IMAP_HOST")  # empty: no mailbox is fetched
IMAP_PORT = int(env("IMAP_PORT", "993"))
IMAP_SECURITY = env("IMAP_SECURITY", "ssl")  # ssl (IMAPS, 993) or starttls (143)
IMAP_USER = env("IMAP_USER")
IMAP_PASSWORD = env("IMAP_PASSWORD")
IMAP_OAUTH2_TOKEN_HOOK = env("IMAP_OAUTH2_TOKEN_HOOK")  # dotted path: f(user) -> access token
IMAP_CA_FILE = env("IMAP_CA_FILE")  # a private CA (a test server, a self-signed one)
IMAP_FOLDER = env("IMAP_FOLDER", "INBOX")
IMAP_DONE = env("IMAP_DONE", "move")  # move (to IMAP_PROCESSED_FOLDER) or flag
IMAP_PROCESSED_FOLDER = env("IMAP_PROCESSED_FOLDER", "WhiteLotus/Processed")
IMAP_UNREADABLE_FOLDER = env("IMAP_UNREADABLE_FOLDER", "WhiteLotus/Unreadable")
IMAP_PROCESSED_FLAG = env("IMAP_PROCESSED_FLAG", "$WhiteLotusDone")
IMAP_IDLE = env_bool("IMAP_IDLE", True)  # IDLE where the server offers it
IMAP_POLL_SECONDS = float(env("IMAP_POLL_SECONDS", "60"))
# the provider's sending limits (0: none): the outbox drains at this rate, decision mails first
MAIL_SEND_PER_MINUTE = int(env("MAIL_SEND_PER_MINUTE", "0"))
MAIL_SEND_PER_DAY = int(env("MAIL_SEND_PER_DAY", "0"))
# after the provider refused for rate, the outbox waits this long (doubled at each refusal in a row)
MAIL_RATE_PAUSE_SECONDS = float(env("MAIL_RATE_PAUSE_SECONDS", "60"))

# --- Celery: Redis, or a folder for local play ----------------------------------------------
REDIS_URL = env("REDIS_URL", "redis://127.0.0.1:6379/0")
# local play (DEBUG or the local mailbox) with no REDIS_URL: the broker is a folder that every
# process of this checkout shares (whitelotus/localbroker.py) and scripts/serve runs a real
# worker and beat on it; elsewhere Redis
LOCAL_PLAY_BROKER = not env("REDIS_URL") and (DEBUG or LOCAL_MAILBOX)
CELERY_BROKER_URL = env("CELERY_BROKER_URL", "filesystem://localhost" if LOCAL_PLAY_BROKER else REDIS_URL)
LOCAL_BROKER_DIR = Path(env("LOCAL_BROKER_DIR", str(BASE_DIR / ".local" / "broker")))
# only for a test run or a one-off script with no worker: tasks run in the process that commits
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# what a player waits for first: three queues, "moves", "starts" and "mail"
# (notifications/outbound/queues.py); a worker without -Q consumes them all, a worker with
# -Q moves only what answers a move
CELERY_TASK_QUEUES = tuple(Queue(name, Exchange(name), routing_key=name) for name in queues.ORDER)
CELERY_TASK_DEFAULT_QUEUE = "mail"
CELERY_TASK_ROUTES = queues.ROUTES
CELERY_TIMEZONE = "UTC"
# a broker that is down must not hang a request: publishing gives up fast, rows stay pending in
# the database and the sweep (beat, every minute) enqueues them again
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.5}
CELERY_BROKER_CONNECTION_TIMEOUT = 3
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {"socket_connect_timeout": 3, "socket_timeout": 5}
if CELERY_BROKER_URL.startswith("filesystem://"):
    from whitelotus import localbroker

    CELERY_BROKER_TRANSPORT = localbroker.TRANSPORT  # kombu's, writing each message atomically
    CELERY_BROKER_TRANSPORT_OPTIONS = localbroker.transport_options(LOCAL_BROKER_DIR)
    CELERY_WORKER_ENABLE_REMOTE_CONTROL = False  # no `celery inspect`: one folder less to poll
    # the local mailbox prints one line per mail for the person at the terminal: the worker
    # must not turn them into "WARNING/MainProcess" log records
    CELERY_WORKER_REDIRECT_STDOUTS = False
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {"task": "notifications.tasks.sweep_deadlines", "schedule": 60.0},
    "sweep-mail": {"task": "notifications.tasks.sweep_mail", "schedule": 60.0},
    # the daily news for players who wrote "mail digest" (UTC; DIGEST_HOUR moves it)
    "mail-digests": {
        "task": "notifications.tasks.send_digests",
        "schedule": crontab(hour=int(env("DIGEST_HOUR", "7")), minute=0),
    },
}
if IMAP_HOST:  # the mailbox, looked at by a task when no `manage.py fetch_mail` holds it
    CELERY_BEAT_SCHEDULE["fetch-mail"] = {"task": "notifications.tasks.fetch_mail", "schedule": 60.0}
# the mails held back by the sending limits, or by the provider's refusal for rate (with or without
# limits: such a refusal is never a failed attempt)
CELERY_BEAT_SCHEDULE["drain-outbox"] = {"task": "notifications.tasks.drain_outbox", "schedule": 10.0}

# --- the games ----------------------------------------------------------------------------------
GAMES_SNAPSHOT_EVERY = int(env("GAMES_SNAPSHOT_EVERY", "25"))  # events between state snapshots

# --- Content-Security-Policy (django-csp): every page's scripts, styles, pictures and fonts come
# from this site, and nothing inline runs; the local mailbox's frame of a mail's HTML part sets a
# stricter policy of its own (notifications/localmail/views.py)
CSP_SELF = "'self'"
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [CSP_SELF],
        "script-src": [CSP_SELF],
        "style-src": [CSP_SELF],
        "img-src": [CSP_SELF, "data:"],
        "font-src": [CSP_SELF],
        "connect-src": [CSP_SELF],
        "frame-src": [CSP_SELF],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": [CSP_SELF],
        "frame-ancestors": [CSP_SELF],
        **({"report-uri": [env("CSP_REPORT_URI")]} if env("CSP_REPORT_URI") else {}),
    },
}

# --- production safety ------------------------------------------------------------------------
if not DEBUG:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(env("SECURE_HSTS_SECONDS", "3600"))
    SECURE_CONTENT_TYPE_NOSNIFF = True
    LANGUAGE_COOKIE_SECURE = True  # the language switcher's cookie, as the session's: HTTPS only

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # reply tokens are credentials: no log line may carry one, whichever library writes it
    "filters": {"redact_tokens": {"()": "notifications.services.redact.RedactTokens"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["redact_tokens"]}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO")},
    # runserver's request log, and Django's own loggers ("Not Found: /games/seat/<key>/"), have
    # handlers of their own in Django's defaults, which would print the private seat pages'
    # keys: they go through the filtered handler instead
    "loggers": {
        # at LOG_LEVEL too: scripts/serve runs with WARNING, where a request that failed (4xx,
        # 5xx) is still a line and the 200s and the autoreloader's notice are not
        "django": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO"), "propagate": False},
        "django.server": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO"), "propagate": False},
    },
}
