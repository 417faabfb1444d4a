"""aclnnSquare: out = self * self — an op of one's own, outside the emulator's op library.

The module has the parts every op module has: the kernel (one SPMD block's slice of the work),
its OpImpl (op type, tiling function, the binaries the package describes), the L0 op that adds
the kernel to the executor's launcher list, and the L2 entry point marked with ``@l2_api``, whose
docstring opens with its C prototype. Nothing here is registered at import;
``emulator.aclnn.bind_ops(module)`` builds the C-named callables.
"""

from __future__ import annotations

import numpy as np

from emulator.device.interface import BlockContext
from emulator.engine.executor import aclOpExecutor
from emulator.errors import L0StepFailed
from emulator.kernels.math.data_movement import fill_tiling
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclTensor
from emulator.opdev import (
    OP_INPUT,
    OP_OUTPUT,
    BinSpec,
    OpImpl,
    add_to_launcher_list_aicore,
    block_range,
    contiguous,
    create_executor,
    l2_api,
    view_copy,
)
from emulator.opdev.checks import check_dtype, check_not_null, check_param, is_empty


def square_kernel(ctx: BlockContext, x: np.ndarray, y: np.ndarray) -> None:
    """This block's elements: the buffers arrive as bytes, so the kernel views them as float32."""
    lo, hi = block_range(ctx.tiling, ctx.block_idx)
    xs, ys = x.view(np.float32), y.view(np.float32)
    np.multiply(xs[lo:hi], xs[lo:hi], out=ys[lo:hi])


SQUARE = OpImpl("Square", square_kernel, fill_tiling, bins=(BinSpec(("float32",), ("float32",)),))


def square_l0(x: aclTensor, executor: aclOpExecutor) -> aclTensor:
    """l0op::Square: a workspace tensor holding x * x; a launch that cannot be added fails the L2 (561103)."""
    y = executor.alloc_tensor(x.view_shape, DataType.DT_FLOAT)
    status = add_to_launcher_list_aicore(executor, SQUARE, OP_INPUT(x), OP_OUTPUT(y))
    if status != 0:
        raise L0StepFailed("Square", f"status {status}")
    return y


@l2_api
def aclnnSquareGetWorkspaceSize(self: aclTensor | None, out: aclTensor | None) -> tuple[int, aclOpExecutor | None, int]:
    """aclnnStatus aclnnSquareGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor)

    161001 for a null tensor; 161002 unless both are float32 of one shape; 561103 when an L0 step fails.
    """
    api = "aclnnSquare"
    check_not_null(api, self=self, out=out)
    assert self is not None and out is not None
    check_dtype(api, "self", self, (DataType.DT_FLOAT,))
    check_dtype(api, "out", out, (DataType.DT_FLOAT,))
    check_param(self.view_shape == out.view_shape, api, "self and out must have the same shape.")
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self):
            return unique.release(0)
        view_copy(square_l0(contiguous(self, executor), executor), out, executor)
        return unique.release(executor.get_workspace_size())


OPS = (SQUARE,)
