"""The ctypes type of each C type of the table, for the two places that meet C memory from Python.

The SDK's bridge reads C arrays and writes out-values at C addresses; the ascend backend's op
provider builds C arguments for a real library. Both take a parameter's element type from here.
"""

from __future__ import annotations

import ctypes
import functools
import re
from collections.abc import Mapping
from typing import Any

from emulator.capi.proto import Param

CTYPES: dict[str, Any] = {
    "int8_t": ctypes.c_int8,
    "uint8_t": ctypes.c_uint8,
    "int16_t": ctypes.c_int16,
    "uint16_t": ctypes.c_uint16,
    "int32_t": ctypes.c_int32,
    "uint32_t": ctypes.c_uint32,
    "int": ctypes.c_int,
    "int64_t": ctypes.c_int64,
    "uint64_t": ctypes.c_uint64,
    "size_t": ctypes.c_size_t,
    "float": ctypes.c_float,
    "double": ctypes.c_double,
    "bool": ctypes.c_bool,
}


class AclrtMemLocation(ctypes.Structure):
    _fields_ = (("id", ctypes.c_uint32), ("type", ctypes.c_int))


class AclrtPhysicalMemProp(ctypes.Structure):
    _fields_ = (
        ("handleType", ctypes.c_int),
        ("allocationType", ctypes.c_int),
        ("memAttr", ctypes.c_int),
        ("location", AclrtMemLocation),
        ("reserve", ctypes.c_uint64),
    )


STRUCTS: dict[str, type[ctypes.Structure]] = {"aclrtPhysicalMemProp": AclrtPhysicalMemProp}


def read_struct(name: str, address: int) -> dict[str, Any]:
    """The C struct ``name`` at ``address`` as pyACL's dict of its fields (a nested struct a dict too)."""
    return _as_dict(STRUCTS[name].from_address(address))


def _as_dict(value: ctypes.Structure) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for field in value._fields_:
        field_name = field[0]
        item = getattr(value, field_name)
        out[field_name] = _as_dict(item) if isinstance(item, ctypes.Structure) else int(item)
    return out


def base_type(param: Param) -> str:
    """The declaration's type name without qualifiers and stars (``const int64_t *dims`` → int64_t)."""
    return param.c_decl.replace("const", " ").replace("*", " ").split()[0]


def element_ctype(param: Param) -> Any:
    """The ctypes type one element of ``param`` is (or points at): enums are ints, pointers void *."""
    base = base_type(param)
    if base in CTYPES:
        return CTYPES[base]
    if param.c_decl.count("*") >= 2 or base in ("void", "aclrtStream", "aclrtEvent", "aclrtContext"):
        return ctypes.c_void_p
    return ctypes.c_int  # an enum


@functools.cache
def _count_names(expression: str) -> tuple[str, ...]:
    """The parameter names a count expression adds up, parsed once per expression (not per C call)."""
    return tuple(re.findall(r"[A-Za-z_]\w*", expression))


def array_count(expression: str, named: Mapping[str, Any]) -> int:
    """An array's length: a parameter name, or a sum of them (aclDumpOpTensors)."""
    return sum(int(named[name]) for name in _count_names(expression))


@functools.cache
def _count_positions(expression: str, names: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(names.index(name) for name in _count_names(expression))


def array_count_in(expression: str, names: tuple[str, ...], args: tuple[Any, ...]) -> int:
    """``array_count`` of a call's arguments in C order (``names``), without a dict of them per call."""
    positions = _count_positions(expression, names)
    if len(positions) == 1:
        return int(args[positions[0]])
    return sum(int(args[at]) for at in positions)


@functools.lru_cache(maxsize=512)
def _array_type(element: str, count: int) -> Any:
    return CTYPES[element] * count  # ctypes makes (or looks up) the array type on every ``*``


def read_c_array(element: str, address: int, count: int) -> list[Any]:
    """``count`` elements of the C type ``element`` at ``address`` as Python numbers.

    A wild address crashes, as the real library's read would. The array type is kept per (element,
    count) and the values are read with one slice: 0.6 µs where ``list((ctype * count).from_address())``
    took 1.4 µs, paid for each dims, strides and tensor-list argument a C program passes.
    """
    values: list[Any] = _array_type(element, count).from_address(address)[:]
    return values
