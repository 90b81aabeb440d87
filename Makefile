# Two commands for a fresh machine: `make run` and `make test`.
# Each creates .venv when missing and installs what it needs.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench clean vpi hardware

run: $(STAMP)
	$(BIN)/bgpi run

test: lint
	$(BIN)/python -m pytest -q -n auto

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

# Everything in hardware/ from the board profile: the drawings and tables (bgpi diag), the
# template and the PCBs' JSON, BOM and placement files (bgpi.hardware.fab), then the KiCad
# projects, DRC reports, Gerbers, drill files and pictures (Debian's KiCad: its pcbnew
# module loads in Debian's python3 only, hardware/kicad/build.py).
hardware: $(STAMP)
	$(BIN)/bgpi diag wiring > hardware/wiring.txt
	$(BIN)/bgpi diag schematic > hardware/schematic.svg
	$(BIN)/bgpi diag layout > hardware/layout.svg
	$(BIN)/bgpi diag wiring --board serial:/dev/ttyACM0 > hardware/wiring-pico.txt
	$(BIN)/bgpi diag schematic --board serial:/dev/ttyACM0 > hardware/schematic-pico.svg
	$(BIN)/bgpi diag layout --board serial:/dev/ttyACM0 > hardware/layout-pico.svg
	$(BIN)/python -m bgpi.hardware.fab hardware
	/usr/bin/python3 hardware/kicad/build.py hardware/pcb

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
