"""The async callback sample in pyACL: a report thread, callbacks after each batch's copy, no polling.

As the Ascend callback samples do it: acl.util.start_thread runs a loop that only calls
acl.rt.process_report; acl.rt.subscribe_report binds the stream to it; each batch's copy to the
device is followed by acl.rt.launch_callback, whose function reads the batch back and checks it.
The main thread synchronises the stream once at the end (which waits for the blocking callbacks),
then unsubscribes and stops the thread.

Run: python examples/pyacl/async_callback.py
"""

from __future__ import annotations

import sys
import threading

import numpy as np

from emulator import acl

ACL_CALLBACK_BLOCK = 1
H2D, D2H = 1, 2
BATCHES = 4
TIMEOUT_MS = 100


class CallbackSample:
    def __init__(self) -> None:
        self.running = True
        self.checked: list[tuple[int, bool, bool]] = []  # (batch, data right, on the report thread)
        self.tid = 0

    def report_loop(self, args: list[int]) -> None:
        acl.rt.set_context(args[0])
        while self.running:
            acl.rt.process_report(TIMEOUT_MS)

    def on_batch(self, user_data: list[object]) -> None:
        batch, ptr, expected = user_data
        assert isinstance(ptr, int) and isinstance(expected, np.ndarray) and isinstance(batch, int)
        out = np.empty_like(expected)
        acl.rt.memcpy(out.ctypes.data, out.nbytes, ptr, out.nbytes, D2H)
        self.checked.append((batch, bool(np.array_equal(out, expected)), threading.get_ident() == self.tid))

    def run(self) -> bool:
        assert acl.init() == 0 and acl.rt.set_device(0) == 0
        context, _ = acl.rt.get_context()
        stream, _ = acl.rt.create_stream()
        self.tid, ret = acl.util.start_thread(self.report_loop, [context])
        assert ret == 0 and acl.rt.subscribe_report(self.tid, stream) == 0
        buffers = []
        for batch in range(BATCHES):
            data = np.full(256, batch, dtype=np.int32)
            ptr, _ = acl.rt.malloc(data.nbytes, 0)
            buffers.append((ptr, data))
            acl.rt.memcpy_async(ptr, data.nbytes, data.ctypes.data, data.nbytes, H2D, stream)
            assert acl.rt.launch_callback(self.on_batch, [batch, ptr, data], ACL_CALLBACK_BLOCK, stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        assert acl.rt.unsubscribe_report(self.tid, stream) == 0
        self.running = False
        assert acl.util.stop_thread(self.tid) == 0
        for ptr, _ in buffers:
            acl.rt.free(ptr)
        acl.rt.destroy_stream(stream)
        acl.rt.reset_device(0)
        acl.finalize()
        return self.checked == [(batch, True, True) for batch in range(BATCHES)]


if __name__ == "__main__":
    ok = CallbackSample().run()
    print("async_callback:", "ok" if ok else "WRONG")
    sys.exit(0 if ok else 1)
