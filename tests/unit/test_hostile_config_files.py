"""acl.json files that are not what they claim: aclInit and aclnnInit answer with a status, never a traceback."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from emulator import acl, aclnn, process
from emulator.config_files import MAX_CONFIG_BYTES, ConfigFileRefused, json_depth, read_config_text

INVALID_FILE, PARSE_FILE, INVALID_PARAM = 100003, 100006, 100000


@pytest.fixture
def emu() -> Iterator[process.EmulatedProcess]:
    with process.fresh() as proc:
        yield proc


def _nested(depth: int) -> str:
    return '{"a": ' * depth + "1" + "}" * depth


@pytest.mark.parametrize(
    ("content", "status"),
    [
        (b'{"err_msg_mode": "0"\xff\xfe}', PARSE_FILE),  # not UTF-8: the JSON parser cannot read it
        (_nested(900).encode(), PARSE_FILE),
        (_nested(100_000).encode(), PARSE_FILE),  # json.loads alone raises RecursionError here
        (b'{"defaultDevice": "x"}', INVALID_PARAM),
        (b'{"defaultDevice": {"default_device": 5}}', INVALID_PARAM),
        (b'{"err_msg_mode": 1}', INVALID_PARAM),
    ],
)
def test_a_config_that_cannot_be_used_is_a_status(
    emu: process.EmulatedProcess, tmp_path: Path, content: bytes, status: int
) -> None:
    path = tmp_path / "acl.json"
    path.write_bytes(content)
    assert acl.init(str(path)) == status
    assert str(path) in (acl.get_recent_err_msg() or "") or status == INVALID_PARAM
    assert acl.init("") == 0  # nothing half-done: a later aclInit succeeds
    assert acl.finalize() == 0


def test_a_wrong_value_type_names_the_key(emu: process.EmulatedProcess, tmp_path: Path) -> None:
    path = tmp_path / "acl.json"
    path.write_text('{"defaultDevice": "x"}')
    assert acl.init(str(path)) == INVALID_PARAM
    message = acl.get_recent_err_msg() or ""
    assert "defaultDevice" in message and '"x"' in message


def test_a_symlink_loop_is_an_invalid_file(emu: process.EmulatedProcess, tmp_path: Path) -> None:
    loop = tmp_path / "acl.json"
    os.symlink(loop, loop)
    assert acl.init(str(loop)) == INVALID_FILE
    assert "symbolic link loop" in (acl.get_recent_err_msg() or "")


def test_a_fifo_is_refused_without_reading_it(emu: process.EmulatedProcess, tmp_path: Path) -> None:
    """Opening a FIFO for reading blocks until a writer comes: the file is never opened."""
    fifo = tmp_path / "acl.json"
    os.mkfifo(fifo)
    assert acl.init(str(fifo)) == INVALID_FILE
    assert "not a regular file" in (acl.get_recent_err_msg() or "")


def test_a_device_behind_a_config_name_is_refused(emu: process.EmulatedProcess, tmp_path: Path) -> None:
    """/dev/zero would be read without end."""
    link = tmp_path / "acl.json"
    os.symlink("/dev/zero", link)
    assert acl.init(str(link)) == INVALID_FILE


def test_an_oversized_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "acl.json"
    with open(big, "wb") as f:
        f.truncate(MAX_CONFIG_BYTES + 1)  # sparse: no RAM or disk for the test
    with pytest.raises(ConfigFileRefused, match="more than") as refused:
        read_config_text(big)
    assert refused.value.unreadable


@pytest.mark.parametrize("kind", ["loop", "fifo", "zero", "utf8", "deep"])
def test_aclnn_init_turns_debug_kernels_off_and_returns_0(
    emu: process.EmulatedProcess, tmp_path: Path, kind: str
) -> None:
    """aclnnInit never fails on its config: a file it cannot use leaves debug kernels off."""
    path = tmp_path / "acl.json"
    if kind == "loop":
        os.symlink(path, path)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        os.symlink("/dev/zero", path)
    elif kind == "utf8":
        path.write_bytes(b'{"op_debug_config": {"enable_debug_kernel": "on"}}\xff')
    else:
        path.write_text('{"op_debug_config": {"enable_debug_kernel": "on", "x": ' + _nested(100_000) + "}}")
    assert acl.init("") == 0
    assert aclnn.aclnnInit(str(path)) == 0
    assert emu.aclnn.debug_kernel is False
    assert aclnn.aclnnFinalize() == 0 and acl.finalize() == 0


def test_nesting_is_counted_outside_strings() -> None:
    assert json_depth('{"a": "{{{{[[[["}') == 1
    assert json_depth('{"a": "\\"{"}') == 1
    assert json_depth(_nested(50)) == 50
