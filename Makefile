# `make demo` and `make test` do all set-up on a fresh machine.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv demo test lint bench fuzz clean

venv: $(STAMP)

$(STAMP): pyproject.toml setup.py opsnn/backends/_select.c
	test -x $(BIN)/python || $(PY) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

demo: venv
	$(BIN)/opsnn example

test: venv
	$(BIN)/python -m pytest

lint: venv
	$(BIN)/ruff check .

bench: venv
	$(BIN)/python benchmarks/bench_threshold_backward.py

clean:
	rm -rf $(VENV) build *.egg-info opsnn/backends/_select.*.so

# the long property runs the default suite keeps short (every mixed-dtype pair: ~90 numba signatures)
fuzz: venv
	OPSNN_TEST_ALL_PAIRS=1 $(BIN)/python -m pytest tests/test_fast_paths.py -k mixed
