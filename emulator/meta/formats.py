"""Formats: ``aclFormat`` and the ge formats a tensor stores."""

from __future__ import annotations

from enum import IntEnum


class aclFormat(IntEnum):  # noqa: N801 - the C enum's name
    ACL_FORMAT_UNDEFINED = -1
    ACL_FORMAT_NCHW = 0
    ACL_FORMAT_NHWC = 1
    ACL_FORMAT_ND = 2
    ACL_FORMAT_NC1HWC0 = 3
    ACL_FORMAT_FRACTAL_Z = 4
    ACL_FORMAT_NC1HWC0_C04 = 12
    ACL_FORMAT_HWCN = 16
    ACL_FORMAT_NDHWC = 27
    ACL_FORMAT_FRACTAL_NZ = 29
    ACL_FORMAT_NCDHW = 30
    ACL_FORMAT_NDC1HWC0 = 32
    ACL_FRACTAL_Z_3D = 33  # sic: the header spells this one without _FORMAT_
    ACL_FORMAT_NC = 35
    ACL_FORMAT_NCL = 47
    ACL_FORMAT_FRACTAL_NZ_C0_16 = 50
    ACL_FORMAT_FRACTAL_NZ_C0_32 = 51
    ACL_FORMAT_FRACTAL_NZ_C0_2 = 52
    ACL_FORMAT_FRACTAL_NZ_C0_4 = 53
    ACL_FORMAT_FRACTAL_NZ_C0_8 = 54


FORMAT_MAX = 0xFF  # ge FORMAT_MAX: what ACL_FORMAT_UNDEFINED becomes in storage
ACL_FORMATS = frozenset(int(f) for f in aclFormat if f != aclFormat.ACL_FORMAT_UNDEFINED)
PRIVATE_FORMATS = frozenset({3, 4, 12, 29, 32, 33, 50, 51, 52, 53, 54})


_ACL_FORMAT_UNDEFINED = int(aclFormat.ACL_FORMAT_UNDEFINED)  # a plain int: no enum look-up per call


def to_op_format(acl: int) -> int:
    """ToOpFormat: ACL_FORMAT_UNDEFINED -> FORMAT_MAX; everything else kept as the same integer."""
    return FORMAT_MAX if acl == _ACL_FORMAT_UNDEFINED else int(acl)


def to_acl_format(op: int) -> int:
    """ToAclFormat: exact match against the 19 aclFormat values, else ACL_FORMAT_UNDEFINED."""
    return op if op in ACL_FORMATS else int(aclFormat.ACL_FORMAT_UNDEFINED)


def is_private_format(fmt: int) -> bool:
    """IsPrivateFormat compares the whole value: a FRACTAL_Z with a sub-format is not private."""
    return fmt in PRIVATE_FORMATS
