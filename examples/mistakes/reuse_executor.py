"""Mistake: running phase 2 twice with one (non-repeatable) executor; phase 2 already released it.

Run: python examples/mistakes/reuse_executor.py
"""

from __future__ import annotations

import numpy as np
from _common import device_tensor, finish, start

from emulator import acl, aclnn, process

stream = start()
x, x_ptr = device_tensor(np.ones(4, dtype=np.float32), aclnn.ACL_FLOAT)
out, out_ptr = device_tensor(np.zeros(4, dtype=np.float32), aclnn.ACL_FLOAT)
alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x, x, alpha, out)
print("first phase 2:", aclnn.aclnnAdd(0, ws, executor, stream))
print("second phase 2:", aclnn.aclnnAdd(0, ws, executor, stream), "<- the mistake")
for diagnostic in process.current().diagnostics:
    print(f"  {diagnostic}")
acl.rt.synchronize_stream(stream)
aclnn.aclDestroyScalar(alpha)
finish(stream, [x, out], [x_ptr, out_ptr])
aclnn.aclnnFinalize()
acl.finalize()
