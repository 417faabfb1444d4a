"""Mistake: reading the output with a synchronous memcpy before synchronising the stream.

On a card the copy races the queued kernel and may read stale data; the emulator reports the race,
runs the queued work first and returns the right data, so the bug is visible but deterministic.
Run: python examples/mistakes/read_before_sync.py
"""

from __future__ import annotations

import numpy as np
from _common import device_tensor, finish, start

from emulator import acl, aclnn, process
from emulator.acl import constants as c
from emulator.diagnostics import ReportKind

stream = start()
x, x_ptr = device_tensor(np.arange(4, dtype=np.float32), aclnn.ACL_FLOAT)
out, out_ptr = device_tensor(np.zeros(4, dtype=np.float32), aclnn.ACL_FLOAT)
alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x, x, alpha, out)
aclnn.aclnnAdd(0, ws, executor, stream)
result = np.empty(4, dtype=np.float32)
# the mistake: no acl.rt.synchronize_stream(stream) before this copy
acl.rt.memcpy(result.ctypes.data, result.nbytes, out_ptr, result.nbytes, c.ACL_MEMCPY_DEVICE_TO_HOST)
print("result:", result.tolist())
# the report is already on stderr; a program (or a test) reads it from the process's diagnostics
for race in process.current().diagnostics.of_kind(ReportKind.RACE):
    print(f"  {race.kind} at {race.site}: {race.api} {race.message}")
aclnn.aclDestroyScalar(alpha)
finish(stream, [x, out], [x_ptr, out_ptr])
aclnn.aclnnFinalize()
acl.finalize()
