# Two commands on a fresh machine: `make run` (set up, ingest a small default set, chat) and
# `make test` (set up, pass the tests and the eval gate).

PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

# What `make run` ingests, the first that applies:
#   1. FROM, a folder in SEC's formats (by default ../shared/sec when it sits beside the project);
#   2. SEC EDGAR, when SEC_IDENTITY is set (and FROM is empty: `make run FROM=` with ../shared/sec present);
#   3. the small sample filings in tests/fixtures/sec.
# TICKERS selects companies from 1 and 2; YEARS selects fiscal years from 2 (a folder is taken whole).
# Every default ticker has 10-Ks in ../shared/sec (tests/test_makefile.py checks it).
FROM ?= $(wildcard ../shared/sec)
TICKERS ?= AAPL,NVDA,WMT,GOOGL,TSLA,NKE,V
YEARS ?= 2023-2025

comma := ,
ifneq ($(strip $(FROM)),)
INGEST_ARGS = --from $(FROM) --tickers $(TICKERS)
else ifneq ($(strip $(SEC_IDENTITY)),)
INGEST_ARGS = $(subst $(comma), ,$(TICKERS)) --years $(YEARS)
else
INGEST_ARGS = --from tests/fixtures/sec
INGEST_NOTE = No FROM folder and no SEC_IDENTITY: ingesting the small sample filings in tests/fixtures/sec.
endif

.PHONY: install ingest run chat test test-fast clean ingest-args

# constraints.txt pins every dependency to the versions the tests last passed with.
CONSTRAINTS := -c constraints.txt

$(BIN)/footnote: pyproject.toml constraints.txt
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	# CPU torch first, so sentence-transformers does not pull a multi-GB CUDA build.
	$(BIN)/pip install -q $(CONSTRAINTS) torch==2.13.0
	$(BIN)/pip install -q $(CONSTRAINTS) -e '.[test]'
	# An editable install leaves the project's own modules uncompiled: without this, every command
	# compiled them again where bytecode is not written (PYTHONDONTWRITEBYTECODE), 0.3 s of each cold `ask`.
	$(BIN)/python -m compileall -q agent bot store ingest evals > /dev/null
	touch $@

install: $(BIN)/footnote

# Exit status 3 means some of the selection could not be ingested (each named above); the rest is
# in the store, so `make run` goes on to the chat. Anything else (a usage error, Ctrl-C) stops it.
ingest: install
	@$(if $(INGEST_NOTE),echo "$(INGEST_NOTE)";) echo "footnote ingest $(INGEST_ARGS)"
	@$(BIN)/footnote ingest $(INGEST_ARGS); status=$$?; \
	if [ $$status -eq 3 ]; then \
		echo "Some of it could not be ingested (listed above); the chat answers from the rest."; \
	elif [ $$status -ne 0 ]; then exit $$status; fi

chat: install
	$(BIN)/footnote chat

run: ingest
	$(BIN)/footnote chat

test: install
	$(BIN)/python -m pytest -q
	$(BIN)/footnote eval --set fixtures --gate

# The inner loop: every test but those marked slow (servers, subprocesses, whole ingests). CI runs `test`.
test-fast: install
	$(BIN)/python -m pytest -q -m "not slow"

# The arguments `make ingest` passes to `footnote ingest`, for checking the selection.
ingest-args:
	@echo $(INGEST_ARGS)

# Start over: the virtualenv and the default data folder (.footnote: database, SEC cache).
clean:
	rm -rf $(VENV) .footnote
