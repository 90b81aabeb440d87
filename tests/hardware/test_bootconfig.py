"""The Pi's boot config: parsed as the firmware reads it, what the LEDs need, which
enabled interfaces take the board's pins; and `bgpi diag --check` reporting it."""

from __future__ import annotations

import pytest

from bgpi.cli import main
from bgpi.hardware import bootconfig
from bgpi.hardware.bootconfig import (
    boot_problems,
    interface_pins,
    led_problems,
    model_of,
    parse_boot_config,
)

GOOD = {
    "pi4": "dtparam=spi=on\ncore_freq_min=500\n",
    "pi02": "dtparam=spi=on\ncore_freq=250\n",
    "pi3": "dtparam=spi=on\ncore_freq=250\n",
    "pi5": "dtparam=spi=on\n",
}


@pytest.mark.parametrize(("name", "model"), [
    ("Raspberry Pi 5 Model B Rev 1.0", "pi5"),
    ("Raspberry Pi 4 Model B Rev 1.4", "pi4"),
    ("Raspberry Pi 400 Rev 1.0", "pi4"),
    ("Raspberry Pi Compute Module 4 Rev 1.0", "pi4"),
    ("Raspberry Pi 3 Model B Plus Rev 1.3", "pi3"),
    ("Raspberry Pi Zero 2 W Rev 1.0", "pi02"),
    ("Raspberry Pi Zero W Rev 1.1", "pi0"),
    ("Raspberry Pi Model B Rev 2", "pi1"),
    ("Generic x86 PC", None),
])
def test_the_model_from_the_device_tree_name(name, model):
    assert model_of(name) == model


@pytest.mark.parametrize("model", sorted(GOOD))
def test_a_good_config_lacks_nothing(model):
    assert led_problems(parse_boot_config(GOOD[model], model), model) == []


@pytest.mark.parametrize(("model", "missing"), [
    ("pi4", "core_freq_min=500 is missing"), ("pi02", "core_freq=250 is missing"),
    ("pi3", "core_freq=250 is missing"),
])
def test_the_core_clock_line_each_model_needs(model, missing):
    (problem,) = led_problems(parse_boot_config("dtparam=spi=on\n", model), model)
    assert problem.startswith(missing) and "SPI clock follows the core clock" in problem


def test_sections_apply_by_model_and_all_resets():
    text = "[pi4]\ncore_freq_min=500\n[pi02]\ncore_freq=250\n[all]\ndtparam=audio=on,spi=on\n[none]\ndtparam=spi=off\n"
    assert led_problems(parse_boot_config(text, "pi4"), "pi4") == []
    assert led_problems(parse_boot_config(text, "pi02"), "pi02") == []
    (problem,) = led_problems(parse_boot_config(text, "pi3"), "pi3")
    assert problem.startswith("core_freq=250 is missing")


def test_spi_off_is_named_with_the_line_to_add():
    (problem,) = led_problems(parse_boot_config("# dtparam=spi=on\ndtparam=spi=off\n", "pi5"), "pi5")
    assert problem == ("dtparam=spi=on is missing from config.txt: the LEDs' SPI bus is off "
                       "(add it and reboot)")


def test_include_lines_are_followed(tmp_path):
    (tmp_path / "extra.txt").write_text("dtparam=spi=on\ncore_freq_min=500\n")
    config = parse_boot_config("include extra.txt\n", "pi4", include=tmp_path)
    assert led_problems(config, "pi4") == []


def test_interfaces_and_the_pins_they_take():
    config = parse_boot_config(
        "dtoverlay=w1-gpio,gpiopin=17\ndtparam=i2c_arm=on\nenable_uart=1\n", "pi4")
    assert interface_pins(config) == {
        17: "1-Wire (dtoverlay=w1-gpio)", 2: "I2C (dtparam=i2c_arm=on)",
        3: "I2C (dtparam=i2c_arm=on)", 14: "the serial port (enable_uart=1)",
        15: "the serial port (enable_uart=1)"}
    assert interface_pins(parse_boot_config("dtoverlay=w1-gpio\n", "pi4")) == {4: "1-Wire (dtoverlay=w1-gpio)"}


def test_the_default_board_collides_with_1_wire_and_i2c(profile):
    config = parse_boot_config(GOOD["pi4"] + "dtoverlay=w1-gpio\ndtparam=i2c_arm=on\n", "pi4")
    assert boot_problems(config, "pi4", profile) == [
        ("GPIO3 (button hint) is taken by I2C (dtparam=i2c_arm=on) in config.txt: turn that off, "
         "or move button hint to a free pin in the profile"),
        ("GPIO4 (button black.cube) is taken by 1-Wire (dtoverlay=w1-gpio) in config.txt: turn "
         "that off, or move button black.cube to a free pin in the profile")]


def test_diag_check_reads_the_boot_config(tmp_path, capsys, monkeypatch):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi Zero 2 W Rev 1.0\0")
    monkeypatch.setattr(bootconfig, "MODEL_FILE", model)
    config = tmp_path / "config.txt"
    config.write_text("dtparam=spi=on\n[pi4]\ncore_freq_min=500\n[all]\ndtoverlay=w1-gpio\n")
    assert main(["diag", "--check", "--board", "sim", "--boot-config", str(config)]) == 1
    out = capsys.readouterr().out
    assert f"boot config: core_freq=250 is missing from {config}" in out
    assert "boot config: GPIO4 (button black.cube) is taken by 1-Wire" in out
    assert out.endswith("check FAILED: 2 problems\n")
    config.write_text(GOOD["pi02"])
    assert main(["diag", "--check", "--board", "sim", "--boot-config", str(config)]) == 0
    assert (f"boot config: ok, {config}: SPI on, core clock pinned, no interface on the "
            "board's pins") in capsys.readouterr().out


def test_diag_check_names_a_boot_config_it_cannot_read(tmp_path, capsys):
    assert main(["diag", "--check", "--board", "sim", "--boot-config", str(tmp_path / "none.txt")]) == 1
    assert f"boot config: cannot read {tmp_path / 'none.txt'}" in capsys.readouterr().out


@pytest.mark.parametrize(("line", "pins"), [
    ("dtoverlay=spi1-1cs", {18, 19, 20, 21}),
    ("dtoverlay=spi1-3cs", {16, 17, 18, 19, 20, 21}),
    ("dtoverlay=spi1-2cs,cs1_pin=26", {18, 19, 20, 21, 26}),
    ("dtoverlay=hifiberry-dacplus", {18, 19, 20, 21}),
    ("dtoverlay=iqaudio-dac", {18, 19, 20, 21}),
    ("dtparam=i2s=on", {18, 19, 20, 21}),
    ("dtoverlay=audremap", {12, 13}),
    ("dtoverlay=audremap,pins_18_19", {18, 19}),
    ("dtoverlay=gpio-shutdown", {3}),
    ("dtoverlay=gpio-shutdown,gpio_pin=26,active_low=1", {26}),
    ("dtoverlay=vc4-kms-v3d", set()),
])
def test_spi1_sound_cards_pwm_audio_and_the_shutdown_button_take_pins(line, pins):
    assert set(interface_pins(parse_boot_config(line + "\n", "pi4"))) == pins


def test_the_default_board_collides_with_spi1_a_dac_pwm_audio_and_gpio_shutdown(profile):
    text = GOOD["pi4"] + "dtoverlay=spi1-3cs\ndtoverlay=hifiberry-dac\ndtoverlay=audremap\ndtoverlay=gpio-shutdown\n"
    problems = boot_problems(parse_boot_config(text, "pi4"), "pi4", profile)
    assert problems[0] == ("GPIO3 (button hint) is taken by the shutdown button (dtoverlay=gpio-shutdown) in "
                           "config.txt: turn that off, or move button hint to a free pin in the profile")
    taken = {problem.split()[0]: problem.split(" is taken by ")[1].split(" in ")[0] for problem in problems}
    assert taken == {
        "GPIO3": "the shutdown button (dtoverlay=gpio-shutdown)",
        "GPIO12": "PWM audio (dtoverlay=audremap)", "GPIO13": "PWM audio (dtoverlay=audremap)",
        "GPIO16": "SPI1 (dtoverlay=spi1-3cs)", "GPIO17": "SPI1 (dtoverlay=spi1-3cs)",
        # the sound card's line comes after SPI1's: the last one read is named
        **dict.fromkeys(("GPIO19", "GPIO20", "GPIO21"), "an I2S sound card (dtoverlay=hifiberry-dac)"),
    }
