"""Kernel launches: SPMD blocks, wrong tilings, UB overflow, debug-kernel mode and shape-only runs.

A launch runs the op's kernel with the block dim its tiling chose, aclnnInit's config can switch
debug-kernel mode on, and the device model holds: new device memory is poisoned (0xFF), a block
that declares more unified buffer than the SoC has fails like an AI Core exception, and in
debug-kernel mode prints reach the log, buffer slices are bounds-checked, NaN results stand and
float outputs left as poison are reported. The switch is read when an op is first registered.
"""

from __future__ import annotations

import ctypes
import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from structlog.testing import capture_logs

from emulator import acl, aclnn, process
from emulator.device.interface import NO_ATTRS, BlockContext, KernelAttrs
from emulator.engine.tiling import KernelSignature
from emulator.kernels.math.layer_norm import LayerNormTilingData
from emulator.kernels.math.reduce_common import ReduceOpTilingData, reduce_tiling
from emulator.kernels.math.rms_norm import MODE_SPLIT_D, RMSNormTilingData
from emulator.kernels.math.softmax import SoftmaxV2TilingData
from emulator.kernels.nn.rotary_position_embedding import RopeTilingData
from emulator.opdev import (
    BinSpec,
    EleBaseTilingData,
    OpImpl,
    TilingContext,
    TilingResult,
    block_range,
    elementwise_tiling,
)

DEBUG_ON = {"op_debug_config": {"enable_debug_kernel": "on"}}
AICORE_EXCEPTION = 507015
RUNTIME_ERROR = 361001
N = 64
HUGE = 10_000_000  # elements of a forged tile: far above any SoC's unified buffer


class RangeTiling(ctypes.Structure):
    """The tiling data of the test ops: element count and elements per block."""

    _fields_ = [("total", ctypes.c_int64), ("per_block", ctypes.c_int64)]


def block_tiling(blocks: int, per_block: int | None = None, ub_bytes: int = 0) -> Callable[[TilingContext], Any]:
    """A tiling function declaring ``blocks`` blocks of ``per_block`` elements (default: an even split)."""

    def tiling(ctx: TilingContext) -> TilingResult:
        out = ctx.outputs[0]
        assert out is not None
        per = per_block if per_block is not None else -(-out.numel // blocks)
        data = RangeTiling(total=out.numel, per_block=per)
        return TilingResult(tiling_key=0, block_dim=blocks, data=data, ub_bytes_per_block=ub_bytes)

    return tiling


def block_slice(ctx: BlockContext) -> tuple[int, int]:
    data = RangeTiling.from_buffer_copy(ctx.tiling)
    lo = ctx.block_idx * data.per_block
    return lo, min(lo + data.per_block, data.total)


def make_op(kernel: Callable[..., None], tiling: Callable[[TilingContext], Any]) -> OpImpl:
    return OpImpl("EmuTestDouble", kernel, tiling, bins=(BinSpec(("float",), ("float",)),))


def double_kernel(seen: list[tuple[int, int]]) -> Callable[..., None]:
    """y = 2 x over the block's range; records (block_idx, block_dim) of every block that ran."""

    def kernel(ctx: BlockContext, x: np.ndarray, y: np.ndarray) -> None:
        seen.append((ctx.block_idx, ctx.block_dim))
        lo, hi = block_slice(ctx)
        y.view(np.float32)[lo:hi] = x.view(np.float32)[lo:hi] * 2

    return kernel


def nan_kernel(ctx: BlockContext, x: np.ndarray, y: np.ndarray) -> None:
    lo, hi = block_slice(ctx)
    y.view(np.float32)[lo:hi] = np.nan


def printf_kernel(ctx: BlockContext, x: np.ndarray, y: np.ndarray) -> None:
    lo, hi = block_slice(ctx)
    ctx.printf(f"range {lo}:{hi}")
    y.view(np.float32)[lo:hi] = x.view(np.float32)[lo:hi]


def overrun_kernel(ctx: BlockContext, x: np.ndarray, y: np.ndarray) -> None:
    """Copies x to y but slices 8 elements past the end of both buffers (numpy alone would clip)."""
    lo, hi = block_slice(ctx)
    y.view(np.float32)[lo : hi + 8] = x.view(np.float32)[lo : hi + 8]


def launch(
    start: Callable[..., Any], impl: OpImpl, *, fresh_out: bool = True, **kwargs: Any
) -> tuple[int, int, Callable[..., np.ndarray]]:
    """Start a process with ``impl`` in a custom package, run its L2 once.

    Returns the phase-2 status, the synchronize status and ``read(dtype, offset=0)`` of the output buffer.
    """
    npu = start(impl, **kwargs)
    phase1, phase2 = npu.single_kernel_l2("aclnnEmuTestDouble", impl)
    x = npu.tensor(np.arange(N, dtype=np.float32), aclnn.ACL_FLOAT)
    if fresh_out:  # never written by the host: the device's poison until a kernel writes it
        out_ptr = npu.malloc(N * 4)
        out = aclnn.aclCreateTensor([N], 1, aclnn.ACL_FLOAT, [1], 0, aclnn.ACL_FORMAT_ND, [N], 1, out_ptr)
    else:
        dev = npu.tensor(np.zeros(N, np.float32), aclnn.ACL_FLOAT)
        out, out_ptr = dev.handle, dev.addr
    ws, executor, ret = phase1(x.handle, out)
    assert (ws, ret) == (0, 0)
    status = phase2(0, 0, executor, npu.stream)
    sync = npu.sync()

    def read(dtype: Any = np.float32, offset: int = 0) -> np.ndarray:
        return npu.read(out_ptr + offset, (N * 4 - offset) // np.dtype(dtype).itemsize, dtype)

    return status, sync, read


def test_spmd_kernel_runs_once_per_block(npu_with: Callable[..., Any]) -> None:
    """A tiling declaring block dim 4 runs the kernel four times, blocks 0..3, and covers the output."""
    seen: list[tuple[int, int]] = []
    status, sync, read = launch(npu_with, make_op(double_kernel(seen), block_tiling(4)))
    assert (status, sync) == (0, 0)
    assert sorted(seen) == [(0, 4), (1, 4), (2, 4), (3, 4)]
    np.testing.assert_array_equal(read(), np.arange(N, dtype=np.float32) * 2)


@dataclass(frozen=True, slots=True)
class DoubleAttrs(KernelAttrs):
    """The test op's baked-in dtypes and shapes, as an op module declares them next to its kernel."""

    x_dtype: np.dtype
    y_dtype: np.dtype
    x_shape: tuple[int, ...]
    y_shape: tuple[int, ...]

    @classmethod
    def of(cls, signature: KernelSignature) -> DoubleAttrs:
        (dx, dy), (sx, sy) = signature.dtypes, signature.shapes
        assert signature.attrs == ()
        return cls(dx, dy, sx, sy)


def test_kernel_receives_the_ops_own_attrs_dataclass(npu_with: Callable[..., Any]) -> None:
    """Every block gets the one frozen attrs object the op's ``kernel_attrs`` built from the launch."""
    seen: list[DoubleAttrs] = []

    def kernel(ctx: BlockContext[DoubleAttrs], x: np.ndarray, y: np.ndarray) -> None:
        seen.append(ctx.attrs)
        lo, hi = block_slice(ctx)
        y.view(ctx.attrs.y_dtype)[lo:hi] = x.view(ctx.attrs.x_dtype)[lo:hi] * 2

    impl = OpImpl("EmuTestDouble", kernel, block_tiling(4), bins=(BinSpec(("float",), ("float",)),),
                  kernel_attrs=DoubleAttrs.of)  # fmt: skip
    status, sync, read = launch(npu_with, impl)
    assert (status, sync) == (0, 0)
    np.testing.assert_array_equal(read(), np.arange(N, dtype=np.float32) * 2)
    assert len(seen) == 4 and all(attrs is seen[0] for attrs in seen)
    f32 = np.dtype(np.float32)
    assert seen[0] == DoubleAttrs(f32, f32, (N,), (N,))
    with pytest.raises(dataclasses.FrozenInstanceError):
        seen[0].x_shape = (1,)  # type: ignore[misc]


def test_an_op_without_kernel_attrs_gets_no_attrs(npu_with: Callable[..., Any]) -> None:
    """An op that declares no ``kernel_attrs`` launches with the empty ``NO_ATTRS``."""
    seen: list[object] = []

    def kernel(ctx: BlockContext[KernelAttrs], x: np.ndarray, y: np.ndarray) -> None:
        seen.append(ctx.attrs)

    status, sync, _ = launch(npu_with, make_op(kernel, block_tiling(1)))
    assert (status, sync) == (0, 0)
    assert seen == [NO_ATTRS]


def test_under_covering_tiling_leaves_poison(npu_with: Callable[..., Any]) -> None:
    """A tiling whose blocks cover only half the output leaves the rest as device poison (0xFF, NaN)."""
    seen: list[tuple[int, int]] = []
    status, sync, read = launch(npu_with, make_op(double_kernel(seen), block_tiling(2, per_block=N // 4)))
    assert (status, sync) == (0, 0)  # a wrong result, not an error, as on a card
    got = read()
    np.testing.assert_array_equal(got[: N // 2], np.arange(N // 2, dtype=np.float32) * 2)
    assert np.isnan(got[N // 2 :]).all()
    assert (read(np.uint8, offset=N * 2) == 0xFF).all()


def test_ub_overflow_fails_at_synchronize(npu_with: Callable[..., Any]) -> None:
    """A block declaring more unified buffer than the SoC has makes the next synchronize return 507015."""
    ub_size = process.current().runtime.soc.ub_size
    seen: list[tuple[int, int]] = []
    impl = make_op(double_kernel(seen), block_tiling(2, ub_bytes=ub_size + 1))
    status, sync, _ = launch(npu_with, impl)
    assert status == 0  # the launch is queued; the failure surfaces when the stream runs
    assert sync == AICORE_EXCEPTION
    assert seen == []


def test_ub_at_the_limit_is_fine(npu_with: Callable[..., Any]) -> None:
    """A block using exactly the SoC's unified buffer runs."""
    ub_size = process.current().runtime.soc.ub_size
    seen: list[tuple[int, int]] = []
    status, sync, _ = launch(npu_with, make_op(double_kernel(seen), block_tiling(2, ub_bytes=ub_size)))
    assert (status, sync) == (0, 0)
    assert len(seen) == 2


def ele_copy_kernel(ctx: BlockContext, x: np.ndarray, y: np.ndarray) -> None:
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    y.view(np.float32)[lo:hi] = x.view(np.float32)[lo:hi]


def test_ub_check_reads_the_tile_size_of_the_tiling_data(npu_with: Callable[..., Any]) -> None:
    """A tiling declaring 1 KiB of UB but putting a 10M-element tile in its EleBaseTilingData fails (507015)."""

    def tiling(ctx: TilingContext) -> TilingResult:
        good = elementwise_tiling(ctx, N, 2)
        data = EleBaseTilingData.from_buffer_copy(good.tiling_bytes)
        data.ubFormer = data.blockFormer = 10_000_000
        return TilingResult(tiling_key=0, block_dim=good.block_dim, data=data, ub_bytes_per_block=1024)

    status, sync, _ = launch(npu_with, make_op(ele_copy_kernel, tiling))
    assert status == 0
    assert sync == AICORE_EXCEPTION


def _huge_reduce_tile(ctx: TilingContext) -> ctypes.Structure:
    data = ReduceOpTilingData.from_buffer_copy(reduce_tiling(ctx).tiling_bytes)
    data.ubFactorA = data.factorACntPerCore = HUGE
    return data


def _huge_softmax_tile(ctx: TilingContext) -> ctypes.Structure:
    return SoftmaxV2TilingData(rowNum=1, colNum=HUGE, blockFormer=1, blockNum=1, ubFormer=1, ubFactorR=HUGE, coreNum=1)


def _huge_rms_norm_tile(ctx: TilingContext) -> ctypes.Structure:
    return RMSNormTilingData(num_row=1, num_col=HUGE, block_factor=1, row_factor=1, ub_factor=HUGE, mode=MODE_SPLIT_D)


def _huge_layer_norm_tile(ctx: TilingContext) -> ctypes.Structure:
    return LayerNormTilingData(rowNum=1, colNum=HUGE, numBlocks=1, blockFormer=1, ubFormer=1, ubFactorN=HUGE)


def _huge_rope_tile(ctx: TilingContext) -> ctypes.Structure:
    return RopeTilingData(rows=1, dLength=HUGE, blockFormer=1)


HUGE_TILES = {
    "reduce": _huge_reduce_tile,
    "softmax": _huge_softmax_tile,
    "rms_norm": _huge_rms_norm_tile,
    "layer_norm": _huge_layer_norm_tile,
    "rope": _huge_rope_tile,
}


@pytest.mark.parametrize("struct", HUGE_TILES.values(), ids=HUGE_TILES.keys())
def test_ub_check_reads_the_tiles_of_each_tiling_family(
    npu_with: Callable[..., Any], struct: Callable[[TilingContext], ctypes.Structure]
) -> None:
    """Each family's tiling struct states its tiles' UB too: a 10M-element tile declared as 1 KiB fails."""

    def tiling(ctx: TilingContext) -> TilingResult:
        return TilingResult(tiling_key=0, block_dim=1, data=struct(ctx), ub_bytes_per_block=1024)

    seen: list[tuple[int, int]] = []
    status, sync, _ = launch(npu_with, make_op(double_kernel(seen), tiling))
    assert (status, sync) == (0, AICORE_EXCEPTION)
    assert seen == []


def test_ub_check_accepts_the_template_tiling(npu_with: Callable[..., Any]) -> None:
    """The elementwise template's own tiling (tiles sized to the UB) passes the tile-size check and runs."""
    status, sync, read = launch(npu_with, make_op(ele_copy_kernel, lambda ctx: elementwise_tiling(ctx, N, 2)))
    assert (status, sync) == (0, 0)
    np.testing.assert_array_equal(read(), np.arange(N, dtype=np.float32))


@pytest.mark.parametrize("blocks", [65536, 1 << 20])
def test_block_dim_above_65535_is_refused(npu_with: Callable[..., Any], blocks: int) -> None:
    """More than 65535 blocks fails the launch: phase 2 returns 361001 and the runtime's text says why."""
    seen: list[tuple[int, int]] = []
    status, sync, _ = launch(npu_with, make_op(double_kernel(seen), block_tiling(blocks, per_block=1)))
    assert status == RUNTIME_ERROR
    assert sync == 0
    assert seen == []
    assert "less than or equal to 65535" in (acl.get_recent_err_msg() or "")


def test_block_dim_65535_is_accepted(npu_with: Callable[..., Any]) -> None:
    """65535 blocks, the largest block dim the runtime takes, launches and runs every block."""
    count = [0]

    def kernel(ctx: BlockContext, x: np.ndarray, y: np.ndarray) -> None:
        count[0] += 1

    impl = make_op(kernel, block_tiling(65535, per_block=1))
    status, sync, _ = launch(npu_with, impl)
    assert (status, sync) == (0, 0)
    assert count[0] == 65535


def test_debug_kernel_accepts_a_nan_result(npu_with: Callable[..., Any]) -> None:
    """NaN is a legitimate result: a debug binary writing NaN succeeds, logs kernel.non_finite, reports nothing."""
    with capture_logs() as logs:
        status, sync, read = launch(npu_with, make_op(nan_kernel, block_tiling(2)), config=DEBUG_ON)
    assert process.current().aclnn.debug_kernel
    assert (status, sync) == (0, 0)
    assert np.isnan(read()).all()
    events = [e for e in logs if e["event"] == "kernel.non_finite"]
    assert len(events) == 1
    assert events[0]["elements"] == N
    assert list(process.current().diagnostics) == []


def test_debug_kernel_accepts_sqrt_of_minus_one_and_zero_over_zero(npu_with: Callable[..., Any]) -> None:
    """aclnnSqrt(-1) and aclnnDiv(0, 0) in debug mode return their NaN, status 0, with no report."""
    npu = npu_with(config=DEBUG_ON)
    x = npu.tensor(np.array([-1.0, 4.0, 0.0, -9.0], np.float32), aclnn.ACL_FLOAT)
    zeros = npu.tensor(np.zeros(4, np.float32), aclnn.ACL_FLOAT)
    out = npu.tensor(np.ones(4, np.float32), aclnn.ACL_FLOAT)
    ws, executor, ret = aclnn.aclnnSqrtGetWorkspaceSize(x.handle, out.handle)
    assert ret == 0
    assert npu.run(aclnn.aclnnSqrt, ws, executor) == 0
    got = out.storage()
    assert np.isnan(got[[0, 3]]).all()
    np.testing.assert_array_equal(got[[1, 2]], [2.0, 0.0])
    ws, executor, ret = aclnn.aclnnDivGetWorkspaceSize(zeros.handle, zeros.handle, out.handle)
    assert ret == 0
    assert npu.run(aclnn.aclnnDiv, ws, executor) == 0
    assert np.isnan(out.storage()).all()
    assert list(process.current().diagnostics) == []


def test_debug_kernel_reports_output_left_as_poison(npu_with: Callable[..., Any]) -> None:
    """A debug binary leaving half its output unwritten is reported (elements still all 0xFF); the status stays 0."""
    seen: list[tuple[int, int]] = []
    impl = make_op(double_kernel(seen), block_tiling(2, per_block=N // 4))
    status, sync, _ = launch(npu_with, impl, config=DEBUG_ON)
    assert (status, sync) == (0, 0)
    reports = [d for d in process.current().diagnostics if "poison" in d.message]
    assert len(reports) == 1
    assert f"{N // 2} of {N} elements of output 0 (shape [{N}], ACL_FLOAT, ND)" in reports[0].message
    assert reports[0].api == "kernel EmuTestDouble"


def rerun(npu: Any, impl: OpImpl) -> tuple[int, int]:
    """Phase 1 + phase 2 + synchronize of the test op once more in the same process, on a written output."""
    phase1, phase2 = npu.single_kernel_l2("aclnnEmuTestDouble", impl)
    x = npu.tensor(np.arange(N, dtype=np.float32), aclnn.ACL_FLOAT)
    out = npu.tensor(np.zeros(N, np.float32), aclnn.ACL_FLOAT)
    ws, executor, ret = phase1(x.handle, out.handle)
    assert (ws, ret) == (0, 0)
    return phase2(0, 0, executor, npu.stream), npu.sync()


def test_debug_switch_turned_on_after_first_use_does_not_change_the_op(
    npu_with: Callable[..., Any], tmp_path: Any
) -> None:
    """The switch is read when an op is registered: aclnnInit(on) after its first call leaves it a normal binary."""
    impl = make_op(overrun_kernel, block_tiling(2))
    npu = npu_with(impl)
    assert rerun(npu, impl) == (0, 0)  # registered with the switch off
    config = tmp_path / "on.json"
    config.write_text(json.dumps(DEBUG_ON))
    assert aclnn.aclnnInit(str(config)) == 0
    assert process.current().aclnn.debug_kernel
    assert rerun(npu, impl) == (0, 0)  # still not bounds-checked
    kernel = process.current().aclnn.kernel_mgr.op_kernel("EmuTestDouble")
    assert kernel.debug is False


def test_debug_switch_turned_off_after_first_use_keeps_the_debug_binary(
    npu_with: Callable[..., Any], tmp_path: Any
) -> None:
    """An op registered while the switch was on stays a debug binary after aclnnInit(off): its overrun still fails."""
    impl = make_op(overrun_kernel, block_tiling(2))
    npu = npu_with(impl, config=DEBUG_ON)
    assert rerun(npu, impl) == (0, AICORE_EXCEPTION)
    assert aclnn.aclnnInit(None) == 0
    assert not process.current().aclnn.debug_kernel
    assert rerun(npu, impl) == (0, AICORE_EXCEPTION)


def test_non_finite_output_is_silent_without_debug(npu_with: Callable[..., Any]) -> None:
    """Without debug-kernel mode the same NaN-writing kernel succeeds and its NaN output stands."""
    with capture_logs() as logs:
        status, sync, read = launch(npu_with, make_op(nan_kernel, block_tiling(2)), fresh_out=False)
    assert not process.current().aclnn.debug_kernel
    assert (status, sync) == (0, 0)
    assert np.isnan(read()).all()
    assert not [e for e in logs if e["event"] == "kernel.non_finite"]


def test_debug_kernel_printf_reaches_the_log(npu_with: Callable[..., Any]) -> None:
    """In debug-kernel mode each block's ctx.printf line is logged as kernel.printf."""
    with capture_logs() as logs:
        status, sync, _ = launch(npu_with, make_op(printf_kernel, block_tiling(2)), config=DEBUG_ON)
    assert (status, sync) == (0, 0)
    texts = sorted(e["text"] for e in logs if e["event"] == "kernel.printf")
    assert texts == [f"[block 0/2] range 0:{N // 2}", f"[block 1/2] range {N // 2}:{N}"]
    assert {e["kernel"] for e in logs if e["event"] == "kernel.printf"} == {"EmuTestDouble"}


def test_printf_is_dropped_without_debug(npu_with: Callable[..., Any]) -> None:
    """Without debug-kernel mode kernel prints go nowhere."""
    with capture_logs() as logs:
        status, sync, _ = launch(npu_with, make_op(printf_kernel, block_tiling(2)))
    assert (status, sync) == (0, 0)
    assert not [e for e in logs if e["event"] == "kernel.printf"]


def test_debug_kernel_out_of_bounds_slice_fails(npu_with: Callable[..., Any]) -> None:
    """In debug-kernel mode a slice past the end of a buffer raises: synchronize returns 507015."""
    status, sync, _ = launch(npu_with, make_op(overrun_kernel, block_tiling(2)), config=DEBUG_ON)
    assert status == 0
    assert sync == AICORE_EXCEPTION


def test_out_of_bounds_slice_goes_unnoticed_without_debug(npu_with: Callable[..., Any]) -> None:
    """Without debug-kernel mode the overrunning slice is clipped and the run succeeds."""
    status, sync, read = launch(npu_with, make_op(overrun_kernel, block_tiling(2)), fresh_out=False)
    assert (status, sync) == (0, 0)
    np.testing.assert_array_equal(read(), np.arange(N, dtype=np.float32))


@pytest.mark.parametrize("config", [None, {"op_debug_config": {"enable_debug_kernel": "ON"}}])
def test_debug_kernel_needs_exactly_on(npu_with: Callable[..., Any], config: dict[str, Any] | None) -> None:
    """Only enable_debug_kernel == "on" turns the mode on; otherwise the NaN output is not checked."""
    status, sync, _ = launch(npu_with, make_op(nan_kernel, block_tiling(1)), config=config)
    assert (status, sync) == (0, 0)


def test_shape_only_mode_launches_nothing(npu_with: Callable[..., Any]) -> None:
    """With shape_only set, phase 2 succeeds, counts the skipped launches and leaves the output as it was."""
    npu = npu_with(shape_only=True)
    x = npu.tensor(np.arange(12, dtype=np.float32).reshape(3, 4), aclnn.ACL_FLOAT)
    y = npu.tensor(np.ones((3, 4), np.float32), aclnn.ACL_FLOAT)
    out = npu.tensor(np.full((3, 4), -5.0, np.float32), aclnn.ACL_FLOAT)
    alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x.handle, y.handle, alpha, out.handle)
    assert (ws, ret) == (0, 0)
    launchers = len(executor.launchers)
    assert launchers == 1
    assert aclnn.aclnnAdd(0, 0, executor, npu.stream) == 0
    assert npu.sync() == 0
    assert process.current().aclnn.skipped_launches == launchers
    np.testing.assert_array_equal(out.storage(), np.full((3, 4), -5.0, np.float32))
