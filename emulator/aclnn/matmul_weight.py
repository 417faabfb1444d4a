"""aclnnCalculateMatmulWeightSize and ...V2: the plain (not two-phase) functions of aclnn_trans_matmul_weight.h.

How many elements a matmul weight of ``tensorShape`` takes once aclnnTransMatmulWeight has turned it
into FRACTAL_NZ (the rule: emulator.kernels.math.trans_matmul_weight.weight_size). V2 takes the dtype;
in the real order a SoC other than 310P, A2 / A3 or the Ascend 950 is 361001 ("support for ... is not
implemented"), a null tensorShape 161001, fewer than 2 or more than 6 dims or a zero dim 161002. The v1
function predates the dtype parameter: it always sizes a float16 weight (an int8 weight sized with it
gets the 16-aligned N, not 32), has no SoC check and no zero-dim check, and its rank rule is the one
aclnnTransMatmulWeight applies to float16 (2 to 6 dims on A2 / A3, exactly 2 elsewhere; 161002).
"""

from __future__ import annotations

from emulator import process
from emulator.cface import aclnn_api, live
from emulator.errors import AclnnParamInvalid, AclnnParamNullptr, AclnnRuntimeError
from emulator.meta.dtypes import DataType
from emulator.meta.objects import aclIntArray
from emulator.status import AclnnStatus

API = "aclnnCalculateMatmulWeightSizeV2"
API_V1 = "aclnnCalculateMatmulWeightSize"
DAV_3510 = 3510


@aclnn_api(API)
def aclnnCalculateMatmulWeightSizeV2(tensorShape: aclIntArray | None, dataType: int) -> tuple[int, int]:
    """aclnnStatus aclnnCalculateMatmulWeightSizeV2(const aclIntArray* tensorShape, aclDataType dataType,
    uint64_t* weightTensorSize)"""
    from emulator.kernels.math.trans_matmul_weight import A2_SOCS, rank_error, weight_size  # the op's own rule

    soc = process.current().runtime.soc
    if soc.short_soc_version not in (*A2_SOCS, "Ascend310P") and soc.npu_arch != DAV_3510:
        raise AclnnRuntimeError(f"{API}: support for {soc.short_soc_version} is not implemented")
    if tensorShape is None:
        raise AclnnParamNullptr(f"{API}: expected tensorShape not to be a null pointer.", param="tensorShape")
    dims = [int(v) for v in live(tensorShape, API).values]  # type: ignore[call-overload]
    error = rank_error(len(dims), int(dataType), soc.short_soc_version, v2=True)
    if error is not None:
        raise AclnnParamInvalid(f"{API}: {error}")
    if 0 in dims:
        raise AclnnParamInvalid(f"{API}: No zeros are allow in shape")
    return weight_size(dims, int(dataType)), AclnnStatus.ACLNN_SUCCESS


@aclnn_api(API_V1)
def aclnnCalculateMatmulWeightSize(tensorShape: aclIntArray | None) -> tuple[int, int]:
    """aclnnStatus aclnnCalculateMatmulWeightSize(const aclIntArray* tensorShape, uint64_t* weightTensorSize)"""
    from emulator.kernels.math.trans_matmul_weight import rank_error, weight_size  # imported with its op

    if tensorShape is None:
        raise AclnnParamNullptr(f"{API_V1}: expected tensorShape not to be a null pointer.", param="tensorShape")
    dims = [int(v) for v in live(tensorShape, API_V1).values]  # type: ignore[call-overload]
    soc = process.current().runtime.soc.short_soc_version
    error = rank_error(len(dims), DataType.DT_FLOAT16, soc, v2=False)
    if error is not None:
        raise AclnnParamInvalid(f"{API_V1}: {error}")
    return weight_size(dims, DataType.DT_FLOAT16), AclnnStatus.ACLNN_SUCCESS
