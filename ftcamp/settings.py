"""FTCamp settings: one module, driven by environment variables with safe defaults.

Development (``make run``): DEBUG on, SQLite file, tasks run in-process (no REDIS_URL).
Production (docker-compose): DEBUG off, SECRET_KEY, DATABASE_URL, REDIS_URL and ALLOWED_HOSTS set.
"""

from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

from ftcamp.env import env_bool, env_int, env_list, env_str

# Django's generic classes subscriptable at run time too (``admin.ModelAdmin[Power]``), as the
# type checker reads them.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", default=False)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-never-use-in-production"  # noqa: S105

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "django_celery_beat",
    "axes",
    "powers",
    "economy",
    "fleet",
    "command",
    "trade",
    "campaigns",
    "notices",
    "diplomacy",  # issue 31: messages between powers
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "ftcamp.middleware.SecurityHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "ftcamp.middleware.InputGateMiddleware",  # bad input is a 400 before anything reads it
    "ftcamp.middleware.PrivateNoStoreMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "ftcamp.middleware.RoundMatchMiddleware",  # an API write's If-Match round, under the lock
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "ftcamp.http.RefusalMiddleware",  # a service's refusal on a page: its status and why
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks
]

ROOT_URLCONF = "ftcamp.urls"
WSGI_APPLICATION = "ftcamp.wsgi.application"
ASGI_APPLICATION = "ftcamp.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DB_CONN_MAX_AGE", 0),
        # a kept connection PostgreSQL closed (a restart) is found and replaced, not a 500
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite has no row locks (select_for_update is a no-op there): every transaction takes
    # the write lock when it begins instead, so the round lock's guarantees hold on `make run`
    # too (a vote, a claim and an order write are serialised, never interleaved); WAL lets the
    # pages read while a round resolves. Tests get a file of their own beside it, not memory,
    # so that their threads see one database as the demo's do.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 30,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    DATABASES["default"]["TEST"] = {"NAME": f"{DATABASES['default']['NAME']}.test"}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses locked-out logins (reliability S7)
    "django.contrib.auth.backends.ModelBackend",
]
# Five failed logins lock that username from that address, and FTCAMP_LOGIN_IP_LIMIT failures
# from one address lock the address, for an hour (ftcamp/logins.py). The client address comes
# from X-Forwarded-For only behind FTCAMP_TRUSTED_PROXIES reverse proxies.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
FTCAMP_LOGIN_IP_LIMIT = env_int("FTCAMP_LOGIN_IP_LIMIT", 50)
# ... and this many failures for one username from any addresses hold the account back until
# the oldest is an hour old (issue 32; OWASP ASVS 6.3.1).
FTCAMP_LOGIN_USER_LIMIT = env_int("FTCAMP_LOGIN_USER_LIMIT", 20)
FTCAMP_TRUSTED_PROXIES = env_int("FTCAMP_TRUSTED_PROXIES", 0)
AXES_COOLOFF_TIME = 1
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_HANDLER = "ftcamp.logins.LoginLockoutHandler"
AXES_CLIENT_IP_CALLABLE = "ftcamp.logins.client_ip"
AXES_HTTP_RESPONSE_CODE = 429
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "my-campaigns"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed files in production; plain names in development and in tests, whose
    # live server serves static files from their sources (STATIC_MANIFEST=0 in ftcamp/pytest_env).
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if env_bool("STATIC_MANIFEST", default=not DEBUG)
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# Input limits (issue 11): a JSON body, and a form's fields (files are not counted).
FTCAMP_MAX_JSON_BYTES = env_int("FTCAMP_MAX_JSON_BYTES", 64 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 1024 * 1024)
# Issue 32: any other body (uploads: the sector import, the route mapper) is refused from its
# Content-Length above this, before it is read; what passes stays in memory, never spooled.
FTCAMP_MAX_UPLOAD_BYTES = env_int("FTCAMP_MAX_UPLOAD_BYTES", 16 * 1024 * 1024)
FILE_UPLOAD_MAX_MEMORY_SIZE = FTCAMP_MAX_UPLOAD_BYTES

REST_FRAMEWORK = {
    # Token first: a missing or bad token is a 401 with WWW-Authenticate: Token.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "ftcamp.logins.FastTokenAuthentication",  # DRF's, its query text built once
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 100,
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # the services' refusals (ftcamp.errors) answered as the pages answer them (ftcamp.http)
    "EXCEPTION_HANDLER": "ftcamp.http.api_exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "FTCamp API",
    "DESCRIPTION": "Everything a player can do: orders, submission, reports and the ledger.",
    "VERSION": "0.1.0",
    # the docs page's assets are served from static/, not a CDN
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "ftcamp.schema.add_error_responses",
    ],
    "ENUM_NAME_OVERRIDES": {
        "ProjectResourceEnum": "powers.models.ProjectResource",
        # the order types' own choice sets (economy.engine.orders.order_schemas)
        "SoldResourceEnum": ["ore", "bio", "gal"],
        "ShippedResourceEnum": ["ore", "bio", "pl"],
    },
}

# --- Celery: without REDIS_URL tasks run in-process (make run); with it, a real broker. ---
REDIS_URL = env_str("REDIS_URL")
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "celery")
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 300)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # must exceed the task time limit, or Redis re-delivers a task still running (reliability F3)
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 600),
}
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_BEAT_SCHEDULE = {
    # the backstop for lost messages, deadlines and stalled claims (reliability R7, F4, F7)
    "sweep-rounds": {
        "task": "economy.tasks.sweep_rounds_task",
        # often: a dead resolver is found by its released lock, so a sweep is a cheap query
        "schedule": env_int("FTCAMP_SWEEP_SECONDS", 10),
    },
    # deadline reminders 24 h ahead, and the backstop for notices a lost message did not tell
    "sweep-notices": {
        "task": "notices.sweep",
        "schedule": env_int("FTCAMP_NOTICE_SWEEP_SECONDS", 300),
    },
}
# The web side's watchdog (economy/watchdog.py): a round resolving this long, or this long past
# its deadline, while no worker answers a ping (waited for this long; the answer cached this
# long per process) is "overdue" on the players' and organiser's pages, and logged.
FTCAMP_WATCHDOG_SECONDS = env_int("FTCAMP_WATCHDOG_SECONDS", 60)
# a busy worker must not be called dead: it has 2 s to say which queues it takes
FTCAMP_WATCHDOG_PING_SECONDS = env_int("FTCAMP_WATCHDOG_PING_SECONDS", 2)
FTCAMP_WATCHDOG_CACHE_SECONDS = env_int("FTCAMP_WATCHDOG_CACHE_SECONDS", 30)
# How long an API write's Idempotency-Key and its first answer are kept (economy/idempotency.py).
FTCAMP_IDEMPOTENCY_HOURS = env_int("FTCAMP_IDEMPOTENCY_HOURS", 24)
# Without PostgreSQL's advisory locks (SQLite, `make run`): a claim older than this with no
# result is presumed dead and returned to open.
FTCAMP_STALL_SECONDS = env_int("FTCAMP_STALL_SECONDS", 600)
# A round this long past its deadline and still unresolved is logged as an error by every sweep.
FTCAMP_OVERDUE_GRACE_SECONDS = env_int("FTCAMP_OVERDUE_GRACE_SECONDS", 600)

EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "ftcamp@localhost")
# Links in emails are absolute: the address players reach this site at.
FTCAMP_BASE_URL = env_str("FTCAMP_BASE_URL", "http://127.0.0.1:8000")
# How long an invitation link to a power stays good.
FTCAMP_INVITE_DAYS = env_int("FTCAMP_INVITE_DAYS", 7)

# --- Security: strict in production, relaxed only for local http in DEBUG. ---
SESSION_COOKIE_HTTPONLY = True
# FTCAMP_HTTPS: the site is reached over https (docker-compose's proxy terminates TLS); on by
# default without DEBUG. It decides the redirect, secure cookies and HSTS (each overridable).
# X-Forwarded-Proto (like X-Forwarded-For) is trusted only behind FTCAMP_TRUSTED_PROXIES > 0
# proxies, which must overwrite what the client sent (docs/operations.md).
FTCAMP_HTTPS = env_bool("FTCAMP_HTTPS", default=not DEBUG)
SECURE_COOKIES = env_bool("SECURE_COOKIES", default=FTCAMP_HTTPS)
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=FTCAMP_HTTPS)
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if FTCAMP_TRUSTED_PROXIES > 0 else None
)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000) if FTCAMP_HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = FTCAMP_HTTPS
SECURE_HSTS_PRELOAD = FTCAMP_HTTPS
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
