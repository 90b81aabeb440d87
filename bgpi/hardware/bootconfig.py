"""The Pi's boot config (config.txt): what the board needs from it, and what gets in its way.

The LEDs need SPI on (``dtparam=spi=on``) and, on a Pi 3, 4 or Zero 2 W, the core clock
pinned, because the SPI clock is derived from it (``core_freq_min=500`` on a Pi 4,
``core_freq=250`` on a Pi 3 or Zero 2 W); a Pi 5's SPI does not depend on it.  Enabled
interfaces take pins for their kernel drivers: 1-Wire (``dtoverlay=w1-gpio``, GPIO4 unless
``gpiopin=``), I2C (``dtparam=i2c_arm=on``, GPIO2 and 3), the serial port
(``enable_uart=1``, GPIO14 and 15), SPI1 (``dtoverlay=spi1-1cs`` .. ``spi1-3cs``: GPIO19-21
and a chip select each on 18, 17, 16), I2S sound cards (``dtparam=i2s=on`` or a DAC HAT's
overlay: GPIO18-21), PWM audio on the header (``dtoverlay=audremap``: GPIO12 and 13, or
18 and 19), and the shutdown button (``dtoverlay=gpio-shutdown``: GPIO3 unless
``gpio_pin=``, which is the default board's hint button: a hint would halt the Pi).  A
profile pin among them reads "GPIO busy" or fights the driver.

Pure but for `read_boot_config` and `pi_model`: the text is parsed as the firmware
reads it, conditional sections (``[pi4]``, ``[all]``, ``[none]``, ...) by the model and
``include`` lines followed.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from bgpi.board.profile import Profile
from bgpi.hardware.wiring import pin_roles

BOOT_CONFIGS = (Path("/boot/firmware/config.txt"), Path("/boot/config.txt"))
"""Where Raspberry Pi OS keeps it: Bookworm first, then older releases."""
MODEL_FILE = Path("/proc/device-tree/model")

FILTERS = {
    # model: the section filters that apply to it (config.txt documentation)
    "pi5": {"pi5"},
    "pi4": {"pi4"},
    "pi3": {"pi3"},
    "pi02": {"pi02", "pi0"},
    "pi0": {"pi0"},
    "pi2": {"pi2"},
    "pi1": {"pi1"},
}
KNOWN_FILTERS = ({name for names in FILTERS.values() for name in names}
                 | {"pi400", "pi500", "cm4", "cm5", "pi0w", "pi3+", "none", "all"})
CORE_CLOCK = {
    # model: (key, value, why) of the line that pins the core clock for SPI
    "pi4": ("core_freq_min", 500, "a Pi 4"),
    "pi3": ("core_freq", 250, "a Pi 3"),
    "pi02": ("core_freq", 250, "a Pi Zero 2 W"),
}


def pi_model(model_file: Path | None = None) -> str | None:
    """"pi5", "pi4", "pi3", "pi02", "pi0", "pi2" or "pi1" from the device tree's model
    name ("Raspberry Pi 4 Model B Rev 1.4"; `MODEL_FILE` if None); None off a Pi or for
    one not known here."""
    try:
        name = (model_file or MODEL_FILE).read_bytes().rstrip(b"\0").decode(errors="replace")
    except OSError:
        return None
    return model_of(name)


def model_of(name: str) -> str | None:
    """The model of a device-tree model name (see `pi_model`)."""
    if not name.startswith("Raspberry Pi"):
        return None
    if "Zero 2" in name:
        return "pi02"
    if "Zero" in name:
        return "pi0"
    # "Raspberry Pi 4 Model B", "Raspberry Pi 400", "Raspberry Pi Compute Module 3";
    # the first Pis have no number: "Raspberry Pi Model B Plus".
    if match := re.match(r"Raspberry Pi (Compute Module )?(\d)", name):
        return f"pi{match[2]}" if f"pi{match[2]}" in FILTERS else None
    return "pi1" if "Model" in name else None


@dataclass
class BootConfig:
    """The settings that apply to one model, last value of each key winning."""

    source: str
    values: dict[str, str] = field(default_factory=dict)
    dtparams: dict[str, str] = field(default_factory=dict)
    overlays: list[tuple[str, dict[str, str]]] = field(default_factory=list)

    def number(self, key: str) -> int | None:
        try:
            return int(self.values[key], 0)
        except (KeyError, ValueError):
            return None

    def dtparam_on(self, *names: str) -> bool:
        return any(self.dtparams.get(name, "off") in ("on", "", "1", "true", "yes") for name in names)


def parse_boot_config(text: str, model: str | None, source: str = "config.txt",
                      include: Path | None = None) -> BootConfig:
    """The settings of `text` that apply to `model`; `include` is the directory that
    ``include`` lines are read from (None: they are ignored)."""
    config = BootConfig(source)
    _read(text, model, config, include, depth=0)
    return config


def _read(text: str, model: str | None, config: BootConfig, include: Path | None, depth: int) -> None:
    applies = True
    mine = FILTERS.get(model or "", set())
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if section := re.fullmatch(r"\[([^\]]*)\]", line):
            name = section[1].strip().lower()
            # Sections this module does not model ([HDMI:1], [gpio4=1], [EDID=...]) are
            # taken to apply: a line there is more likely meant than not.
            applies = name == "all" or name in mine or name not in KNOWN_FILTERS
            continue
        if not applies:
            continue
        if line.startswith("include ") and include is not None and depth < 4:
            with contextlib.suppress(OSError):  # the firmware skips a missing include too
                _read((include / line.split(None, 1)[1]).read_text(errors="replace"), model,
                      config, include, depth + 1)
            continue
        key, _, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if key == "dtparam":
            for param in value.split(","):
                name, _, setting = param.partition("=")
                config.dtparams[name.strip()] = setting.strip().lower()
        elif key == "dtoverlay":
            name, *params = value.split(",")
            settings = dict(param.partition("=")[::2] for param in params)
            if name.strip():
                config.overlays.append((name.strip(), {k.strip(): v.strip() for k, v in settings.items()}))
        else:
            config.values[key] = value


def read_boot_config(model: str | None, paths: Iterable[Path] | None = None) -> BootConfig | None:
    """The Pi's boot config for `model`, from the first of `paths` (None: `BOOT_CONFIGS`)
    that exists; None if none does."""
    for path in BOOT_CONFIGS if paths is None else paths:
        try:
            text = path.read_text(errors="replace")
        except OSError:
            continue
        return parse_boot_config(text, model, str(path), include=path.parent)
    return None


SPI1_PINS = (19, 20, 21)
"""MISO, MOSI and SCLK of SPI1 (spi1-Ncs overlays)."""
SPI1_CHIP_SELECTS = (18, 17, 16)
"""The default pins of SPI1's chip selects cs0, cs1, cs2 (``csN_pin=`` moves one)."""
I2S_PINS = (18, 19, 20, 21)
"""PCM_CLK, PCM_FS, PCM_DIN and PCM_DOUT: every I2S sound card takes them."""
I2S_OVERLAYS = ("hifiberry-", "iqaudio-", "allo-", "justboom-", "audioinjector-", "pisound", "rpi-dac",
                "i2s-", "max98357a", "googlevoicehat-", "adau", "dionaudio-", "applepi-dac", "fe-pi-audio",
                "merus-amp", "akkordion-", "rra-digidac1", "superaudioboard", "wm8960-")
"""Overlay names (or their starts) of the firmware's sound cards that use I2S."""


def _pin(params: dict[str, str], key: str, default: int) -> int | None:
    """The pin an overlay parameter names (`default` without it); None if it is no number."""
    try:
        return int(params.get(key, str(default)), 0)
    except ValueError:
        return None


def overlay_pins(name: str, params: dict[str, str]) -> list[int]:
    """The GPIO pins the overlay `name` with `params` takes ([] for overlays not known here)."""
    if name in ("w1-gpio", "w1-gpio-pullup"):
        pins = [_pin(params, "gpiopin", 4)]
    elif name == "gpio-shutdown":
        pins = [_pin(params, "gpio_pin", 3)]
    elif name == "audremap":
        pins = [18, 19] if "pins_18_19" in params else [12, 13]
    elif match := re.fullmatch(r"spi1-([123])cs", name):
        selects = [_pin(params, f"cs{n}_pin", SPI1_CHIP_SELECTS[n]) for n in range(int(match[1]))]
        pins = [*SPI1_PINS, *selects]
    elif name.startswith(I2S_OVERLAYS):
        pins = list(I2S_PINS)
    else:
        pins = []
    return [pin for pin in pins if pin is not None]


OVERLAY_NAMES = {"w1-gpio": "1-Wire", "w1-gpio-pullup": "1-Wire", "gpio-shutdown": "the shutdown button",
                 "audremap": "PWM audio"}
"""How `interface_pins` names an overlay's interface (SPI1 and sound cards by their kind)."""


def interface_pins(config: BootConfig) -> dict[int, str]:
    """GPIO pin -> the enabled interface whose kernel driver takes it, with its line."""
    pins: dict[int, str] = {}
    for name, params in config.overlays:
        kind = OVERLAY_NAMES.get(name) or ("SPI1" if name.startswith("spi1-") else "an I2S sound card")
        pins.update(dict.fromkeys(overlay_pins(name, params), f"{kind} (dtoverlay={name})"))
    if config.dtparam_on("i2s"):
        pins.update(dict.fromkeys(I2S_PINS, "I2S (dtparam=i2s=on)"))
    if config.dtparam_on("i2c_arm", "i2c", "i2c1"):
        pins.update(dict.fromkeys((2, 3), "I2C (dtparam=i2c_arm=on)"))
    if config.number("enable_uart") == 1:
        pins.update(dict.fromkeys((14, 15), "the serial port (enable_uart=1)"))
    return pins


def led_problems(config: BootConfig, model: str | None) -> list[str]:
    """What the LEDs on SPI lack in `config` for `model`, one line each."""
    problems = []
    if not config.dtparam_on("spi"):
        problems.append(f"dtparam=spi=on is missing from {config.source}: the LEDs' SPI bus "
                        "is off (add it and reboot)")
    if model in CORE_CLOCK:
        key, value, pi = CORE_CLOCK[model]
        if config.number(key) != value:
            problems.append(f"{key}={value} is missing from {config.source}: on {pi} the SPI "
                            "clock follows the core clock, so the LED colours go wrong when it "
                            "slows (add it and reboot)")
    return problems


def boot_problems(config: BootConfig, model: str | None, profile: Profile) -> list[str]:
    """Everything in `config` that the board of `profile` on a Pi `model` lacks or
    collides with, one line each (`led_problems`, then `pin_conflicts`)."""
    return led_problems(config, model) + pin_conflicts(config, pin_roles(profile))


def pin_conflicts(config: BootConfig, used: dict[int, str]) -> list[str]:
    """The profile's pins (`used`: pin -> its role) that an enabled interface takes."""
    taken = interface_pins(config)
    return [f"GPIO{pin} ({role}) is taken by {taken[pin]} in {config.source}: turn that "
            f"off, or move {role} to a free pin in the profile"
            for pin, role in sorted(used.items()) if pin in taken]
