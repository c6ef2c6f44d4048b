"""The shape of each bundled track, for the race screen's map (Kivy-free display geometry).

``OUTLINES`` holds, for every bundled track, the centre of each space (space 1 first), measured
on the board: the mean of the two spots' positions in Board Game Arena's circuit data
(``bga-devs/bga-heat`` ``modules/php/Circuits/*.php``, the same source as the track files'
spaces and corners; ``docs/rules.md`` §6), rescaled to a 0-1000 box, y up. Only these numbers
are used: no board art. A track without an outline (an inline race-file track), or whose space
count differs, is drawn as a stadium.

:func:`fit` places the centre line in a widget's rectangle; :class:`MapGeometry` answers where
a space, its two spots, a Corner Line or a label go, so the map draws the cars where the rulings
put them ("space 23, Race Line"); :mod:`.map_labels` places the corners' markers and the space
numbers beside it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

Point = tuple[float, float]

OUTLINES: dict[str, str] = {
    "espana": (
        "696,1 650,0 603,0 555,1 508,1 460,2 413,2 366,3 320,4 271,5 222,12 172,36 141,74 112,114 "
        "94,170 121,222 174,249 216,266 262,278 311,286 361,289 406,293 455,295 499,298 549,302 "
        "601,306 653,324 699,361 720,419 698,481 643,508 583,514 531,488 482,481 428,475 377,461 "
        "331,446 279,437 233,433 186,431 138,433 93,437 41,444 1,464 0,510 41,534 87,537 136,539 "
        "180,540 231,542 277,544 325,546 373,550 420,552 468,555 516,556 563,558 611,559 658,559 "
        "705,559 753,559 804,560 849,561 897,561 943,552 981,522 999,478 1000,433 990,387 963,348 "
        "928,322 876,304 824,300 773,298 720,289 673,275 626,256 581,242 536,232 487,229 439,228 "
        "390,226 340,222 288,216 225,193 205,127 253,78 313,75 365,87 410,97 455,107 503,116 "
        "551,107 591,70 651,39 722,65 734,124 742,175 780,213 832,210 874,178 907,143 939,107 "
        "950,66 930,25 888,3 840,1 791,1 747,1"
    ),
    "france": (
        "462,3 412,11 362,24 313,42 267,65 224,94 187,128 152,164 121,204 87,247 41,284 5,326 "
        "0,381 28,425 78,449 131,462 184,478 236,497 287,524 333,565 383,567 388,517 349,477 "
        "314,436 281,389 252,333 244,267 275,204 336,171 402,177 455,204 499,237 538,275 573,317 "
        "601,364 624,415 638,471 637,531 644,586 690,618 741,604 767,558 780,502 812,444 866,404 "
        "924,389 971,367 1000,320 993,267 960,225 920,194 880,161 842,127 802,95 760,67 716,44 "
        "667,25 618,11 567,2 517,0"
    ),
    "great-britain": (
        "83,714 129,758 187,786 248,799 308,801 367,800 427,800 487,799 545,799 603,798 661,798 "
        "721,798 780,797 839,797 900,784 953,749 988,697 1000,636 998,574 991,513 981,453 970,395 "
        "955,337 937,279 914,223 888,170 856,119 819,72 776,28 720,0 655,10 610,57 597,119 "
        "605,181 626,239 658,300 675,378 626,456 540,467 473,429 417,402 349,399 270,378 223,301 "
        "251,218 321,182 388,164 449,135 467,79 413,58 352,86 294,112 237,141 179,170 124,203 "
        "75,243 41,295 17,352 3,410 0,472 7,535 25,596 47,655"
    ),
    "italy": (
        "993,533 1000,461 996,385 972,312 930,250 878,197 824,147 769,99 717,49 657,8 577,0 "
        "511,41 477,109 463,181 446,251 430,321 414,389 398,460 374,548 271,592 204,505 227,404 "
        "250,316 271,233 297,154 297,75 239,20 162,29 114,89 94,161 78,230 61,300 44,369 29,436 "
        "12,506 0,578 3,652 25,724 68,788 120,844 178,889 246,924 318,944 394,952 470,953 545,950 "
        "619,941 693,927 764,900 828,857 879,800 918,739 949,674 975,609"
    ),
    "japan": (
        "520,277 570,268 618,254 664,232 707,205 751,178 799,157 852,141 913,144 967,181 976,255 "
        "918,294 876,334 867,387 876,440 905,483 948,516 995,556 1000,627 933,652 874,627 829,612 "
        "782,602 736,590 687,574 639,547 600,500 584,447 578,397 574,350 545,212 531,166 514,122 "
        "488,80 448,49 403,26 354,13 303,5 252,1 201,0 150,3 100,8 51,24 13,59 0,108 8,159 35,203 "
        "72,245 105,292 119,345 126,396 138,444 175,477 228,474 260,437 280,387 312,336 364,304 "
        "418,293 465,285"
    ),
    "mexico": (
        "459,8 412,13 361,19 312,28 262,41 214,59 169,81 126,107 84,135 44,168 11,213 0,272 "
        "13,326 45,374 64,425 41,473 21,530 45,592 103,628 169,617 208,573 237,530 275,498 "
        "317,476 365,466 411,457 456,450 502,447 548,447 595,447 643,458 686,479 722,509 755,544 "
        "787,584 831,616 892,631 954,618 993,557 977,494 951,454 906,415 866,385 837,351 857,302 "
        "900,274 942,241 974,197 992,151 1000,88 959,25 893,39 843,32 797,22 748,14 698,9 652,3 "
        "602,1 554,0 509,3"
    ),
    "nederland": (
        "309,0 262,8 215,26 173,53 137,81 101,110 66,138 30,168 0,207 6,262 42,302 88,323 137,343 "
        "176,396 168,468 145,522 178,563 228,562 271,542 312,522 352,503 394,485 434,465 475,448 "
        "517,428 568,410 631,413 683,437 723,463 762,489 798,515 835,541 875,569 927,586 980,561 "
        "1000,512 989,464 967,422 942,384 918,346 894,307 869,270 846,231 820,194 795,156 764,117 "
        "724,84 680,59 631,44 584,37 540,28 495,22 451,16 406,10 362,4"
    ),
    "south-africa": (
        "536,35 488,35 438,33 389,30 339,24 290,18 240,11 190,4 139,0 69,16 36,75 14,124 0,177 "
        "16,229 29,281 67,317 107,367 169,352 214,321 246,282 275,241 307,199 354,167 409,178 "
        "430,241 379,278 325,303 307,359 258,394 252,452 263,504 269,557 305,609 366,607 422,632 "
        "469,592 518,572 553,529 575,479 592,422 568,367 553,319 545,269 546,214 580,147 657,129 "
        "706,166 724,222 729,277 735,333 747,385 771,435 814,475 875,489 926,453 939,397 927,340 "
        "923,282 949,228 984,180 1000,123 987,63 946,22 890,9 838,11 788,16 738,22 689,28 639,32 "
        "586,35"
    ),
    "usa": (
        "802,565 851,544 892,512 923,470 943,423 958,378 969,334 979,289 988,245 995,200 1000,151 "
        "992,98 964,48 920,14 865,22 819,21 774,23 728,0 684,1 640,2 595,1 549,23 504,20 460,20 "
        "416,20 371,22 326,24 281,1 236,1 190,23 145,20 98,13 50,21 0,57 18,121 70,152 119,165 "
        "160,190 190,227 209,270 223,311 235,354 248,397 263,441 281,483 302,526 328,565 362,606 "
        "414,637 480,620 508,560 491,501 461,458 433,416 408,374 383,332 355,291 365,248 408,253 "
        "434,294 457,330 482,367 508,405 536,442 566,480 599,516 642,551 696,569 747,572"
    ),
}
"""Track id -> "x,y" of each space's centre, space 1 first (0-1000 box, y up)."""

LANE_1_LEFT: frozenset[str] = frozenset({"usa", "mexico"})
"""Tracks whose lane 1 (``race_line_lane``) lies to the left of the direction of travel; on the
others it lies to the right (from the same circuit data: where each space's two spots are)."""


@cache
def outline(track_id: str) -> tuple[Point, ...]:
    """The measured centre of each space of a bundled track (0-1 box), or () if none."""
    text = OUTLINES.get(track_id, "")
    points: list[Point] = []
    for pair in text.split():
        x, y = pair.split(",")
        points.append((int(x) / 1000, int(y) / 1000))
    return tuple(points)


def stadium(spaces: int) -> tuple[Point, ...]:
    """``spaces`` centres on a stadium (two straights, two half circles), space 1 just after
    the finish line at the bottom centre, run anticlockwise."""
    radius = 0.28
    straight = 1.0 - 2 * radius
    total = 2 * straight + 2 * math.pi * radius
    points: list[Point] = []
    for index in range(spaces):
        s = (index + 0.5) / spaces * total
        half = straight / 2
        if s < half:
            x, y = 0.5 + s, 0.0
        elif s < half + math.pi * radius:
            a = -math.pi / 2 + (s - half) / radius
            x, y = 0.5 + half + radius * math.cos(a), radius + radius * math.sin(a)
        elif s < half + math.pi * radius + straight:
            x, y = 0.5 + half - (s - half - math.pi * radius), 2 * radius
        elif s < half + 2 * math.pi * radius + straight:
            a = math.pi / 2 + (s - half - math.pi * radius - straight) / radius
            x, y = 0.5 - half + radius * math.cos(a), radius + radius * math.sin(a)
        else:
            x, y = 0.5 - half + (s - half - 2 * math.pi * radius - straight), 0.0
        points.append((x, y))
    return tuple(points)


def centre_line(track_id: str, spaces: int) -> tuple[Point, ...]:
    """The centre of spaces 1..``spaces`` in a 0-1 box: measured, else a stadium."""
    measured = outline(track_id)
    return measured if len(measured) == spaces else stadium(spaces)


def is_measured(track_id: str, spaces: int) -> bool:
    return len(outline(track_id)) == spaces


@dataclass(frozen=True)
class MapGeometry:
    """The track placed in a rectangle: canvas coordinates of every space."""

    centres: tuple[Point, ...]
    """Centre of space 1..L (index 0 is space 1)."""
    band: float
    """Width of the track (both lanes)."""
    inside: float
    """+1 when the loop runs anticlockwise (its inside is to the left of travel), else -1."""
    lane_1_left: bool = True
    """Lane 1 lies to the left of travel (else to the right)."""

    @property
    def spaces(self) -> int:
        return len(self.centres)

    def centre(self, space: int) -> Point:
        return self.centres[(space - 1) % self.spaces]

    def direction(self, space: int) -> Point:
        """Unit vector along the travel at ``space``."""
        (x0, y0), (x1, y1) = self.centre(space - 1), self.centre(space + 1)
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        return (x1 - x0) / length, (y1 - y0) / length

    def left(self, space: int) -> Point:
        """Unit normal to the left of travel at ``space``."""
        dx, dy = self.direction(space)
        return -dy, dx

    def spot(self, space: int, lane: int) -> Point:
        """Where a car stands on ``space`` in ``lane`` (1 or 2, as ``race_line_lane`` says)."""
        nx, ny = self.left(space)
        side = 1.0 if (lane == 1) == self.lane_1_left else -1.0
        x, y = self.centre(space)
        off = self.band * 0.25 * side
        return x + nx * off, y + ny * off

    def line_after(self, space: int) -> tuple[Point, Point]:
        """The line between ``space`` and the next one: its middle point and unit normal across
        the track (the direction the line is drawn in)."""
        (x0, y0), (x1, y1) = self.centre(space), self.centre(space + 1)
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy) or 1.0
        return ((x0 + x1) / 2, (y0 + y1) / 2), (-dy / length, dx / length)

    def path(self, steps: int = 4) -> list[Point]:
        """The centre line as a closed smooth curve (Catmull-Rom through the space centres),
        ``steps`` points per space, starting at space 1."""
        out: list[Point] = []
        n = self.spaces
        for i in range(n):
            p0, p1, p2, p3 = (self.centres[(i + k) % n] for k in (-1, 0, 1, 2))
            for step in range(steps):
                t = step / steps
                t2, t3 = t * t, t * t * t
                out.append(tuple(  # type: ignore[arg-type]
                    0.5 * (2 * b + (-a + c) * t + (2 * a - 5 * b + 4 * c - d) * t2
                           + (-a + 3 * b - 3 * c + d) * t3)
                    for a, b, c, d in zip(p0, p1, p2, p3, strict=True)))
        return out


def fit(points: tuple[Point, ...], x: float, y: float, width: float, height: float,
        margin: float, lane_1_left: bool = True) -> MapGeometry:
    """``points`` (0-1 box) scaled into the rectangle, aspect kept, ``margin`` on every side;
    the track band as wide as a space is long (as on the board)."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    span_x = max(xs) - min(xs) or 1.0
    span_y = max(ys) - min(ys) or 1.0
    steps = sorted(math.dist(points[i], points[(i + 1) % len(points)])
                   for i in range(len(points)))
    spacing = steps[len(steps) // 2]
    # The band and the labels stick out of the centre line: leave room for them.
    room_x = max(1.0, width - 2 * margin)
    room_y = max(1.0, height - 2 * margin)
    scale = min(room_x / (span_x + spacing), room_y / (span_y + spacing))
    ox = x + (width - span_x * scale) / 2 - min(xs) * scale
    oy = y + (height - span_y * scale) / 2 - min(ys) * scale
    centres = tuple((ox + px * scale, oy + py * scale) for px, py in points)
    area = sum(ax * by - bx * ay for (ax, ay), (bx, by)
               in zip(centres, centres[1:] + centres[:1], strict=True))
    return MapGeometry(centres=centres, band=max(6.0, spacing * scale * 0.95),
                       inside=1.0 if area > 0 else -1.0, lane_1_left=lane_1_left)


def geometry_for(track_id: str, spaces: int, x: float, y: float, width: float, height: float,
                 margin: float) -> MapGeometry:
    """The track's shape fitted into the rectangle (a stadium, lane 1 inside, if unmeasured)."""
    measured = is_measured(track_id, spaces)
    return fit(centre_line(track_id, spaces), x, y, width, height, margin,
               lane_1_left=track_id in LANE_1_LEFT if measured else True)
