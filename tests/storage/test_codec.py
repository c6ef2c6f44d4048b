"""JSON of setups, tracks and events: strict, and faithful for every bundled track."""

from __future__ import annotations

import pytest

import tracks
from bench import racegen
from companion.storage import codec
from companion.storage.fold import Event, EventKind


@pytest.mark.parametrize("track_id", tracks.bundled_track_ids())
def test_every_bundled_track_survives_as_an_inline_document(track_id: str) -> None:
    track = tracks.load_track(track_id)
    assert tracks.track_from_dict(codec.track_to_doc(track)) == track
    assert codec.resolve_track_doc(track, None) == track_id


def test_setup_round_trip() -> None:
    setup = racegen.setup(humans=3, legends=2, laps=4, seed=-3, physical=True)
    doc = codec.setup_to_doc(setup)
    assert codec.setup_from_doc(doc, setup.track) == setup
    assert codec.setup_cars(doc) == setup.cars


@pytest.mark.parametrize(("change", "problem"), [
    ({"seed": "7"}, "setup.seed: must be int"),
    ({"laps": True}, "setup.laps: must be int"),
    ({"cars": [{"id": "red"}]}, r"setup.cars\[0\]: missing key"),
    ({"physical_legends_deck": 1}, "setup.physical_legends_deck: must be bool"),
])
def test_setup_decoding_is_strict(change: dict[str, object], problem: str) -> None:
    setup = racegen.setup(humans=1, legends=0)
    doc = {**codec.setup_to_doc(setup), **change}
    with pytest.raises(codec.CodecError, match=problem):
        codec.setup_from_doc(doc, setup.track)


def test_event_payloads_round_trip() -> None:
    setup = racegen.setup(humans=2, legends=1, physical=True)
    for event in racegen.script(setup, seed=3, length=300, undo=0.2, redo=0.1):
        assert codec.decode_event(event.kind.value, codec.event_payload(event)) == event
    assert codec.event_payload(Event(EventKind.UNDO)) == "{}"
