"""Loaded by pytest (`-p tests.environment`) before Django's settings are read.

Tests use the same embedded servers as `make run` (or the URLs in the environment),
but their own Redis database, so a running console's worker never takes test tasks.
"""

import os

from front import embedded

if not os.environ.get("DATABASE_URL"):
    os.environ["DATABASE_URL"] = embedded.ensure_postgres()
if not os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = embedded.start_redis(db=1)
# Live-server browser tests speak plain HTTP, so cookies cannot be Secure there.
os.environ.setdefault("SESSION_COOKIE_SECURE", "0")
os.environ.setdefault("CSRF_COOKIE_SECURE", "0")
os.environ.setdefault("SECRET_KEY", "test-secret-key-that-is-long-enough-for-settings-0123456789")
# Playwright's sync API runs an event loop in the test thread; Django's ORM must still work there.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "1")
# A fast hasher for the people the tests make and sign in (Django's takes ~0.3 s a password); Django's own still
# check any password hashed before.
os.environ.setdefault("PASSWORD_HASHERS", "django.contrib.auth.hashers.MD5PasswordHasher,"
                      "django.contrib.auth.hashers.PBKDF2PasswordHasher")

# Metrics on, in prometheus-client's multiprocess mode as in production (a directory of this run's own, emptied as
# run_console empties its own at start): the tests that turn them off do so in settings.
os.environ.setdefault("METRICS_ENABLED", "1")
if "METRICS_DIR" not in os.environ:
    import shutil

    os.environ["METRICS_DIR"] = str(embedded.VAR_DIR / "test-metrics")
    shutil.rmtree(os.environ["METRICS_DIR"], ignore_errors=True)
