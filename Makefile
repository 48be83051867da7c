# Motofiscal — two commands: `make run` and `make test` (both set everything up first).
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin
PYTHON ?= python3
PG_TEST_URL ?= postgresql://postgres@127.0.0.1:5432/test
HOST ?= 127.0.0.1
PORT ?= 5000
export FLASK_APP := server
# Python's compiled modules are kept (__pycache__, ignored by git) even where the environment says
# not to write them (PYTHONDONTWRITEBYTECODE, set on this project's machines): otherwise every
# process of a test run — pytest and its workers, the date sweep's five, the servers the tests
# start — compiled Flask, SQLAlchemy, Playwright and the app from source again (collection alone
# 15 s instead of 5.5 s here), and pytest rewrote every test module's asserts again.
unexport PYTHONDONTWRITEBYTECODE

# Test workers per suite (pytest-xdist): the suites wait on browsers, servers and the database as
# much as they compute, so a third worker on two cores still shortens the run.
WORKERS ?= 3
# --durations: the slowest tests, printed at the end of each suite, are where the time goes.
PYTEST_PARALLEL := -n $(WORKERS) --dist loadfile --durations=20

.PHONY: run test check lint setup venv pwa-deps test-deps browser-deps prod-deps prod-like db demo test-sqlite \
        test-postgres test-js test-dates test-faults-random shots bench clean

# Crachás and notificações print PUBLIC_BASE_URL in their QR: it follows HOST/PORT unless set.
run db: export PUBLIC_BASE_URL ?= http://$(if $(filter 127.0.0.1 0.0.0.0 ::,$(HOST)),localhost,$(HOST)):$(PORT)
run: db
	@$(BIN)/flask demo logins
	@echo "Back office: $(PUBLIC_BASE_URL)/   ·   Aplicativo de campo: $(PUBLIC_BASE_URL)/app/"
	$(BIN)/flask run --host $(HOST) --port $(PORT)

# Set-up side by side where nothing waits on another: the Python packages (~25 s, much of it
# unpacking files, one core left idle) beside the npm modules and the Node tests, which need no
# Python. Then the suites one after another: run side by side (make -j3), the PostgreSQL suite and
# the date sweep oversubscribed the two cores and took longer together (503 s) than one after the
# other (~450 s).
test:
	@$(MAKE) --no-print-directory -j3 --output-sync=target venv test-js test-deps browser-deps
	@$(MAKE) --no-print-directory lint prod-deps test-sqlite test-postgres test-dates

# Lint (pyflakes and pycodestyle errors) and the packages' dependency direction (.importlinter).
lint: setup
	@$(BIN)/ruff check server tests bench migrations tools
	@$(BIN)/lint-imports --no-cache >/tmp/motofiscal-lint-imports.txt || (cat /tmp/motofiscal-lint-imports.txt; exit 1)

# The inner loop (under 2 minutes): lint, the packages' dependency direction (.importlinter), then
# every test that needs neither a database nor a browser.
check: setup lint
	$(BIN)/pytest -q -m "not db and not browser" $(PYTEST_PARALLEL)
	@$(MAKE) --no-print-directory test-js

setup: venv pwa-deps

venv: $(VENV)/.installed
$(VENV)/.installed: pyproject.toml
	@test -x $(BIN)/python || tools/step "Python virtualenv" $(PYTHON) -m venv $(VENV)
	@tools/step "pip" $(BIN)/pip install --upgrade pip
	@tools/step "Python packages" $(BIN)/pip install --no-compile -e '.[dev]'
	@touch $@

# Third-party browser modules arrive through npm and are copied into pwa/vendor/ (never committed).
# Each step runs again only when its lock file (or the copy script) is newer than its stamp.
pwa-deps: pwa/vendor/.installed
pwa/node_modules/.installed: pwa/package-lock.json
	@tools/step "npm modules" npm --prefix pwa ci --no-audit --no-fund --loglevel=error
	@touch $@
pwa/vendor/.installed: pwa/node_modules/.installed pwa/scripts/vendor.mjs
	@tools/step "Field app vendor/ modules" node pwa/scripts/vendor.mjs
	@touch $@

# Test-only npm modules (axe-core, injected into pages by the accessibility test); never shipped.
test-deps: tests/e2e/node_modules/.installed
tests/e2e/node_modules/.installed: tests/e2e/package-lock.json
	@tools/step "Test npm modules (axe-core)" npm --prefix tests/e2e ci --no-audit --no-fund --loglevel=error
	@touch $@

# Debian's Chromium for the browser tests (Playwright drives /usr/bin/chromium; no browser download),
# poppler-utils (pdftoppm) to render the printed PDFs in tests, and faketime (libfaketime) for the
# date sweep.
browser-deps:
	@if [ ! -x /usr/bin/chromium ] || ! command -v pdftoppm >/dev/null || ! command -v faketime >/dev/null; then \
	  tools/step "apt-get update" apt-get update -qq && \
	  tools/step "Debian chromium, poppler-utils, faketime" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium poppler-utils faketime; \
	fi

# Debian's nginx for the production topology (`make prod-like`, tests/test_prod_like.py). The
# package's service is not started (the tree's nginx runs in the foreground with its own files).
prod-deps:
	@if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then \
	  tools/step "apt-get update" apt-get update -qq && \
	  tools/step "Debian nginx" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx; \
	fi

# The production topology on loopback (docs/operations.md, "The production topology on one
# machine"): nginx, two gunicorn servers, PostgreSQL with the owner and the app role, Redis, an
# S3-protocol store. Ctrl-C stops it and drops what it made.
prod-like: setup prod-deps
	@tools/prod-like

db: setup
	@tools/step "Database migrations" $(BIN)/flask db upgrade
	@$(BIN)/flask demo load

test-sqlite:
	$(BIN)/pytest -q $(PYTEST_PARALLEL)

# Everything that touches the database, again on PostgreSQL (browser tests ran once above).
test-postgres:
	MOTOFISCAL_TEST_DATABASE_URL=$(PG_TEST_URL) MOTOFISCAL_PROD_LIKE_REQUIRED=1 $(BIN)/pytest -q -m "db and not browser" $(PYTEST_PARALLEL)

test-js: pwa-deps
	@if ls tests/js/*.test.mjs >/dev/null 2>&1; then node --test tests/js/; else echo "no JS tests"; fi

# The date-sensitive tests (marker `calendar`, see tests/conftest.py) again at the moments where
# time bombs go off: year ends and 29 February, 31 March, and the first and last hours of a day in
# UTC and in Cuiabá (UTC−4). libfaketime starts the clock of every process at that moment.
test-dates:
	@tools/date-sweep

# The browser tests again, saving a screenshot of every screen they visit for a person to look at
# (make test takes none: nobody looks at a CI machine's files).
SHOTS ?= /tmp/motofiscal-shots
shots: setup test-deps browser-deps
	MOTOFISCAL_SCREENSHOTS=$(SHOTS) $(BIN)/pytest -q -m browser $(PYTEST_PARALLEL)
	@echo "Screenshots in $(SHOTS)"

# The fault-injection browser run with a new random seed (make test uses the fixed one).
test-faults-random:
	MOTOFISCAL_FAULT_SEED=random $(BIN)/pytest -q tests/e2e/test_fiscal_faults.py

# Every bench, each writing its docs/benchmarks/ page; a .mjs that a .py of the same name drives
# (rules_eval, credentials_verify) runs through it. Names the benches that failed, and fails.
bench: setup test-deps browser-deps
	@failed=""; \
	for f in bench/*.py; do $(BIN)/python "$$f" || failed="$$failed $$f"; done; \
	for f in bench/*.mjs; do [ -e "$${f%.mjs}.py" ] || node "$$f" || failed="$$failed $$f"; done; \
	if [ -n "$$failed" ]; then echo "benches that failed:$$failed"; exit 1; fi

clean:
	rm -rf $(VENV) pwa/node_modules pwa/vendor tests/e2e/node_modules
