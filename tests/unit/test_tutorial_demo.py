"""docs/tutorial.md shows what `opbase-emu demo` prints: its first lines, as the demo prints them today."""

from __future__ import annotations

import io
import re
from pathlib import Path

from emulator.demo import run_demo

TUTORIAL = Path(__file__).resolve().parents[2] / "docs" / "tutorial.md"
# host descriptors live at Python object addresses, which differ from run to run; device addresses do not
HOST_ADDRESS = re.compile(r"\b(tensor at|scalar at|executor|task space|task) 0x[0-9a-f]+")


def _normalised(lines: list[str]) -> list[str]:
    return [HOST_ADDRESS.sub(r"\1 0x<host>", line) for line in lines]


def _tutorial_excerpt() -> tuple[int, list[str]]:
    """The line count the tutorial announces and the demo excerpt it shows (the block of section 1)."""
    text = TUTORIAL.read_text(encoding="utf-8")
    section = text[text.index("## 1. Watch the whole lifecycle") : text.index("## 2.")]
    announced = re.search(r"The first (\d+) lines:", section)
    assert announced is not None, "section 1 no longer says how many lines it shows"
    block = re.search(r"```text\n(.*?)\n…\n```", section, re.S)
    assert block is not None, "section 1 has no ```text block ending in …"
    return int(announced.group(1)), block.group(1).splitlines()


def test_tutorial_shows_what_the_demo_prints() -> None:
    """The excerpt is the demo's output line for line (host object addresses aside) and as long as announced."""
    count, excerpt = _tutorial_excerpt()
    out = io.StringIO()
    steps = run_demo(out)
    assert all(step.status == 0 for step in steps)
    printed = out.getvalue().splitlines()
    assert len(excerpt) == count
    assert _normalised(excerpt) == _normalised(printed[:count])
