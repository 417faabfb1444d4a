"""The op library: one module per op (L2 API, tiling, tiling-data struct, SPMD kernel).

``OP_MODULES`` is the op list — reading it tells you which ops exist. Each module marks its
``aclnnXxxGetWorkspaceSize`` bodies with ``@l2_api`` and lists its AI Core kernels with binaries
in ``OPS``; ``REGISTRY`` is built from this list alone, refusing a name declared twice. The aclnn
face, docs/ops.md, docs/api_parity.md and the shipped op package (``python -m
emulator.kernels.build_opp``) are all built from ``REGISTRY``. Adding an op: one module, one line
here (docs/adding_an_op.md).
"""

from __future__ import annotations

from emulator.engine.tiling import OpImpl
from emulator.kernels.math import (
    abs_neg,
    aclnn_cast,
    activations,
    add,
    adds,
    amax,
    broadcast_to,
    cast,
    cat,
    cummax,
    div,
    equal,
    exp_log,
    fill,
    greater,
    inplace_copy,
    layer_norm,
    masked_select,
    matmul,
    mul,
    one_hot,
    permute,
    reduce_common,
    reduce_mean,
    reduce_sum,
    repeat,
    rms_norm,
    roll,
    s_where,
    search_sorted,
    slice,
    softmax,
    sqrt_rsqrt,
    stack,
    sub,
    tanh,
    tril,
    triu,
    zero,
)
from emulator.kernels.nn import gather_v2, index_fill_tensor, index_select, nonzero
from emulator.opdev import FRAMEWORK_OPS
from emulator.opdev.registry import OpRegistry

OP_MODULES = (
    # elementwise arithmetic
    add,
    adds,
    sub,
    mul,
    div,
    cast,
    aclnn_cast,
    # comparisons
    equal,
    greater,
    # unary math and activations
    abs_neg,
    exp_log,
    sqrt_rsqrt,
    activations,
    tanh,
    # reductions, normalisation, matmul
    reduce_common,
    reduce_sum,
    reduce_mean,
    amax,
    softmax,
    layer_norm,
    rms_norm,
    matmul,
    # data movement
    permute,
    broadcast_to,
    inplace_copy,
    fill,
    zero,
    cat,
    # indexing and shape (issue 14)
    triu,
    tril,
    roll,
    repeat,
    gather_v2,
    index_select,
    s_where,
    stack,
    slice,
    nonzero,
    masked_select,
    one_hot,
    index_fill_tensor,
    # AI CPU ops
    search_sorted,
    cummax,
)

REGISTRY = OpRegistry.from_modules(OP_MODULES, extra_kernels=FRAMEWORK_OPS)
OPS: tuple[OpImpl, ...] = REGISTRY.ops
"""The AI Core ops whose binaries the shipped package describes."""
