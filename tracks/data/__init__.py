"""The bundled track files (``<id>.json``), read by :mod:`tracks` with importlib.resources.

A package of its own so that setuptools ships the JSON files as package data."""
