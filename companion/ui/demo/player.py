"""The demo's and the UI tests' fingers: :class:`TablePlayer` presses the app's buttons by
``test_name``, as a table would, and plays a scripted race (:mod:`.script`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from ..widgets.touch_gate import SCREEN_GATE

LEGENDS = 2
SEED = 20240601
TAP_GAP_S = 0.8
"""The time between two taps of the scripted table (its touches carry these timestamps): a
person reads the new prompt before tapping it, so no tap is taken for a double tap."""


@cache
def _fingertip_class() -> type:
    """A Kivy touch made by the demo's finger (built on first use: Kivy loads only then)."""
    from kivy.input.motionevent import MotionEvent

    class Fingertip(MotionEvent):  # type: ignore[misc]  # Kivy ships no type hints
        """One fingertip at a point given as fractions of the window (``sx``, ``sy``)."""

        def depack(self, args: dict[str, float]) -> None:
            self.sx, self.sy = args["sx"], args["sy"]
            super().depack(args)

    return Fingertip


def tap_screen(x: float, y: float, at: float | None = None) -> None:
    """Put a finger down and lift it at window pixel (``x``, ``y``), through the same dispatch
    as the touchscreen's own events (``EventLoop.post_dispatch_input``), so the widget under the
    finger gets ``on_touch_down`` and ``on_touch_up`` as at the table. Kivy's own helper for
    this lives in ``kivy.tests``, which needs pytest: an installed app has no pytest.
    ``at``: the touch's timestamp (``time_start``; default: now)."""
    from kivy.base import EventLoop

    window = EventLoop.window
    touch = _fingertip_class()(
        "heat-companion-demo", 1,
        {"sx": x / (window.width - 1.0), "sy": y / (window.height - 1.0)},
        is_touch=True, type_id="touch")
    touch.profile = ["pos"]
    if at is not None:
        touch.time_start = touch.time_update = at
    EventLoop.post_dispatch_input("begin", touch)
    EventLoop.post_dispatch_input("end", touch)


class TablePlayer:
    """Presses the app's buttons by ``test_name``, as fingers on the touchscreen would."""

    last_tap = 0.0
    """The timestamp of the last tap of any player: one timeline for the whole process, a
    person's pace apart (:data:`TAP_GAP_S`), so that no two taps are taken for a double tap;
    it starts at 0 (in the past, whatever Kivy compares it with)."""

    def __init__(self, app: Any, pump: Callable[[], None], table: Any = None) -> None:
        self.app = app
        self.pump = pump
        self.table = table
        """A ``FakeTable``: when set, gears are dialled and Ready pressed on it."""

    def root(self) -> Any:
        return self.app.sm.current_screen

    def find(self, name: str) -> Any:
        from ..widgets.lookup import find

        return find(self.root(), name)

    def press(self, name: str, *, touch: bool = True) -> None:
        """Tap the button ``name``: a real touch when it is on screen, else its release."""
        widget = self.find(name)
        if widget.disabled:
            raise AssertionError(f"button {name!r} is disabled")
        x, y = widget.to_window(*widget.center)
        window = self.app.root_window
        inside = 0 <= x < window.width and 0 <= y < window.height and self._visible(widget)
        if touch and inside:
            released: list[bool] = []

            def seen(*_args: Any) -> None:
                released.append(True)

            gate = getattr(widget, "gate", None)
            refused = (gate.refused if gate is not None else 0) + SCREEN_GATE.refused
            widget.bind(on_release=seen)
            TablePlayer.last_tap += TAP_GAP_S
            tap_screen(x, y, at=TablePlayer.last_tap)
            self.pump()
            widget.unbind(on_release=seen)
            if (gate.refused if gate is not None else 0) + SCREEN_GATE.refused != refused:
                raise AssertionError(f"a deliberate tap on {name!r} was refused as a stray one")
            if released:
                return
        widget.dispatch("on_press")
        widget.dispatch("on_release")
        self.pump()

    @staticmethod
    def _visible(widget: Any) -> bool:
        """False when a ScrollView clips the widget away."""
        from kivy.uix.scrollview import ScrollView

        parent = widget.parent
        wx, wy = widget.to_window(*widget.center)
        while parent is not None and parent is not parent.parent:
            if isinstance(parent, ScrollView):
                px, py = parent.to_window(parent.x, parent.y)
                if not (px <= wx <= px + parent.width and py <= wy <= py + parent.height):
                    return False
            parent = parent.parent
        return True

    # --- the scripted race ---------------------------------------------------------------------

    def set_up_race(self, names: tuple[str, str] = ("Ana", "Ben")) -> None:
        """From the start screen: New race (a new one even while another is unfinished),
        first-race suggestion (under More options), two names, two Legends."""
        self.press("new race")
        if self.app.sm.current == "start":  # asked: a race is unfinished
            self.press("new race anyway")
        self.press("more options")
        self.press("first race")
        self.press("more options")  # back to the race setup
        for index, name in enumerate(names):
            self.find(f"name {index}").text = name
        for _ in range(LEGENDS):
            self.press("legends plus")
        screen = self.app.sm.current_screen
        screen.form.seed = SEED
        screen.refresh()
        self.pump()

    def step(self) -> str | None:
        """Press the next button of the script; None when the race is over."""
        from .script import next_press

        name = next_press(self.app.controller)
        if name is not None and name.startswith("gear ") and self.table is not None:
            _gear, car, gear = name.split()
            seat = next((s for s, c in self.app.seat_map.items() if c == car), None)
            if seat is not None and seat in self.table.seats:
                self.table.turn_dial(seat, int(gear))
                self.table.press_ready(seat)
                self.app.poll_hardware()
                self.pump()
                return name
        if name is not None:
            self.press(name)
        return name

    def play_to_end(self, on_step: Callable[[str], None] | None = None,
                    limit: int = 2000) -> int:
        presses = 0
        while self.app.controller is not None and not self.app.controller.state.over:
            name = self.step()
            if name is None:
                break
            if self.app.controller.error:
                raise AssertionError(f"{name}: {self.app.controller.error}")
            presses += 1
            if on_step is not None:
                on_step(name)
            if presses > limit:
                raise AssertionError("the scripted race does not finish")
        return presses
