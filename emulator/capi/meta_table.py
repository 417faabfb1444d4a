"""The prototype table, aclnn part: acl_meta.h and aclnn_base.h, and the fixed phase-2 shape.

Creators return a pointer (nullptr on failure); every other function returns aclnnStatus with
ACLNN_ERR_PARAM_NULLPTR (161001) as its natural failure — what a null out-pointer returns.
The ``Acl``-capitalised setters are the reserved aliases opbase exports with the same behaviour.
"""

from __future__ import annotations

from emulator.capi.proto import Proto, parse
from emulator.status import AclnnStatus

HEADER_META = "aclnn/acl_meta.h"
HEADER_BASE = "aclnn/aclnn_base.h"
PARAM_NULLPTR = int(AclnnStatus.ACLNN_ERR_PARAM_NULLPTR)

_DIMS = "const int64_t *viewDims[viewDimsNum], uint64_t viewDimsNum, aclDataType dataType, "
_STRIDES = "const int64_t *stride[viewDimsNum], int64_t offset, aclFormat format, "
_STORAGE = "const int64_t *storageDims[storageDimsNum], uint64_t storageDimsNum"
_ADDR_SETTER = "(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr)"
_DYNAMIC_SETTER = (
    "(aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex, aclTensorList *tensors, void *addr)"
)

META_DECLS: tuple[str, ...] = (
    # creation
    f"aclTensor *aclCreateTensor({_DIMS}{_STRIDES}{_STORAGE}, void *tensorData)",
    "aclScalar *aclCreateScalar(void *value @host, aclDataType dataType)",
    "aclIntArray *aclCreateIntArray(const int64_t *value[size], uint64_t size)",
    "aclFloatArray *aclCreateFloatArray(const float *value[size], uint64_t size)",
    "aclBoolArray *aclCreateBoolArray(const bool *value[size], uint64_t size)",
    "aclTensorList *aclCreateTensorList(const aclTensor *const *value[size], uint64_t size)",
    "aclScalarList *aclCreateScalarList(const aclScalar *const *value[size], uint64_t size)",
    # destruction
    "aclnnStatus aclDestroyTensor(const aclTensor *tensor)",
    "aclnnStatus aclDestroyScalar(const aclScalar *scalar)",
    "aclnnStatus aclDestroyIntArray(const aclIntArray *array)",
    "aclnnStatus aclDestroyFloatArray(const aclFloatArray *array)",
    "aclnnStatus aclDestroyBoolArray(const aclBoolArray *array)",
    "aclnnStatus aclDestroyTensorList(const aclTensorList *array)",
    "aclnnStatus aclDestroyScalarList(const aclScalarList *array)",
    # getters
    "aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims[viewDimsNum], uint64_t *viewDimsNum)",
    "aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims[storageDimsNum], "
    "uint64_t *storageDimsNum)",
    "aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue[stridesNum], uint64_t *stridesNum)",
    "aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset)",
    "aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format)",
    "aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType)",
    "aclnnStatus aclGetIntArraySize(const aclIntArray *array, uint64_t *size)",
    "aclnnStatus aclGetFloatArraySize(const aclFloatArray *array, uint64_t *size)",
    "aclnnStatus aclGetBoolArraySize(const aclBoolArray *array, uint64_t *size)",
    "aclnnStatus aclGetTensorListSize(const aclTensorList *tensorList, uint64_t *size)",
    "aclnnStatus aclGetScalarListSize(const aclScalarList *scalarList, uint64_t *size)",
    "aclnnStatus aclGetRawTensorAddr(const aclTensor *tensor, void **addr)",
    # changing a tensor
    f"aclnnStatus aclInitTensor(aclTensor *tensor, {_DIMS}{_STRIDES}{_STORAGE}, void *tensorDataAddr)",
    "aclnnStatus aclSetRawTensorAddr(aclTensor *tensor, void *addr)",
    # executors
    "aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor)",
    "aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor)",
    *(
        f"aclnnStatus {prefix}{name}{_ADDR_SETTER}"
        for prefix in ("acl", "Acl")
        for name in ("SetInputTensorAddr", "SetOutputTensorAddr", "SetTensorAddr")
    ),
    *(
        f"aclnnStatus {prefix}{name}{_DYNAMIC_SETTER}"
        for prefix in ("acl", "Acl")
        for name in ("SetDynamicInputTensorAddr", "SetDynamicOutputTensorAddr", "SetDynamicTensorAddr")
    ),
    "aclnnStatus aclDumpOpTensors(const char *opType, const char *opName, "
    "aclTensor **tensors[inputTensorNum + outputTensorNum], size_t inputTensorNum, size_t outputTensorNum, "
    "aclrtStream stream)",
)

# The plain (not two-phase) functions of op headers: declared here, implemented in the face.
HEADER_TRANS_MATMUL_WEIGHT = "aclnnop/aclnn_trans_matmul_weight.h"
PLAIN_OP_DECLS: tuple[tuple[str, str], ...] = (
    ("aclnnStatus aclnnCalculateMatmulWeightSizeV2(const aclIntArray *tensorShape, aclDataType dataType, "
     "uint64_t *weightTensorSize)", HEADER_TRANS_MATMUL_WEIGHT),
    ("aclnnStatus aclnnCalculateMatmulWeightSize(const aclIntArray *tensorShape, uint64_t *weightTensorSize)",
     HEADER_TRANS_MATMUL_WEIGHT),
)  # fmt: skip

BASE_DECLS: tuple[str, ...] = (
    "aclnnStatus aclnnInit(const char *configPath)",
    "aclnnStatus aclnnFinalize(void)",
)


def _meta(declaration: str, header: str) -> Proto:
    failure = PARAM_NULLPTR if declaration.startswith("aclnnStatus") else None
    return parse(declaration, header=header, failure=failure)


META: tuple[Proto, ...] = (
    *(_meta(decl, HEADER_META) for decl in META_DECLS),
    *(_meta(decl, HEADER_BASE) for decl in BASE_DECLS),
    *(_meta(decl, header) for decl, header in PLAIN_OP_DECLS),
)


def phase2_proto(api: str, header: str) -> Proto:
    """``aclnnXxx``: the fixed phase-2 signature every op shares (CommonOpExecutorRun behind it)."""
    declaration = (
        f"aclnnStatus {api}(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)"
    )
    return parse(declaration, header=header, failure=PARAM_NULLPTR)


def phase1_proto(declaration: str, header: str) -> Proto:
    """``aclnnXxxGetWorkspaceSize``: an op's own parameters, then workspaceSize and executor out."""
    proto = parse(declaration, header=header, failure=PARAM_NULLPTR)
    tail = [p.name for p in proto.params[-2:]]
    if tail != ["workspaceSize", "executor"] or not all(p.out for p in proto.params[-2:]):
        raise ValueError(f"{proto.c_name}: phase 1 must end with uint64_t *workspaceSize, aclOpExecutor **executor")
    return proto
