"""acl.media.dvpp_malloc / dvpp_free, acl.app_log, the out-of-scope modules and the extra-argument rule."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from structlog.testing import capture_logs

from emulator import acl, process
from emulator.tracking import ResourceKind

ACL_HBM_MEM = 1


def test_dvpp_malloc_is_huge_page_device_memory(emu: process.EmulatedProcess) -> None:
    """The size is ALIGN_UP(size, 32) + 32, huge pages, 128-byte aligned, charged to the device's totals."""
    assert acl.rt.set_device(0) == 0
    free_before, total, _ = acl.rt.get_mem_info(ACL_HBM_MEM)
    ptr, ret = acl.media.dvpp_malloc(100)
    assert ret == 0 and ptr % 128 == 0
    found = emu.runtime.device_memory(ptr)
    assert found is not None
    info = found[1]
    assert info.alloc_size == 128 + 32 and info.tag == "dvpp" and info.page_kind.name.startswith("HUGE")
    free_after, total_after, _ = acl.rt.get_mem_info(ACL_HBM_MEM)
    assert total_after == total and free_before - free_after == info.charged
    resource = emu.registry.get(ResourceKind.DEVICE_MEMORY, ptr)
    assert resource is not None and resource.tag == "dvpp"
    assert acl.media.dvpp_free(ptr) == 0
    assert acl.rt.get_mem_info(ACL_HBM_MEM)[0] == free_before


def test_dvpp_failures() -> None:
    """Size 0 and a null free are 100000; a free of a freed address is the runtime's bad-free status."""
    assert acl.rt.set_device(0) == 0
    assert acl.media.dvpp_malloc(0) == (0, 100000)
    assert acl.media.dvpp_free(0) == 100000
    ptr, _ = acl.media.dvpp_malloc(64)
    assert acl.media.dvpp_free(ptr) == 0
    assert acl.media.dvpp_free(ptr) == acl.rt.free(ptr) != 0
    assert acl.media.dvpp_malloc(1 << 50)[1] == 207001


def test_dvpp_without_a_device() -> None:
    """No current context: 107002, as for aclrtMalloc."""
    assert acl.media.dvpp_malloc(64) == (0, 107002)


def test_app_log_writes_a_plog_line_with_the_caller() -> None:
    """acl.app_log(level, msg) logs '<tid> <func>:<file>:<line>: "<msg>"' at that level under APP."""
    with capture_logs() as logs:
        assert acl.app_log(acl.constants.ACL_WARNING, "model loaded") is None
        acl.app_log(acl.constants.ACL_ERROR, "x" * 2000)
        acl.app_log(9, "unknown level: nothing")
    assert [e["log_level"] for e in logs] == ["warning", "error"]
    first = logs[0]["event"]
    assert "test_app_log_writes_a_plog_line_with_the_caller:" in first and first.endswith(': "model loaded"')
    assert __file__ in first and logs[0]["where"].startswith("test_acl_media_log_scope.py:")
    assert logs[1]["event"].endswith("...[truncated]") and len(logs[1]["event"].encode()) == 1023


def test_app_log_from_del_at_interpreter_exit() -> None:
    """ACLLite logs from __del__: at interpreter shutdown that must neither raise nor print a traceback."""
    script = textwrap.dedent(
        """
        from emulator import acl

        class Resource:
            def __del__(self):
                acl.app_log(1, "released")

        keep = Resource()
        acl.app_log(3, "started")
        """
    )
    env_done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env={"ASCEND_SLOG_PRINT_TO_STDOUT": "1", "ASCEND_GLOBAL_LOG_LEVEL": "1", "PATH": "/usr/bin:/bin"},
    )
    assert env_done.returncode == 0, env_done.stderr
    assert "Traceback" not in env_done.stderr and "Exception ignored" not in env_done.stderr
    assert '"started"' in env_done.stdout


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda: acl.op.set_model_dir("op_models"), 207000),
        (lambda: acl.op.execute_v2("Add", [], [], [], [], 0, 0), 207000),
        (lambda: acl.op.create_attr(), 0),
        (lambda: acl.mdl.load_from_file("model.om"), (0, 207000)),
        (lambda: acl.mdl.query_size("model.om"), (0, 0, 207000)),
        (lambda: acl.mdl.create_desc(), 0),
        (lambda: acl.media.dvpp_create_channel(0), 207000),
        (lambda: acl.hccl.all_reduce(0, 0, 8, 0, 0, 0, 0), 207000),
    ],
)
def test_out_of_scope_calls_are_feature_not_supported(call: object, expected: object) -> None:
    """Out-of-scope pyACL calls return 207000 in pyACL's shape and say why, instead of AttributeError."""
    assert callable(call)
    assert call() == expected
    msg = acl.get_recent_err_msg()
    assert msg is not None and "is not supported by the emulator" in msg and "EE1005" in msg


def test_out_of_scope_modules_are_not_face_functions() -> None:
    """Private names and the face's own marks stay AttributeError (tools and the parity table probe them)."""
    for name in ("_private", "c_name", "proto"):
        with pytest.raises(AttributeError):
            getattr(acl.mdl, name)


def test_parameterless_wrappers_ignore_extra_arguments() -> None:
    """As in real pyACL: acl.get_soc_name(0), synchronize_device(dev), get_context(dev), finalize(x) … run."""
    assert acl.init() == 0
    assert acl.rt.set_device(0) == 0
    assert acl.get_soc_name(0) == acl.get_soc_name()
    assert acl.get_version(1)[-1] == 0
    assert acl.rt.get_run_mode(0) == acl.rt.get_run_mode()
    assert acl.rt.get_device_count(0) == acl.rt.get_device_count()
    assert acl.rt.get_context(0) == acl.rt.get_context()
    assert acl.rt.synchronize_device(0) == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.finalize(0) == 0


def test_wrappers_with_parameters_still_check_their_count() -> None:
    """Only parameterless wrappers are tolerant: malloc with a third argument is a TypeError."""
    with pytest.raises(TypeError, match=r"acl\.rt\.malloc args parse failed"):
        acl.rt.malloc(64, 0, 0)  # type: ignore[call-arg]


def test_utilization_rate() -> None:
    """A dict of the aclrtUtilizationInfo fields; an out-of-range device is 107001."""
    info, ret = acl.rt.get_device_utilization_rate(0)
    assert ret == 0
    assert info == {"cube_utilization": 0, "vector_utilization": 0, "aicpu_utilization": 0, "memory_utilization": -1}
    assert acl.rt.get_device_utilization_rate(99) == (None, 107001)
