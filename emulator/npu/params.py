"""What each C parameter of an op asks of Session.call, read from the op registry's prototypes."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from emulator import aclnn
from emulator.kernels import MODULES, UnknownOp, entry
from emulator.npu.values import DTypeLike, Tensor, acl_dtype

if TYPE_CHECKING:
    from emulator.capi.proto import Param, Proto


# -- what a Param asks for -------------------------------------------------------------------------
_OUT_NAME = re.compile(r"(^out|Out)")
# The handle types (C spelling without const) Session.call builds; converts() refuses any other.
HANDLE_KINDS = frozenset(
    {
        "aclTensor *",
        "aclScalar *",
        "aclIntArray *",
        "aclFloatArray *",
        "aclBoolArray *",
        "aclTensorList *",
        "aclScalarList *",
    }
)
PASS_THROUGH_KINDS = frozenset({"int", "float", "bool", "str", "address", "value"})


def base_spelling(param: Param) -> str:
    return param.ctype.spelling.removeprefix("const ").strip()


def is_tensor(param: Param) -> bool:
    return param.ctype.kind == "handle" and base_spelling(param) == "aclTensor *"


def is_output(param: Param) -> bool:
    """An output tensor the call may allocate: named ``out…`` / ``…Out…`` (const or not — aclnnRelu
    and aclnnRmsNorm declare theirs ``const aclTensor *``)."""
    return is_tensor(param) and bool(_OUT_NAME.search(param.name))


def is_written(param: Param) -> bool:
    """A tensor the op writes: an output, or an in-place one (given by the caller) — a non-const
    ``aclTensor *``, or one named ``…Ref`` (aclnnInplaceAdd declares ``const aclTensor *selfRef``)."""
    if not is_tensor(param):
        return False
    return is_output(param) or param.name.endswith("Ref") or not param.ctype.spelling.startswith("const")


def written_tensors(api: str, params: Sequence[Param]) -> frozenset[str]:
    """The tensor parameters ``api`` writes: the ``is_written`` ones; an in-place API that declares
    none of them so (aclnnInplaceHardswish takes ``const aclTensor *self``) writes its first tensor."""
    names = frozenset(p.name for p in params if is_written(p))
    if names or not api.startswith("aclnnInplace"):
        return names
    tensors = [p.name for p in params if is_tensor(p)]
    return frozenset(tensors[:1])


def is_optional(param: Param) -> bool:
    """``…Optional`` parameters default to nullptr when the caller leaves them out."""
    return "Optional" in param.name


def converts(param: Param) -> bool:
    """Whether Session.call knows how to turn a Python argument into this parameter."""
    if param.ctype.kind == "handle":
        return base_spelling(param) in HANDLE_KINDS
    return param.ctype.kind in PASS_THROUGH_KINDS


def snake(name: str) -> str:
    """``ReduceSum`` -> ``reduce_sum``; ``keepDims`` -> ``keep_dims`` (the convenience spellings)."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def apis() -> tuple[str, ...]:
    """Every L2 API name Session.call accepts (from the op index: no op module is imported)."""
    return tuple(MODULES)


def signature(api: str) -> Proto:
    """The Proto of ``api``'s aclnnXxxGetWorkspaceSize (importing that op's module only)."""
    try:
        return entry(api).phase1
    except UnknownOp:
        raise ValueError(f"{api!r} is not an op of the registry") from None


# The canonical teardown order (examples/lifecycle_add.py): the stream, the device, aclnn, acl.


def plain_value(param: Param, value: Any) -> Any:
    """A number / bool / address parameter: numpy scalars become Python ones, dtypes aclDataType."""
    if value is None:
        return None
    if param.ctype.spelling.endswith("aclDataType"):
        return acl_dtype(value)
    kind = param.ctype.kind
    if kind == "bool" and isinstance(value, np.bool_):
        return bool(value)
    if kind == "int" and isinstance(value, np.integer):
        return int(value)
    if kind == "float" and isinstance(value, np.floating | np.integer):
        return float(value)
    return value


def is_request(value: Any) -> bool:
    """``((2, 3), np.float32)``: a shape and a dtype, at an output parameter."""
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and isinstance(value[0], tuple | list)
        and not isinstance(value[1], tuple | list)
    )


def scalar_dtype(value: Any) -> DTypeLike:
    if isinstance(value, np.generic):
        return value.dtype
    if isinstance(value, bool):
        return np.bool_
    if isinstance(value, int):
        return np.int64
    if isinstance(value, complex):
        return np.complex64
    return np.float32


def bind_arguments(api: str, params: Sequence[Param], args: Sequence[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    """Positional and keyword arguments -> {C parameter name: value}."""
    if len(args) > len(params):
        raise TypeError(f"{api} takes {len(params)} arguments, {len(args)} given")
    bound = {p.name: a for p, a in zip(params, args, strict=False)}
    by_name = {p.name: p.name for p in params} | {snake(p.name): p.name for p in params}
    for key, value in kwargs.items():
        name = by_name.get(key)
        if name is None:
            raise TypeError(f"{api} has no parameter {key!r}")
        if name in bound:
            raise TypeError(f"{api}: {name!r} given twice")
        bound[name] = value
    return bound


def infer_output(param: Param, bound: dict[str, Any], params: Sequence[Param]) -> tuple[tuple[int, ...], DTypeLike]:
    """The shape and dtype of an omitted output: the broadcast of the call's tensor inputs."""
    shapes, dtypes = [], []
    for p in params:
        if is_tensor(p) and not is_output(p) and bound.get(p.name) is not None:
            v = bound[p.name]
            if isinstance(v, Tensor):
                shapes.append(v.shape)
                dtypes.append(v.dtype)
            elif not isinstance(v, aclnn.aclTensor):
                arr = np.asarray(v)
                shapes.append(arr.shape)
                dtypes.append(arr.dtype)
    if not shapes:
        raise TypeError(f"cannot infer {param.name!r}: pass npu.Out(shape, dtype)")
    try:
        dtype = np.result_type(*dtypes)
    except TypeError:
        dtype = dtypes[0]
    try:
        shape = tuple(np.broadcast_shapes(*shapes))
    except ValueError:  # the op itself reports the mismatch with its real status
        shape = tuple(shapes[0])
    return shape, dtype
