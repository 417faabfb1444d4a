"""``acl.util``: pointers to and from numpy arrays and bytes, and the callback threads.

Host pointers are real addresses, so these are thin views over ctypes. A device address can
never be turned into a host view: asking for one is the classic "read device memory without a
copy" bug, and the emulator refuses it instead of handing out garbage.
"""

from __future__ import annotations

import ctypes
import threading
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from emulator import process
from emulator.capi.types import is_integer
from emulator.device.interface import AddressKind
from emulator.status import AclError

# numpy C type numbers pyACL accepts for ptr_to_numpy
NPY_TYPES: dict[int, type[np.generic]] = {
    0: np.bool_,
    1: np.int8,
    2: np.uint8,
    3: np.int16,
    4: np.uint16,
    5: np.int32,
    6: np.uint32,
    7: np.int64,
    8: np.uint64,
    9: np.longlong,
    10: np.ulonglong,
    11: np.float32,
    12: np.float64,
    23: np.float16,
}


def _parse_failed(name: str) -> TypeError:
    return TypeError(f"acl.util.{name} args parse failed")


def numpy_to_ptr(arr: np.ndarray) -> int:
    """The address of the array's data (no copy). Deprecated in pyACL, which warns, as here."""
    if not isinstance(arr, np.ndarray):
        raise _parse_failed("numpy_to_ptr")
    warnings.warn("numpy_to_ptr is deprecated, use numpy_contiguous_to_ptr", DeprecationWarning, stacklevel=2)
    if not arr.flags.c_contiguous:
        warnings.warn("numpy_to_ptr: the array is not C-contiguous", RuntimeWarning, stacklevel=2)
    return int(arr.ctypes.data)


def numpy_contiguous_to_ptr(arr: np.ndarray) -> tuple[int, np.ndarray]:
    """(address, array): the array itself when C-contiguous, else a contiguous copy to keep alive."""
    if not isinstance(arr, np.ndarray):
        raise _parse_failed("numpy_contiguous_to_ptr")
    contiguous = np.ascontiguousarray(arr)
    return int(contiguous.ctypes.data), contiguous


def ptr_to_numpy(ptr: int, shape: tuple[int, ...], npy_type: int) -> np.ndarray:
    """A writable array viewing host memory at ``ptr`` (no copy)."""
    if not is_integer(ptr) or not isinstance(shape, tuple) or not is_integer(npy_type):
        raise _parse_failed("ptr_to_numpy")
    if npy_type not in NPY_TYPES:
        raise ValueError(f"acl.util.ptr_to_numpy: unsupported numpy type number {npy_type}")
    kind, _ = process.current().runtime.classify(ptr)
    if kind is AddressKind.DEVICE:
        raise ValueError(f"acl.util.ptr_to_numpy: {ptr:#x} is a device address; copy it to the host first")
    dtype = np.dtype(NPY_TYPES[npy_type])
    count = int(np.prod(shape, dtype=np.int64))
    buffer = (ctypes.c_uint8 * (count * dtype.itemsize)).from_address(ptr)
    return np.frombuffer(memoryview(buffer), dtype=dtype, count=count).reshape(shape)


def bytes_to_ptr(data: bytes) -> int:
    """The address of a bytes object's buffer (no copy; the caller keeps ``data`` alive)."""
    if not isinstance(data, bytes):
        raise _parse_failed("bytes_to_ptr")
    address = ctypes.cast(ctypes.c_char_p(data), ctypes.c_void_p).value
    return int(address or 0)


def ptr_to_bytes(ptr: int, size: int) -> bytes:
    """A new bytes object with ``size`` bytes of host memory at ``ptr``."""
    if not is_integer(ptr) or not is_integer(size):
        raise _parse_failed("ptr_to_bytes")
    kind, _ = process.current().runtime.classify(ptr)
    if kind is AddressKind.DEVICE:
        raise ValueError(f"acl.util.ptr_to_bytes: {ptr:#x} is a device address; copy it to the host first")
    return ctypes.string_at(ptr, size)


# -- threads ------------------------------------------------------------------------------------
def start_thread(func: Callable[[Any], object], args_list: list[Any]) -> tuple[int, int]:
    """``thread_id, ret``: a real thread running ``func(args_list)`` once.

    The id is the thread's ``pthread_self`` (``threading.get_ident()`` inside it), the value
    aclrtSubscribeReport binds a stream to, as in real pyACL's callback samples.
    """
    if not callable(func) or not isinstance(args_list, list):
        raise _parse_failed("start_thread")
    thread = threading.Thread(target=func, args=(args_list,), name="acl.util.start_thread", daemon=True)
    thread.start()
    ident = thread.ident
    assert ident is not None  # a started thread has one
    process.current().threads[ident] = thread
    return ident, AclError.ACL_SUCCESS


def stop_thread(thread_id: int) -> int:
    """Wait for the thread ``start_thread`` gave (its function returns when the caller's loop flag says so).

    100000 for an id ``start_thread`` did not give, or one already stopped.
    """
    if not is_integer(thread_id):
        raise _parse_failed("stop_thread")
    thread = process.current().threads.pop(int(thread_id), None)
    if thread is None:
        return AclError.ACL_ERROR_INVALID_PARAM
    if thread is not threading.current_thread():
        thread.join()
    return AclError.ACL_SUCCESS
