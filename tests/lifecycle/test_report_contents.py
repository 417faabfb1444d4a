"""Cleaner leak reports: stacks end at the user's frames, and aclnn objects are shown by what they hold."""

from __future__ import annotations

import threading
from pathlib import Path

from emulator import aclnn, process
from emulator.leaks import leak_report
from emulator.tracking import Frame, ResourceKind

THIS_FILE = __file__


def _tensor(shape: list[int], dtype: int, fmt: int) -> object:
    return aclnn.aclCreateTensor(shape, len(shape), dtype, None, 0, fmt, shape, len(shape), 0)


def _runner_frames(stack: tuple[Frame, ...]) -> list[str]:
    return [str(f) for f in stack if any(part in Path(f.file).parts for part in ("_pytest", "pluggy", "pytest"))]


def test_a_stack_taken_under_pytest_ends_at_the_test_function(emu: process.EmulatedProcess) -> None:
    """A leak made in a test is shown by the helper and the test; pytest's and pluggy's frames are cut off."""
    tensor = _tensor([4], aclnn.ACL_FLOAT, aclnn.ACL_FORMAT_ND)
    (res,) = emu.registry.live(ResourceKind.TENSOR)
    assert [(Path(f.file).name, f.func) for f in res.site.stack] == [
        ("test_report_contents.py", "_tensor"),
        ("test_report_contents.py", "test_a_stack_taken_under_pytest_ends_at_the_test_function"),
    ]
    assert not _runner_frames(res.site.stack)
    assert aclnn.aclDestroyTensor(tensor) == 0


def test_a_stack_taken_in_a_thread_ends_at_its_target(emu: process.EmulatedProcess) -> None:
    """A thread's bootstrap frames are the runner's, not the user's: the stack ends at the thread's target."""
    made: list[object] = []

    def worker() -> None:
        made.append(_tensor([2], aclnn.ACL_INT32, aclnn.ACL_FORMAT_ND))

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    (res,) = emu.registry.live(ResourceKind.TENSOR)
    assert [f.func for f in res.site.stack] == ["_tensor", "worker"]
    assert aclnn.aclDestroyTensor(made[0]) == 0


def test_leaked_aclnn_objects_are_shown_by_what_they_hold(emu: process.EmulatedProcess) -> None:
    """Tensors by view shape, data type and format; a scalar by its value; arrays by values; lists by length."""
    tensor = _tensor([2, 4], aclnn.ACL_FLOAT16, aclnn.ACL_FORMAT_NCHW)
    scalar = aclnn.aclCreateScalar(2.5, aclnn.ACL_FLOAT)
    short = aclnn.aclCreateIntArray([1, 2, 3], 3)
    long = aclnn.aclCreateIntArray(list(range(20)), 20)
    member = _tensor([3], aclnn.ACL_INT64, aclnn.ACL_FORMAT_ND)
    tensors = aclnn.aclCreateTensorList([member], 1)
    text = leak_report().render()
    assert f"Direct leak of tensor at {id(tensor):#x} (shape [2, 4], ACL_FLOAT16, NCHW), created at:" in text
    assert f"Direct leak of scalar at {id(scalar):#x} (ACL_FLOAT 2.5), created at:" in text
    assert f"Direct leak of int array at {id(short):#x} (values [1, 2, 3]), created at:" in text
    assert f"at {id(long):#x} (values [0, 1, 2, 3, 4, 5, 6, 7] … 20 values), created at:" in text
    assert f"Direct leak of tensor list at {id(tensors):#x} (1 member(s)), created at:" in text
    owner = f"(member of tensor list {id(tensors):#x})"
    assert f"Indirect leak of tensor at {id(member):#x} (shape [3], ACL_INT64, ND) {owner}, created at:" in text
    assert aclnn.aclDestroyScalar(scalar) == 0
    assert aclnn.aclDestroyTensor(tensor) == 0
    assert aclnn.aclDestroyIntArray(short) == 0 and aclnn.aclDestroyIntArray(long) == 0
    assert aclnn.aclDestroyTensorList(tensors) == 0
