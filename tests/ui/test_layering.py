"""The UI's layout by role, checked statically (AST, nothing imported but Kivy's class registry).

``companion/ui`` is split into ``app/`` (the Kivy App and its wiring), ``screens/``,
``views/``, ``widgets/`` and ``demo/``, plus the controller and the hardware bridge at the top.
The rules, for every module, counting what it imports directly and what it imports through
other ``companion.ui`` modules (module-level and function-level imports alike):

1. ``views/``, ``controller.py``, ``hardware_bridge.py``, ``log_access.py`` and
   ``demo/script.py`` import no Kivy, so they run and are tested without a window; a view
   imports nothing of the UI outside ``views/`` (views are what the rest renders, not the other
   way round).
2. Screens import neither ``companion.storage`` nor ``companion.session``: the race log and the
   seasons are reached through the App (``app/data.py``). Nor do they import the App package
   or the demo (they reach the running App through ``App.get_running_app()``).
3. Widgets import neither storage, the session, the championship, race files nor the table
   hardware, and of the engine only its public package ``companion.engine`` (types to draw),
   never an engine module; nor screens, the App, the controller or the demo.
4. Every class a screen's ``.kv`` file instantiates can be built when that screen is the first
   one shown: it is Kivy's own, a dynamic class of that kv file or of ``widgets/common.kv``,
   or a class defined in a module the screen's module imports (directly or through other UI
   modules). Kivy registers a Python widget class when its module is imported, so a kv file
   that leans on a class some other screen imports crashes when its screen opens first.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

UI = Path(__file__).resolve().parents[2] / "companion" / "ui"
PACKAGE = "companion.ui"
KIVY_FREE = ("companion.ui.views", "companion.ui.controller", "companion.ui.hardware_bridge",
             "companion.ui.demo.script", "companion.ui.log_access", "companion.ui.headless")
STORAGE = ("companion.storage", "companion.session")
NOT_FOR_WIDGETS = (*STORAGE, "companion.championship", "companion.racefile", "hardware",
                   "companion.ui.screens", "companion.ui.app", "companion.ui.controller",
                   "companion.ui.hardware_bridge", "companion.ui.demo")


def _module_name(path: Path) -> str:
    parts = path.relative_to(UI.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(UI.rglob("*.py"))}


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _resolve(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    for _up in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


@cache
def direct_imports(module: str) -> frozenset[str]:
    """Every module ``module`` names in an import statement (``from a import b`` counts as
    ``a`` and, when ``a.b`` is a UI module, as ``a.b`` too)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, node)
            found.add(base)
            found |= {f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in MODULES}
    return frozenset(found)


def _ui_modules_of(name: str) -> list[str]:
    """The UI module ``name`` and the packages it is in (importing it runs their ``__init__``)."""
    out = []
    while _within(name, PACKAGE):
        if name in MODULES:
            out.append(name)
        name = name.rpartition(".")[0]
    return out


@cache
def reach(module: str) -> dict[str, str]:
    """Every module imported by ``module`` directly or through UI modules -> the chain of UI
    modules that leads to it (for the failure message)."""
    chains: dict[str, str] = {}
    todo = [(module, module)]
    seen = {module}
    while todo:
        current, chain = todo.pop()
        for name in direct_imports(current):
            chains.setdefault(name, f"{chain} -> {name}")
            for ui_module in _ui_modules_of(name):
                if ui_module not in seen:
                    seen.add(ui_module)
                    todo.append((ui_module, f"{chain} -> {ui_module}"))
    return chains


def _violations(module: str, forbidden: tuple[str, ...]) -> list[str]:
    return sorted(chain for name, chain in reach(module).items()
                  if any(_within(name, f) for f in forbidden))


def _modules_under(*prefixes: str) -> list[str]:
    return [m for m in MODULES if any(_within(m, p) for p in prefixes)]


def test_the_layout_is_there() -> None:
    """The rules below would pass vacuously on an empty folder."""
    for package in ("app", "screens", "views", "widgets", "demo"):
        assert f"{PACKAGE}.{package}" in MODULES, package
    assert len(_modules_under(f"{PACKAGE}.screens")) >= 13
    assert len(_modules_under(f"{PACKAGE}.views")) >= 10
    assert len(_modules_under(f"{PACKAGE}.widgets")) >= 7
    assert not [p for p in UI.glob("*.kv")], "kv files belong to screens/ or widgets/"


@pytest.mark.parametrize("module", _modules_under(*KIVY_FREE))
def test_views_controller_and_script_import_no_kivy(module: str) -> None:
    assert _violations(module, ("kivy",)) == []


@pytest.mark.parametrize("module", _modules_under(f"{PACKAGE}.views"))
def test_views_import_nothing_of_the_ui_above_them(module: str) -> None:
    above = tuple(m for m in MODULES if not _within(m, f"{PACKAGE}.views") and m != PACKAGE)
    assert [chain for name, chain in reach(module).items() if name in above] == []


@pytest.mark.parametrize("module", _modules_under(f"{PACKAGE}.screens"))
def test_screens_reach_storage_only_through_the_app(module: str) -> None:
    assert _violations(module, (*STORAGE, f"{PACKAGE}.app", f"{PACKAGE}.demo")) == []


@pytest.mark.parametrize("module", _modules_under(f"{PACKAGE}.widgets"))
def test_widgets_import_no_storage_screens_or_engine_internals(module: str) -> None:
    engine_modules = [chain for name, chain in reach(module).items()
                      if _within(name, "companion.engine") and name != "companion.engine"]
    assert _violations(module, NOT_FOR_WIDGETS) + engine_modules == []


# --- rule 4: every screen's kv can load first --------------------------------------------------

_RULE = re.compile(r"^<(?P<names>[^>]+)>\s*:")
_CHILD = re.compile(r"^\s+(?P<name>[A-Z]\w*)\s*:\s*(#.*)?$")


def kv_classes(path: Path) -> tuple[set[str], set[str]]:
    """(classes the kv file instantiates, dynamic classes it defines with ``<Name@Base>``)."""
    used: set[str] = set()
    dynamic: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        rule = _RULE.match(line)
        if rule:
            for name in rule.group("names").split(","):
                head, at, bases = name.strip().partition("@")
                if at:
                    dynamic.add(head)
                    used |= {b.strip() for b in bases.split("+")}
            continue
        child = _CHILD.match(line)
        if child:
            used.add(child.group("name"))
    return used, dynamic


def _defined_classes(modules: list[str]) -> set[str]:
    names: set[str] = set()
    for module in modules:
        tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
        names |= {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    return names


def _kivy_classes() -> set[str]:
    from kivy.factory import Factory

    return {name for name, entry in Factory.classes.items()
            if str(entry.get("module") or "").startswith("kivy.")}


SCREEN_KV = sorted((UI / "screens").glob("*.kv"))


def test_every_screen_has_its_kv_and_the_registry_names_them() -> None:
    from companion.ui.app.heat_app import SCREENS

    modules = {module for module, _class in SCREENS.values()}
    assert {p.stem for p in SCREEN_KV} == modules
    for module, class_name in SCREENS.values():
        assert class_name in _defined_classes([f"{PACKAGE}.screens.{module}"]), module


def unknown_kv_classes(kv: Path, module: str) -> list[str]:
    """The classes ``kv`` instantiates that nothing registers when ``module`` is imported."""
    imported = [m for name in reach(module) for m in _ui_modules_of(name)]
    known = _defined_classes([module, *imported]) | _kivy_classes()
    used, dynamic = kv_classes(kv)
    _common_used, common_dynamic = kv_classes(UI / "widgets" / "common.kv")
    assert used, kv
    return sorted(used - known - dynamic - common_dynamic)


@pytest.mark.parametrize("kv", SCREEN_KV, ids=lambda p: p.name)
def test_every_class_a_screens_kv_uses_is_registered_by_its_own_module(kv: Path) -> None:
    assert unknown_kv_classes(kv, f"{PACKAGE}.screens.{kv.stem}") == []


def test_the_rules_catch_what_they_claim(tmp_path: Path) -> None:
    """Each rule fails on modules that break it (the checks are not vacuous)."""
    view = tmp_path / "bad_view.py"  # Kivy directly; storage and a screen in a function
    view.write_text("from kivy.uix.label import Label\n"
                    "def f():\n    from companion.storage import StorageError\n"
                    "    from ..screens import race\n", encoding="utf-8")
    view_kivy_through_ui = tmp_path / "bad_view2.py"  # Kivy only through another UI module
    view_kivy_through_ui.write_text("from ..widgets.basic import Btn\n", encoding="utf-8")
    widget = tmp_path / "bad_widget.py"
    widget.write_text("from companion.engine.garage import DESIGNS\n", encoding="utf-8")
    screen = tmp_path / "bad_screen.py"  # a kv leaning on NameInput it does not import
    screen.write_text("from ..widgets.basic import Btn\nfrom .base import BaseScreen\n"
                      "from ..app.data import DataMixin\n", encoding="utf-8")
    kv = tmp_path / "bad_screen.kv"
    kv.write_text("<Thing@BoxLayout>:\n    NameInput:\n        id: name\n"
                  "<BadScreen>:\n    Thing:\n    Btn:\n    Swatch:\n", encoding="utf-8")
    fakes = {"companion.ui.views.bad_view": view,
             "companion.ui.views.bad_view2": view_kivy_through_ui,
             "companion.ui.widgets.bad_widget": widget,
             "companion.ui.screens.bad_screen": screen}
    MODULES.update(fakes)
    reach.cache_clear()
    try:
        assert "companion.ui.views.bad_view -> kivy.uix.label" in _violations(
            "companion.ui.views.bad_view", ("kivy",))
        assert "companion.ui.views.bad_view -> companion.storage" in _violations(
            "companion.ui.views.bad_view", STORAGE)
        assert "companion.ui.screens.race" in reach("companion.ui.views.bad_view")
        assert "companion.ui.views.bad_view2 -> companion.ui.widgets.basic -> kivy.uix.label" \
            in _violations("companion.ui.views.bad_view2", ("kivy",))
        assert "companion.engine.garage" in reach("companion.ui.widgets.bad_widget")
        with pytest.raises(AssertionError):
            test_widgets_import_no_storage_screens_or_engine_internals(
                "companion.ui.widgets.bad_widget")
        with pytest.raises(AssertionError):
            test_screens_reach_storage_only_through_the_app("companion.ui.screens.bad_screen")
        with pytest.raises(AssertionError):
            test_views_import_nothing_of_the_ui_above_them("companion.ui.views.bad_view2")
        assert kv_classes(kv) == ({"BoxLayout", "NameInput", "Thing", "Btn", "Swatch"},
                                  {"Thing"})
        # Btn and Swatch come with widgets.basic, NameInput does not
        assert unknown_kv_classes(kv, "companion.ui.screens.bad_screen") == ["NameInput"]
    finally:
        for name in fakes:
            del MODULES[name]
        reach.cache_clear()
        direct_imports.cache_clear()
