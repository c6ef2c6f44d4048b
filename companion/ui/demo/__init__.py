"""``heat-companion demo``: a scripted race played through the real screens (:mod:`.run`),
pressed by :class:`~companion.ui.demo.player.TablePlayer` as a table would
(:mod:`.script` chooses the button, Kivy-free); :mod:`.tour` adds the modules, draft and
Championship screens to the headless pictures. The UI tests drive the app the same way."""
