"""The README documents exactly the settings the code reads, and its production settings pass `check --deploy`."""

import re
import subprocess
import sys

from tests.processes import ROOT

README = (ROOT / "README.md").read_text()


def _settings_read_from_environment() -> set[str]:
    source = (ROOT / "config" / "settings.py").read_text()
    return set(re.findall(r'\benv_(?:str|bool|int|float|list)\(\s*"([A-Z0-9_]+)"', source))


def _configuration_table() -> set[str]:
    section = README.split("## Configuration", 1)[1].split("\n#", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return {name for row in rows for name in re.findall(r"`([A-Z0-9_]+)`", row.split("|")[1])}


def _production_environment() -> dict[str, str]:
    block = re.search(r"```sh\n\s*# /etc/console.env.*?\n(.*?)```", README, re.S).group(1)
    return dict(line.strip().split("=", 1) for line in block.splitlines() if "=" in line)


def test_the_configuration_table_names_every_setting_and_no_other():
    documented, read = _configuration_table(), _settings_read_from_environment()

    assert read, "no env_*(...) calls found in config/settings.py"
    assert documented - read == set(), "documented in README but not read by config/settings.py"
    assert read - documented == set(), "read by config/settings.py but missing from README's table"


def test_check_deploy_is_clean_with_the_documented_production_settings():
    environment = _production_environment()
    assert {"DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS", "CONSOLE_EMBEDDED"} <= set(environment)

    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={"PATH": "/usr/bin:/bin", **environment},
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
