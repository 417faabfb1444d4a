"""Data types: ``aclDataType`` (the C face) and ``ge::DataType`` (what opbase stores), with sizes.

Values are the header values (``ge::DataType`` and ``aclDataType``).
Tensors keep the raw ge integer, so an invalid value round-trips exactly as in the real code
(the getter maps anything without an aclDataType to ACL_DT_UNDEFINED). numpy dtypes come from
numpy or, for bfloat16 / float8 / float6 / float4, from ml_dtypes.
"""

from __future__ import annotations

from enum import IntEnum

import ml_dtypes
import numpy as np


class aclDataType(IntEnum):  # noqa: N801 - the C enum's name
    ACL_DT_UNDEFINED = -1
    ACL_FLOAT = 0
    ACL_FLOAT16 = 1
    ACL_INT8 = 2
    ACL_INT32 = 3
    ACL_UINT8 = 4
    ACL_INT16 = 6
    ACL_UINT16 = 7
    ACL_UINT32 = 8
    ACL_INT64 = 9
    ACL_UINT64 = 10
    ACL_DOUBLE = 11
    ACL_BOOL = 12
    ACL_STRING = 13
    ACL_COMPLEX64 = 16
    ACL_COMPLEX128 = 17
    ACL_BF16 = 27
    ACL_INT4 = 29
    ACL_UINT1 = 30
    ACL_COMPLEX32 = 33
    ACL_HIFLOAT8 = 34
    ACL_FLOAT8_E5M2 = 35
    ACL_FLOAT8_E4M3FN = 36
    ACL_FLOAT8_E8M0 = 37
    ACL_FLOAT6_E3M2 = 38
    ACL_FLOAT6_E2M3 = 39
    ACL_FLOAT4_E2M1 = 40
    ACL_FLOAT4_E1M2 = 41


class DataType(IntEnum):
    """ge::DataType (op::DataType): what a tensor stores."""

    DT_FLOAT = 0
    DT_FLOAT16 = 1
    DT_INT8 = 2
    DT_INT32 = 3
    DT_UINT8 = 4
    DT_INT16 = 6
    DT_UINT16 = 7
    DT_UINT32 = 8
    DT_INT64 = 9
    DT_UINT64 = 10
    DT_DOUBLE = 11
    DT_BOOL = 12
    DT_STRING = 13
    DT_DUAL_SUB_INT8 = 14
    DT_DUAL_SUB_UINT8 = 15
    DT_COMPLEX64 = 16
    DT_COMPLEX128 = 17
    DT_QINT8 = 18
    DT_QINT16 = 19
    DT_QINT32 = 20
    DT_QUINT8 = 21
    DT_QUINT16 = 22
    DT_RESOURCE = 23
    DT_STRING_REF = 24
    DT_DUAL = 25
    DT_VARIANT = 26
    DT_BF16 = 27
    DT_UNDEFINED = 28
    DT_INT4 = 29
    DT_UINT1 = 30
    DT_INT2 = 31
    DT_UINT2 = 32
    DT_COMPLEX32 = 33
    DT_HIFLOAT8 = 34
    DT_FLOAT8_E5M2 = 35
    DT_FLOAT8_E4M3FN = 36
    DT_FLOAT8_E8M0 = 37
    DT_FLOAT6_E3M2 = 38
    DT_FLOAT6_E2M3 = 39
    DT_FLOAT4_E2M1 = 40
    DT_FLOAT4_E1M2 = 41
    DT_MAX = 42


SUB_BYTE_OFFSET = 1000  # TypeSize values above this encode a bit width
FALLBACK_TYPE_SIZE = 16  # sizeof(complex<double>): TypeSize of anything without a positive table entry

# TypeSize by ge value; -1 entries (and values outside the table) fall back to 16.
_TYPE_SIZE: tuple[int, ...] = (
    *(4, 2, 1, 4, 1, -1, 2, 2, 4, 8, 8, 8, 1, -1, 1, 1, 8, 16, 1, 2, 4, 1, 2, 8, -1, 5, 8, 2, -1),
    *(1004, 1001, 1002, 1002, 4, 1, 1, 1, 1, 1006, 1006, 1004, 1004),
)


def type_size(dtype: int) -> int:
    """TypeSize(): bytes per element, or 1000 + bits for sub-byte types; 16 for anything unknown."""
    if 0 <= dtype < len(_TYPE_SIZE) and _TYPE_SIZE[dtype] > 0:
        return _TYPE_SIZE[dtype]
    return FALLBACK_TYPE_SIZE


def calc_shape_bytes(numel: int, dtype: int, *, ceil: bool = False) -> int:
    """CalcShapeBytes(): note the real flag is inverted — ceil=False rounds sub-byte sizes up."""
    size = type_size(dtype)
    if size > SUB_BYTE_OFFSET:
        bits = (size - SUB_BYTE_OFFSET) * numel
        return bits >> 3 if ceil else (bits + 7) >> 3
    return size * numel


ACL_CONVERTIBLE = frozenset(int(v) for v in aclDataType if v != aclDataType.ACL_DT_UNDEFINED)


_ACL_DT_UNDEFINED = int(aclDataType.ACL_DT_UNDEFINED)
_DT_UNDEFINED = int(DataType.DT_UNDEFINED)


def to_op_dtype(acl: int) -> int:
    """ToOpDataType: ACL_DT_UNDEFINED -> DT_UNDEFINED (28); everything else kept as the same integer.

    The two values are plain ints read once: an enum member's attribute look-up cost more than the
    rest of this function, which every aclCreateTensor and aclCreateScalar calls.
    """
    return _DT_UNDEFINED if acl == _ACL_DT_UNDEFINED else int(acl)


def to_acl_dtype(op: int) -> int:
    """ToAclDataType: the types aclDataType names map to themselves, the rest to ACL_DT_UNDEFINED."""
    return op if op in ACL_CONVERTIBLE else int(aclDataType.ACL_DT_UNDEFINED)


NUMPY_DTYPES: dict[int, np.dtype] = {
    DataType.DT_FLOAT: np.dtype(np.float32),
    DataType.DT_FLOAT16: np.dtype(np.float16),
    DataType.DT_INT8: np.dtype(np.int8),
    DataType.DT_INT32: np.dtype(np.int32),
    DataType.DT_UINT8: np.dtype(np.uint8),
    DataType.DT_INT16: np.dtype(np.int16),
    DataType.DT_UINT16: np.dtype(np.uint16),
    DataType.DT_UINT32: np.dtype(np.uint32),
    DataType.DT_INT64: np.dtype(np.int64),
    DataType.DT_UINT64: np.dtype(np.uint64),
    DataType.DT_DOUBLE: np.dtype(np.float64),
    DataType.DT_BOOL: np.dtype(np.bool_),
    DataType.DT_COMPLEX64: np.dtype(np.complex64),
    DataType.DT_COMPLEX128: np.dtype(np.complex128),
    DataType.DT_BF16: np.dtype(ml_dtypes.bfloat16),
    DataType.DT_FLOAT8_E5M2: np.dtype(ml_dtypes.float8_e5m2),
    DataType.DT_FLOAT8_E4M3FN: np.dtype(ml_dtypes.float8_e4m3fn),
    DataType.DT_FLOAT8_E8M0: np.dtype(ml_dtypes.float8_e8m0fnu),
    DataType.DT_FLOAT6_E3M2: np.dtype(ml_dtypes.float6_e3m2fn),
    DataType.DT_FLOAT6_E2M3: np.dtype(ml_dtypes.float6_e2m3fn),
    DataType.DT_FLOAT4_E2M1: np.dtype(ml_dtypes.float4_e2m1fn),
}


def numpy_dtype(dtype: int) -> np.dtype | None:
    """The numpy dtype that holds one element of ``dtype`` (None where numpy / ml_dtypes have none)."""
    return NUMPY_DTYPES.get(dtype)


# aclCreateScalar: how many bytes of the value are read for each accepted dtype.
SCALAR_BYTES: dict[int, int] = {
    aclDataType.ACL_FLOAT: 4,
    aclDataType.ACL_FLOAT16: 2,
    aclDataType.ACL_INT8: 1,
    aclDataType.ACL_INT32: 4,
    aclDataType.ACL_UINT8: 1,
    aclDataType.ACL_INT16: 2,
    aclDataType.ACL_UINT16: 2,
    aclDataType.ACL_UINT32: 4,
    aclDataType.ACL_INT64: 8,
    aclDataType.ACL_UINT64: 8,
    aclDataType.ACL_DOUBLE: 8,
    aclDataType.ACL_BOOL: 1,
    aclDataType.ACL_COMPLEX64: 8,
    aclDataType.ACL_COMPLEX128: 16,
    aclDataType.ACL_BF16: 2,
    aclDataType.ACL_HIFLOAT8: 1,
    aclDataType.ACL_FLOAT8_E5M2: 1,
    aclDataType.ACL_FLOAT8_E4M3FN: 1,
    aclDataType.ACL_FLOAT8_E8M0: 1,
    aclDataType.ACL_FLOAT6_E3M2: 1,
    aclDataType.ACL_FLOAT6_E2M3: 1,
    aclDataType.ACL_FLOAT4_E2M1: 1,
    aclDataType.ACL_FLOAT4_E1M2: 1,
}


def dtype_name(dtype: int) -> str:
    try:
        return DataType(dtype).name
    except ValueError:
        return f"DT_UNKNOWN({dtype})"


# opbase's PromoteType table: row a, column b; 28 = DT_UNDEFINED.
# Rows/columns 34..41 are DT_FLOAT (zero-initialised cells); every unlisted cell in 0..33 is DT_UNDEFINED.
_PROMOTE_COLUMNS = (0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 16, 17, 27, 33)
_PROMOTE_ROWS: dict[int, tuple[int, ...]] = {
    0: (0, 0, 0, 0, 0, 0, 28, 28, 0, 28, 11, 0, 16, 17, 0, 16),
    1: (0, 1, 1, 1, 1, 1, 28, 28, 1, 28, 11, 1, 16, 17, 0, 33),
    2: (0, 1, 2, 3, 6, 6, 28, 28, 9, 28, 11, 2, 16, 17, 27, 33),
    3: (0, 1, 3, 3, 3, 3, 28, 28, 9, 28, 11, 3, 16, 17, 27, 33),
    4: (0, 1, 6, 3, 4, 6, 28, 28, 9, 28, 11, 4, 16, 17, 27, 33),
    6: (0, 1, 6, 3, 6, 6, 28, 28, 9, 28, 11, 6, 16, 17, 27, 33),
    7: (28, 28, 28, 28, 28, 28, 7, 28, 28, 28, 28, 28, 16, 17, 28, 28),
    8: (28, 28, 28, 28, 28, 28, 28, 8, 28, 28, 28, 28, 16, 17, 28, 28),
    9: (0, 1, 9, 9, 9, 9, 28, 28, 9, 28, 11, 9, 16, 17, 27, 33),
    10: (28, 28, 28, 28, 28, 28, 28, 28, 28, 10, 28, 28, 17, 17, 28, 28),
    11: (11, 11, 11, 11, 11, 11, 28, 28, 11, 28, 11, 11, 17, 17, 11, 17),
    12: (0, 1, 2, 3, 4, 6, 28, 28, 9, 28, 11, 12, 16, 17, 27, 33),
    16: (16, 16, 16, 16, 16, 16, 28, 28, 16, 28, 17, 16, 16, 17, 16, 16),
    17: (17, 17, 17, 17, 17, 17, 28, 28, 17, 28, 17, 17, 17, 17, 17, 17),
    27: (0, 0, 27, 27, 27, 27, 28, 28, 27, 28, 11, 27, 16, 17, 27, 16),
    33: (16, 33, 33, 33, 33, 33, 28, 28, 33, 28, 17, 33, 16, 17, 16, 33),
}
_LOW_PRECISION_FLOATS = range(34, 42)  # HIFLOAT8 … FLOAT4_E1M2


def promote_type(a: int, b: int) -> int:
    """PromoteType(a, b), including the asymmetric cells and the DT_FLOAT fill for 34..41."""
    if a < 0 or b < 0 or a >= DataType.DT_MAX or b >= DataType.DT_MAX:
        return int(DataType.DT_UNDEFINED)
    if a == b:
        return a
    if a in _LOW_PRECISION_FLOATS or b in _LOW_PRECISION_FLOATS:
        return int(DataType.DT_FLOAT)
    row = _PROMOTE_ROWS.get(a)
    if row is None or b not in _PROMOTE_COLUMNS:
        return int(DataType.DT_UNDEFINED)
    return row[_PROMOTE_COLUMNS.index(b)]


COMPLEX_TYPES = frozenset({DataType.DT_COMPLEX32, DataType.DT_COMPLEX64, DataType.DT_COMPLEX128})
FLOATING_TYPES = frozenset({0, 1, 11, 27, *range(34, 42)})
INTEGRAL_TYPES = frozenset({2, 3, 4, 6, 7, 8, 9, 10})


def can_cast(src: int, dst: int) -> bool:
    """CanCast: false for complex -> non-complex, floating -> integral, and anything but bool -> bool."""
    if src in COMPLEX_TYPES and dst not in COMPLEX_TYPES:
        return False
    if src in FLOATING_TYPES and dst in INTEGRAL_TYPES:
        return False
    return not (dst == DataType.DT_BOOL and src != DataType.DT_BOOL)
