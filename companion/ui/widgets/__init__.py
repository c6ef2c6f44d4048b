"""Reusable Kivy widgets: :mod:`.basic` (buttons, labels, swatches, rows, the banner; styled in
``common.kv``), :mod:`.name_input` (a text field), :mod:`.track_map`, the charts
(:mod:`.line_chart`, :mod:`.lap_chart`, :mod:`.points_chart`), :mod:`.translation` (``tr``,
which kv rules bind to) and :mod:`.lookup` (widgets by test name).

Nothing is imported here: each screen imports only the widgets it uses, so the first screen
loads neither ``TextInput`` nor the charts."""
