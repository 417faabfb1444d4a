"""What is kept of the shipped op package across emulated processes, and what is always read again.

Parsing the shipped package is most of an emulated process's start; it is kept for the OS process,
keyed on each file's identity. Any other package is read by every process, and an edited shipped
file (a new size or time) is read again.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from emulator.config import Settings
from emulator.engine.opp import LoadAllOppPackage, binconfig, loader, shipped
from emulator.engine.opp.discovery import shipped_opp_path

SOC = "Ascend910B2"


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every binary-config file actually parsed during the test."""
    seen: list[Path] = []
    real = binconfig.read_binary_config

    def counting(path: Path, *, root: Path | None = None) -> binconfig.BinaryConfig:
        seen.append(path)
        return real(path, root=root)

    monkeypatch.setattr(loader, "read_binary_config", counting)
    return seen


def test_a_shipped_binary_config_is_parsed_once_for_every_process(parses: list[Path]) -> None:
    first = LoadAllOppPackage(Settings(), SOC).binary_config("Add")
    second = LoadAllOppPackage(Settings(), SOC).binary_config("Add")
    assert first is not None and second is not None
    assert first.config is second.config
    assert parses.count(first.path) <= 1  # once in this OS process (or already kept by an earlier test)


def test_a_copy_of_the_package_is_read_by_every_process_and_its_damage_seen(tmp_path: Path, parses: list[Path]) -> None:
    root = tmp_path / "opp"
    shutil.copytree(shipped_opp_path(), root, symlinks=True)
    settings = Settings(opp_path=root)
    hit = LoadAllOppPackage(settings, SOC).binary_config("Add")
    assert hit is not None and hit.path.is_relative_to(root)
    assert LoadAllOppPackage(settings, SOC).binary_config("Add") is not None
    assert parses.count(hit.path) == 2
    hit.path.write_text("{not json", encoding="utf-8")
    damaged = LoadAllOppPackage(settings, SOC)
    assert damaged.binary_config("Add") is None or damaged.binary_config("Add").path != hit.path
    assert any(refusal.path == hit.path for refusal in damaged.refused)


def test_the_merged_ops_info_of_a_copy_sees_an_edit(tmp_path: Path) -> None:
    root = tmp_path / "opp"
    shutil.copytree(shipped_opp_path(), root, symlinks=True)
    settings = Settings(opp_path=root)
    before = LoadAllOppPackage(settings, SOC)
    assert "Add" in before.ops_info
    (info,) = [p for p in before.packages[0].ops_info_dir.glob("*.json")]
    data = json.loads(info.read_text(encoding="utf-8"))
    data["Add"] = None  # merge patch: null deletes
    info.write_text(json.dumps(data), encoding="utf-8")
    assert "Add" not in LoadAllOppPackage(settings, SOC).ops_info


def test_an_edited_shipped_file_is_read_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The key is the file's identity: a new size or modification time makes a new entry."""
    monkeypatch.setattr(shipped, "_shipped_root", lambda: str(tmp_path) + os.sep)
    path = tmp_path / "config.json"
    path.write_text('{"a": 1}', encoding="utf-8")
    reads: list[int] = []

    def read() -> str:
        reads.append(1)
        return path.read_text(encoding="utf-8")

    assert shipped.read_kept("test", path, read) == '{"a": 1}'
    assert shipped.read_kept("test", path, read) == '{"a": 1}'
    assert len(reads) == 1
    path.write_text('{"a": 22}', encoding="utf-8")
    assert shipped.read_kept("test", path, read) == '{"a": 22}'
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    shipped.read_kept("test", path, read)
    assert len(reads) == 3


def test_files_outside_the_shipped_package_are_never_kept(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("{}", encoding="utf-8")
    assert shipped.identity(path) is None
    assert shipped.key_of("ops-info", [shipped_opp_path() / "vendors", path]) is None
