"""Sanitizer reports are visible by default: one stderr line each, a kind, a summary, strict raises.

The line names the use's file:line, the object's creation and destruction sites and what a card
would do; ``OPBASE_EMU_REPORTS=0`` silences the line but keeps the report; statuses stay the real ones.
"""

from __future__ import annotations

import pytest

from emulator import aclnn, process
from emulator.config import Settings
from emulator.diagnostics import Diagnostics, ReportKind, UndefinedBehaviour


def _tensor() -> object:
    return aclnn.aclCreateTensor([4], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [4], 1, 0)  # created-here


def _line_of(marker: str) -> int:
    with open(__file__, encoding="utf-8") as source:
        return next(i for i, text in enumerate(source, 1) if text.rstrip().endswith(f"# {marker}"))


def test_double_destroy_prints_one_line_with_three_sites(
    emu: process.EmulatedProcess, capsys: pytest.CaptureFixture[str]
) -> None:
    t = _tensor()
    assert aclnn.aclDestroyTensor(t) == 0  # destroyed-here
    assert aclnn.aclDestroyTensor(t) == 0  # used-here
    err = capsys.readouterr().err.splitlines()
    lines = [line for line in err if line.startswith("opbase-emu: ")]
    assert len(lines) == 1
    line = lines[0]
    assert line.startswith(f"opbase-emu: double destroy: {__file__}:{_line_of('used-here')}: aclDestroyTensor: ")
    assert f"created at {__file__}:{_line_of('created-here')}" in line
    assert f"destroyed at {__file__}:{_line_of('destroyed-here')}" in line
    assert "on a card this is a double free" in line
    assert emu.diagnostics.summary() == {ReportKind.DOUBLE_DESTROY: 1}


def test_reports_switch_silences_the_line_but_keeps_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings.from_env().model_copy(update={"reports": False})
    with process.fresh(settings) as quiet:
        t = _tensor()
        aclnn.aclDestroyTensor(t)
        assert aclnn.aclDestroyTensor(t) == 0
        assert [d.kind for d in quiet.diagnostics] == [ReportKind.DOUBLE_DESTROY]
    assert "opbase-emu:" not in capsys.readouterr().err


def test_the_switch_is_read_from_the_environment() -> None:
    assert Settings.from_env({"OPBASE_EMU_REPORTS": "0"}).reports is False
    assert Settings.from_env({}).reports is True


def test_summary_counts_kinds_and_is_empty_without_reports() -> None:
    diagnostics = Diagnostics()
    assert diagnostics.render_summary() == ""
    diagnostics.report("aclnnAdd", "x", kind=ReportKind.RACE)
    diagnostics.report("aclnnAdd", "y", kind=ReportKind.RACE)
    diagnostics.report("aclDestroyTensor", "z", kind=ReportKind.DOUBLE_DESTROY)
    assert diagnostics.summary() == {ReportKind.RACE: 2, ReportKind.DOUBLE_DESTROY: 1}
    assert diagnostics.render_summary() == "opbase-emu: SUMMARY: 3 sanitizer reports (2 race, 1 double destroy)"
    assert [d.message for d in diagnostics.of_kind(ReportKind.RACE)] == ["x", "y"]


def test_strict_raises_with_the_kind(emu: process.EmulatedProcess) -> None:
    t = _tensor()
    aclnn.aclDestroyTensor(t)
    emu.strict = True
    with pytest.raises(UndefinedBehaviour) as caught:
        aclnn.aclDestroyTensor(t)
    assert caught.value.kind is ReportKind.DOUBLE_DESTROY


def test_old_signature_still_reports_an_undefined_use() -> None:
    diagnostics = Diagnostics()
    diagnostic = diagnostics.report("aclFoo", "something undefined")
    assert diagnostic.kind is ReportKind.UNDEFINED_USE
    assert diagnostic.site.top is not None and diagnostic.site.top.file == __file__


def test_every_kind_has_a_card_text_and_a_row_in_the_docs() -> None:
    from pathlib import Path

    from emulator.diagnostics import ON_A_CARD

    page = (Path(__file__).resolve().parents[2] / "docs" / "sanitizer.md").read_text(encoding="utf-8")
    for kind in ReportKind:
        assert ON_A_CARD[kind].startswith("on a card")
        assert f"| `{kind}` |" in page, kind
        (row,) = [line for line in page.splitlines() if line.startswith(f"| `{kind}` |")]
        assert "reserved" not in row, row  # every kind is made by a check today: its row says when


def test_every_kind_is_made_by_some_check() -> None:
    """No kind is only declared: each ReportKind is named by a module other than diagnostics.py."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    sources = [p for d in ("emulator", "device") for p in (root / d).rglob("*.py") if p.name != "diagnostics.py"]
    text = "\n".join(p.read_text(encoding="utf-8") for p in sources)
    unused = [kind.name for kind in ReportKind if f"ReportKind.{kind.name}" not in text]
    assert unused == []
