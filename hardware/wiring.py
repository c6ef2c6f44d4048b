"""The wiring file: which GPIO pin does what, per seat (TOML, read with stdlib ``tomllib``).

See ``deploy/wiring.toml`` for a commented sample and ``docs/wiring.md`` for the format.
Every problem names the file and the field, and all problems are reported at once::

    wiring.toml: seat.3.ready: GPIO22 is already used by seat.1.ready

Pins are BCM GPIO numbers (the "GPIO17" in pinout diagrams), 2..27 on the 40-pin header.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .dial import PIN_COUNT, DialKind
from .events import MAX_SEATS, TableButton

WIRING_VERSION = 1
MAX_GPIO = 27
ALWAYS_RESERVED: dict[int, str] = {
    0: "ID_SD, the HAT ID EEPROM bus",
    1: "ID_SC, the HAT ID EEPROM bus",
}
DEFAULT_SEATS = 6
DEFAULT_SETTLE_MS = 30


@dataclass(frozen=True, slots=True)
class SeatPins:
    seat: int
    dial_kind: DialKind
    dial: tuple[int, ...]
    ready: int
    led: int | None = None


@dataclass(frozen=True, slots=True)
class HubConfig:
    port: str
    seats: tuple[int, ...]
    baudrate: int = 115200
    name: str = "hub"


@dataclass(frozen=True, slots=True)
class Wiring:
    """A validated wiring file."""

    source: str = "<wiring>"
    table_seats: int = DEFAULT_SEATS
    settle: float = DEFAULT_SETTLE_MS / 1000
    pull_up: bool = True
    led_active_high: bool = True
    seats: dict[int, SeatPins] = field(default_factory=dict)
    buttons: dict[TableButton, int] = field(default_factory=dict)
    buzzer: int | None = None
    buzzer_active_high: bool = True
    hub: HubConfig | None = None

    @property
    def uses_gpio(self) -> bool:
        return bool(self.seats or self.buttons or self.buzzer is not None)

    def pin_owners(self) -> dict[int, str]:
        """GPIO number -> the field that uses it."""
        owners: dict[int, str] = {}
        for b, pin in self.buttons.items():
            owners[pin] = f"buttons.{b}"
        if self.buzzer is not None:
            owners[self.buzzer] = "buzzer.pin"
        for s in self.seats.values():
            for i, pin in enumerate(s.dial):
                owners[pin] = f"seat.{s.seat}.dial.{s.dial_kind}[{i}]"
            owners[s.ready] = f"seat.{s.seat}.ready"
            if s.led is not None:
                owners[s.led] = f"seat.{s.seat}.led"
        return owners


@dataclass(frozen=True, slots=True)
class WiringProblem:
    field: str
    message: str


class WiringError(ValueError):
    """The wiring file is unusable; ``str()`` lists every problem as ``file: field: message``."""

    def __init__(self, source: str, problems: list[WiringProblem]) -> None:
        self.source = source
        self.problems = problems
        super().__init__("\n".join(f"{source}: {p.field}: {p.message}" for p in problems))


def load_wiring(path: str | Path) -> Wiring:
    """Read and validate a wiring file; raises :class:`WiringError`."""
    path = Path(path)
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise WiringError(str(path), [WiringProblem("(file)", "no such file")]) from None
    except OSError as exc:
        raise WiringError(str(path), [WiringProblem("(file)", exc.strerror or str(exc))]) from None
    except tomllib.TOMLDecodeError as exc:
        raise WiringError(str(path), [WiringProblem("(syntax)", str(exc))]) from None
    return parse_wiring(data, str(path))


def parse_wiring(data: dict[str, Any], source: str = "<wiring>") -> Wiring:
    """Validate already-parsed TOML data; raises :class:`WiringError`."""
    return _Parser(source).parse(data)


class _Parser:
    def __init__(self, source: str) -> None:
        self.source = source
        self.problems: list[WiringProblem] = []
        self.used: dict[int, str] = {}
        self.reserved: dict[int, str] = dict(ALWAYS_RESERVED)

    def fail(self, where: str, message: str) -> None:
        self.problems.append(WiringProblem(where, message))

    def parse(self, data: dict[str, Any]) -> Wiring:
        self.known_keys(data, "", {"version", "table", "buttons", "buzzer", "seat", "hub"})
        version = data.get("version", WIRING_VERSION)
        if version != WIRING_VERSION:
            self.fail("version", f"unsupported version {version!r} (expected {WIRING_VERSION})")
        table = self.section(data, "table", {"seats", "settle_ms", "pull_up", "led_active_high",
                                             "reserved_pins"})
        seats_n = self.integer(table, "table.seats", "seats", DEFAULT_SEATS, 1, MAX_SEATS)
        settle_ms = self.integer(table, "table.settle_ms", "settle_ms", DEFAULT_SETTLE_MS, 1, 500)
        pull_up = self.boolean(table, "table.pull_up", "pull_up", True)
        led_high = self.boolean(table, "table.led_active_high", "led_active_high", True)
        extra = table.get("reserved_pins", [])
        if not isinstance(extra, list):
            self.fail("table.reserved_pins", "must be a list of GPIO numbers")
            extra = []
        for i, pin in enumerate(extra):
            if self.valid_pin(f"table.reserved_pins[{i}]", pin):
                self.reserved.setdefault(pin, "listed in table.reserved_pins")

        buttons: dict[TableButton, int] = {}
        section = self.section(data, "buttons", {b.value for b in TableButton})
        for b in TableButton:
            if b.value in section:
                pin = self.pin(f"buttons.{b}", section[b.value])
                if pin is not None:
                    buttons[b] = pin

        buzzer_s = self.section(data, "buzzer", {"pin", "active_high"})
        buzzer = self.pin("buzzer.pin", buzzer_s["pin"]) if "pin" in buzzer_s else None
        buzzer_high = self.boolean(buzzer_s, "buzzer.active_high", "active_high", True)

        seats: dict[int, SeatPins] = {}
        for key, value in self.section(data, "seat", None).items():
            seat = self.seat_number(f"seat.{key}", key, seats_n)
            if seat is not None and seat in seats:
                self.fail(f"seat.{key}", f"seat {seat} is listed twice")
            elif seat is not None:
                pins = self.seat_pins(seat, f"seat.{key}", value)
                if pins is not None:
                    seats[seat] = pins

        hub = self.hub(data, seats, seats_n)
        if self.problems:
            raise WiringError(self.source, self.problems)
        return Wiring(self.source, seats_n, settle_ms / 1000, pull_up, led_high, seats, buttons,
                      buzzer, buzzer_high, hub)

    # -- sections and scalars ---------------------------------------------------------------

    def known_keys(self, table: dict[str, Any], prefix: str, allowed: set[str]) -> None:
        for key in table:
            if key not in allowed:
                names = ", ".join(sorted(allowed))
                self.fail(prefix + key, f"unknown field (expected one of: {names})")

    def section(self, data: dict[str, Any], name: str, allowed: set[str] | None) -> dict[str, Any]:
        value = data.get(name, {})
        if not isinstance(value, dict):
            self.fail(name, "must be a table ([" + name + "])")
            return {}
        if allowed is not None:
            self.known_keys(value, name + ".", allowed)
        return value

    def integer(self, table: dict[str, Any], where: str, key: str, default: int, lo: int,
                hi: int) -> int:
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            self.fail(where, f"must be a whole number from {lo} to {hi}, not {value!r}")
            return default
        return value

    def boolean(self, table: dict[str, Any], where: str, key: str, default: bool) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            self.fail(where, f"must be true or false, not {value!r}")
            return default
        return value

    def valid_pin(self, where: str, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(where, f"must be a BCM GPIO number (e.g. 17), not {value!r}")
            return False
        if not 0 <= value <= MAX_GPIO:
            self.fail(where, f"GPIO{value} does not exist on the 40-pin header (0..{MAX_GPIO})")
            return False
        return True

    def pin(self, where: str, value: object) -> int | None:
        if not self.valid_pin(where, value):
            return None
        assert isinstance(value, int)
        if value in self.reserved:
            self.fail(where, f"GPIO{value} is reserved ({self.reserved[value]})")
            return None
        if value in self.used:
            self.fail(where, f"GPIO{value} is already used by {self.used[value]}")
            return None
        self.used[value] = where
        return value

    def seat_number(self, where: str, key: object, seats_n: int) -> int | None:
        text = str(key)
        if not text.isdigit() or not 1 <= int(text) <= seats_n:
            self.fail(where, f"unknown seat {text!r}: seats are 1..{seats_n} (table.seats)")
            return None
        return int(text)

    # -- seats and hub -----------------------------------------------------------------------

    def seat_pins(self, seat: int, where: str, value: object) -> SeatPins | None:
        if not isinstance(value, dict):
            self.fail(where, "must be a table with dial, ready and led")
            return None
        self.known_keys(value, where + ".", {"dial", "ready", "led"})
        ok = True
        dial_kind = DialKind.GRAY
        dial: tuple[int, ...] = ()
        spec = value.get("dial")
        kinds = [k for k in DialKind if isinstance(spec, dict) and k.value in spec]
        if not isinstance(spec, dict) or len(kinds) != 1 or len(spec) != 1:
            self.fail(where + ".dial", "needs exactly one of dial.gray = [a, b] or "
                      "dial.positions = [p1, p2, p3, p4]")
            ok = False
        else:
            dial_kind = kinds[0]
            pins = spec[dial_kind.value]
            field_name = f"{where}.dial.{dial_kind}"
            if not isinstance(pins, list) or len(pins) != PIN_COUNT[dial_kind]:
                self.fail(field_name, f"must list {PIN_COUNT[dial_kind]} GPIO numbers")
                ok = False
            else:
                got = [self.pin(f"{field_name}[{i}]", p) for i, p in enumerate(pins)]
                ok = ok and None not in got
                dial = tuple(p for p in got if p is not None)
        if "ready" not in value:
            self.fail(where + ".ready", "missing (the seat's Ready button)")
            ready = None
        else:
            ready = self.pin(where + ".ready", value["ready"])
        led = self.pin(where + ".led", value["led"]) if "led" in value else None
        if not ok or ready is None or ("led" in value and led is None):
            return None
        return SeatPins(seat, dial_kind, dial, ready, led)

    def hub(
        self, data: dict[str, Any], seats: dict[int, SeatPins], seats_n: int
    ) -> HubConfig | None:
        if "hub" not in data:
            return None
        hub = self.section(data, "hub", {"port", "seats", "baudrate", "name"})
        port = hub.get("port")
        if not isinstance(port, str) or not port:
            self.fail("hub.port", "must be the serial device, e.g. \"/dev/heat-hub\"")
        name = hub.get("name", "hub")
        if not isinstance(name, str) or not name.isidentifier():
            self.fail("hub.name", f"must be a short word, not {name!r}")
        baud = self.integer(hub, "hub.baudrate", "baudrate", 115200, 1200, 4_000_000)
        raw = hub.get("seats", [])
        hub_seats: list[int] = []
        if not isinstance(raw, list):
            self.fail("hub.seats", "must be a list of seat numbers")
            raw = []
        for i, key in enumerate(raw):
            where = f"hub.seats[{i}]"
            if isinstance(key, bool) or not isinstance(key, int):
                self.fail(where, f"must be a seat number, not {key!r}")
                continue
            seat = self.seat_number(where, key, seats_n)
            if seat is None:
                continue
            if seat in seats:
                self.fail(where, f"seat {seat} is wired to GPIO (seat.{seat}); a seat is on GPIO "
                          "or on the hub, not both")
            elif seat in hub_seats:
                self.fail(where, f"seat {seat} is listed twice")
            else:
                hub_seats.append(seat)
        if not isinstance(port, str) or not isinstance(name, str):
            return None
        return HubConfig(port, tuple(hub_seats), baud, name)
