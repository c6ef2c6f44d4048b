"""The screens: one module and one ``.kv`` file per screen, both named after the screen
(``new_race.py`` + ``new_race.kv``); :mod:`.base` is their common base and
:mod:`.new_race_modules` the modules part of the New race screen. The App imports a screen and
loads its kv the first time it is shown (``companion.ui.app.heat_app.SCREENS``)."""
