"""A failed L0 step inside an L2 body becomes exactly one 561103, made by the phase-1 frame.

The L0 helpers raise ``L0StepFailed`` where the C ones return nullptr; a body is straight-line code
and lets it pass. On the way out its ``UniqueExecutor`` destroys the unreleased executor (one 561102
log line, as the real destructor logs), and ``run_phase1`` turns the failure into the L2's 561103
with the L2's name in the recorded message. These tests build minimal L2 APIs whose ViewCopy is
bound to fail (an out of another dtype) and check status, text, log lines and that nothing lives on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from structlog.testing import capture_logs

from emulator import acl, aclnn, process
from emulator.aclnn.l2_face import phase1_of
from emulator.errors import AclnnInnerNullptr, L0StepFailed
from emulator.meta.objects import aclTensor
from emulator.opdev import contiguous, create_executor, l0_label, view_copy
from emulator.opdev.registry import entry_of
from emulator.status import AclnnStatus

INNER_NULLPTR = int(AclnnStatus.ACLNN_ERR_INNER_NULLPTR)
NOT_RELEASED = int(AclnnStatus.ACLNN_ERR_INNER_NOT_TRANS_EXECUTOR)
PROTO = (
    "aclnnStatus {api}GetWorkspaceSize(const aclTensor *x, aclTensor *out, uint64_t *workspaceSize, "
    "aclOpExecutor **executor)"
)


def failing_l2(api: str, label: str | None = None) -> Callable[..., tuple[int, Any, int]]:
    """``{api}GetWorkspaceSize(x, out)``: Contiguous(x) then ViewCopy into ``out`` (optionally labelled)."""

    def phase1(x: aclTensor | None, out: aclTensor | None) -> tuple[int, Any, int]:
        assert x is not None and out is not None
        with create_executor() as unique:
            executor = unique.get()
            dense = contiguous(x, executor)
            executor.alloc_tensor(x.view_shape, x.dtype)  # something the executor owns when it dies
            if label is None:
                view_copy(dense, out, executor)
            else:
                with l0_label(label):
                    view_copy(dense, out, executor)
            return unique.release(executor.get_workspace_size())

    phase1.__name__ = f"{api}GetWorkspaceSize"
    phase1.__doc__ = PROTO.format(api=api)
    return phase1_of(entry_of(phase1, __name__))


def run_failing(npu: Any, api: str, label: str | None = None) -> tuple[tuple[int, Any, int], list[dict[str, Any]]]:
    """Phase 1 of the failing L2 on a float32 x and a float16 out, with the log lines it wrote."""
    x = npu.tensor(np.arange(6, dtype=np.float32).reshape(2, 3), aclnn.ACL_FLOAT)
    out = npu.tensor(np.zeros((2, 3), dtype=np.float16), aclnn.ACL_FLOAT16)
    phase1 = failing_l2(api, label)
    with capture_logs() as logs:
        result = phase1(x.handle, out.handle)
    assert aclnn.aclDestroyTensor(x.handle) == 0 and aclnn.aclDestroyTensor(out.handle) == 0
    assert acl.rt.free(x.addr) == 0 and acl.rt.free(out.addr) == 0
    return result, logs


def test_an_l0_failure_is_one_561103_with_the_l2_message(npu: Any) -> None:
    """Status 561103 with (0, None) out-values, the generic text naming the L2, one 561102 and no executor."""
    (ws, executor, status), logs = run_failing(npu, "aclnnEmuL0Fail")
    assert (ws, executor, status) == (0, None, INNER_NULLPTR)
    assert "aclnnEmuL0Fail: an L0 step returned null." in (acl.get_recent_err_msg() or "")
    failed = [e for e in logs if e["event"] == "api.failed"]
    assert [(e["api"], e["code"], e["reason"]) for e in failed] == [
        ("aclnnEmuL0FailGetWorkspaceSize", INNER_NULLPTR, "aclnnEmuL0Fail: an L0 step returned null.")
    ]
    assert failed[0]["context"]["step"] == "ViewCopy"  # the failing L0 op, as structured context
    released = [e for e in logs if e["event"] == "opdev.not_released"]
    assert [(e["api"], e["code"]) for e in released] == [("aclnnEmuL0Fail", NOT_RELEASED)]
    assert process.current().registry.live("executor") == []


def test_a_labelled_step_names_itself_in_the_message(npu: Any) -> None:
    """An L2 that names the step it tested (``l0_label``) records "{api}: <label> returned null."."""
    (_, executor, status), logs = run_failing(npu, "aclnnEmuL0Label", "ViewCopy")
    assert (executor, status) == (None, INNER_NULLPTR)
    assert "aclnnEmuL0Label: ViewCopy returned null." in (acl.get_recent_err_msg() or "")
    assert len([e for e in logs if e["event"] == "api.failed"]) == 1
    assert len([e for e in logs if e["event"] == "opdev.not_released"]) == 1
    assert process.current().registry.live("executor") == []


def test_nothing_of_the_failed_call_outlives_teardown(npu: Any) -> None:
    """After the failed call and the usual teardown the process holds no resource at all."""
    run_failing(npu, "aclnnEmuL0Gone")
    assert acl.rt.destroy_stream(npu.stream) == 0 and acl.rt.reset_device(0) == 0
    assert aclnn.aclnnFinalize() == 0 and acl.finalize() == 0
    assert [r.kind for r in process.current().registry.live()] == []


def test_the_exception_is_an_inner_nullptr_carrying_its_step() -> None:
    """Outside a phase-1 frame the helper's exception is already a 561103 with the step as context."""
    exc = L0StepFailed("Cast", "no kernel casts 12 to 27")
    assert isinstance(exc, AclnnInnerNullptr) and exc.status == INNER_NULLPTR
    assert (exc.step, exc.context["step"], exc.msg_id) == ("Cast", "Cast", "EZ9999")
    assert exc.l2_message("aclnnX") == "aclnnX: an L0 step returned null."
    with pytest.raises(L0StepFailed) as caught, l0_label("Outer"), l0_label("Inner"):
        raise exc
    assert caught.value.l2_message("aclnnX") == "aclnnX: Inner returned null."  # the innermost label wins
