import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import database_from_url, env_bool, env_int


def test_database_url_with_socket_folder():
    config = database_from_url("postgresql://postgres@/console?host=/var/run/pg")

    assert config["NAME"] == "console"
    assert config["HOST"] == "/var/run/pg"
    assert config["USER"] == "postgres"


def test_database_url_with_host_and_password():
    config = database_from_url("postgres://app:s%40cret@db.internal:6543/kb")

    assert (config["HOST"], config["PORT"], config["PASSWORD"], config["NAME"]) == ("db.internal", "6543", "s@cret", "kb")


def test_database_url_gives_up_connecting_after_five_seconds_unless_it_says_otherwise():
    assert database_from_url("postgres://app@db.internal/kb")["OPTIONS"]["connect_timeout"] == "5"
    assert database_from_url("postgres://app@db.internal/kb?connect_timeout=2")["OPTIONS"]["connect_timeout"] == "2"


@pytest.mark.parametrize("url", ["mysql://x@y/z", "postgresql://x@y/"])
def test_bad_database_url_is_refused(url):
    with pytest.raises(ImproperlyConfigured):
        database_from_url(url)


def test_bad_boolean_and_integer_are_refused(monkeypatch):
    monkeypatch.setenv("DEBUG", "maybe")
    monkeypatch.setenv("WORKERS", "many")
    with pytest.raises(ImproperlyConfigured, match="DEBUG"):
        env_bool("DEBUG")
    with pytest.raises(ImproperlyConfigured, match="WORKERS"):
        env_int("WORKERS", 1)


def test_production_settings_refuse_a_missing_secret_key(tmp_path):
    import subprocess
    import sys

    env = {"PATH": "/usr/bin:/bin", "DATABASE_URL": "postgresql://x@localhost/x", "REDIS_URL": "redis://127.0.0.1:1/0"}
    result = subprocess.run(
        [sys.executable, "-c", "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings'; django.setup()"],
        env=env, capture_output=True, text=True, cwd=str(__import__("pathlib").Path(__file__).resolve().parents[2]),
    )

    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_login_lockout_parameters_must_name_known_counters():
    import subprocess
    import sys

    env = {"PATH": "/usr/bin:/bin", "DATABASE_URL": "postgresql://x@localhost/x", "REDIS_URL": "redis://127.0.0.1:1/0",
           "SECRET_KEY": "k" * 50, "LOGIN_LOCKOUT_PARAMETERS": "username,password"}
    result = subprocess.run(
        [sys.executable, "-c", "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings'; django.setup()"],
        env=env, capture_output=True, text=True, cwd=str(__import__("pathlib").Path(__file__).resolve().parents[2]),
    )

    assert result.returncode != 0
    assert "LOGIN_LOCKOUT_PARAMETERS must list username, ip_address or username+ip_address" in result.stderr
