"""Opening the real board when something is wrong: one line that says what and what to
do, and the fault pattern on the LEDs where they work.  The Pi's pin stack runs with
only the kernel simulated (`lgpio_board`); the LEDs are simulated pixels."""

from __future__ import annotations

import errno
import gc
import os

import pytest
from gpiozero import Device

from bgpi.board.colours import DARK
from bgpi.exc import BoardError
from bgpi.hardware import board as board_module
from bgpi.hardware import bootconfig
from bgpi.hardware.board import fault_lights, open_pi_board
from bgpi.hardware.leds import SimulatedPixels


@pytest.fixture
def real_board(lgpio_board, monkeypatch, tmp_path):
    """open_pi_board(profile) reaches the simulated kernel; returns (chip, pixels list)."""
    # gpiozero's Pi factories share their pin reservations, and a button that failed to
    # open (an earlier test's busy pin) keeps its reservation until it is collected.
    gc.collect()
    _, chip, factory = lgpio_board
    monkeypatch.setattr(Device, "pin_factory", factory)
    opened: list[SimulatedPixels] = []

    def pixels(config):
        opened.append(SimulatedPixels(config.count))
        return opened[-1]

    monkeypatch.setattr(board_module, "open_pixels", pixels)
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.4\0")
    monkeypatch.setattr(bootconfig, "MODEL_FILE", model)
    monkeypatch.setattr(bootconfig, "BOOT_CONFIGS", (tmp_path / "config.txt",))
    return chip, opened


def test_a_pin_held_by_the_1_wire_overlay_is_named_with_the_line_to_change(real_board, profile, tmp_path):
    chip, opened = real_board
    (tmp_path / "config.txt").write_text("dtparam=spi=on\n[pi4]\ncore_freq_min=500\ndtoverlay=w1-gpio\n")
    chip.busy.add(4)
    with pytest.raises(BoardError) as refused:
        open_pi_board(profile)
    assert str(refused.value) == (
        f"GPIO4 (button black.cube) is taken by 1-Wire (dtoverlay=w1-gpio) in {tmp_path / 'config.txt'}: "
        "turn that off, or move button black.cube to a free pin in the profile")
    # The LEDs opened first: they show the fault, and keep showing it.
    (pixels,) = opened
    lit = {index: colour for index, colour in enumerate(pixels.shown) if colour != DARK}
    assert lit.keys() == fault_lights(profile.leds).keys() and len(lit) == 2 * 7 + 2
    assert {colour for colour in lit.values()} == {(153, 0, 0)}  # red, under the 0.6 cap


def test_a_busy_pin_no_interface_explains_says_who_else_may_hold_it(real_board, profile):
    chip, _ = real_board
    chip.busy.add(profile.sensors.select[1])
    with pytest.raises(BoardError, match=r"^GPIO27 \(select S1\) busy: "
                                         r"another program holds it \(a second bgpi\?"):
        open_pi_board(profile)


def test_the_scanner_lets_go_of_its_lines_when_a_button_fails(real_board, profile):
    chip, _ = real_board
    chip.busy.add(profile.buttons.pins["hint"])
    with pytest.raises(BoardError):
        open_pi_board(profile)
    assert chip.calls["_gpiochip_close"] == 1  # the scanner's own handle: its groups freed


@pytest.mark.parametrize(("failure", "message"), [
    (ModuleNotFoundError("No module named 'neopixel_spi'"),
     ("a Raspberry Pi package is missing (No module named 'neopixel_spi'): install bgpi with "
      "them (sudo systemd/install.sh, or pip install 'bgpi[pi]')")),
    (OSError("/dev/spidev0.0 does not exist"),
     ("the LEDs' SPI bus is off (/dev/spidev0.0 does not exist): add dtparam=spi=on to "
      "config.txt and reboot")),
    (AttributeError("module 'board' has no attribute 'SPI'"),
     ("Blinka does not take this machine for a Raspberry Pi (module 'board' has no attribute "
      "'SPI'): run it on the Pi, or use --board sim")),
    (PermissionError(13, "Permission denied", "/dev/spidev0.0"),
     ("no permission to open /dev/spidev0.0: run as a user in the groups gpio and spi "
      "(the service's user bgpi is)")),
])
def test_led_failures_are_explained(real_board, profile, monkeypatch, failure, message):
    def fail(config):
        raise failure

    monkeypatch.setattr(board_module, "open_pixels", fail)
    with pytest.raises(BoardError) as refused:
        open_pi_board(profile)
    assert str(refused.value) == message


def test_bgpi_run_says_why_in_one_line_and_on_the_status(real_board, tmp_path, capsys, monkeypatch):
    import socket

    from bgpi.cli import main

    chip, _ = real_board
    (tmp_path / "config.txt").write_text("dtparam=spi=on\ndtoverlay=w1-gpio\n")
    chip.busy.add(4)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind(str(tmp_path / "notify"))
        listener.setblocking(False)
        monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify"))
        status = main(["run", "--board", "pi", "--state", str(tmp_path / "state"), "--no-page"])
        told = listener.recv(4096).decode()
    err = capsys.readouterr().err
    line = ("cannot open the pi board: GPIO4 (button black.cube) is taken by 1-Wire (dtoverlay=w1-gpio) "
            f"in {tmp_path / 'config.txt'}")
    assert status == 2 and err.splitlines()[-1].startswith(f"bgpi run: {line}")
    assert "warning: GPIO4 (button black.cube) is taken by 1-Wire" in err  # said before opening, too
    assert told.startswith(f"STATUS=stopped: {line}")


@pytest.fixture
def chips(tmp_path, monkeypatch):
    """A device directory with one GPIO chip (a plain file: the tests run as root, so its
    refusal is made by `os.open`); returns the errno opening it gives (0: it opens)."""
    devices = tmp_path / "dev"
    devices.mkdir()
    chip = devices / "gpiochip0"
    chip.touch(mode=0o600)
    monkeypatch.setattr(board_module, "DEVICES", devices)
    refusal = {"errno": 0}
    real_open = os.open

    def opening(path, flags, *args):
        if refusal["errno"] and str(path) == str(chip):
            raise OSError(refusal["errno"], os.strerror(refusal["errno"]), str(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(board_module.os, "open", opening)
    return chip, refusal


LGPIO_NO_CHIP = Exception("'can not open gpiochip'")  # lgpio's error, quotes and all


def test_a_chip_only_root_may_open_is_named_with_its_group_and_the_fix(chips, profile):
    chip, refusal = chips
    refusal["errno"] = errno.EACCES
    assert board_module.explain(LGPIO_NO_CHIP, profile) == (
        f"can not open gpiochip (/dev/gpiochip*): no permission to open {chip} (group root, mode 0600): "
        "run as a user in the group gpio, with the device given to that group (sudo systemd/install.sh "
        "adds a udev rule for it where the system has none)")


def test_a_chip_a_device_policy_refuses_says_so(chips, profile):
    _, refusal = chips
    refusal["errno"] = errno.EPERM
    assert "refused to this process (EPERM): a service's DevicePolicy=" in board_module.explain(
        LGPIO_NO_CHIP, profile)


def test_no_chip_at_all_is_not_a_pi(chips, profile):
    chip, _ = chips
    chip.unlink()
    assert board_module.explain(LGPIO_NO_CHIP, profile) == (
        "can not open gpiochip (/dev/gpiochip*): not a Raspberry Pi, or its GPIO device is missing")
