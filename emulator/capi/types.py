"""The C types of the API and the Python values each one accepts, written once.

Every parameter of every C function in the prototype table has one of these types; the faces'
argument checks, the C headers and the C forwarders all come from them. What a type accepts is
what a C compiler (or pyACL's argument parser) would let through:

- integer types (``int32_t``, ``uint64_t``, ``size_t``, the enums ``aclDataType`` …) take ``int``
  and numpy integers, never ``float``, ``str`` or ``bool``, within the width's range. The range
  is the union of the signed and the unsigned range, because C converts ``-1`` to a ``size_t``
  silently: the callee then sees ``SIZE_MAX`` and fails the way the real one does.
- ``float`` / ``double`` take ``int``, ``float`` and numpy numbers (not ``bool``).
- ``bool`` takes ``bool`` and ``numpy.bool_``.
- ``const char *`` (and a plain ``char *`` the callee only reads) takes ``str`` or ``None`` (nullptr).
- a handle pointer (``const aclTensor *``) takes that class or ``None``; an ``aclOpExecutor *``
  takes any object or address but a str, float or bool (C lets a cast through; the callee
  reports a foreign object by its magic number).
- an array (``const int64_t *`` with its count) takes a list, a tuple or a 1-D numpy array of
  the element type, or ``None``.
- ``void *`` and the runtime handles (``aclrtStream``, ``aclrtEvent``, ``aclrtContext``) take an
  integer address or ``None``; ``const void *value`` of aclCreateScalar takes a number, a numpy
  scalar or ``bytes``; a function pointer takes a callable or ``None``; ``void *userData`` of a
  callback takes any object (pyACL hands it to the callback as it is).

Anything else raises ``TypeError`` before the call, as the compiler would have refused it. The
pyACL face parses as pyACL does (emulator.boundary.pyacl_accepts): integers and pointers of any
size, strings never None.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, TypeGuard

import numpy as np

Accept = Callable[[object], bool]


def is_integer(value: object) -> TypeGuard[int | np.integer]:
    """An int or numpy integer (IntEnum members are ints); never a bool, float or str."""
    kind = type(value)
    if kind is int:
        return True
    if kind is bool or isinstance(value, bool | np.bool_):
        return False
    return isinstance(value, int | np.integer)


def _int_range(bits: int) -> Accept:
    lo, hi = -(1 << (bits - 1)), (1 << bits) - 1

    def accept(value: object) -> bool:
        kind = type(value)
        if kind is int:  # the common case, without the bool / numpy questions
            return lo <= value <= hi  # type: ignore[operator]
        if kind in enums_that_fit:  # aclnn.ACL_FLOAT …: a member of an enum whose every member is in range
            return True
        if isinstance(value, int):  # an int subclass compares as its int; a bool is no integer
            if isinstance(value, IntEnum) and all(lo <= member <= hi for member in kind):  # type: ignore[attr-defined]
                enums_that_fit.add(kind)  # an IntEnum has no members but those it was made with
            return not isinstance(value, bool) and lo <= value <= hi
        return is_integer(value) and lo <= operator.index(value) <= hi

    enums_that_fit: set[type] = set()

    accept.int_range = (lo, hi)  # type: ignore[attr-defined]  # lets a sequence check a list of ints at C speed
    return accept


def is_real(value: object) -> bool:
    return (isinstance(value, int | float | np.integer | np.floating)) and not isinstance(value, bool | np.bool_)


def is_bool(value: object) -> bool:
    return isinstance(value, bool | np.bool_)


def _optional(accept: Accept) -> Accept:
    return lambda value: value is None or accept(value)


_PLAIN_INTS = frozenset({int})
_SHORT = 6  # up to this many plain ints, a loop in Python checks them faster than set / min / max calls


def _sequence_of(element: Accept, numpy_kinds: str, *, exact: frozenset[type] = frozenset()) -> Accept:
    """An array parameter's check. Shortcuts give the per-item answer without a call per item: a
    list of plain ints is range-checked in a loop (short, as dims are) or with ``min``/``max``, and a
    list whose items are all of the ``exact`` types (a handle array's class and ``NoneType``) is
    accepted by their types alone. Anything else is asked of ``element``, item by item.
    """

    def accept(value: object) -> bool:
        kind = type(value)
        if kind is list or kind is tuple:
            if int_range is not None:
                if len(value) <= _SHORT:  # type: ignore[arg-type]
                    for item in value:  # type: ignore[attr-defined]
                        if type(item) is not int or not lo <= item <= hi:
                            return all(element(item) for item in value)  # type: ignore[attr-defined]
                    return True
                if set(map(type, value)) <= _PLAIN_INTS:  # type: ignore[call-overload]
                    return lo <= min(value) and max(value) <= hi  # type: ignore[call-overload]
            elif exact and set(map(type, value)) <= exact:  # type: ignore[call-overload]
                return True
            return all(element(item) for item in value)  # type: ignore[attr-defined]
        if value is None:
            return True
        if isinstance(value, np.ndarray):
            return value.ndim == 1 and value.dtype.kind in numpy_kinds
        if not isinstance(value, list | tuple):
            return False
        if int_range is not None and value and set(map(type, value)) == {int}:  # a list or tuple subclass
            return lo <= min(value) and max(value) <= hi
        return all(element(item) for item in value)

    int_range: tuple[int, int] | None = getattr(element, "int_range", None)
    lo, hi = int_range if int_range is not None else (0, 0)
    return accept


def is_address(value: object) -> bool:
    """``void *`` and the runtime handles: an integer address; None and 0 are nullptr."""
    return value is None or type(value) is int or is_integer(value)


def is_opaque_pointer(value: object) -> bool:
    """An ``aclOpExecutor *``: any object or address stands for a pointer (C lets a cast through and the
    callee tells a foreign object by its magic number); a str, a float or a bool is no pointer.
    """
    return not isinstance(value, str | bytes | float | bool | np.floating | np.bool_)


def is_host_value(value: object) -> bool:
    """aclCreateScalar's ``const void *value``: the value itself, a numpy scalar or its raw bytes."""
    return value is None or isinstance(
        value, bool | int | float | complex | np.generic | bytes | bytearray | memoryview
    )


@dataclass(frozen=True, slots=True)
class CType:
    """One C type: its spelling in a header, what it accepts from Python, how a C forwarder passes it.

    ``kind`` is the forwarder's conversion class (``int``, ``float``, ``bool``, ``str``, ``handle``,
    ``array``, ``address``, ``value``, ``callback``); ``element`` is an array's element type.
    """

    spelling: str
    kind: str
    accepts: Accept
    python: str  # how the Python face annotates it
    element: str | None = None

    def check(self, value: object) -> bool:
        return self.accepts(value)


def _integer(spelling: str, bits: int) -> CType:
    return CType(spelling, "int", _int_range(bits), "int")


INTEGERS: dict[str, int] = {
    "int8_t": 8,
    "uint8_t": 8,
    "int16_t": 16,
    "uint16_t": 16,
    "int32_t": 32,
    "uint32_t": 32,
    "int": 32,
    "int64_t": 64,
    "uint64_t": 64,
    "size_t": 64,
}
# The C enums of the API are int-sized (what a compiler makes of them).
ENUMS = (
    "aclDataType",
    "aclFormat",
    "aclrtMemMallocPolicy",
    "aclrtMemcpyKind",
    "aclrtMemAttr",
    "aclrtRunMode",
    "aclrtDevAttr",
    "aclrtLastErrLevel",
    "aclrtEventStatus",
    "aclrtEventRecordedStatus",
    "aclrtStreamStatus",
    "aclrtFloatOverflowMode",
    "aclrtCallbackBlockType",
    "aclLogLevel",
    "aclrtMemGranularityOptions",
    "aclmdlRICaptureMode",
    "aclmdlRICaptureStatus",
)
# Handles of the runtime: opaque pointers that Python holds as integers (pyACL's convention).
RUNTIME_HANDLES = ("aclrtStream", "aclrtEvent", "aclrtContext", "aclrtDrvMemHandle", "aclmdlRI")
# Structs the callee reads (``const aclrtPhysicalMemProp *``): pyACL takes them as dicts keyed by the C
# field names (a nested struct a dict too).
IN_STRUCTS = ("aclrtPhysicalMemProp",)
# Parameter objects of acl_meta.h: Python holds the object itself.
META_HANDLES = (
    "aclTensor",
    "aclScalar",
    "aclIntArray",
    "aclFloatArray",
    "aclBoolArray",
    "aclTensorList",
    "aclScalarList",
    "aclOpExecutor",
)
CALLBACKS = ("aclrtCallback",)
# Opaque structs of acl_base.h that pyACL hands out as integer addresses (aclDataBuffer *, aclTensorDesc *).
OPAQUE = ("aclDataBuffer", "aclTensorDesc")
# Structs a function fills in (``aclrtUtilizationInfo *``): pyACL returns them as a dict of their int32
# fields, in snake_case; the reserved pointer field last is left as the caller set it.
OUT_STRUCTS: dict[str, tuple[str, ...]] = {
    "aclrtUtilizationInfo": ("cubeUtilization", "vectorUtilization", "aicpuUtilization", "memoryUtilization"),
}


def snake(name: str) -> str:
    """pyACL's key for a C struct field: ``cubeUtilization`` -> ``cube_utilization``."""
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name)


def struct_type(name: str) -> CType:
    return CType(f"{name} *", "struct", lambda value: False, "dict[str, int]", name)


def scalar_type(spelling: str) -> CType:
    """The CType of a non-pointer spelling (``int64_t``, ``double``, ``aclDataType``, ``aclrtStream``)."""
    if spelling in INTEGERS:
        return _integer(spelling, INTEGERS[spelling])
    if spelling in ENUMS:
        return _integer(spelling, 32)
    if spelling in ("float", "double"):
        return CType(spelling, "float", is_real, "float")
    if spelling == "bool":
        return CType(spelling, "bool", is_bool, "bool")
    if spelling in RUNTIME_HANDLES:
        return CType(spelling, "address", is_address, "int | None")
    if spelling in CALLBACKS:
        return CType(spelling, "callback", lambda v: v is None or callable(v), "Callable[..., Any] | None")
    raise KeyError(f"no C type {spelling!r} in the table's vocabulary")


def pointer_type(spelling: str, is_const: bool) -> CType:
    """The CType of ``T *`` when it is an input (a handle, an array, an address or a string)."""
    if spelling == "char":  # a string the callee reads (FlashAttentionScore's inputLayout is a plain char *)
        spelled = "const char *" if is_const else "char *"
        return CType(spelled, "str", _optional(lambda v: isinstance(v, str)), "str | None")
    if spelling == "void":
        return CType(("const " if is_const else "") + "void *", "address", is_address, "int | None")
    if spelling in META_HANDLES:
        return handle_type(spelling, is_const)
    if spelling in OPAQUE:
        return CType(("const " if is_const else "") + f"{spelling} *", "address", is_address, "int | None")
    if spelling in IN_STRUCTS:
        return CType(
            ("const " if is_const else "") + f"{spelling} *", "struct", _optional(_is_dict), "dict[str, Any] | None"
        )
    raise KeyError(f"no pointer type {spelling!r} *")


def _is_dict(value: object) -> bool:
    return isinstance(value, dict)


def _handle_class(name: str) -> type:
    from emulator.meta import objects  # the parameter-object classes; objects imports nothing of capi

    cls: type = getattr(objects, name)
    return cls


def handle_type(name: str, is_const: bool) -> CType:
    accept: Accept
    if name == "aclOpExecutor":
        accept = is_opaque_pointer
    else:
        cls: Any = _handle_class(name)
        accept = lambda v: v is None or isinstance(v, cls)  # noqa: E731 - one call per handle argument, not two
    return CType(("const " if is_const else "") + f"{name} *", "handle", accept, f"{name} | None")


def array_type(element: str, is_const: bool) -> CType:
    """``const T *`` read as an array (its count is another parameter, or implied)."""
    prefix = "const " if is_const else ""
    if element in INTEGERS:
        accept = _sequence_of(_int_range(INTEGERS[element]), "iu")
        python = "Sequence[int] | None"
    elif element in ("float", "double"):
        accept = _sequence_of(is_real, "iuf")
        python = "Sequence[float] | None"
    elif element == "bool":
        accept = _sequence_of(is_bool, "b")
        python = "Sequence[bool] | None"
    elif element in META_HANDLES:
        handle = handle_type(element, True)
        classes = () if element == "aclOpExecutor" else (_handle_class(element),)
        exact = frozenset({*classes, type(None)})
        accept = _sequence_of(handle.accepts, "", exact=exact)
        python = f"Sequence[{element} | None] | None"
        return CType(f"{prefix}{element} *const *", "array", accept, python, element)
    else:
        raise KeyError(f"no array of {element!r}")
    return CType(f"{prefix}{element} *", "array", accept, python, element)


VALUE = CType("const void *", "value", is_host_value, "object")
# ``void *userData@object``: pyACL passes any Python object through to the callback (a list in its
# docs); C passes the pointer, which reaches the callback unchanged.
OBJECT = CType("void *", "object", lambda value: True, "object")
