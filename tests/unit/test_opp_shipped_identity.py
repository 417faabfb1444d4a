"""A shipped file's remembered identity and the kept kernel JSON: one ``stat`` when nothing changed,
resolved and read again when the name leads to another file, and a bad file diagnosed every time.

The package under test stands in for the shipped one (``_shipped_root`` points at it), so what the
loader keeps of it is what it would keep of the real package.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from emulator.config import Settings
from emulator.engine.opp import LoadAllOppPackage, jsonio, loader, shipped

SOC = "Ascend910B2"
KERNEL = Path("built-in") / "op_impl" / "ai_core" / "tbe" / "kernel"
GOOD = {"blockDim": -1, "coreType": "AiCore"}


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A package that counts as the shipped one, with fresh kept tables (the session's are restored)."""
    opp = tmp_path / "opp"
    (opp / "built-in" / "op_impl" / "ai_core" / "tbe" / "config" / "ascend910b").mkdir(parents=True)
    monkeypatch.setattr(shipped, "_shipped_root", lambda: str(opp.resolve()) + os.sep)
    monkeypatch.setattr(shipped, "_kept", {})
    monkeypatch.setattr(shipped, "_identities", {})
    return opp


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every kernel JSON the loader actually reads."""
    seen: list[Path] = []
    real = loader.read_json_object

    def counting(path: Path, *, root: Path | None = None) -> dict[str, Any]:
        seen.append(path)
        return real(path, root=root)

    monkeypatch.setattr(loader, "read_json_object", counting)
    return seen


def write(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_an_unchanged_file_keeps_its_identity_and_another_file_under_the_name_gets_a_new_one(root: Path) -> None:
    path = write(root / "a.json", "{}")
    first = shipped.identity(path)
    assert first is not None and first[0] == str(path.resolve())
    assert shipped.identity(path) == first
    path.unlink()
    write(path, '{"b": 1}')  # a new file under the same name
    second = shipped.identity(path)
    assert second is not None and second != first


def test_a_name_that_now_leads_out_of_the_package_is_not_shipped(root: Path, tmp_path: Path) -> None:
    outside = write(tmp_path / "elsewhere" / "a.json", "{}")
    path = write(root / "a.json", "{}")
    assert shipped.identity(path) is not None
    path.unlink()
    path.symlink_to(outside)
    assert shipped.identity(path) is None
    assert shipped.resolved_path(path) is None


def test_a_directory_link_moved_to_another_directory_resolves_to_the_new_file(root: Path) -> None:
    write(root / "one" / "x.json", "{}")
    write(root / "two" / "x.json", "{}")
    link = root / "link"
    link.symlink_to(root / "one", target_is_directory=True)
    assert shipped.resolved_path(link / "x.json") == str((root / "one" / "x.json").resolve())
    link.unlink()
    link.symlink_to(root / "two", target_is_directory=True)
    assert shipped.resolved_path(link / "x.json") == str((root / "two" / "x.json").resolve())


def test_a_shipped_kernel_json_is_read_once_for_every_process(root: Path, reads: list[Path]) -> None:
    path = write(root / KERNEL / "ascend910b/op/good.json", GOOD)
    settings = Settings(opp_path=root)
    first, second = LoadAllOppPackage(settings, SOC), LoadAllOppPackage(settings, SOC)
    assert first.builtin is not None and second.builtin is not None
    kept = first.kernel_json(first.builtin, "ascend910b/op/good.json")
    assert kept == GOOD
    assert second.kernel_json(second.builtin, "ascend910b/op/good.json") is kept
    assert reads == [path]
    shipped.forget()  # as a new OS process starts
    third = LoadAllOppPackage(settings, SOC)
    assert third.builtin is not None and third.kernel_json(third.builtin, "ascend910b/op/good.json") == GOOD
    assert reads == [path, path]


def test_a_damaged_shipped_kernel_json_is_refused_in_every_process_with_its_reason(
    root: Path, reads: list[Path]
) -> None:
    path = write(root / KERNEL / "ascend910b/op/k.json", GOOD)
    settings = Settings(opp_path=root)
    good = LoadAllOppPackage(settings, SOC)
    assert good.builtin is not None and good.kernel_json(good.builtin, "ascend910b/op/k.json") == GOOD
    write(path, '{"blockDim": ')
    with pytest.raises(jsonio.JsonRefused) as direct:
        jsonio.read_json_object(path)
    for _ in range(2):  # a refusal is never kept: each process reads the file and refuses it again
        opp = LoadAllOppPackage(settings, SOC)
        assert opp.builtin is not None and opp.kernel_json(opp.builtin, "ascend910b/op/k.json") is None
        assert [(r.path, r.reason, r.code) for r in opp.refused] == [(path, direct.value.reason, 561108)]
    assert reads == [path, path, path]


def test_a_kept_kernel_json_replaced_by_a_link_out_of_the_kernel_dir_is_refused(root: Path, tmp_path: Path) -> None:
    path = write(root / KERNEL / "ascend910b/op/k.json", GOOD)
    outside = write(tmp_path / "elsewhere" / "k.json", GOOD)
    settings = Settings(opp_path=root)
    opp = LoadAllOppPackage(settings, SOC)
    assert opp.builtin is not None and opp.kernel_json(opp.builtin, "ascend910b/op/k.json") == GOOD
    path.unlink()
    path.symlink_to(outside)
    later = LoadAllOppPackage(settings, SOC)
    assert later.builtin is not None and later.kernel_json(later.builtin, "ascend910b/op/k.json") is None
    assert [(r.path, r.reason, r.code) for r in later.refused] == [
        (path, "jsonFilePath leaves the package kernel dir", None)
    ]


def test_forget_drops_every_kept_result(root: Path) -> None:
    path = write(root / "c.json", "{}")
    reads: list[int] = []

    def read() -> str:
        reads.append(1)
        return path.read_text(encoding="utf-8")

    shipped.read_kept("test", path, read)
    shipped.read_kept("test", path, read)
    shipped.forget()
    shipped.read_kept("test", path, read)
    assert len(reads) == 2


def test_a_custom_package_linking_to_a_kept_shipped_config_is_still_refused(root: Path, tmp_path: Path) -> None:
    """The kept parse is keyed on the package root: the shipped read does not vouch for another package."""
    config = write(root / "built-in" / "op_impl" / "ai_core" / "tbe" / "config" / "ascend910b" / "add.json",
                   {"binList": []})  # fmt: skip
    shipped_root = root / "built-in" / "op_impl" / "ai_core" / "tbe"
    assert loader.read_config_kept(config, shipped_root).bin_list == []  # kept now
    custom = tmp_path / "vendors" / "custom" / "op_impl" / "ai_core" / "tbe"
    link = custom / "config" / "ascend910b" / "add.json"
    link.parent.mkdir(parents=True)
    link.symlink_to(config)
    with pytest.raises(jsonio.JsonRefused, match="resolves outside its package"):
        loader.read_config_kept(link, custom)
    assert loader.read_config_kept(config, shipped_root).bin_list == []  # the shipped read is unaffected
