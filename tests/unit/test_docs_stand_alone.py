"""The repository's docs stand alone: nothing points outside it, every relative link resolves.

A reader of a fresh clone has only the clone. Pages and docstrings that cite the design notes or
spec files the project was written from (which are not shipped), or a link to a page that moved,
leave that reader with a dead end.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# what the project was written from, which a clone does not have
OUTSIDE = re.compile(r"\.\./shared|\bDESIGN\.md\b|\bSTYLE\.md\b|\bspec/[\w./-]+\.md\b|(?<![\w/])lifecycle\.md\b")
LINK = re.compile(r"\]\(([^)\s]+)\)")
TEXT = (".py", ".md", ".c", ".h", ".cpp", ".toml", ".txt", ".json", ".ini", ".sh", ".cmake")


def _tracked() -> list[Path]:
    try:
        done = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are not known")
    return [ROOT / name for name in done.stdout.splitlines() if name.endswith(TEXT)]


def test_nothing_cites_a_file_outside_the_repository() -> None:
    hits = []
    for path in _tracked():
        if path == Path(__file__).resolve() or not path.is_file():
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not hits, "\n".join(hits)


def test_every_relative_link_of_the_docs_resolves() -> None:
    broken = []
    for path in _tracked():
        if path.suffix != ".md" or not path.is_file():
            continue
        for target in LINK.findall(path.read_text()):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue  # a URL or an anchor on the same page
            if not (path.parent / target.split("#")[0]).exists():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert not broken, "\n".join(broken)
