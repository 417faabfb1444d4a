"""The tensor-tensor comparisons of part 2 (GeTensor, LtTensor, LeTensor, NeTensor + Inplace): one L2 body.

The four real L2 sources share one chain — Contiguous -> Cast(promote) both -> the bool L0 kernel ->
Cast(out) -> ViewCopy — but differ in small ways a caller would see, so each op states its own
``CompareRule``: which dtype lists it checks (self and other, or only the promoted dtype), where
the empty-tensor shortcut sits (before the dtype checks for Le / Ne, so an empty call of any dtype
succeeds), whether out's rank is checked, and what a bool promotion computes in (Ge int8, Lt uint8,
Le float32; Ne compares bool itself). The per-SoC lists follow the real ``GetDtypeSupportList``:
the 910B family (Atlas A2, A3, and the 950, whose RegBase branches are not emulated) adds bfloat16.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from emulator.engine.executor import aclOpExecutor
from emulator.kernels.math.binary_common import Phase1
from emulator.kernels.math.cast import cast
from emulator.kernels.math.elementwise import broadcast_shape
from emulator.meta.dtypes import DataType, can_cast, dtype_name, promote_type
from emulator.meta.objects import aclTensor
from emulator.opdev import contiguous, create_executor, view_copy
from emulator.opdev.checks import check_dtype, check_param, check_rank, is_empty
from emulator.opdev.l2 import current_l2

D = DataType
BF16_SOCS = ("Ascend910B", "Ascend910_93", "Ascend950")
L0Compare = Callable[[aclTensor, aclTensor, aclOpExecutor], aclTensor]


def soc_has_bf16() -> bool:
    """The real ops' "910B to 910E, or RegBase" test: the SoCs whose dtype lists add bfloat16."""
    return current_l2().op.soc.short_soc_version in BF16_SOCS


def soc_list(base: tuple[int, ...], bf16_extra: tuple[int, ...] = (D.DT_BF16,)) -> tuple[int, ...]:
    """``base`` on an older SoC (Ascend910, 310P), ``base`` plus ``bf16_extra`` on the bfloat16 SoCs."""
    return (*base, *bf16_extra) if soc_has_bf16() else base


@dataclass(frozen=True)
class CompareRule:
    """How one comparison's L2 checks and computes (see the module docstring)."""

    op: str  # the L2 name its messages carry
    l0: L0Compare
    inputs: tuple[int, ...]  # the older-SoC input list; bfloat16 joins it on the bfloat16 SoCs
    outputs: tuple[int, ...] | None  # the older-SoC out list; None: the input list
    check_inputs: bool  # self and other are checked against the list (else only the promoted dtype)
    bool_as: int  # what a bool promotion computes in
    empty_first: bool  # the empty shortcut comes before the dtype checks
    out_rank: bool  # out's rank is checked too


def _check(rule: CompareRule, self: aclTensor, other: aclTensor, out: aclTensor) -> int:
    api = rule.op
    inputs = soc_list(rule.inputs)
    outputs = inputs if rule.outputs is None else soc_list(rule.outputs)
    if rule.check_inputs:
        check_dtype(api, "self", self, inputs)
        check_dtype(api, "other", other, inputs)
    check_dtype(api, "out", out, outputs)
    promote = promote_type(self.dtype, other.dtype)
    if not rule.check_inputs and promote == D.DT_BOOL:
        promote = rule.bool_as  # GeTensor swaps bool before it checks the promoted dtype
    check_param(promote != D.DT_UNDEFINED, api, f"self dtype {dtype_name(self.dtype)} and other dtype "
                f"{dtype_name(other.dtype)} can not be promoted.")  # fmt: skip
    if not rule.check_inputs:
        check_param(promote in inputs, api, f"not implemented for the promoted dtype {dtype_name(promote)}.")
    check_param(can_cast(D.DT_BOOL, out.dtype), api, f"the bool result can't be cast to out dtype "
                f"{dtype_name(out.dtype)}.")  # fmt: skip
    check_rank(api, "self", self)
    check_rank(api, "other", other)
    if rule.out_rank:
        check_rank(api, "out", out)
    shape = broadcast_shape(self.view_shape, other.view_shape)
    check_param(shape is not None, api, f"self {list(self.view_shape)} and other {list(other.view_shape)} "
                "cannot broadcast.")  # fmt: skip
    check_param(shape == out.view_shape, api, f"out shape {list(out.view_shape)} should be the broadcast shape "
                f"{list(shape or ())}.")  # fmt: skip
    return rule.bool_as if promote == D.DT_BOOL else promote


def compare_tensor(rule: CompareRule, self: aclTensor, other: aclTensor, out: aclTensor) -> Phase1:
    """The phase-1 body after the null checks."""
    if rule.empty_first and is_empty(self, other):
        with create_executor() as unique:
            return unique.release(0)
    promote = _check(rule, self, other, out)
    with create_executor() as unique:
        executor = unique.get()
        if is_empty(self, other):
            return unique.release(0)
        s = cast(contiguous(self, executor), promote, executor)
        o = cast(contiguous(other, executor), promote, executor)
        view_copy(cast(rule.l0(s, o, executor), out.dtype, executor), out, executor)
        return unique.release(executor.get_workspace_size())
