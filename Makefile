# Motofiscal — two commands: `make run` and `make test` (both set everything up first).
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin
PYTHON ?= python3
PG_TEST_URL ?= postgresql://postgres@127.0.0.1:5432/test
HOST ?= 127.0.0.1
PORT ?= 5000
export FLASK_APP := server

.PHONY: run test setup venv pwa-deps test-deps browser-deps db demo test-sqlite test-postgres test-js bench clean

# Crachás and notificações print PUBLIC_BASE_URL in their QR: it follows HOST/PORT unless set.
run db: export PUBLIC_BASE_URL ?= http://$(if $(filter 127.0.0.1 0.0.0.0 ::,$(HOST)),localhost,$(HOST)):$(PORT)
run: db
	@$(BIN)/flask demo logins
	@echo "Back office: $(PUBLIC_BASE_URL)/   ·   Aplicativo de campo: $(PUBLIC_BASE_URL)/app/"
	$(BIN)/flask run --host $(HOST) --port $(PORT)

test: setup test-deps browser-deps test-sqlite test-postgres test-js

setup: venv pwa-deps

venv: $(VENV)/.installed
$(VENV)/.installed: pyproject.toml
	@test -x $(BIN)/python || tools/step "Python virtualenv" $(PYTHON) -m venv $(VENV)
	@tools/step "pip" $(BIN)/pip install --upgrade pip
	@tools/step "Python packages" $(BIN)/pip install -e '.[dev]'
	@touch $@

# Third-party browser modules arrive through npm and are copied into pwa/vendor/ (never committed).
pwa-deps:
	@if [ -f pwa/package.json ]; then \
	  if [ -f pwa/package-lock.json ]; then tools/step "npm modules" npm --prefix pwa ci --no-audit --no-fund --loglevel=error; \
	  else tools/step "npm modules" npm --prefix pwa install --no-audit --no-fund --loglevel=error; fi; \
	  if [ -f pwa/scripts/vendor.mjs ]; then tools/step "Field app vendor/ modules" node pwa/scripts/vendor.mjs; fi; \
	fi

# Test-only npm modules (axe-core, injected into pages by the accessibility test); never shipped.
test-deps:
	@if [ -f tests/e2e/package-lock.json ]; then tools/step "Test npm modules (axe-core)" npm --prefix tests/e2e ci --no-audit --no-fund --loglevel=error; \
	  else tools/step "Test npm modules (axe-core)" npm --prefix tests/e2e install --no-audit --no-fund --loglevel=error; fi

# Debian's Chromium for the browser tests (Playwright drives /usr/bin/chromium; no browser download)
# and poppler-utils (pdftoppm) to render the printed crachá PDFs in tests.
browser-deps:
	@if [ ! -x /usr/bin/chromium ] || ! command -v pdftoppm >/dev/null; then \
	  tools/step "apt-get update" apt-get update -qq && \
	  tools/step "Debian chromium, poppler-utils" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium poppler-utils; \
	fi

db: setup
	@tools/step "Database migrations" $(BIN)/flask db upgrade
	@$(BIN)/flask demo load

test-sqlite:
	$(BIN)/pytest -q

# Everything that touches the database, again on PostgreSQL (browser tests ran once above).
test-postgres:
	MOTOFISCAL_TEST_DATABASE_URL=$(PG_TEST_URL) $(BIN)/pytest -q -m "db and not browser"

test-js:
	@if ls tests/js/*.test.mjs >/dev/null 2>&1; then node --test tests/js/; else echo "no JS tests"; fi

bench: setup
	@for f in bench/*.py; do [ -e "$$f" ] && $(BIN)/python "$$f"; done; \
	for f in bench/*.mjs; do [ -e "$$f" ] && node "$$f"; done; true

clean:
	rm -rf $(VENV) pwa/node_modules pwa/vendor tests/e2e/node_modules
