"""Plumbing of the aclnn C face, below both the face and the L2 ops: decorators and handle checks.

Type checks come from the parameter annotations (the aliases below), so a str where a dims list
goes raises TypeError, as a C compiler would refuse it. ``live()`` is where a dead handle is
caught: the use is reported with the sites that created and destroyed the object, and the call
then goes on as the real one would have (the object's stale fields are still there).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from emulator import process
from emulator.boundary import CHECKS, Check, c_api, is_int, is_int_seq
from emulator.diagnostics import report_undefined
from emulator.meta.objects import (
    Handle,
    aclBoolArray,
    aclFloatArray,
    aclIntArray,
    aclScalar,
    aclScalarList,
    aclTensor,
    aclTensorList,
)

F = TypeVar("F", bound=Callable[..., Any])

# Annotation aliases of the face: each names one C parameter shape.
Dims = Sequence[int] | None  # const int64_t*
Floats = Sequence[float] | None  # const float*
Bools = Sequence[bool] | None  # const bool*
Tensors = Sequence[aclTensor | None] | None  # const aclTensor* const*
Scalars = Sequence[aclScalar | None] | None  # const aclScalar* const*
Address = int | None  # void* device address; None and 0 are nullptr


def _optional(cls: type) -> Check:
    return lambda v: v is None or isinstance(v, cls)


def _seq_of(predicate: Check) -> Check:
    return lambda v: v is None or (isinstance(v, list | tuple) and all(predicate(x) for x in v))


def _is_real(value: object) -> bool:
    return isinstance(value, int | float) or (hasattr(value, "dtype") and value.dtype.kind in "iuf")


ACLNN_CHECKS: dict[str, Check] = {
    **CHECKS,
    "Dims": lambda v: v is None or is_int_seq(v),
    "Floats": _seq_of(_is_real),
    "Bools": _seq_of(lambda x: isinstance(x, bool | int)),
    "Tensors": _seq_of(_optional(aclTensor)),
    "Scalars": _seq_of(_optional(aclScalar)),
    "Address": lambda v: v is None or is_int(v),
    "aclTensor | None": _optional(aclTensor),
    "aclScalar | None": _optional(aclScalar),
    "aclIntArray | None": _optional(aclIntArray),
    "aclFloatArray | None": _optional(aclFloatArray),
    "aclBoolArray | None": _optional(aclBoolArray),
    "aclTensorList | None": _optional(aclTensorList),
    "aclScalarList | None": _optional(aclScalarList),
}


def aclnn_api(c_name: str, *, fail: tuple[object, ...] = ()) -> Callable[[F], F]:
    """A function returning aclnnStatus, or ``(*out_values, status)``; failed out-values are ``fail``."""

    def on_error(status: int) -> Any:
        return (*fail, status) if fail else status

    return c_api(c_name, on_error=on_error, checks=ACLNN_CHECKS, aclnn=True)


def aclnn_creator(c_name: str) -> Callable[[F], F]:
    """A creator returning a handle; any failure is nullptr (None)."""
    return c_api(c_name, on_error=lambda status: None, checks=ACLNN_CHECKS, aclnn=True)


def live(obj: Handle, api: str) -> Handle:
    """Report a use of a destroyed object (undefined in C) and hand the object back unchanged."""
    if not obj.alive:
        gone = process.current().registry.released_resource(obj.kind, obj.key)
        report_undefined(
            api,
            f"use of a destroyed {type(obj).__name__} ({obj.key:#x})",
            created=gone.site if gone else None,
            destroyed=gone.released_at if gone else None,
        )
    return obj


def address(value: Address) -> int:
    """A void* argument as an int; None and 0 both mean nullptr."""
    return int(value or 0)
