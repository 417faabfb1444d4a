"""Leak reports: every resource kind named with the file:line that created it, indirect leaks, caches,
suppressions, baselines, the summary line, the finalize warnings, tracking off and the exit check."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from structlog.testing import capture_logs

from emulator import acl, aclnn, process
from emulator.config import Settings
from emulator.leaks import LEAK_EXIT_CODE, LeakReport, Suppressions, exit_check, leak_report, snapshot, warn_at
from emulator.npu import Session
from emulator.tracking import CACHE_KINDS, Resource, ResourceKind

THIS_FILE = __file__
THIS_NAME = Path(THIS_FILE).name
REPO = Path(__file__).resolve().parents[2]


def _next_line() -> int:
    """The line after the caller's: the statement whose creation site a test checks."""
    return sys._getframe(1).f_lineno + 1


def _site(line: int) -> str:
    return f"{THIS_FILE}:{line}"


def _one(resources: list[Resource], kind: str) -> Resource:
    found = [r for r in resources if r.kind == kind]
    assert len(found) == 1, (kind, found)
    return found[0]


TENSOR_ARGS = ([4], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [4], 1, 0)


def _tensor(ptr: int = 0) -> object:
    """A 4-float tensor descriptor (site #0 is this helper, #1 its caller)."""
    return aclnn.aclCreateTensor([4], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [4], 1, ptr)


@pytest.fixture
def npu(emu: process.EmulatedProcess) -> Session:
    """acl.init and aclnnInit by the test itself — the owner, which alone calls aclnnFinalize — and an
    emulator.npu session borrowing them for device 0, a stream and the tensors. ``npu.close()`` is
    the teardown: it destroys the tensors, frees their memory, destroys the stream and resets the
    device, and leaves aclnn (its AI CPU task spaces and tiling caches) to the owner."""
    assert acl.init() == 0
    assert aclnn.aclnnInit(None) == 0
    return Session().open()


# -- every kind names the line that created it ---------------------------------------------------
def test_device_memory_leak_names_line_size_and_tag(emu: process.EmulatedProcess) -> None:
    """A leaked aclrtMalloc is a direct device-memory leak with its size, address, [user] tag and this line."""
    assert acl.rt.set_device(0) == 0
    baseline = snapshot()
    line = _next_line()
    ptr, ret = acl.rt.malloc(100, 0)
    assert ret == 0
    report = leak_report(since=baseline)
    res = _one(report.direct, "device_memory")
    assert (res.key, res.size, res.tag, str(res.site)) == (ptr, 100, "user", _site(line))
    assert report.device_bytes == 100
    text = report.render()
    assert f"Direct leak of device memory 100 byte(s) at {ptr:#x} [user], created at:" in text
    assert f"    #0 {_site(line)} in test_device_memory_leak_names_line_size_and_tag" in text


def test_runtime_handles_name_their_lines(emu: process.EmulatedProcess) -> None:
    """Host memory, stream, event, context and a device set but never reset name the line that made them."""
    line_device = _next_line()
    assert acl.rt.set_device(0) == 0
    line_host = _next_line()
    host, _ = acl.rt.malloc_host(64)
    line_stream = _next_line()
    stream, _ = acl.rt.create_stream()
    line_event = _next_line()
    event, _ = acl.rt.create_event()
    line_context = _next_line()
    context, _ = acl.rt.create_context(1)
    report = leak_report()
    expected = {
        "device": (0, line_device),
        "host_memory": (host, line_host),
        "stream": (stream, line_stream),
        "event": (event, line_event),
        "context": (context, line_context),
    }
    assert sorted(r.kind for r in report.direct) == sorted(expected)
    for kind, (key, line) in expected.items():
        res = _one(report.direct, kind)
        assert (res.key, str(res.site)) == (key, _site(line)), kind
    assert _one(report.direct, "host_memory").size == 64
    text = report.render()
    assert "-- runtime (acl.rt): 5" in text
    assert "Direct leak of device at 0x0 [primary context + default stream], created at:" in text
    assert f"Direct leak of host memory 64 byte(s) at {host:#x}, created at:" in text
    assert f"Direct leak of stream at {stream:#x}, created at:" in text
    assert (
        report.summary()
        == "SUMMARY: opbase-emu: 5 resource(s) leaked (5 direct, 0 indirect); 0 byte(s) of device memory"
    )


def test_aclnn_objects_name_their_lines(emu: process.EmulatedProcess) -> None:
    """Tensor, scalar, int/float/bool arrays, tensor list and scalar list each name their creating line."""
    lines: dict[str, int] = {}
    lines["tensor"] = _next_line()
    tensor = aclnn.aclCreateTensor(*TENSOR_ARGS)
    lines["scalar"] = _next_line()
    scalar = aclnn.aclCreateScalar(1.5, aclnn.ACL_FLOAT)
    lines["int_array"] = _next_line()
    ints = aclnn.aclCreateIntArray([1, 2, 3], 3)
    lines["float_array"] = _next_line()
    floats = aclnn.aclCreateFloatArray([0.5], 1)
    lines["bool_array"] = _next_line()
    bools = aclnn.aclCreateBoolArray([True, False], 2)
    lines["tensor_list"] = _next_line()
    tensors = aclnn.aclCreateTensorList([], 0)
    lines["scalar_list"] = _next_line()
    scalars = aclnn.aclCreateScalarList([], 0)
    handles = {
        "tensor": tensor,
        "scalar": scalar,
        "int_array": ints,
        "float_array": floats,
        "bool_array": bools,
        "tensor_list": tensors,
        "scalar_list": scalars,
    }
    report = leak_report()
    assert report.indirect == []
    assert sorted(r.kind for r in report.direct) == sorted(handles)
    for kind, handle in handles.items():
        res = _one(report.direct, kind)
        assert handle is not None and res.key == handle.key, kind  # type: ignore[attr-defined]
        assert res.site.top is not None and res.site.top.func == "test_aclnn_objects_name_their_lines"
        assert str(res.site) == _site(lines[kind]), kind
    text = report.render()
    assert "-- aclnn objects: 7" in text
    order = [text.index(f"Direct leak of {kind.replace('_', ' ')} at") for kind in handles]
    assert order == sorted(order)  # grouped in the layer's order: tensor, scalar, arrays, lists


def test_members_of_a_leaked_tensor_list_are_indirect(emu: process.EmulatedProcess) -> None:
    """Members of a leaked tensor list are indirect leaks attributed to the list; the list is the direct one."""
    line_a = _next_line()
    a = aclnn.aclCreateTensor(*TENSOR_ARGS)
    line_b = _next_line()
    b = aclnn.aclCreateTensor(*TENSOR_ARGS)
    line_list = _next_line()
    tensors = aclnn.aclCreateTensorList([a, b], 2)
    report = leak_report()
    assert [(r.kind, r.key, str(r.site)) for r in report.direct] == [("tensor_list", tensors.key, _site(line_list))]
    members = {r.key: r for r in report.indirect}
    assert set(members) == {a.key, b.key}  # type: ignore[attr-defined]
    assert str(members[a.key].site) == _site(line_a)  # type: ignore[attr-defined]
    assert str(members[b.key].site) == _site(line_b)  # type: ignore[attr-defined]
    assert all(r.owner == ("tensor_list", tensors.key) for r in report.indirect)
    text = report.render()
    owner = f"(member of tensor list {tensors.key:#x})"
    assert f"Indirect leak of tensor at {a.key:#x} (shape [4], ACL_FLOAT, ND) {owner}, created at:" in text  # type: ignore[attr-defined]
    assert report.summary().startswith("SUMMARY: opbase-emu: 3 resource(s) leaked (1 direct, 2 indirect);")
    assert aclnn.aclDestroyTensorList(tensors) == 0
    assert not leak_report()  # destroying the list freed its members too


def test_members_of_a_leaked_scalar_list_are_indirect(emu: process.EmulatedProcess) -> None:
    """A scalar list's members are indirect leaks owned by the list."""
    line_scalar = _next_line()
    scalar = aclnn.aclCreateScalar(3, aclnn.ACL_INT32)
    scalars = aclnn.aclCreateScalarList([scalar], 1)
    report = leak_report()
    assert [r.kind for r in report.direct] == ["scalar_list"]
    (member,) = report.indirect
    assert (member.kind, member.key, member.owner) == ("scalar", scalar.key, ("scalar_list", scalars.key))
    assert str(member.site) == _site(line_scalar)
    owner = f"(member of scalar list {scalars.key:#x})"
    assert f"Indirect leak of scalar at {scalar.key:#x} (ACL_INT32 3) {owner}" in report.render()


def test_destroying_the_list_releases_its_members(emu: process.EmulatedProcess) -> None:
    """A list destroyed before the report takes its members with it: nothing is left to report."""
    tensors = aclnn.aclCreateTensorList([_tensor(), _tensor()], 2)
    assert aclnn.aclDestroyTensorList(tensors) == 0
    report = leak_report()
    assert (report.direct, report.indirect, report.created) == ([], [], 3)
    assert report.summary() == "SUMMARY: opbase-emu: no leaks (3 resources created, all released)"


def test_leaks_whose_wrappers_were_dropped_are_all_reported(emu: process.EmulatedProcess) -> None:
    """Three tensors leaked without keeping their wrappers are three leaks, as three leaked C objects would be."""
    for _ in range(3):
        _tensor()
    assert emu.registry.created["tensor"] == 3
    assert len(leak_report().direct) == 3


def test_a_new_leak_is_not_hidden_by_a_dropped_baseline_leak(emu: process.EmulatedProcess) -> None:
    """A tensor leaked after the baseline is reported even when a baseline tensor's wrapper was dropped."""
    _tensor()
    baseline = snapshot()
    _tensor()
    assert len(leak_report(since=baseline).direct) == 1


# -- the op engine ----------------------------------------------------------------------------
def test_executor_of_phase1_without_phase2_leaks(npu: Session) -> None:
    """Phase 1 without phase 2 leaks the executor, tagged with its API and attributed to the phase-1 line."""
    x = npu.tensor(np.ones(4, np.float32), aclnn.ACL_FLOAT).handle
    out = npu.tensor(np.zeros(4, np.float32), aclnn.ACL_FLOAT).handle
    alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
    baseline = snapshot()
    line = _next_line()
    _, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x, x, alpha, out)
    assert ret == 0
    report = leak_report(since=baseline)
    res = _one(report.direct, "executor")
    assert (res.key, res.tag, str(res.site)) == (executor.key, "aclnnAdd", _site(line))
    assert report.leaked == [res]
    assert "-- op engine: 1" in report.render()
    assert f"Direct leak of executor at {executor.key:#x} [aclnnAdd], created at:" in report.render()
    assert aclnn.aclDestroyScalar(alpha) == 0


def test_repeatable_executor_never_destroyed_leaks(npu: Session) -> None:
    """A repeatable executor survives phase 2 and leaks from its phase-1 line until aclDestroyAclOpExecutor."""
    x = npu.tensor(np.ones(4, np.float32), aclnn.ACL_FLOAT).handle
    out = npu.tensor(np.zeros(4, np.float32), aclnn.ACL_FLOAT).handle
    alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
    baseline = snapshot()
    line = _next_line()
    workspace_size, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x, x, alpha, out)
    assert (workspace_size, ret) == (0, 0)
    assert aclnn.aclSetAclOpExecutorRepeatable(executor) == 0
    assert aclnn.aclnnAdd(0, 0, executor, npu.stream) == 0
    assert aclnn.aclnnAdd(0, 0, executor, npu.stream) == 0
    assert acl.rt.synchronize_stream(npu.stream) == 0
    report = leak_report(since=baseline)
    res = _one(report.direct, "executor")
    assert (res.key, str(res.site)) == (executor.key, _site(line))
    assert [r.kind for r in report.leaked] == ["executor"]
    assert aclnn.aclDestroyAclOpExecutor(executor) == 0
    assert not leak_report(since=baseline)
    assert aclnn.aclDestroyScalar(alpha) == 0


def test_aicpu_task_and_space_leak_without_aclnn_finalize(npu: Session) -> None:
    """SearchSorted's AI CPU task and task space are caches while the program runs (aclnnFinalize frees
    them, as the pytest plugin has always counted them); at program end they leak from the phase-1 line."""
    seq = npu.tensor(np.array([1.0, 2.0, 3.0], np.float32), aclnn.ACL_FLOAT).handle
    values = npu.tensor(np.array([2.5], np.float32), aclnn.ACL_FLOAT).handle
    index = npu.tensor(np.zeros(1, np.int64), aclnn.ACL_INT64).handle
    baseline = snapshot()
    line = _next_line()
    workspace_size, executor, ret = aclnn.aclnnSearchSortedGetWorkspaceSize(seq, values, False, False, None, index)
    assert ret == 0
    assert aclnn.aclnnSearchSorted(0, workspace_size, executor, npu.stream) == 0
    assert acl.rt.synchronize_stream(npu.stream) == 0
    npu.close()
    running = leak_report(since=baseline)
    assert not running
    assert sorted(r.kind for r in running.caches) == ["aicpu_task", "aicpu_task_space"]
    assert running.render().splitlines() == [
        "-- caches (not leaks): 1 AI CPU task space(s), 1 AI CPU task(s)",
        running.summary(),
    ]
    report = leak_report(since=baseline, at_exit=True)
    assert report.caches == []
    assert sorted(r.kind for r in report.direct) == ["aicpu_task", "aicpu_task_space"]
    for res in report.direct:
        assert (res.tag, str(res.site)) == ("SearchSorted", _site(line)), res.kind
    text = report.render()
    assert "-- op engine: 2" in text
    assert "Direct leak of aicpu task space at" in text and "[SearchSorted]" in text
    assert aclnn.aclnnFinalize() == 0
    assert not leak_report(since=baseline)
    assert not leak_report(since=baseline, at_exit=True)


def test_cache_kinds_are_exactly_what_aclnn_finalize_frees(npu: Session) -> None:
    """With every user object released, what an AI Core and an AI CPU op leave alive is CACHE_KINDS, each
    counted as a cache (by the report and so by the plugin); aclnnFinalize frees all of it."""
    x = npu.tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32), aclnn.ACL_FLOAT).handle
    out = npu.tensor(np.zeros(4, np.float32), aclnn.ACL_FLOAT).handle
    index = npu.tensor(np.zeros(4, np.int64), aclnn.ACL_INT64).handle
    alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
    baseline = snapshot()
    workspace_size, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x, x, alpha, out)
    assert ret == 0 and aclnn.aclnnAdd(0, workspace_size, executor, npu.stream) == 0
    workspace_size, executor, ret = aclnn.aclnnSearchSortedGetWorkspaceSize(x, out, False, False, None, index)
    assert ret == 0 and aclnn.aclnnSearchSorted(0, workspace_size, executor, npu.stream) == 0
    assert acl.rt.synchronize_stream(npu.stream) == 0
    assert aclnn.aclDestroyScalar(alpha) == 0
    npu.close()
    alive = process.current().registry.live()
    assert {r.kind for r in alive} == CACHE_KINDS
    assert all(type(r.kind) is ResourceKind for r in alive)
    report = leak_report(since=baseline)
    assert not report
    assert {r.kind for r in report.caches} == CACHE_KINDS
    assert aclnn.aclnnFinalize() == 0
    assert not [r for r in process.current().registry.live() if r.kind in CACHE_KINDS]


def test_tiling_parse_contexts_are_caches_not_leaks(npu: Session) -> None:
    """An AI Core op's tiling-parse context is counted in report.caches, never as a leak, until aclnnFinalize."""
    x = npu.tensor(np.ones(4, np.float32), aclnn.ACL_FLOAT).handle
    out = npu.tensor(np.zeros(4, np.float32), aclnn.ACL_FLOAT).handle
    alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
    workspace_size, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x, x, alpha, out)
    assert ret == 0
    line = _next_line()
    assert aclnn.aclnnAdd(0, workspace_size, executor, npu.stream) == 0
    assert acl.rt.synchronize_stream(npu.stream) == 0
    assert aclnn.aclDestroyScalar(alpha) == 0
    npu.close()
    report = leak_report()
    assert not report
    assert report.leaked == []
    (cache,) = report.caches
    assert (cache.kind, str(cache.site)) == ("tiling_parse", _site(line))
    assert report.render().splitlines() == [
        "-- caches (not leaks): 1 tiling-parse context(s)",
        report.summary(),
    ]
    assert report.summary().startswith("SUMMARY: opbase-emu: no leaks (")
    assert aclnn.aclnnFinalize() == 0
    assert leak_report().caches == []


# -- suppressions, baselines, the summary --------------------------------------------------------
def _leaky_helper() -> int:
    ptr, ret = acl.rt.malloc(32, 0)
    assert ret == 0
    return ptr


def _write_suppressions(path: Path, line_suppressed: int) -> Path:
    path.write_text(
        "# opbase-emu leak suppressions\n"
        "\n"
        f"leak:{THIS_NAME}:{line_suppressed} in\n"  # a frame of the test itself (frame #1 of the helper's leak)
        "leak:in _no_such_function\n"
        "kind:host_memory\n"
    )
    return path


def test_suppressions_file_removes_entries_and_counts_them(emu: process.EmulatedProcess, tmp_path: Path) -> None:
    """leak:<frame pattern> and kind:<kind> rules move entries to suppressed; the summary counts them."""
    assert acl.rt.set_device(0) == 0
    baseline = snapshot()
    line_suppressed = _next_line()
    suppressed_ptr = _leaky_helper()
    host, _ = acl.rt.malloc_host(16)
    line_kept = _next_line()
    kept, _ = acl.rt.malloc(64, 0)
    rules = Suppressions.from_file(_write_suppressions(tmp_path / "supp.txt", line_suppressed))
    assert rules.patterns == (f"{THIS_NAME}:{line_suppressed} in", "in _no_such_function")
    assert rules.kinds == frozenset({"host_memory"})
    report = leak_report(since=baseline, suppressions=rules)
    assert [(r.kind, r.key, str(r.site)) for r in report.direct] == [("device_memory", kept, _site(line_kept))]
    assert sorted((r.kind, r.key) for r in report.suppressed) == sorted(
        [("device_memory", suppressed_ptr), ("host_memory", host)]
    )
    assert report.summary() == (
        "SUMMARY: opbase-emu: 1 resource(s) leaked (1 direct, 0 indirect); 64 byte(s) of device memory; 2 suppressed"
    )
    assert f"{suppressed_ptr:#x}" not in report.render()


def test_suppressions_come_from_the_settings_file(tmp_path: Path) -> None:
    """With Settings(suppressions=FILE) leak_report applies the file without being handed the rules."""
    path = tmp_path / "supp.txt"
    path.write_text("kind:tensor\n")
    with process.fresh(Settings(suppressions=path, log_dir=tmp_path)) as proc:
        _tensor()
        report = leak_report(proc)
        assert (report.direct, [r.kind for r in report.suppressed]) == ([], ["tensor"])
        assert report.summary() == "SUMMARY: opbase-emu: no leaks (1 resources created, all released); 1 suppressed"
        assert [r.kind for r in leak_report(proc, suppressions=Suppressions()).direct] == ["tensor"]


def test_missing_suppressions_file_suppresses_nothing(tmp_path: Path) -> None:
    """A suppressions path that does not exist gives empty rules."""
    rules = Suppressions.from_file(tmp_path / "absent.txt")
    assert (rules.patterns, rules.kinds) == ((), frozenset())
    assert Suppressions.from_file(None) == Suppressions()


def test_since_baseline_excludes_what_was_alive(emu: process.EmulatedProcess) -> None:
    """since= drops everything alive in the baseline; only what was created after it is reported."""
    old = _tensor()
    baseline = snapshot()
    assert baseline == {("tensor", old.key)}  # type: ignore[attr-defined]
    line = _next_line()
    new = _tensor()
    report = leak_report(since=baseline)
    assert [(r.key, str(r.site.stack[1])) for r in report.direct] == [
        (new.key, f"{_site(line)} in test_since_baseline_excludes_what_was_alive")  # type: ignore[attr-defined]
    ]
    assert {r.key for r in leak_report(since=[]).direct} == {old.key, new.key}  # type: ignore[attr-defined]
    assert not leak_report(since=snapshot())


def test_summary_line_format(emu: process.EmulatedProcess) -> None:
    """The summary counts resources, direct and indirect, and device bytes in the documented format."""
    assert acl.rt.set_device(0) == 0
    baseline = snapshot()
    acl.rt.malloc(100, 0)
    acl.rt.malloc(28, 0)
    tensors = aclnn.aclCreateTensorList([_tensor()], 1)
    report = leak_report(since=baseline)
    expected = "SUMMARY: opbase-emu: 4 resource(s) leaked (3 direct, 1 indirect); 128 byte(s) of device memory"
    assert report.summary() == expected
    lines = report.render().splitlines()
    assert lines[0] == "==opbase-emu== ERROR: LeakSanitizer-style report: resources still alive"
    assert lines[-1] == expected
    assert bool(report) and len(report.leaked) == 4
    assert report.indirect[0].owner == ("tensor_list", tensors.key)
    empty = LeakReport(created=7)
    assert empty.summary() == "SUMMARY: opbase-emu: no leaks (7 resources created, all released)"
    assert empty.render() == empty.summary()


# -- warnings at the finalize calls -------------------------------------------------------------
def test_aclnn_finalize_warns_about_live_aclnn_objects(emu: process.EmulatedProcess) -> None:
    """aclnnFinalize logs leaks.alive_at_finalize naming what is still alive and the first one's line."""
    assert aclnn.aclnnInit(None) == 0
    line = _next_line()
    tensor = aclnn.aclCreateTensor(*TENSOR_ARGS)
    ints = aclnn.aclCreateIntArray([1], 1)
    with capture_logs() as logs:
        assert aclnn.aclnnFinalize() == 0
    warnings = [e for e in logs if e["event"] == "leaks.alive_at_finalize"]
    assert len(warnings) == 1
    warning = warnings[0]
    assert warning["log_level"] == "warning"
    assert (warning["stage"], warning["count"], warning["kinds"]) == ("aclnnFinalize", 2, ["int_array", "tensor"])
    assert warning["first"] == f"tensor created at {_site(line)}"
    assert tensor is not None and ints is not None


def test_acl_finalize_warns_about_live_runtime_resources(emu: process.EmulatedProcess) -> None:
    """aclFinalize logs leaks.alive_at_finalize for a device never reset and its stream."""
    assert acl.init() == 0
    line = _next_line()
    assert acl.rt.set_device(0) == 0
    acl.rt.create_stream()
    with capture_logs() as logs:
        assert acl.finalize() == 0
    warnings = [e for e in logs if e["event"] == "leaks.alive_at_finalize"]
    assert [(w["stage"], w["count"], w["kinds"]) for w in warnings] == [("aclFinalize", 2, ["device", "stream"])]
    assert warnings[0]["first"] == f"device created at {_site(line)}"


def test_warn_at_is_silent_when_nothing_is_alive(emu: process.EmulatedProcess) -> None:
    """With nothing alive of a stage's kinds warn_at logs nothing and returns 0; runtime leaks don't count for aclnn."""
    assert acl.rt.set_device(0) == 0
    with capture_logs() as logs:
        assert warn_at("aclnnFinalize") == 0
        assert warn_at("aclFinalize") == 1
    assert [(e["event"], e["stage"]) for e in logs] == [("leaks.alive_at_finalize", "aclFinalize")]


# -- tracking off --------------------------------------------------------------------------------
def test_tracking_off_registers_nothing(tmp_path: Path) -> None:
    """Settings(tracking=False): the calls still work, nothing is registered, and the report says tracking is off."""
    with process.fresh(Settings(tracking=False, log_dir=tmp_path)) as proc:
        assert acl.rt.set_device(0) == 0
        ptr, ret = acl.rt.malloc(64, 0)
        assert ret == 0 and ptr != 0
        assert acl.rt.create_stream()[1] == 0
        assert _tensor(ptr) is not None
        assert proc.registry.enabled is False
        assert proc.registry.live() == []
        assert sum(proc.registry.created.values()) == 0
        report = leak_report(proc)
        assert not report
        expected = "SUMMARY: opbase-emu: tracking is off (OPBASE_EMU_TRACKING=0): nothing was recorded, leaks unknown"
        assert report.summary() == expected  # never "no leaks" when nothing could be seen
        assert warn_at("aclFinalize", proc) == 0


# -- the exit check ---------------------------------------------------------------------------
LEAKY_SCRIPT = """\
from emulator import acl
assert acl.rt.set_device(0) == 0
ptr, ret = acl.rt.malloc(256, 0)
assert acl.rt.reset_device(0) == 0
print("script done")
"""
CLEAN_SCRIPT = """\
from emulator import acl
assert acl.rt.set_device(0) == 0
ptr, ret = acl.rt.malloc(256, 0)
assert acl.rt.free(ptr) == 0
assert acl.rt.reset_device(0) == 0
print("script done")
"""


@pytest.fixture(scope="module")
def exit_runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, subprocess.CompletedProcess[str]]]:
    """The leaky and clean scripts with OPBASE_EMU_LEAK_CHECK=1, and the leaky one without it, run in parallel."""
    root = tmp_path_factory.mktemp("exit_check")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPBASE_EMU_", "ASCEND_"))}
    env |= {"PYTHONPATH": str(REPO), "ASCEND_PROCESS_LOG_PATH": str(root / "log")}
    runs = {
        "leaky": ("leaky.py", LEAKY_SCRIPT, {"OPBASE_EMU_LEAK_CHECK": "1"}),
        "clean": ("clean.py", CLEAN_SCRIPT, {"OPBASE_EMU_LEAK_CHECK": "1"}),
        "unchecked": ("unchecked.py", LEAKY_SCRIPT, {}),
    }
    procs = {}
    for name, (filename, text, extra) in runs.items():
        script = root / filename
        script.write_text(text)
        procs[name] = subprocess.Popen(
            [sys.executable, str(script)],
            cwd=root,
            env=env | extra,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    results = {}
    for name, proc in procs.items():
        out, err = proc.communicate(timeout=60)
        results[name] = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    yield results


def test_exit_check_fails_a_leaking_script_with_23(exit_runs: dict[str, subprocess.CompletedProcess[str]]) -> None:
    """OPBASE_EMU_LEAK_CHECK=1: a script that leaks a malloc exits 23 with the report (script:line) on stderr."""
    run = exit_runs["leaky"]
    assert run.returncode == LEAK_EXIT_CODE == 23, run.stderr
    assert run.stdout == "script done\n"
    script = run.args[1]
    assert "==opbase-emu== ERROR: LeakSanitizer-style report: resources still alive" in run.stderr
    assert "Direct leak of device memory 256 byte(s) at 0x" in run.stderr
    assert f"    #0 {script}:3 in <module>" in run.stderr
    expected = "SUMMARY: opbase-emu: 1 resource(s) leaked (1 direct, 0 indirect); 256 byte(s) of device memory"
    assert run.stderr.rstrip().endswith(expected)


def test_exit_check_passes_a_clean_script(exit_runs: dict[str, subprocess.CompletedProcess[str]]) -> None:
    """OPBASE_EMU_LEAK_CHECK=1: a clean script exits 0 and prints only the no-leaks summary."""
    run = exit_runs["clean"]
    assert run.returncode == 0, run.stderr
    assert run.stdout == "script done\n"
    assert run.stderr.strip() == "SUMMARY: opbase-emu: no leaks (2 resources created, all released)"


def test_no_exit_check_without_the_variable(exit_runs: dict[str, subprocess.CompletedProcess[str]]) -> None:
    """Without OPBASE_EMU_LEAK_CHECK the same leaking script exits 0 and prints no report."""
    run = exit_runs["unchecked"]
    assert (run.returncode, run.stdout, run.stderr) == (0, "script done\n", "")


def test_exit_check_in_process_exits_23(emu: process.EmulatedProcess, monkeypatch: pytest.MonkeyPatch) -> None:
    """exit_check ends the process with os._exit(23) when something leaked, and returns when clean."""
    codes: list[int] = []
    monkeypatch.setattr(os, "_exit", codes.append)
    monkeypatch.delattr(sys, "last_value", raising=False)  # pytest leaves it after an earlier test's failure
    exit_check(emu)
    assert codes == []
    assert acl.rt.set_device(0) == 0
    exit_check(emu)
    assert codes == [23]


def test_exit_check_in_process_keeps_the_programs_failure(
    emu: process.EmulatedProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A program ending with its own non-zero code (noted as sys.exit or the C exit noted it) keeps it: no os._exit."""
    codes: list[int] = []
    monkeypatch.setattr(os, "_exit", codes.append)
    assert acl.rt.set_device(0) == 0
    emu.exit_status = 4
    exit_check(emu)
    assert codes == []
