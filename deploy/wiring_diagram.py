"""Draw the wiring diagram and the pin table for docs/wiring.md from a wiring file.

    python deploy/wiring_diagram.py                 # from deploy/wiring.toml: write
                                                    # docs/wiring.svg, docs/wiring.png (Pillow)
                                                    # and the pin table in docs/wiring.md
    python deploy/wiring_diagram.py --check         # exit 1 if any of them is out of date

The SVG and the table need only the standard library; the PNG needs Pillow. Both pictures are
drawn from the same list of shapes, so they always agree.
"""

from __future__ import annotations

import argparse
import io
import sys
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hardware.wiring import Wiring, load_wiring  # noqa: E402

# Physical pin -> function on the 40-pin header (Pi 4, Pi 5, Zero 2 W share it).
HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14",
    9: "GND", 10: "GPIO15", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND", 15: "GPIO22",
    16: "GPIO23", 17: "3V3", 18: "GPIO24", 19: "GPIO10", 20: "GND", 21: "GPIO9", 22: "GPIO25",
    23: "GPIO11", 24: "GPIO8", 25: "GND", 26: "GPIO7", 27: "GPIO0", 28: "GPIO1", 29: "GPIO5",
    30: "GND", 31: "GPIO6", 32: "GPIO12", 33: "GPIO13", 34: "GND", 35: "GPIO19", 36: "GPIO16",
    37: "GPIO26", 38: "GPIO20", 39: "GND", 40: "GPIO21",
}
PHYSICAL = {int(name[4:]): pin for pin, name in HEADER.items() if name.startswith("GPIO")}
SEAT_COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf",
                "#bcbd22"]
SHARED_COLOUR = "#ff7f0e"
BUZZER_COLOUR = "#a0522d"
POWER_COLOURS = {"3V3": "#f5a623", "5V": "#c0392b", "GND": "#222222"}

W, H = 1500, 920


@dataclass(frozen=True)
class Shape:
    kind: str  # rect, circle, line, text
    coords: tuple[float, ...]
    colour: str = "#000000"
    fill: str | None = None
    text: str = ""
    size: int = 15
    anchor: str = "start"  # start, middle, end
    bold: bool = False
    width: int = 2


def describe(wiring: Wiring) -> dict[int, tuple[str, str]]:
    """GPIO number -> (label, colour)."""
    out: dict[int, tuple[str, str]] = {}
    for s in wiring.seats.values():
        colour = SEAT_COLOURS[(s.seat - 1) % len(SEAT_COLOURS)]
        names = ["dial A", "dial B"] if s.dial_kind == "gray" else [
            f"dial pos {i + 1}" for i in range(4)]
        for name, pin in zip(names, s.dial, strict=True):
            out[pin] = (f"Seat {s.seat} {name}", colour)
        out[s.ready] = (f"Seat {s.seat} Ready", colour)
        if s.led is not None:
            out[s.led] = (f"Seat {s.seat} LED", colour)
    for button, pin in wiring.buttons.items():
        out[pin] = (f"{button.value.capitalize()} button", SHARED_COLOUR)
    if wiring.buzzer is not None:
        out[wiring.buzzer] = ("Buzzer", BUZZER_COLOUR)
    return out


def pin_table(wiring: Wiring) -> str:
    """The Markdown table for docs/wiring.md."""
    rows = ["| GPIO | header pin | function | wire to |", "|---|---|---|---|"]
    owners = describe(wiring)
    for gpio in sorted(owners):
        label, _ = owners[gpio]
        if label.endswith("LED"):
            to = "330 Ω resistor → LED anode; LED cathode → GND" if wiring.led_active_high \
                else "LED cathode via 330 Ω; LED anode → 3V3"
        elif label == "Buzzer":
            to = "1 kΩ → NPN transistor base (buzzer on the collector, 5V)"
        elif "dial" in label:
            to = "dial contact (dial common → GND)"
        else:
            to = "push button → GND"
        rows.append(f"| GPIO{gpio} | {PHYSICAL[gpio]} | {label} | {to} |")
    if wiring.hub is not None:
        seats = ", ".join(str(s) for s in wiring.hub.seats)
        rows.append(f"| USB | — | Hub ({wiring.hub.port}): seats {seats} | USB cable to the Pi |")
    return "\n".join(rows)


def shapes(wiring: Wiring) -> list[Shape]:
    out: list[Shape] = []
    owners = describe(wiring)
    add = out.append
    add(Shape("rect", (0, 0, W, H), colour="#ffffff", fill="#ffffff", width=0))
    add(Shape("text", (30, 42), text="heat-companion table wiring (from deploy/wiring.toml)",
              size=26, bold=True))
    add(Shape("text", (30, 70), text="Raspberry Pi 40-pin header seen from above: pin 1 (square "
              "pad) top left, odd pins on the inner row. Switches close to GND (internal "
              "pull-ups).", size=15))
    # The header: two columns of 20 pins.
    x0, y0, dy = 330, 110, 40
    add(Shape("rect", (x0 - 25, y0 - 25, x0 + 65, y0 + 19 * dy + 25), colour="#333333",
              fill="#2f4f2f"))
    for pin, name in HEADER.items():
        row, col = (pin - 1) // 2, (pin - 1) % 2
        cx, cy = x0 + col * 40, y0 + row * dy
        gpio = int(name[4:]) if name.startswith("GPIO") else None
        if gpio is not None and gpio in owners:
            label, colour = owners[gpio]
        elif gpio is None:
            label, colour = name, POWER_COLOURS[name]
        else:
            label, colour = "", "#bbbbbb"
        add(Shape("circle", (cx, cy, 13), colour="#000000", fill=colour, width=1))
        add(Shape("text", (cx, cy + 5), text=str(pin), size=12, anchor="middle",
                  colour="#ffffff", bold=True))
        text = f"{name}  {label}" if gpio is not None and label else name
        if col == 0:
            add(Shape("line", (cx - 16, cy, cx - 40, cy), colour=colour))
            add(Shape("text", (cx - 46, cy + 5), text=text if label else name, size=15,
                      anchor="end", colour=colour if label else "#888888", bold=bool(label)))
        else:
            add(Shape("line", (cx + 16, cy, cx + 40, cy), colour=colour))
            add(Shape("text", (cx + 46, cy + 5), text=text if label else name, size=15,
                      colour=colour if label else "#888888", bold=bool(label)))
    _recipes(out, wiring, 760, 110)
    return out


def _recipes(out: list[Shape], wiring: Wiring, x: int, y: int) -> None:
    add = out.append
    add(Shape("text", (x, y), text="How each part is wired", size=20, bold=True))

    def label(dx: float, dy: float, text: str, **kw: object) -> None:
        add(Shape("text", (x + dx, y + dy), text=text, size=15, **kw))  # type: ignore[arg-type]

    def wire(*pts: float, colour: str = "#000000") -> None:
        add(Shape("line", tuple(pts), colour=colour))

    def gnd(px: float, py: float) -> None:
        wire(px, py, px, py + 10)
        for i, half in enumerate((12, 8, 4)):
            wire(px - half, py + 10 + i * 4, px + half, py + 10 + i * 4)

    def switch(px: float, py: float) -> None:  # horizontal push button from px to px+50
        wire(px, py, px + 12, py)
        wire(px + 38, py, px + 50, py)
        add(Shape("circle", (px + 12, py, 3), fill="#000000", width=1))
        add(Shape("circle", (px + 38, py, 3), fill="#000000", width=1))
        wire(px + 10, py - 12, px + 40, py - 12)
        wire(px + 25, py - 12, px + 25, py - 20)

    def resistor(px: float, py: float, value: str) -> None:  # from px to px+60
        wire(px, py, px + 15, py)
        add(Shape("rect", (px + 15, py - 7, px + 45, py + 7), fill="#ffffff"))
        wire(px + 45, py, px + 60, py)
        label(px - x + 30, py - y - 12, value, anchor="middle")

    def diode(px: float, py: float, colour: str = "#000000") -> None:  # anode px -> cathode +40
        wire(px, py, px + 12, py, colour=colour)
        add(Shape("line", (px + 12, py - 8, px + 12, py + 8), colour=colour))
        add(Shape("line", (px + 12, py - 8, px + 26, py), colour=colour))
        add(Shape("line", (px + 12, py + 8, px + 26, py), colour=colour))
        add(Shape("line", (px + 26, py - 8, px + 26, py + 8), colour=colour))
        wire(px + 26, py, px + 40, py, colour=colour)

    # 1. Button
    r = y + 45
    label(0, r - y + 5, "Button (Ready, Next, Undo, Confirm):", bold=True)
    label(0, r - y + 35, "GPIO")
    wire(x + 45, r + 30, x + 80, r + 30)
    switch(x + 80, r + 30)
    wire(x + 130, r + 30, x + 170, r + 30)
    gnd(x + 170, r + 30)
    label(195, r - y + 35, "GND   (no resistor: internal pull-up)")

    # 2. LED
    r = y + 125
    label(0, r - y + 5, "Seat LED (active high):", bold=True)
    label(0, r - y + 35, "GPIO")
    wire(x + 45, r + 30, x + 70, r + 30)
    resistor(x + 70, r + 30, "330 Ω")
    diode(x + 130, r + 30, colour="#d62728")
    label(150, r - y + 55, "LED", colour="#d62728", anchor="middle")
    gnd(x + 170, r + 30)
    label(195, r - y + 35, "GND   (long leg = anode towards the GPIO)")

    # 3. Gray-code dial
    r = y + 210
    label(0, r - y + 5, "Gear dial, 2 pins (dial.gray = [a, b]), single-pole 4-way switch:",
          bold=True)
    rows = [("1", "not connected (a = b = open)"), ("2", "→ GPIO a"),
            ("3", "→ 2 Schottky diodes → GPIO a and GPIO b"), ("4", "→ GPIO b")]
    for i, (pos, text) in enumerate(rows):
        yy = r + 35 + i * 26
        label(60, yy - y + 5, f"position {pos}")
        wire(x + 150, yy, x + 185, yy)
        label(195, yy - y + 5, text)
    wire(x + 30, r + 35, x + 30, r + 35 + 3 * 26)
    wire(x + 30, r + 35 + 39, x + 10, r + 35 + 39)
    gnd(x + 10, r + 35 + 39)
    label(40, r - y + 35 + 26 * 4 + 4, "common → GND. Diodes (e.g. BAT43): cathode on the switch, "
          "anode on the GPIO.")
    label(40, r - y + 35 + 26 * 4 + 26, "Gray order: one contact changes per detent, "
          "gear 1 = open/open, 2 = a, 3 = a+b, 4 = b.")

    # 4. One pin per position
    r = y + 425
    label(0, r - y + 5, "Gear dial, 4 pins (dial.positions = [p1, p2, p3, p4]):", bold=True)
    label(40, r - y + 32, "common → GND, position n → GPIO pn. Between detents no contact is")
    label(40, r - y + 54, "closed (or two, make-before-break): ignored until the dial rests.")

    # 5. Buzzer
    r = y + 515
    label(0, r - y + 5, "Buzzer (active, 5 V) through an NPN transistor (e.g. 2N2222):",
          bold=True)
    label(40, r - y + 32, "GPIO → 1 kΩ → base;  emitter → GND;  collector → buzzer (−);")
    label(40, r - y + 54, "buzzer (+) → 5V;  flyback diode across the buzzer if it is magnetic.")

    # 6. Hub
    r = y + 605
    label(0, r - y + 5, "More seats: USB hub (Raspberry Pi Pico, deploy/hub-firmware):",
          bold=True)
    hub = wiring.hub
    seats = ", ".join(str(s) for s in hub.seats) if hub else "none configured"
    label(40, r - y + 32, f"seats {seats}: dials, Ready buttons and LEDs on the Pico's pins,")
    label(40, r - y + 54, "wired as above; the Pico plugs into a USB port of the Pi "
          f"({hub.port if hub else '/dev/heat-hub'}).")
    add(Shape("rect", (x + 40, r + 80, x + 200, r + 150), colour="#1f77b4", fill="#e8f1fa"))
    label(120, r - y + 120, "Pico hub", anchor="middle", bold=True)
    wire(x + 200, r + 115, x + 330, r + 115, colour="#1f77b4")
    label(265, r - y + 108, "USB", anchor="middle", colour="#1f77b4")
    add(Shape("rect", (x + 330, r + 80, x + 560, r + 150), colour="#2f4f2f", fill="#e9f3e9"))
    label(445, r - y + 120, "Raspberry Pi", anchor="middle", bold=True)


def to_svg(items: list[Shape]) -> str:
    lines = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
             f'viewBox="0 0 {W} {H}" font-family="DejaVu Sans, Arial, sans-serif">']
    for s in items:
        fill = s.fill or "none"
        if s.kind == "rect":
            x1, y1, x2, y2 = s.coords
            lines.append(f'<rect x="{x1:g}" y="{y1:g}" width="{x2 - x1:g}" height="{y2 - y1:g}" '
                         f'fill="{fill}" stroke="{s.colour}" stroke-width="{s.width}"/>')
        elif s.kind == "circle":
            cx, cy, r = s.coords
            lines.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="{fill}" '
                         f'stroke="{s.colour}" stroke-width="{s.width}"/>')
        elif s.kind == "line":
            pts = " ".join(f"{a:g},{b:g}" for a, b in zip(s.coords[::2], s.coords[1::2],
                                                            strict=True))
            lines.append(f'<polyline points="{pts}" fill="none" stroke="{s.colour}" '
                         f'stroke-width="{s.width}"/>')
        else:
            x1, y1 = s.coords
            weight = ' font-weight="bold"' if s.bold else ""
            lines.append(f'<text x="{x1:g}" y="{y1:g}" font-size="{s.size}" '
                         f'text-anchor="{s.anchor}" fill="{s.colour}"{weight}>'
                         f"{escape(s.text)}</text>")
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def to_png(items: list[Shape]) -> bytes:
    from PIL import Image, ImageDraw, ImageFont

    img = Image.new("RGB", (W, H), "white")
    draw = ImageDraw.Draw(img)
    fonts: dict[tuple[int, bool], ImageFont.FreeTypeFont | ImageFont.ImageFont] = {}

    def font(size: int, bold: bool) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
        key = (size, bold)
        if key not in fonts:
            name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
            try:
                fonts[key] = ImageFont.truetype(name, size)
            except OSError:
                fonts[key] = ImageFont.load_default(size=size)
        return fonts[key]

    for s in items:
        if s.kind == "rect":
            draw.rectangle(s.coords, fill=s.fill, outline=s.colour if s.width else None,
                           width=s.width)
        elif s.kind == "circle":
            cx, cy, r = s.coords
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=s.fill, outline=s.colour,
                         width=s.width)
        elif s.kind == "line":
            draw.line(s.coords, fill=s.colour, width=s.width)
        else:
            anchor = {"start": "ls", "middle": "ms", "end": "rs"}[s.anchor]
            draw.text((s.coords[0], s.coords[1]), s.text, fill=s.colour,
                      font=font(s.size, s.bold), anchor=anchor)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


BEGIN, END = "<!-- pin-table:begin -->", "<!-- pin-table:end -->"


def with_table(doc: str, table: str) -> str:
    head, _, rest = doc.partition(BEGIN)
    _, _, tail = rest.partition(END)
    if not rest:
        raise ValueError(f"docs/wiring.md lacks the {BEGIN} ... {END} markers")
    return f"{head}{BEGIN}\n{table}\n{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wiring", default=ROOT / "deploy" / "wiring.toml", type=Path)
    parser.add_argument("--docs", default=ROOT / "docs", type=Path)
    parser.add_argument("--check", action="store_true", help="only check that files are current")
    parser.add_argument("--no-png", action="store_true", help="skip the PNG (no Pillow)")
    args = parser.parse_args(argv)
    wiring = load_wiring(args.wiring)
    items = shapes(wiring)
    md_path = args.docs / "wiring.md"
    wanted = {
        args.docs / "wiring.svg": to_svg(items),
        md_path: with_table(md_path.read_text(encoding="utf-8"), pin_table(wiring)),
    }
    stale = [p for p, text in wanted.items()
             if not p.exists() or p.read_text(encoding="utf-8") != text]
    if args.check:
        for p in stale:
            print(f"out of date: {p} (run python deploy/wiring_diagram.py)")
        return 1 if stale else 0
    for p in stale:
        p.write_text(wanted[p], encoding="utf-8")
        print(f"wrote {p}")
    if not args.no_png:
        png = args.docs / "wiring.png"
        png.write_bytes(to_png(items))
        print(f"wrote {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
