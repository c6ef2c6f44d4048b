"""The Garage drafts in the race log, for the app: a draft is recorded as it goes (its start,
then each pick before it is shown), so that after a power cut Continue leads back to it where it
was; a draft ends when its race starts (both in one transaction) or when the table abandons it.

:class:`DraftMixin` is one of :class:`~companion.ui.app.HeatApp`'s bases; screens reach the
stored drafts through it (``companion.storage`` is not theirs to import). What a draft's start
holds, and how a stored draft becomes the draft screen's flow again, is
:mod:`companion.ui.views.draft_record`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from companion.storage.errors import StorageError


class DraftMixin:
    """Begin, record, continue and abandon Garage drafts (uses the app's screens and data)."""

    draft_flow: Any
    season_id: str | None

    if TYPE_CHECKING:  # provided by the App and its other bases
        def log(self) -> Any: ...
        def season_store(self) -> Any: ...
        def screen(self, name: str) -> Any: ...
        def show(self, name: str) -> Any: ...
        def remember_race(self, race_id: str) -> None: ...
        def storage_fault(self, error: StorageError, **kwargs: Any) -> None: ...

    def begin_draft(self, flow: Any, start: Any, replacing: Sequence[str] = (),
                    carry: str | None = None) -> None:
        """Record the draft ``flow`` begins (``start``: a
        :class:`~companion.ui.views.draft_record.DraftStart`) and make it the draft shown;
        from now on each input is recorded before it is shown.

        An open draft with the very same start (the table went Back to the setup and pressed
        Start race again, or came back to a season's Next race after a power cut) is taken up
        where it was instead: its picks are kept. Otherwise the draft is new, and the drafts of
        ``replacing`` (the one begun before from this form, the season's open one) are
        abandoned in the same transaction.

        ``carry``: a single race's draft begun before from this form (the table went Back and
        changed the form). Where the form still deals it (a name corrected, a seat), it goes on
        with every input it holds, from the changed setup (recorded as a new draft carrying
        them: ``DraftStore.begin``). Where the form deals another draft and a pick of it is
        in effect, nothing is recorded: :class:`~companion.ui.views.draft_lock.DealChanged`
        (New race greys what the deal
        depends on, so a table cannot get there; the picks are never set aside).

        :raises StorageError: nothing could be recorded (nothing changed then).
        """
        drafts = self.log().drafts
        same = drafts.open_draft_like(start.start, start.season_id)
        if same is not None:
            stored = drafts.draft(same)
            self._replayed(stored, flow)
        elif carry is not None and self._carried(flow, start, carry):
            flow.stored = drafts.begin(
                start.start, track_id=start.track_id, laps=start.laps, cars=start.cars,
                replacing=replacing, carry=carry)
        else:
            if start.season_id is not None:
                replacing = (*replacing,
                             *(d.id for d in drafts.open_drafts(start.season_id)))
            flow.stored = drafts.begin(
                start.start, track_id=start.track_id, laps=start.laps, cars=start.cars,
                season_id=start.season_id, race_no=start.race_no, replacing=replacing)
        self._take_up(flow)

    def _carried(self, flow: Any, start: Any, carry: str) -> bool:
        """``flow`` where the open draft ``carry`` was, when ``start`` deals it too (True);
        False when ``carry`` has ended, or deals otherwise with nothing in effect (nothing is
        lost by a new deal). :raises DealChanged: it deals otherwise, a pick in effect."""
        from companion.storage.drafts import UnknownDraftError

        from ..views.draft_lock import DealChanged, same_deal

        try:
            stored = self.log().drafts.draft(carry)
        except UnknownDraftError:
            return False
        if not stored.open:
            return False
        if not same_deal(stored.start, start.start):
            if self.draft_picks(carry) > 0:
                raise DealChanged(carry)
            return False
        self._replayed(stored, flow)
        return True

    def _replayed(self, stored: Any, flow: Any) -> None:
        """``flow`` taken where the stored draft was. :raises DamagedDraftError:"""
        from companion.storage.drafts import DamagedDraftError

        from ..views.draft_flow import DraftRecordError

        try:
            flow.replay(stored.inputs)
        except DraftRecordError as error:
            raise DamagedDraftError(stored.id, error.seq, error.problem) from error
        flow.stored = stored.id

    def _take_up(self, flow: Any) -> None:
        """``flow`` is the draft shown, each input recorded in the log before it shows."""
        flow.record = partial(self._record, flow, flow.stored)
        self.draft_flow = flow
        self.remember_race(flow.stored)  # Continue leads back to it

    def _record(self, flow: Any, draft_id: str, seq: int, payload: dict[str, Any]) -> None:
        """One input of ``flow`` into the log (one transaction). A storage fault shows its
        screen (Retry takes the same input again, Back returns to the draft as it was) and
        the flow does not take the input."""
        from ..views.draft_flow import DraftRecordError, NotRecorded

        def retry() -> None:
            with contextlib.suppress(DraftRecordError):  # (not where it fits any more)
                flow.take(payload)

        try:
            self.log().drafts.record(draft_id, seq, payload)
        except StorageError as error:
            self.storage_fault(error, context="pick", retry=retry,
                               then=lambda: self.show("draft"), back="draft")
            raise NotRecorded from error

    def continue_draft(self, draft_id: str) -> None:
        """Open a draft that is not over, where it was (the screen it came from set up as it
        was: the New race form, or a season's Next race). A storage fault, or a draft that
        cannot be read or replayed, shows the fault screen and changes nothing."""
        try:
            self._continue_draft(draft_id)
        except StorageError as error:
            self.storage_fault(error, context="read",
                               retry=lambda: self._continue_draft(draft_id))

    def _continue_draft(self, draft_id: str) -> None:
        from companion.storage.drafts import DamagedDraftError

        from ..views.draft_flow import DraftRecordError
        from ..views.draft_record import resume_race, resume_season

        stored = self.log().drafts.draft(draft_id)
        if not stored.open:
            self.show("start")  # it ended meanwhile (its race started): nothing to continue
            return
        try:
            if stored.season_id is None:
                screen = self.screen("newrace")
                made: Any = resume_race(stored.start, stored.inputs, screen.start_drafted)
            else:
                screen = self.screen("nextrace")
                made = resume_season(self.season_store(), stored.season_id, stored.race_no,
                                     stored.start, stored.inputs, screen.start_race)
        except DraftRecordError as error:
            raise DamagedDraftError(draft_id, error.seq, error.problem) from error
        setup, flow = made
        flow.stored = draft_id
        screen.resume(setup, flow)
        self.season_id = stored.season_id
        self._take_up(flow)
        self.show("draft")

    def abandon_draft(self, draft_id: str) -> None:
        """The table gives the draft up (New race, asked first): it is no longer offered to
        continue; what it recorded stays in the log."""
        from companion.storage.drafts import DraftOverError

        with contextlib.suppress(DraftOverError):  # ended meanwhile: nothing left to abandon
            self.log().drafts.abandon(draft_id)
        flow = self.draft_flow
        if flow is not None and flow.stored == draft_id:
            self.draft_flow = None

    def end_damaged_draft(self, draft_id: str) -> tuple[str, int | None] | None:
        """End a draft the log cannot read or replay (the fault screen's End the draft): it
        is abandoned, what it recorded stays in the log. For a season's draft, ``(season id,
        seed)``: the seed its Next race was drawn from (None when its start cannot be read),
        so that the Next race shown again is the one the table set up; else None."""
        from ..views.draft_record import season_seed

        drafts = self.log().drafts
        summary = next((d for d in drafts.open_drafts() if d.id == draft_id), None)
        seed = None
        if summary is not None and summary.season_id is not None:
            with contextlib.suppress(StorageError):
                seed = season_seed(drafts.draft(draft_id).start)
        self.abandon_draft(draft_id)
        if summary is None or summary.season_id is None:
            return None
        return summary.season_id, seed

    def season_draft_picks(self, season_id: str) -> int:
        """The inputs in effect (picks, a swap or No swap; undone ones not counted) of the
        season's draft under way, 0 with none: while there are any, what the draft was dealt
        from (Next race's deck, the mechanics' choices) is locked, since changing it begins a
        new draft and the picks would be lost."""
        return sum(d.inputs for d in self.log().drafts.open_drafts(season_id))

    def draft_picks(self, draft_id: str) -> int:
        """The inputs in effect of the open draft ``draft_id`` (0 when it has ended): while
        there are any, what a single race's draft was dealt from is locked on New race
        (:mod:`~companion.ui.views.draft_lock`)."""
        return sum(d.inputs for d in self.log().drafts.open_drafts(single=True)
                   if d.id == draft_id)

    def season_draft_plan(self, season_id: str) -> Any:
        """The Next race plan of the season's draft under way (drawn again from its seed, with
        its Garage deck and mechanics' choices: the Next race screen shows the race the draft
        is for, and its Garage draft takes the draft up where it was); None when the season
        has no draft under way. :raises DamagedDraftError: it cannot be read or replayed."""
        from companion.storage.drafts import DamagedDraftError

        from ..views.draft_flow import DraftRecordError
        from ..views.draft_record import resume_season

        drafts = self.log().drafts
        under_way = drafts.open_drafts(season_id)
        if not under_way:
            return None
        stored = drafts.draft(under_way[0].id)
        try:
            plan, _flow = resume_season(self.season_store(), season_id, stored.race_no,
                                        stored.start, stored.inputs, lambda _cards: None)
        except DraftRecordError as error:
            raise DamagedDraftError(stored.id, error.seq, error.problem) from error
        return plan
