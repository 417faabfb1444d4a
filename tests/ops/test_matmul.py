"""aclnnMm, aclnnMatmul and aclnnBatchMatMul end to end over MatMulV3 / BatchMatMulV3.

Every A2 dtype combination against a float64 numpy golden under the precision standard: sizes that
are no multiple of the 128 x 256 base block, one element, a transposed view (passed as the dense
tensor with the transpose flag, no copy), a strided view (copied by Contiguous), a 1024^3 float32
product split over several cube-core blocks; cubeMathType's effects (HF32 rounding of float32
inputs for 1 / 3, float16 compute for 2); Matmul's 1-D operands and batch broadcasting (a >= 3-D
self against a 2-D mat2 folds into one MatMulV3); BatchMatMul's batch-1 broadcast; the empty cases
(nothing launched; K == 0 fills zeros) and the statuses 161001 / 161002.
"""

from __future__ import annotations

import numpy as np
import pytest
from reduce_helpers import INVALID, NAME, NP, NULLPTR, Npu, check, values

from emulator import aclnn, process
from emulator import npu as npu_layer
from emulator.engine.tiling import PlatformInfo, TensorDesc, TilingContext
from emulator.kernels.math.matmul import MatmulTilingData, matmul_tiling, to_hf32
from emulator.meta.dtypes import DataType

A = aclnn
F32, F16, B16 = A.ACL_FLOAT, A.ACL_FLOAT16, A.ACL_BF16
# (self, mat2, out)
COMBOS = [(F32, F32, F32), (F16, F16, F16), (B16, B16, B16), (F16, F16, F32), (B16, B16, F32), (F32, F16, F32),
          (F16, B16, F32), (B16, F32, B16)]  # fmt: skip
# name -> (M, K, N, how self is laid out, how mat2 is laid out)
CASES = {
    "one": (1, 1, 1, "dense", "dense"),
    "small": (5, 7, 3, "dense", "dense"),
    "odd": (300, 70, 513, "dense", "dense"),
    "transposed": (130, 40, 260, "transposed", "transposed"),
    "strided": (6, 50, 9, "strided", "strided"),
}


def _operand(npu: Npu, x: np.ndarray, dtype: int, layout: str) -> npu_layer.Tensor:
    """``x`` on the device, dense, as the transpose view of its dense transpose, or as a strided view."""
    if layout == "transposed":
        dev = npu.tensor(np.ascontiguousarray(x.T), dtype)
        r, c = x.shape
        return dev.view((r, c), (1, r), 0)
    return npu.tensor(x, dtype, strided=layout == "strided")


def _mm(npu: Npu, api: str, a: np.ndarray, b: np.ndarray, dtypes: tuple[int, int, int], out_shape: tuple[int, ...],
        mode: int = 0, layouts: tuple[str, str] = ("dense", "dense")) -> tuple[np.ndarray, list[str]]:  # fmt: skip
    self_t, mat2_t = _operand(npu, a, dtypes[0], layouts[0]), _operand(npu, b, dtypes[1], layouts[1])
    out = npu.output(out_shape, dtypes[2])
    phase1, phase2 = getattr(A, f"{api}GetWorkspaceSize"), getattr(A, api)
    status, names = npu.run(phase1, phase2, self_t.handle, mat2_t.handle, out.handle, mode)
    assert status == 0
    return out.numpy(), names


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("combo", COMBOS, ids=["-".join(NAME[d] for d in c) for c in COMBOS])
def test_mm(combo: tuple[int, int, int], case: str) -> None:
    """Mm of every dtype combination: float32-accumulated products rounded once to the output dtype."""
    npu = Npu()
    m, k, n, la, lb = CASES[case]
    rng = np.random.default_rng(40)
    a, b = values((m, k), NP[combo[0]], rng), values((k, n), NP[combo[1]], rng)
    actual, names = _mm(npu, "aclnnMm", a, b, combo, (m, n), layouts=(la, lb))
    check(actual, a.astype(np.float64) @ b.astype(np.float64))
    assert names.count("MatMulV3") == 1
    if case == "transposed" and combo[0] == combo[1]:
        assert "AsStrided" not in names  # the transposes went in as flags, not copies
    if case == "strided":
        assert names.count("AsStrided") == 2


def test_mm_large_uses_several_blocks() -> None:
    """2048 x 1024 x 1024 float32: the output is split into row bands over cube-core blocks."""
    npu = Npu()
    rng = np.random.default_rng(41)
    a, b = values((2048, 1024), NP[F32], rng), values((1024, 1024), NP[F32], rng)
    actual, names = _mm(npu, "aclnnMm", a, b, (F32, F32, F32), (2048, 1024))
    check(actual, a.astype(np.float64) @ b.astype(np.float64))
    assert names == ["MatMulV3"]


def _tiling(m: int, k: int, n: int, dtype: int = DataType.DT_FLOAT, batch: tuple[int, ...] = ()) -> tuple:
    soc = process.current().runtime.soc
    platform = PlatformInfo(soc, soc.cube_core_cnt, soc.vector_core_cnt, soc.cube_core_cnt)
    x1, x2, y = (*batch, m, k), (*batch, k, n), (*batch, m, n)
    ctx = TilingContext("MatMulV3", (TensorDesc(x1, x1, dtype, 2), TensorDesc(x2, x2, dtype, 2), None),
                        (TensorDesc(y, y, dtype, 2),), (False, False, 0, False), None, platform)  # fmt: skip
    result = matmul_tiling(ctx)
    return MatmulTilingData.from_buffer_copy(result.tiling_bytes), result.block_dim


def test_matmul_tiling() -> None:
    """Base block 128 x 256 x (128 bytes) clamped to the problem; regions of whole base blocks, <= 24 cores."""
    data, blocks = _tiling(3072, 8192, 8192)
    assert (data.baseM, data.baseN, data.baseK) == (128, 256, 32) and blocks == 24 == data.usedCoreNum
    assert data.singleCoreM % 128 == 0 and data.singleCoreN % 256 == 0
    assert data.mRegions * data.nRegions == 24
    data, blocks = _tiling(5, 7, 3, DataType.DT_FLOAT16)
    assert (data.baseM, data.baseN, data.baseK) == (16, 16, 16) and blocks == 1
    data, blocks = _tiling(64, 512, 64, DataType.DT_FLOAT16, batch=(16384,))
    assert blocks == 24 and data.singleCoreBatch == 683 and data.baseK == 64
    data, blocks = _tiling(1024, 1024, 1024)
    assert blocks == 1  # a block is one host BLAS call: under 2^30 multiply-adds one block does it all
    data, blocks = _tiling(2048, 1024, 1024)
    assert blocks == 2 and data.singleCoreM == 1024 and data.singleCoreN == 1024  # whole-row bands


def test_cube_math_types() -> None:
    """HF32 (1 and 3) rounds float32 inputs to 11 mantissa bits; USE_FP16 (2) computes in float16; -1 / 4 keep F32."""
    npu = Npu()
    rng = np.random.default_rng(42)
    a, b = values((64, 96), NP[F32], rng), values((96, 48), NP[F32], rng)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    hf32 = to_hf32(a).astype(np.float64) @ to_hf32(b).astype(np.float64)
    for mode in (1, 3):
        actual, _ = _mm(npu, "aclnnMm", a, b, (F32, F32, F32), (64, 48), mode)
        check(actual, hf32)
        assert not np.array_equal(actual, exact.astype(np.float32))
    for mode in (-1, 0, 4):
        actual, _ = _mm(npu, "aclnnMm", a, b, (F32, F32, F32), (64, 48), mode)
        check(actual, exact)
    actual, names = _mm(npu, "aclnnMm", a, b, (F32, F32, F32), (64, 48), 2)
    assert names == ["Cast", "Cast", "MatMulV3", "Cast"]
    check(actual.astype(np.float16), a.astype(np.float16).astype(np.float64) @ b.astype(np.float16).astype(np.float64))
    np.testing.assert_array_equal(to_hf32(np.array([1.0, np.inf, np.nan], np.float32))[:2], [1.0, np.inf])


@pytest.mark.parametrize(
    ("a_shape", "b_shape", "out_shape", "kernel"),
    [
        ((7,), (7,), (), "MatMulV3"),
        ((7,), (7, 5), (5,), "MatMulV3"),
        ((6, 7), (7,), (6,), "MatMulV3"),
        ((3, 6, 7), (7, 5), (3, 6, 5), "MatMulV3"),
        ((6, 7), (4, 7, 5), (4, 6, 5), "BatchMatMulV3"),
        ((2, 1, 6, 7), (1, 3, 7, 5), (2, 3, 6, 5), "BatchMatMulV3"),
        ((2, 3, 4, 5), (3, 5, 3), (2, 3, 4, 3), "BatchMatMulV3"),
    ],
    ids=["1d-1d", "1d-2d", "2d-1d", "fold", "2d-3d", "broadcast", "4d-3d"],
)
def test_matmul_ranks(a_shape: tuple[int, ...], b_shape: tuple[int, ...], out_shape: tuple[int, ...],
                      kernel: str) -> None:  # fmt: skip
    """Matmul's 1-D operands, batch folding and batch broadcasting follow numpy.matmul."""
    npu = Npu()
    rng = np.random.default_rng(43)
    a, b = values(a_shape, NP[F16], rng), values(b_shape, NP[F16], rng)
    actual, names = _mm(npu, "aclnnMatmul", a, b, (F16, F16, F32), out_shape)
    check(actual, np.asarray(np.matmul(a.astype(np.float64), b.astype(np.float64))))
    assert kernel in names


def test_batch_matmul() -> None:
    """BatchMatMul: equal batches, a batch of 1 broadcasting, and a transposed mat2 view."""
    npu = Npu()
    rng = np.random.default_rng(44)
    a, b = values((4, 33, 20), NP[B16], rng), values((4, 20, 17), NP[B16], rng)
    actual, names = _mm(npu, "aclnnBatchMatMul", a, b, (B16, B16, B16), (4, 33, 17))
    check(actual, a.astype(np.float64) @ b.astype(np.float64))
    assert names == ["BatchMatMulV3"]
    a1 = values((1, 33, 20), NP[F32], rng)
    b1 = values((3, 20, 17), NP[F32], rng)
    actual, _ = _mm(npu, "aclnnBatchMatMul", a1, b1, (F32, F32, F32), (3, 33, 17))
    check(actual, a1.astype(np.float64) @ b1.astype(np.float64))
    stored = values((3, 17, 20), NP[F32], rng)  # mat2 = stored^T in the last two dims
    dev = npu.tensor(stored, F32)
    view = A.aclCreateTensor([3, 20, 17], 3, F32, [340, 1, 20], 0, A.ACL_FORMAT_ND, [3, 17, 20], 3, dev.addr)
    host_self = values((3, 33, 20), NP[F32], rng)
    self_t, out = npu.tensor(host_self, F32), npu.output((3, 33, 17), F32)
    status, names = npu.run(A.aclnnBatchMatMulGetWorkspaceSize, A.aclnnBatchMatMul, self_t.handle, view, out.handle, 0)
    assert status == 0 and names == ["BatchMatMulV3"]
    check(out.numpy(), host_self.astype(np.float64) @ stored.swapaxes(1, 2).astype(np.float64))


def test_empty_and_zero_k() -> None:
    """An empty out with an empty input launches nothing; K == 0 fills out with zeros."""
    npu = Npu()
    a, b = np.zeros((0, 5), np.float32), np.ones((5, 3), np.float32)
    _, names = _mm(npu, "aclnnMm", a, b, (F32, F32, F32), (0, 3))
    assert names == []
    a, b = np.zeros((4, 0), np.float16), np.zeros((0, 3), np.float16)
    actual, names = _mm(npu, "aclnnMm", a, b, (F16, F16, F16), (4, 3))
    assert names == ["Fill"]
    np.testing.assert_array_equal(actual, np.zeros((4, 3), np.float16))


@pytest.mark.parametrize("api", ["aclnnMm", "aclnnMatmul", "aclnnBatchMatMul"])
def test_statuses(api: str) -> None:
    """161001 for each null tensor; 161002 for dtype, rank, K, batch, out shape and cubeMathType."""
    npu = Npu()
    call = getattr(A, f"{api}GetWorkspaceSize")
    lead = (2,) if api == "aclnnBatchMatMul" else ()

    def t(shape: tuple[int, ...], dtype: int = F32) -> object:
        return npu.output((*lead, *shape), dtype).handle

    x, y, out = t((4, 5)), t((5, 3)), t((4, 3))
    assert call(x, y, out, 0)[2] == 0
    assert call(None, y, out, 0)[2] == NULLPTR
    assert call(x, None, out, 0)[2] == NULLPTR
    assert call(x, y, None, 0)[2] == NULLPTR
    assert call(t((4, 5), A.ACL_DOUBLE), t((5, 3), A.ACL_DOUBLE), t((4, 3), A.ACL_DOUBLE), 0)[2] == INVALID
    assert call(t((4, 5), A.ACL_INT32), y, out, 0)[2] == INVALID
    assert call(x, y, t((4, 3), A.ACL_INT32), 0)[2] == INVALID
    assert call(x, t((6, 3)), out, 0)[2] == INVALID  # K mismatch
    assert call(x, y, t((3, 4)), 0)[2] == INVALID  # out shape
    for mode in (5, -2):
        assert call(x, y, out, mode)[2] == INVALID
    if api == "aclnnMm":
        assert call(t((2, 4, 5)), y, t((2, 4, 3)), 0)[2] == INVALID  # Mm is 2-D only
    elif api == "aclnnBatchMatMul":
        assert call(npu.output((4, 5), F32).handle, y, out, 0)[2] == INVALID  # 3-D only
        assert call(x, npu.output((3, 5, 3), F32).handle, out, 0)[2] == INVALID  # batch 2 vs 3
    else:
        seven = npu.output((1,) * 5 + (4, 5), F32).handle
        assert call(seven, y, npu.output((1,) * 5 + (4, 3), F32).handle, 0)[2] == INVALID  # rank 7
        assert call(t((2, 4, 5)), t((3, 5, 3)), t((3, 4, 3)), 0)[2] == INVALID  # batch does not broadcast
