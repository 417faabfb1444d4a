"""The ascend backend's op provider: the aclnn face calling a real libnnopbase / libopapi through ctypes.

No card here: the SDK's own libraries stand in for the card's, acting on an emulated process of
their own (``emulator.testing.card``), with the emulator's pyACL face as the card's pyACL. The
process under test runs the backend as it would on a card: its own engine runs nothing, and
tracking, use-after-destroy reports and the trace are still its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from emulator import acl, aclnn, process
from emulator.config import Settings
from emulator.leaks import leak_report
from emulator.process import EmulatedProcess
from emulator.provider import NativeHandle
from emulator.sdk.build import Sdk
from emulator.status import AclnnStatus
from emulator.testing.card import StandInCard, stand_in_card
from emulator.trace import start_trace, stop_trace
from emulator.tracking import ResourceKind

FLOAT, INT64 = 0, 9  # ACL_FLOAT, ACL_INT64
ND = 2
H2D, D2H = 1, 2
HERE = Path(__file__).name


@dataclass
class OnCard:
    """The process under test (ascend backend) and the card it runs on."""

    proc: EmulatedProcess
    card: StandInCard
    stream: int


@pytest.fixture
def on_card(sdk: Sdk) -> Iterator[OnCard]:
    with stand_in_card() as card, process.fresh(card.backend_settings(sdk.lib64)) as proc:
        assert acl.init() == 0
        assert acl.rt.set_device(0) == 0
        stream, ret = acl.rt.create_stream()
        assert ret == 0
        yield OnCard(proc, card, stream)
        assert acl.rt.destroy_stream(stream) == 0
        assert acl.rt.reset_device(0) == 0
        assert acl.finalize() == 0


def _device(array: np.ndarray) -> int:
    ptr, ret = acl.rt.malloc(max(array.nbytes, 1), 0)
    assert ret == 0
    assert acl.rt.memcpy(ptr, array.nbytes, array.ctypes.data, array.nbytes, H2D) == 0
    return int(ptr)


def _tensor(ptr: int, shape: list[int], dtype: int = FLOAT) -> NativeHandle:
    strides = [int(np.prod(shape[i + 1 :])) for i in range(len(shape))]
    tensor = aclnn.aclCreateTensor(shape, len(shape), dtype, strides, 0, ND, shape, len(shape), ptr)
    assert isinstance(tensor, NativeHandle)
    return tensor


def _read(ptr: int, like: np.ndarray) -> np.ndarray:
    out = np.empty_like(like)
    assert acl.rt.memcpy(out.ctypes.data, out.nbytes, ptr, out.nbytes, D2H) == 0
    return out


def test_add_runs_on_the_card_and_is_tracked_here(on_card: OnCard) -> None:
    a = np.arange(16, dtype=np.float32)
    b = np.linspace(-1, 1, 16, dtype=np.float32)
    ptrs = [_device(a), _device(b), _device(np.zeros(16, np.float32))]
    x, y, out = (_tensor(p, [4, 4]) for p in ptrs)
    alpha = aclnn.aclCreateScalar(2.5, FLOAT)
    workspace, executor, status = aclnn.aclnnAddGetWorkspaceSize(x, y, alpha, out)
    assert (workspace, status) == (0, 0) and isinstance(executor, NativeHandle)
    assert aclnn.aclnnAdd(0, workspace, executor, on_card.stream) == 0
    assert acl.rt.synchronize_stream(on_card.stream) == 0
    np.testing.assert_allclose(_read(ptrs[2], a), a + np.float32(2.5) * b, rtol=1e-6)

    # the card's engine ran the op; this process's engine ran nothing and called nothing back
    assert on_card.card.process.registry.created[ResourceKind.EXECUTOR] == 1
    assert on_card.card.process.registry.created[ResourceKind.TILING_PARSE] >= 1
    assert on_card.proc.registry.created[ResourceKind.TILING_PARSE] == 0
    # here: the executor was registered by phase 1 and released by phase 2; sites are this file's
    assert on_card.proc.registry.created[ResourceKind.EXECUTOR] == 1
    assert on_card.proc.registry.count(ResourceKind.EXECUTOR) == 0
    tensors = on_card.proc.registry.live(ResourceKind.TENSOR)
    assert len(tensors) == 3 and all(str(r.site).startswith(f"{HERE}:") or HERE in str(r.site) for r in tensors)
    for handle in (x, y, out):
        assert aclnn.aclDestroyTensor(handle) == 0
    assert aclnn.aclDestroyScalar(alpha) == 0
    for ptr in ptrs:
        assert acl.rt.free(ptr) == 0
    assert on_card.proc.registry.count(ResourceKind.TENSOR) == 0
    assert on_card.card.process.registry.count(ResourceKind.TENSOR) == 0


def test_a_leaked_tensor_is_reported_with_its_python_site(on_card: OnCard) -> None:
    ptr = _device(np.ones(4, np.float32))
    leaked = _tensor(ptr, [4])  # the line the report names
    line = _line_of("leaked = _tensor(ptr, [4])")
    report = leak_report(on_card.proc)
    [res] = [r for r in report.direct if r.kind is ResourceKind.TENSOR]
    assert res.key == leaked.address
    assert "_tensor" in str(res.site) or f"{HERE}:{line}" in " ".join(str(f) for f in res.site.stack)
    assert aclnn.aclDestroyTensor(leaked) == 0
    assert acl.rt.free(ptr) == 0


def _line_of(text: str) -> int:
    source = Path(__file__).read_text().splitlines()
    return next(i for i, line in enumerate(source, 1) if text in line and "_line_of" not in line)


def test_a_double_destroy_is_reported_here_and_never_reaches_the_library(on_card: OnCard) -> None:
    tensor = _tensor(0, [2])
    assert aclnn.aclDestroyTensor(tensor) == 0
    assert aclnn.aclDestroyTensor(tensor) == 0  # reported, returns 0 as on the simulated backend
    [diagnostic] = list(on_card.proc.diagnostics)
    assert diagnostic.api == "aclDestroyTensor" and "double destroy of aclTensor" in diagnostic.message
    assert diagnostic.created is not None and diagnostic.destroyed is not None
    assert list(on_card.card.process.diagnostics) == []  # the card's library saw one destroy


def test_a_destroyed_tensor_in_phase_1_is_refused_and_reported(on_card: OnCard) -> None:
    x = _tensor(0, [2])
    out = _tensor(0, [2])
    assert aclnn.aclDestroyTensor(x) == 0
    workspace, executor, status = aclnn.aclnnAbsGetWorkspaceSize(x, out)
    assert (workspace, executor, status) == (0, None, AclnnStatus.ACLNN_ERR_PARAM_NULLPTR)
    [diagnostic] = list(on_card.proc.diagnostics)
    assert "use of a destroyed aclTensor" in diagnostic.message
    assert on_card.card.process.registry.created[ResourceKind.EXECUTOR] == 0
    assert aclnn.aclDestroyTensor(out) == 0


def test_a_failed_call_gives_the_libraries_status_and_message(on_card: OnCard) -> None:
    out = _tensor(0, [2])
    _, executor, status = aclnn.aclnnAbsGetWorkspaceSize(None, out)
    assert (executor, status) == (None, AclnnStatus.ACLNN_ERR_PARAM_NULLPTR)
    message = acl.get_recent_err_msg()
    assert message is not None and "EZ1001" in message and "self" in message
    assert acl.get_recent_err_msg() is None  # read and cleared, here and on the card
    assert aclnn.aclDestroyTensor(out) == 0


def test_a_repeatable_executor_lives_until_destroyed(on_card: OnCard) -> None:
    a = np.array([-1.5, 2.0, -3.0, 4.0], np.float32)
    src, dst = _device(a), _device(np.zeros(4, np.float32))
    x, out = _tensor(src, [4]), _tensor(dst, [4])
    workspace, executor, status = aclnn.aclnnAbsGetWorkspaceSize(x, out)
    assert status == 0 and aclnn.aclSetAclOpExecutorRepeatable(executor) == 0
    for _ in range(2):
        assert aclnn.aclnnAbs(0, workspace, executor, on_card.stream) == 0
    assert acl.rt.synchronize_stream(on_card.stream) == 0
    np.testing.assert_array_equal(_read(dst, a), np.abs(a))
    assert on_card.proc.registry.count(ResourceKind.EXECUTOR) == 1
    assert aclnn.aclDestroyAclOpExecutor(executor) == 0
    assert on_card.proc.registry.count(ResourceKind.EXECUTOR) == 0
    assert aclnn.aclnnAbs(0, workspace, executor, on_card.stream) == AclnnStatus.ACLNN_ERR_PARAM_NULLPTR
    assert "already freed" in list(on_card.proc.diagnostics)[-1].message
    for handle in (x, out):
        assert aclnn.aclDestroyTensor(handle) == 0
    for ptr in (src, dst):
        assert acl.rt.free(ptr) == 0


def test_lists_own_their_members_and_getters_read_the_library(on_card: OnCard) -> None:
    members = [_tensor(0, [2, 3]), _tensor(0, [5])]
    tensors = aclnn.aclCreateTensorList(members, 2)
    assert isinstance(tensors, NativeHandle)
    assert aclnn.aclGetTensorListSize(tensors) == (2, 0)
    assert aclnn.aclGetViewShape(members[0]) == ([2, 3], 0)
    assert aclnn.aclGetViewStrides(members[0]) == ([3, 1], 0)
    assert aclnn.aclGetDataType(members[1]) == (FLOAT, 0)
    report = leak_report(on_card.proc)
    runtime = (ResourceKind.DEVICE, ResourceKind.STREAM)  # the fixture's
    assert {r.kind for r in report.direct if r.kind not in runtime} == {ResourceKind.TENSOR_LIST}
    assert len(report.indirect) == 2  # the members go with their list
    assert aclnn.aclDestroyTensorList(tensors) == 0
    assert {r.kind for r in on_card.proc.registry.live()} == set(runtime)
    assert not members[0].alive and not members[1].alive


def test_arrays_and_scalars_cross_as_c_reads_them(on_card: OnCard) -> None:
    dims = aclnn.aclCreateIntArray([3, -1, 7], 3)
    assert aclnn.aclGetIntArraySize(dims) == (3, 0)
    floats = aclnn.aclCreateFloatArray([0.5, 1.5], 2)
    assert aclnn.aclGetFloatArraySize(floats) == (2, 0)
    scalar = aclnn.aclCreateScalar(np.int64(-5), INT64)
    assert isinstance(scalar, NativeHandle)
    with pytest.raises(TypeError, match="args parse failed"):
        aclnn.aclCreateIntArray("3", 1)
    with pytest.raises(TypeError, match="aclTensor"):
        aclnn.aclGetViewShape(dims)  # an aclIntArray where a tensor goes: what a compiler refuses
    for destroy, handle in ((aclnn.aclDestroyIntArray, dims), (aclnn.aclDestroyFloatArray, floats),
                            (aclnn.aclDestroyScalar, scalar)):  # fmt: skip
        assert destroy(handle) == 0


def test_the_trace_records_the_calls_made_on_the_card(on_card: OnCard) -> None:
    tracer = start_trace(on_card.proc)
    tensor = _tensor(0, [2])
    assert aclnn.aclDestroyTensor(tensor) == 0
    stop_trace(on_card.proc)
    calls = [(e.name, e.status) for e in tracer.events if e.kind == "api"]
    assert ("aclCreateTensor", None) in calls and ("aclDestroyTensor", 0) in calls


def test_without_libraries_every_call_fails_with_a_reason(tmp_path: Path) -> None:
    settings = Settings.from_env().model_copy(update={"backend": "ascend", "opapi_libs": (), "home_path": None})
    with process.fresh(settings):
        assert aclnn.aclCreateTensor([2], 1, FLOAT, None, 0, ND, [2], 1, 0) is None
        message = acl.get_recent_err_msg()
        assert message is not None and "OPBASE_EMU_OPAPI_LIBS" in message
        assert aclnn.aclDestroyTensor(None) == AclnnStatus.ACLNN_ERR_INNER
    missing = tmp_path / "libopapi.so"
    with process.fresh(settings.model_copy(update={"opapi_libs": (missing,)})):
        assert aclnn.aclnnFinalize() == AclnnStatus.ACLNN_ERR_INNER
        assert str(missing) in (acl.get_recent_err_msg() or "")
