"""Fixtures every op test shares."""

from __future__ import annotations

import pytest
from binary_helpers import init_npu

from emulator import process


@pytest.fixture
def stream(emu: process.EmulatedProcess) -> int:
    """The test's fresh process with device 0 set, a stream created and aclnn initialised; the stream."""
    return init_npu()
