"""Recording kernels: ADD_TO_LAUNCHER_LIST_AICORE / _AICPU and INFER_SHAPE.

``add_to_launcher_list_aicore`` selects the op's binary for the call's dtypes and formats (KernelMgr),
runs tiling now when the binary declares a workspace (and keeps the result for phase 2), allocates
the kernel's scratch buffers from the workspace, and appends the launcher and its graph node —
even when selection or tiling failed, in which case it returns ACLNN_ERR_INNER (561000), as the
real macro does. ``add_to_launcher_list_aicpu`` takes a task from the op's AI CPU task space.
"""

from __future__ import annotations

from emulator.engine.args import ArgPack, Group, flatten
from emulator.engine.executor import aclOpExecutor
from emulator.engine.launchers import AiCoreLauncher, AicpuLauncher, describe, run_tiling
from emulator.engine.tiling import OpImpl
from emulator.errors import StatusError
from emulator.lazylog import lazy_logger
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor, contiguous_strides
from emulator.status import AclnnStatus

log = lazy_logger(__name__, logger_name="emulator.opdev")

OK = AclnnStatus.ACLNN_SUCCESS
INNER = AclnnStatus.ACLNN_ERR_INNER


def add_to_launcher_list_aicore(executor: aclOpExecutor, impl: OpImpl, *groups: Group) -> int:
    pack = ArgPack.of(groups)
    if pack.outshape:
        executor.abandon_cache(disable_repeat=True)
    if pack.workspace:  # explicit workspace: no lookup, no tiling now
        workspace: list[aclTensor] = []
        for tensor in flatten(pack.workspace):
            assert tensor is not None, "OP_WORKSPACE takes tensors (no null list member)"
            workspace.append(tensor)
        launcher = AiCoreLauncher(impl, pack, None, workspace=workspace)
        executor.add_launcher(launcher)
        executor.add_node(impl.op_type, pack.inputs, pack.outputs, pack.workspace)
        return OK
    state = executor.ctx.aclnn
    status: int = OK
    kernel_bin = None
    tiling = None
    scratch: list[aclTensor] = []
    try:
        kernel = state.kernel_mgr.op_kernel(impl.op_type)
        kernel_bin = kernel.select(
            flatten(pack.inputs), flatten(pack.outputs), pack.attr_values, pack.impl_mode,
            executor.config.deterministic,
        )  # fmt: skip
        kernel_bin.json_load(state.kernel_mgr.packages)
        if kernel_bin.has_workspace:
            tiling = run_tiling(impl, kernel_bin, pack, executor)
            scratch = [executor.alloc_tensor([size], DataType.DT_UINT8) for size in tiling.workspace_sizes]
    except StatusError as exc:
        log.error("opdev.add_to_launcher_failed", op_type=impl.op_type, reason=str(exc), code=int(INNER))
        status = INNER
    launcher = AiCoreLauncher(impl, pack, kernel_bin, tiling, scratch)
    executor.add_launcher(launcher)  # appended even when the lookup failed
    executor.add_node(impl.op_type, pack.inputs, pack.outputs, [*scratch, *(t for t, _ in pack.outshape)])
    return status


def add_to_launcher_list_aicpu(
    executor: aclOpExecutor, impl: OpImpl, attr_names: tuple[str, ...], *groups: Group
) -> int:
    """The task comes from the op's task space; the call becomes uncacheable (AbandonCache)."""
    pack = ArgPack.of(groups)
    state = executor.ctx.aclnn
    task = state.aicpu.task(impl.op_type, flatten(pack.inputs), pack.attr_values, attr_names)
    executor.add_launcher(AicpuLauncher(impl, pack, task, one_shot=task.one_shot))
    executor.abandon_cache(disable_repeat=task.one_shot or bool(pack.outshape))
    executor.add_node(impl.op_type, pack.inputs, pack.outputs, [*pack.workspace, *(t for t, _ in pack.outshape)])
    return OK


def infer_shape(executor: aclOpExecutor, impl: OpImpl, *groups: Group) -> int:
    """INFER_SHAPE: the op's shape function writes every output's shapes (view = storage = origin)."""
    pack = ArgPack.of(groups)
    if impl.infer_shape is None:
        return INNER
    try:
        shapes = impl.infer_shape([describe(t) for t in flatten(pack.inputs)], pack.attr_values)
    except (ValueError, IndexError) as exc:
        log.error("opdev.infer_shape_failed", op_type=impl.op_type, reason=str(exc))
        return INNER
    for tensor, shape in zip(flatten(pack.outputs), shapes, strict=False):
        if tensor is not None:
            tensor.view_shape = tensor.storage_shape = tensor.origin_shape = tuple(shape)
            tensor.strides = contiguous_strides(tensor.view_shape)
    return OK
