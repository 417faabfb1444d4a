"""The prototype table drives every face function's argument checks: no parameter goes unchecked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from emulator import acl, aclnn, kernels, process
from emulator.capi import META, RUNTIME, STATIC, Param, Proto
from emulator.capi.types import array_type, scalar_type

ALL: list[Proto] = [*RUNTIME, *META, *kernels.REGISTRY.prototypes()]
WRONG = object()  # no C type accepts a bare object, except an opaque executor pointer


def face_function(proto: Proto) -> Callable[..., Any]:
    """The Python callable of a table entry: pyACL name for runtime calls, C name on the aclnn face."""
    if proto.py_name is None and proto.runtime:
        return acl.C_ONLY[proto.c_name]
    if proto.py_name is None:
        return getattr(aclnn, proto.c_name)  # type: ignore[no-any-return]
    target: Any = acl
    for part in proto.py_name.split(".")[1:]:
        target = getattr(target, part)
    return target  # type: ignore[no-any-return]


def valid_value(param: Param) -> object:
    """A value every C type of the table accepts on both faces (nullptr where a pointer may be null)."""
    kind = param.ctype.kind
    if kind in ("int", "address"):
        return 0
    if kind == "float":
        return 0.0
    if kind == "bool":
        return False
    if kind == "str":
        return ""
    return None


def wrong_value(param: Param) -> object:
    """A value the parameter's C type refuses."""
    if param.ctype.kind == "handle" and param.ctype.spelling.endswith("aclOpExecutor *"):
        return "an executor"  # any pointer is accepted; a string is not a pointer
    return WRONG


def test_every_face_function_is_in_the_table() -> None:
    """aclnn.FUNCTIONS and the decorated acl functions are exactly the table's entries."""
    assert sorted(aclnn.FUNCTIONS) == sorted(p.c_name for p in [*META, *kernels.REGISTRY.prototypes()])
    for proto in ALL:
        assert face_function(proto).c_name == proto.c_name  # type: ignore[attr-defined]
        assert face_function(proto).proto is proto  # type: ignore[attr-defined]


@pytest.mark.parametrize("proto", ALL, ids=lambda p: p.c_name)
def test_every_parameter_is_checked(proto: Proto) -> None:
    """Each input, given a value its C type refuses, raises TypeError naming it; nothing runs.

    The pyACL face takes its own inputs (no array counts, no @caller fields); a callback's user data
    takes any object, so it has no wrong value.
    """
    fn = face_function(proto)
    inputs = proto.inputs if proto.py_name is None else proto.py_inputs
    with process.fresh() as emu:
        for index, param in enumerate(inputs):
            if param.ctype.kind == "object":
                continue
            args = [valid_value(p) for p in inputs]
            args[index] = wrong_value(param)
            with pytest.raises(TypeError, match=param.name):
                fn(*args)
        assert emu.registry.live() == [] and emu.errors.recent() is None


def test_counts_match_the_c_prototypes() -> None:
    """The table's parameter counts are what the headers declare (spot checks of each family)."""
    assert [p.name for p in STATIC["aclCreateTensor"].inputs] == [
        "viewDims", "viewDimsNum", "dataType", "stride", "offset", "format", "storageDims", "storageDimsNum",
        "tensorData",
    ]  # fmt: skip
    assert [p.name for p in STATIC["aclGetViewShape"].outputs] == ["viewDims"]
    assert [p.name for p in STATIC["aclrtMalloc"].outputs] == ["devPtr"]
    assert STATIC["aclrtMalloc"].py_name == "acl.rt.malloc"
    assert STATIC["aclrtMalloc"].failure == 100000
    assert STATIC["aclDestroyTensor"].failure == 161001
    assert STATIC["aclCreateTensor"].failure is None  # a pointer: nullptr on failure


@pytest.mark.parametrize("spelling", ["int8_t", "int32_t", "uint64_t", "size_t", "aclDataType"])
def test_integer_types(spelling: str) -> None:
    """Integer types take int and numpy integers within range, never float, str or bool."""
    ctype = scalar_type(spelling)
    assert ctype.accepts(3) and ctype.accepts(np.int64(3)) and ctype.accepts(aclnn.ACL_FLOAT)
    assert not any(ctype.accepts(v) for v in (3.0, "3", True, np.bool_(True), None, np.float32(3)))
    bits = 8 if spelling == "int8_t" else 32 if spelling in ("int32_t", "aclDataType") else 64
    assert ctype.accepts(-(1 << (bits - 1))) and ctype.accepts((1 << bits) - 1)
    assert not ctype.accepts(1 << bits) and not ctype.accepts(-(1 << (bits - 1)) - 1)


def test_float_and_bool_types() -> None:
    """double takes int, float and numpy numbers; bool takes bool and numpy bool only."""
    double = scalar_type("double")
    assert all(double.accepts(v) for v in (1, 1.5, np.float16(2), np.int8(1)))
    assert not any(double.accepts(v) for v in ("1e-5", True, None, 1j))
    boolean = scalar_type("bool")
    assert boolean.accepts(True) and boolean.accepts(np.bool_(False))
    assert not any(boolean.accepts(v) for v in (0, 1, 1.0, "true", None))


def test_array_types() -> None:
    """An int64 array is a list, tuple or 1-D integer ndarray of int64s, or nullptr."""
    dims = array_type("int64_t", True)
    assert all(dims.accepts(v) for v in ([1, 2], (np.int32(1),), np.array([1, 2]), None))
    assert not any(dims.accepts(v) for v in ("12", [1.0], [True], np.array([[1]]), np.array([1.0]), 3))


def test_eps_as_a_string_is_a_type_error() -> None:
    """aclnnLayerNormGetWorkspaceSize(..., eps="1e-5", ...) raises TypeError, as the compiler refuses it."""
    proto = kernels.REGISTRY.entries["aclnnLayerNorm"].phase1
    args: list[object] = [valid_value(p) for p in proto.inputs]
    args[[p.name for p in proto.inputs].index("eps")] = "1e-5"
    with process.fresh(), pytest.raises(TypeError, match="eps"):
        aclnn.aclnnLayerNormGetWorkspaceSize(*args)
