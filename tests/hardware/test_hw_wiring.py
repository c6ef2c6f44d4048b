"""The wiring file: the sample loads, and every mistake names the file and the field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hardware.dial import DialKind
from hardware.events import TableButton
from hardware.wiring import WiringError, load_wiring, parse_wiring

REPO = Path(__file__).resolve().parents[2]
SEAT = {"dial": {"gray": [17, 27]}, "ready": 22, "led": 23}


def problems(data: dict[str, Any]) -> list[str]:
    with pytest.raises(WiringError) as info:
        parse_wiring(data, "table.toml")
    lines = str(info.value).splitlines()
    assert all(line.startswith("table.toml: ") for line in lines)
    return [line.removeprefix("table.toml: ") for line in lines]


def test_sample_wiring_loads() -> None:
    w = load_wiring(REPO / "deploy" / "wiring.toml")
    assert sorted(w.seats) == [1, 2, 3, 4]
    assert w.seats[1].dial_kind is DialKind.GRAY and w.seats[1].dial == (17, 27)
    assert w.buttons == {TableButton.NEXT: 9, TableButton.UNDO: 10, TableButton.CONFIRM: 11}
    assert w.buzzer == 12 and w.settle == 0.03 and w.table_seats == 6
    assert w.hub is not None and w.hub.seats == (5, 6) and w.hub.port == "/dev/heat-hub"
    assert len(w.pin_owners()) == 20


def test_minimal_and_one_hot() -> None:
    w = parse_wiring({"seat": {"2": {"dial": {"positions": [5, 6, 13, 19]}, "ready": 26}}})
    assert w.seats[2].dial_kind is DialKind.POSITIONS and w.seats[2].led is None
    assert w.uses_gpio and w.hub is None
    assert not parse_wiring({}).uses_gpio


def test_pin_used_twice_names_both_fields() -> None:
    data: dict[str, Any] = {"seat": {"1": SEAT, "3": {"dial": {"gray": [5, 6]}, "ready": 22}}}
    assert problems(data) == ["seat.3.ready: GPIO22 is already used by seat.1.ready"]
    data = {"buttons": {"next": 17}, "seat": {"1": SEAT}}
    assert problems(data) == ["seat.1.dial.gray[0]: GPIO17 is already used by buttons.next"]


def test_reserved_pins() -> None:
    assert problems({"buttons": {"next": 0}}) == [
        "buttons.next: GPIO0 is reserved (ID_SD, the HAT ID EEPROM bus)"]
    assert problems({"table": {"reserved_pins": [14, 15]}, "buzzer": {"pin": 14}}) == [
        "buzzer.pin: GPIO14 is reserved (listed in table.reserved_pins)"]


def test_unknown_seat() -> None:
    assert problems({"seat": {"7": SEAT}}) == [
        "seat.7: unknown seat '7': seats are 1..6 (table.seats)"]
    assert problems({"table": {"seats": 2}, "seat": {"3": SEAT}}) == [
        "seat.3: unknown seat '3': seats are 1..2 (table.seats)"]
    assert problems({"seat": {"one": SEAT}}) == [
        "seat.one: unknown seat 'one': seats are 1..6 (table.seats)"]
    assert problems({"hub": {"port": "/dev/x", "seats": [9]}}) == [
        "hub.seats[0]: unknown seat '9': seats are 1..6 (table.seats)"]


def test_bad_values_and_unknown_fields() -> None:
    got = problems({
        "version": 2,
        "colour": "red",
        "table": {"seats": 0, "settle_ms": "30", "pull_up": "yes"},
        "buttons": {"next": True, "skip": 4},
        "seat": {
            "1": {"dial": {"gray": [17]}, "ready": 40},
            "2": {"dial": {"gray": [5, 6], "positions": [7, 8, 9, 10]}, "ready": 11, "lamp": 1},
            "3": {"led": 12},
        },
        "hub": {"seats": [1, 2, 2], "name": "my hub"},
    })
    assert got == [
        "colour: unknown field (expected one of: buttons, buzzer, hub, seat, table, version)",
        "version: unsupported version 2 (expected 1)",
        "table.seats: must be a whole number from 1 to 8, not 0",
        "table.settle_ms: must be a whole number from 1 to 500, not '30'",
        "table.pull_up: must be true or false, not 'yes'",
        "buttons.skip: unknown field (expected one of: confirm, next, undo)",
        "buttons.next: must be a BCM GPIO number (e.g. 17), not True",
        "seat.1.dial.gray: must list 2 GPIO numbers",
        "seat.1.ready: GPIO40 does not exist on the 40-pin header (0..27)",
        "seat.2.lamp: unknown field (expected one of: dial, led, ready)",
        "seat.2.dial: needs exactly one of dial.gray = [a, b] or dial.positions = [p1, p2, p3, p4]",
        "seat.3.dial: needs exactly one of dial.gray = [a, b] or dial.positions = [p1, p2, p3, p4]",
        "seat.3.ready: missing (the seat's Ready button)",
        'hub.port: must be the serial device, e.g. "/dev/heat-hub"',
        "hub.name: must be a short word, not 'my hub'",
        "hub.seats[2]: seat 2 is listed twice",
    ]


def test_seat_on_gpio_and_hub() -> None:
    assert problems({"seat": {"1": SEAT}, "hub": {"port": "/dev/heat-hub", "seats": [1, 5]}}) == [
        "hub.seats[0]: seat 1 is wired to GPIO (seat.1); a seat is on GPIO or on the hub, not both"
    ]


def test_file_errors_name_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(WiringError, match=r"nope\.toml: \(file\): no such file"):
        load_wiring(missing)
    bad = tmp_path / "bad.toml"
    bad.write_text("[seat.1]\nready = \n", encoding="utf-8")
    with pytest.raises(WiringError, match=r"bad\.toml: \(syntax\): .*line 2"):
        load_wiring(bad)
    dup = tmp_path / "dup.toml"
    dup.write_text("[seat.1]\nready = 22\ndial.gray = [17, 27]\n[seat.2]\nready = 22\n"
                   "dial.gray = [5, 6]\n", encoding="utf-8")
    with pytest.raises(WiringError) as info:
        load_wiring(dup)
    assert str(info.value) == f"{dup}: seat.2.ready: GPIO22 is already used by seat.1.ready"
    assert info.value.problems[0].field == "seat.2.ready"
