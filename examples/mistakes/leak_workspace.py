"""Mistake: allocating a workspace for phase 2 and never freeing it.

Run: opbase-emu leaks examples/mistakes/leak_workspace.py   (exit code 23: it leaked)
"""

from __future__ import annotations

import numpy as np
from _common import device_tensor, finish, start

from emulator import acl, aclnn
from emulator.acl import constants as c

stream = start()
x, x_ptr = device_tensor(np.ones((4, 5), dtype=np.float16), aclnn.ACL_FLOAT16)
y, y_ptr = device_tensor(np.ones((4, 5), dtype=np.float32), aclnn.ACL_FLOAT)
out, out_ptr = device_tensor(np.zeros((4, 5), dtype=np.float32), aclnn.ACL_FLOAT)
alpha = aclnn.aclCreateScalar(2.0, aclnn.ACL_FLOAT)
ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x, y, alpha, out)  # mixed dtypes: a Cast intermediate
workspace, ret = acl.rt.malloc(ws, c.ACL_MEM_MALLOC_HUGE_FIRST)
aclnn.aclnnAdd(workspace, ws, executor, stream)
acl.rt.synchronize_stream(stream)
aclnn.aclDestroyScalar(alpha)
finish(stream, [x, y, out], [x_ptr, y_ptr, out_ptr])  # the mistake: workspace is not freed
aclnn.aclnnFinalize()
acl.finalize()
