"""What the attention kernels share (FlashAttentionScore, FusedInferAttentionScore): layouts and the math.

A layout names the axes of a [B, N, S, D] tensor as it lies in memory: BNSD as is, BSND, BSH and
SBH (H = N * D) with S and N (or B) swapped. ``as_bnsd`` gives the [B, N, S, D] numpy view of a
dense buffer, so a kernel writes its result through the same view without a copy. ``attend`` is
one block's share of the work: a tile of query rows of one head against that head's whole key /
value sequence — scores, mask, softmax statistics and the weighted sum — vectorised over the tile.
It runs in float32, as the cube units accumulate and the vector units keep the softmax.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

F32 = np.dtype(np.float32)
LAYOUTS = ("BSH", "SBH", "BNSD", "BSND")
LAYOUT_CODES = {name: code for code, name in enumerate(LAYOUTS)}
S1_TILE = 128  # the kernels' basic S1 block: what the unified-buffer check counts
SCORES_PER_UNIT = 4 * 1024 * 1024  # scores one vectorised step holds (bounds host memory, not the result)


def rows_per_unit(s1: int, s2: int) -> int:
    """Query rows one work unit takes: a whole head when its scores fit SCORES_PER_UNIT, else a multiple
    of S1_TILE. The result does not depend on it (every row sees all of its keys at once); fewer, larger
    numpy steps are what make the kernel fast."""
    if s1 * max(s2, 1) <= SCORES_PER_UNIT:
        return max(s1, 1)
    return max(SCORES_PER_UNIT // max(s2, 1) // S1_TILE, 1) * S1_TILE


def as_bnsd(buf: np.ndarray, dtype: np.dtype, layout: int, b: int, n: int, s: int, d: int) -> np.ndarray:
    """The [B, N, S, D] view of a dense buffer holding a tensor of ``layout``."""
    flat = buf.view(dtype)[: b * n * s * d]
    name = LAYOUTS[layout]
    if name == "BNSD":
        return flat.reshape(b, n, s, d)
    if name == "SBH":
        return flat.reshape(s, b, n, d).transpose(1, 2, 0, 3)
    return flat.reshape(b, s, n, d).transpose(0, 2, 1, 3)  # BSH and BSND


def layout_shape(layout: str, b: int, n: int, s: int, d: int) -> tuple[int, ...]:
    """The shape a [B, N, S, D] tensor has in ``layout``."""
    return {"BSH": (b, s, n * d), "SBH": (s, b, n * d), "BNSD": (b, n, s, d), "BSND": (b, s, n, d)}[layout]


@dataclass(frozen=True, slots=True)
class Attended:
    """One tile's result: the weighted values and the softmax max and sum of each query row."""

    out: np.ndarray  # [rows, Dv] float32
    row_max: np.ndarray  # [rows] float32, -inf for a row with no visible key
    row_sum: np.ndarray  # [rows] float32, 0 for such a row


def attend(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    scale: float,
    *,
    bias: np.ndarray | None = None,
    bias_before_scale: bool = True,
    masked: np.ndarray | None = None,
    keep: np.ndarray | None = None,
    keep_prob: float = 1.0,
) -> Attended:
    """softmax(scale * (q·kᵀ + bias)) (or scale * q·kᵀ + bias), masked positions excluded, dropout
    ``keep`` (bool, divided by keep_prob) applied to the probabilities, times v. A row whose keys are
    all masked gives zeros (the kernels' invalid-row handling), max -inf and sum 0."""
    scores = np.matmul(q.astype(F32, copy=False), k.astype(F32, copy=False).T)
    s = F32.type(scale)
    if bias is not None and bias_before_scale:
        scores += bias
        scores *= s
    else:
        scores *= s
        if bias is not None:
            scores += bias
    if masked is not None:
        scores[np.broadcast_to(masked, scores.shape)] = -np.inf
    row_max = scores.max(axis=1) if scores.shape[1] else np.full(scores.shape[0], -np.inf, F32)
    dead = ~np.isfinite(row_max)
    shift = np.where(dead, F32.type(0), row_max)
    with np.errstate(invalid="ignore", over="ignore"):
        probs = np.exp(scores - shift[:, None])
    row_sum = probs.sum(axis=1, dtype=F32)
    denom = np.where(dead | (row_sum == 0), F32.type(1), row_sum)
    probs /= denom[:, None]
    if keep is not None:
        probs *= keep
        probs *= F32.type(1.0 / keep_prob)
    out = np.matmul(probs, v.astype(F32, copy=False))
    out[dead] = 0
    return Attended(out, row_max.astype(F32), np.where(dead, F32.type(0), row_sum).astype(F32))


def band_mask(rows: np.ndarray, s2: int, pre: int, nxt: int, shift: int = 0) -> np.ndarray:
    """True where key j lies outside the band [i + shift - pre, i + shift + nxt] of query row i."""
    j = np.arange(s2, dtype=np.int64)[None, :]
    i = rows.astype(np.int64)[:, None] + shift
    return (j - i > nxt) | (i - j > pre)


def unpack_bits(mask: np.ndarray, start: int, rows: int, cols: int) -> np.ndarray:
    """``rows`` x ``cols`` bits of a little-endian bit-packed uint8 mask from bit ``start`` on (row-major)."""
    count = rows * cols
    first, skip = divmod(start, 8)
    nbytes = (skip + count + 7) // 8
    bits = np.unpackbits(mask[first : first + nbytes], bitorder="little")[skip : skip + count]
    if bits.size < count:  # a short mask keeps nothing past its end
        bits = np.concatenate((bits, np.zeros(count - bits.size, np.uint8)))
    return bits.reshape(rows, cols).astype(bool)


def sparse_mask(mode: int, given: np.ndarray | None, rows: np.ndarray, s1: int, s2: int, pre: int, nxt: int,
                prefix_n: int = 0) -> np.ndarray | None:  # fmt: skip
    """True where a score is masked out for query rows ``rows`` (of ``s1``) against ``s2`` keys, by sparse mode.

    ``given`` is the caller's mask rows (nonzero = masked) for the modes that read it as is (0, 1, 5);
    the compressed modes (2, 3, 4, 6) take the positions the documented mask encodes. Mode 0 adds the
    band [i - pre, i + nxt] (upper-left origin); mode 4 the band from the lower-right corner."""
    j = np.arange(s2, dtype=np.int64)[None, :]
    i = rows.astype(np.int64)[:, None]
    if mode in (0, 1, 5):
        assert given is not None
        masked = given[:, :s2] != 0
        return masked | band_mask(rows, s2, pre, nxt) if mode == 0 else masked
    if mode == 2:
        return np.asarray(j > i)
    if mode == 3:
        return np.asarray(j - i > s2 - s1)
    if mode == 4:
        return band_mask(rows, s2, pre, nxt, shift=s2 - s1)
    return np.asarray((j - i > s2 - s1) & (j >= prefix_n))  # 6: prefix, compressed
