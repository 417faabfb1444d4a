"""The L2 two-phase frame: what the real L2_DFX_PHASE_1 / CREATE_EXECUTOR / L2_DFX_PHASE_2 do.

``l2_phase1`` wraps an op's ``aclnnXxxGetWorkspaceSize`` body: the C-named boundary (type checks,
StatusError -> ``(0, None, status)``), the thread's L2 context (API name, core counts,
determinism) bound into the structlog context as the DFX marker, and the op-cache lookup — a hit
returns a replay object and the cached workspace size without running the body. The body creates
its executor with ``create_executor()`` (a ``UniqueExecutor``) and returns ``unique.release(ws)``;
leaving without releasing deletes the executor and logs 561102, as the real destructor does.
``l2_phase2`` builds the fixed phase-2 function (``CommonOpExecutorRun``).
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import structlog

from emulator import dfx, process
from emulator.boundary import c_api
from emulator.cface import ACLNN_CHECKS, Address, aclnn_api, address
from emulator.engine.executor import OpConfig, aclOpExecutor, common_op_executor_run
from emulator.errors import AclnnError
from emulator.status import AclnnStatus

log = structlog.get_logger(logger_name="emulator.opdev")

F = TypeVar("F", bound=Callable[..., Any])
OK = AclnnStatus.ACLNN_SUCCESS


@dataclass(frozen=True)
class L2Context:
    """The thread-local L2 context of a phase 1 in progress."""

    api: str
    config: OpConfig
    args: tuple[Any, ...]


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
        self._executor: aclOpExecutor | None = aclOpExecutor(ctx.api, ctx.config)
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


def l2_phase1(api: str) -> Callable[[F], F]:
    """Decorate ``aclnnXxxGetWorkspaceSize``'s body; ``api`` is the L2 name (``aclnnAdd``)."""

    def decorate(body: F) -> F:
        @functools.wraps(body)
        def phase1(*args: Any) -> Any:
            proc = process.current()
            state = proc.aclnn
            state.load_packages(proc.runtime.soc.soc_version)
            config = state.thread_config(proc.runtime.soc)
            marker = dfx.enter(api, 1)
            try:
                hit = state.op_cache.lookup(api, config, args)
                if hit is not None:
                    return hit
                token = _l2.set(L2Context(api, config, args))
                try:
                    result = body(*args)
                finally:
                    _l2.reset(token)
                workspace_size, executor, status = result
                if isinstance(executor, aclOpExecutor):
                    executor.l2_inputs = args
                    state.op_cache.publish(executor, config, args)
                return workspace_size, executor, status
            finally:
                dfx.leave(marker)

        return c_api(  # type: ignore[return-value]
            f"{api}GetWorkspaceSize", on_error=lambda status: (0, None, status), checks=ACLNN_CHECKS, aclnn=True
        )(phase1)

    return decorate


def l2_phase2(api: str) -> Callable[..., int]:
    """The fixed phase-2 function ``aclnnXxx(workspace, workspaceSize, executor, stream)``."""

    def phase2(workspace: Address, workspaceSize: int, executor: object, stream: Address) -> int:  # noqa: N803
        marker = dfx.enter(api, 2)
        try:
            return process.current().aclnn.op_cache.run(address(workspace), workspaceSize, executor, address(stream))
        finally:
            dfx.leave(marker)

    phase2.__name__ = phase2.__qualname__ = api
    phase2.__doc__ = (
        f"aclnnStatus {api}(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream)"
    )
    return aclnn_api(api)(phase2)


__all__ = ["UniqueExecutor", "common_op_executor_run", "create_executor", "l2_phase1", "l2_phase2"]
