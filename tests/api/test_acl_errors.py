"""acl.get_recent_err_msg and Python-level argument errors.

The text layout (header = oldest user-facing entry, then ``TraceBack (most recent call last):``
and the rest oldest-first), read-and-clear, per-thread stores and de-duplication; type mistakes
raise ``TypeError("acl.<sub>.<name> args parse failed")`` and change nothing, bad values never raise.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable

import numpy as np
import pytest

from emulator import acl, process

HEADER = re.compile(r"^\[PID: (\d+)\] \d{4}-\d{2}-\d{2}-\d{2}:\d{2}:\d{2}\.\d{3}\.\d{3} (\w+)\((E[A-Z]\d{4})\): (.*)$")
FREE_NULL = "aclrtFree failed because devPtr cannot be a NULL pointer."
MALLOC_ZERO = (
    "aclMallocMemInner failed because value 0 for parameter size is invalid. Expected value: must be greater than 0."
)
TRACEBACK = " " * 8 + "TraceBack (most recent call last):"


def test_read_and_clear() -> None:
    """After one failure (device set) the first call returns the text and the second None."""
    assert acl.rt.set_device(0) == 0
    assert acl.rt.free(0) == 100000
    msg = acl.get_recent_err_msg()
    assert isinstance(msg, str)
    assert FREE_NULL in msg
    assert acl.get_recent_err_msg() is None


def test_none_when_empty() -> None:
    """With nothing reported the call returns None, with or without a device."""
    assert acl.get_recent_err_msg() is None
    assert acl.rt.set_device(0) == 0
    assert acl.get_recent_err_msg() is None


def test_successful_calls_record_nothing() -> None:
    """Successful calls leave the store empty."""
    assert acl.rt.set_device(0) == 0
    ptr, _ = acl.rt.malloc(64, 0)
    assert acl.rt.free(ptr) == 0
    assert acl.get_recent_err_msg() is None


def test_header_layout_for_eh0008(emu: process.EmulatedProcess) -> None:
    """The header is '[PID: <pid>] <time> <Title>(<ID>): <text>' followed by the indented Solution line."""
    assert acl.rt.free(0) == 100000
    msg = acl.get_recent_err_msg()
    assert msg is not None
    lines = msg.splitlines()
    match = HEADER.match(lines[0])
    assert match is not None, lines[0]
    assert match.group(2, 3, 4) == ("Invalid_Argument_Null_Pointer", "EH0008", FREE_NULL)
    assert lines[1] == " " * 8 + "Solution: Try again with a correct pointer argument."
    assert TRACEBACK not in lines


def test_header_is_oldest_entry_and_traceback_lists_the_rest() -> None:
    """With several unread failures the oldest is the header and the others follow under TraceBack, oldest first."""
    assert acl.rt.set_device(0) == 0
    assert acl.rt.free(0) == 100000
    assert acl.rt.malloc(0, 0)[1] == 100000
    assert acl.rt.set_device(-1) == 107001
    msg = acl.get_recent_err_msg()
    assert msg is not None
    lines = msg.splitlines()
    match = HEADER.match(lines[0])
    assert match is not None
    assert match.group(3, 4) == ("EH0008", FREE_NULL)
    assert TRACEBACK in lines
    rest = lines[lines.index(TRACEBACK) + 1 :]
    malloc_at = next(i for i, line in enumerate(rest) if MALLOC_ZERO in line)
    device_at = next(i for i, line in enumerate(rest) if "parameter drv devId is invalid" in line)
    assert malloc_at < device_at
    assert all(line.startswith(" " * 8) for line in rest)
    assert FREE_NULL not in "\n".join(rest)


def test_inner_entry_before_user_facing_one_goes_to_traceback() -> None:
    """An inner (E?9999) entry reported first does not become the header: the user-facing one does."""
    assert acl.rt.set_device(0) == 0
    ptr, _ = acl.rt.malloc(64, 0)
    assert acl.rt.free(ptr) == 0
    assert acl.rt.free(ptr) == 507899
    assert acl.rt.free(0) == 100000
    msg = acl.get_recent_err_msg()
    assert msg is not None
    lines = msg.splitlines()
    match = HEADER.match(lines[0])
    assert match is not None
    assert match.group(3, 4) == ("EH0008", FREE_NULL)
    assert TRACEBACK in lines
    assert len(lines) > lines.index(TRACEBACK) + 1


def test_only_inner_entries_use_inner_error_form() -> None:
    """When every entry is an inner code the first line is '<ID>: Inner Error!' (the released 8.x form)."""
    assert acl.rt.set_device(0) == 0
    ptr, _ = acl.rt.malloc(64, 0)
    assert acl.rt.free(ptr) == 0
    assert acl.rt.free(ptr) == 507899
    msg = acl.get_recent_err_msg()
    assert msg is not None
    lines = msg.splitlines()
    first = re.match(r"^(E[A-Z]9999): Inner Error!$", lines[0])
    assert first is not None, lines[0]
    assert re.match(rf"^\s+{first.group(1)}: \[PID: \d+\] \d{{4}}-\d{{2}}-\d{{2}}-", lines[1]), lines[1]


def test_set_device_bad_id_message() -> None:
    """A bad device id records EE1003 with the runtime's 'Specifying the device …' text."""
    count, _ = acl.rt.get_device_count()
    assert acl.rt.set_device(count) == 107001
    msg = acl.get_recent_err_msg()
    assert msg is not None
    match = HEADER.match(msg.splitlines()[0])
    assert match is not None
    assert match.group(3) == "EE1003"
    assert match.group(4) == (
        "Specifying the device used for computation by the current thread failed because value "
        f"{count} for parameter drv devId is invalid. Expected value: [0, {count})."
    )


def test_identical_entries_stored_once() -> None:
    """The same failure reported twice is stored once: no TraceBack, the text appears once."""
    assert acl.rt.free(0) == 100000
    assert acl.rt.free(0) == 100000
    msg = acl.get_recent_err_msg()
    assert msg is not None
    assert msg.count(FREE_NULL) == 1
    assert TRACEBACK not in msg.splitlines()


def test_messages_are_per_thread() -> None:
    """A failure on another thread is not visible on this one, and this thread's failure not there."""
    assert acl.rt.malloc(0, 0)[1] == 100000
    seen: list[str | None] = []

    def worker() -> None:
        seen.append(acl.get_recent_err_msg())
        acl.rt.free(0)
        seen.append(acl.get_recent_err_msg())

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert seen[0] is None
    assert seen[1] is not None
    assert FREE_NULL in seen[1]
    msg = acl.get_recent_err_msg()
    assert msg is not None
    assert MALLOC_ZERO in msg
    assert FREE_NULL not in msg


def test_silent_failures_record_nothing() -> None:
    """get_device / get_context without a context and a repeated init fail silently."""
    assert acl.rt.get_device()[1] == 107002
    assert acl.rt.get_context()[1] == 107002
    assert acl.init() == 0
    assert acl.init() == 100002
    assert acl.get_recent_err_msg() is None


# -- Python type errors -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: acl.rt.malloc("1", 0), "acl.rt.malloc"),
        (lambda: acl.rt.malloc(16.0, 0), "acl.rt.malloc"),
        (lambda: acl.rt.malloc(16), "acl.rt.malloc"),
        (lambda: acl.rt.malloc(size=16, policy=0), "acl.rt.malloc"),
        (lambda: acl.rt.malloc(16, 0, 0), "acl.rt.malloc"),
        (lambda: acl.rt.set_device(1.5), "acl.rt.set_device"),
        (lambda: acl.rt.set_device(device_id=0), "acl.rt.set_device"),
        (lambda: acl.rt.set_device(None), "acl.rt.set_device"),
        (lambda: acl.rt.free(None), "acl.rt.free"),
        (lambda: acl.rt.memcpy(None, 8, 0, 8, 1), "acl.rt.memcpy"),
        (lambda: acl.init(None), "acl.init"),
    ],
    ids=[
        "malloc-str",
        "malloc-float",
        "malloc-missing-arg",
        "malloc-keywords",
        "malloc-extra-arg",
        "set_device-float",
        "set_device-keyword",
        "set_device-none",
        "free-none",
        "memcpy-none",
        "init-none",
    ],
)
def test_type_errors_raise_and_change_nothing(
    emu: process.EmulatedProcess, call: Callable[[], object], name: str
) -> None:
    """A Python type mistake raises TypeError '<name> args parse failed' and changes no state."""
    with pytest.raises(TypeError, match=re.escape(f"{name} args parse failed")):
        call()
    assert acl.rt.get_device() == (0, 107002)
    assert acl.get_recent_err_msg() is None
    assert acl.rt.peek_at_last_error(0) == 107002  # from the get_device probe above, nothing else
    assert emu.registry.count() == 0
    assert acl.finalize_reference()[1] == 100037


def test_type_error_with_device_set_changes_nothing(emu: process.EmulatedProcess) -> None:
    """With a device set, a bad malloc argument allocates nothing and records nothing."""
    assert acl.rt.set_device(0) == 0
    device = emu.runtime.current_device()
    with pytest.raises(TypeError, match=r"acl\.rt\.malloc args parse failed"):
        acl.rt.malloc("1", 0)
    assert device.heap.used == 0
    assert device.live_allocations() == []
    assert acl.get_recent_err_msg() is None
    assert acl.rt.peek_at_last_error(0) == 0


# -- bad values never raise -------------------------------------------------------------------
_HOST = np.zeros(64, dtype=np.uint8)

BAD_VALUE_CALLS: list[tuple[str, Callable[[], object]]] = [
    ("set_device-negative", lambda: acl.rt.set_device(-7)),
    ("set_device-huge", lambda: acl.rt.set_device(2**40)),
    ("reset_device-unset", lambda: acl.rt.reset_device(3)),
    ("malloc-negative", lambda: acl.rt.malloc(-1, 0)),
    ("malloc-overflow", lambda: acl.rt.malloc(2**64, 0)),
    ("malloc-huge", lambda: acl.rt.malloc(2**62, 0)),
    ("free-random", lambda: acl.rt.free(0xDEAD_BEEF)),
    ("free-negative", lambda: acl.rt.free(-1)),
    ("free_host-random", lambda: acl.rt.free_host(0x1234_5678)),
    ("memcpy-kind", lambda: acl.rt.memcpy(_HOST.ctypes.data, 64, _HOST.ctypes.data + 1, 8, -3)),
    ("memcpy-count", lambda: acl.rt.memcpy(_HOST.ctypes.data, 8, _HOST.ctypes.data + 1, 2**70, 0)),
    ("memcpy-null-page", lambda: acl.rt.memcpy(0x100, 64, _HOST.ctypes.data, 64, 0)),
    ("memset-unregistered", lambda: acl.rt.memset(_HOST.ctypes.data, 64, 1, 64)),
    ("get_mem_info-attr", lambda: acl.rt.get_mem_info(99)),
    ("create_event-flag", lambda: acl.rt.create_event_with_flag(-1)),
    ("destroy_stream-random", lambda: acl.rt.destroy_stream(0xDEAD)),
    ("synchronize_stream-random", lambda: acl.rt.synchronize_stream(0xDEAD)),
    ("stream_query-random", lambda: acl.rt.stream_query(0xDEAD)),
    ("destroy_context-random", lambda: acl.rt.destroy_context(0xDEAD)),
    ("set_context-random", lambda: acl.rt.set_context(0xDEAD)),
    ("create_context-bad-device", lambda: acl.rt.create_context(1000)),
    ("synchronize_with_timeout", lambda: acl.rt.synchronize_stream_with_timeout(0, -5)),
    ("last_error-level", lambda: acl.rt.get_last_error(7)),
    ("init-missing-file", lambda: acl.init("/nonexistent/acl.json")),
]


@pytest.mark.parametrize("call", [c for _, c in BAD_VALUE_CALLS], ids=[n for n, _ in BAD_VALUE_CALLS])
def test_bad_values_return_status(call: Callable[[], object]) -> None:
    """A bad value (with a device set) never raises: the call returns a nonzero status as its last value."""
    assert acl.rt.set_device(0) == 0
    result = call()
    ret = result[-1] if isinstance(result, tuple) else result
    assert isinstance(ret, int)
    assert ret != 0


def test_parameterless_wrappers_ignore_extra_arguments() -> None:
    """As real pyACL does, a parameterless wrapper ignores extra positional arguments."""
    assert acl.rt.set_device(0) == 0
    stream, ret = acl.rt.create_stream(0)
    assert ret == 0 and stream != 0
    assert acl.rt.synchronize_device(0) == 0
    assert acl.get_soc_name(0) == acl.get_soc_name()
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.reset_device(0) == 0
