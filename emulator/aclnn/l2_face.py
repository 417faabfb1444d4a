"""The op entry points of the aclnn face, built from the op registry and the prototype table.

Each op's ``aclnnXxxGetWorkspaceSize`` is its registered body behind the C boundary of its
prototype (every argument checked against its C type, a failure turned into
``(0, None, status)``); every object it is handed is checked for use after destroy and foreign
handles first (``emulator.aclnn.handle_checks``), then it runs in the two-phase frame with the
current process's collaborators; its ``aclnnXxx`` is the fixed phase 2. This is the only place
an op call meets the emulated process.

The callables are built on first use, one C name at a time (``entry_point``): reading
``aclnn.aclnnAdd`` imports the Add module and nothing of the other ops, so importing the face
stays cheap; the built callable is kept, so a later read is a plain attribute lookup.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from emulator import process
from emulator.aclnn.handle_checks import argument_names, check_arguments
from emulator.boundary import c_api
from emulator.cface import Address, address
from emulator.engine.executor import aclOpExecutor
from emulator.kernels import MODULES, UnknownOp, entry

if TYPE_CHECKING:
    from emulator.opdev.registry import L2Entry

# emulator.opdev (the op-writing toolkit: registry, L2 frame, launch framework) is imported when
# the first op is read, not with the face: a program that never calls an op does not load it.

Phase1 = Callable[..., tuple[int, aclOpExecutor | None, int]]
Phase2 = Callable[[Address, int, Any, Address], int]


@functools.cache
def phase1(api: str) -> Phase1:
    """``{api}GetWorkspaceSize`` for the face (built once: every reader gets the same callable)."""
    return phase1_of(entry(api))


@functools.cache
def phase2(api: str) -> Phase2:
    """``{api}(workspace, workspaceSize, executor, stream)`` for the face (built once)."""
    return phase2_of(entry(api))


def entry_point(c_name: str) -> Phase1 | Phase2:
    """The face's callable for an op's C name (either phase); ``UnknownOp`` for a name of no op."""
    if c_name.startswith("__"):  # the import system's probes (__path__ …): no op, and no toolkit import
        raise UnknownOp(c_name)
    from emulator.opdev.registry import SUFFIX

    if c_name.endswith(SUFFIX):
        return phase1(c_name.removesuffix(SUFFIX))
    if c_name not in MODULES:  # the phase-2 name is the API's own; anything else is no op
        raise UnknownOp(c_name)
    return phase2(c_name)


def op_attribute(name: str) -> Phase1 | Phase2:
    """A face module's ``__getattr__`` (PEP 562) for the op names it declares but builds lazily."""
    try:
        return entry_point(name)
    except UnknownOp:
        raise AttributeError(f"module 'emulator.aclnn' has no attribute {name!r}") from None


def bind(module: ModuleType) -> dict[str, Callable[..., Any]]:
    """The C-named callables of a module of one's own, marked with ``@l2_api`` (a custom op).

    The module is not part of the shipped op list, so a user adds an op without editing this
    repository: its kernels' binaries come from a custom op package (ASCEND_CUSTOM_OPP_PATH), its
    L2 entry points from here — ``{"aclnnMyOpGetWorkspaceSize": ..., "aclnnMyOp": ...}``.
    A name the shipped registry already has is refused, as the registry refuses duplicates.
    """
    from emulator.opdev.registry import DuplicateOp, entry_of, marked

    found: dict[str, Callable[..., Any]] = {}
    for body in marked(module):
        custom = entry_of(body, module.__name__)
        if custom.api in MODULES:
            raise DuplicateOp(f"{custom.api} is already an op of the library ({MODULES[custom.api]})")
        found[custom.phase1.c_name] = phase1_of(custom)
        found[custom.api] = phase2_of(custom)
    return found


def phase1_of(entry: L2Entry) -> Phase1:
    from emulator.opdev.l2 import run_phase1

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
    from emulator.opdev.l2 import run_phase2

    api = entry.api

    def call(workspace: Address, workspaceSize: int, executor: Any, stream: Address) -> int:
        return run_phase2(
            process.current().op_context, api, address(workspace), workspaceSize, executor, address(stream)
        )

    call.__name__ = call.__qualname__ = api
    call.__doc__ = entry.phase2.c_signature()
    wrapped: Phase2 = c_api(entry.phase2)(call)
    return wrapped
