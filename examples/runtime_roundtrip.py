"""A pyACL-style round trip on the simulated NPU: pinned memory, an async copy, an event timing.

Run: python examples/runtime_roundtrip.py
"""

from __future__ import annotations

import ctypes

import numpy as np

from emulator import acl
from emulator.acl import constants as c


def check(ret: int, what: str) -> None:
    if ret != 0:
        raise SystemExit(f"{what} failed: {ret}\n{acl.get_recent_err_msg()}")


def main() -> None:
    check(acl.init(), "acl.init")
    check(acl.rt.set_device(0), "set_device")
    stream, ret = acl.rt.create_stream()
    check(ret, "create_stream")

    data = np.linspace(0.0, 1.0, 1 << 20, dtype=np.float32)
    nbytes = data.nbytes
    pinned, ret = acl.rt.malloc_host(nbytes)
    check(ret, "malloc_host")
    ctypes.memmove(pinned, data.ctypes.data, nbytes)
    dev, ret = acl.rt.malloc(nbytes, c.ACL_MEM_MALLOC_HUGE_FIRST)
    check(ret, "malloc")

    start, ret = acl.rt.create_event()
    check(ret, "create_event")
    end, ret = acl.rt.create_event()
    check(ret, "create_event")
    check(acl.rt.record_event(start, stream), "record start")
    check(acl.rt.memcpy_async(dev, nbytes, pinned, nbytes, c.ACL_MEMCPY_HOST_TO_DEVICE, stream), "H2D")
    check(acl.rt.record_event(end, stream), "record end")
    check(acl.rt.synchronize_stream(stream), "synchronize_stream")
    ms, ret = acl.rt.event_elapsed_time(start, end)
    check(ret, "event_elapsed_time")
    print(f"H2D of {nbytes >> 20} MiB took {ms:.3f} ms of simulated device time")

    back = np.empty_like(data)
    check(acl.rt.memcpy(back.ctypes.data, nbytes, dev, nbytes, c.ACL_MEMCPY_DEVICE_TO_HOST), "D2H")
    assert np.array_equal(back, data)
    free, total, ret = acl.rt.get_mem_info(c.ACL_HBM_MEM)
    check(ret, "get_mem_info")
    print(f"HBM: {free} of {total} bytes free")

    for event in (start, end):
        check(acl.rt.destroy_event(event), "destroy_event")
    check(acl.rt.free(dev), "free")
    check(acl.rt.free_host(pinned), "free_host")
    check(acl.rt.destroy_stream(stream), "destroy_stream")
    check(acl.rt.reset_device(0), "reset_device")
    check(acl.finalize(), "finalize")


if __name__ == "__main__":
    main()
