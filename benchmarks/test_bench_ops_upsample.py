"""Upsampling: aclnnUpsampleBilinear2d of a 1x16x256x256 float32 image to 512x512 (4M outputs) against numpy."""

from __future__ import annotations

import numpy as np
import pytest
from test_bench_ops import Ctx, ctx  # noqa: F401  (ctx is the fixture)

from emulator import acl, aclnn
from emulator.acl import constants as c

F32, NCHW = aclnn.ACL_FLOAT, aclnn.ACL_FORMAT_NCHW
X = np.random.default_rng(0).random((1, 16, 256, 256), dtype=np.float32)
OUT = (1, 16, 512, 512)


def _nchw(arr: np.ndarray) -> object:
    ptr, ret = acl.rt.malloc(arr.nbytes, 0)
    assert ret == 0
    acl.rt.memcpy(ptr, arr.nbytes, arr.ctypes.data, arr.nbytes, c.ACL_MEMCPY_HOST_TO_DEVICE)
    shape = list(arr.shape)
    strides = [s // arr.itemsize for s in arr.strides]
    return aclnn.aclCreateTensor(shape, 4, F32, strides, 0, NCHW, shape, 4, ptr)


@pytest.mark.benchmark(group="upsample: UpsampleBilinear2d 16x256x256 -> 512x512")
def test_upsample_bilinear(benchmark, ctx: Ctx) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    x, out = _nchw(X), _nchw(np.empty(OUT, np.float32))
    size = aclnn.aclCreateIntArray([512, 512], 2)
    benchmark(ctx.run, aclnn.aclnnUpsampleBilinear2dGetWorkspaceSize, aclnn.aclnnUpsampleBilinear2d, x, size, False,
              0.0, 0.0, out)  # fmt: skip


@pytest.mark.benchmark(group="upsample: UpsampleBilinear2d 16x256x256 -> 512x512")
def test_upsample_bilinear_numpy(benchmark) -> None:  # type: ignore[no-untyped-def]
    def bilinear() -> np.ndarray:
        pos = np.maximum((np.arange(512, dtype=np.float32) + 0.5) * 0.5 - 0.5, 0)
        i0 = pos.astype(np.int64)
        i1 = np.minimum(i0 + 1, 255)
        lam = pos - i0
        rows = X[:, :, i0] * (1 - lam)[:, None] + X[:, :, i1] * lam[:, None]
        return rows[..., i0] * (1 - lam) + rows[..., i1] * lam

    benchmark(bilinear)
