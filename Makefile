# `make demo` and `make test` do all set-up on a fresh machine.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
# installed: the package and its test extras (torch, dask, ...), for make test/lint/bench/fuzz;
# the package alone is all `make demo` needs (make test after it still installs the extras)
STAMP := $(VENV)/.installed
PACKAGE_STAMP := $(VENV)/.package
SOURCES := pyproject.toml setup.py opsnn/engine/_select.c

# pip shows no build output: say whether the optional C lane was built (opsnn info tells why it matters)
define install
	test -x $(BIN)/python || $(PY) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '$(1)'
	$(BIN)/opsnn info | grep '^C lane'
	$(BIN)/python -m opsnn.capi build >/dev/null || echo "opsnn: the C ABI was not built now; it builds on first use (python -m opsnn.capi build says why)"
	$(BIN)/opsnn info | grep -e '^C ABI' -e '^C++ kernels' || true
endef

.PHONY: venv demo test lint bench bench-quick bench-cpp bench-host ut-survey fuzz clean gtest

venv: $(STAMP)

$(STAMP): $(SOURCES)
	$(call install,.[test])
	touch $(STAMP) $(PACKAGE_STAMP)

$(PACKAGE_STAMP): $(SOURCES)
	$(call install,.)
	touch $(PACKAGE_STAMP)

demo: $(PACKAGE_STAMP)
	$(BIN)/opsnn example

# gtest (Debian's libgtest-dev), which `opsnn ut` links C++ unit tests with, and nlohmann/json
# (nlohmann-json3-dev), which upstream's op_host/op_api UT helpers include: installed where missing
GTEST_HEADER := /usr/include/gtest/gtest.h
JSON_HEADER := /usr/include/nlohmann/json.hpp
gtest:
	@test -f $(GTEST_HEADER) -a -f $(JSON_HEADER) || { echo "installing libgtest-dev and nlohmann-json3-dev (for opsnn ut)"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq libgtest-dev nlohmann-json3-dev >/dev/null; }

test: venv gtest
	$(BIN)/python -m pytest

lint: venv
	$(BIN)/ruff check .

# the full bench (~5-10 min on 2 cores) -> benchmarks/results.json + results.png; the method: docs/benchmarking.md
bench: venv
	$(BIN)/python benchmarks/bench_threshold_backward.py

# a short run (<= 1 min: 4 sizes, float32 and int8), written to a temporary file
bench-quick: venv
	$(BIN)/python benchmarks/bench_threshold_backward.py --quick

# the C++ kernel runtime's speed (opsnn ut): a 2048-element UT end to end, a 1 M-element multi-core run,
# the cost of one instruction call; figures in docs/cpp-kernels.md
bench-cpp: venv gtest
	$(BIN)/python benchmarks/bench_cpp_kernel.py

# a C++ operator folder end to end (opsnn run on the seed's example): cold (first build) and with builds
# cached, min/median, machine facts beside; figures in docs/cpp-operators.md
bench-host: venv
	$(BIN)/python benchmarks/bench_cpp_operator.py

# every op_kernel UT of a checkout of upstream's ops-nn through `opsnn ut DIR`: one line each, then the
# tables docs/cpp-kernels.md ("Upstream's op_kernel UTs") carries; OPS_NN=<checkout>, JOBS=2 by default
JOBS ?= 2
ut-survey: venv gtest
	@test -n "$(OPS_NN)" || { echo "make ut-survey OPS_NN=<a checkout of hicann/ops-nn>"; exit 2; }
	$(BIN)/python -m pip install -q -e '.[test,ut-data]'
	$(BIN)/opsnn ut $(OPS_NN) --layer op_kernel --jobs $(JOBS) --json ut-survey.json || true

clean:
	rm -rf $(VENV) build *.egg-info opsnn/engine/_select.*.so

# the differential fuzz (tests/robustness/fuzz.py): FUZZ_SECONDS of random cases on every backend
# and fast engine (auto, c, c with its crossovers at their least, numpy; replay a failure with
# FUZZ_SEED=N); then the long property run the default suite keeps short (every ordered
# mixed-dtype pair: ~90)
FUZZ_SECONDS ?= 180
fuzz: venv
	FUZZ_SECONDS=$(FUZZ_SECONDS) $(BIN)/python tests/robustness/fuzz.py
	OPSNN_TEST_ALL_PAIRS=1 $(BIN)/python -m pytest tests/test_fast_paths.py -k mixed
