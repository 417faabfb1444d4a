"""The op precision standard (opbase's, for ecosystem ops): one checker for every op test.

Float outputs use the current "mixed tolerance" rule: an element passes when
``|actual - golden| <= atol + rtol * |golden|``; a case passes when at least 99 % of the elements
pass and the largest error is under the dtype's cap (or under 32 ULP of the output dtype); NaN
against NaN and same-signed Inf against Inf count as equal, any other NaN / Inf mismatch fails.
Integer, bool and data-movement outputs must be bit-exact. The golden is float64 numpy (or exact
integer math). The older statistical relative-error rule is available as a secondary report.
"""

from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np

BF16 = np.dtype(ml_dtypes.bfloat16)

# dtype -> (rtol, atol, max_abs_error_limit)
MIXED = {
    np.dtype(np.float16): (2.0**-9, 2.0**-9, 1e-1),
    BF16: (2.0**-6, 2.0**-6, 1.0),
    np.dtype(np.float32): (2.0**-10, 2.0**-16, 1e-2),
    np.dtype(ml_dtypes.float8_e4m3fn): (2.0**-2, 2.0**-4, 1.0),
    np.dtype(ml_dtypes.float8_e5m2): (2.0**-1, 2.0**-3, 1e-1),
}
STAT_THRESHOLD = {
    np.dtype(np.float16): 2.0**-10,
    BF16: 2.0**-7,
    np.dtype(np.float32): 2.0**-13,
}
MATCH_RATIO = 0.99
MAX_ULP = 32


@dataclass(frozen=True)
class Verdict:
    passed: bool
    matched_ratio: float
    max_abs_error: float
    reason: str = ""

    def __bool__(self) -> bool:
        return self.passed


def _ulp(dtype: np.dtype, golden: np.ndarray) -> np.ndarray:
    if dtype == BF16:
        return np.abs(golden).astype(np.float64) * 2.0**-7 + 2.0**-133
    info = np.finfo(dtype if dtype.kind == "f" else np.float32)
    return np.maximum(np.abs(golden) * float(info.eps), float(info.tiny))


def check_precision(actual: np.ndarray, golden: np.ndarray) -> Verdict:
    """Judge ``actual`` (in its output dtype) against a float64 / exact ``golden``."""
    actual = np.asarray(actual)
    golden = np.asarray(golden)
    if actual.shape != golden.shape:
        return Verdict(False, 0.0, float("inf"), f"shape {actual.shape} != golden {golden.shape}")
    dtype = actual.dtype
    if actual.size == 0:
        return Verdict(True, 1.0, 0.0)
    if dtype.kind in "biu" or dtype == np.bool_:
        exact = np.array_equal(actual, golden.astype(dtype))
        return Verdict(exact, float(np.mean(actual == golden.astype(dtype))), 0.0, "" if exact else "not bit-exact")
    if dtype.kind == "c":
        return _mixed(actual.real, golden.real, np.dtype(np.float32)) and _mixed(
            actual.imag, golden.imag, np.dtype(np.float32)
        )
    return _mixed(actual, golden, dtype)


def _mixed(actual: np.ndarray, golden: np.ndarray, dtype: np.dtype) -> Verdict:
    rtol, atol, cap = MIXED.get(dtype, MIXED[np.dtype(np.float32)])
    a = actual.astype(np.float64)
    g = golden.astype(np.float64)
    a_special, g_special = ~np.isfinite(a), ~np.isfinite(g)
    same_special = a_special & g_special & ((np.isnan(a) & np.isnan(g)) | (a == g))
    if np.any(a_special != g_special) or np.any(a_special & ~same_special):
        return Verdict(False, 0.0, float("inf"), "NaN / Inf positions differ")
    finite = ~g_special
    err = np.abs(a[finite] - g[finite])
    ok = err <= atol + rtol * np.abs(g[finite])
    ratio = float(np.mean(ok)) if ok.size else 1.0
    max_err = float(err.max()) if err.size else 0.0
    within_ulp = bool(np.all(err <= MAX_ULP * _ulp(dtype, g[finite]))) if err.size else True
    passed = ratio >= MATCH_RATIO and (max_err <= cap or within_ulp)
    reason = "" if passed else f"matched {ratio:.4f} (< {MATCH_RATIO}) or max error {max_err:g} over {cap:g}"
    return Verdict(passed, ratio, max_err, reason)


def stat_rel_err(actual: np.ndarray, golden: np.ndarray) -> tuple[float, float, bool]:
    """(MERE, MARE, passed) of the older statistical rule: MERE < T and MARE < 10 T."""
    a = np.asarray(actual).astype(np.float64)
    g = np.asarray(golden).astype(np.float64)
    rel = np.abs(a - g) / (np.abs(g) + 1e-7)
    mere, mare = float(rel.mean()) if rel.size else 0.0, float(rel.max()) if rel.size else 0.0
    threshold = STAT_THRESHOLD.get(np.asarray(actual).dtype, STAT_THRESHOLD[np.dtype(np.float32)])
    return mere, mare, mere < threshold and mare < 10 * threshold


def assert_precision(actual: np.ndarray, golden: np.ndarray) -> None:
    verdict = check_precision(actual, golden)
    assert verdict, f"precision standard not met: {verdict.reason}"
