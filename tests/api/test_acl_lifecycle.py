"""acl.init / acl.finalize / acl.finalize_reference and the generic acl calls.

The sequences are the ones the real unit tests assert, plus the config-file rules of aclInit: a
bad path, malformed JSON, a config that differs from the first one, ``err_msg_mode`` and
``defaultDevice``.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from emulator import acl
from emulator.status import AclError


def _config(tmp_path: Path, content: object, name: str = "acl.json") -> str:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return str(path)


def test_init_init_then_three_finalize_references() -> None:
    """init, init, finRef, finRef, finRef gives 0, 100002, 0 (count 1), 0 (count 0), 100037."""
    assert acl.init() == 0
    assert acl.init() == 100002
    assert acl.finalize_reference() == (1, 0)
    assert acl.finalize_reference() == (0, 0)
    count, ret = acl.finalize_reference()
    assert ret == 100037
    assert count == 0


def test_init_init_then_two_finalizes() -> None:
    """init, init, fin, fin gives 0, 100002, 0, 100037: one finalize ends any number of inits."""
    assert acl.init() == 0
    assert acl.init() == AclError.ACL_ERROR_REPEAT_INITIALIZE
    assert acl.finalize() == 0
    assert acl.finalize() == AclError.ACL_ERROR_REPEAT_FINALIZE


def test_finalize_without_init() -> None:
    """aclFinalize without any aclInit returns 0, and a second one 100037."""
    assert acl.finalize() == 0
    assert acl.finalize() == 100037


def test_finalize_reference_without_init() -> None:
    """aclFinalizeReference without aclInit returns 100037."""
    assert acl.finalize_reference()[1] == 100037


def test_repeat_init_records_no_message() -> None:
    """The 100002 of a second aclInit is silent: nothing is stored for aclGetRecentErrMsg."""
    assert acl.init() == 0
    assert acl.init() == 100002
    assert acl.get_recent_err_msg() is None


def test_init_after_finalize_with_same_config() -> None:
    """Re-initialising after finalize with the same (empty) config succeeds."""
    assert acl.init() == 0
    assert acl.finalize() == 0
    assert acl.init("") == 0
    assert acl.finalize() == 0


def test_bad_config_path_then_init_works(tmp_path: Path) -> None:
    """A config path that does not exist gives 100003 and leaves aclInit usable."""
    assert acl.init(str(tmp_path / "missing.json")) == 100003
    assert acl.init() == 0
    assert acl.finalize() == 0


def test_bad_config_message_is_eh0003(tmp_path: Path) -> None:
    """The 100003 of a bad path records an EH0003 'Path … is invalid' message."""
    missing = str(tmp_path / "missing.json")
    assert acl.init(missing) == 100003
    msg = acl.get_recent_err_msg()
    assert msg is not None
    assert "EH0003" in msg
    assert f"Path {missing} is invalid. Reason:" in msg


def test_malformed_json_is_parse_error(tmp_path: Path) -> None:
    """A config file that is not valid JSON gives 100006, and a later aclInit() still works."""
    assert acl.init(_config(tmp_path, '{"err_msg_mode": ')) == AclError.ACL_ERROR_PARSE_FILE
    assert acl.init() == 0


def test_differing_config_after_finalize(tmp_path: Path) -> None:
    """init(A), fin, init(B≠A) gives 0, 0, 100000: the content must match the first aclInit's."""
    a = _config(tmp_path, {"dump": {"dump_list": []}}, "a.json")
    b = _config(tmp_path, {"dump": {"dump_list": [], "dump_path": "/tmp"}}, "b.json")
    assert acl.init(a) == 0
    assert acl.finalize() == 0
    assert acl.init(b) == 100000
    msg = acl.get_recent_err_msg()
    assert msg is not None
    assert "EH0004" in msg


def test_null_config_then_empty_object_config_differs(tmp_path: Path) -> None:
    """aclInit(NULL), aclFinalize, aclInit("{}") gives 100000: no config hashes as the empty string."""
    assert acl.init() == 0
    assert acl.finalize() == 0
    assert acl.init(_config(tmp_path, "{}")) == 100000


def test_same_content_under_another_path_is_accepted(tmp_path: Path) -> None:
    """Only the content is compared: the same JSON under another file name re-initialises fine."""
    assert acl.init(_config(tmp_path, {"err_msg_mode": "0"}, "one.json")) == 0
    assert acl.finalize() == 0
    assert acl.init(_config(tmp_path, {"err_msg_mode": "0"}, "two.json")) == 0


def test_second_init_ignores_its_config(tmp_path: Path) -> None:
    """While initialised, aclInit reads no config: a missing path still gives 100002."""
    assert acl.init() == 0
    assert acl.init(str(tmp_path / "missing.json")) == 100002


def test_invalid_err_msg_mode_leaves_init_usable(tmp_path: Path) -> None:
    """err_msg_mode other than "0"/"1" gives 100000 and leaves the reference count at 0."""
    assert acl.init(_config(tmp_path, {"err_msg_mode": "2"})) == 100000
    assert acl.finalize_reference()[1] == 100037


def test_err_msg_mode_1_is_process_wide_with_thread_tag(tmp_path: Path) -> None:
    """With err_msg_mode "1" a failure on another thread is read here, tagged [THREAD:<tid>]."""
    assert acl.init(_config(tmp_path, {"err_msg_mode": "1"})) == 0
    tids: list[int] = []

    def worker() -> None:
        tids.append(threading.get_native_id())
        assert acl.rt.free(0) == 100000

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    msg = acl.get_recent_err_msg()
    assert msg is not None
    first = msg.splitlines()[0]
    assert "aclrtFree failed because devPtr cannot be a NULL pointer." in first
    assert first.endswith(f"[THREAD:{tids[0]}]")
    assert acl.get_recent_err_msg() is None


def test_err_msg_mode_0_keeps_messages_per_thread(tmp_path: Path) -> None:
    """With err_msg_mode "0" (the default) another thread's failure is not visible here and has no tag."""
    assert acl.init(_config(tmp_path, {"err_msg_mode": "0"})) == 0
    seen: list[str | None] = []

    def worker() -> None:
        acl.rt.free(0)
        seen.append(acl.get_recent_err_msg())

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert acl.get_recent_err_msg() is None
    assert seen[0] is not None
    assert "[THREAD:" not in seen[0]


def test_default_device_makes_get_device_work(tmp_path: Path) -> None:
    """defaultDevice.default_device lets aclrtGetDevice (and malloc) work without aclrtSetDevice."""
    assert acl.init(_config(tmp_path, {"defaultDevice": {"default_device": "1"}})) == 0
    assert acl.rt.get_device() == (1, 0)
    ptr, ret = acl.rt.malloc(64, 0)
    assert ret == 0
    assert ptr != 0
    assert acl.rt.free(ptr) == 0


def test_init_none_raises_type_error() -> None:
    """acl.init(None) raises TypeError: the path must be a str or omitted."""
    with pytest.raises(TypeError, match=r"acl\.init args parse failed"):
        acl.init(None)  # type: ignore[arg-type]
    assert acl.finalize_reference()[1] == 100037


def test_get_version() -> None:
    """acl.get_version returns the header version 1.17.0 and ret 0."""
    assert acl.get_version() == (1, 17, 0, 0)


def test_get_soc_name_default() -> None:
    """acl.get_soc_name returns the SoC_version string, Ascend910B2 by default, without init or device."""
    assert acl.get_soc_name() == "Ascend910B2"


def test_runtime_calls_work_without_init() -> None:
    """There is no 'initialised?' gate: set_device, malloc and free work without acl.init."""
    assert acl.rt.set_device(0) == 0
    ptr, ret = acl.rt.malloc(16, 0)
    assert ret == 0
    assert acl.rt.free(ptr) == 0
    assert acl.rt.reset_device(0) == 0


def test_finalize_does_not_reset_devices() -> None:
    """aclFinalize does not reset devices: the thread keeps its device and memory afterwards."""
    assert acl.init() == 0
    assert acl.rt.set_device(0) == 0
    ptr, ret = acl.rt.malloc(16, 0)
    assert ret == 0
    assert acl.finalize() == 0
    assert acl.rt.get_device() == (0, 0)
    assert acl.rt.free(ptr) == 0
    assert acl.rt.reset_device(0) == 0
