"""A guided Garage draft (Kivy-free): whose pick it is, the cards revealed, one tap to pick.

Two kinds of draft go through :class:`DraftFlow`:

* a single race's draft, :func:`companion.engine.draft.start_draft` (three rounds of
  players + 3 cards, docs/rules.md §4.1);
* a Championship race's draft, :class:`~companion.engine.draft.RoundDraft`: one round of
  players + 3 cards in the season's pick order (reverse standings, docs/rules.md §3.1), then the
  first picker may swap one earlier Upgrade for a card left in the market.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.engine import Explanation
from companion.engine.draft import (
    RoundDraft,
    pick,
    pick_problem,
    round_pick,
)
from companion.i18n import _, listed
from companion.i18n.counts import fill

from .words import design_card, design_name, render

Record = Callable[[int, dict[str, Any]], None]
"""Writes the draft's input number ``seq`` (a JSON object) durably; raises if it cannot."""


class NotRecorded(Exception):
    """Raised by a :data:`Record` when the race log did not take the input (the app has said
    why): the draft stays exactly as it was."""


class DraftRecordError(ValueError):
    """A stored draft that does not replay: ``seq`` (None: its start) and what is wrong, in
    English (the app shows it as a damaged log)."""

    def __init__(self, seq: int | None, problem: str) -> None:
        self.seq = seq
        self.problem = problem
        super().__init__(f"input {seq}: {problem}" if seq is not None else problem)


@dataclass(frozen=True)
class CardKey:
    index: int
    design: str
    text: str


@dataclass(frozen=True)
class DraftView:
    mode: str
    """``pick``, ``swap`` (the first picker may swap) or ``done``."""
    title: str
    prompt: str
    market: tuple[CardKey, ...]
    own: tuple[CardKey, ...] = ()
    """In ``swap`` mode: the first picker's earlier Upgrades."""
    hands: tuple[tuple[str, str], ...] = ()
    """(car, its cards in words) for every driver, in the pick order of the round on show
    (the order the prompt names; the last round's once the draft is over)."""
    hand_names: tuple[tuple[str, str], ...] = ()
    """The same hands, each card by its name only, one a line: for a finished draft whose
    cards' words do not fit the screen (:mod:`companion.ui.widgets.hands_fit`)."""
    error: str = ""
    selected: int | None = None
    start_why: str = ""
    """Why the race cannot start yet ("" once it can)."""
    notice: str = ""
    """What the last Undo took back ("" after any other input)."""
    undo_why: str = ""
    """Why there is nothing to undo ("" when Undo can take an input back)."""


@dataclass
class DraftFlow:
    draft: Any
    """A ``Draft`` (single race) or a :class:`RoundDraft` (championship)."""
    names: Mapping[str, str]
    finish: Callable[[dict[str, tuple[str, ...]]], None]
    """Called with every driver's cards when the table presses Start race."""
    earlier: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Championship: each driver's Upgrades from the earlier races."""
    swap: str | None = None
    """Championship: the driver who may swap once the round is over."""
    swapped: bool = False
    selected: int | None = None
    """The earlier Upgrade chosen to swap (index into ``earlier[swap]``)."""
    error: Any = None
    back: str = "start"
    """The screen Back returns to."""
    record: Record | None = None
    """Writes each accepted input to the race log before the flow shows it (None: not
    recorded, as in a test of the flow alone)."""
    stored: str | None = None
    """The draft's id in the race log (its race ends it there)."""
    inputs: int = 0
    """Inputs recorded so far: picks, the first picker's swap or no swap, and undos."""
    applied: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """The inputs in effect, oldest first, each with its number: an undo takes back the last
    (its own number is not among them)."""
    undone: dict[str, Any] | None = None
    """The input the last Undo took back, until the next input (the screen says it)."""

    def __post_init__(self) -> None:
        self._dealt = (self.draft, dict(self.earlier))
        """The draft as dealt and the earlier Upgrades: an undo replays the inputs left
        in effect from here."""

    # --- inputs --------------------------------------------------------------------------------

    def pick(self, index: int) -> None:
        """The driver whose pick it is takes the ``index``-th card of the market; in the swap
        step, the chosen earlier Upgrade is swapped for it."""
        self.error = None
        self.undone = None
        market = self.draft.market
        if self.mode == "swap":
            if self.selected is None:
                self.error = _("First tap the card of yours to give back.")
                return
            self._swap(market[index])
            return
        if not 0 <= index < len(market):
            return
        driver, design = self.draft.to_pick, market[index]
        problem = pick_problem(self.draft, driver or "-", design)
        if problem is not None:
            self.error = problem
            return
        after: Any
        if isinstance(self.draft, RoundDraft):
            after = round_pick(self.draft, driver, design)
        else:
            after = pick(self.draft, driver, design)
        if self._accept({"kind": "pick", "driver": driver, "card": design}):
            self.draft = after

    def _accept(self, payload: dict[str, Any]) -> bool:
        """An input the rules accept, recorded (``record``) before the flow changes: False
        when the log did not take it (:class:`NotRecorded`: the flow is as it was); any other
        failure of the record is raised, the flow as it was too."""
        if self.record is not None:
            try:
                self.record(self.inputs + 1, payload)
            except NotRecorded:
                return False
        self.inputs += 1
        if payload["kind"] != "undo":
            self.applied.append((self.inputs, payload))
        return True

    def undo(self) -> None:
        """Take back the last input in effect (a pick, the swap, or No swap): an input of its
        own, ``{"kind": "undo", "undoes": <its number>}``, recorded as a pick is; the draft
        is then replayed from its deal with the inputs left in effect."""
        self.error = None
        if not self.applied:
            self.error = _("Nothing to undo: no pick of this draft is recorded yet.")
            return
        seq, last = self.applied[-1]
        if not self._accept({"kind": "undo", "undoes": seq}):
            return
        total = self.inputs
        record, self.record = self.record, None
        try:
            kept, self.applied = self.applied[:-1], []
            self.draft, earlier = self._dealt
            self.earlier = dict(earlier)
            self.swapped, self.selected = False, None
            for number, payload in kept:
                self.inputs = number - 1
                self._replay_one(number, payload)
        finally:
            self.record, self.inputs = record, total
        self.undone = last

    def take(self, payload: Mapping[str, Any]) -> None:
        """An input as :meth:`replay` reads it, taken and recorded as a tap is (the Retry of a
        pick the log did not take). :raises DraftRecordError: the draft is no longer where
        that input fits."""
        self._replay_one(self.inputs + 1, payload)

    def pick_as(self, driver: str, index: int) -> None:
        """A pick claimed by ``driver`` (refused unless it is that driver's pick)."""
        problem = pick_problem(self.draft, driver, self.draft.market[index])
        if problem is not None:
            self.error = problem
            return
        self.pick(index)

    def choose_own(self, index: int) -> None:
        self.selected = index
        self.error = None
        self.undone = None

    def skip_swap(self) -> None:
        self.error = None
        self.undone = None
        if self.mode != "swap" or not self._accept({"kind": "no swap", "driver": self.swap}):
            return
        self.swapped = True
        self.selected = None

    def _swap(self, design: str) -> None:
        assert self.swap is not None and self.selected is not None
        cards = list(self.earlier[self.swap])
        given = cards[self.selected]
        cards[self.selected] = design
        market = list(self.draft.market)
        market.remove(design)
        market.append(given)
        if not self._accept({"kind": "swap", "driver": self.swap, "give": given,
                             "at": self.selected, "card": design}):
            return
        self.earlier[self.swap] = tuple(cards)
        self.draft = replace(self.draft, market=tuple(market))
        self.swapped = True
        self.selected = None

    def replay(self, inputs: Sequence[Mapping[str, Any]]) -> None:
        """The inputs of a stored draft, each checked as a tap is and applied without being
        recorded again: the flow is then where the draft was. :raises DraftRecordError: an
        input that is not what the draft accepts at that point (the flow is then part-way:
        build it afresh before showing anything)."""
        record, self.record = self.record, None
        try:
            for seq, stored in enumerate(inputs, start=self.inputs + 1):
                self._replay_one(seq, stored)
        finally:
            self.record = record

    def _replay_one(self, seq: int, stored: Mapping[str, Any]) -> None:
        kind, driver = stored.get("kind"), stored.get("driver")
        if kind == "undo":
            last = self.applied[-1][0] if self.applied else None
            if set(stored) != {"kind", "undoes"} or last is None or \
                    type(stored["undoes"]) is not int or stored["undoes"] != last:
                raise DraftRecordError(seq, f"an undo that does not take back the last input "
                                            f"in effect ({last}): {dict(stored)!r}")
            self.undo()
            return
        keys = {"pick": {"kind", "driver", "card"}, "no swap": {"kind", "driver"},
                "swap": {"kind", "driver", "give", "at", "card"}}.get(str(kind))
        if keys is None or set(stored) != keys:
            raise DraftRecordError(seq, f"not a pick, a swap or no swap (nor an undo): "
                                        f"{dict(stored)!r}")
        mode = self.mode
        wanted = self.draft.to_pick if mode == "pick" else self.swap if mode == "swap" else None
        if mode != ("pick" if kind == "pick" else "swap") or driver != wanted:
            raise DraftRecordError(seq, f"a {kind} by {driver!r} where the draft awaits "
                                        + (f"a {mode} by {wanted!r}" if wanted else "no input"))
        card = stored.get("card")
        market = list(self.draft.market)
        if kind != "no swap" and card not in market:
            raise DraftRecordError(seq, f"{card!r} is not among the cards revealed {market}")
        if kind == "pick":
            self.pick(market.index(str(card)))
        elif kind == "no swap":
            self.skip_swap()
        else:
            own = self.earlier.get(str(driver), ())
            at = stored.get("at")
            if not (type(at) is int and 0 <= at < len(own) and own[at] == stored["give"]):
                raise DraftRecordError(seq, f"{driver} has no {stored['give']!r} at {at!r} "
                                            f"among {list(own)}")
            self.choose_own(at)
            self.pick(market.index(str(card)))
        if self.error:
            raise DraftRecordError(seq, f"refused: {self.error}")

    def cards(self) -> dict[str, tuple[str, ...]]:
        """Every driver's Upgrades: earlier ones (championship) and those drafted."""
        return {d: (*self.earlier.get(d, ()), *self.draft.upgrades(d))
                for d in self.draft.drivers}

    def start(self) -> None:
        if self.mode == "done":
            self.finish(self.cards())

    # --- what to show --------------------------------------------------------------------------

    @property
    def mode(self) -> str:
        if not self.draft.done:
            return "pick"
        if self.swap is not None and not self.swapped and self.earlier.get(self.swap) \
                and self.draft.market:
            return "swap"
        return "done"

    def name(self, car: str) -> str:
        return self.names.get(car, car)

    def view(self) -> DraftView:
        draft = self.draft
        mode = self.mode
        market = tuple(CardKey(i, d, design_card(d)) for i, d in enumerate(draft.market))
        cards = self.cards()
        # In the order the drivers pick (the prompt's "order: ..."), not the grid's: a single
        # race's draft picks last on the grid first in rounds 1 and 3 (docs/rules.md §4.1), a
        # season's in reverse standings order (§3.1).
        hands = tuple((d, "\n".join(design_card(c) for c in cards[d]) or "-")
                      for d in draft.order)
        hand_names = tuple((d, "\n".join(design_name(c) for c in cards[d]) or "-")
                           for d in draft.order)
        error = self.error or ""
        notice = self._undone_words()
        undo_why = "" if self.applied else _(
            "Nothing to undo: no pick of this draft is recorded yet.")
        if self.error is not None and not isinstance(self.error, str):
            params = {k: self.name(v) if k == "driver" and isinstance(v, str) else v
                      for k, v in self.error.params.items()}
            error = render(Explanation(self.error.template, params))
        if mode == "pick":
            title = _("Garage draft, round {round}").format(round=draft.round)
            order = listed(self.name(d) for d in draft.order)
            prompt = _("{car}: pick a card (order: {order}).").format(
                car=self.name(draft.to_pick), order=order)
            return DraftView(mode, title, prompt, market, hands=hands, error=error,
                             start_why=_("The draft is not over: {car} picks next.").format(
                                 car=self.name(draft.to_pick)), notice=notice, undo_why=undo_why)
        if mode == "swap":
            assert self.swap is not None
            own = tuple(CardKey(i, d, design_card(d))
                        for i, d in enumerate(self.earlier[self.swap]))
            prompt = fill(_("{car} picked first: swap one earlier Upgrade for a card left, "
                            "or skip."), car=self.name(self.swap))
            return DraftView(mode, _("Garage draft: swap"), prompt, market, own=own,
                             hands=hands, error=error, selected=self.selected,
                             start_why=fill(_("{car} may still swap an earlier Upgrade: "
                                              "swap one, or tap No swap."),
                                            car=self.name(self.swap)),
                             notice=notice, undo_why=undo_why)
        return DraftView(mode, _("Garage draft: done"),
                         _("Every driver has their cards: start the race."), (), hands=hands,
                         hand_names=hand_names, error=error, notice=notice, undo_why=undo_why)

    def _undone_words(self) -> str:
        """What the last Undo took back, in words ("" when the last input was not an undo)."""
        undone = self.undone
        if undone is None:
            return ""
        car = self.name(str(undone.get("driver")))
        # filled with ``fill``: the Korean takes a particle after the driver's name
        if undone["kind"] == "pick":
            return fill(_("Undone: {car}'s pick, {card}, back to the market."),
                        car=car, card=design_name(str(undone["card"])))
        if undone["kind"] == "swap":
            return fill(_("Undone: {car}'s swap: {card} back to the market, {given} back in "
                          "{car}'s hand."), car=car, card=design_name(str(undone["card"])),
                        given=design_name(str(undone["give"])))
        return fill(_("Undone: {car}'s No swap: {car} may swap again."), car=car)
