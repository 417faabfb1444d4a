"""What the property tests of the op library's part 2 share: one emulated process per example, an
``npu.Session`` for its tensors, the statuses a phase 1 may return, and the after-checks (a failure
leaves no executor and an aclGetRecentErrMsg text; nothing of the call is alive afterwards).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
from hypothesis import event
from hypothesis import strategies as st

from emulator import acl, aclnn, npu, process
from emulator.meta.dtypes import DataType, numpy_dtype

D = DataType
ALLOWED = {0, 161001, 161002, 561103}  # success, null, invalid, an L0 step without a kernel
TRACKED = ("tensor", "scalar", "executor", "device_memory")
# supported somewhere and unsupported somewhere, so that every check gets hit
DTYPES = [D.DT_FLOAT, D.DT_FLOAT16, D.DT_BF16, D.DT_DOUBLE, D.DT_INT8, D.DT_INT16, D.DT_INT32, D.DT_INT64, D.DT_UINT8,
          D.DT_UINT16, D.DT_UINT32, D.DT_BOOL, D.DT_COMPLEX64]  # fmt: skip
shapes = st.lists(st.integers(0, 4), max_size=3).map(tuple)


def np_type(dtype: int) -> np.dtype:
    result = numpy_dtype(dtype)
    assert result is not None
    return result


def small_values(dtype: int, shape: Sequence[int], seed: int) -> np.ndarray:
    """Small integers (-3..3; 0..3 unsigned) in ``dtype``: every comparison outcome is likely, nothing rounds."""
    rng = np.random.default_rng(seed)
    target = np_type(dtype)
    low = 0 if target.kind in "ub" else -3
    values = rng.integers(low, 4, tuple(shape))
    return (values > 0).astype(bool) if target.kind == "b" else values.astype(target)


@contextmanager
def example() -> Iterator[npu.Session]:
    """A fresh process (not strict) and an open session; afterwards nothing of the example is alive."""
    with process.fresh() as proc:
        proc.strict = False
        with npu.Session() as session:
            yield session
        for kind in TRACKED:
            alive = [str(r.site) for r in proc.registry.live() if r.kind == kind]
            assert proc.registry.count(kind) == 0, (kind, alive)


def call(session: npu.Session, phase1: Callable[..., Any], phase2: Callable[..., int], *args: Any,
         nulled: bool = False) -> int:  # fmt: skip
    """Phase 1, and on success a workspace, phase 2 and a synchronize; the phase-1 status.

    A failed phase 1 must be one of the real statuses, give no executor and leave a message; a call
    with a null argument (``nulled``) must fail (161001, or the 561103 some real ops return)."""
    workspace_size, executor, status = phase1(*args)
    assert status in ALLOWED, (status, acl.get_recent_err_msg())
    event(f"{phase1.__name__}: {int(status)}")
    if status != 0:
        assert executor is None and workspace_size == 0
        assert acl.get_recent_err_msg(), "a failed phase 1 leaves an error message"
        if nulled:
            assert status in (161001, 561103)
        return int(status)
    assert not nulled, "a null argument was accepted"
    buffer = session.malloc(workspace_size) if workspace_size else None
    assert phase2(buffer.addr if buffer else 0, workspace_size, executor, session.stream) == 0
    assert acl.rt.synchronize_stream(session.stream) == 0
    if buffer is not None:
        session.release(buffer)
    return 0


def maybe_null(args: list[Any], index: int | None) -> tuple[list[Any], bool]:
    """``args`` with the one at ``index`` replaced by None (when ``index`` points into it)."""
    if index is None or index >= len(args):
        return args, False
    args = list(args)
    args[index] = None
    return args, True


def scalar(session: npu.Session, value: Any, dtype: int) -> Any:
    return session.scalar(np.asarray(value).astype(np_type(dtype)).item(), dtype).handle


__all__ = ["ALLOWED", "DTYPES", "aclnn", "call", "example", "maybe_null", "np_type", "scalar", "shapes", "small_values"]
