"""Run an op of one's own: build its package, point ASCEND_CUSTOM_OPP_PATH at it, bind, call.

python examples/custom_op/run_square.py [PACKAGE_DIR]
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import square_op

from emulator import acl, aclnn
from emulator.kernels.build_opp import write_custom_package


def check(ret: int, what: str) -> None:
    if ret != 0:
        raise SystemExit(f"{what} failed: {ret} {acl.get_recent_err_msg()}")


def main(package: Path) -> np.ndarray:
    write_custom_package(package, square_op.OPS)
    os.environ["ASCEND_CUSTOM_OPP_PATH"] = str(package)  # read when the emulated process starts
    ops = aclnn.bind_ops(square_op)

    check(acl.init(), "acl.init")
    check(acl.rt.set_device(0), "set_device")
    stream, ret = acl.rt.create_stream()
    check(ret, "create_stream")
    check(aclnn.aclnnInit(None), "aclnnInit")

    host = np.arange(-3, 3, dtype=np.float32).reshape(2, 3)
    result = np.empty_like(host)
    ptrs, tensors = [], []
    for source in (host, result):
        ptr, ret = acl.rt.malloc(source.nbytes, 0)
        check(ret, "malloc")
        check(acl.rt.memcpy(ptr, source.nbytes, source.ctypes.data, source.nbytes, 1), "memcpy")
        ptrs.append(ptr)
        tensors.append(
            aclnn.aclCreateTensor([2, 3], 2, aclnn.ACL_FLOAT, [3, 1], 0, aclnn.ACL_FORMAT_ND, [2, 3], 2, ptr)
        )

    ws, executor, ret = ops["aclnnSquareGetWorkspaceSize"](tensors[0], tensors[1])
    check(ret, "aclnnSquareGetWorkspaceSize")
    workspace = 0
    if ws:
        workspace, ret = acl.rt.malloc(ws, 0)
        check(ret, "workspace malloc")
    check(ops["aclnnSquare"](workspace, ws, executor, stream), "aclnnSquare")
    check(acl.rt.synchronize_stream(stream), "synchronize_stream")
    check(acl.rt.memcpy(result.ctypes.data, result.nbytes, ptrs[1], result.nbytes, 2), "memcpy back")

    for tensor in tensors:
        check(aclnn.aclDestroyTensor(tensor), "aclDestroyTensor")
    for ptr in (*ptrs, *((workspace,) if workspace else ())):
        check(acl.rt.free(ptr), "free")
    check(acl.rt.destroy_stream(stream), "destroy_stream")
    check(acl.rt.reset_device(0), "reset_device")
    check(aclnn.aclnnFinalize(), "aclnnFinalize")
    check(acl.finalize(), "acl.finalize")
    return result


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp()) / "custom_opp"
    print(main(target))
