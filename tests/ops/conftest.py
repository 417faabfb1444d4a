"""Fixtures every op test shares."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from device_helpers import SESSIONS

from emulator import npu, process


@pytest.fixture
def session(emu: process.EmulatedProcess) -> Iterator[npu.Session]:
    """The test's fresh process with an open ``npu.Session`` (acl.init, device 0, a stream, aclnnInit).

    It is not closed: the process is discarded after the test, and op tests destroy handles by hand
    (tensor lists own their members), which a session teardown would destroy a second time.
    """
    opened = npu.Session().open()
    SESSIONS.append(opened)
    yield opened
    SESSIONS.remove(opened)


@pytest.fixture
def stream(session: npu.Session) -> int:
    """The test session's stream."""
    assert session.stream is not None
    return int(session.stream)
