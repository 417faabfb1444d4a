"""The attention family (issue 15): aclnnRotaryPositionEmbedding, aclnnFlashAttentionScore and
aclnnFusedInferAttentionScoreV2 end to end.

Per op: the official example's values, each kernel path (mode, layout, mask kind) on small shapes
against a float64 numpy golden under the precision standard, strided inputs, the empty case, and
every status the real code gives with its aclGetRecentErrMsg text. Attention is checked against a
plain softmax(Q·Kᵀ·scale + mask)·V reference.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from binary_helpers import check, empty_out, ident, np_dtype, random_values, run_op, to_device
from device_helpers import SESSIONS, device_tensor

from emulator import acl, aclnn, npu, process
from emulator.config import Settings
from emulator.meta.dtypes import DataType

A = aclnn
D = DataType
NULLPTR, INVALID, INFERSHAPE, TILING = 161001, 161002, 561001, 561002


def assert_rejected(result: tuple[Any, ...], code: int, text: str) -> None:
    """Phase 1 failed with ``code`` and left ``text`` in aclGetRecentErrMsg."""
    assert result[-1] == code, acl.get_recent_err_msg()
    assert text in acl.get_recent_err_msg()


# -- aclnnRotaryPositionEmbedding ----------------------------------------------------------------------
def rope64(x: np.ndarray, cos: np.ndarray, sin: np.ndarray, mode: int) -> np.ndarray:
    """The documented formulas of the four modes, in float64."""
    x, cos, sin = (v.astype(np.float64) for v in (x, cos, sin))
    d = x.shape[-1]
    if mode == 0:
        x1, x2 = x[..., : d // 2], x[..., d // 2 :]
        return x * cos + np.concatenate((-x2, x1), -1) * sin
    if mode == 1:
        x1, x2 = x[..., ::2], x[..., 1::2]
        rotated = np.stack((-x2, x1), -1).reshape(x.shape)
        return x * cos + rotated * sin
    if mode == 2:
        q = d // 4
        parts = (-x[..., q : 2 * q], x[..., :q], -x[..., 3 * q :], x[..., 2 * q : 3 * q])
        return x * cos + np.concatenate(parts, -1) * sin
    x1, x2 = x[..., ::2], x[..., 1::2]
    return np.concatenate((x1, x2), -1) * cos + np.concatenate((-x2, x1), -1) * sin


def run_rope(stream: int, x: np.ndarray, cos: np.ndarray, sin: np.ndarray, mode: int, dtype: int,
             strided: bool = False) -> None:  # fmt: skip
    out = empty_out(x.shape, dtype, strided=strided)
    handles = [to_device(v, dtype, strided=strided).handle for v in (x, cos, sin)]
    run_op(A.aclnnRotaryPositionEmbeddingGetWorkspaceSize, A.aclnnRotaryPositionEmbedding, stream, *handles, mode,
           out.handle)  # fmt: skip
    check(out, rope64(x, cos, sin, mode))


def test_rope_documented_example(stream: int) -> None:
    """The official example: 1x1x1x128 float32, interleave mode, integer-valued inputs."""
    rng = np.random.default_rng(0)
    x, cos, sin = (rng.integers(1, 129, (1, 1, 1, 128)).astype(np.float32) for _ in range(3))
    run_rope(stream, x, cos, sin, 1, D.DT_FLOAT)


@pytest.mark.parametrize(
    ("dtype", "mode", "x_shape", "r_shape"),
    [
        (D.DT_FLOAT16, 0, (2, 3, 4, 64), (1, 3, 1, 64)),  # BSND with a 1S1D table
        (D.DT_BF16, 0, (2, 4, 5, 32), (2, 1, 5, 32)),  # BNSD with B1SD
        (D.DT_FLOAT, 0, (3, 2, 2, 16), (3, 2, 2, 16)),  # no broadcast
        (D.DT_FLOAT, 1, (2, 5, 3, 8), (1, 5, 1, 8)),  # interleave, BSND
        (D.DT_FLOAT16, 1, (4, 2, 3, 16), (4, 1, 1, 16)),  # interleave, SBND
    ],
    ids=ident,
)
def test_rope_modes_and_layouts(stream: int, dtype: int, mode: int, x_shape: tuple, r_shape: tuple) -> None:
    rng = np.random.default_rng(mode)
    x = random_values(dtype, x_shape, rng)
    angles = rng.uniform(-3, 3, r_shape)
    run_rope(stream, x, np.cos(angles), np.sin(angles), mode, dtype, strided=dtype == D.DT_FLOAT16)


def test_rope_regbase_modes() -> None:
    """Quarter and interleave-half exist on the Ascend 950 only."""
    with process.fresh(Settings(soc="Ascend950PR_9599")), npu.Session() as session:
        assert session.stream is not None
        SESSIONS.append(session)
        rng = np.random.default_rng(3)
        for mode in (2, 3):
            x, angles = rng.uniform(-2, 2, (1, 3, 2, 16)), rng.uniform(-3, 3, (1, 3, 1, 16))
            run_rope(int(session.stream), x, np.cos(angles), np.sin(angles), mode, D.DT_FLOAT)
        SESSIONS.remove(session)


def test_rope_empty_and_statuses(stream: int) -> None:
    """Empty x: nothing launched (not held to the shape rules). Null 161001, dtypes 161002, out's shape
    561001, every tiling refusal 561002."""
    f = D.DT_FLOAT
    api = A.aclnnRotaryPositionEmbeddingGetWorkspaceSize
    e = empty_out((0, 2, 2, 8), f).handle
    ws, executor, ret = api(e, empty_out((1, 1, 3), f).handle, empty_out((1, 1, 3), f).handle, 0, e)
    assert (ws, ret) == (0, 0) and executor.launchers == []

    def t(shape: tuple, dtype: int = f) -> Any:
        return empty_out(shape, dtype).handle

    x, r = t((1, 2, 2, 8)), t((1, 2, 1, 8))
    assert_rejected(api(None, r, r, 0, x), NULLPTR, "x")
    assert_rejected(api(x, r, None, 0, x), NULLPTR, "sin")
    assert_rejected(api(x, t((1, 2, 1, 8), D.DT_FLOAT16), r, 0, x), INVALID, "not a supported combination")
    assert_rejected(api(t((1, 2, 2, 8), D.DT_INT32), r, r, 0, t((1, 2, 2, 8), D.DT_INT32)), INVALID, "combination")
    assert_rejected(api(x, r, r, 0, t((1, 2, 2, 4))), INFERSHAPE, "out must be [1, 2, 2, 8]")
    cases = [
        (x, r, r, 2, x, "mode 2 is not supported"),
        (x, r, r, 7, x, "mode 7 is not supported"),
        (t((2, 2, 8)), t((2, 1, 8)), t((2, 1, 8)), 0, t((2, 2, 8)), "must be 4-dimensional"),
        (t((1, 1, 1, 898)), t((1, 1, 1, 898)), t((1, 1, 1, 898)), 0, t((1, 1, 1, 898)), "less than 896"),
        (t((1, 1, 1, 7)), t((1, 1, 1, 7)), t((1, 1, 1, 7)), 0, t((1, 1, 1, 7)), "even number"),
        (x, r, t((1, 1, 1, 8)), 0, x, "cos shape and sin shape should be equal"),
        (x, t((1, 2, 1, 4)), t((1, 2, 1, 4)), 0, x, "get x [8] and cos [4]"),
        (x, t((1, 3, 1, 8)), t((1, 3, 1, 8)), 0, x, "is not supported"),
        (
            t((2, 2, 2, 8)),
            t((1, 1, 1, 8)),
            t((1, 1, 1, 8)),
            1,
            t((2, 2, 2, 8)),
            "is not supported",
        ),  # interleave needs x's S axis
    ]
    for xi, ci, si, mode, oi, text in cases:
        assert_rejected(api(xi, ci, si, mode, oi), TILING, text)


# -- aclnnFlashAttentionScore ----------------------------------------------------------------------------
def to_bnsd(x: np.ndarray, layout: str, n: int) -> np.ndarray:
    """A [B, N, S, D] float64 copy of a tensor of ``layout``."""
    x = x.astype(np.float64)
    if layout == "BNSD":
        return x
    if layout == "BSND":
        return x.transpose(0, 2, 1, 3)
    if layout == "BSH":
        b, s, h = x.shape
        return x.reshape(b, s, n, h // n).transpose(0, 2, 1, 3)
    s, b, h = x.shape  # SBH
    return x.reshape(s, b, n, h // n).transpose(1, 2, 0, 3)


def from_bnsd(x: np.ndarray, layout: str) -> np.ndarray:
    b, n, s, d = x.shape
    if layout == "BNSD":
        return x
    if layout == "BSND":
        return x.transpose(0, 2, 1, 3)
    if layout == "BSH":
        return x.transpose(0, 2, 1, 3).reshape(b, s, n * d)
    return x.transpose(2, 0, 1, 3).reshape(s, b, n * d)


def attention64(q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float, masked: np.ndarray | None = None,
                pse: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """The plain reference on [B, N, S, D] float64: softmax(scale * (Q·Kᵀ + pse) with masked = -inf)·V,
    GQA by repeating the key / value heads; (out, row max, row sum); a fully masked row gives 0."""
    group = q.shape[1] // k.shape[1]
    k, v = np.repeat(k, group, axis=1), np.repeat(v, group, axis=1)
    scores = q @ k.transpose(0, 1, 3, 2)
    if pse is not None:
        scores = scores + pse
    scores = scores * scale
    if masked is not None:
        scores = np.where(np.broadcast_to(masked, scores.shape), -np.inf, scores)
    row_max = scores.max(-1, initial=-np.inf)
    dead = ~np.isfinite(row_max)
    p = np.exp(scores - np.where(dead, 0, row_max)[..., None])
    row_sum = p.sum(-1)
    out = (p / np.where(dead, 1, row_sum)[..., None]) @ v
    out[dead] = 0
    return out, row_max, np.where(dead, 0, row_sum)


def run_fa(
    stream: int,
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    layout: str,
    n1: int,
    dtype: int,
    *,
    scale: float,
    mask: np.ndarray | None = None,
    mask_dtype: int = D.DT_BOOL,
    pse: np.ndarray | None = None,
    drop: np.ndarray | None = None,
    keep_prob: float = 1.0,
    pre: int = 2**31 - 1,
    nxt: int = 2**31 - 1,
    sparse: int = 0,
    prefix: list[int] | None = None,
    strided: bool = False,
) -> tuple[Any, Any, Any]:
    """One FlashAttentionScore call; the (softmaxMax, softmaxSum, attentionOut) tensors."""
    b, s1 = to_bnsd(q, layout, n1).shape[0], to_bnsd(q, layout, n1).shape[2]
    dv = to_bnsd(v, layout, to_bnsd(k, layout, 1).shape[1] if layout in ("BSND", "BNSD") else 1).shape[-1]
    n2 = k.shape[2] if layout == "BSND" else k.shape[1] if layout == "BNSD" else None
    if n2 is None:  # BSH / SBH: H = N * D
        d = q.shape[2] // n1
        n2 = k.shape[2] // d
        dv = v.shape[2] // n2
    out_shape = from_bnsd(np.zeros((b, n1, s1, dv)), layout).shape
    smax, ssum = empty_out((b, n1, s1, 8), D.DT_FLOAT), empty_out((b, n1, s1, 8), D.DT_FLOAT)
    out = empty_out(out_shape, dtype, strided=strided)
    handles = [to_device(x, dtype, strided=strided).handle for x in (q, k, v)]
    pse_h = to_device(pse, dtype).handle if pse is not None else None
    mask_h = to_device(mask, mask_dtype).handle if mask is not None else None
    drop_h = to_device(drop, D.DT_UINT8).handle if drop is not None else None
    prefix_h = A.aclCreateIntArray(prefix, len(prefix)) if prefix is not None else None
    run_op(A.aclnnFlashAttentionScoreGetWorkspaceSize, A.aclnnFlashAttentionScore, stream, *handles, pse_h, drop_h,
           None, mask_h, prefix_h, scale, keep_prob, pre, nxt, n1, layout, 0, sparse, smax.handle, ssum.handle, None,
           out.handle)  # fmt: skip
    return smax, ssum, out


def check_fa(result: tuple[Any, Any, Any], golden: tuple[np.ndarray, np.ndarray, np.ndarray], layout: str) -> None:
    smax, ssum, out = result
    check(out, from_bnsd(golden[0], layout))
    check(smax, np.repeat(golden[1][..., None], 8, -1))
    check(ssum, np.repeat(golden[2][..., None], 8, -1))


def test_fa_documented_example(stream: int) -> None:
    """The official example: SBH 256 x 1 x 128 of ones, an all-zero uint8 mask, scale 1/sqrt(128)."""
    q = np.ones((256, 1, 128), np.float32)
    mask = np.zeros((256, 256), np.uint8)
    result = run_fa(stream, q, q, q, "SBH", 1, D.DT_FLOAT, scale=1 / np.sqrt(128), mask=mask, mask_dtype=D.DT_UINT8,
                    prefix=[0])  # fmt: skip
    check(result[2], np.ones((256, 1, 128)))
    check(result[0], np.full((1, 1, 256, 8), np.sqrt(128)))
    check(result[1], np.full((1, 1, 256, 8), 256.0))


@pytest.mark.parametrize(
    ("layout", "dtype", "b", "n1", "n2", "s1", "s2", "d"),
    [
        ("BNSD", D.DT_FLOAT16, 2, 4, 2, 130, 70, 32),  # GQA, two S1 tiles, S1 > S2
        ("BSND", D.DT_BF16, 1, 2, 1, 24, 40, 16),  # MQA
        ("BSH", D.DT_FLOAT, 2, 2, 2, 17, 33, 8),
        ("SBH", D.DT_FLOAT16, 1, 3, 3, 9, 9, 16),
    ],
    ids=ident,
)
def test_fa_layouts_and_heads(stream: int, layout: str, dtype: int, b: int, n1: int, n2: int, s1: int, s2: int,
                              d: int) -> None:  # fmt: skip
    """Every layout, GQA / MQA head groups, float16 / bfloat16 / float32, a causal mask (strided inputs for fp16)."""
    rng = np.random.default_rng(s1)
    shapes = {"q": (b, n1, s1, d), "k": (b, n2, s2, d)}
    q4, k4, v4 = (rng.uniform(-1, 1, shapes["q" if i == 0 else "k"]) for i in range(3))
    q, k, v = (from_bnsd(x, layout).astype(np_dtype(dtype)).astype(np.float32) for x in (q4, k4, v4))
    masked = np.triu(np.ones((s1, s2), bool), 1)
    scale = 1 / np.sqrt(d)
    result = run_fa(stream, q, k, v, layout, n1, dtype, scale=scale, mask=masked, sparse=1,
                    strided=dtype == D.DT_FLOAT16)  # fmt: skip
    q4, k4, v4 = (to_bnsd(x.astype(np.float64), layout, n) for x, n in ((q, n1), (k, n2), (v, n2)))
    check_fa(result, attention64(q4, k4, v4, scale, masked), layout)


@pytest.mark.parametrize(
    ("sparse", "pre", "nxt", "s1", "s2"),
    [(0, 3, 1, 12, 12), (2, 0, 0, 10, 14), (3, 0, 0, 14, 10), (4, 4, 0, 8, 12), (6, 0, 0, 8, 12)],
    ids=str,
)
def test_fa_sparse_modes(stream: int, sparse: int, pre: int, nxt: int, s1: int, s2: int) -> None:
    """defaultMask with a band, leftUpCausal, rightDownCausal (a fully masked row gives 0), band, prefix."""
    rng = np.random.default_rng(sparse)
    q, k, v = rng.uniform(-1, 1, (1, 2, s1, 8)), rng.uniform(-1, 1, (1, 2, s2, 8)), rng.uniform(-1, 1, (1, 2, s2, 8))
    i, j = np.arange(s1)[:, None], np.arange(s2)[None, :]
    if sparse == 0:
        given = np.zeros((s1, s2), bool)
        given[:, 0] = True
        mask, masked = given, given | (j - i > nxt) | (i - j > pre)
    elif sparse == 6:
        mask = np.triu(np.ones((3072, 2048), bool), 1)
        masked = (j - i > s2 - s1) & (j >= 5)
    else:
        mask = np.triu(np.ones((2048, 2048), bool), 1)
        masked = {2: j > i, 3: j - i > s2 - s1, 4: (j - i - (s2 - s1) > nxt) | (i - j + (s2 - s1) > pre)}[sparse]
    result = run_fa(stream, q.astype(np.float32), k.astype(np.float32), v.astype(np.float32), "BNSD", 2,
                    D.DT_FLOAT, scale=0.5, mask=mask, pre=pre, nxt=nxt, sparse=sparse,
                    prefix=[5] if sparse == 6 else None)  # fmt: skip
    check_fa(result, attention64(q, k, v, 0.5, masked), "BNSD")


def test_fa_pse_and_dropout(stream: int) -> None:
    """A [B, N, S, S] pse added before the scale, and a bit-packed drop mask with keepProb 0.5."""
    rng = np.random.default_rng(5)
    b, n, s, d = 1, 2, 16, 8
    q, k, v = (rng.uniform(-1, 1, (b, n, s, d)).astype(np.float32) for _ in range(3))
    pse = rng.uniform(-1, 1, (b, n, s, s)).astype(np.float32)
    keep = rng.integers(0, 2, (b, n, s, s)).astype(bool)
    drop = np.packbits(keep.reshape(-1), bitorder="little")
    result = run_fa(stream, q, k, v, "BNSD", n, D.DT_FLOAT, scale=0.3, pse=pse, drop=drop, keep_prob=0.5)
    golden = attention64(q.astype(np.float64), k, v, 0.3, pse=pse.astype(np.float64))
    probs = np.exp((q.astype(np.float64) @ k.transpose(0, 1, 3, 2) + pse) * 0.3 - golden[1][..., None])
    out = (probs / golden[2][..., None] * keep / 0.5) @ v
    check_fa(result, (out, golden[1], golden[2]), "BNSD")


def test_fa_empty_and_statuses(stream: int) -> None:
    """Empty outs: nothing launched. Nulls 161001; dtypes, headNum, layout and head dims 161002; an out
    of the wrong shape fails its ViewCopy: 161001 (the real L2's code for a null L0 result)."""
    api = A.aclnnFlashAttentionScoreGetWorkspaceSize
    f = D.DT_FLOAT

    def t(shape: tuple, dtype: int = f) -> Any:
        return empty_out(shape, dtype).handle

    def call(q: Any, k: Any, v: Any, layout: str | None = "BNSD", n: int = 2, smax: Any = "", out: Any = "",
             pse: Any = None) -> tuple[Any, ...]:  # fmt: skip
        smax = t((1, 2, 4, 8)) if smax == "" else smax
        out = t((1, 2, 4, 8)) if out == "" else out
        return api(q, k, v, pse, None, None, None, None, 1.0, 1.0, 65536, 65536, n, layout, 0, 0, smax,
                   t((1, 2, 4, 8)), None, out)  # fmt: skip

    q = t((1, 2, 4, 8))
    e = t((0, 2, 4, 8))
    ws, executor, ret = api(e, e, e, None, None, None, None, None, 1.0, 1.0, 1, 1, 2, "BNSD", 0, 0, t((0, 2, 4, 8)),
                            t((0, 2, 4, 8)), None, e)  # fmt: skip
    assert (ws, ret) == (0, 0) and executor.launchers == []
    assert_rejected(call(None, q, q), NULLPTR, "query")
    assert_rejected(call(q, q, q, layout=None), NULLPTR, "inputLayout")
    assert_rejected(call(q, q, q, smax=None), NULLPTR, "softmaxMaxOut")
    assert_rejected(call(q, q, q, out=None), NULLPTR, "attentionOutOut")
    cases = [
        ((q, t((1, 2, 4, 8), D.DT_FLOAT16), q), {}, "The data type of query[DT_FLOAT], key[DT_FLOAT16]"),
        ((q, q, q), {"pse": t((1, 2, 4, 4), D.DT_FLOAT16)}, "of pse is not equal to the data type"),
        ((q, q, q), {"n": 0}, "head_num must > 0, but got 0"),
        ((q, q, q), {"layout": "BSH"}, "not support input_layout BSH with dim_num 4"),
        ((q, q, q), {"layout": "TND"}, "not support input_layout TND"),
        ((q, t((1, 2, 4, 4)), q), {}, "qD and kD should be same, but got qD=8 kD=4"),
        ((q, q, t((1, 2, 4, 16))), {}, "only support kD >= vD, but got kD=8 vD=16"),
        ((t((1, 1, 2, 800)), t((1, 1, 2, 800)), t((1, 1, 2, 800))), {"n": 1}, "Head dim must <= 768, but got 800"),
    ]
    for args, kwargs, text in cases:
        assert_rejected(call(*args, **kwargs), INVALID, text)
    assert_rejected(call(q, q, q, out=t((1, 2, 4, 4))), NULLPTR, "an L0 step returned null")


def test_fa_tiling_refusals_fail_the_launch(stream: int) -> None:
    """The L0 ignores its launch status: what the tiling refuses passes phase 1 and fails phase 2."""
    q = to_device(np.zeros((1, 3, 4, 8), np.float32), D.DT_FLOAT).handle
    k = to_device(np.zeros((1, 2, 4, 8), np.float32), D.DT_FLOAT).handle  # N1 = 3 is not a multiple of N2 = 2
    outs = [empty_out(shape, D.DT_FLOAT).handle for shape in ((1, 3, 4, 8), (1, 3, 4, 8), (1, 3, 4, 8))]
    ws, executor, ret = A.aclnnFlashAttentionScoreGetWorkspaceSize(
        q, k, k, None, None, None, None, None, 1.0, 1.0, 1, 1, 3, "BNSD", 0, 0, outs[0], outs[1], None, outs[2]
    )
    assert ret == 0
    workspace, _ = acl.rt.malloc(max(ws, 1), 0)
    assert A.aclnnFlashAttentionScore(workspace, ws, executor, stream) != 0


# -- aclnnFusedInferAttentionScoreV2 -------------------------------------------------------------------
FIA_NONE = (None,) * 17  # deqScale1 ... actualSharedPrefixLen


def tensor_list(*tensors: Any) -> Any:
    return A.aclCreateTensorList(list(tensors), len(tensors))


def fia(
    q: Any,
    k: Any,
    v: Any,
    out: Any,
    *,
    pse: Any = None,
    mask: Any = None,
    seq: list[int] | None = None,
    seq_kv: list[int] | None = None,
    heads: int = 2,
    scale: float = 1.0,
    pre: int = 2**31 - 1,
    nxt: int = 2**31 - 1,
    layout: str = "BNSD",
    kv_heads: int = 0,
    sparse: int = 0,
    precise: int = 0,
    lse_flag: bool = False,
    lse: Any = None,
    extra: tuple[Any, ...] = FIA_NONE,
) -> tuple[Any, ...]:
    """aclnnFusedInferAttentionScoreV2GetWorkspaceSize with keyword defaults (one-tensor key / value lists)."""
    arrays = [A.aclCreateIntArray(a, len(a)) if a is not None else None for a in (seq, seq_kv)]
    keys = tensor_list(k) if k is not None else None
    values = tensor_list(v) if v is not None else None
    return A.aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
        q, keys, values, pse, mask, *arrays, *extra, heads, scale, pre, nxt, layout, kv_heads, sparse, precise, 0, 0,
        lse_flag, 0, 0, out, lse)  # fmt: skip


def run_fia(stream: int, *args: Any, **kwargs: Any) -> None:
    ws, executor, ret = fia(*args, **kwargs)
    assert ret == 0, acl.get_recent_err_msg()
    workspace = acl.rt.malloc(ws, 0)[0] if ws else 0
    assert A.aclnnFusedInferAttentionScoreV2(workspace, ws, executor, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0


def rounded(rng: np.random.Generator, shape: tuple, dtype: int) -> np.ndarray:
    """Uniform values in [-1, 1] already representable in ``dtype`` (the golden sees what the device sees)."""
    return rng.uniform(-1, 1, shape).astype(np_dtype(dtype)).astype(np.float64)


def test_fia_documented_example(stream: int) -> None:
    """The official example's shapes: BNSD float16, query 1x2x1x16 (incremental), key / value 1x2x2x16,
    a 1x1x1x2 bool mask of zeros, actualSeqLengths {2} (ignored for S = 1), scale 1/sqrt(2); ones in, ones out."""
    f16 = D.DT_FLOAT16
    q, kv = to_device(np.ones((1, 2, 1, 16)), f16), to_device(np.ones((1, 2, 2, 16)), f16)
    out = empty_out((1, 2, 1, 16), f16)
    mask = to_device(np.zeros((1, 1, 1, 2), bool), D.DT_BOOL)
    run_fia(stream, q.handle, kv.handle, kv.handle, out.handle, mask=mask.handle, seq=[2], scale=1 / np.sqrt(2),
            precise=1)  # fmt: skip
    check(out, np.ones((1, 2, 1, 16)))


def test_fia_llama_cpp_prefill(stream: int) -> None:
    """What llama.cpp's CANN backend passes: BNSD float16, GQA (4 query / 2 kv heads), the additive
    causal mask with -inf as a stride-0 broadcast pseShift, innerPrecise 2, preTokens = nextTokens = 65535."""
    f16, rng = D.DT_FLOAT16, np.random.default_rng(11)
    q, k, v = rounded(rng, (1, 4, 5, 16), f16), rounded(rng, (1, 2, 9, 16), f16), rounded(rng, (1, 2, 9, 16), f16)
    i, j = np.arange(5)[:, None], np.arange(9)[None, :]
    additive = np.where(j - i > 4, -np.inf, rng.uniform(-0.5, 0.5, (5, 9))).astype(np.float16)
    pse = device_tensor(additive.reshape(-1), f16, (1, 4, 5, 9), (0, 0, 9, 1))
    out = empty_out((1, 4, 5, 16), f16)
    run_fia(stream, to_device(q, f16).handle, to_device(k, f16).handle, to_device(v, f16).handle, out.handle,
            pse=pse.handle, heads=4, kv_heads=2, scale=0.25, pre=65535, nxt=65535, precise=2)  # fmt: skip
    bias = additive.astype(np.float64)  # added after the scale; -inf entries drop their keys
    kk, vv = np.repeat(k, 2, 1), np.repeat(v, 2, 1)
    scores = q @ kk.transpose(0, 1, 3, 2) * 0.25 + bias
    p = np.exp(scores - scores.max(-1, keepdims=True))
    golden = (p / p.sum(-1, keepdims=True)) @ vv
    check(out, golden)


def test_fia_incremental_bsh_with_kv_lengths(stream: int) -> None:
    """Decode step: BSH bfloat16, B = 2, S = 1, actualSeqLengthsKv [6, 3], a (B, KV_S) bool mask, softmaxLse."""
    bf, rng = D.DT_BF16, np.random.default_rng(12)
    b, n, s2, d = 2, 2, 8, 16
    q, k, v = rounded(rng, (b, 1, n * d), bf), rounded(rng, (b, s2, n * d), bf), rounded(rng, (b, s2, n * d), bf)
    mask = np.zeros((b, s2), bool)
    mask[0, 1] = True
    out, lse = empty_out((b, 1, n * d), bf), empty_out((b, n, 1, 1), D.DT_FLOAT)
    run_fia(stream, to_device(q, bf).handle, to_device(k, bf).handle, to_device(v, bf).handle, out.handle,
            mask=to_device(mask, D.DT_BOOL).handle, seq_kv=[6, 3], layout="BSH", scale=0.3, lse_flag=True,
            lse=lse.handle)  # fmt: skip
    masked = np.zeros((b, 1, 1, s2), bool)
    masked[0, 0, 0, 1] = True
    masked[0, ..., 6:] = masked[1, ..., 3:] = True
    golden, row_max, row_sum = attention64(to_bnsd(q, "BSH", n), to_bnsd(k, "BSH", n), to_bnsd(v, "BSH", n), 0.3,
                                           masked)  # fmt: skip
    check(out, from_bnsd(golden, "BSH"))
    check(lse, (row_max + np.log(row_sum))[..., None])


@pytest.mark.parametrize(("layout", "sparse"), [("BSND", 3), ("BNSD_BSND", 0)], ids=str)
def test_fia_full_sparse_and_layouts(stream: int, layout: str, sparse: int) -> None:
    """Prefill with actualSeqLengths [3] (rows past it are zeros): rightDownCausal through the compressed
    2048 x 2048 mask (BSND), and a full (S1, S2) mask with the BNSD input / BSND output layout."""
    f16, rng = D.DT_FLOAT16, np.random.default_rng(13)
    n, s1, s2, d = 2, 4, 6, 8
    q4, k4, v4 = rounded(rng, (1, n, s1, d), f16), rounded(rng, (1, n, s2, d), f16), rounded(rng, (1, n, s2, d), f16)
    src = "BNSD" if layout == "BNSD_BSND" else layout
    i, j = np.arange(s1)[:, None], np.arange(s2)[None, :]
    if sparse == 3:
        mask, masked = np.triu(np.ones((2048, 2048), bool), 1), j - i > s2 - 3  # right-down from the actual q_len 3
    else:
        mask = masked = rng.integers(0, 2, (s1, s2)).astype(bool) & (j > 0)
    out = empty_out(from_bnsd(np.zeros((1, n, s1, d)), "BSND").shape, f16)
    run_fia(stream, *(to_device(from_bnsd(x, src), f16).handle for x in (q4, k4, v4)), out.handle,
            mask=to_device(mask, D.DT_BOOL).handle, seq=[3], layout=layout, sparse=sparse, scale=0.5)  # fmt: skip
    golden = attention64(q4, k4, v4, 0.5, masked)[0]
    golden[:, :, 3:] = 0
    check(out, from_bnsd(golden, "BSND"))


def test_fia_empty_kv_gives_zeros(stream: int) -> None:
    f16 = D.DT_FLOAT16
    out = empty_out((1, 2, 3, 8), f16)
    run_fia(stream, to_device(np.ones((1, 2, 3, 8)), f16).handle, to_device(np.ones((1, 2, 0, 8)), f16).handle,
            to_device(np.ones((1, 2, 0, 8)), f16).handle, out.handle)  # fmt: skip
    check(out, np.zeros((1, 2, 3, 8)))


def test_fia_statuses(stream: int) -> None:
    """Nulls 161001; dtypes 161002; shape inference 561001; the tiling 561002 (incl. what is not emulated)."""
    f16 = D.DT_FLOAT16

    def t(shape: tuple, dtype: int = f16) -> Any:
        return empty_out(shape, dtype).handle

    q, kv, out = t((1, 2, 4, 8)), t((1, 2, 6, 8)), t((1, 2, 4, 8))
    e = t((0, 2, 4, 8))
    ws, executor, ret = fia(e, kv, kv, e)
    assert (ws, ret) == (0, 0) and executor.launchers == []
    assert_rejected(fia(None, kv, kv, out), NULLPTR, "query")
    assert_rejected(fia(q, None, kv, out), NULLPTR, "key")
    assert_rejected(fia(q, kv, kv, None), NULLPTR, "attentionOut")
    assert_rejected(fia(q, kv, kv, out, lse_flag=True), NULLPTR, "softmaxLse")
    assert_rejected(fia(t((1, 2, 4, 8), D.DT_FLOAT), kv, kv, out), INVALID, "not a supported combination")
    assert_rejected(fia(q, kv, kv, out, mask=t((4, 6), D.DT_FLOAT)), INVALID, "not a supported combination")
    assert_rejected(fia(q, kv, kv, out, heads=0), INFERSHAPE, "numHeads can not be 0!")
    assert_rejected(fia(q, kv, kv, out, layout="BSH"), INFERSHAPE, "Layout BSH, queryDims(4) must be 3!")
    assert_rejected(fia(q, kv, kv, out, layout="TND"), INFERSHAPE, "input layout only supports")
    assert_rejected(fia(q, kv, kv, t((1, 2, 4, 4))), INFERSHAPE, "attentionOut must be [1, 2, 4, 8]")
    quant = (t((1,), D.DT_FLOAT),) + (None,) * 16
    cases = [
        (
            (t((1, 2, 4, 8), D.DT_INT8), t((1, 2, 6, 8), D.DT_INT8), t((1, 2, 6, 8), D.DT_INT8), t((1, 2, 4, 8))),
            {},
            "is not emulated",
        ),
        ((q, kv, kv, out), {"extra": quant}, "deqScale1Optional"),
        ((t((1, 3, 4, 8)), kv, kv, t((1, 3, 4, 8))), {"heads": 3, "kv_heads": 2}, "should be a multiple of"),
        ((q, kv, kv, out), {"kv_heads": 1}, "should be numKeyValueHeads(1)"),
        ((q, kv, t((1, 2, 5, 8)), out), {}, "the shapes of key and value should be the same"),
        ((q, kv, kv, out), {"sparse": 5}, "sparse_mode 5 is not supported yet"),
        ((q, kv, kv, out), {"sparse": 9}, "out of range"),
        ((q, kv, kv, out), {"pse": t((1, 2, 3, 6))}, "pseShift shape [1, 2, 3, 6]"),
        ((q, kv, kv, out), {"mask": t((4, 6), D.DT_BOOL), "sparse": 2}, "attenMask shape [4, 6] is not supported"),
        ((q, kv, kv, out), {"seq_kv": [7]}, "actualSeqLengthsKv [7] should be in [0, 6]"),
        ((q, kv, kv, out), {"lse_flag": True, "lse": t((1, 2, 4), D.DT_FLOAT)}, "softmaxLse shape [1, 2, 4]"),
    ]
    for args, kwargs, text in cases:
        assert_rejected(fia(*args, **kwargs), TILING, text)


def test_fa_v2_pse_type(stream: int) -> None:
    """aclnnFlashAttentionScoreV2: pseType 0 adds the pse after the scale, 1 before it (as V1); 2 / 3 need a
    float32 realShift (161002) and are not emulated (the launch fails)."""
    rng = np.random.default_rng(6)
    q, k, v = (rng.uniform(-1, 1, (1, 2, 8, 8)).astype(np.float32) for _ in range(3))
    pse = rng.uniform(-1, 1, (1, 2, 8, 8)).astype(np.float32)
    f = D.DT_FLOAT
    for pse_type in (0, 1):
        smax, ssum, out = (empty_out(s, f) for s in ((1, 2, 8, 8), (1, 2, 8, 8), (1, 2, 8, 8)))
        run_op(
            A.aclnnFlashAttentionScoreV2GetWorkspaceSize,
            A.aclnnFlashAttentionScoreV2,
            stream,
            *(to_device(x, f).handle for x in (q, k, v)),
            to_device(pse, f).handle,
            None,
            None,
            None,
            None,
            None,
            None,
            0.5,
            1.0,
            65536,
            65536,
            2,
            "BNSD",
            0,
            0,
            pse_type,
            smax.handle,
            ssum.handle,
            None,
            out.handle,
        )
        scores = q.astype(np.float64) @ k.transpose(0, 1, 3, 2)
        scores = (scores + pse) * 0.5 if pse_type == 1 else scores * 0.5 + pse
        p = np.exp(scores - scores.max(-1, keepdims=True))
        check(out, (p / p.sum(-1, keepdims=True)) @ v)
    x = to_device(q, f).handle
    outs = [empty_out((1, 2, 8, 8), f).handle for _ in range(3)]
    api = A.aclnnFlashAttentionScoreV2GetWorkspaceSize
    args = (
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        0.5,
        1.0,
        1,
        1,
        2,
        "BNSD",
        0,
        0,
        2,
        outs[0],
        outs[1],
        None,
        outs[2],
    )
    assert_rejected(api(x, x, x, *args), INVALID, "When pseType is 2 or 3, pseShape cannot be null.")
