# Two commands on a fresh machine: `make run` (set up, ingest a small default set, chat) and
# `make test` (set up, pass the tests and the eval gate).

PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Where `make run` reads filings from when SEC_IDENTITY is not set (a folder in SEC's formats).
FROM ?= $(wildcard ../shared/sec)
TICKERS ?= AAPL,NVDA,MSFT,WMT,GOOGL,TSLA,NKE,V
YEARS ?= 2023-2025

.PHONY: install run test chat clean

# constraints.txt pins every dependency to the versions the tests last passed with.
CONSTRAINTS := -c constraints.txt

$(BIN)/footnote: pyproject.toml constraints.txt
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	# CPU torch first, so sentence-transformers does not pull a multi-GB CUDA build.
	$(BIN)/pip install -q $(CONSTRAINTS) torch==2.13.0
	$(BIN)/pip install -q $(CONSTRAINTS) -e '.[test]'
	touch $@

install: $(BIN)/footnote

run: install
	@if [ -n "$$SEC_IDENTITY" ] && [ -z "$(FROM)" ]; then \
		$(BIN)/footnote ingest $$(echo $(TICKERS) | tr ',' ' ') --years $(YEARS); \
	elif [ -n "$(FROM)" ]; then \
		$(BIN)/footnote ingest --from $(FROM) --tickers $(TICKERS); \
	else \
		echo "No SEC_IDENTITY and no FROM folder: using the small sample filings in tests/fixtures/sec."; \
		$(BIN)/footnote ingest --from tests/fixtures/sec; \
	fi
	$(BIN)/footnote chat

test: install
	$(BIN)/python -m pytest -q
	$(BIN)/footnote eval --set fixtures --gate

clean:
	rm -rf $(VENV) .footnote
