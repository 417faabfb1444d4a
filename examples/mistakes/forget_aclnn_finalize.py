"""Mistake: never calling aclnnFinalize. The AI CPU task space of SearchSorted stays allocated.

A program that drives aclnn without aclInit / aclFinalize (as framework adapters do) must call
aclnnFinalize itself; aclFinalize would also have released it (it runs aclnnFinalize's steps first).
Run: opbase-emu leaks examples/mistakes/forget_aclnn_finalize.py   (exit code 23: it leaked)
"""

from __future__ import annotations

import numpy as np
from _common import device_tensor, finish, start

from emulator import acl, aclnn

stream = start(init_acl=False)
seq, seq_ptr = device_tensor(np.array([1.0, 2.0, 3.0], dtype=np.float32), aclnn.ACL_FLOAT)
values, values_ptr = device_tensor(np.array([2.5], dtype=np.float32), aclnn.ACL_FLOAT)
index, index_ptr = device_tensor(np.zeros(1, dtype=np.int64), aclnn.ACL_INT64)
ws, executor, ret = aclnn.aclnnSearchSortedGetWorkspaceSize(seq, values, False, False, None, index)
aclnn.aclnnSearchSorted(0, ws, executor, stream)
acl.rt.synchronize_stream(stream)
finish(stream, [seq, values, index], [seq_ptr, values_ptr, index_ptr])
# The mistake: the program ends here, without aclnn.aclnnFinalize().
