"""The plugin's documentation: every fixture, marker and option has a docstring and a section of
docs/pytest_plugin.md, the README and the tutorial link that page, and the tutorial's test-suite
example prints what the tutorial shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

# Imported up front so that pytester's in-process runs find these modules already loaded and share them.
from emulator import acl, aclnn, process  # noqa: F401
from emulator.pytest_plugin import MARKERS

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "pytest_plugin.md"
TUTORIAL = ROOT / "docs" / "tutorial.md"
QUIET = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:benchmark")
TUTORIAL_SECTION = "### A test suite with a fixture and a sanitizer report"
SHOWN_PROJECT = "/home/me/proj"  # where the tutorial pretends test_my_op.py lives


def _headings() -> set[str]:
    return {line.removeprefix("## ").strip() for line in PAGE.read_text().splitlines() if line.startswith("## ")}


def _plugin_fixtures(fixtures_output: str) -> dict[str, str]:
    """The fixtures ``pytest --fixtures`` lists under the plugin, each with the first line of its docstring."""
    lines = fixtures_output.splitlines()
    start = next(i for i, line in enumerate(lines) if "fixtures defined from emulator.pytest_plugin" in line)
    found: dict[str, str] = {}
    for i in range(start + 1, len(lines)):
        if lines[i].startswith("---") or lines[i].startswith("==="):
            break
        match = re.match(r"^(\w+) -- ", lines[i])
        if match:
            found[match.group(1)] = lines[i + 1].strip()
    return found


def test_every_fixture_has_a_docstring_and_a_section(pytester: pytest.Pytester) -> None:
    """Each fixture the plugin defines shows a docstring in --fixtures and has a heading on the plugin's page."""
    result = pytester.runpytest(*QUIET, "--fixtures")
    fixtures = _plugin_fixtures(result.stdout.str())
    assert set(fixtures) == {"npu_process", "leak_check", "opbase_faults"}
    for name, doc in fixtures.items():
        assert doc and doc != "no docstring available", name
        assert f"`{name}`" in _headings(), name


def test_every_marker_and_option_has_a_section(pytester: pytest.Pytester) -> None:
    """The markers are registered with their text, and each marker and --opbase-* option has a heading."""
    markers = pytester.runpytest(*QUIET, "--markers").stdout.str()
    options = set(re.findall(r"(--opbase-[\w-]+)", pytester.runpytest(*QUIET, "--help").stdout.str()))
    assert options == {"--opbase-leaks"}
    for name, text in MARKERS.items():
        assert f"@pytest.mark.{name}: {text}" in markers
        assert f"`@pytest.mark.{name}`" in _headings()
    for option in options:
        assert f"`{option}`" in _headings()


def test_the_readme_and_the_tutorial_link_the_plugin_page() -> None:
    """A reader finds the page from the README's docs list and from the tutorial."""
    assert "(docs/pytest_plugin.md)" in (ROOT / "README.md").read_text()
    assert "(pytest_plugin.md)" in TUTORIAL.read_text()


def _tutorial_example() -> tuple[str, list[str]]:
    """The test file and the output the tutorial's test-suite section shows."""
    section = TUTORIAL.read_text().split(TUTORIAL_SECTION, 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    shown = section.split("```text\n", 1)[1].split("```", 1)[0].splitlines()
    assert shown[0] == "$ pytest -q test_my_op.py"
    return code, shown[1:]


def _normalised(line: str, project: str) -> str:
    line = line.replace(project, SHOWN_PROJECT)
    line = re.sub(r"0x[0-9a-f]+", "0x…", line)
    return re.sub(r" in [0-9.]+s$", " in …s", line)


def test_the_tutorial_example_prints_what_the_tutorial_shows(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tutorial's test file, run with pytest -q, passes one test, fails two, and prints the lines shown.

    The tutorial shows an 80-column terminal on a desk: pytest cuts short-summary lines to the
    terminal's width, except under CI (the CI or BUILD_NUMBER variable), where it prints them whole.
    """
    for variable in ("CI", "BUILD_NUMBER"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("COLUMNS", "80")
    code, shown = _tutorial_example()
    pytester.makepyfile(test_my_op=code)
    result = pytester.runpytest(*QUIET, "-q")
    result.assert_outcomes(passed=1, failed=2)
    printed = [_normalised(line, str(pytester.path)) for line in result.stdout.lines]
    expected = [_normalised(line, SHOWN_PROJECT) for line in shown]
    position = 0
    for line in expected:  # in order; a line the tutorial leaves out (captured output) may come between
        assert line in printed[position:], f"not printed (in order): {line!r}\n" + "\n".join(printed)
        position = printed.index(line, position) + 1
