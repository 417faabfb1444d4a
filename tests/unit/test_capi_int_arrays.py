"""An int-array parameter's check: the plain-int fast path gives the same answers as the per-item one."""

from __future__ import annotations

import numpy as np
import pytest

from emulator.capi.types import array_type

INT64 = array_type("int64_t", True).accepts
UINT8 = array_type("uint8_t", True).accepts


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ([2, 4], True),
        ((1 << 63) - 1, False),  # not a sequence
        ([(1 << 63) - 1, -(1 << 63)], True),
        ([1 << 64], False),  # past the widest C integer
        ([-(1 << 63) - 1], False),
        ([1, True], False),  # a bool is no int64_t, also beside plain ints
        ([1, np.int64(3)], True),  # numpy integers take the per-item path
        ([1, 2.0], False),
        ([], True),
        (None, True),
        ("12", False),
    ],
)
def test_int64_array_accepts_what_c_takes(value: object, ok: bool) -> None:
    assert INT64(value) is ok


def test_a_narrow_element_type_checks_its_range() -> None:
    assert UINT8([0, 255])
    assert not UINT8([0, 256])
    assert not UINT8([-129])
