"""The touchscreen app (Kivy), laid out by role:

* :mod:`.app`: the Kivy ``App`` (:class:`~companion.ui.app.HeatApp`): the screen registry,
  lazy loading and start-up, and its bases: settings and theme, the data folder (race log,
  seasons, seats), the table hardware.
* :mod:`.controller`: :class:`~companion.ui.controller.RaceController`, the one path of every
  race input (touch, table hardware, demo) to ``session.submit``; :mod:`.hardware_bridge`
  turns table events into the same controller calls and drives the seat LEDs. Both Kivy-free.
* :mod:`.screens`: one module and one ``.kv`` file per screen, both named after the screen.
* :mod:`.views`: what the screens show and edit, as plain data (Kivy-free, testable without a
  window): the race view and its prompts, the card keypad, the forms, the draft, results, and
  the game's things in the player's language.
* :mod:`.widgets`: reusable Kivy widgets (buttons and labels styled in ``common.kv``, the track
  map, the charts) and the kv translation binding ``tr``.
* :mod:`.demo`: the scripted demo race (``heat-companion demo``), also used by the UI tests.

The import rules between them are checked by ``tests/ui/test_layering.py``.
"""
