"""Property: aclnnRotaryPositionEmbedding, aclnnFlashAttentionScore and aclnnFusedInferAttentionScoreV2 over
random shapes, layouts, heads, modes and dtypes never raise, fail only with the real statuses, and match
the float64 golden (softmax(Q·Kᵀ·scale + mask)·V) when they succeed."""

from __future__ import annotations

from typing import Any

import numpy as np
from binary_helpers import check, empty_out, np_dtype, random_values, to_device
from hypothesis import given, settings
from hypothesis import strategies as st
from test_attention import attention64, fia, from_bnsd, rope64, to_bnsd
from test_sort_scan_property import session

from emulator import acl, aclnn
from emulator.meta.dtypes import DataType

A = aclnn
D = DataType
SETTINGS = settings(max_examples=8, deadline=None)


def run(stream: int, result: tuple[Any, ...], phase2: Any) -> int:
    """Phase 2 and the synchronisation after a successful phase 1; the phase-1 status."""
    ws, executor, status = result
    if status == 0:
        workspace = acl.rt.malloc(ws, 0)[0] if ws else 0
        assert phase2(workspace, ws, executor, stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0, acl.get_recent_err_msg()
    return int(status)


small = st.integers(1, 4)


@SETTINGS
@given(small, small, small, st.integers(1, 9), st.integers(-1, 4), st.lists(st.booleans(), min_size=3, max_size=3),
       st.sampled_from((D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_INT32)), st.integers(0, 99))  # fmt: skip
def test_rope_property(b: int, s: int, n: int, half_d: int, mode: int, keep: list[bool], dtype: int,
                       seed: int) -> None:  # fmt: skip
    x_shape = (b, s, n, 2 * half_d)
    r_shape = (*tuple(dim if k else 1 for dim, k in zip(x_shape[:3], keep, strict=True)), 2 * half_d)
    with session() as stream:
        rng = np.random.default_rng(seed)
        x, angles = random_values(dtype, x_shape, rng), rng.uniform(-3, 3, r_shape)
        cos, sin = np.cos(angles).astype(np_dtype(dtype)), np.sin(angles).astype(np_dtype(dtype))
        out = empty_out(x_shape, dtype)
        result = A.aclnnRotaryPositionEmbeddingGetWorkspaceSize(
            *(to_device(v, dtype).handle for v in (x, cos, sin)), mode, out.handle
        )
        assert result[-1] in (0, 161002, 561002), acl.get_recent_err_msg()
        if run(stream, result, A.aclnnRotaryPositionEmbedding) == 0:
            check(out, rope64(x, cos, sin, mode))


@SETTINGS
@given(st.sampled_from(("BSH", "SBH", "BSND", "BNSD")), small, st.integers(1, 3), st.integers(1, 3),
       st.integers(1, 12), st.integers(0, 12), st.integers(1, 8), st.booleans(), st.integers(0, 99))  # fmt: skip
def test_flash_attention_property(layout: str, b: int, n2: int, group: int, s1: int, s2: int, d: int, causal: bool,
                                  seed: int) -> None:  # fmt: skip
    n1 = n2 * group
    rng = np.random.default_rng(seed)
    q4, k4, v4 = (
        rng.uniform(-1, 1, (b, n1, s1, d)),
        rng.uniform(-1, 1, (b, n2, s2, d)),
        rng.uniform(-1, 1, (b, n2, s2, d)),
    )
    q, k, v = (from_bnsd(x, layout).astype(np.float32) for x in (q4, k4, v4))
    masked = np.triu(np.ones((s1, s2), bool), 1) if causal else None
    f = D.DT_FLOAT
    with session() as stream:
        smax, ssum = empty_out((b, n1, s1, 8), f), empty_out((b, n1, s1, 8), f)
        out = empty_out(q.shape, f)
        mask = to_device(masked, D.DT_BOOL).handle if masked is not None else None
        result = A.aclnnFlashAttentionScoreGetWorkspaceSize(
            *(to_device(x, f).handle for x in (q, k, v)), None, None, None, mask, None, 0.5, 1.0, 65536, 65536, n1,
            layout, 0, 1, smax.handle, ssum.handle, None, out.handle)  # fmt: skip
        assert result[-1] in (0, 161001, 161002), acl.get_recent_err_msg()
        if run(stream, result, A.aclnnFlashAttentionScore) == 0 and s1 and b:
            golden = attention64(*(to_bnsd(x.astype(np.float64), layout, n) for x, n in ((q, n1), (k, n2), (v, n2))),
                                 0.5, masked)  # fmt: skip
            check(out, from_bnsd(golden[0], layout))
            check(smax, np.repeat(golden[1][..., None], 8, -1))


@SETTINGS
@given(st.sampled_from(("BSH", "BSND", "BNSD")), st.integers(1, 3), st.integers(1, 2), st.integers(1, 3),
       st.sampled_from((1, 1, 3, 6)), st.integers(0, 9), st.lists(st.integers(0, 9), min_size=1, max_size=3),
       st.integers(0, 99))  # fmt: skip
def test_fused_infer_attention_property(layout: str, b: int, n2: int, group: int, s1: int, s2: int, kv_lens: list[int],
                                        seed: int) -> None:  # fmt: skip
    n1, d, f16 = n2 * group, 8, D.DT_FLOAT16
    rng = np.random.default_rng(seed)
    q4, k4, v4 = (rng.uniform(-1, 1, shape).astype(np.float16).astype(np.float64)
                  for shape in ((b, n1, s1, d), (b, n2, s2, d), (b, n2, s2, d)))  # fmt: skip
    with session() as stream:
        out = empty_out(from_bnsd(q4, layout).shape, f16)
        result = fia(*(to_device(from_bnsd(x, layout), f16).handle for x in (q4, k4, v4)), out.handle, heads=n1,
                     kv_heads=n2, layout=layout, scale=0.4, seq_kv=kv_lens)  # fmt: skip
        assert result[-1] in (0, 561002), acl.get_recent_err_msg()
        if run(stream, result, A.aclnnFusedInferAttentionScoreV2) == 0:
            lens = [kv_lens[0] if len(kv_lens) == 1 else kv_lens[i] for i in range(b)]
            masked = np.arange(s2)[None, None, None, :] >= np.array(lens)[:, None, None, None]
            golden = attention64(q4, k4, v4, 0.4, masked)[0]
            check(out, from_bnsd(golden, layout))
