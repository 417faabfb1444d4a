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
    arange,
    argmax,
    argsort,
    bitwise_and_tensor,
    bitwise_not,
    bitwise_or_tensor,
    broadcast_to,
    cast,
    cat,
    clamp,
    cummax,
    cumsum,
    div,
    dropout_do_mask,
    equal,
    exp_log,
    fill,
    floor,
    greater,
    greater_equal,
    inplace_copy,
    inplace_one,
    layer_norm,
    less,
    less_equal,
    linspace,
    logical_and,
    logical_not,
    logical_or,
    masked_select,
    matmul,
    maximum,
    minimum,
    mul,
    not_equal,
    one_hot,
    permute,
    pow,
    reciprocal,
    reduce_common,
    reduce_mean,
    reduce_sum,
    repeat,
    rms_norm,
    roll,
    s_where,
    search_sorted,
    sign,
    slice,
    softmax,
    sort,
    sqrt_rsqrt,
    stack,
    sub,
    tanh,
    trig,
    tril,
    triu,
    zero,
)
from emulator.kernels.nn import (
    activation_backward,
    add_rms_norm,
    elu,
    gather_v2,
    geglu,
    gelu_v2,
    group_norm,
    hard_activations,
    index_fill_tensor,
    index_select,
    leaky_relu,
    log_softmax,
    nonzero,
    norm,
    rms_norm_grad,
    softmax_backward,
    softmax_cross_entropy_with_logits,
    softplus,
    swi_glu,
    threshold,
    topk,
)
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
    # elementwise math (issue 14)
    trig,
    floor,
    reciprocal,
    sign,
    pow,
    leaky_relu,
    elu,
    hard_activations,
    softplus,
    gelu_v2,
    threshold,
    # part 2: comparisons, logical and bitwise
    greater_equal,
    less,
    less_equal,
    not_equal,
    maximum,
    minimum,
    logical_and,
    logical_or,
    logical_not,
    bitwise_and_tensor,
    bitwise_or_tensor,
    bitwise_not,
    # part 2: clamps
    clamp,
    # part 2: creation
    arange,
    linspace,
    inplace_one,
    # reductions, scans, sorting (issue 14)
    argmax,
    cumsum,
    sort,
    argsort,
    topk,
    norm,
    # softmax and norms (issue 14)
    log_softmax,
    add_rms_norm,
    group_norm,
    # gated units (issue 14)
    swi_glu,
    geglu,
    # backward ops (issue 15)
    activation_backward,
    softmax_backward,
    rms_norm_grad,
    # loss and dropout (issue 15)
    softmax_cross_entropy_with_logits,
    dropout_do_mask,
)

REGISTRY = OpRegistry.from_modules(OP_MODULES, extra_kernels=FRAMEWORK_OPS)
OPS: tuple[OpImpl, ...] = REGISTRY.ops
"""The AI Core ops whose binaries the shipped package describes."""
