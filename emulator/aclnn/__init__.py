"""The aclnn face: ``from emulator import aclnn``.

Every function of acl_meta.h and aclnn_base.h under its C name, C parameters in C order (counts
included), out-values returned first and the status last; ``None`` is nullptr; device addresses
are ints (DESIGN.md, "Calling conventions"). The aclDataType, aclFormat and status constants are
exported with their real values. The op entry points (aclnnAddGetWorkspaceSize …) join this
face when the op library provides them.
"""

from __future__ import annotations

from emulator.aclnn.acl_meta import (
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

# The op entry points (aclnnAddGetWorkspaceSize, aclnnAdd …), generated from the op registry: the
# face is the top floor, so it may import the op library; the ops never import the face.
from emulator.aclnn.ops import *  # noqa: F403
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

# The C constants, with their real values: ACL_FLOAT, ACL_FORMAT_ND, ACLNN_SUCCESS, ACLNN_ERR_PARAM_NULLPTR …
globals().update({m.name: m for m in aclDataType})
globals().update({m.name: m for m in aclFormat})
globals().update(AclnnStatus.__members__)
OK = AclnnStatus.ACLNN_SUCCESS

META_FUNCTIONS = [proto.c_name for proto in META]
FUNCTIONS = [*META_FUNCTIONS, *OP_FUNCTIONS]
"""Every C function of the face: acl_meta.h and aclnn_base.h (the prototype table), then the ops."""
