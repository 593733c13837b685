# dtree: common tasks. Works on a fresh clone: everything goes into ./.venv.
#
#   make venv     create .venv and install runtime deps (requirements.txt)
#   make run      start the Streamlit app
#   make test     install test deps + chromium + graphviz + weka + redis-server, run the whole pytest suite
#   make test-fast the quick tier: engine, views, tables and rooms (no app, browser or Weka)
#   make bench    run bench/bench.py (its uploads and steps tables drive chromium)
#   make loadtest a class on one link and a class vote: bench/classroom.py (about 16 min,
#                 not in make test)
#   make clean    remove the venv, caches and test artifacts
#
# Stamp files in .venv record what was installed, so pip only runs again
# when a requirements file changes.

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip
RUNTIME_STAMP := $(VENV)/.installed-runtime
TEST_STAMP := $(VENV)/.installed-test
CHROMIUM ?= /usr/bin/chromium
WEKA_JAR ?= /usr/share/java/weka.jar
PYTEST_ARGS ?=
# Tests run in parallel processes (pytest-xdist), one per core by default;
# PYTEST_WORKERS=0 runs them in this process (e.g. to use a debugger).
PYTEST_WORKERS ?= auto
PARALLEL := -n $(PYTEST_WORKERS) --dist worksteal

.PHONY: venv install install-test chromium graphviz weka redis-server run test test-fast bench loadtest screens clean

venv install: $(RUNTIME_STAMP)

install-test: $(TEST_STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(RUNTIME_STAMP): requirements.txt | $(BIN)/python
	$(PIP) install --disable-pip-version-check -r requirements.txt
	touch $@

# requirements-test.txt includes requirements.txt (-r), so this installs both.
$(TEST_STAMP): requirements-test.txt requirements.txt | $(BIN)/python
	$(PIP) install --disable-pip-version-check -r requirements-test.txt
	touch $@

# Browser tests drive Debian's chromium (Playwright cannot download its own
# browser here). Install it (plus CJK fonts) only when $(CHROMIUM) is missing;
# use sudo only when not root. The browser tests use the same path.
chromium:
	@if [ -x $(CHROMIUM) ]; then \
	  echo "chromium: $(CHROMIUM)"; \
	else \
	  if [ "$$(id -u)" -eq 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  set -e; \
	  $$SUDO apt-get update; \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium fonts-noto-cjk; \
	fi

# Graphviz's dot is optional for the app (Streamlit draws DOT in the browser);
# the tests install it so that the SVG and PNG exports are tested too.
graphviz:
	@if command -v dot >/dev/null; then \
	  echo "dot: $$(command -v dot)"; \
	else \
	  if [ "$$(id -u)" -eq 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  set -e; \
	  $$SUDO apt-get update; \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y graphviz; \
	fi

# The J48/Id3 parity tests run Weka 3.6 (Debian's weka package, Java) as the
# oracle, and compile a class against it (javac, from a JDK). Install them
# only when $(WEKA_JAR) or javac is missing; use sudo only when not root. The
# tests read the same jar and the package's example ARFF files.
weka:
	@if [ -f $(WEKA_JAR) ] && command -v javac >/dev/null; then \
	  echo "weka: $(WEKA_JAR)"; \
	else \
	  if [ "$$(id -u)" -eq 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  set -e; \
	  $$SUDO apt-get update; \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y weka default-jdk-headless; \
	fi

# The room tests (tests/room) start a real redis-server of their own on
# 127.0.0.1 and a free port: the store that several app processes share.
# Install Debian's redis-server only when it is missing; use sudo only when
# not root.
redis-server:
	@if command -v redis-server >/dev/null; then \
	  echo "redis-server: $$(command -v redis-server)"; \
	else \
	  if [ "$$(id -u)" -eq 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  set -e; \
	  $$SUDO apt-get update; \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y redis-server; \
	fi

run: $(RUNTIME_STAMP)
	$(BIN)/streamlit run app.py --browser.gatherUsageStats false

test: $(TEST_STAMP) chromium graphviz weka redis-server
	$(BIN)/python -m pytest tests $(PARALLEL) $(PYTEST_ARGS)

# The quick tier, for a change to the engine, the views, the tables or the
# rooms: no Streamlit app, no browser, no Weka (tests/app, tests/browser and
# the tests marked weka are the whole suite's), and 20 examples per property
# (100 in the whole suite).  The Redis room tests run where redis-server is
# installed (make redis-server) and are skipped elsewhere.
test-fast: $(TEST_STAMP)
	$(BIN)/python -m pytest tests/engine tests/views tests/tables tests/project tests/room -m "not weka" \
	  --hypothesis-profile=quick $(PARALLEL) $(PYTEST_ARGS)

# The docs' screenshots (docs/screens/), presenter mode at 1280x720, en and zh.
screens: $(TEST_STAMP) chromium
	$(BIN)/python -m tests.browser.screens

bench: $(TEST_STAMP) chromium
	$(BIN)/python bench/bench.py

# 1, 10 and 30 students stepping through (2 of them in Chromium), then 60
# sessions uploading different 20k-row CSVs, then a class vote of 100
# students (bench/room.py): on one app process, and on two sharing their
# rooms through a redis-server the run starts itself; traffic only to
# 127.0.0.1.
loadtest: $(TEST_STAMP) chromium redis-server
	$(BIN)/python bench/classroom.py class --sizes 1,10,30
	$(BIN)/python bench/classroom.py uploads --sessions 60 --after 150
	$(BIN)/python bench/classroom.py room --students 100
	$(BIN)/python bench/classroom.py room --students 100 --processes 2 --redis

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis tests/browser/artifacts
	find . -path ./.git -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
