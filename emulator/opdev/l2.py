"""The L2 two-phase frame: what the real L2_DFX_PHASE_1 / CREATE_EXECUTOR / L2_DFX_PHASE_2 do.

``run_phase1`` runs an op's ``aclnnXxxGetWorkspaceSize`` body for the face, with the collaborators
the face hands down (``OpContext``): the packages loaded once, the thread's L2 context (API name,
core counts, determinism) set as the real InitL2Phase1Context sets it, the DFX marker, and the
op-cache lookup — a hit returns a replay object and the cached workspace size without running
the body. The body creates its executor with ``create_executor()`` (a ``UniqueExecutor``, which
reads the L2 context as CREATE_EXECUTOR reads the thread's) and returns ``unique.release(ws)``;
leaving without releasing deletes the executor and logs 561102, as the real destructor does.
An L0 helper that fails raises ``L0StepFailed`` (where the C helper returns nullptr); the body
lets it pass, its ``UniqueExecutor`` destroys the executor on the way out, and ``run_phase1``
turns it into the L2's 561103 — the one place that status is made for a failed L0 step.
``run_phase2`` is the fixed phase-2 function (``CommonOpExecutorRun``). Neither knows of the
emulated process: the face decides which context a call runs in.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from emulator import dfx
from emulator.engine.context import OpContext
from emulator.engine.executor import OpConfig, aclOpExecutor, common_op_executor_run
from emulator.errors import AclnnError, AclnnInnerNullptr, L0StepFailed
from emulator.lazylog import lazy_logger
from emulator.status import AclnnStatus

log = lazy_logger(__name__, logger_name="emulator.opdev")

OK = AclnnStatus.ACLNN_SUCCESS
Phase1Result = tuple[int, Any, int]


@dataclass(frozen=True)
class L2Context:
    """The thread-local L2 context of a phase 1 in progress, with the collaborators of its process."""

    api: str
    config: OpConfig
    args: tuple[Any, ...]
    op: OpContext


_l2: contextvars.ContextVar[L2Context | None] = contextvars.ContextVar("opbase_l2_context", default=None)


def current_l2() -> L2Context:
    ctx = _l2.get()
    if ctx is None:
        raise AclnnError("CREATE_EXECUTOR outside an L2 phase 1", msg_id="EZ9999")
    return ctx


class UniqueExecutor:
    """CREATE_EXECUTOR(): owns a new executor until ``release`` (ReleaseTo) hands it out."""

    def __init__(self) -> None:
        ctx = current_l2()
        self._executor: aclOpExecutor | None = aclOpExecutor(ctx.api, ctx.config, ctx.op)
        self.api = ctx.api

    def get(self) -> aclOpExecutor:
        assert self._executor is not None
        return self._executor

    def release(self, workspace_size: int) -> tuple[int, aclOpExecutor, int]:
        """ReleaseTo(executor): ``(workspaceSize, executor, ACLNN_SUCCESS)`` for the phase-1 return."""
        executor = self.get()
        self._executor = None
        return workspace_size, executor, OK

    def __enter__(self) -> UniqueExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._executor is not None:
            log.error(
                "opdev.not_released",
                api=self.api,
                code=int(AclnnStatus.ACLNN_ERR_INNER_NOT_TRANS_EXECUTOR),
                reason="ReleaseTo should be called before return",
            )
            self._executor.destroy()
            self._executor = None


def create_executor() -> UniqueExecutor:
    return UniqueExecutor()


@contextmanager
def l0_label(label: str) -> Iterator[None]:
    """Name the L0 step(s) inside in the L2's 561103 text ("{api}: <label> returned null.").

    Most L2 bodies record the generic "an L0 step" text; some name the step they tested
    (Contiguous, ViewCopy, Fill …). This keeps those texts without a test and a raise per site.
    The innermost label wins.
    """
    try:
        yield
    except L0StepFailed as exc:
        if exc.label is None:
            exc.label = label
        raise


def run_phase1(op: OpContext, api: str, body: Callable[..., Phase1Result], args: tuple[Any, ...]) -> Phase1Result:
    """Phase 1 of ``api`` with ``args`` (already type-checked by the face)."""
    state = op.aclnn
    state.check_use(api, "GetWorkspaceSize")  # the C function the user called
    soc = op.soc
    state.load_packages(soc.soc_version)
    config = state.thread_config(soc)
    marker = dfx.enter(api, 1)
    try:
        hit = state.op_cache.lookup(api, config, args)
        if hit is not None:
            return hit
        token = _l2.set(L2Context(api, config, args, op))
        try:
            workspace_size, executor, status = body(*args)
        except L0StepFailed as exc:  # the body's UniqueExecutor has already destroyed its executor
            raise AclnnInnerNullptr(exc.l2_message(api), msg_id="EZ9999", step=exc.step, reason=exc.reason) from exc
        finally:
            _l2.reset(token)
        if isinstance(executor, aclOpExecutor):
            executor.l2_inputs = args
            state.op_cache.publish(executor, config, args)
        return workspace_size, executor, status
    finally:
        dfx.leave(marker)


def run_phase2(op: OpContext, api: str, workspace: int, workspace_size: int, executor: object, stream: int) -> int:
    """``aclnnXxx(workspace, workspaceSize, executor, stream)``: replay a cache hit or CommonOpExecutorRun."""
    marker = dfx.enter(api, 2)
    try:
        return op.aclnn.op_cache.run(workspace, workspace_size, executor, stream)
    finally:
        dfx.leave(marker)


__all__ = [
    "UniqueExecutor",
    "common_op_executor_run",
    "create_executor",
    "l0_label",
    "run_phase1",
    "run_phase2",
]
