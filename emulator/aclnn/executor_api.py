"""acl_meta.h's executor functions and tensor-address setters, and aclDumpOpTensors.

Executors come from phase 1 of an op (the op engine). Until an executor is handed in, these
functions can only take their null and foreign-object paths, which they do exactly as the real
code does: null is 561103, anything that is not an
executor is 561000, and the tensor-address setters update the tensor before they look at the
executor at all.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from emulator import process
from emulator.boundary import report_undefined
from emulator.cface import Address, aclnn_api, address, live
from emulator.device.interface import Device, Direction
from emulator.diagnostics import ReportKind
from emulator.errors import AclnnError, AclnnInnerNullptr, AclnnParamInvalid, NnopbaseNullPointer
from emulator.lazylog import lazy_logger
from emulator.meta.dtypes import calc_shape_bytes, numpy_dtype
from emulator.meta.objects import Handle, aclTensor, aclTensorList, numel
from emulator.status import AclnnStatus
from emulator.tracking import ResourceKind

log = lazy_logger(__name__, logger_name="emulator.aclnn")

OK = AclnnStatus.ACLNN_SUCCESS
INNER_NULLPTR = AclnnStatus.ACLNN_ERR_INNER_NULLPTR


def _executor(executor: object, api: str) -> object:
    """The executor kinds opbase recognises by their magic numbers; anything else is 561000."""
    if executor is None:
        raise NnopbaseNullPointer(api, "executor", INNER_NULLPTR)
    if not (isinstance(executor, Handle) and executor.kind is ResourceKind.EXECUTOR):
        raise AclnnError(f"{api}: {type(executor).__name__} is not an aclOpExecutor", msg_id=None)
    return executor


@aclnn_api("aclSetAclOpExecutorRepeatable")
def aclSetAclOpExecutorRepeatable(executor: object) -> int:
    """aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor)"""
    found = _executor(executor, "aclSetAclOpExecutorRepeatable")
    found.set_repeatable()  # type: ignore[attr-defined]
    return OK


@aclnn_api("aclDestroyAclOpExecutor")
def aclDestroyAclOpExecutor(executor: object) -> int:
    """aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor)"""
    found = _executor(executor, "aclDestroyAclOpExecutor")
    found.destroy()  # type: ignore[attr-defined]
    return OK


def _set_tensor(tensor: aclTensor | None, addr: Address, api: str) -> None:
    if tensor is None:
        raise NnopbaseNullPointer(api, "tensor", INNER_NULLPTR)
    live(tensor, api).raw_addr = address(addr)


def _rebind(executor: object, api: str) -> int:
    """After the tensor changed: a null executor is 561103; a composite one ignores the index."""
    if executor is None:
        raise NnopbaseNullPointer(api, "executor", INNER_NULLPTR)  # the tensor address was already updated
    return OK


@aclnn_api("aclSetInputTensorAddr")
def aclSetInputTensorAddr(executor: object, index: int, tensor: aclTensor | None, addr: Address) -> int:
    _set_tensor(tensor, addr, "aclSetInputTensorAddr")
    return _rebind(executor, "aclSetInputTensorAddr")


@aclnn_api("aclSetOutputTensorAddr")
def aclSetOutputTensorAddr(executor: object, index: int, tensor: aclTensor | None, addr: Address) -> int:
    _set_tensor(tensor, addr, "aclSetOutputTensorAddr")
    return _rebind(executor, "aclSetOutputTensorAddr")


@aclnn_api("aclSetTensorAddr")
def aclSetTensorAddr(executor: object, index: int, tensor: aclTensor | None, addr: Address) -> int:
    _set_tensor(tensor, addr, "aclSetTensorAddr")
    return _rebind(executor, "aclSetTensorAddr")


def _set_member(tensors: aclTensorList | None, relative: int, addr: Address, api: str, *, check_null: bool,
                what: str) -> None:  # fmt: skip
    if tensors is None:
        raise NnopbaseNullPointer(api, "tensors", INNER_NULLPTR)
    members = live(tensors, api).values
    if relative >= len(members) or relative < 0:
        raise AclnnParamInvalid(f"Set dynamic {what}tensor addr failed. relativeIndex[{relative}] is out of tensors "
                                f"size[{len(members)}].")  # fmt: skip
    member = members[relative]
    if not isinstance(member, aclTensor):
        if check_null:
            raise AclnnInnerNullptr(
                f"{api}: element {relative} of the list is null", msg_id=None
            )  # CHECK_RET: no report
        report_undefined(api, f"element {relative} of the list is null (the real call dereferences it)")
        return
    live(member, api).raw_addr = address(addr)


@aclnn_api("aclSetDynamicInputTensorAddr")
def aclSetDynamicInputTensorAddr(
    executor: object, irIndex: int, relativeIndex: int, tensors: aclTensorList | None, addr: Address
) -> int:
    _set_member(tensors, relativeIndex, addr, "aclSetDynamicInputTensorAddr", check_null=True, what="input ")
    return _rebind(executor, "aclSetDynamicInputTensorAddr")


@aclnn_api("aclSetDynamicOutputTensorAddr")
def aclSetDynamicOutputTensorAddr(
    executor: object, irIndex: int, relativeIndex: int, tensors: aclTensorList | None, addr: Address
) -> int:
    _set_member(tensors, relativeIndex, addr, "aclSetDynamicOutputTensorAddr", check_null=True, what="output ")
    return _rebind(executor, "aclSetDynamicOutputTensorAddr")


@aclnn_api("aclSetDynamicTensorAddr")
def aclSetDynamicTensorAddr(
    executor: object, irIndex: int, relativeIndex: int, tensors: aclTensorList | None, addr: Address
) -> int:
    """Unlike the Input/Output variants it does not check for a null element (the real one crashes)."""
    _set_member(tensors, relativeIndex, addr, "aclSetDynamicTensorAddr", check_null=False, what="")
    return _rebind(executor, "aclSetDynamicTensorAddr")


# The reserved capitalised aliases "have the same function" (reserved_apis.md).
AclSetInputTensorAddr = aclnn_api("AclSetInputTensorAddr")(inspect.unwrap(aclSetInputTensorAddr))
AclSetOutputTensorAddr = aclnn_api("AclSetOutputTensorAddr")(inspect.unwrap(aclSetOutputTensorAddr))
AclSetTensorAddr = aclnn_api("AclSetTensorAddr")(inspect.unwrap(aclSetTensorAddr))
AclSetDynamicInputTensorAddr = aclnn_api("AclSetDynamicInputTensorAddr")(inspect.unwrap(aclSetDynamicInputTensorAddr))
AclSetDynamicOutputTensorAddr = aclnn_api("AclSetDynamicOutputTensorAddr")(
    inspect.unwrap(aclSetDynamicOutputTensorAddr)
)
AclSetDynamicTensorAddr = aclnn_api("AclSetDynamicTensorAddr")(inspect.unwrap(aclSetDynamicTensorAddr))


# -- dump ---------------------------------------------------------------------------------------
@aclnn_api("aclDumpOpTensors")
def aclDumpOpTensors(
    opType: str | None,
    opName: str | None,
    tensors: Sequence[aclTensor | None] | None,
    inputTensorNum: int,
    outputTensorNum: int,
    stream: Address,
) -> int:
    """aclnnStatus aclDumpOpTensors(const char* opType, const char* opName, aclTensor** tensors,
    size_t inputTensorNum, size_t outputTensorNum, aclrtStream stream)

    Writes nothing unless aclInit's config has a ``dump`` section with a ``dump_path``; then each
    tensor's storage bytes land in ``<dump_path>/<opType>.<opName>.<input|output>.<i>.npy`` once the
    stream's earlier work has run (the emulator's stand-in for the Adump service's files).
    """
    for value, name in ((opType, "opType"), (opName, "opName"), (tensors, "tensors"), (stream or None, "stream")):
        if value is None:
            raise NnopbaseNullPointer("aclDumpOpTensors", name, AclnnStatus.ACLNN_ERR_PARAM_NULLPTR)
    total = inputTensorNum + outputTensorNum
    assert tensors is not None
    if total > len(tensors):
        report_undefined(
            "aclDumpOpTensors",
            f"tensors has {len(tensors)} entries but the counts say {total}: a read past its end",
            kind=ReportKind.BAD_ARGUMENT,
        )
    proc = process.current()
    config = proc.acl.config
    dump = (config.model_extra or {}).get("dump") if config is not None else None
    if not isinstance(dump, dict) or not dump.get("dump_path"):
        return OK
    device, sid = proc.runtime.resolve_stream(address(stream), submit=False)
    device.synchronize_stream(sid)
    directory = Path(str(dump["dump_path"]))
    directory.mkdir(parents=True, exist_ok=True)
    assert tensors is not None
    for i, tensor in enumerate(tensors[:total]):
        role, index = ("input", i) if i < inputTensorNum else ("output", i - inputTensorNum)
        if tensor is None:
            report_undefined("aclDumpOpTensors", f"tensors[{i}] is null (the real call dereferences it)")
            continue
        _dump_one(device, live(tensor, "aclDumpOpTensors"), directory / f"{opType}.{opName}.{role}.{index}.npy")
    return OK


def _dump_one(device: Device, tensor: aclTensor, path: Path) -> None:
    nbytes = calc_shape_bytes(numel(tensor.storage_shape), tensor.dtype)
    raw = np.empty(nbytes, dtype=np.uint8)
    device.copy(raw.ctypes.data, tensor.data_addr, nbytes, Direction.D2H, None)
    np_dtype = numpy_dtype(tensor.dtype)
    data = raw.view(np_dtype).reshape(tensor.storage_shape) if np_dtype is not None else raw
    np.save(path, data)
    log.info("aclnn.dump_tensor", path=str(path), nbytes=nbytes)
