"""Property: hostile pointers, counts and kinds to aclrtMemcpy / aclrtMemcpyAsync never crash.

Every call returns a status (no exception, no signal), a failure leaves a recent error message,
and a copy that succeeds moved exactly the bytes asked for. Destinations on the host are either
the test's own scratch buffer with a count that fits it, or addresses the process's map says
are not writable: a count that overruns a live host buffer into its mapped neighbours cannot be
told from a correct one, here as on the card, and would corrupt the interpreter running the test.
"""

from __future__ import annotations

import ctypes

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator import acl, process
from emulator.device.simulated.host_maps import HostMaps

SCRATCH = 256
DEV_BYTES = 1024
STATUSES = {0, 100000, 107000, 207000}  # success, ACL param invalid, runtime param invalid, not supported

garbage = st.one_of(
    st.sampled_from([0xDEADBEEF000, 0x10000, 2**47 - 4096, 2**64 - 1, 2**63, 4096, 1]),
    st.integers(0, 2**64 - 1),
    st.integers(-(2**63), -1),
)
counts = st.one_of(st.integers(-4, SCRATCH), st.sampled_from([-1, -(2**63), 2**32, 2**63, 2**64 - 1, 2**64]))
kinds = st.one_of(st.integers(0, 4), st.sampled_from([-1, 5, 2**31]))


@st.composite
def copies(draw: st.DrawFn) -> tuple[str, str, int, int, int, int, int]:
    dst = draw(st.sampled_from(["dev", "scratch", "garbage", "code"]))
    src = draw(st.sampled_from(["dev", "scratch", "garbage", "code"]))
    return (
        dst,
        src,
        draw(garbage),
        draw(st.integers(0, SCRATCH)),
        draw(counts),
        draw(st.one_of(st.integers(0, 2 * SCRATCH), st.sampled_from([-1, 2**64 - 1]))),
        draw(kinds),
    )


def _address(where: str, dev: int, scratch: np.ndarray, garbage_addr: int, offset: int, code: int) -> int:
    return {
        "dev": dev + offset,
        "scratch": scratch.ctypes.data + offset,
        "garbage": garbage_addr,
        "code": code,
    }[where]


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(st.lists(copies(), min_size=1, max_size=6), st.booleans())
def test_hostile_copies_return_a_status(ops: list[tuple[str, str, int, int, int, int, int]], use_async: bool) -> None:
    maps = HostMaps()
    code = ctypes.cast(ctypes.CDLL(None).getpid, ctypes.c_void_p).value
    assert code is not None
    with process.fresh():
        assert acl.init() == 0 and acl.rt.set_device(0) == 0
        dev, ret = acl.rt.malloc(DEV_BYTES, 0)
        assert ret == 0
        stream, _ = acl.rt.create_stream()
        scratch = np.zeros(SCRATCH + 64, dtype=np.uint8)
        source = np.arange(SCRATCH + 64, dtype=np.uint8)
        for dst_where, src_where, bad, offset, count, dest_max, kind in ops:
            dst = _address(dst_where, dev, scratch, bad, offset, code)
            src = _address(src_where, dev, source, bad, offset, code)
            if dst_where == "scratch" and not 0 <= count <= SCRATCH + 64 - offset:
                continue  # an overrun of a live host buffer: undetectable, see the module docstring
            if dst_where == "garbage" and count > 0 and maps.refusal(dst, count, write=True) is None:
                continue  # a garbage value that happens to be writable memory of this process
            if use_async:
                status = acl.rt.memcpy_async(dst, dest_max, src, count, kind, stream)
            else:
                status = acl.rt.memcpy(dst, dest_max, src, count, kind)
            assert isinstance(status, int) and status in STATUSES, status
            if status != 0:
                assert acl.get_recent_err_msg()
        assert acl.rt.synchronize_stream(stream) in STATUSES
        assert acl.rt.destroy_stream(stream) == 0
        assert acl.rt.free(dev) == 0
        assert acl.rt.reset_device(0) == 0 and acl.finalize() == 0


@settings(max_examples=60, deadline=None)
@given(st.integers(0, SCRATCH), st.integers(1, 64))
def test_a_good_round_trip_moves_exactly_the_bytes(offset: int, count: int) -> None:
    """Valid host ends still copy exactly: H2D then D2H gives back the source bytes."""
    with process.fresh():
        assert acl.init() == 0 and acl.rt.set_device(0) == 0
        dev, _ = acl.rt.malloc(DEV_BYTES, 0)
        source = np.random.default_rng(offset).integers(0, 256, SCRATCH + 64, dtype=np.uint8)
        back = np.zeros(64, dtype=np.uint8)
        assert acl.rt.memcpy(dev + offset, DEV_BYTES - offset, source.ctypes.data + offset, count, 1) == 0
        assert acl.rt.memcpy(back.ctypes.data, 64, dev + offset, count, 2) == 0
        assert back[:count].tobytes() == source[offset : offset + count].tobytes()
        assert acl.rt.free(dev) == 0
        assert acl.rt.reset_device(0) == 0 and acl.finalize() == 0
