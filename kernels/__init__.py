"""The op library: one module per op (L2 API, tiling, tiling-data struct, SPMD kernel).

``OP_MODULE_NAMES`` is the op list — reading it tells you which ops exist. Each module marks its
``aclnnXxxGetWorkspaceSize`` bodies with ``@l2_api`` and lists its AI Core kernels with binaries
in ``OPS``; ``REGISTRY`` is built from this list alone, refusing a name declared twice. The aclnn
face, docs/ops.md, docs/api_parity.md and the shipped op package (``python -m
emulator.kernels.build_opp``) are all built from ``REGISTRY``. Adding an op: one module, one line
here (docs/adding_an_op.md), then ``python -m emulator.capi.generate`` (the op index).

Nothing here is imported before it is used: a program that calls Add imports the Add module (and
what it imports), not the other ~110. ``entry(api)`` reads one op's module, found through the
generated ``emulator.kernels.op_index``; ``REGISTRY``, ``OPS`` and ``OP_MODULES`` (the modules
themselves) are built on first access, importing every op module and running the duplicate check.
"""

from __future__ import annotations

import functools
import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

from emulator.kernels.op_index import MODULES as MODULES  # the index, for the faces and the C layer

if TYPE_CHECKING:
    from emulator.engine.tiling import OpImpl
    from emulator.opdev.registry import L2Entry, OpRegistry

OP_MODULE_NAMES: tuple[str, ...] = (
    # elementwise arithmetic
    "emulator.kernels.math.add",
    "emulator.kernels.math.adds",
    "emulator.kernels.math.sub",
    "emulator.kernels.math.mul",
    "emulator.kernels.math.div",
    "emulator.kernels.math.cast",
    "emulator.kernels.math.aclnn_cast",
    # comparisons
    "emulator.kernels.math.equal",
    "emulator.kernels.math.greater",
    # unary math and activations
    "emulator.kernels.math.abs_neg",
    "emulator.kernels.math.exp_log",
    "emulator.kernels.math.sqrt_rsqrt",
    "emulator.kernels.math.activations",
    "emulator.kernels.math.tanh",
    # reductions, normalisation, matmul
    "emulator.kernels.math.reduce_common",
    "emulator.kernels.math.reduce_sum",
    "emulator.kernels.math.reduce_mean",
    "emulator.kernels.math.amax",
    "emulator.kernels.math.softmax",
    "emulator.kernels.math.layer_norm",
    "emulator.kernels.math.rms_norm",
    "emulator.kernels.math.matmul",
    # data movement
    "emulator.kernels.math.permute",
    "emulator.kernels.math.broadcast_to",
    "emulator.kernels.math.inplace_copy",
    "emulator.kernels.math.fill",
    "emulator.kernels.math.zero",
    "emulator.kernels.math.cat",
    # indexing and shape (issue 14)
    "emulator.kernels.math.triu",
    "emulator.kernels.math.tril",
    "emulator.kernels.math.roll",
    "emulator.kernels.math.repeat",
    "emulator.kernels.nn.gather_v2",
    "emulator.kernels.nn.index_select",
    "emulator.kernels.math.s_where",
    "emulator.kernels.math.stack",
    "emulator.kernels.math.slice",
    "emulator.kernels.nn.nonzero",
    "emulator.kernels.math.masked_select",
    "emulator.kernels.math.one_hot",
    "emulator.kernels.nn.index_fill_tensor",
    # AI CPU ops
    "emulator.kernels.math.search_sorted",
    "emulator.kernels.math.cummax",
    # elementwise math (issue 14)
    "emulator.kernels.math.trig",
    "emulator.kernels.math.floor",
    "emulator.kernels.math.reciprocal",
    "emulator.kernels.math.sign",
    "emulator.kernels.math.pow",
    "emulator.kernels.nn.leaky_relu",
    "emulator.kernels.nn.elu",
    "emulator.kernels.nn.hard_activations",
    "emulator.kernels.nn.softplus",
    "emulator.kernels.nn.gelu_v2",
    "emulator.kernels.nn.threshold",
    # part 2: comparisons, logical and bitwise
    "emulator.kernels.math.greater_equal",
    "emulator.kernels.math.less",
    "emulator.kernels.math.less_equal",
    "emulator.kernels.math.not_equal",
    "emulator.kernels.math.maximum",
    "emulator.kernels.math.minimum",
    "emulator.kernels.math.logical_and",
    "emulator.kernels.math.logical_or",
    "emulator.kernels.math.logical_not",
    "emulator.kernels.math.bitwise_and_tensor",
    "emulator.kernels.math.bitwise_or_tensor",
    "emulator.kernels.math.bitwise_not",
    # part 2: clamps
    "emulator.kernels.math.clamp",
    # clamps with tensor bounds (issue 14, ops14e)
    "emulator.kernels.math.clamp_tensor",
    # part 2: creation
    "emulator.kernels.math.arange",
    "emulator.kernels.math.linspace",
    "emulator.kernels.math.inplace_one",
    # reductions, scans, sorting (issue 14)
    "emulator.kernels.math.argmax",
    "emulator.kernels.math.cumsum",
    "emulator.kernels.math.sort",
    "emulator.kernels.math.argsort",
    "emulator.kernels.nn.topk",
    "emulator.kernels.nn.norm",
    # softmax and norms (issue 14)
    "emulator.kernels.nn.log_softmax",
    "emulator.kernels.nn.add_rms_norm",
    "emulator.kernels.nn.group_norm",
    # batch norm (issue 14, ops14e)
    "emulator.kernels.nn.batch_norm_kernels",
    "emulator.kernels.nn.batch_norm",
    # gated units (issue 14)
    "emulator.kernels.nn.swi_glu",
    "emulator.kernels.nn.geglu",
    # padding, repeat-interleave, index copy / put (issue 14)
    "emulator.kernels.math.pad_common",
    "emulator.kernels.math.constant_pad_nd",
    "emulator.kernels.math.reflection_pad1d",
    "emulator.kernels.nn.repeat_interleave",
    "emulator.kernels.nn.index_copy",
    "emulator.kernels.nn.index_put_impl",
    # attention and rotary embedding (issue 15)
    "emulator.kernels.nn.rotary_position_embedding",
    "emulator.kernels.nn.flash_attention_score",
    "emulator.kernels.nn.fused_infer_attention_score",
    # backward ops (issue 15)
    "emulator.kernels.nn.activation_backward",
    "emulator.kernels.nn.softmax_backward",
    "emulator.kernels.nn.rms_norm_grad",
    "emulator.kernels.nn.batch_norm_grad_kernels",
    "emulator.kernels.nn.batch_norm_backward",
    # loss and dropout (issue 15)
    "emulator.kernels.nn.softmax_cross_entropy_with_logits",
    "emulator.kernels.math.dropout_do_mask",
    # upsampling and the matmul family (issue 15)
    "emulator.kernels.cv.upsample_nearest_2d",
    "emulator.kernels.cv.upsample_nearest_2d_backward",
    "emulator.kernels.cv.upsample_bilinear_2d",
    "emulator.kernels.cv.upsample_bilinear_2d_backward",
    "emulator.kernels.nn.mv",
    "emulator.kernels.math.triangular_solve",
    "emulator.kernels.nn.weight_quant_batch_matmul_v2",
    "emulator.kernels.math.trans_matmul_weight",
    # convolution and pooling (issue 15)
    "emulator.kernels.nn.convolution",
    "emulator.kernels.nn.convolution_backward",
    "emulator.kernels.math.im2col",
    "emulator.kernels.nn.max_pool",
    "emulator.kernels.nn.avgpool2d",
)


REGISTRY: OpRegistry
"""Every L2 entry point and kernel of the op list (built on first access: imports every op module)."""
OPS: tuple[OpImpl, ...]
"""The AI Core ops whose binaries the shipped package describes."""
OP_MODULES: tuple[ModuleType, ...]
"""The op modules of ``OP_MODULE_NAMES``, imported."""


class UnknownOp(LookupError):
    """An L2 API name the op list does not have."""


@functools.cache
def _registry() -> OpRegistry:
    from emulator.opdev import FRAMEWORK_OPS
    from emulator.opdev.registry import OpRegistry

    return OpRegistry.from_modules(_modules(), extra_kernels=FRAMEWORK_OPS)


@functools.cache
def _modules() -> tuple[ModuleType, ...]:
    return tuple(importlib.import_module(name) for name in OP_MODULE_NAMES)


@functools.cache
def module_entries(name: str) -> dict[str, L2Entry]:
    """The L2 entries one op module declares, by API name (the module is imported here, once)."""
    from emulator.opdev.registry import entry_of, marked

    module = importlib.import_module(name)
    return {entry.api: entry for entry in (entry_of(body, name) for body in marked(module))}


def entry(api: str) -> L2Entry:
    """One op's L2 entry, importing only its module (equal to the one the full ``REGISTRY`` holds)."""
    module = MODULES.get(api)
    if module is None:
        raise UnknownOp(api)
    found = module_entries(module).get(api)
    if found is None:  # the generated index is stale (a test compares it with the registry)
        raise UnknownOp(f"{api}: emulator.kernels.op_index names {module}, which does not declare it")
    return found


def __getattr__(name: str) -> Any:
    """``REGISTRY``, ``OPS`` and ``OP_MODULES`` on first access (PEP 562); kept as module attributes then."""
    if name == "REGISTRY":
        value: Any = _registry()
    elif name == "OPS":
        value = _registry().ops
    elif name == "OP_MODULES":
        value = _modules()
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
