"""What the screens show and edit, as plain data: Kivy-free, testable without a window.

The race screen's view and prompts (:mod:`.race_view`, :mod:`.race_prompts`, :mod:`.keypad`),
the New race and New season forms (:mod:`.drivers`, :mod:`.race_form`, :mod:`.modules_form`,
:mod:`.season_form`), a season's next race (:mod:`.next_race`), the Garage draft
(:mod:`.draft_flow`), results and the lap chart (:mod:`.results`), and the game's things in
the player's language (:mod:`.names`: cars and tracks; :mod:`.words`: explanations, events,
Weather, Road Conditions, cards)."""
