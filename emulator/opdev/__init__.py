"""opdev: what L2 ops are written with (opbase's operator-developer API).

An op module in ``kernels/`` writes its L2 API with these, the way a real L2 op is written on
opbase: ``l2_api`` to declare an entry point (the face runs it in the two-phase frame),
``create_executor`` for CREATE_EXECUTOR, the executor's allocation API, the argument packers, the
launcher-list calls and the framework ops. An L0 helper that fails raises ``L0StepFailed``; the
phase-1 frame makes it the L2's 561103, so a body is written as straight-line code.
"""

from emulator.engine.args import (
    OP_ATTR,
    OP_EMPTY_ARG,
    OP_INPUT,
    OP_MODE,
    OP_OPTION,
    OP_OUTPUT,
    OP_OUTSHAPE,
    OP_WORKSPACE,
    Bool,
    DType,
    Float32,
    Float64,
    Int64,
    Str,
    UInt32,
)
from emulator.engine.executor import aclOpExecutor, common_op_executor_run
from emulator.engine.tiling import BinSpec, OpImpl, PlatformInfo, TensorDesc, TilingContext, TilingResult
from emulator.errors import L0StepFailed
from emulator.opdev.framework import (
    FRAMEWORK_OPS,
    contiguous,
    convert_to_tensor,
    copy_npu_to_npu,
    copy_to_npu,
    copy_to_npu_sync,
    reshape_view,
    view_copy,
)
from emulator.opdev.l2 import UniqueExecutor, create_executor, l0_label
from emulator.opdev.launch import add_to_launcher_list_aicore, add_to_launcher_list_aicpu, infer_shape
from emulator.opdev.registry import l2_api
from emulator.opdev.templates import EleBaseTilingData, RangeKernel, block_range, block_tiles, elementwise_tiling

__all__ = [
    "FRAMEWORK_OPS",
    "OP_ATTR",
    "OP_EMPTY_ARG",
    "OP_INPUT",
    "OP_MODE",
    "OP_OPTION",
    "OP_OUTPUT",
    "OP_OUTSHAPE",
    "OP_WORKSPACE",
    "BinSpec",
    "Bool",
    "DType",
    "EleBaseTilingData",
    "Float32",
    "Float64",
    "Int64",
    "L0StepFailed",
    "OpImpl",
    "PlatformInfo",
    "RangeKernel",
    "Str",
    "TensorDesc",
    "TilingContext",
    "TilingResult",
    "UInt32",
    "UniqueExecutor",
    "aclOpExecutor",
    "add_to_launcher_list_aicore",
    "add_to_launcher_list_aicpu",
    "block_range",
    "block_tiles",
    "common_op_executor_run",
    "contiguous",
    "convert_to_tensor",
    "copy_npu_to_npu",
    "copy_to_npu",
    "copy_to_npu_sync",
    "create_executor",
    "elementwise_tiling",
    "infer_shape",
    "l0_label",
    "l2_api",
    "reshape_view",
    "view_copy",
]
