"""acl.rt devices, contexts and the last-error slot."""

from __future__ import annotations

import ctypes
import threading

import numpy as np
import pytest

from emulator import acl, process
from emulator.status import AclError

AICORE_CORE_NUM = 101
VECTOR_CORE_NUM = 201
AICPU_CORE_NUM = 1
L2_CACHE_SIZE = 302
MAX_STREAMS_910B = 1984  # per device, default streams included


def _streams_until_refused() -> tuple[int, int]:
    """Create streams until one is refused: (how many were created, the refusing status)."""
    created = 0
    while True:
        _, ret = acl.rt.create_stream()
        if ret != 0:
            return created, ret
        created += 1
        assert created <= MAX_STREAMS_910B


# -- set / reset / force ----------------------------------------------------------------------
def test_set_device_out_of_range() -> None:
    """aclrtSetDevice(count) and aclrtSetDevice(-1) give 107001."""
    count, ret = acl.rt.get_device_count()
    assert ret == 0
    assert acl.rt.set_device(count) == 107001
    assert acl.rt.set_device(-1) == AclError.ACL_ERROR_RT_INVALID_DEVICEID
    assert acl.rt.get_device()[1] == 107002


def test_set_device_last_valid_id() -> None:
    """The highest valid id is count - 1."""
    count, _ = acl.rt.get_device_count()
    assert acl.rt.set_device(count - 1) == 0
    assert acl.rt.get_device() == (count - 1, 0)


def test_set_twice_reset_three_times() -> None:
    """Set×2, Reset×2, Reset gives 0, 0, 0, 0, 507007."""
    assert acl.rt.set_device(0) == 0
    assert acl.rt.set_device(0) == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.rt.reset_device(0) == 507007


def test_set_set_force_reset() -> None:
    """Set, Set, ResetForce, Reset gives 0, 0, 0, 507007."""
    assert acl.rt.set_device(0) == 0
    assert acl.rt.set_device(0) == 0
    assert acl.rt.reset_device_force(0) == 0
    assert acl.rt.reset_device(0) == AclError.ACL_ERROR_RT_CONTEXT_RELEASE_ERROR


def test_force_after_count_reached_zero() -> None:
    """Set, Set, Reset, Reset, Force: the force comes after the count is 0 and gives 507007."""
    assert acl.rt.set_device(0) == 0
    assert acl.rt.set_device(0) == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.rt.reset_device_force(0) == 507007


def test_reset_never_set_device() -> None:
    """Reset of a device that was never set is 507007; an invalid id is 107001."""
    assert acl.rt.reset_device(0) == 507007
    assert acl.rt.reset_device(-1) == 107001
    assert acl.rt.reset_device_force(1) == 507007


def test_partial_reset_keeps_context() -> None:
    """While the primary count stays above 0 the thread keeps its current context."""
    assert acl.rt.set_device(0) == 0
    assert acl.rt.set_device(0) == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.rt.get_device() == (0, 0)
    ptr, ret = acl.rt.malloc(32, 0)
    assert ret == 0
    assert acl.rt.free(ptr) == 0


def test_last_reset_clears_current_context() -> None:
    """When the count reaches 0 the thread has no current context: later calls give 107002."""
    assert acl.rt.set_device(0) == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.rt.get_device() == (0, 107002)
    assert acl.rt.create_stream()[1] == 107002
    assert acl.rt.malloc(16, 0)[1] == 107002


def test_set_device_counts_from_other_threads() -> None:
    """aclrtSetDevice from another thread adds to the same process-wide count."""
    assert acl.rt.set_device(0) == 0
    results: list[int] = []
    thread = threading.Thread(target=lambda: results.append(acl.rt.set_device(0)))
    thread.start()
    thread.join()
    assert results == [0]
    assert acl.rt.reset_device(0) == 0
    assert acl.rt.get_device() == (0, 0)
    assert acl.rt.reset_device(0) == 0
    assert acl.rt.reset_device(0) == 507007


def test_threads_share_default_context_and_stream() -> None:
    """Threads that set the same device share one default context and one default stream."""
    assert acl.rt.set_device(0) == 0
    here = (acl.rt.get_context(), acl.rt.ctx_get_current_default_stream())
    there: list[object] = []

    def worker() -> None:
        assert acl.rt.set_device(0) == 0
        there.append((acl.rt.get_context(), acl.rt.ctx_get_current_default_stream()))

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert there == [here]


def test_last_reset_waits_for_queued_work() -> None:
    """The last reset waits for the tasks of the default context's streams; device memory survives it."""
    assert acl.rt.set_device(0) == 0
    stream, _ = acl.rt.create_stream()
    data = np.arange(64, dtype=np.uint8)
    src, _ = acl.rt.malloc_host(64)
    ctypes.memmove(src, data.ctypes.data, 64)
    dev, _ = acl.rt.malloc(64, 0)
    assert acl.rt.memset(dev, 64, 0, 64) == 0
    assert acl.rt.memcpy_async(dev, 64, src, 64, 1, stream) == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.rt.set_device(0) == 0
    out = np.zeros(64, dtype=np.uint8)
    assert acl.rt.memcpy(out.ctypes.data, 64, dev, 64, 2) == 0
    np.testing.assert_array_equal(out, data)
    assert process.current().runtime.current_device().races == []


def test_last_reset_destroys_primary_context_streams() -> None:
    """The last reset destroys the streams created under the primary context: destroying one is 107017."""
    assert acl.rt.set_device(0) == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.rt.destroy_stream(stream) == 107017
    assert acl.rt.set_device(0) == 0
    assert acl.rt.destroy_stream(stream) == AclError.ACL_ERROR_RT_INVALID_HANDLE
    assert acl.rt.synchronize_stream(stream) == 107017


def test_last_reset_keeps_explicit_context_streams() -> None:
    """Streams of an explicit context survive the reset of the device's primary context."""
    ctx, ret = acl.rt.create_context(0)
    assert ret == 0
    ctx_stream, ret = acl.rt.create_stream()
    assert ret == 0
    assert acl.rt.set_device(0) == 0
    primary_stream, ret = acl.rt.create_stream()
    assert ret == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.rt.set_context(ctx) == 0
    assert acl.rt.destroy_stream(ctx_stream) == 0
    assert acl.rt.destroy_stream(primary_stream) == 107017
    assert acl.rt.destroy_context(ctx) == 0


def test_set_device_after_full_reset_works_again() -> None:
    """After a full reset the next aclrtSetDevice brings the primary context back."""
    assert acl.rt.set_device(0) == 0
    assert acl.rt.reset_device(0) == 0
    assert acl.rt.set_device(0) == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    assert acl.rt.destroy_stream(stream) == 0


# -- get_device / count / run mode ------------------------------------------------------------
def test_get_device_before_set_is_silent() -> None:
    """aclrtGetDevice with no current context gives 107002 and records no message."""
    assert acl.rt.get_device() == (0, 107002)
    assert acl.get_recent_err_msg() is None


def test_get_device_after_set() -> None:
    """aclrtGetDevice reports the device that aclrtSetDevice made current."""
    assert acl.rt.set_device(2) == 0
    assert acl.rt.get_device() == (2, 0)


def test_get_device_count() -> None:
    """aclrtGetDeviceCount needs no device and reports at least one device."""
    count, ret = acl.rt.get_device_count()
    assert ret == 0
    assert 1 <= count <= 64


def test_get_run_mode_is_host() -> None:
    """An emulated card runs in EP mode: aclrtGetRunMode reports ACL_HOST (1)."""
    assert acl.rt.get_run_mode() == (1, 0)


# -- contexts ---------------------------------------------------------------------------------
def test_create_context_becomes_current_without_set_device() -> None:
    """aclrtCreateContext needs no aclrtSetDevice and makes the new context current."""
    ctx, ret = acl.rt.create_context(1)
    assert ret == 0
    assert ctx != 0
    assert acl.rt.get_context() == (ctx, 0)
    assert acl.rt.get_device() == (1, 0)
    assert acl.rt.destroy_context(ctx) == 0


def test_create_context_has_own_default_stream() -> None:
    """An explicit context has its own default stream, distinct from the primary context's."""
    assert acl.rt.set_device(0) == 0
    primary_default, ret = acl.rt.ctx_get_current_default_stream()
    assert ret == 0
    ctx, ret = acl.rt.create_context(0)
    assert ret == 0
    ctx_default, ret = acl.rt.ctx_get_current_default_stream()
    assert ret == 0
    assert ctx_default not in (0, primary_default)
    assert acl.rt.destroy_context(ctx) == 0


def test_stream_limit_after_set_device() -> None:
    """After aclrtSetDevice the default stream exists, so 1983 explicit streams fit and the next is 207008."""
    assert acl.rt.set_device(0) == 0
    assert _streams_until_refused() == (MAX_STREAMS_910B - 1, 207008)


def test_create_context_brings_up_primary_stream() -> None:
    """The first aclrtCreateContext on a device also brings up the primary stream, which counts against the limit."""
    _, ret = acl.rt.create_context(0)
    assert ret == 0
    assert _streams_until_refused() == (MAX_STREAMS_910B - 2, 207008)


def test_create_context_bad_device() -> None:
    """aclrtCreateContext on an invalid device id gives 107001."""
    count, _ = acl.rt.get_device_count()
    assert acl.rt.create_context(count) == (0, 107001)
    assert acl.rt.create_context(-1)[1] == 107001


def test_destroy_and_set_null_context() -> None:
    """A null context handle gives 100000 for destroy and set."""
    assert acl.rt.destroy_context(0) == 100000
    assert acl.rt.set_context(0) == AclError.ACL_ERROR_INVALID_PARAM


def test_destroy_primary_context() -> None:
    """Destroying the primary context from aclrtGetCurrentContext gives 107002."""
    assert acl.rt.set_device(0) == 0
    primary, ret = acl.rt.get_context()
    assert ret == 0
    assert acl.rt.destroy_context(primary) == 107002
    msg = acl.get_recent_err_msg()
    assert msg is not None
    assert "EE1017" in msg
    assert "Primary context cannot be destroyed explicitly" in msg
    assert acl.rt.get_context() == (primary, 0)


def test_destroy_context_twice() -> None:
    """Destroying an explicit context a second time gives 107002."""
    ctx, _ = acl.rt.create_context(0)
    assert acl.rt.destroy_context(ctx) == 0
    assert acl.rt.destroy_context(ctx) == 107002


def test_set_destroyed_context() -> None:
    """aclrtSetCurrentContext with a destroyed or made-up handle gives 107000."""
    ctx, _ = acl.rt.create_context(0)
    assert acl.rt.destroy_context(ctx) == 0
    assert acl.rt.set_context(ctx) == 107000
    assert acl.rt.set_context(0x1234) == 107000


def test_get_context_without_context_is_silent() -> None:
    """aclrtGetCurrentContext with no context gives 107002 and records no message."""
    assert acl.rt.get_context() == (0, 107002)
    assert acl.get_recent_err_msg() is None


def test_set_device_switches_back_to_primary_context() -> None:
    """aclrtSetDevice after an explicit context clears it: the primary context is current again."""
    assert acl.rt.set_device(0) == 0
    primary, _ = acl.rt.get_context()
    ctx, _ = acl.rt.create_context(0)
    assert acl.rt.get_context() == (ctx, 0)
    assert acl.rt.set_device(0) == 0
    assert acl.rt.get_context() == (primary, 0)
    assert acl.rt.set_context(ctx) == 0
    assert acl.rt.get_context() == (ctx, 0)
    assert acl.rt.destroy_context(ctx) == 0


def test_set_context_of_another_device_switches_device() -> None:
    """Switching to a context of another device switches the thread's device too."""
    ctx1, _ = acl.rt.create_context(1)
    assert acl.rt.set_device(0) == 0
    assert acl.rt.get_device() == (0, 0)
    assert acl.rt.set_context(ctx1) == 0
    assert acl.rt.get_device() == (1, 0)
    assert acl.rt.destroy_context(ctx1) == 0


def test_context_is_per_thread() -> None:
    """The current context is thread-local: a new thread starts with none."""
    assert acl.rt.set_device(0) == 0
    seen: list[tuple[int, int]] = []
    thread = threading.Thread(target=lambda: seen.append(acl.rt.get_device()))
    thread.start()
    thread.join()
    assert seen == [(0, 107002)]


def test_context_may_be_current_in_two_threads() -> None:
    """A context set current on another thread is used there; it still belongs to this thread too."""
    ctx, _ = acl.rt.create_context(0)
    seen: list[object] = []

    def worker() -> None:
        seen.append(acl.rt.set_context(ctx))
        seen.append(acl.rt.get_context())

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert seen == [0, (ctx, 0)]
    assert acl.rt.get_context() == (ctx, 0)
    assert acl.rt.destroy_context(ctx) == 0


def test_destroy_context_destroys_its_streams() -> None:
    """Destroying a context tears down its streams: their handles are stale afterwards."""
    ctx, _ = acl.rt.create_context(0)
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    assert acl.rt.destroy_context(ctx) == 0
    assert acl.rt.set_device(0) == 0
    assert acl.rt.destroy_stream(stream) == 107017


def test_stream_of_other_context_cannot_be_destroyed() -> None:
    """A stream created in context A, destroyed while context B is current, gives 107003."""
    ctx_a, _ = acl.rt.create_context(0)
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    ctx_b, _ = acl.rt.create_context(0)
    assert acl.rt.destroy_stream(stream) == 107003
    msg = acl.get_recent_err_msg()
    assert msg is not None
    assert "does not belong to the current context" in msg
    assert acl.rt.synchronize_stream(stream) == 0  # synchronising works from any context
    assert acl.rt.set_context(ctx_a) == 0
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.destroy_context(ctx_b) == 0
    assert acl.rt.destroy_context(ctx_a) == 0


# -- device info ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("attr", "value"),
    [(AICORE_CORE_NUM, 24), (VECTOR_CORE_NUM, 48), (AICPU_CORE_NUM, 6), (L2_CACHE_SIZE, 192 * 1024 * 1024)],
)
def test_get_device_info_910b2(attr: int, value: int) -> None:
    """aclrtGetDeviceInfo answers the SoC facts of the default Ascend910B2 without a device set."""
    assert acl.rt.get_device_info(0, attr) == (value, 0)


# -- last error -------------------------------------------------------------------------------
def test_last_error_starts_at_zero() -> None:
    """A thread's last error is 0 before any failure."""
    assert acl.rt.peek_at_last_error(0) == 0
    assert acl.rt.get_last_error(0) == 0


def test_runtime_failure_sets_last_error() -> None:
    """A runtime failure sets the last error; peek keeps it, get returns it and resets it to 0."""
    assert acl.rt.set_device(-1) == 107001
    assert acl.rt.peek_at_last_error(0) == 107001
    assert acl.rt.peek_at_last_error(0) == 107001
    assert acl.rt.get_last_error(0) == 107001
    assert acl.rt.get_last_error(0) == 0
    assert acl.rt.peek_at_last_error(0) == 0


def test_acl_layer_failure_does_not_set_last_error() -> None:
    """ACL-layer 100000 failures leave the last error alone."""
    assert acl.rt.free(0) == 100000
    assert acl.rt.malloc(0, 0)[1] == 100000
    assert acl.rt.peek_at_last_error(0) == 0
    assert acl.rt.set_device(0) == 0
    assert acl.rt.destroy_stream(0xBAD0) == 107017
    assert acl.rt.free(0) == 100000
    assert acl.rt.peek_at_last_error(0) == 107017


def test_last_error_is_overwritten_by_later_runtime_failure() -> None:
    """Every runtime failure overwrites the slot: the newest code wins."""
    assert acl.rt.set_device(-1) == 107001
    assert acl.rt.get_device()[1] == 107002
    assert acl.rt.get_last_error(0) == 107002


def test_last_error_is_per_thread() -> None:
    """A failure on another thread does not touch this thread's last error."""
    thread = threading.Thread(target=lambda: acl.rt.set_device(-1))
    thread.start()
    thread.join()
    assert acl.rt.peek_at_last_error(0) == 0


def test_last_error_level_must_be_thread() -> None:
    """Only ACL_RT_THREAD_LEVEL (0) is accepted; any other level gives 100000."""
    assert acl.rt.peek_at_last_error(1) == 100000
    assert acl.rt.get_last_error(1) == 100000
    assert acl.rt.peek_at_last_error(0) == 0
