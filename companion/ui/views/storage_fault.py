"""What the storage fault screen says: what happened to the race log, what it means for the race,
what to do, and the buttons it offers (Kivy-free).

The app routes every storage error to one screen (``companion.ui.app.storage_faults``); this
module turns the error and where it happened (a :class:`Fault`) into the words and buttons of
that screen (a :class:`FaultView`), in the player's language. The error is read by its public
fields (``kind``, ``template``, ``params``, ``path``, ``detail``: see
``companion/storage/errors.py``), so that screens and the controller, which may not import the
storage layer, can use this module; the kinds are compared as the strings they are.

Where an error happened (``Fault.context``) changes what it means for the race:

* ``open``: opening the race log (start-up, Retry);
* ``input``: a race input, undo or redo: it was not recorded, and the race is as it was;
* ``pick``: a Garage draft's pick (or swap): it was not recorded, and the draft is as it was;
* ``read``: showing a screen (races, results, standings…): nothing was changed;
* ``action``: anything else (starting a race, a season, an export).

A Garage draft the log cannot read or replay (``Fault.draft``) is offered End the draft, in
place of a new log: the rest of the log reads, and the draft's picks stay in it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.i18n import N_, _
from companion.i18n.counts import fill

DISK_FULL = "disk-full"
LOCKED = "locked"
READ_ONLY = "read-only"
FOLDER_NOT_WRITABLE = "folder-not-writable"
DAMAGED = "damaged"
NOT_A_RACE_LOG = "not-a-race-log"
NEWER_LOG = "newer-log"
WRITE_CONFLICT = "write-conflict"

TITLES: dict[str, str] = {
    DISK_FULL: N_("The storage is full"),
    LOCKED: N_("The race log is in use"),
    READ_ONLY: N_("The storage is read-only"),
    FOLDER_NOT_WRITABLE: N_("The data folder cannot be written"),
    DAMAGED: N_("The race log is damaged"),
    NOT_A_RACE_LOG: N_("This file is not a race log"),
    NEWER_LOG: N_("The race log is from a newer version"),
    "no-log": N_("There is no race log"),
    "unknown-race": N_("Race not found"),
    "unknown-season": N_("Season not found"),
    WRITE_CONFLICT: N_("The race was changed elsewhere"),
    "refused": N_("Not saved"),
}
DEFAULT_TITLE = N_("The race log cannot be used")

CONSEQUENCES: dict[str, str] = {
    "input": N_("Your input was not recorded: the race is exactly as it was before it."),
    "pick": N_("Your pick was not recorded: the draft is exactly as it was before it."),
    "action": N_("Nothing was changed."),
}

ADVICE: dict[str, str] = {
    DISK_FULL: N_("Free some space on the storage (old exports or other files)."),
    FOLDER_NOT_WRITABLE: N_("Check that the storage is in place and writable, or start "
                            "heat-companion with another data folder (--data)."),
    NOT_A_RACE_LOG: N_("The file is kept as it is. Move it away and tap Retry, or start a new "
                       "log: the file is set aside, never deleted."),
    NEWER_LOG: N_("The log is kept as it is: update heat-companion."),
    "unknown-race": N_("It may have been removed: go back and choose another."),
    "unknown-season": N_("It may have been removed: go back and choose another."),
    WRITE_CONFLICT: N_("Reopen the race to see what the log holds."),
    "refused": N_("Go back and check what was entered."),
}
DEFAULT_ADVICE = N_("Check the storage card and how it is connected.")
NO_RETRY = (DAMAGED, WRITE_CONFLICT, "unknown-race", "unknown-season", "refused")
"""Kinds that trying again does not mend."""
THEN_RETRY = N_("Then tap Retry.")
THEN_AGAIN = N_("Then go back and try again.")

LOCKED_BY_APP = N_("Another copy of heat-companion has held the log since {since}: close it.")
LOCKED_BY_APP_SINCE_UNKNOWN = N_("Close the other copy of heat-companion.")
LOCKED_BY_PROGRAM = N_("Another program is using the race log (a backup, or a tool reading "
                       "it): close it.")
HELD_BY_ANOTHER_PROGRAM = N_("The race log is locked by another program.")
READ_ONLY_VIEW = N_("You can still view the races and export them to a folder that can be "
                    "written, such as a USB stick.")
READ_ONLY_FIX = N_("To play, make the storage writable (check the card's lock switch).")
DAMAGED_COPY = N_("The log is kept exactly as it is, and a copy was saved beside it: {copy}.")
DAMAGED_NO_COPY = N_("The log is kept exactly as it is. No copy could be made: {problem}.")
DAMAGED_NEXT = N_("The races that can still be read stay available. To start afresh, start a "
                  "new log: the damaged one is set aside, never deleted.")
DRAFT_TITLE = N_("This Garage draft cannot be read")
DRAFT_END = N_("End the draft to go on: nothing recorded is lost (its picks stay in the log), "
               "and its race can be drafted again.")

CONFIRM_TITLE = N_("Start a new log?")
CONFIRM_ASIDE = N_("The current log is set aside as {name} in the same folder: nothing is "
                   "deleted.")
CONFIRM_EMPTY = N_("The new log starts empty: the races and seasons of the old one are not in "
                   "it.")

ACTIONS: dict[str, str] = {
    "retry": N_("Retry"),
    "back": N_("Back"),
    "view": N_("View races"),
    "new-log": N_("Start a new log"),
    "reopen": N_("Reopen race"),
    "confirm-new-log": N_("Yes, start a new log"),
    "cancel": N_("Cancel"),
    "done": N_("OK"),
    "end-draft": N_("End the draft"),
}
"""Button key -> its label (the screen's buttons are named ``fault <key>``)."""


def fault_reason(error: Any) -> str:
    """The error's reason in the player's language (its ``template`` with its ``params``)."""
    template = getattr(error, "template", "") or ""
    if not template:
        return str(error)
    params = getattr(error, "params", {}) or {}
    try:
        return fill(_(template), **params)
    except (KeyError, IndexError, ValueError):
        return template.format_map(_Blank(params))


class _Blank(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


@dataclass(frozen=True, slots=True)
class Fault:
    """A storage error as the app met it."""

    error: Any
    """The :class:`~companion.storage.errors.StorageError`."""
    context: str = "action"
    """``open``, ``input``, ``read`` or ``action`` (see the module docstring)."""
    can_retry: bool = False
    """Retry does the same thing again (the input, the opening, the screen)."""
    back: str | None = None
    """The screen Back returns to (None: no Back)."""
    viewing: bool = False
    """A read-only log is open: the races can be viewed and exported."""
    copy: Path | None = None
    """The copy kept beside a damaged log."""
    copy_problem: str = ""
    """Why no copy of a damaged log could be made."""
    since: str = ""
    """When the copy of the app holding the log took it (ISO 8601), if known."""
    own_pid: int = 0
    own_host: str = ""
    """This process and its host: a lock "held" by them is another program's (SQLite's lock
    while this app holds the log's claim)."""
    race_open: bool = False
    """A race is open (Reopen race after a write conflict)."""
    draft: str = ""
    """The Garage draft the log cannot read or replay (its id), when that is the fault: End
    the draft is offered (the log is writable), and no new log (the rest of it reads)."""

    @property
    def kind(self) -> str:
        return str(getattr(self.error, "kind", ""))


@dataclass(frozen=True, slots=True)
class FaultView:
    title: str
    reason: str
    """What happened."""
    advice: str
    """What it means for the race and what to do (one paragraph per line)."""
    detail: str
    """Technical: the file and the system's or SQLite's words (shown small)."""
    actions: tuple[tuple[str, str], ...]
    """``(key, label)`` of each button, in order."""


def when(since: str) -> str:
    """``2024-06-01T20:14:05+02:00`` -> ``2024-06-01 20:14``."""
    return since[:16].replace("T", " ") if len(since) >= 16 else since


def _locked(fault: Fault) -> tuple[str, str]:
    params = getattr(fault.error, "params", {}) or {}
    pid = params.get("pid")
    if pid is None or (pid == fault.own_pid and params.get("host") == fault.own_host):
        # SQLite's lock, held by another program: the claim the lock file names is ours
        return _(HELD_BY_ANOTHER_PROGRAM), _(LOCKED_BY_PROGRAM)
    if fault.since:
        return fault_reason(fault.error), _(LOCKED_BY_APP).format(since=when(fault.since))
    return fault_reason(fault.error), _(LOCKED_BY_APP_SINCE_UNKNOWN)


def _advice(fault: Fault) -> list[str]:
    kind = fault.kind
    if kind == READ_ONLY:
        lines = [_(READ_ONLY_VIEW), _(READ_ONLY_FIX)]
    elif kind == DAMAGED:
        kept = (_(DAMAGED_COPY).format(copy=fault.copy.name) if fault.copy is not None
                else _(DAMAGED_NO_COPY).format(problem=fault.copy_problem or "?"))
        lines = [kept, _(DRAFT_END) if _ends_draft(fault) else _(DAMAGED_NEXT)]
    else:
        lines = [_(ADVICE.get(kind, DEFAULT_ADVICE))]
    return lines + _then(fault)


def _then(fault: Fault) -> list[str]:
    """What to tap once it is mended: Retry when it is offered, else Back."""
    if fault.kind in NO_RETRY or (fault.kind == NOT_A_RACE_LOG and fault.can_retry):
        return []  # nothing to retry, or the advice says it
    if fault.can_retry:
        return [_(THEN_RETRY)]
    return [_(THEN_AGAIN)] if fault.back is not None else []


def _ends_draft(fault: Fault) -> bool:
    """A Garage draft the log cannot read, on a log that can be written: the table ends it
    (a damaged draft that was not the one Continue opens, or a season's, had no way out)."""
    return bool(fault.draft) and fault.kind == DAMAGED and not fault.viewing


def _actions(fault: Fault) -> list[str]:
    kind = fault.kind
    keys: list[str] = []
    if _ends_draft(fault):
        return ["end-draft", *(["back"] if fault.back is not None else [])]
    if kind == WRITE_CONFLICT and fault.race_open:
        keys.append("reopen")
    elif fault.can_retry and (kind not in NO_RETRY or (kind == DAMAGED and fault.back is None)):
        keys.append("retry")  # a damaged log with no way back: Retry, not only a new log
    if kind == READ_ONLY:
        keys.append("view")
    if kind in (DAMAGED, NOT_A_RACE_LOG):
        keys.append("new-log")
    if fault.back is not None:
        keys.append("back")
    if not keys:  # never a screen without a way on
        keys.append("retry" if fault.can_retry else "new-log")
    return keys


def fault_view(fault: Fault) -> FaultView:
    """The screen for ``fault``, in the current language."""
    kind = fault.kind
    if kind == LOCKED:
        reason, advice = _locked(fault)
        lines = [advice, *_then(fault)]
    else:
        reason = fault_reason(fault.error)
        lines = _advice(fault)
    consequence = CONSEQUENCES.get(fault.context)
    if consequence is not None and kind not in (WRITE_CONFLICT, "unknown-race",
                                                "unknown-season"):
        lines.insert(0, _(consequence))
    title = _(DRAFT_TITLE) if _ends_draft(fault) else _(TITLES.get(kind, DEFAULT_TITLE))
    return FaultView(
        title=title, reason=reason, advice="\n".join(lines),
        detail=technical_detail(fault.error),
        actions=tuple((key, _(ACTIONS[key])) for key in _actions(fault)))


def confirm_view(fault: Fault, aside: str) -> FaultView:
    """Asking before a new log is started; ``aside``: the name the old file will take."""
    return FaultView(
        title=_(CONFIRM_TITLE), reason=fill(_(CONFIRM_ASIDE), name=aside),
        advice=_(CONFIRM_EMPTY), detail=technical_detail(fault.error),
        actions=tuple((key, _(ACTIONS[key])) for key in ("confirm-new-log", "cancel")))


NEW_LOG_TITLE = N_("New log started")
NEW_LOG_DONE = N_("A new race log was started. The old one was set aside as {name}.")


def new_log_view(aside: str, folder: str) -> FaultView:
    """Said once a new log was started: where the old file is."""
    return FaultView(title=_(NEW_LOG_TITLE), reason=fill(_(NEW_LOG_DONE), name=aside),
                     advice="", detail=folder, actions=(("done", _(ACTIONS["done"])),))


def technical_detail(error: Any) -> str:
    """The file and the technical cause, in the system's words (English), on one line."""
    path = getattr(error, "path", None)
    detail = getattr(error, "detail", "") or ""
    parts = [str(path)] if path is not None else []
    if detail:
        parts.append(detail)
    return " · ".join(parts) if parts else str(error)
