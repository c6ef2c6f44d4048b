"""The touchscreen app (Kivy). Kivy is imported only by ``app`` and the screen modules; the
controller, words, setup form and results model are Kivy-free."""
