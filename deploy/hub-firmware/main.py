# ruff: noqa: UP031, SIM108  (MicroPython: %-formatting and plain if/else on purpose)
# Heat hub: reference firmware for a Raspberry Pi Pico (RP2040/RP2350) running MicroPython.
#
# It reads the gear dials, Ready buttons (and optionally shared buttons) of the seats wired to
# it, drives their LEDs and an optional buzzer, and talks to heat-companion over USB serial
# using the line protocol in docs/serial-protocol.md (version 2; it also speaks version 1 to a
# host that asks for it).
#
# Install: flash MicroPython on the Pico, edit the CONFIGURATION block below, copy this file
# to the board as main.py (e.g. `mpremote cp main.py :main.py`), and reset it.
#
# The protocol logic (class Hub) has no hardware access, so heat-companion's tests run it under
# CPython against the host implementation; the hardware glue is only in main().

# ---- CONFIGURATION ---------------------------------------------------------------------------
# Seat numbers are the table's seat numbers (they must match [hub] seats in wiring.toml).
# Pico GPIO numbers (GPn). Switches close to GND; internal pull-ups are used.
# dial: ("gray", (a, b)) or ("positions", (p1, p2, p3, p4)) -- see docs/wiring.md.
SEATS = {
    5: {"dial": ("gray", (2, 3)), "ready": 4, "led": 5},
    6: {"dial": ("gray", (6, 7)), "ready": 8, "led": 9},
}
BUTTONS = {}  # shared buttons on the hub, e.g. {"NEXT": 10, "UNDO": 11, "CONFIRM": 12}
BUZZER = None  # GPIO of an (active) buzzer, or None
LED_ACTIVE_HIGH = True
SETTLE_MS = 30
HISTORY = 64  # presses kept for replay after a reconnect
# ---------------------------------------------------------------------------------------------

PROTOCOL_VERSION = 2  # the newest version spoken; a host asking for 1 gets version 1
MAX_LINE = 96
MAX_SEQ = 2147483647  # the last press number; the next press starts a new numbering
GRAY = {(0, 0): 1, (1, 0): 2, (1, 1): 3, (0, 1): 4}
PATTERNS = {"OFF": None, "ON": None, "BLINK": (500, 500), "FAST": (100, 100)}
BODY_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789,._:/?-"
HEX = "0123456789ABCDEF"


def crc16(data):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF)."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc


def frame(text):
    body = text.encode()
    return body + ("*%04X\n" % crc16(body)).encode()


def valid_body(body):
    """Message type in capitals, then tokens of BODY_CHARS, single spaces between."""
    if not body or body[0] < 65 or body[0] > 90:
        return False
    first_token = True
    previous_space = False
    for b in body:
        if b == 32:
            if previous_space:
                return False
            previous_space = True
            first_token = False
        else:
            previous_space = False
            if first_token and not (65 <= b <= 90 or b == 63):
                return False
            if chr(b) not in BODY_CHARS:
                return False
    return not previous_space


def unframe(line):
    """Tokens of a received line, or None when it is not a valid frame."""
    if line[-1:] == b"\r":
        line = line[:-1]
    if len(line) < 6 or len(line) > MAX_LINE or line[-5:-4] != b"*":
        return None
    body, check = line[:-5], line[-4:]
    for b in check:
        if chr(b) not in HEX:
            return None
    if not valid_body(body) or int(check.decode(), 16) != crc16(body):
        return None
    return body.decode().split(" ")


def number(token, lo, hi):
    if not token or len(token) > 10 or (len(token) > 1 and token[0] == "0"):
        return None
    for c in token:
        if c not in "0123456789":
            return None
    value = int(token)
    if value < lo or value > hi:
        return None
    return value


def decode_dial(kind, levels):
    if kind == "gray":
        return GRAY[(1 if levels[0] else 0, 1 if levels[1] else 0)]
    closed = [i for i in range(len(levels)) if levels[i]]
    return closed[0] + 1 if len(closed) == 1 else 0  # 0: between positions


class Debounce:
    """A value is stable after it stayed unchanged for settle_ms."""

    def __init__(self, value, now, settle_ms, diff):
        self.stable = value
        self.candidate = value
        self.since = now
        self.settle = settle_ms
        self.diff = diff

    def feed(self, value, now):
        """Returns the new stable value when it just settled, else None."""
        if value != self.candidate:
            self.candidate = value
            self.since = now
        if self.candidate != self.stable and self.diff(now, self.since) >= self.settle:
            self.stable = self.candidate
            return self.stable
        return None


class Hub:
    """Protocol and table logic without hardware: levels in, lines out through send()."""

    def __init__(self, seats, buttons, send, boot_id, now, settle_ms=30, history=64,
                 diff=None, new_boot_id=None, max_seq=MAX_SEQ):
        self.seats = seats  # {seat: dial kind}
        self.buttons = buttons  # list of "NEXT"/"UNDO"/"CONFIRM"
        self.send = send
        self.boot_id = boot_id
        self.new_boot_id = new_boot_id or (lambda: "%08x" % ((int(self.boot_id, 16) + 1)
                                                              & 0xFFFFFFFF))
        self.max_seq = max_seq
        self.version = 1  # the version the host asked for in its last HELLO
        self.settle = settle_ms
        self.history_size = history
        self.diff = diff or (lambda a, b: a - b)
        self.seq = 0
        self.history = []
        self.buffer = b""
        self.discarding = False
        self.dials = {}
        self.ready = {}
        self.shared = {}
        self.gears = {}
        for seat in seats:
            self.dials[seat] = None
            self.ready[seat] = Debounce(False, now, settle_ms, self.diff)
            self.gears[seat] = 0
        for name in buttons:
            self.shared[name] = Debounce(False, now, settle_ms, self.diff)
        self.leds = {}
        for seat in seats:
            self.leds[seat] = ("OFF", now)
        self.beep_plan = None  # (start, count, on_ms, off_ms)
        self.errors = 0

    # -- inputs --------------------------------------------------------------------------------

    def scan(self, dial_levels, ready_levels, button_levels, now):
        """dial_levels: {seat: [bool, ...]}, ready_levels: {seat: bool},
        button_levels: {name: bool}; call every few milliseconds."""
        for seat, kind in self.seats.items():
            gear = decode_dial(kind, dial_levels[seat])
            deb = self.dials[seat]
            if deb is None:  # first scan: take the dial as it is
                self.dials[seat] = Debounce(gear, now, self.settle, self.diff)
                self.gears[seat] = gear
            else:
                settled = deb.feed(gear, now)
                if settled:  # a gear (0 = between positions is never sent)
                    self.gears[seat] = settled
                    self.send(frame("DIAL %d %d" % (seat, settled)))
                elif settled == 0:
                    self.gears[seat] = 0
        for seat in self.seats:
            if self.ready[seat].feed(bool(ready_levels[seat]), now) is True:
                self.press("READY", seat, self.gears[seat])
        for name in self.buttons:
            if self.shared[name].feed(bool(button_levels[name]), now) is True:
                self.press(name, 0, 0)

    def press(self, button, seat, gear):
        if self.seq >= self.max_seq:
            self.renumber()
        self.seq += 1
        line = frame("PRESS %d %s %d %d" % (self.seq, button, seat, gear))
        self.history.append((self.seq, line))
        if len(self.history) > self.history_size:
            self.history.pop(0)
        self.send(line)

    def renumber(self):
        """The press numbers are used up (after 2**31 - 1 presses): start again from 1 under a
        new boot id, as a restart would, and tell the host with an unprompted HELLO (it asks
        for HELLO again, then SYNC 0 replays the new numbering)."""
        old = self.boot_id
        while self.boot_id == old:
            self.boot_id = self.new_boot_id()
        self.seq = 0
        self.history = []
        self.send(self.hello_line(self.version))

    def hello_line(self, version):
        seats = ",".join([str(s) for s in sorted(self.seats)]) or "-"
        return frame("HELLO %d %s %d %s" % (version, self.boot_id, self.seq, seats))

    # -- host lines ----------------------------------------------------------------------------

    def feed(self, data, now):
        """Bytes from the host; complete lines are handled."""
        for b in data:
            if b == 10:
                if not self.discarding:
                    self.handle_line(self.buffer, now)
                self.buffer = b""
                self.discarding = False
            elif not self.discarding:
                self.buffer += bytes((b,))
                if len(self.buffer) > MAX_LINE:
                    self.error("too-long")
                    self.buffer = b""
                    self.discarding = True

    def error(self, reason):
        self.errors += 1
        self.send(frame("ERR " + reason))

    def handle_line(self, line, now):
        tokens = unframe(line)
        if tokens is None:
            self.error("bad-frame")
            return
        kind, args = tokens[0], tokens[1:]
        if kind == "HELLO" and len(args) == 1:
            asked = number(args[0], 0, 999)
            if asked is None or asked < 1:
                self.error("version")
                self.send(self.hello_line(PROTOCOL_VERSION))
            else:  # speak the newest version both sides know
                self.version = min(asked, PROTOCOL_VERSION)
                self.send(self.hello_line(self.version))
        elif kind == "SYNC" and len(args) == 1 and number(args[0], 0, 2147483647) is not None:
            self.sync(int(args[0]))
        elif kind == "LED" and len(args) == 2 and args[1] in PATTERNS:
            seat = number(args[0], 1, 8)
            if seat in self.leds:
                self.leds[seat] = (args[1], now)
            else:
                self.error("seat")
        elif kind == "BEEP" and len(args) == 3:
            count, on, off = number(args[0], 1, 10), number(args[1], 1, 2000), number(
                args[2], 0, 2000)
            if count is None or on is None or off is None:
                self.error("bad-args")
            else:
                self.beep_plan = (now, count, on, off)
        elif kind == "PING" and not args:
            if self.version >= 2:  # the heartbeat: the host resyncs if it lacks a press
                self.send(frame("PONG %d" % self.seq))
            else:
                self.send(frame("PONG"))
        else:
            self.error("unknown")

    def sync(self, last):
        replay = [entry for entry in self.history if entry[0] > last]
        first_kept = replay[0][0] if replay else self.seq + 1
        if last + 1 < first_kept and last < self.seq:
            self.send(frame("GAP %d %d" % (last + 1, first_kept - 1)))
        for entry in replay:
            self.send(entry[1])
        for seat in sorted(self.seats):
            if self.gears[seat]:
                self.send(frame("DIAL %d %d" % (seat, self.gears[seat])))
        self.send(frame("SYNCED %d" % self.seq))

    # -- outputs -------------------------------------------------------------------------------

    def led_level(self, seat, now):
        pattern, since = self.leds[seat]
        if pattern == "OFF":
            return False
        if pattern == "ON":
            return True
        on, off = PATTERNS[pattern]
        return self.diff(now, since) % (on + off) < on

    def buzzer_level(self, now):
        if self.beep_plan is None:
            return False
        start, count, on, off = self.beep_plan
        elapsed = self.diff(now, start)
        if elapsed >= count * (on + off) - off:
            self.beep_plan = None
            return False
        return elapsed % (on + off) < on


def main():
    import random
    import select
    import sys
    import time

    import machine
    import micropython

    micropython.kbd_intr(-1)  # a 0x03 byte in the data must not stop the program
    pull = machine.Pin.PULL_UP

    def closed(pin):
        return pin.value() == 0

    dial_pins, ready_pins, led_pins = {}, {}, {}
    for seat, spec in SEATS.items():
        dial_pins[seat] = [machine.Pin(n, machine.Pin.IN, pull) for n in spec["dial"][1]]
        ready_pins[seat] = machine.Pin(spec["ready"], machine.Pin.IN, pull)
        if spec.get("led") is not None:
            led_pins[seat] = machine.Pin(spec["led"], machine.Pin.OUT, value=0)
    button_pins = {name: machine.Pin(n, machine.Pin.IN, pull) for name, n in BUTTONS.items()}
    buzzer = machine.Pin(BUZZER, machine.Pin.OUT, value=0) if BUZZER is not None else None

    out = sys.stdout.buffer

    def new_boot_id():
        return "%08x" % ((random.getrandbits(32) ^ time.ticks_us()) & 0xFFFFFFFF)

    hub = Hub({seat: spec["dial"][0] for seat, spec in SEATS.items()}, list(BUTTONS), out.write,
              new_boot_id(), time.ticks_ms(), SETTLE_MS, HISTORY, time.ticks_diff, new_boot_id)
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    stdin = sys.stdin.buffer
    while True:
        now = time.ticks_ms()
        while poller.poll(0):
            hub.feed(stdin.read(1), now)
        hub.scan({s: [closed(p) for p in pins] for s, pins in dial_pins.items()},
                 {s: closed(p) for s, p in ready_pins.items()},
                 {n: closed(p) for n, p in button_pins.items()}, now)
        for seat, pin in led_pins.items():
            pin.value(1 if hub.led_level(seat, now) == LED_ACTIVE_HIGH else 0)
        if buzzer is not None:
            buzzer.value(1 if hub.buzzer_level(now) else 0)
        time.sleep_ms(2)


if __name__ == "__main__":
    main()
