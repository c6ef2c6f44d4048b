"""The race controller: every table input goes through here (Kivy-free, unit-testable).

Touch buttons, the table hardware and the demo all call the same methods. Each one builds an
engine action, hands it to ``session.submit`` (validate -> apply -> durable append) and keeps
the outcome sentences or the rejection reason for the screen. :meth:`RaceController.view`
says what the race screen must show (:mod:`companion.ui.views.race_prompts` for the round and
turn, :mod:`companion.ui.views.keypad` for the card keypads, :mod:`companion.ui.views.race_view`
for the records and the race order).

No tap without a decision:

* the cards go in when the last one revealed is typed (no Move key to confirm the count);
* a React step with nothing to take ends by itself (an End turn input the controller submits
  right after the input that left nothing to take, through the same path);
* Undo takes back the table's last decision: an automatic End turn goes with the input that
  caused it, and an undone reveal goes back on the keypad to fix one card; Redo likewise.

Each input is still its own engine action and its own event in the log, validated before the
next one; what one tap makes (an input and its End turn, the steps of one Undo) is committed in
one transaction (``session.one_transaction``): all of it, or none.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from companion import engine
from companion.engine import (
    Accelerate,
    Action,
    Adrenaline,
    Applied,
    Boost,
    ChooseGear,
    Cooldown,
    DraftMove,
    EndTurn,
    Explanation,
    LegendCard,
    Outcome,
    PayHeat,
    RaceState,
    Rejection,
    Reveal,
    Slipstream,
    SuperCool,
    TurnStage,
    Upgrade,
    explain,
    validate,
)
from companion.engine.payment import short_count
from companion.i18n import N_, Text, _
from companion.i18n.counts import fill

from .views import inputs
from .views.keypad import UNPAID_TEMPLATE, Entry, in_play_before
from .views.names import car_label
from .views.race_prompts import DirectPlay, race_view, react_buttons
from .views.race_view import (
    KEYPAD_FAMILY,
    OrderRow,
    RaceView,
    ReactButton,
    Ruling,
    order_rows,
)
from .views.react_choices import react_ruling
from .views.storage_fault import fault_reason
from .views.words import OUT_SPIN_SHORT, eliminating_spinout, render

RunRound: Any = getattr(engine, "RunRound", None)
"""The "Legends-only round" action, when the engine has it."""

__all__ = ["RaceController", "Session"]


class Step(Protocol):
    """One step of a race (``companion.storage.fold.Step``): an input (None for the start),
    the state it led to and what it did."""

    @property
    def action(self) -> Action | None: ...
    @property
    def state(self) -> RaceState: ...
    @property
    def outcomes(self) -> tuple[Outcome, ...]: ...


class Session(Protocol):
    """What the controller needs of ``companion.session.RaceSession``."""

    @property
    def state(self) -> RaceState: ...
    @property
    def can_undo(self) -> bool: ...
    @property
    def can_redo(self) -> bool: ...
    def actions(self) -> tuple[Action, ...]: ...
    def steps(self) -> tuple[Step, ...]: ...
    def submit(self, action: Action) -> Applied | Rejection: ...
    def undo(self) -> bool: ...
    def redo(self) -> bool: ...
    def one_transaction(self) -> AbstractContextManager[None]: ...


Kept = tuple[list["Line"], frozenset[str], Text | None, Entry, int]
"""The controller's lines, moved cars, error, keypad entry and revision (``_kept``)."""
PLACEMENT_KINDS = frozenset({"position"})
"""Outcomes that only say where a car goes (the race order's rows show it too)."""
SPINOUT_KINDS = frozenset({"spinout", "eliminated"})
"""Outcomes of a spin-out: the ruling box keeps them however many sentences follow."""


class Line:
    """One sentence of what the last input did, rendered in the language of the moment."""

    __slots__ = ("car", "headline", "placement", "short", "spinout", "text")

    def __init__(self, text: Text, car: str | None = None, placement: bool = False,
                 headline: bool = False, spinout: bool = False,
                 short: Text | None = None) -> None:
        self.text = text
        self.car = car
        self.placement = placement
        self.headline = headline
        """An Undo's or Redo's first sentence (what it took back): kept in a full box."""
        self.spinout = spinout
        """A car's spin-out (and its elimination): kept in a full box."""
        self.short = short
        """The same in one short line, for a box with no room for the whole sentence."""


def spinout_short(outcome: Outcome) -> Explanation:
    """A spin-out in one short line ("Ana spins out to space 19: 2 Stress, 1st gear."), for a
    ruling box with no room for the whole sentence (six drivers' gear cells leave it two
    lines): what the table does, without the sums."""
    params = outcome.why.params
    return explain(N_("{car} spins out to space {space}: {stress} Stress, 1st gear."),
                   car=params["car"], space=params["space"], stress=params["stress"])


def out_by_spinout(outcomes: Sequence[Outcome]) -> frozenset[str]:
    """The cars these outcomes eliminate by a spin-out (*Title sponsor withdraws*)."""
    spun = {o.car for o in outcomes if o.kind == "spinout"}
    return frozenset(o.car for o in outcomes if o.kind == "eliminated" and o.car in spun
                     and o.car is not None)


def eliminated_line(spinout: Outcome, say: Callable[[Explanation], Text]) -> Line:
    """A spin-out that eliminates its car (docs/rules.md §3.3: it leaves the track at once), in
    one sentence: why it spun, that it is out and to take it off the track; not the space,
    Stress cards and gear of a spin-out, nor the engine's second sentence (a table was told
    to put an eliminated car on space 20, then that it was out)."""
    return Line(say(eliminating_spinout(spinout.why)), spinout.car, spinout=True,
                short=say(explain(OUT_SPIN_SHORT, car=spinout.car or "")))


def without_places_of(lines: list[Line], cars: Collection[str]) -> list[Line]:
    """``lines`` without the sentences that only say where one of ``cars`` goes (cars that left
    the track: a slipstream's "to space 25" before the spin-out that eliminates the car)."""
    return [line for line in lines if not (line.placement and line.car in cars)]


def dead_end(state: RaceState) -> bool:
    """The car whose turn it is is at React with nothing to take: only End turn is left (the
    app ends such a turn by itself: no tap without a decision)."""
    return (state.turn is not None and state.turn.stage is not TurnStage.REVEAL
            and [b.key for b in react_buttons(state) if not b.why] == ["end"])


class RaceController:
    """Drives one race session; ``on_change`` is called after every input (main thread).

    A new controller on a race already under way (Continue) shows the last ruling again;
    ``after_stop`` (the app stopped since the race was last on screen: nothing typed on the
    keypad came through) adds, at a car's card keypad, that what was typed is not kept, and
    at React with a Boost (or "Cannot pay") on offer, that one tapped and its flipped card(s)
    not entered is not kept.

    ``on_fault(error)`` is called when the session's log could not record an input, undo or
    redo (a full disk, a locked or read-only log: the session is then unchanged); it shows the
    fault and returns True, or returns False for an error that is no storage fault (a bug,
    raised again). Without it every error is raised.
    """

    def __init__(self, session: Session, on_change: Callable[[], None] | None = None, *,
                 on_fault: Callable[[Exception], bool] | None = None,
                 after_stop: bool = False) -> None:
        self.session = session
        self.on_change = on_change
        self.on_fault = on_fault
        self.unrecorded: Callable[[], object] | None = None
        """The input the log did not record, to submit again (:meth:`retry`)."""
        self._lines: list[Line] = []
        self._moved: frozenset[str] = frozenset()
        self._error: Text | None = None
        self._entry = Entry()
        self._typed = False
        """The keypad's entry was typed by hand (not put back by an Undo): the next Undo
        takes back the typing first (:meth:`undo`)."""
        self._restored_keys: list[str] = []
        """The keys an Undo put back on the keypad (an undone reveal): taking back the
        typing returns to them."""
        self.revision = 0
        """Counts the changes to the race: every input recorded, every undo and redo."""
        self._resume_ruling()
        if after_stop:
            self._say_typing_lost()
            self._say_react_tap_lost()

    # --- state ---------------------------------------------------------------------------

    @property
    def state(self) -> RaceState:
        return self.session.state

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def _submit(self, action: Action) -> Applied | Rejection | None:
        """Validate, apply and commit ``action``, and the End turn that follows it when nothing
        is left to decide (:meth:`_settle`), in one transaction: a tap is recorded whole or not
        at all. Then show the screen. None: the log did not record it (a storage fault, shown;
        nothing changed, what was typed is kept)."""
        kept = self._kept()
        try:
            with self.session.one_transaction():
                result = self._commit(action)
                if isinstance(result, Applied):
                    self._settle()
        except Exception as error:
            self._put_back(kept)
            if not self._not_recorded(error, lambda: self._submit(action)):
                raise
            return None
        self._changed()
        return result

    def _kept(self) -> Kept:
        """What an input changes in the controller, to put back if the log does not record it."""
        entry = self._entry
        return (list(self._lines), self._moved, self._error,
                Entry(list(entry.keys), entry.boosting, entry.unpaid_needed, list(entry.unpaid)),
                self.revision)

    def _put_back(self, kept: Kept) -> None:
        self._lines, self._moved, self._error, entry, self.revision = kept
        self._entry.keys[:] = entry.keys
        self._entry.unpaid[:] = entry.unpaid
        self._entry.boosting, self._entry.unpaid_needed = entry.boosting, entry.unpaid_needed

    def _commit(self, action: Action, *, then: bool = False) -> Applied | Rejection | None:
        """Submit ``action`` and keep what it did to say (``then``: an input the controller adds
        after the table's own, whose sentences follow that input's)."""
        before = self.state
        try:
            result = self.session.submit(action)
        except Exception as error:
            if not self._not_recorded(error, lambda: self._submit(action)):
                raise
            return None
        self.unrecorded = None
        if isinstance(result, Rejection):
            reason = result.reason
            if isinstance(action, ChooseGear):  # many drivers pick at once: say whose gear
                car = action.car
                self._error = lambda: _("{car}: {reason}").format(
                    car=car_label(before, car), reason=render(reason, before))
            else:
                self._error = lambda: render(reason, before)
        else:
            self.revision += 1
            self._error = None
            self._entry.clear()
            self._typed, self._restored_keys = False, []
            lines = self._sentences(before, action, result.outcomes)
            moved = frozenset(inputs.moved_cars(before, self.state)) | {
                line.car for line in lines if line.placement and line.car}
            if then:  # after the table's input: say nothing twice ("Ana to space 9" ...)
                said = {line.text() for line in self._lines}
                self._lines += [line for line in lines if line.text() not in said]
                self._moved |= moved
            else:
                self._lines, self._moved = lines, moved
            gone = {car.id for car in self.state.cars
                    if car.eliminated and not before.car(car.id).eliminated}
            if gone:  # out of the race: off the track, nowhere to place it
                self._lines = without_places_of(self._lines, gone)
                self._moved -= gone
        return result

    def _not_recorded(self, error: Exception, again: Callable[[], object]) -> bool:
        """The log did not record an input: the session is as it was, so the race is too, and
        the keypad keeps what was typed. Nothing is shown as accepted; the race screen says why
        and the app shows the fault (``on_fault``). False: not a storage fault."""
        if self.on_fault is None:
            return False
        self.unrecorded = again
        if not self.on_fault(error):
            self.unrecorded = None
            return False
        self._error = lambda: _("Not recorded: {reason}").format(reason=fault_reason(error))
        self._changed()
        return True

    def retry(self) -> bool:
        """Submit the input the log did not record once more (after space was freed…); True
        when it is recorded now. It is recorded once: the session is unchanged by a failure."""
        again = self.unrecorded
        if again is None:
            return False
        self.unrecorded = None
        again()
        return self.unrecorded is None

    def _dead_end(self) -> bool:
        """The current car is at React with nothing to take: only End turn is left."""
        return (not self._entry.boosting and not self._entry.unpaid_needed
                and dead_end(self.state))

    def _settle(self) -> None:
        """End a turn that has nothing left to decide (no tap without a decision)."""
        while self._dead_end():
            current = self.state.current_car
            if current is None or not isinstance(self._commit(EndTurn(current), then=True),
                                                 Applied):
                return

    def _last_action(self) -> Action | None:
        actions = getattr(self.session, "actions", None)  # a stand-in session may have none
        done = actions() if actions is not None else ()
        return done[-1] if done else None

    def _resume_ruling(self) -> None:
        """After Continue: the ruling of the table's decision the race stopped after, shown
        again as it was shown then: the input and the End turn the app added after it when
        nothing was left to decide (the Slipstream's sentence was lost: found by a table
        test); an Undo's or a Redo's words when the race stopped after one (a power cut
        right after an Undo showed the ruling of the input before the undone one, and
        nothing said where the cars go back to: found by a table test)."""
        last = getattr(self.session, "last_event", None)  # (a stand-in session: none)
        if last == "undo" and self._resume_undo():
            return
        steps = self._steps()
        if last == "redo" and self._resume_redo(steps):
            return
        if len(steps) < 2:
            return
        first = len(steps) - 1
        while (first > 1 and isinstance(steps[first].action, EndTurn)
               and dead_end(steps[first - 1].state)):
            first -= 1
        self._lines = self._said(steps[first - 1:])
        moved = {car for before, step in zip(steps[first - 1:], steps[first:], strict=False)
                 for car in inputs.moved_cars(before.state, step.state)}
        moved |= {line.car for line in self._lines if line.placement and line.car}
        self._moved = frozenset(moved)

    def _say_react_tap_lost(self) -> None:
        """Continue after the app stopped, at React with a Boost on offer: a Boost tapped
        and not yet entered (its flipped card) is no input either, so the stop lost it; the
        screen offered Boost again with no word, though the table had flipped a card for it
        (found by a table test). The app cannot know whether Boost was tapped, so the
        sentence says what to do if it was; kept in a full box, gone with the next input.
        React's "Cannot pay" likewise (its keypad asks a flipped Basic card for each card the
        engine cannot pay; nothing is recorded until the last is entered): a stop there came
        back at React with no word (found by a table test)."""
        view = self.view()
        if view.mode != "react":
            return
        offered = {b.key for b in view.react if not b.why}
        if "boost" in offered:
            self._lines.append(Line(lambda: _(
                "A Boost tapped before the app stopped was not entered: if a card was "
                "flipped for it, tap Boost and enter that card."), headline=True))
        if "unpaid" in offered:  # "Cannot pay"'s keypad, the flipped cards not all entered
            self._lines.append(Line(lambda: _(
                "A \"{choice}\" tapped before the app stopped was not entered: if cards were "
                "flipped for it, tap \"{choice}\" and enter those cards.").format(
                    choice=_("Cannot pay")), headline=True))

    def _say_typing_lost(self) -> None:
        """Continue after the app stopped, at a car's card keypad: cards typed and not yet
        sent are not an input, so the stop lost them (by decision, README); the last ruling
        said nothing of it, and a driver who had typed a hand could take it for sent. One
        sentence after the ruling, kept in a full box (as an Undo's headline); gone with the
        next input. When the race stopped right after an Undo, Continue says the Undo's words
        again and puts the keypad as the Undo left it (an undone reveal back on it), so the
        sentence says that: a hand changed after the Undo came back unchanged, one key from
        being sent, with no word (found by a table test)."""
        if self.view().mode not in KEYPAD_FAMILY:
            return
        if getattr(self.session, "last_event", None) == "undo":
            self._lines.append(Line(lambda: _(
                "Cards typed after the Undo before the app stopped are not kept: the keypad "
                "shows the cards as the Undo left them."), headline=True))
        elif len(self._steps()) >= 2:
            self._lines.append(Line(
                lambda: _("Cards typed before the app stopped are not kept: type them again."),
                headline=True))

    def _resume_undo(self) -> bool:
        """The last Undo's words again: it took back the last inputs undone, from the top of
        the redo stack down to the first whose state had something left to decide (as
        :meth:`_walk` stopped); False when there is nothing undone to say."""
        undone: tuple[Step, ...] = getattr(self.session, "undone", tuple)()
        taken: list[Step] = []
        for step in reversed(undone):
            taken.append(step)
            if not dead_end(step.state):
                break
        if not taken or any(step.action is None for step in taken):
            return False
        taken.reverse()  # the order Undo took them back in: the last input first
        self._say_undone(taken[0].state,
                         [step.action for step in taken if step.action is not None])
        return True

    def _resume_redo(self, steps: Sequence[Step]) -> bool:
        """The last Redo's words again: it brought back the last inputs, down to the first
        whose state before had something to decide (as :meth:`_walk` went on)."""
        first = len(steps) - 1
        if first < 1:
            return False
        while first > 1 and dead_end(steps[first - 1].state):
            first -= 1
        brought = [step.action for step in steps[first:] if step.action is not None]
        self._say_redone(steps[first - 1].state, brought)
        return True

    def _steps(self) -> tuple[Step, ...]:
        """The race's start and its effective inputs (none from a stand-in session)."""
        steps = getattr(self.session, "steps", None)
        return steps() if steps is not None else ()

    def _said(self, steps: Sequence[Step]) -> list[Line]:
        """What the inputs of ``steps`` (after the first, the state they start from) did, as
        the table was told when they were played: each one's sentences, a sentence already
        said not said again."""
        lines: list[Line] = []
        for before, step in zip(steps, steps[1:], strict=False):
            assert step.action is not None
            said = {line.text() for line in lines}
            lines += [line for line in self._sentences(before.state, step.action,
                                                       step.outcomes, step.state)
                      if line.text() not in said]
        if len(steps) > 1:  # a car these inputs eliminated: nowhere to place it
            gone = {car.id for car in steps[-1].state.cars
                    if car.eliminated and not steps[0].state.car(car.id).eliminated}
            lines = without_places_of(lines, gone)
        return lines

    def refuse(self, msgid: str, **params: object) -> None:
        """Show why an input that reached no engine action did nothing (e.g. a table button
        pressed when it has no meaning); ``msgid`` is translated when shown."""
        self._error = lambda: fill(_(msgid), **params)
        self._changed()

    @property
    def messages(self) -> list[str]:
        """What the last input did, in the current language."""
        return [line.text() for line in self._lines]

    @property
    def rulings(self) -> tuple[Ruling, ...]:
        """The same, sentence by sentence, with the car each one is about."""
        return tuple(Ruling(line.text(), line.car, line.placement, line.headline, line.spinout,
                            line.short() if line.short is not None else "")
                     for line in self._lines)

    @property
    def moved(self) -> frozenset[str]:
        """The cars the last input moved (or an undo put back)."""
        return self._moved

    @property
    def error(self) -> str:
        """Why the last input was refused ("" if it was not), in the current language."""
        return self._error() if self._error is not None else ""

    def _sentences(
        self, before: RaceState, action: Action, outcomes: Sequence[Outcome],
        after: RaceState | None = None,
    ) -> list[Line]:
        """What ``action`` did, sentence by sentence, as the table is told when it is played
        (``after``: the state it led to, by default the race's now)."""
        state = self.state if after is None else after

        def say(why: Any, at: RaceState = state) -> Text:
            return lambda: render(why, at)

        gone = out_by_spinout(outcomes)
        lines = [Line(react_ruling(before, state, action, o) or say(o.why), o.car,
                      o.kind in PLACEMENT_KINDS, spinout=o.kind in SPINOUT_KINDS,
                      short=say(spinout_short(o)) if o.kind == "spinout" else None)
                 if o.car not in gone else eliminated_line(o, say)
                 for o in outcomes if o.car not in gone or o.kind == "spinout"]
        if isinstance(action, EndTurn):
            car = state.car(action.car)
            place = Line(say(explain(
                N_("{car} to space {space}, {spot}."), car=car.id,
                space=state.track.space_of(car.distance),
                spot="Race Line" if car.race_line else "outside")), car.id, True)
            checks = [i for i, o in enumerate(outcomes)
                      if o.car == action.car and o.kind in ("corner", "spinout")]
            at = checks[-1] + 1 if checks else 0
            if not any(o.kind == "spinout" and o.car == action.car for o in outcomes):
                lines.insert(at, place)
            if not checks:
                lines.insert(0, Line(say(explain(N_("{car} crossed no Corner Line."),
                                                 car=action.car)), action.car))
        elif isinstance(action, ChooseGear) and not outcomes:
            lines = [Line(say(explain(N_("{car} is ready."), car=action.car), before),
                          action.car)]
        return lines

    # --- inputs: gears (steps 1-2) --------------------------------------------------------

    def keep_typing_of(self, other: RaceController) -> None:
        """Take over what ``other`` (a controller of the same race, at the same point) had
        typed on the keypad and not yet sent: the race reopened through Menu and Continue
        (to change a setting mid-race) lost a half-typed reveal (found by a table test)."""
        if other.state != self.state or other.session.actions() != self.session.actions():
            return  # another race, or another point of it
        entry = other._entry
        self._entry = Entry(list(entry.keys), entry.boosting, entry.unpaid_needed,
                            list(entry.unpaid))
        self._typed, self._restored_keys = other._typed, list(other._restored_keys)
        self._changed()

    def choose_gear(self, car: str, gear: int) -> Applied | Rejection | None:
        """Choose ``car``'s gear; the gear it has chosen already (a second Ready press, a
        second tap) changes nothing and records nothing (None): it was logged again, and
        Undo then took back the copy, seeming to do nothing (found by a table test)."""
        state = self.state
        if state.planned.get(car) == gear and car not in state.clogged:
            self.refuse(N_("{car} is already ready in gear {gear}: nothing changed."),
                        car=car_label(state, car), gear=gear)
            return None
        return self._submit(ChooseGear(car, gear))

    def clogged(self, car: str) -> Applied | Rejection | None:
        return self._submit(ChooseGear(car, self.state.car(car).gear, clogged=True))

    # --- inputs: the reveal keypad (step 3) -----------------------------------------------

    @property
    def entry(self) -> tuple[tuple[Any, ...], tuple[int, ...]]:
        """The cards (``Upgrade`` for an upgrade card) and the Basic cards flipped for Stress
        typed on the keypad so far."""
        parsed = self._entry.parse()
        return parsed.reveal_cards(), tuple(parsed.flips)

    def _gear_now(self) -> int:
        current = self.state.current_car
        return self.state.car(current).gear if current else 0

    def key(self, key: str) -> None:
        """A keypad key: ``0``-``5`` (cards, or a flipped Basic card, or a card's chosen value),
        ``stress``, ``up:<design>`` (an upgrade or Sponsorship card), ``back``."""
        self._error = None
        current = self.state.current_car
        if current is not None:
            car = self.state.car(current)
            self._entry.press(key, car, in_play_before(self.state))
            self._typed = True
            if key != "back" and self._entry.complete(car) and not self._entry.boosting:
                self.confirm()  # the last card revealed is typed: the cards go in
                return
        self._changed()

    def confirm(self) -> Applied | Rejection | None:
        """Submit the cards on the keypad (the "Move" key). When the engine cannot pay an
        upgrade card's Heat, its rejection says how many: the keypad then asks for the Basic
        card flipped for each."""
        current = self.state.current_car
        entry = self._entry
        if current is None or entry.flip_pending or (
                entry.unpaid_needed and len(entry.unpaid) < entry.unpaid_needed):
            self._changed()
            return None
        turn = self.state.turn
        if turn is not None and turn.stage is not TurnStage.REVEAL and entry.unpaid_needed:
            return self._submit(PayHeat(current, tuple(entry.unpaid)))  # after Cooldown
        reveal = entry.reveal(current)
        problem = validate(self.state, reveal)
        if problem is not None and problem.reason.template == UNPAID_TEMPLATE and (
                not entry.unpaid_needed):
            entry.unpaid_needed = int(problem.reason.params["count"])
            self._error = None
            self._changed()
            return None
        return self._submit(reveal)

    # --- inputs: the rest of the turn (steps 4-7) ----------------------------------------

    def adrenaline(self) -> Applied | Rejection | None:
        current = self.state.current_car
        return self._submit(Adrenaline(current)) if current else None

    def cooldown(self, amount: int) -> Applied | Rejection | None:
        current = self.state.current_car
        return self._submit(Cooldown(current, amount)) if current else None

    def boost(self) -> None:
        """Ask for the flipped Basic card (the Boost keypad)."""
        self._entry.boosting = True
        self._error = None
        self._changed()

    def boost_cancel(self) -> None:
        self._entry.boosting = False
        self._changed()

    def boost_value(self, value: int) -> Applied | Rejection | None:
        current = self.state.current_car
        return self._submit(Boost(current, value)) if current else None

    def slipstream(self, extra: int = 0) -> Applied | Rejection | None:
        current = self.state.current_car
        return self._submit(Slipstream(current, extra)) if current else None

    def accelerate(self) -> Applied | Rejection | None:
        current = self.state.current_car
        return self._submit(Accelerate(current)) if current else None

    def end_turn(self) -> Applied | Rejection | None:
        current = self.state.current_car
        return self._submit(EndTurn(current)) if current else None

    def react(self, key: str) -> Applied | Rejection | None:
        """A react button by its :class:`ReactButton` key (a greyed one says why and does
        nothing)."""
        greyed = next((b for b in react_buttons(self.state) if b.key == key and b.why), None)
        if greyed is not None:
            self._error = lambda: next(
                (b.why for b in react_buttons(self.state) if b.key == key), "")
            self._changed()
            return None
        if key == "adrenaline":
            return self.adrenaline()
        if key.startswith("cooldown:"):
            return self.cooldown(int(key.split(":", 1)[1]))
        if key == "boost":
            self.boost()
            return None
        if key == "slipstream":
            return self.slipstream()
        if key.startswith("slipstream:"):
            return self.slipstream(int(key.split(":", 1)[1]))
        current = self.state.current_car
        if key.startswith("slipstream_plain:") and current:  # without the sector's bonus
            return self._submit(Slipstream(current, int(key.split(":", 1)[1]), False))
        if key.startswith("super_cool:") and current:
            return self._submit(SuperCool(current, int(key.split(":", 1)[1])))
        if key == "draft" and current:
            return self._submit(DraftMove(current))
        if key == "unpaid" and current:  # the flip keypad for the cards left unpaid
            self._entry.unpaid_needed = short_count(self.state)
            self._error = None
            self._changed()
            return None
        if key == "accelerate":
            return self.accelerate()
        if key.startswith("direct:") and DirectPlay is not None and self.state.current_car:
            return self._submit(DirectPlay(self.state.current_car, Upgrade(key[7:])))
        if key == "end":
            return self.end_turn()
        raise ValueError(f"unknown react key {key!r}")

    # --- inputs: Legends and the log -------------------------------------------------------

    def legend_card(self, card: int) -> Applied | Rejection | None:
        return self._submit(LegendCard(card))

    def run_round(self) -> Applied | Rejection | None:
        return self._submit(RunRound()) if RunRound is not None else None

    def undo(self) -> bool:
        """Take back the table's last decision and say what it was and where the cars it
        moved go back to. An End turn with nothing left to decide goes with the input before
        it; an undone reveal goes back on the keypad."""
        if self._typed_by_hand():
            return self._undo_typing()
        if self._entry.boosting:
            return self._undo_boost()
        if self._cannot_pay_open():
            return self._undo_cannot_pay()
        before = self.state
        self._entry.clear()
        self._typed, self._restored_keys = False, []
        taken = self._walk(self.session.undo, lambda: self.session.can_undo, self.undo,
                           said_before=True)
        if taken is None:
            return False
        if not taken:
            self._error = lambda: _("Nothing to undo.")
            self._changed()
            return False
        self.unrecorded = None
        self._error = None
        self._say_undone(before, taken)
        self._changed()
        return True

    def _say_undone(self, before: RaceState, taken: Sequence[Action]) -> None:
        """What an Undo took back (``taken``, from ``before``) and where the cars go back to;
        an undone reveal goes back on the keypad."""
        state = self.state
        last = taken[-1]
        if isinstance(last, Reveal) and state.current_car == last.car and (
                state.turn is not None and state.turn.stage is TurnStage.REVEAL):
            self._entry.restore(last)
            self._restored_keys = list(self._entry.keys)
        moved = inputs.moved_cars(before, state)
        self._lines = [Line(inputs.undone(action, before), getattr(action, "car", None),
                            headline=index == 0) for index, action in enumerate(taken)]
        self._lines += [Line(inputs.back_to(state, car), car) for car in moved]
        self._lines += [Line(inputs.cards_now(state, car, undone=True), car)
                        for car in inputs.cards_changed(before, state)]
        self._moved = frozenset(moved)

    def _typed_by_hand(self) -> bool:
        """Cards on the keypad typed by hand and not sent: other than none, and other than
        the cards an Undo put back (typed off and on again, they are as Undo left them)."""
        entry = self._entry
        return self._typed and bool(entry.keys or entry.unpaid) and (
            entry.keys != self._restored_keys or bool(entry.unpaid))

    def _undo_typing(self) -> bool:
        """Undo with cards typed on the keypad and not yet sent takes back that typing,
        and only that, saying so: it took back the input before them and dropped the typing
        unsaid (found by a table test). Nothing is recorded, so nothing changes in the log;
        Undo again takes back the last recorded input."""
        car = self.state.current_car
        keys, base = list(self._entry.keys), self._restored_keys
        state = self.state
        typing = not base or keys[:len(base)] == base  # cards typed (after those put back)
        cards = (Entry(keys[len(base):], False, self._entry.unpaid_needed,
                       list(self._entry.unpaid)) if typing else Entry(list(base)))

        def said() -> str:  # in the language of the moment (a colour's name too)
            name = car_label(state, car) if car else ""
            if typing:
                return fill(_("Undone: the cards typed for {car}, not yet sent ({cards})."),
                    car=name, cards=cards.text(", "))
            # a card put back by Undo was taken off: the keypad is as Undo left it
            return fill(_("Undone: the change to {car}'s cards on the keypad; they are "
                          "{cards} again."), car=name, cards=cards.text(", "))

        self._entry.clear()
        self._entry.keys += base
        self._typed = False
        self._error = None
        self._lines = [Line(said, car, headline=True)]
        self._moved = frozenset()
        self._changed()
        return True

    def _undo_boost(self) -> bool:
        """Undo at the Boost keypad (Boost tapped, its flipped card not entered) takes back
        the Boost tap, and only that, saying so: it took back the car's whole reveal (found
        by a table test). Nothing was recorded; the car is at React with its Boost on offer
        again, and Undo again takes back the last recorded input."""
        self._entry.boosting = False
        return self._undone_tap(lambda car: _(
            "Undone: the Boost tapped for {car}, its card not yet entered; Boost is offered "
            "again.").format(car=car))

    def _undone_tap(self, words: Callable[[str], str]) -> bool:
        """A React tap not recorded (Boost, "Cannot pay") taken back: ``words(car)`` said
        as an Undo's headline, nothing moved, the log unchanged."""
        car = self.state.current_car
        state = self.state
        self._error = None
        self._lines = [Line(lambda: words(car_label(state, car or "")), car, headline=True)]
        self._moved = frozenset()
        self._changed()
        return True

    def _cannot_pay_open(self) -> bool:
        """React's "Cannot pay" was tapped and no flipped card is typed yet on its keypad."""
        turn = self.state.turn
        return (bool(self._entry.unpaid_needed) and not self._entry.unpaid
                and turn is not None and turn.stage is not TurnStage.REVEAL)

    def _undo_cannot_pay(self) -> bool:
        """Undo at the keypad React's "Cannot pay" opened, nothing typed on it, takes back
        that tap, and only that (it took back the car's whole reveal, as at the Boost
        keypad)."""
        self._entry.clear()
        return self._undone_tap(lambda car: _(
            "Undone: \"{choice}\" tapped for {car}, no flipped card entered yet; it is "
            "offered again.").format(choice=_("Cannot pay"), car=car))

    def redo(self) -> bool:
        """Bring back what Undo took back (the same decision as one step)."""
        before = self.state
        self._entry.clear()
        self._typed, self._restored_keys = False, []
        brought = self._walk(self.session.redo, lambda: self.session.can_redo, self.redo,
                           said_before=False)
        if brought is None:
            return False
        if not brought:
            self._error = lambda: _("Nothing to redo.")
            self._changed()
            return False
        self.unrecorded = None
        self._error = None
        self._say_redone(before, brought)
        self._changed()
        return True

    def _say_redone(self, before: RaceState, brought: Sequence[Action]) -> None:
        """What a Redo brought back (``brought``, onto ``before``) and what it did."""
        state = self.state
        moved = inputs.moved_cars(before, state)
        self._lines = [Line(inputs.redone(action, state), getattr(action, "car", None),
                            headline=index == 0) for index, action in enumerate(brought)]
        # what they did, as when they were played (a spin-out, the Legends' card drawn: a
        # redo said only where the cars went; found by a table test)
        said = self._said(self._steps()[-len(brought) - 1:])
        placed = {line.car for line in said if line.placement}
        self._lines += said
        self._lines += [Line(inputs.placed_at(state, car), car, True) for car in moved
                        if car not in placed]
        self._lines += [Line(inputs.cards_now(state, car, undone=False), car)
                        for car in inputs.cards_changed(before, state)]
        self._moved = frozenset(moved)

    def _walk(self, step: Callable[[], bool], can: Callable[[], bool],
              retry: Callable[[], bool], *, said_before: bool) -> list[Action] | None:
        """Undo or redo one decision: ``step`` until a car has something to decide (an End turn
        with nothing left goes with the input before it), all in one transaction. Returns the
        inputs taken back or brought back (each read before its step when ``said_before``, else
        after); None when storage failed (nothing was done; the race screen says why, Retry
        does it again)."""
        kept = self._kept()
        done: list[Action] = []
        steps = 0
        try:
            with self.session.one_transaction():
                while can() and (not done or self._dead_end()):
                    action = self._last_action() if said_before else None
                    if not step():
                        break
                    steps += 1
                    if not said_before:
                        action = self._last_action()
                    if action is not None:
                        done.append(action)
        except Exception as error:
            self._put_back(kept)
            if not self._not_recorded(error, retry):
                raise
            return None
        self.revision += steps
        return done

    # --- what to show -----------------------------------------------------------------------

    def view(self) -> RaceView:
        rulings = self.rulings
        return race_view(self.state, self._entry, messages=tuple(r.text for r in rulings),
                         error=self.error,
                         can_undo=(self.session.can_undo or self._typed_by_hand()
                                   or self._entry.boosting),
                         can_redo=self.session.can_redo, rulings=rulings, moved=self._moved,
                         revision=self.revision)

    def react_buttons(self) -> tuple[ReactButton, ...]:
        """Only what the current car is entitled to now (asked of ``validate``)."""
        return react_buttons(self.state)

    def order_rows(self) -> tuple[OrderRow, ...]:
        return order_rows(self.state, self._moved)
