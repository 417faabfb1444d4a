"""Plumbing of the aclnn C face, below both the face and the L2 ops: decorators and handle checks.

Argument checks come from the prototype table (emulator.capi): a str where a dims list goes
raises TypeError, as a C compiler would refuse it; the aliases below only annotate. ``live()`` is where a dead handle is
caught: the use is reported with the sites that created and destroyed the object, and the call
then goes on as the real one would have (the object's stale fields are still there).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from emulator import process
from emulator.boundary import c_api, report_undefined
from emulator.capi import lookup
from emulator.diagnostics import ReportKind
from emulator.meta.objects import (
    Handle,
    aclScalar,
    aclTensor,
)

F = TypeVar("F", bound=Callable[..., Any])
H = TypeVar("H", bound=Handle)

# Annotation aliases of the face: each names one C parameter shape.
Dims = Sequence[int] | None  # const int64_t*
Floats = Sequence[float] | None  # const float*
Bools = Sequence[bool] | None  # const bool*
Tensors = Sequence[aclTensor | None] | None  # const aclTensor* const*
Scalars = Sequence[aclScalar | None] | None  # const aclScalar* const*
Address = int | None  # void* device address; None and 0 are nullptr


def aclnn_api(c_name: str) -> Callable[[F], F]:
    """An aclnn-face function, checked against (and failing as) its prototype-table entry:
    ``status``, ``(*out_values, status)`` with zeroed out-values on failure, or a creator's nullptr.
    """
    return c_api(lookup(c_name))


def live(obj: H, api: str) -> H:
    """Report a use of a destroyed object (undefined in C) and hand the object back unchanged."""
    if not obj.alive:
        gone = process.current().registry.released_resource(obj.kind, obj.key)
        report_undefined(
            api,
            f"use of a destroyed {type(obj).__name__} ({obj.key:#x})",
            created=gone.site if gone else None,
            destroyed=gone.released_at if gone else None,
            kind=ReportKind.USE_AFTER_DESTROY,
        )
    return obj


def address(value: Address) -> int:
    """A void* argument as an int; None and 0 both mean nullptr."""
    return int(value or 0)
