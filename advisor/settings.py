"""Settings for advisor, all read from the environment (see .env.example).

Without DATABASE_URL the product runs on SQLite in the project folder; without REDIS_URL Celery
uses kombu's filesystem transport so a real worker process still runs with no services.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

# Lets generic admin/queryset annotations (ModelAdmin[Model]) work at run time.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))


def envbool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (true/false), got {value!r}")


def envint(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be an integer, got {value!r}") from exc


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = envbool("DEBUG", False)


def _secret_key() -> str:
    key = os.environ.get("SECRET_KEY", "")
    if key:
        return key
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    # Development only: a per-checkout random key kept out of the repository.
    from django.core.management.utils import get_random_secret_key

    path = VAR_DIR / "dev-secret-key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(get_random_secret_key())
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000")
# /bench/baseline, the bare page `make bench` measures against; routed only when this is on.
BENCH_BASELINE = envbool("BENCH_BASELINE", False)

INSTALLED_APPS = [
    "accounts",
    "advisor",
    "advisor.reference",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "crispy_forms",
    "crispy_bootstrap5",
    "axes",
    "simple_history",
]

MIDDLEWARE = [
    # Probes ask by address, not by a name in ALLOWED_HOSTS (see the class for why that's safe).
    "advisor.middleware.HealthzMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Refuses an oversized body by its Content-Length before anything reads it (the caps below).
    "advisor.middleware.RequestBodyLimitMiddleware",
    # Records who made each change in the scoring-model history (the audit trail).
    "simple_history.middleware.HistoryRequestMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, so that a lockout answers before the view runs (django-axes' requirement).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "advisor.urls"
WSGI_APPLICATION = "advisor.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.organizations",
            ],
        },
    },
]

# --- Data stores -------------------------------------------------------------------------------

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=envint("DB_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the web process read while the worker writes.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
else:
    DATABASES["default"].setdefault("OPTIONS", {})["connect_timeout"] = envint(
        "DB_CONNECT_TIMEOUT", 5
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "advisor"),
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Sessions live in PostgreSQL and are read through Redis: no database query per request for the
# session, and a flushed or restarted Redis signs nobody out (accounts/sessions.py).
SESSION_ENGINE = "accounts.sessions"

# --- Celery --------------------------------------------------------------------------------

BROKER_DIR = VAR_DIR / "broker"
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
        "socket_connect_timeout": 2,
        "visibility_timeout": 3600,
    }
else:
    # Zero-service default: a real worker process polls a folder. 50 ms polling keeps a task
    # round trip near 50 ms instead of the default second.
    CELERY_BROKER_URL = "filesystem://"
    CELERY_RESULT_BACKEND = f"file://{VAR_DIR / 'results'}"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "out"),
        "data_folder_out": str(BROKER_DIR / "out"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
        "polling_interval": 0.05,
    }
    for folder in (
        BROKER_DIR / "out",
        BROKER_DIR / "processed",
        BROKER_DIR / "control",
        VAR_DIR / "results",
    ):
        folder.mkdir(parents=True, exist_ok=True)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Two queues: report pages (and the health task) on the default one, PDFs on their own, so a
# PDF (nine tenths of a report's rendering time) never waits in front of a page or a health
# check, and the PDF workers scale on their own (docker-compose.yml: worker, pdf-worker).
CELERY_TASK_DEFAULT_QUEUE = "celery"
PDF_QUEUE = "pdf"
CELERY_TASK_ROUTES = {"advisor.generate_report_pdf": {"queue": PDF_QUEUE}}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = timedelta(days=1)
CELERY_TASK_TIME_LIMIT = envint("CELERY_TASK_TIME_LIMIT", 300)
# A report still pending or running after this long is sent to the workers again.
REPORT_STUCK_AFTER_SECONDS = envint("REPORT_STUCK_AFTER_SECONDS", 120)
# Report generation (usually seconds): past the soft limit the report is marked failed, past
# the hard one the worker stops the task. Both under REPORT_STUCK_AFTER_SECONDS, so the
# sweeper never resends a report that is still within its time.
# Seconds; fractions allowed (tests use a few milliseconds).
REPORT_SOFT_TIME_LIMIT = float(os.environ.get("REPORT_SOFT_TIME_LIMIT") or 60)
REPORT_TIME_LIMIT = float(os.environ.get("REPORT_TIME_LIMIT") or 90)
# Report requests (regenerate, retry) each person and each organisation may make per window;
# past them the request is refused with a wait. Requests for a report already on its way
# return that report and do not count.
REPORT_REQUEST_WINDOW_SECONDS = envint("REPORT_REQUEST_WINDOW_SECONDS", 60)
REPORT_REQUESTS_PER_USER = envint("REPORT_REQUESTS_PER_USER", 5)
REPORT_REQUESTS_PER_ORGANIZATION = envint("REPORT_REQUESTS_PER_ORGANIZATION", 20)
# Quote requests (each one emails the operator's admins and sales engineers) per person, per
# customer organisation and per report in each window; past any of them the request is refused
# with a wait. Asking again for a quote already open (same report, offer and person) sends
# nothing and does not count.
QUOTE_REQUEST_WINDOW_SECONDS = envint("QUOTE_REQUEST_WINDOW_SECONDS", 60 * 60)
QUOTE_REQUESTS_PER_USER = envint("QUOTE_REQUESTS_PER_USER", 10)
QUOTE_REQUESTS_PER_ORGANIZATION = envint("QUOTE_REQUESTS_PER_ORGANIZATION", 30)
QUOTE_REQUESTS_PER_REPORT = envint("QUOTE_REQUESTS_PER_REPORT", 6)
CELERY_BEAT_SCHEDULE = {
    "sweep-stuck-reports": {
        "task": "advisor.sweep_reports",
        "schedule": envint("REPORT_SWEEP_EVERY_SECONDS", 60),
    },
    # Public cloud price lists into a draft catalog for an admin to publish (docs/prices.md).
    "refresh-public-prices": {
        "task": "advisor.refresh_prices",
        "schedule": envint("PRICE_REFRESH_EVERY_HOURS", 24) * 3600,
    },
}
PRICE_REFRESH_TIMEOUT_SECONDS = envint("PRICE_REFRESH_TIMEOUT_SECONDS", 60)
PRICE_REFRESH_TIME_LIMIT_SECONDS = envint("PRICE_REFRESH_TIME_LIMIT_SECONDS", 1800)
# Google's Cloud Billing Catalog needs an API key; without one its refresh is skipped.
GCP_BILLING_API_KEY = os.environ.get("GCP_BILLING_API_KEY", "")

# --- Auth ----------------------------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    # django-axes first: it refuses a locked-out login before the password is even checked.
    "axes.backends.AxesStandaloneBackend",
    "accounts.backends.EmailBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "advisor:dashboard"
LOGOUT_REDIRECT_URL = "advisor:landing"
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24 * 3
INVITATION_MAX_AGE = timedelta(days=envint("INVITATION_MAX_AGE_DAYS", 7))

# Reverse proxies in front of gunicorn that append to X-Forwarded-For; the client address every
# limit keys on is the PROXY_COUNT-th entry from its right (accounts.throttle.client_ip).
PROXY_COUNT = envint("PROXY_COUNT", 0)
# Login attempts: 5 failures per email and client address lock that pair out for 15 minutes;
# accounts.backends adds the limits across accounts and across addresses (password spraying).
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=envint("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_USERNAME_FORM_FIELD = "username"
AXES_USERNAME_CALLABLE = "accounts.backends.axes_username"
AXES_CLIENT_IP_CALLABLE = "accounts.throttle.client_ip"
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False

# Console email in development, SMTP in production (Django 6.1 MAILERS).
EMAIL_BACKEND_PATH = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
MAILERS = {
    "default": {
        "BACKEND": EMAIL_BACKEND_PATH,
        "OPTIONS": (
            {
                "host": os.environ.get("EMAIL_HOST", "localhost"),
                "port": envint("EMAIL_PORT", 25),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": envbool("EMAIL_USE_TLS", False),
                "timeout": 10,
            }
            if EMAIL_BACKEND_PATH.endswith("smtp.EmailBackend")
            else {}
        ),
    }
}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "advisor <noreply@localhost>")

# --- Request bodies ---------------------------------------------------------------------------

# Bodies are refused by their Content-Length before anything reads them (advisor.middleware):
# signed-in pages take up to 6 MiB (the largest is a 5 MB catalog import), people not signed in
# up to 64 KiB (sign-up, login and reset forms are a few hundred bytes), the API 1 MiB
# (advisor.api.parsing). advisor.wsgi applies the larger cap in front of Django as well, since
# gunicorn, the production web server, caps no body. A chunked body (no length) is refused.
REQUEST_BODY_MAX_BYTES = envint("REQUEST_BODY_MAX_BYTES", 6 * 1024 * 1024)
REQUEST_BODY_MAX_BYTES_ANONYMOUS = envint("REQUEST_BODY_MAX_BYTES_ANONYMOUS", 64 * 1024)

# --- JSON API --------------------------------------------------------------------------------

# Requests per person per window, across all of their tokens (more keys buy no more requests);
# reads (GET) and writes (POST) are counted apart, so a client that polls results cannot use
# up its budget for creating assessments. A create that submits also counts against the
# report limits above (REPORT_REQUESTS_PER_USER / _PER_ORGANIZATION).
API_RATE_LIMIT_READS = envint("API_RATE_LIMIT_READS", 600)
API_RATE_LIMIT_WRITES = envint("API_RATE_LIMIT_WRITES", 60)
API_RATE_LIMIT_WINDOW = envint("API_RATE_LIMIT_WINDOW", 60)  # seconds
# Live (unrevoked, unexpired) API keys one person may hold; past it creating one is refused.
API_TOKENS_PER_USER = envint("API_TOKENS_PER_USER", 10)
# Requests with a bearer token that is no live token (each costs a lookup), per client address
# (accounts.throttle.client_ip) per window; past it the API answers 429 without looking.
API_INVALID_TOKENS_PER_ADDRESS = envint("API_INVALID_TOKENS_PER_ADDRESS", 20)
API_INVALID_TOKEN_WINDOW = envint("API_INVALID_TOKEN_WINDOW", 10 * 60)  # seconds
# /api/v1/openapi.json for anyone; otherwise only for signed-in users and token holders.
API_DOCS_PUBLIC = envbool("API_DOCS_PUBLIC", DEBUG)

# --- Languages -----------------------------------------------------------------------------

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hant", "繁體中文")]
LOCALE_PATHS = [BASE_DIR / "advisor" / "locale"]
# zh-Hant numbers grouped in thousands with commas (advisor/formats/zh_Hant/formats.py).
FORMAT_MODULE_PATH = ["advisor.formats"]
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

# --- Static and media ----------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", VAR_DIR / "static"))
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", VAR_DIR / "media"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            # Hashed names so browsers may cache for a year; needs `collectstatic` first.
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# --- Security ------------------------------------------------------------------------------

SECURE = not DEBUG
SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", SECURE)
CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE", SECURE)
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", SECURE)
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 31_536_000 if SECURE else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", SECURE)
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", SECURE)
if envbool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# /healthz is probed over plain HTTP by container healthchecks and load balancers.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"

# Strict CSP: only our own origin, scripts additionally need the per-request nonce; no inline
# styles or eval (htmx runs with allowEval off, see templates/base.html).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # A healthy product logs little; axes logs every login attempt at INFO.
        "axes": {"level": "WARNING"},
        # WeasyPrint logs a line per laid-out page at INFO.
        "weasyprint": {"level": "WARNING"},
        "fontTools": {"level": "WARNING"},
    },
}

# Verbose names in messages and the admin header.
PRODUCT_NAME = _("Accelerator Advisor")
