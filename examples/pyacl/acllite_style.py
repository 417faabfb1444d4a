"""An ACLLite-style pyACL program: resource, stream and memory helpers with logging, unchanged pyACL calls.

Written the way the Ascend samples' ACLLite library is (a resource object that owns the device,
context and stream; helpers that copy numpy arrays through dvpp or device memory and wrap them in
data buffers and tensor descriptors; every step logged with acl.app_log, including from
``__del__``). Only the import differs from a program for a card.

Run: python examples/pyacl/acllite_style.py
"""

from __future__ import annotations

import sys

import numpy as np

from emulator import acl

ACL_SUCCESS = 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST = 1, 2
ACL_INFO, ACL_ERROR = 1, 3
ACL_FLOAT, ACL_FORMAT_ND = 0, 2


def log_info(*msg: object) -> None:
    acl.app_log(ACL_INFO, "".join(str(m) for m in msg))


def log_error(*msg: object) -> None:
    acl.app_log(ACL_ERROR, "".join(str(m) for m in msg))


def check_ret(message: str, ret: int) -> None:
    if ret != ACL_SUCCESS:
        log_error(f"{message} failed ret={ret}")
        raise SystemExit(f"{message} failed ret={ret}: {acl.get_recent_err_msg()}")


class AclLiteResource:
    """Owns the device, its context and a stream, released in the samples' order."""

    def __init__(self, device_id: int = 0) -> None:
        self.device_id = device_id
        self.context = 0
        self.stream = 0
        self.run_mode = 0

    def init(self) -> None:
        check_ret("acl.init", acl.init())
        check_ret("acl.rt.set_device", acl.rt.set_device(self.device_id))
        self.context, ret = acl.rt.create_context(self.device_id)
        check_ret("acl.rt.create_context", ret)
        self.stream, ret = acl.rt.create_stream()
        check_ret("acl.rt.create_stream", ret)
        self.run_mode, ret = acl.rt.get_run_mode()
        check_ret("acl.rt.get_run_mode", ret)
        log_info("Init resource success, soc ", acl.get_soc_name(self.device_id))  # pyACL ignores the argument

    def __del__(self) -> None:
        if self.stream:
            acl.rt.destroy_stream(self.stream)
        if self.context:
            acl.rt.destroy_context(self.context)
        acl.rt.reset_device(self.device_id)
        acl.finalize()
        log_info("Release acl resource success")


class AclLiteImage:
    """A host array copied into dvpp memory, with the data buffer and descriptor a model input needs."""

    def __init__(self, array: np.ndarray) -> None:
        self.shape = array.shape
        self.size = array.nbytes
        self.ptr, ret = acl.media.dvpp_malloc(self.size)
        check_ret("acl.media.dvpp_malloc", ret)
        ret = acl.rt.memcpy(self.ptr, self.size, array.ctypes.data, self.size, ACL_MEMCPY_HOST_TO_DEVICE)
        check_ret("acl.rt.memcpy", ret)
        self.buffer = acl.create_data_buffer(self.ptr, self.size)
        self.desc = acl.create_tensor_desc(ACL_FLOAT, list(self.shape), ACL_FORMAT_ND)

    def to_host(self) -> np.ndarray:
        out = np.empty(self.shape, dtype=np.float32)
        ptr = acl.get_data_buffer_addr(self.buffer)
        size = acl.get_data_buffer_size_v2(self.buffer)
        check_ret("acl.rt.memcpy", acl.rt.memcpy(out.ctypes.data, out.nbytes, ptr, size, ACL_MEMCPY_DEVICE_TO_HOST))
        return out

    def destroy(self) -> None:
        acl.destroy_tensor_desc(self.desc)
        check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(self.buffer))
        check_ret("acl.media.dvpp_free", acl.media.dvpp_free(self.ptr))
        log_info("image released")


def main() -> int:
    resource = AclLiteResource()
    resource.init()
    frame = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
    image = AclLiteImage(frame)
    dims = [acl.get_tensor_desc_dim_v2(image.desc, i)[0] for i in range(acl.get_tensor_desc_num_dims(image.desc))]
    back = image.to_host()
    ok = dims == [2, 3, 4] and acl.get_tensor_desc_size(image.desc) == frame.nbytes and np.array_equal(back, frame)
    # the stream helpers: an async copy on the resource's stream, then a sync with an extra argument
    out, ret = acl.rt.malloc(frame.nbytes, ACL_MEM_MALLOC_HUGE_FIRST)
    check_ret("acl.rt.malloc", ret)
    ret = acl.rt.memcpy_async(out, frame.nbytes, image.ptr, frame.nbytes, 3, resource.stream)
    check_ret("acl.rt.memcpy_async", ret)
    check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(resource.stream))
    check_ret("acl.rt.synchronize_device", acl.rt.synchronize_device(resource.device_id))
    check_ret("acl.rt.free", acl.rt.free(out))
    image.destroy()
    log_info("dims ", dims, " round trip ", "ok" if ok else "WRONG")
    print("acllite_style:", "ok" if ok else "WRONG")
    del resource
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
