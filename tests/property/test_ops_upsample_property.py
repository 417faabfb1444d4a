"""Property: the upsampling ops on random image sizes, dtypes, layouts and parameters never raise, fail
only with the statuses their real L2 code returns, and — when they succeed — match the float64 golden
(forward) and are the exact adjoint of the forward (backward).

Sizes are 1-6 per axis, so down- and up-sampling, equal sizes and single rows all occur; outputSize
may disagree with out (then 161002); bilinear scales are drawn around the real ratio.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator import acl, aclnn, npu, process
from emulator.testing.precision import assert_precision

A = aclnn
ALLOWED = {0, 161002}
sizes = st.integers(1, 6)


def _taps(n_in: int, n_out: int, linear: bool, align: bool) -> np.ndarray:
    """The (n_out, n_in) interpolation matrix of one axis, from the torch rule, in float64."""
    matrix = np.zeros((n_out, n_in))
    step = np.float32((n_in - 1) / (n_out - 1) if align and n_out > 1 else (0.0 if align else n_in / n_out))
    for d in range(n_out):
        if not linear:
            matrix[d, min(int(np.floor(np.float32(d) * step)), n_in - 1)] = 1
            continue
        pos = float(np.float32(d) * step) if align else max(float((np.float32(d) + 0.5) * step - 0.5), 0.0)
        i0 = min(int(pos), n_in - 1)
        lam = pos - i0
        matrix[d, i0] += 1 - lam
        matrix[d, min(i0 + 1, n_in - 1)] += lam
    return matrix


def _run(s: npu.Session, name: str, *args: object) -> int:
    ws, executor, ret = getattr(A, f"{name}GetWorkspaceSize")(*args)
    assert ret in ALLOWED, (name, ret, acl.get_recent_err_msg())
    if ret != 0:
        assert acl.get_recent_err_msg(), "a refusal leaves an error message"
        return int(ret)
    workspace = s.malloc(ws).addr if ws else 0
    assert getattr(A, name)(workspace, ws, executor, s.stream) == 0
    s.synchronize()
    return 0


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(linear=st.booleans(), align=st.booleans(), n=st.integers(1, 2), c=st.integers(1, 3), ih=sizes, iw=sizes,
       oh=sizes, ow=sizes, mismatch=st.booleans(), seed=st.integers(0, 2**16))  # fmt: skip
def test_upsample_pairs(linear: bool, align: bool, n: int, c: int, ih: int, iw: int, oh: int, ow: int,
                        mismatch: bool, seed: int) -> None:  # fmt: skip
    """Forward against M_h x M_w^T, backward against M_h^T g M_w, or a 161002 refusal."""
    align = align and linear
    rng = np.random.default_rng(seed)
    x = rng.uniform(-2, 2, (n, c, ih, iw)).astype(np.float32)
    g = rng.uniform(-2, 2, (n, c, oh, ow)).astype(np.float32)
    mh, mw = _taps(ih, oh, linear, align), _taps(iw, ow, linear, align)
    size = A.aclCreateIntArray([oh, ow + int(mismatch)], 2)
    with process.fresh(), npu.Session() as s:
        xt = s.tensor(x, A.ACL_FLOAT, format=A.ACL_FORMAT_NCHW)
        out = s.tensor(np.zeros((n, c, oh, ow), np.float32), A.ACL_FLOAT, format=A.ACL_FORMAT_NCHW)
        if linear:
            status = _run(s, "aclnnUpsampleBilinear2d", xt.handle, size, align, 0.0, 0.0, out.handle)
        else:
            status = _run(s, "aclnnUpsampleNearest2d", xt.handle, size, out.handle)
        assert status == (161002 if mismatch else 0)
        if status == 0:
            assert_precision(out.numpy(), np.einsum("hi,ncij,wj->nchw", mh, x.astype(np.float64), mw))
        gt = s.tensor(g, A.ACL_FLOAT, format=A.ACL_FORMAT_NCHW)
        grad = s.tensor(np.zeros((n, c, ih, iw), np.float32), A.ACL_FLOAT, format=A.ACL_FORMAT_NCHW)
        out_size, in_size = A.aclCreateIntArray([oh, ow], 2), A.aclCreateIntArray([n, c, ih, iw], 4)
        if linear:
            name, extra = "aclnnUpsampleBilinear2dBackward", (align, 0.0, 0.0)
        else:
            name, extra = "aclnnUpsampleNearest2dBackward", (0.0, 0.0)
        assert _run(s, name, gt.handle, out_size, in_size, *extra, grad.handle) == 0
        assert_precision(grad.numpy(), np.einsum("hi,nchw,wj->ncij", mh, g.astype(np.float64), mw))
