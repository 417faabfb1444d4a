"""Handle checks at every L2 entry: destroyed and foreign objects passed to an op are reported.

The status stays what the op's own checks give (on a card the call is undefined behaviour and no
status is defined for it); the report names the argument, the object (a tensor with its shape,
dtype and format) and where it was created and destroyed. Strict mode raises instead.
"""

from __future__ import annotations

import pytest

from emulator import aclnn, process
from emulator.diagnostics import ReportKind, UndefinedBehaviour

ADDR = 0x12_3400_0000  # phase 1 never reads tensor data


def _line_of(marker: str) -> int:
    with open(__file__, encoding="utf-8") as source:
        return next(i for i, text in enumerate(source, 1) if text.rstrip().endswith(f"# {marker}"))


def _tensor(shape: list[int]) -> object:
    t = aclnn.aclCreateTensor(shape, len(shape), aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, shape, len(shape), ADDR)
    assert t is not None
    return t


def test_a_destroyed_tensor_passed_to_an_op_is_reported_with_its_sites(emu: process.EmulatedProcess) -> None:
    x = aclnn.aclCreateTensor([2, 4], 2, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [2, 4], 2, ADDR)  # created-here
    out = _tensor([2, 4])
    alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
    assert aclnn.aclDestroyTensor(x) == 0  # destroyed-here
    _, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x, out, alpha, out)  # used-here
    assert ret == 0  # the status the op gives today: a card defines none for this
    [report] = emu.diagnostics
    assert report.kind is ReportKind.USE_AFTER_DESTROY
    assert report.api == "aclnnAddGetWorkspaceSize"
    assert report.message.startswith("self is aclTensor 0x")
    assert "(shape [2, 4], ACL_FLOAT, ND), which was already destroyed" in report.message
    assert [str(s) for s in (report.site, report.created, report.destroyed)] == [
        f"{__file__}:{_line_of(m)}" for m in ("used-here", "created-here", "destroyed-here")
    ]
    aclnn.aclDestroyAclOpExecutor(executor)
    for obj in (out,):
        aclnn.aclDestroyTensor(obj)
    aclnn.aclDestroyScalar(alpha)


def test_a_destroyed_scalar_is_reported(emu: process.EmulatedProcess) -> None:
    x, out = _tensor([4]), _tensor([4])
    alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
    aclnn.aclDestroyScalar(alpha)
    aclnn.aclnnAddGetWorkspaceSize(x, x, alpha, out)
    [report] = emu.diagnostics
    assert (report.kind, report.message.split(" 0x")[0]) == (ReportKind.USE_AFTER_DESTROY, "alpha is aclScalar")
    assert "(ACL_FLOAT 1.0)" in report.message


def test_a_destroyed_member_of_a_list_is_reported(emu: process.EmulatedProcess) -> None:
    a, b, out = _tensor([2]), _tensor([2]), _tensor([4])
    tensors = aclnn.aclCreateTensorList([a, b], 2)
    a.alive = False  # type: ignore[attr-defined]  # what a stray free of a member leaves behind
    aclnn.aclnnCatGetWorkspaceSize(tensors, 0, out)
    assert [(d.kind, d.message.split(" is ")[0]) for d in emu.diagnostics] == [
        (ReportKind.USE_AFTER_DESTROY, "tensors[0]")
    ]


def test_a_destroyed_int_array_and_a_destroyed_list_are_reported(emu: process.EmulatedProcess) -> None:
    """An aclIntArray (ReduceSum's dims) and a whole aclTensorList (Cat's tensors) used after their destroy."""
    x, out = _tensor([4, 4]), _tensor([4])
    dims = aclnn.aclCreateIntArray([1], 1)
    assert aclnn.aclDestroyIntArray(dims) == 0
    aclnn.aclnnReduceSumGetWorkspaceSize(x, dims, False, aclnn.ACL_FLOAT, out)
    tensors = aclnn.aclCreateTensorList([_tensor([2])], 1)
    assert aclnn.aclDestroyTensorList(tensors) == 0
    aclnn.aclnnCatGetWorkspaceSize(tensors, 0, out)
    assert [(d.kind, d.message.split(" 0x")[0]) for d in emu.diagnostics] == [
        (ReportKind.USE_AFTER_DESTROY, "dims is aclIntArray"),
        (ReportKind.USE_AFTER_DESTROY, "tensors is aclTensorList"),
        (ReportKind.USE_AFTER_DESTROY, "tensors[0] is aclTensor"),  # the list destroyed its member too
    ]
    assert "(values [1])" in emu.diagnostics[0].message
    assert "(1 member(s))" in emu.diagnostics[1].message


def test_a_tensor_of_another_emulated_process_is_foreign(emu: process.EmulatedProcess) -> None:
    x, out = _tensor([4]), _tensor([4])
    alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
    with process.fresh() as other:
        other_x = _tensor([4])
        aclnn.aclnnAddGetWorkspaceSize(other_x, x, alpha, out)
        kinds = [(d.kind, d.message.split(" is ")[0]) for d in other.diagnostics]
    assert kinds == [
        (ReportKind.FOREIGN_HANDLE, "other"),
        (ReportKind.FOREIGN_HANDLE, "alpha"),
        (ReportKind.FOREIGN_HANDLE, "out"),
    ]
    assert emu.diagnostics == []


def test_live_objects_give_no_report(emu: process.EmulatedProcess) -> None:
    x, out = _tensor([4]), _tensor([4])
    alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
    _, executor, ret = aclnn.aclnnAddGetWorkspaceSize(x, x, alpha, out)
    assert ret == 0 and emu.diagnostics == []
    aclnn.aclDestroyAclOpExecutor(executor)


def test_strict_mode_raises_at_op_entry(emu: process.EmulatedProcess) -> None:
    x, out = _tensor([4]), _tensor([4])
    alpha = aclnn.aclCreateScalar(1.0, aclnn.ACL_FLOAT)
    aclnn.aclDestroyTensor(out)
    emu.strict = True
    with pytest.raises(UndefinedBehaviour) as caught:
        aclnn.aclnnAddGetWorkspaceSize(x, x, alpha, out)
    assert caught.value.kind is ReportKind.USE_AFTER_DESTROY
