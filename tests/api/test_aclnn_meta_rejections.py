"""Every rejection of every acl_meta.h function: the status, and the aclGetRecentErrMsg text the real
opbase leaves (or that it leaves none).

The real code has three ways to reject: ``NNOPBASE_ASSERT_NULLPTR_WITH_RETURN`` reports EZ1011
("<function> failed because <parameter> cannot be a NULL pointer.", the C function's own name even
when a reserved ``Acl…`` alias was called) with 161001 or 561103; ``CHECK_COND`` reports its text
under EZ1001 (161002); a bare ``return`` / ``CHECK_RET`` reports nothing (the getters,
aclInitTensor, the creators' null-argument paths, a null list element). The last test checks that
the table covers every acl_meta.h function of the prototype table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from emulator import acl, aclnn, process
from emulator.capi.meta_table import HEADER_META, META

A = aclnn
NULLPTR, INVALID, INNER, INNER_NULLPTR = 161001, 161002, 561000, 561103


def _null_message(func: str, param: str) -> str:
    return f"Invalid_Argument_Null_Pointer(EZ1011): {func} failed because {param} cannot be a NULL pointer."


class Objects:
    """Live objects the calls reject around (made inside the test's process)."""

    def __init__(self) -> None:
        self.tensor = A.aclCreateTensor([2], 1, A.ACL_FLOAT, [1], 0, A.ACL_FORMAT_ND, [2], 1, 0)
        self.empty_list = A.aclCreateTensorList([], 0)
        self.null_member_list = A.aclCreateTensorList([None], 1)
        member = A.aclCreateTensor([2], 1, A.ACL_FLOAT, [1], 0, A.ACL_FORMAT_ND, [2], 1, 0)
        self.member_list = A.aclCreateTensorList([member], 1)  # the list owns its member


Call = Callable[[Objects], Any]
# (function, case, call, status (None: the creator's nullptr), the message's text or None for no message)
CASES: list[tuple[str, str, Call, int | None, str | None]] = [
    ("aclCreateTensor", "null viewDims", lambda o: A.aclCreateTensor(None, 1, A.ACL_FLOAT, None, 0, 2, [1], 1, 0),
     None, None),
    ("aclCreateTensor", "null storageDims", lambda o: A.aclCreateTensor([1], 1, A.ACL_FLOAT, None, 0, 2, None, 1, 0),
     None, None),
    ("aclCreateScalar", "null value", lambda o: A.aclCreateScalar(None, A.ACL_FLOAT), None, None),
    ("aclCreateScalar", "unsupported dtype", lambda o: A.aclCreateScalar(b"\0" * 8, A.ACL_STRING), None,
     "EZ9999: Inner Error!"),
    *((name, "null", (lambda n: lambda o: getattr(A, n)(None))(name), 0, None)
      for name in ("aclDestroyTensor", "aclDestroyScalar", "aclDestroyIntArray", "aclDestroyFloatArray",
                   "aclDestroyBoolArray", "aclDestroyTensorList", "aclDestroyScalarList")),
    *((name, "null", (lambda n: lambda o: getattr(A, n)(None))(name), NULLPTR, None)
      for name in ("aclGetViewShape", "aclGetStorageShape", "aclGetViewStrides", "aclGetViewOffset", "aclGetFormat",
                   "aclGetDataType", "aclGetIntArraySize", "aclGetFloatArraySize", "aclGetBoolArraySize",
                   "aclGetTensorListSize", "aclGetScalarListSize")),
    ("aclInitTensor", "null tensor", lambda o: A.aclInitTensor(None, [1], 1, A.ACL_FLOAT, None, 0, 2, [1], 1, 0),
     NULLPTR, None),
    ("aclGetRawTensorAddr", "null tensor", lambda o: A.aclGetRawTensorAddr(None), NULLPTR,
     _null_message("aclGetRawTensorAddr", "tensor")),
    ("aclSetRawTensorAddr", "null tensor", lambda o: A.aclSetRawTensorAddr(None, 0), NULLPTR,
     _null_message("aclSetRawTensorAddr", "tensor")),
    ("aclSetAclOpExecutorRepeatable", "null executor", lambda o: A.aclSetAclOpExecutorRepeatable(None),
     INNER_NULLPTR, _null_message("aclSetAclOpExecutorRepeatable", "executor")),
    ("aclSetAclOpExecutorRepeatable", "not an executor", lambda o: A.aclSetAclOpExecutorRepeatable(o.tensor),
     INNER, None),
    ("aclDestroyAclOpExecutor", "null executor", lambda o: A.aclDestroyAclOpExecutor(None), INNER_NULLPTR,
     _null_message("aclDestroyAclOpExecutor", "executor")),
    ("aclDestroyAclOpExecutor", "not an executor", lambda o: A.aclDestroyAclOpExecutor(o.tensor), INNER, None),
    *(case for prefix in ("acl", "Acl") for name in ("SetInputTensorAddr", "SetOutputTensorAddr", "SetTensorAddr")
      for case in (
          (prefix + name, "null tensor", (lambda f: lambda o: getattr(A, f)(None, 0, None, 0))(prefix + name),
           INNER_NULLPTR, _null_message("acl" + name, "tensor")),
          (prefix + name, "null executor", (lambda f: lambda o: getattr(A, f)(None, 0, o.tensor, 0))(prefix + name),
           INNER_NULLPTR, _null_message("acl" + name, "executor")),
      )),
    *(case for prefix in ("acl", "Acl")
      for name, what in (("SetDynamicInputTensorAddr", "input "), ("SetDynamicOutputTensorAddr", "output "),
                         ("SetDynamicTensorAddr", ""))
      for case in (
          (prefix + name, "null tensors", (lambda f: lambda o: getattr(A, f)(None, 0, 0, None, 0))(prefix + name),
           INNER_NULLPTR, _null_message("acl" + name, "tensors")),
          (prefix + name, "relativeIndex past the list",
           (lambda f: lambda o: getattr(A, f)(None, 0, 0, o.empty_list, 0))(prefix + name), INVALID,
           f"AclNN_Parameter_Error(EZ1001): Set dynamic {what}tensor addr failed. relativeIndex[0] is out of "
           "tensors size[0]."),
          (prefix + name, "null executor",
           (lambda f: lambda o: getattr(A, f)(None, 0, 0, o.member_list, 0))(prefix + name),
           INNER_NULLPTR, _null_message("acl" + name, "executor")),
      )),
    *(("aclDumpOpTensors", f"null {name}", (lambda a: lambda o: A.aclDumpOpTensors(*a))(args), NULLPTR,
       _null_message("aclDumpOpTensors", name))
      for name, args in (("opType", (None, "n", [], 0, 0, 1)), ("opName", ("t", None, [], 0, 0, 1)),
                         ("tensors", ("t", "n", None, 0, 0, 1)), ("stream", ("t", "n", [], 0, 0, 0)))),
]  # fmt: skip
# The creators of arrays and lists reject nothing: a null value or a zero size gives an empty object.
NO_REJECTION = {"aclCreateIntArray", "aclCreateFloatArray", "aclCreateBoolArray", "aclCreateTensorList",
                "aclCreateScalarList"}  # fmt: skip


@pytest.mark.parametrize(("func", "case", "call", "status", "message"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_rejection_status_and_message(
    func: str, case: str, call: Call, status: int | None, message: str | None
) -> None:
    """The real status, and exactly the real aclGetRecentErrMsg: its text, or none at all."""
    with process.fresh():
        objects = Objects()
        assert acl.get_recent_err_msg() is None  # nothing stored before the call
        result = call(objects)
        got = result[-1] if isinstance(result, tuple) else result
        assert got == status if status is not None else got is None
        recent = acl.get_recent_err_msg()
        if message is None:
            assert recent is None, recent
        else:
            assert recent is not None and message in recent


def test_dynamic_setter_null_member_leaves_no_message() -> None:
    """A null element of the list (Input / Output variants) is 561103 from a CHECK_RET: logged, not reported."""
    with process.fresh():
        objects = Objects()
        for func in (A.aclSetDynamicInputTensorAddr, A.aclSetDynamicOutputTensorAddr):
            assert func(1, 0, 0, objects.null_member_list, 0) == INNER_NULLPTR
            assert acl.get_recent_err_msg() is None


def test_every_acl_meta_function_is_covered() -> None:
    """Each acl_meta.h function of the prototype table has its rejections above (or rejects nothing)."""
    declared = {p.c_name for p in META if p.header == HEADER_META}
    covered = {c[0] for c in CASES} | NO_REJECTION
    assert declared == covered, sorted(declared ^ covered)


def test_tensor_address_is_set_before_the_executor_check() -> None:
    """The address setters update the tensor before they look at the executor (561103 with the new address)."""
    with process.fresh():
        objects = Objects()
        assert A.aclSetInputTensorAddr(None, 0, objects.tensor, 0x1000) == INNER_NULLPTR
        assert A.aclGetRawTensorAddr(objects.tensor) == (0x1000, 0)
