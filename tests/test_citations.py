"""Every citation in the repository points at a document inside it.

Code, tests, track files and docs cite the rules as ``docs/rules.md §x.y``, the race-file contract
as ``docs/race-file.md`` (``docs/race-file-v2.md``) and the engine's readings of open points as
``docs/rules-decisions.md #n``. A reader who clones the repository has nothing else, so this test
fails when a citation

* names a section that ``docs/rules.md`` does not have (``§9.9``, or either end of ``§4.1-4.9``);
* names a decision that ``docs/rules-decisions.md`` does not list;
* names a document by a bare file name (``rules.md`` without ``docs/``; inside ``docs/`` the
  relative name is the same file and is allowed);
* points outside the repository: the seeds (``seed 003``), the shared notes
  (``shared/notes/rules.md`` and the shared notes on the platform and on anchor codebases);
* uses ``§`` in a file that never says which document it means (no ``rules.md`` in it);

and when a bundled track file gives a source that is not a section of ``docs/rules.md``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCANNED_SUFFIXES = {".py", ".json", ".md", ".kv", ".toml", ".sh", ".txt", ".cfg", ".ini",
                    ".service", ".rules", ".yml", ".yaml"}
SKIPPED_DIRS = {".git", ".venv", "venv", "build", "dist", "__pycache__", ".mypy_cache",
                ".ruff_cache", ".pytest_cache", "node_modules"}
THIS_FILE = Path(__file__).resolve()

HEADING = re.compile(r"^#{2,4} §(\d+(?:\.\d+)*)\b", re.M)
DECISION_ROW = re.compile(r"^\|\s*(\d+)\s*\|", re.M)
SECTION = re.compile(r"§\s?(\d+(?:\.\d+)*)(?:\s?[-–]\s?(\d+(?:\.\d+)*))?")
DECISION = re.compile(r"rules-decisions\.md`?\)?\s*#(\d+)"
                      r"|#(\d+)`?\]\((?:docs/)?rules-decisions\.md")
BARE_DOC = re.compile(r"(?<![\w/.-])(rules|race-file|race-file-v2|rules-decisions)\.md")
OUTSIDE = [
    (re.compile(r"\bseeds?\s+0\d\d\b", re.I), "a seed document (outside the repository)"),
    (re.compile(r"shared[/ ]notes", re.I), "the shared notes (outside the repository)"),
    (re.compile(r"(?<![\w/.-])(platform|anchors)\.md"), "a shared note (outside the repository)"),
    (re.compile(r"/work/shared|(?<![\w.-])seeds/"), "a path outside the repository"),
]


def rules_sections(root: Path = ROOT) -> set[str]:
    return set(HEADING.findall((root / "docs" / "rules.md").read_text(encoding="utf-8")))


def decision_numbers(root: Path = ROOT) -> set[int]:
    text = (root / "docs" / "rules-decisions.md").read_text(encoding="utf-8")
    return {int(n) for n in DECISION_ROW.findall(text)}


def scanned_files(root: Path = ROOT) -> Iterator[Path]:
    for path in sorted(root.rglob("*")):
        parts = set(path.relative_to(root).parts[:-1])
        if parts & SKIPPED_DIRS or any(p.endswith(".egg-info") for p in parts):
            continue
        if path.is_file() and path.suffix in SCANNED_SUFFIXES and path.resolve() != THIS_FILE:
            yield path


def file_problems(path: Path, root: Path, sections: set[str], decisions: set[int]) -> list[str]:
    """Every bad citation in one file, as ``path:line: problem``."""
    name = path.relative_to(root).as_posix()
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return []
    if path.suffix == ".json":
        text = text.replace("\\u00a7", "§")
    in_docs = name.startswith("docs/")
    found: list[str] = []
    mentions_rules = "rules.md" in text or name == "docs/rules.md"
    for number, line in enumerate(text.splitlines(), start=1):
        where = f"{name}:{number}"
        for match in SECTION.finditer(line):
            for section in filter(None, match.groups()):
                if section not in sections:
                    found.append(f"{where}: §{section} is not a section of docs/rules.md")
            if not mentions_rules:
                found.append(f"{where}: §{match.group(1)} without saying which document "
                             "(cite docs/rules.md)")
        for match in DECISION.finditer(line):
            decision = int(match.group(1) or match.group(2))
            if decision not in decisions:
                found.append(f"{where}: decision #{decision} is not in docs/rules-decisions.md")
        if not in_docs:
            for match in BARE_DOC.finditer(line):
                found.append(f"{where}: bare {match.group(0)}: write docs/{match.group(0)}")
        for pattern, what in OUTSIDE:
            for match in pattern.finditer(line):
                found.append(f"{where}: {match.group(0)!r} cites {what}")
    return found


def track_source_problems(root: Path, sections: set[str]) -> list[str]:
    """A bundled track's ``sources`` must each name a section of docs/rules.md (the names of the
    track in other languages excepted: they are not rules data)."""
    found: list[str] = []
    for path in sorted((root / "tracks" / "data").glob("*.json")):
        sources = json.loads(path.read_text(encoding="utf-8")).get("sources", {})
        for fact, source in sources.items():
            if fact == "names":
                continue
            cited = [m.group(1) for m in SECTION.finditer(source)]
            if "docs/rules.md §" not in source or not set(cited) <= sections:
                found.append(f"{path.relative_to(root).as_posix()}: sources[{fact!r}] does not "
                             "cite a section of docs/rules.md")
    return found


def problems(root: Path = ROOT) -> list[str]:
    sections, decisions = rules_sections(root), decision_numbers(root)
    found: list[str] = []
    for path in scanned_files(root):
        found += file_problems(path, root, sections, decisions)
    return found + track_source_problems(root, sections)


def test_every_citation_points_inside_the_repository() -> None:
    found = problems()
    assert not found, "bad citations:\n" + "\n".join(found)


def test_the_rules_reference_keeps_its_numbering() -> None:
    """The sections the code has cited since before docs/rules.md existed are all there."""
    sections = rules_sections()
    cited_before = {"0", "1", "2", "3", "4", "5", "6", "8", "8.1",
                    *(f"1.{n}" for n in range(1, 13)), *(f"2.{n}" for n in range(1, 6)),
                    *(f"3.{n}" for n in range(1, 5)), "4.1", "4.2"}
    assert cited_before <= sections
    assert decision_numbers() >= set(range(1, 19))


# --- the checker catches what it claims to -------------------------------------------------------


@pytest.fixture
def mini_repo(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "tracks" / "data").mkdir(parents=True)
    (tmp_path / "docs" / "rules.md").write_text(
        "# Rules\n\n## §1 Race\n\n### §1.1 Setup\n\n### §1.2 Round\n", encoding="utf-8")
    (tmp_path / "docs" / "rules-decisions.md").write_text(
        "| # | Point |\n|---|---|\n| 1 | one |\n| 2 | two |\n", encoding="utf-8")
    return tmp_path


def plant(root: Path, relative: str, text: str) -> list[str]:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return problems(root)


def test_good_citations_pass(mini_repo: Path) -> None:
    assert plant(mini_repo, "companion/a.py",
                 '"""Setup (docs/rules.md §1.1, §1.2; docs/rules-decisions.md #2;\n'
                 'docs/race-file.md)."""\n# later lines may say §1.1-1.2 alone\n') == []
    assert plant(mini_repo, "docs/guide" + ".md",  # planted in the test's own small repository
                 "See rules.md §1.2 and [`#1`](rules-decisions.md).\n") == []
    assert plant(mini_repo, "tests/c.json", '{"source": "docs/rules.md \\u00a71.1"}\n') == []


@pytest.mark.parametrize(("text", "problem"), [
    ('"""docs/rules.md §1.3"""\n', "§1.3 is not a section"),
    ('"""docs/rules.md §1.1-1.4"""\n', "§1.4 is not a section"),
    ('"""rules.md §1.1"""\n', "bare rules.md"),
    ('"""the contract (race-file.md)"""\n', "bare race-file.md"),
    ('"""docs/rules.md §1.1; docs/rules-decisions.md #7"""\n', "decision #7"),
    ('"""docs/rules.md §1.1; seed 003"""\n', "seed document"),
    ('# shared/notes/rules.md §1.1\n', "shared notes"),
    # A shared note's name, put together so that this file itself cites no missing document.
    ('"""(' + "platform" + '.md §4.2)"""\n', "a shared note"),
    ('# a lonely §1.1\n', "without saying which document"),
])
def test_bad_citations_are_caught(mini_repo: Path, text: str, problem: str) -> None:
    found = plant(mini_repo, "companion/bad.py", text)
    assert any(problem in line and line.startswith("companion/bad.py:1:") for line in found), found


def test_bad_citation_in_a_json_file_is_caught(mini_repo: Path) -> None:
    found = plant(mini_repo, "tests/s.json", '{"source": "docs/rules.md \\u00a79.9"}\n')
    assert found == ["tests/s.json:1: §9.9 is not a section of docs/rules.md"]


def test_track_sources_must_cite_the_rules_reference(mini_repo: Path) -> None:
    track = {"id": "t", "sources": {"names": "usual names", "grid_size": "BGA startingCells"}}
    found = plant(mini_repo, "tracks/data/t.json", json.dumps(track))
    assert found == ["tracks/data/t.json: sources['grid_size'] does not cite a section of "
                     "docs/rules.md"]
