"""The aclnn face: ``from emulator import aclnn``.

Every function of acl_meta.h and aclnn_base.h under its C name, C parameters in C order (counts
included), out-values returned first and the status last; ``None`` is nullptr; device addresses
are ints. The aclDataType, aclFormat and status constants are exported with their real values
(emulator/aclnn/constants.py), and every op of the registry adds its aclnnXxxGetWorkspaceSize /
aclnnXxx (emulator/aclnn/ops.py); both modules are generated, so every name of the face is
visible to a reader and a type checker. ``__all__`` lists the face.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from emulator.aclnn import ops
from emulator.aclnn.acl_create import (
    aclCreateBoolArray,
    aclCreateFloatArray,
    aclCreateIntArray,
    aclCreateScalar,
    aclCreateScalarList,
    aclCreateTensor,
    aclCreateTensorList,
    aclDestroyBoolArray,
    aclDestroyFloatArray,
    aclDestroyIntArray,
    aclDestroyScalar,
    aclDestroyScalarList,
    aclDestroyTensor,
    aclDestroyTensorList,
)
from emulator.aclnn.acl_meta import (
    aclGetBoolArraySize,
    aclGetDataType,
    aclGetFloatArraySize,
    aclGetFormat,
    aclGetIntArraySize,
    aclGetRawTensorAddr,
    aclGetScalarListSize,
    aclGetStorageShape,
    aclGetTensorListSize,
    aclGetViewOffset,
    aclGetViewShape,
    aclGetViewStrides,
    aclInitTensor,
    aclSetRawTensorAddr,
)
from emulator.aclnn.aclnn_base import aclnnFinalize, aclnnInit
from emulator.aclnn.constants import *  # noqa: F403
from emulator.aclnn.constants import __all__ as CONSTANTS  # noqa: N812 - a list, like the others here
from emulator.aclnn.executor_api import (
    AclSetDynamicInputTensorAddr,
    AclSetDynamicOutputTensorAddr,
    AclSetDynamicTensorAddr,
    AclSetInputTensorAddr,
    AclSetOutputTensorAddr,
    AclSetTensorAddr,
    aclDestroyAclOpExecutor,
    aclDumpOpTensors,
    aclSetAclOpExecutorRepeatable,
    aclSetDynamicInputTensorAddr,
    aclSetDynamicOutputTensorAddr,
    aclSetDynamicTensorAddr,
    aclSetInputTensorAddr,
    aclSetOutputTensorAddr,
    aclSetTensorAddr,
)
from emulator.aclnn.l2_face import bind as bind_ops
from emulator.aclnn.matmul_weight import aclnnCalculateMatmulWeightSize, aclnnCalculateMatmulWeightSizeV2

# The op entry points (aclnnAddGetWorkspaceSize, aclnnAdd …), generated from the op registry: the
# face is the top floor, so it may import the op library; the ops never import the face. Each is
# built when first read (``__getattr__`` below), importing only its op's module.
from emulator.aclnn.ops import __all__ as OP_FUNCTIONS  # noqa: N812 - a list, named like the others here
from emulator.capi import META
from emulator.meta.dtypes import aclDataType
from emulator.meta.formats import aclFormat
from emulator.meta.objects import (
    aclBoolArray,
    aclFloatArray,
    aclIntArray,
    aclScalar,
    aclScalarList,
    aclTensor,
    aclTensorList,
)
from emulator.status import AclnnStatus

if TYPE_CHECKING:
    from emulator.aclnn.ops import *  # noqa: F403

OK = AclnnStatus.ACLNN_SUCCESS

META_FUNCTIONS = [proto.c_name for proto in META]
FUNCTIONS = [*META_FUNCTIONS, *OP_FUNCTIONS]
"""Every C function of the face: acl_meta.h and aclnn_base.h (the prototype table), then the ops."""

__all__ = [
    # acl_meta.h
    "aclCreateTensor",
    "aclCreateScalar",
    "aclCreateIntArray",
    "aclCreateFloatArray",
    "aclCreateBoolArray",
    "aclCreateTensorList",
    "aclCreateScalarList",
    "aclDestroyTensor",
    "aclDestroyScalar",
    "aclDestroyIntArray",
    "aclDestroyFloatArray",
    "aclDestroyBoolArray",
    "aclDestroyTensorList",
    "aclDestroyScalarList",
    "aclGetViewShape",
    "aclGetStorageShape",
    "aclGetViewStrides",
    "aclGetViewOffset",
    "aclGetFormat",
    "aclGetDataType",
    "aclGetIntArraySize",
    "aclGetFloatArraySize",
    "aclGetBoolArraySize",
    "aclGetTensorListSize",
    "aclGetScalarListSize",
    "aclGetRawTensorAddr",
    "aclInitTensor",
    "aclSetRawTensorAddr",
    "aclSetAclOpExecutorRepeatable",
    "aclDestroyAclOpExecutor",
    "aclSetInputTensorAddr",
    "aclSetOutputTensorAddr",
    "aclSetTensorAddr",
    "AclSetInputTensorAddr",
    "AclSetOutputTensorAddr",
    "AclSetTensorAddr",
    "aclSetDynamicInputTensorAddr",
    "aclSetDynamicOutputTensorAddr",
    "aclSetDynamicTensorAddr",
    "AclSetDynamicInputTensorAddr",
    "AclSetDynamicOutputTensorAddr",
    "AclSetDynamicTensorAddr",
    "aclDumpOpTensors",
    # aclnn_base.h
    "aclnnInit",
    "aclnnFinalize",
    # plain functions of op headers
    "aclnnCalculateMatmulWeightSize",
    "aclnnCalculateMatmulWeightSizeV2",
    # the parameter-object types and enums
    "aclBoolArray",
    "aclFloatArray",
    "aclIntArray",
    "aclScalar",
    "aclScalarList",
    "aclTensor",
    "aclTensorList",
    "aclDataType",
    "aclFormat",
    "AclnnStatus",
    "OK",
    # custom op modules, and the lists of what the face holds
    "bind_ops",
    "CONSTANTS",
    "FUNCTIONS",
    "META_FUNCTIONS",
    "OP_FUNCTIONS",
    *OP_FUNCTIONS,
    *CONSTANTS,
]

_OPS = frozenset(OP_FUNCTIONS)


def __getattr__(name: str) -> Any:
    """An op's entry point on its first read (PEP 562), then kept as a plain module attribute."""
    if name not in _OPS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(ops, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """Every name of the face, the op entry points included, built or not."""
    return sorted({*globals(), *OP_FUNCTIONS})
