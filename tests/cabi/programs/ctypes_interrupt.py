"""A Python program calling the SDK's C library through ctypes gets a Ctrl-C inside a long aclrtSynchronizeStream."""

import _thread
import ctypes
import sys
import threading

import numpy as np

from emulator import acl, aclnn
from emulator.acl import constants as c

lib = ctypes.CDLL(sys.argv[1])
assert acl.init("") == 0 and acl.rt.set_device(0) == 0
stream, _ = acl.rt.create_stream()
n = 4 << 20
host = (np.arange(n) % 1000).astype(np.float32)
ptrs, tensors = [], []
for _ in range(3):
    ptr, _ = acl.rt.malloc(host.nbytes, 0)
    acl.rt.memcpy(ptr, host.nbytes, host.ctypes.data, host.nbytes, c.ACL_MEMCPY_HOST_TO_DEVICE)
    ptrs.append(ptr)
    tensors.append(aclnn.aclCreateTensor([n], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [n], 1, ptr))
alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)


def adds(rounds):
    for _ in range(rounds):
        ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(tensors[0], tensors[1], alpha, tensors[2])
        assert ret == 0 and ws == 0
        assert aclnn.aclnnAdd(0, 0, executor, stream) == 0


adds(240)  # long enough a queue that the synchronize is still draining when the timer fires
threading.Timer(0.01, _thread.interrupt_main).start()
try:
    ret = lib.aclrtSynchronizeStream(ctypes.c_void_p(stream))
    print("returned", ret)
except KeyboardInterrupt:
    print("KeyboardInterrupt after the call")
print("next", acl.rt.synchronize_stream(stream))
adds(1)
print("again", acl.rt.synchronize_stream(stream))
out = np.empty_like(host)
acl.rt.memcpy(out.ctypes.data, out.nbytes, ptrs[2], out.nbytes, c.ACL_MEMCPY_DEVICE_TO_HOST)
print("wrong", int((out != 2 * host).sum()))
for t in tensors:
    aclnn.aclDestroyTensor(t)
aclnn.aclDestroyScalar(alpha)
for p in ptrs:
    acl.rt.free(p)
acl.rt.destroy_stream(stream)
acl.rt.reset_device(0)
print("finalize", acl.finalize())
