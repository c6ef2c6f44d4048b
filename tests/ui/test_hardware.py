"""The table hardware in the real app: Ready presses, buttons, LEDs, the check screen, systemd.

A pin-free ``hardware.fakes.FakeTable`` (the same debounce and event rules as the GPIO table)
stands in for the table; one test goes through ``hardware.detect`` with gpiozero's mock pins.
"""

from __future__ import annotations

import os
import re
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from companion.engine import ChooseGear
from companion.ui.widgets.lookup import find
from hardware import FakeTable, InputRejected, LedPattern, TableButton
from hardware.clock import FakeClock
from hardware.events import dial_between

pytestmark = pytest.mark.ui


def _race(harness: Any) -> Any:
    harness.player.set_up_race()
    harness.player.press("start race")
    return harness.app


def _seat_of(app: Any, car: str) -> int:
    return next(s for s, c in app.seat_map.items() if c == car)


def test_touch_only_is_said_in_words_and_the_reason_kept_for_the_check(ui) -> None:
    from kivy.core.window import Window

    app = ui.app
    start = app.sm.current_screen
    notice = find(start, "hardware notice")
    assert notice.text == "No table hardware found: touch only"  # no file path
    assert not [w for w in Window.children if w is not app.root]  # nothing over the screens
    # A tap on the notice opens the check screen, which says why in words, the technical
    # text one tap further.
    ui.player.press("hardware notice")
    screen = app.sm.current_screen
    assert app.sm.current == "hwcheck"
    assert find(screen, "hw summary").text == "No table hardware found: touch only."
    assert find(screen, "hw reason").text == (
        "No wiring file: no buttons or dials are set up for this table.")
    assert find(screen, "hw technical text").text == ""
    ui.player.press("hw technical")
    assert find(screen, "hw technical text").text == (
        "no wiring file at /nonexistent/wiring.toml: running touch-only")
    assert find(screen, "hw no seats").text
    assert find(screen, "hw hub").text == "No serial hub."
    assert find(screen, "hw buttons").text == "No shared buttons."  # not "none pressed yet"
    # Back goes where the check was opened from: Start's notice, else Settings.
    ui.player.press("back")
    assert app.sm.current == "start"
    app.show("settings")
    ui.player.press("hardware check")
    assert app.sm.current == "hwcheck"
    ui.player.press("back")
    assert app.sm.current == "settings"


def test_ready_press_chooses_the_dialled_gear(table) -> None:
    harness, fake = table
    app = _race(harness)
    assert app.seat_map == {1: "red", 2: "blue"}  # default: drivers in entry order
    app.poll_hardware()
    assert fake.leds[1] is LedPattern.BLINK and fake.leds[2] is LedPattern.BLINK
    assert fake.leds[3] is LedPattern.OFF
    fake.turn_dial(1, 2)
    fake.press_ready(1)
    app.poll_hardware()
    state = app.controller.state
    assert state.planned == {"red": 2}
    assert app.session.actions()[-1] == ChooseGear("red", 2)
    assert fake.leds[1] is LedPattern.OFF and fake.leds[2] is LedPattern.BLINK
    assert find(app.sm.current_screen, "ready red").text == "ready"


def test_a_second_ready_at_the_same_gear_records_nothing(table) -> None:
    """Ready pressed again at the gear already chosen (or its gear tapped again) changes
    nothing and is not logged: it was logged as a second choice, and Undo then took back
    the copy and seemed to do nothing (found by a table test). The seat stays ready."""
    harness, fake = table
    app = _race(harness)
    fake.turn_dial(1, 2)
    fake.press_ready(1)
    app.poll_hardware()
    actions = app.session.actions()
    fake.press_ready(1)
    app.poll_hardware()
    assert app.session.actions() == actions
    assert app.controller.error == "Ana is already ready in gear 2: nothing changed."
    assert fake.leds[1] is LedPattern.OFF  # still ready: no attention blink
    harness.player.press("gear red 2")  # the same from the screen
    assert app.session.actions() == actions and app.controller.state.planned == {"red": 2}
    harness.player.press("undo")  # one Undo takes the choice back
    assert app.controller.state.planned == {}
    harness.player.press("gear red 3")
    harness.player.press("gear red 2")  # another gear is a new choice: recorded
    assert app.controller.state.planned == {"red": 2}
    assert app.session.actions()[-1] == ChooseGear("red", 2)


def test_the_dialled_gear_is_marked_in_the_car_s_cell(table) -> None:
    """While the drivers pick their gears, the gear each seat's dial is on is marked in its
    car's cell (the table sees what Ready will choose; a table test found the race screen
    never said): its digit in the accent colour, until Ready marks the choice itself."""
    harness, fake = table
    app = _race(harness)
    screen = app.sm.current_screen

    def roles(car: str) -> list[str]:
        return [find(screen, f"gear {car} {gear}").role for gear in (1, 2, 3, 4)]

    app.poll_hardware()
    assert roles("red") == ["dialled", "normal", "normal", "off"]  # the dials start at 1
    fake.turn_dial(1, 2)
    app.poll_hardware()
    assert roles("red") == ["normal", "dialled", "normal", "off"]
    assert roles("blue") == ["dialled", "normal", "normal", "off"]
    fake.turn_dial(2, 4)  # a gear it cannot shift to: shown as such, not as the dial's
    app.poll_hardware()
    assert roles("blue") == ["normal", "normal", "normal", "off"]
    fake.turn_dial(2, 3)
    app.poll_hardware()
    assert roles("blue") == ["normal", "normal", "dialled", "off"]
    harness.player.press("gear blue 1")  # the screen's choice wins over the dial
    assert roles("blue") == ["selected", "normal", "normal", "off"]
    fake.press_ready(1)  # the last choice: the round's cards come next
    app.poll_hardware()
    assert app.controller.state.car("red").gear == 2


def test_the_prompt_says_what_the_dial_s_mark_is(table) -> None:
    """The dialled gear's orange digit had no legend: a table that had not turned a dial
    yet read an orange "1" in every cell without knowing why (found by a table test). While
    a mark shows, the prompt says what it is; once no cell shows one, it says no more. A
    touch-only table's prompt never says it."""
    harness, fake = table
    app = _race(harness)
    screen = app.sm.current_screen
    legend = "Orange: the gear on the seat's dial; Ready chooses it."
    app.poll_hardware()
    prompt = find(screen, "prompt")
    assert prompt.text == "Pick your gear: 2 drivers still to choose. " + legend
    fake.turn_dial(2, 4)  # a gear blue cannot shift to: no mark in its cell; red's still
    app.poll_hardware()
    assert prompt.text.endswith(legend)
    fake.press_ready(1)  # red chose: its mark gives way to its choice; blue shows none
    app.poll_hardware()
    assert prompt.text == "Pick your gear: 1 driver still to choose."
    fake.turn_dial(2, 2)
    app.poll_hardware()
    assert prompt.text == "Pick your gear: 1 driver still to choose. " + legend


def test_a_touch_only_prompt_has_no_dial_legend(ui) -> None:
    app = _race(ui)
    assert find(app.sm.current_screen, "prompt").text == (
        "Pick your gear: 2 drivers still to choose.")


def test_illegal_shift_blinks_fast_shows_why_and_changes_nothing(table) -> None:
    harness, fake = table
    app = _race(harness)
    clock = FakeClock()
    app.hw_bridge.clock = clock
    before = app.controller.state
    logged = len(app.session.actions())
    fake.turn_dial(2, 4)  # from 1st gear: three gears at once
    fake.press_ready(2)
    app.poll_hardware()
    harness.pump()
    assert app.controller.state is before and len(app.session.actions()) == logged
    assert fake.leds[2] is LedPattern.FAST_BLINK
    assert fake.leds[1] is LedPattern.BLINK
    assert fake.beeps  # and a beep
    error = find(app.sm.current_screen, "messages").shown[0]
    assert error == "Ben: Cannot shift from gear 1 to 4: at most two gears at once."
    clock.advance(2.1)
    app.poll_hardware()
    assert fake.leds[2] is LedPattern.BLINK  # back to "waiting for your gear"
    engine = before.car("blue").engine
    fake.turn_dial(2, 3)  # two gears: allowed, and the engine charges 1 Heat for it
    fake.press_ready(2)
    app.poll_hardware()
    assert app.controller.state.planned == {"blue": 3}
    fake.press_ready(1)  # the last gear: the shifts are paid
    app.poll_hardware()
    state = app.controller.state
    assert state.car("blue").gear == 3 and state.car("blue").engine == engine - 1
    assert any("pay 1 Heat" in m for m in app.controller.messages)


def test_table_buttons_do_what_the_screen_buttons_do(table) -> None:
    harness, fake = table
    app = _race(harness)
    fake.press_ready(1)
    fake.press_ready(2)
    app.poll_hardware()
    controller = app.controller
    current = controller.state.current_car
    assert controller.view().mode == "reveal"
    assert fake.leds[_seat_of(app, current)] is LedPattern.ON
    other = 3 - _seat_of(app, current)
    assert fake.leds[other] is LedPattern.OFF
    between = InputRejected("fake", dial_between(2), seat=2)
    fake.queue.put(between)  # what the table sends for a dial resting between two gears
    app.poll_hardware()
    assert fake.leds[2] is LedPattern.FAST_BLINK
    assert controller.error.startswith("Seat 2: the gear dial is between two gears.")
    fake.press(TableButton.NEXT)  # nothing to end yet
    app.poll_hardware()
    assert controller.view().mode == "reveal"
    assert "decide something first" in controller.error
    controller.key("1")
    fake.press(TableButton.CONFIRM)  # = Move
    app.poll_hardware()
    assert controller.view().mode == "react"
    fake.press(TableButton.NEXT)  # = End turn
    app.poll_hardware()
    assert controller.state.current_car != current
    fake.press(TableButton.UNDO)
    app.poll_hardware()
    assert controller.state.current_car == current and controller.view().mode == "react"


def test_a_table_input_closes_the_rulings_overlay(table) -> None:
    """Every sentence over the screen (a tap on the ruling box) shows the last input's ruling;
    a Ready on the table brings a new one and the prompt changes under it: the overlay closes,
    as the zoomed map does, and the box shows the new ruling (it stayed open, stale, over the
    new prompt, even over Results)."""
    harness, fake = table
    app = _race(harness)
    fake.press_ready(1)
    app.poll_hardware()
    harness.pump(2)
    box = app.sm.current_screen.ids.messages
    assert box.text
    box.dispatch("on_release")
    overlay = box._overlay
    assert overlay is not None and overlay.parent is not None
    assert overlay.text == box.text
    fake.press_ready(2)
    app.poll_hardware()
    harness.pump(2)
    assert overlay.parent is None
    assert app.controller.view().mode == "reveal"


def test_hardware_check_screen_is_live_and_identify_blinks(table) -> None:
    harness, fake = table
    app = _race(harness)
    clock = FakeClock()
    app.hw_bridge.clock = clock
    state = app.controller.state
    app.show("settings")
    harness.player.press("hardware check")
    screen = app.sm.current_screen
    assert find(screen, "hw summary").text == "Table hardware found: seats 1, 2, 3, 4."
    assert find(screen, "hw car 1").text == "Ana"
    fake.turn_dial(1, 3)
    fake.press_ready(1)  # shown, not played
    fake.press(TableButton.UNDO)
    app.poll_hardware()
    assert find(screen, "hw dial 1").text == "Gear 3"
    assert find(screen, "hw last 1").text.startswith("Ready in gear 3")
    assert find(screen, "hw buttons").text == "Last button: Undo"
    assert app.controller.state is state
    assert fake.leds[1] is LedPattern.ON  # feedback: seat 1's input arrived
    harness.player.press("identify 4")
    assert fake.leds[4] is LedPattern.FAST_BLINK
    assert find(screen, "hw led 4").text == "fast blink"
    clock.advance(2.1)
    app.poll_hardware()
    assert fake.leds[4] is LedPattern.OFF and fake.leds[1] is LedPattern.OFF
    assert find(screen, "hw led 4").text == "off"
    app.set_language("ko")  # what the table said is shown in the player's language too
    assert find(screen, "hw last 1").text.startswith("준비: 3단 기어")
    assert find(screen, "hw buttons").text == "마지막 버튼: 되돌리기"
    assert find(screen, "identify 2").text == "위치 확인"
    assert find(screen, "hw led 2").text == "꺼짐"
    fake.queue.put(InputRejected("fake", dial_between(1), seat=1))
    app.poll_hardware()  # the table's own reason, in the player's language
    assert find(screen, "hw last 1").text.startswith(
        "1번 자리: 기어 다이얼이 두 기어 사이에 있을 때 준비 버튼이 눌렸습니다.")
    harness.pump(2)
    last = find(screen, "hw last 1")  # whole, on as many lines as it takes (it was cut)
    last.texture_update()
    assert not last.shorten and last.texture_size[1] <= last.height + 1
    assert last.parent.height >= last.texture_size[1]
    app.set_language("en")
    assert find(screen, "hw last 1").text.startswith(
        "Seat 1: Ready was pressed with the gear dial between two gears.")
    harness.player.press("back")
    harness.player.press("back")
    assert app.hw_bridge.mode == "idle"


def test_seat_chosen_in_new_race_is_kept_with_the_race(table) -> None:
    harness, fake = table
    app = harness.app
    harness.player.set_up_race()
    harness.player.press("seat 0")  # Ana: seat 1 -> 3 (2 is Ben's)
    assert find(app.sm.current_screen, "seat 0").text == "Seat\n3"
    harness.player.press("start race")
    assert app.seat_map == {3: "red", 2: "blue"}
    fake.press_ready(3)
    app.poll_hardware()
    assert app.controller.state.planned == {"red": 1}
    app = harness.restart()
    harness.player.press("continue")
    assert app.seat_map == {3: "red", 2: "blue"}


WIRING = """
version = 1
[table]
seats = 2
[buttons]
next = 9
undo = 10
confirm = 11
[seat.1]
dial.gray = [17, 27]
ready = 22
led = 23
[seat.2]
dial.gray = [5, 6]
ready = 13
led = 24
"""


def test_detect_with_mock_pins_drives_a_race_step(tmp_path: Path, make_harness) -> None:
    """The real ``detect`` -> GpioTable on gpiozero mock pins -> app -> engine -> LED pin."""
    from gpiozero.pins.mock import MockFactory

    from hardware import detect

    wiring = tmp_path / "wiring.toml"
    wiring.write_text(WIRING, encoding="utf-8")
    pins = MockFactory()
    clock = FakeClock()
    found: list[Any] = []

    def factory(queue: Any) -> Any:
        found.append(detect(queue, wiring, pin_factory=lambda: pins, clock=clock))
        return found[0]

    harness = make_harness(hardware=factory)
    harness.start()
    try:
        hw = found[0]
        assert hw.available and hw.reason == "" and hw.seats == (1, 2)
        app = _race(harness)
        app.hw_bridge.clock = clock

        def settle() -> None:
            clock.advance(0.05)
            hw.gpio.tick()
            app.poll_hardware()

        settle()
        led = pins.pin(23)
        assert app.hw_bridge.seats[1].led == "blink" and led.state
        clock.advance(0.5)  # BLINK: half a second on, half off
        hw.gpio.tick()
        assert not led.state
        pins.pin(17).drive_low()  # dial a: gear 2 on a Gray dial (switches close to GND)
        settle()
        pins.pin(22).drive_low()  # Ready
        settle()
        pins.pin(22).drive_high()
        settle()
        assert app.controller.state.planned == {"red": 2}
        assert app.hw_bridge.seats[1].led == "off" and not led.state
        pins.pin(6).drive_low()  # seat 2: dial b alone = gear 4, three gears up
        settle()
        pins.pin(13).drive_low()
        settle()
        pins.pin(13).drive_high()
        settle()
        assert app.controller.state.planned == {"red": 2}
        assert "at most two gears" in app.controller.error
        led2 = pins.pin(24)
        levels = set()
        for _ in range(4):  # FAST_BLINK: toggles every 0.1 s
            clock.advance(0.1)
            hw.gpio.tick()
            levels.add(bool(led2.state))
        assert levels == {True, False}
    finally:
        harness.stop()
        pins.reset()


def test_systemd_ready_after_first_frame_and_watchdog(tmp_path: Path, make_harness,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    address = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    sock.settimeout(0.01)
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    monkeypatch.setenv("WATCHDOG_USEC", "60000")  # ping every 30 ms
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    harness = make_harness()
    try:
        harness.start()
        assert harness.app.first_frame_done
        # Frames until the first watchdog ping (30 ms of Kivy's clock, however fast or slow
        # the frames come; at most 10 s).
        received: list[str] = []
        deadline = time.monotonic() + 10
        while "WATCHDOG=1" not in received and time.monotonic() < deadline:
            harness.pump(1)
            while True:
                try:
                    received.append(sock.recv(100).decode())
                except (TimeoutError, BlockingIOError):
                    break
        assert received[0] == "READY=1"
        assert "WATCHDOG=1" in received[1:]
    finally:
        harness.stop()
        sock.close()


def test_fake_table_leds_follow_tournament_turns(make_harness) -> None:
    """Tournament mode: the seat whose car plays blinks for its gear, then shows ON."""
    made: list[FakeTable] = []
    harness = make_harness(
        hardware=lambda q: made.append(FakeTable(q, seats=(1, 2))) or made[-1])
    harness.start()
    try:
        app = harness.app
        harness.player.set_up_race()
        harness.player.press("more options")
        harness.player.press("tournament")
        harness.player.press("start race")
        fake = made[0]
        controller = app.controller
        current = controller.state.current_car
        seat = _seat_of(app, current)
        app.poll_hardware()
        assert controller.view().mode == "turn_gear"
        assert fake.leds[seat] is LedPattern.BLINK and fake.leds[3 - seat] is LedPattern.OFF
        fake.press_ready(3 - seat)  # not that car's turn: refused, attention
        app.poll_hardware()
        assert fake.leds[3 - seat] is LedPattern.FAST_BLINK
        assert "turn" in controller.error
        fake.turn_dial(seat, 2)
        fake.press_ready(seat)
        app.poll_hardware()
        assert controller.view().mode == "reveal" and controller.state.car(current).gear == 2
        assert fake.leds[seat] is LedPattern.ON
    finally:
        harness.stop()


def test_hub_state_and_stats_on_the_check_screen(make_harness) -> None:
    """A USB hub (the real SerialHub over a loop link to the firmware's stand-in)."""
    from hardware import Hardware, SerialHub
    from hardware.fake_links import LoopLink
    from hardware.fakes import FakeHubPeer
    from hardware.testing import until

    peer = FakeHubPeer(seats=(5, 6))
    link = LoopLink(peer, timeout=0.005)
    harness = make_harness(hardware=lambda q: Hardware(
        q, hub=SerialHub("loop://", q, seats=(5, 6), opener=link, name="hub")))
    harness.start()
    app = harness.app

    def polled(check: Any) -> Any:
        def condition() -> bool:
            app.poll_hardware()
            return bool(check())
        return condition

    app.show("settings")
    harness.player.press("hardware check")
    screen = app.sm.current_screen
    until(polled(lambda: app.hw_bridge.hub.online))
    assert find(screen, "hw hub").text == "Hub hub (seats 5, 6): online"
    assert "1 connects" in find(screen, "hw hub stats").text
    peer.turn_dial(6, 3)
    peer.press_ready(6)
    until(polled(lambda: find(screen, "hw last 6").text.startswith("Ready in gear 3")))
    assert find(screen, "hw dial 6").text == "Gear 3"
    harness.player.press("identify 5")
    until(lambda: peer.leds[5] is LedPattern.FAST_BLINK)
    link.unplug()
    until(polled(lambda: app.hw_bridge.hub.online is False))
    # The system's own words (an OS error, in English) are not in the sentence: they are
    # one tap away, under the technical details (a table test saw them inside zh_TW text).
    assert find(screen, "hw hub").text == (
        "Hub hub (seats 5, 6): offline: it was disconnected (see the technical details).")
    status = app.hw_bridge.status
    assert status is not None
    assert status() == "Table hub hub is offline: it was disconnected (see the technical details)."
    harness.player.press("hw technical")
    assert "it was disconnected (" in find(screen, "hw technical text").text
    harness.player.press("identify 6")  # nothing can blink it: the screen does not claim so
    assert find(screen, "hw led 6").text == "hub offline"
    app.set_language("zh_TW")  # the hub's reason is translated as well
    # Settings' hardware detail at once, not at the next poll.
    assert app.hardware_detail.startswith("桌面集線器 hub 離線：它的連線中斷了（")
    screen.refresh()
    assert find(screen, "hw hub").text.startswith("集線器 hub")
    assert "離線：它的連線中斷了（" in find(screen, "hw hub").text
    offline = find(screen, "hw hub").text.split("離線：", 1)[1]
    assert not re.search(r"[A-Za-z]", offline), offline  # no English left in it
    assert status().startswith("桌面集線器 hub 離線：它的連線中斷了（")
    app.set_language("en")


def test_a_hub_going_offline_mid_race_is_said_on_the_race_screen(tmp_path: Path) -> None:
    """The hub's seats' dials and Ready do nothing while it is offline: the race screen says
    so at once, not only Settings and the Hardware check (found by a table test)."""
    from companion.session import RaceLog
    from companion.ui.controller import RaceController
    from companion.ui.hardware_bridge import HardwareBridge
    from companion.ui.views.race_form import RaceForm
    from hardware import FakeTable, InputQueue
    from hardware.events import HubOffline, HubOnline, Reason

    form = RaceForm(seed=3)
    form.first_race()
    import tracks

    controller = RaceController(RaceLog(tmp_path / "races.sqlite3").new_race(
        form.setup(tracks.load_track("usa"))))
    bridge = HardwareBridge(FakeTable(InputQueue(), seats=(1, 2)), lambda: controller)
    bridge.mode = "race"
    bridge.handle(HubOnline("hub", (5, 6)))
    assert controller.error == ""
    bridge.handle(HubOffline("hub", Reason.of("it was disconnected ({problem}).",
                                              problem="device disconnected?")))
    assert controller.error == (
        "Table hub hub is offline: seats 5, 6 use the screen until it is back.")
    controller.choose_gear("red", 2)  # an input: its ruling in place of the notice
    assert controller.error == ""
    bridge.mode = "check"  # elsewhere the Hardware check and Settings say it
    bridge.handle(HubOffline("hub", Reason.of("the app closed its port.")))
    assert controller.error == ""


def test_next_says_why_when_end_turn_is_greyed(table) -> None:
    """Next on the table is the screen's End turn: while a card's Heat is owed with the engine
    short, End turn is greyed; Next said the engine's refusal, which did not name the button to
    use (found by a table test). It says what the greyed End turn says, "Cannot pay" named,
    and records nothing."""
    import copy

    from companion.ui.demo.react_shots import CHOICES, start, to_react

    harness, fake = table
    app = harness.app
    race = copy.deepcopy(CHOICES["unpaid"][1])
    start(app, race)
    harness.pump()
    to_react(app, harness.player, race)
    controller = app.controller
    before = app.session.actions()
    end = next(b for b in controller.view().react if b.key == "end")
    assert 'Tap "Cannot pay"' in end.why
    fake.press(TableButton.NEXT)
    app.poll_hardware()
    assert controller.error == end.why
    assert app.session.actions() == before


def test_the_seats_found_are_listed_as_the_language_lists(table) -> None:
    """The Hardware check in Traditional Chinese said "座位 1, 2, 3, 4" (an English comma
    between the seats: found by a table test); seats are listed as names are ("1、 2")."""
    harness, _fake = table
    app = _race(harness)
    app.set_language("zh_TW")
    try:
        app.show("settings")
        harness.player.press("hardware check")
        summary = find(app.sm.current_screen, "hw summary").text
        assert "1、 2、 3、 4" in summary and "1, 2" not in summary, summary
    finally:
        app.set_language("en")


SIX_LONG_NAMES = ("Bartholomews", "歐陽娜娜司馬長風上官婉兒", "김수한무거북이와두루미삼",
                  "Maximilianus", "諸葛孔明司馬仲達夏侯元讓", "남궁민수황보영희제갈공명")
"""Six twelve-letter drivers: Latin, Chinese, Korean."""


@pytest.mark.parametrize("language", ["en", "zh_TW", "ko"])
def test_the_check_screen_writes_a_twelve_letter_name_whole(make_harness,
                                                             language: str) -> None:
    """The hardware check's name column (15% of a seat's row) cut a twelve-letter Chinese or
    Korean name at 800x480: "歐陽娜…官婉兒", "김수한…루미삼" (found by a table test). Each name
    is whole, on one line or two, each line inside its cell and the lines inside the row, its
    text not under the readable floor."""
    from companion.ui.demo.table_shots import start
    from companion.ui.widgets.measure import READABLE_PX
    from companion.ui.widgets.text_fit import FIT

    harness = make_harness(hardware=lambda q: FakeTable(q, seats=(1, 2, 3, 4, 5, 6)))
    harness.start()
    app = harness.app
    assert tuple(app.root_window.size) == (800, 480)
    start(app, SIX_LONG_NAMES, 0)
    app.set_language(language)
    app.show("hwcheck")
    harness.pump(3)
    screen = app.sm.current_screen
    written = set()
    for seat in range(1, 7):
        cell = find(screen, f"hw car {seat}")
        lines = cell.text.split("\n")
        written.add("".join(lines))
        assert len(lines) <= 2 and all(lines), cell.text
        assert READABLE_PX <= cell.font_size <= app.fs_small
        assert max(FIT.width(line, cell.font_size) for line in lines) <= cell.width, lines
        cell.texture_update()
        assert cell.texture_size[0] <= cell.width + 1 and cell.texture_size[1] <= cell.height
        assert cell.height <= cell.parent.height
    assert written == set(SIX_LONG_NAMES)
