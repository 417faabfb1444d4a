"""The op entry points of the aclnn face, built from the op registry and the prototype table.

Each op's ``aclnnXxxGetWorkspaceSize`` is its registered body behind the C boundary of its
prototype (every argument checked against its C type, a failure turned into
``(0, None, status)``); every object it is handed is checked for use after destroy and foreign
handles first (``emulator.aclnn.handle_checks``), then it runs in the two-phase frame with the
current process's collaborators; its ``aclnnXxx`` is the fixed phase 2. This is the only place
an op call meets the emulated process.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from types import ModuleType
from typing import Any

from emulator import process
from emulator.aclnn.handle_checks import argument_names, check_arguments
from emulator.boundary import c_api
from emulator.cface import Address, address
from emulator.engine.executor import aclOpExecutor
from emulator.kernels import REGISTRY
from emulator.opdev.l2 import run_phase1, run_phase2
from emulator.opdev.registry import DuplicateOp, L2Entry, entry_of, marked

Phase1 = Callable[..., tuple[int, aclOpExecutor | None, int]]
Phase2 = Callable[[Address, int, Any, Address], int]


def phase1(api: str) -> Phase1:
    """``{api}GetWorkspaceSize`` for the face."""
    return phase1_of(REGISTRY.entries[api])


def phase2(api: str) -> Phase2:
    """``{api}(workspace, workspaceSize, executor, stream)`` for the face."""
    return phase2_of(REGISTRY.entries[api])


def bind(module: ModuleType) -> dict[str, Callable[..., Any]]:
    """The C-named callables of a module of one's own, marked with ``@l2_api`` (a custom op).

    The module is not part of the shipped op list, so a user adds an op without editing this
    repository: its kernels' binaries come from a custom op package (ASCEND_CUSTOM_OPP_PATH), its
    L2 entry points from here — ``{"aclnnMyOpGetWorkspaceSize": ..., "aclnnMyOp": ...}``.
    A name the shipped registry already has is refused, as the registry refuses duplicates.
    """
    found: dict[str, Callable[..., Any]] = {}
    for body in marked(module):
        entry = entry_of(body, module.__name__)
        if entry.api in REGISTRY.entries:
            raise DuplicateOp(f"{entry.api} is already an op of the library ({REGISTRY.entries[entry.api].module})")
        found[entry.phase1.c_name] = phase1_of(entry)
        found[entry.api] = phase2_of(entry)
    return found


def phase1_of(entry: L2Entry) -> Phase1:
    api = entry.api
    body = entry.body
    c_name = entry.phase1.c_name
    names = argument_names(entry.phase1)

    @functools.wraps(body)
    def call(*args: Any) -> tuple[int, aclOpExecutor | None, int]:
        op = process.current().op_context
        check_arguments(op.diagnostics, op.registry, c_name, names, args)  # the sanitizer's handle checks
        return run_phase1(op, api, body, args)

    wrapped: Phase1 = c_api(entry.phase1)(call)
    return wrapped


def phase2_of(entry: L2Entry) -> Phase2:
    api = entry.api

    def call(workspace: Address, workspaceSize: int, executor: Any, stream: Address) -> int:
        return run_phase2(
            process.current().op_context, api, address(workspace), workspaceSize, executor, address(stream)
        )

    call.__name__ = call.__qualname__ = api
    call.__doc__ = entry.phase2.c_signature()
    wrapped: Phase2 = c_api(entry.phase2)(call)
    return wrapped
