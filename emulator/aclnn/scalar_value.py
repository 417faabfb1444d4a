"""The bytes aclCreateScalar copies from its ``void *value``: a Python number in the dtype, or raw bytes.

C copies the dtype's size from the pointer; the Python face takes the value itself (a number, a
numpy scalar or bytes), so a number is converted first, and refused where a C cast would be
undefined (an integer dtype given NaN, or a value outside its range). ``plain_bytes`` is the common
case done with ``struct`` and ``int.to_bytes`` — a float or an int into float32/float64/float16, an
int into an integer dtype, raw bytes — and says None for everything else, which ``scalar_bytes``
then converts through numpy as before. The two give the same bytes wherever the first answers
(tests/unit/test_create_fast_path.py): both are the IEEE round-to-nearest of the same double (an int
only where the float dtype holds it exactly), and an overflow, a NaN or an out-of-range int takes
the full path, with its infinity or its refusal.
"""

from __future__ import annotations

import math
import struct
import sys
from collections.abc import Callable

import numpy as np

from emulator.boundary import report_undefined
from emulator.diagnostics import ReportKind
from emulator.errors import AclnnError
from emulator.lazylog import lazy_logger
from emulator.meta.dtypes import aclDataType, numpy_dtype, to_op_dtype

log = lazy_logger(__name__, logger_name="emulator.aclnn")

_FLOAT_PACK: dict[int, Callable[[float], bytes]] = {
    int(aclDataType.ACL_FLOAT): struct.Struct("=f").pack,
    int(aclDataType.ACL_DOUBLE): struct.Struct("=d").pack,
    int(aclDataType.ACL_FLOAT16): struct.Struct("=e").pack,
}
# The largest int each float dtype holds exactly (2 ** mantissa bits): one that big or smaller converts
# without rounding, so the int's own float is the dtype's value.
_EXACT_INT = {
    int(aclDataType.ACL_FLOAT): 1 << 24,
    int(aclDataType.ACL_DOUBLE): 1 << 53,
    int(aclDataType.ACL_FLOAT16): 1 << 11,
}
_SIGNED: dict[int, bool] = {
    int(aclDataType.ACL_INT8): True,
    int(aclDataType.ACL_INT16): True,
    int(aclDataType.ACL_INT32): True,
    int(aclDataType.ACL_INT64): True,
    int(aclDataType.ACL_UINT8): False,
    int(aclDataType.ACL_UINT16): False,
    int(aclDataType.ACL_UINT32): False,
    int(aclDataType.ACL_UINT64): False,
}
_ORDER = sys.byteorder  # numpy's tobytes() writes the native order


def plain_bytes(value: object, dataType: int, need: int) -> bytes | None:
    """The common cases' bytes, or None for ``scalar_bytes`` to work out (or refuse)."""
    kind = type(value)
    if kind is float:
        pack = _FLOAT_PACK.get(dataType)
        if pack is not None and value == value:  # NaN payloads: numpy's conversion decides
            try:
                return pack(value)  # type: ignore[arg-type]
            except OverflowError:  # numpy rounds it to an infinity
                return None
    elif kind is int:
        signed = _SIGNED.get(dataType)
        if signed is not None:
            try:
                return value.to_bytes(need, _ORDER, signed=signed)  # type: ignore[attr-defined]
            except OverflowError:  # outside the dtype's range: refused with its message
                return None
        pack = _FLOAT_PACK.get(dataType)
        if pack is not None and -_EXACT_INT[dataType] <= value <= _EXACT_INT[dataType]:  # type: ignore[operator]
            return pack(value)  # type: ignore[arg-type]
    elif kind is bytes and len(value) >= need:  # type: ignore[arg-type]
        return value[:need]  # type: ignore[index]
    return None


def _does_not_fit(value: object, dataType: int, why: str) -> AclnnError:
    """The real aclCreateScalar's failure path: nullptr, and 'aclCreateScalar error.' reported as ACLNN_ERR_INNER."""
    try:
        name = aclDataType(dataType).name
    except ValueError:
        name = str(dataType)
    return AclnnError(f"aclCreateScalar error. The value {value!r} does not fit dtype {name}: {why}.")


def _number_bytes(value: bool | int | float | complex, np_dtype: np.dtype, dataType: int) -> bytes:
    """A Python number as the dtype's bytes, refused where a C cast would be undefined.

    An integer dtype takes a number inside its range (a float is truncated toward zero, as a C
    cast does); NaN, an infinity or a value outside the range is refused rather than wrapped (1000
    as INT8 would be -24, NaN as INT32 INT_MIN). A floating dtype takes any real number: overflow
    gives an infinity, the IEEE result, with numpy's warning silenced so it cannot escape as an
    error under ``warnings.simplefilter("error")``.
    """
    if isinstance(value, complex) and np_dtype.kind != "c":
        if value.imag != 0:
            raise _does_not_fit(value, dataType, "the dtype is not complex, so the imaginary part would be lost")
        value = value.real
    if np_dtype.kind in "iu" and not isinstance(value, complex):
        if isinstance(value, float) and not math.isfinite(value):
            raise _does_not_fit(value, dataType, "an integer dtype has no NaN or infinity")
        whole = math.trunc(value)
        info = np.iinfo(np_dtype)
        if not info.min <= whole <= info.max:
            raise _does_not_fit(value, dataType, f"outside [{info.min}, {info.max}]")
        value = whole
    try:
        with np.errstate(over="ignore", invalid="ignore"):
            return np.array(value).astype(np_dtype, casting="unsafe").tobytes()
    except (OverflowError, ValueError, TypeError) as exc:
        raise _does_not_fit(value, dataType, str(exc)) from None


def scalar_bytes(value: object, dataType: int, need: int) -> bytes | None:
    """The bytes aclCreateScalar copies: a Python number converted to the dtype, or raw bytes as given."""
    if isinstance(value, bytes | bytearray | memoryview):
        raw = bytes(value)
    elif isinstance(value, np.generic):
        raw = value.tobytes()
    elif isinstance(value, bool | int | float | complex):
        np_dtype = numpy_dtype(to_op_dtype(dataType))
        if np_dtype is None:
            log.error("aclnn.create_scalar_failed", reason="pass this dtype's raw bits as bytes", dtype=dataType)
            return None
        raw = _number_bytes(value, np_dtype, dataType)
    else:
        raise TypeError(f"aclCreateScalar args parse failed: value must be a number, numpy scalar or bytes, "
                        f"not {type(value).__name__}")  # fmt: skip
    if len(raw) < need:
        report_undefined(
            "aclCreateScalar",
            f"the value has {len(raw)} bytes but dtype {dataType} reads {need}",
            kind=ReportKind.BAD_ARGUMENT,
        )
        return None
    return raw[:need]
