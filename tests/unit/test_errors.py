"""One error root: device and emulator errors are both StatusErrors and cross the boundary alike."""

from __future__ import annotations

import pytest

from emulator import process
from emulator.boundary import c_api
from emulator.capi import parse
from emulator.device import errors as device_errors
from emulator.device.errors import DeviceError, StatusError
from emulator.errors import AclnnParamNullptr, AclNullPointer, EmulatorError

# Functions of a test only: described by prototypes of their own, as the table describes the real ones.
FAKE_MALLOC = parse(
    "aclError aclrtFakeMalloc(void **devPtr, int32_t kind)", header="test", py_name="acl.rt.fake_malloc"
)
FAKE_CALL = parse("aclError aclrtFakeCall(void)", header="test", py_name="acl.rt.fake_call")


def test_both_trees_share_one_root() -> None:
    """DeviceError and EmulatorError subclass the one StatusError, which emulator.errors re-exports."""
    from emulator import errors

    assert issubclass(DeviceError, StatusError)
    assert issubclass(EmulatorError, StatusError)
    assert errors.StatusError is StatusError


def test_root_fields_and_msg_id_override() -> None:
    """Every StatusError carries status, msg_id, message and context; a raiser may silence the message."""
    exc = device_errors.OutOfMemory("no memory", requested=64)
    assert (exc.status, exc.msg_id, exc.message, exc.context) == (207001, "EL0004", "no memory", {"requested": 64})
    silent = AclnnParamNullptr("x is null", msg_id=None, param="x")
    assert (silent.status, silent.msg_id, silent.context) == (161001, None, {"param": "x"})
    assert AclnnParamNullptr("x is null").msg_id == "EZ1001"


def test_boundary_turns_either_tree_into_its_status(emu: process.EmulatedProcess) -> None:
    """A runtime error keeps its code and sets the thread's last error; an ACL check keeps its own code."""

    @c_api(FAKE_MALLOC, names_match=False)
    def fake_malloc(kind: int) -> tuple[int, int]:
        if kind == 1:
            raise device_errors.OutOfMemory("out of device memory")
        raise AclNullPointer("aclrtFakeMalloc", "devPtr")

    assert fake_malloc(1) == (0, 207001)
    assert emu.runtime.thread.last_error == 207001
    assert "EL0004" in (emu.errors.recent() or "")
    assert fake_malloc(2) == (0, 100000)
    assert "devPtr cannot be a NULL pointer" in (emu.errors.recent() or "")


def test_other_exceptions_propagate() -> None:
    """Only StatusErrors become statuses; anything else is an emulator bug and reaches the caller."""

    @c_api(FAKE_CALL, names_match=False)
    def broken() -> int:
        raise ValueError("a bug")

    with pytest.raises(ValueError, match="a bug"):
        broken()
