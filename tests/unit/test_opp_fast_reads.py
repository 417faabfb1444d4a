"""A package file's real path and text the short way: the same answers as ``realpath`` and ``read_config_text``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from emulator.config_files import ConfigFileRefused, read_config_text
from emulator.engine.opp import JsonRefused, jsonio, shipped
from emulator.engine.opp.jsonio import read_package_text


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "real" / "sub").mkdir(parents=True)
    (tmp_path / "real" / "sub" / "op.json").write_text('{"binList": []}')
    (tmp_path / "link").symlink_to(tmp_path / "real")
    (tmp_path / "real" / "alias.json").symlink_to("sub/op.json")
    (tmp_path / "real" / "up").symlink_to("sub/..")
    return tmp_path


@pytest.mark.parametrize(
    "name", ["link/sub/op.json", "link/alias.json", "real/up/sub/op.json", "link/sub/../alias.json", "link", "link/sub"]
)
def test_the_real_path_is_realpaths(tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    base = _tree(tmp_path)
    monkeypatch.chdir(base)
    for path in (name, str(base / name)):
        assert shipped.real_path(path, os.stat(path).st_mode) == os.path.realpath(path)


def test_without_o_path_the_real_path_is_realpaths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base = _tree(tmp_path)
    monkeypatch.setattr(shipped, "_O_PATH", 0)
    path = str(base / "link" / "alias.json")
    assert shipped.real_path(path, os.stat(path).st_mode) == os.path.realpath(path)


def _reason_of_config_read(path: Path) -> str:
    with pytest.raises(ConfigFileRefused) as refused:
        read_config_text(path, limit=jsonio.MAX_PACKAGE_JSON_BYTES)
    return refused.value.reason


def _cases(tmp_path: Path) -> dict[str, Path]:
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    (tmp_path / "zero.json").symlink_to("/dev/zero")
    (tmp_path / "loop.json").symlink_to(tmp_path / "loop.json")
    (tmp_path / "latin.json").write_bytes(b'{"a": "\xe9"}')
    (tmp_path / "dir.json").mkdir()
    return {
        "fifo": fifo,
        "device": tmp_path / "zero.json",
        "loop": tmp_path / "loop.json",
        "not utf-8": tmp_path / "latin.json",
        "directory": tmp_path / "dir.json",
        "missing": tmp_path / "none.json",
    }


@pytest.mark.parametrize("case", ["fifo", "device", "loop", "not utf-8", "directory", "missing"])
def test_a_file_that_is_not_plain_is_refused_with_read_config_texts_reason(tmp_path: Path, case: str) -> None:
    """The FIFO is never opened (the read would block), the device never read; the reason is unchanged."""
    path = _cases(tmp_path)[case]
    with pytest.raises(JsonRefused) as refused:
        read_package_text(path)
    assert refused.value.reason == _reason_of_config_read(path)


def test_an_oversized_package_file_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonio, "MAX_PACKAGE_JSON_BYTES", 8)
    path = tmp_path / "big.json"
    path.write_text('{"binList": []}')
    with pytest.raises(JsonRefused) as refused:
        read_package_text(path)
    assert refused.value.reason == _reason_of_config_read(path)


def test_a_plain_file_reads_as_read_config_text_reads_it(tmp_path: Path) -> None:
    base = _tree(tmp_path)
    for name in ("link/sub/op.json", "link/alias.json"):
        assert read_package_text(base / name) == read_config_text(base / name)


@pytest.mark.parametrize(
    ("resolved", "directory"),
    [("/a/b/c", "/a/b"), ("/a/b", "/a/b"), ("/a/bc", "/a/b"), ("/a", "/a/b"), ("/a/b", "/"), ("/", "/")],
)
def test_is_within_is_is_relative_to(resolved: str, directory: str) -> None:
    assert shipped.is_within(resolved, directory) == Path(resolved).is_relative_to(directory)
