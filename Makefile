# Two commands for a fresh machine: `make run` and `make test`.
# Each creates .venv when missing and installs what it needs.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench clean vpi

run: $(STAMP)
	$(BIN)/bgpi run

test: lint
	$(BIN)/python -m pytest -q

# ruff over the whole tree, mypy --strict over the pure core (both configured in pyproject.toml).
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python benchmarks/plays.py
	$(BIN)/python benchmarks/scan.py
	$(BIN)/python benchmarks/table.py
	$(BIN)/python benchmarks/web.py
	$(BIN)/python benchmarks/scanload.py
	$(BIN)/python benchmarks/boot.py
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/link.py
	$(BIN)/python benchmarks/idle.py
	$(BIN)/python benchmarks/remote.py

# A virtual Raspberry Pi: the installed board under systemd in a QEMU guest, on a
# simulated GPIO chip (tests/system/vpi/README.md).  Root, mmdebstrap and QEMU needed.
vpi: $(STAMP)
	tests/system/vpi/vpi.sh $(abspath $(BIN)/python)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[pi,test,dev]'
	touch $(STAMP)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
