"""The aclnn lifecycle in the pinned Python conventions: init, tensors, a two-phase Add, teardown.

Run: python examples/quickstart_add.py
Trace it: opbase-emu trace examples/quickstart_add.py -o trace.json --svg timeline.svg
"""

from __future__ import annotations

import numpy as np

from emulator import acl, aclnn
from emulator.acl import constants as c


def check(ret: int, what: str) -> None:
    if ret != 0:
        raise SystemExit(f"{what} failed: {ret}\n{acl.get_recent_err_msg()}")


def to_device(host: np.ndarray, dtype: int) -> tuple[object, int]:
    ptr, ret = acl.rt.malloc(host.nbytes, c.ACL_MEM_MALLOC_HUGE_FIRST)
    check(ret, "acl.rt.malloc")
    check(acl.rt.memcpy(ptr, host.nbytes, host.ctypes.data, host.nbytes, c.ACL_MEMCPY_HOST_TO_DEVICE), "memcpy")
    shape = list(host.shape)
    strides = [s // host.itemsize for s in host.strides]
    tensor = aclnn.aclCreateTensor(shape, len(shape), dtype, strides, 0, aclnn.ACL_FORMAT_ND, shape, len(shape), ptr)
    return tensor, ptr


def main() -> None:
    check(acl.init(), "acl.init")
    check(acl.rt.set_device(0), "set_device")
    stream, ret = acl.rt.create_stream()
    check(ret, "create_stream")
    check(aclnn.aclnnInit(None), "aclnnInit")

    x_host = np.linspace(-1, 1, 4096, dtype=np.float16).reshape(64, 64)
    y_host = np.full((64, 64), 0.25, dtype=np.float32)
    x, x_ptr = to_device(x_host, aclnn.ACL_FLOAT16)
    y, y_ptr = to_device(y_host, aclnn.ACL_FLOAT)
    out, out_ptr = to_device(np.zeros((64, 64), dtype=np.float32), aclnn.ACL_FLOAT)
    alpha = aclnn.aclCreateScalar(3.0, aclnn.ACL_FLOAT)

    ws, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x, y, alpha, out)
    check(ret, "aclnnAddGetWorkspaceSize")
    workspace = 0
    if ws:
        workspace, ret = acl.rt.malloc(ws, c.ACL_MEM_MALLOC_HUGE_FIRST)
        check(ret, "workspace malloc")
    check(aclnn.aclnnAdd(workspace, ws, executor, stream), "aclnnAdd")
    check(acl.rt.synchronize_stream(stream), "synchronize_stream")

    result = np.empty((64, 64), dtype=np.float32)
    check(acl.rt.memcpy(result.ctypes.data, result.nbytes, out_ptr, result.nbytes, c.ACL_MEMCPY_DEVICE_TO_HOST), "read")
    expected = x_host.astype(np.float32) + 3.0 * y_host
    print(f"max |out - numpy| = {np.abs(result - expected).max():.3g} (workspace {ws} bytes)")

    for tensor in (x, y, out):
        check(aclnn.aclDestroyTensor(tensor), "aclDestroyTensor")
    check(aclnn.aclDestroyScalar(alpha), "aclDestroyScalar")
    for ptr in (x_ptr, y_ptr, out_ptr, workspace):
        if ptr:
            check(acl.rt.free(ptr), "acl.rt.free")
    check(acl.rt.destroy_stream(stream), "destroy_stream")
    check(acl.rt.reset_device(0), "reset_device")
    check(aclnn.aclnnFinalize(), "aclnnFinalize")
    check(acl.finalize(), "acl.finalize")


if __name__ == "__main__":
    main()
