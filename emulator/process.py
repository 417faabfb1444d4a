"""The emulated process: the one home of what the real libraries keep in process globals.

The ACL runtime keeps the aclInit reference count, devices, contexts, streams and the error
manager in statics; opbase keeps its system config, KernelMgr and AI CPU task spaces there.
Here they are fields of one ``EmulatedProcess``. The C-named faces act on ``current()``;
``fresh()`` hands a test a brand-new process and puts the old one back afterwards. No other
module holds mutable state at module level. The one process-wide thing outside it is the
structlog configuration: each process installs its own setup from its Settings when it starts
(``emulator.plog``), and ``fresh()`` puts the previous one back when the block ends.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from emulator.capi.handles import HandleTable
from emulator.config import AclConfig, Settings
from emulator.diagnostics import Diagnostics
from emulator.engine.context import OpContext
from emulator.engine.system import AclnnState
from emulator.error_manager import ErrorManager
from emulator.faults import FaultPlan
from emulator.meta.acl_objects import AclObjectTable
from emulator.runtime.core import Runtime
from emulator.tracking import Registry

if TYPE_CHECKING:
    from emulator.provider import NativeOps


@dataclass(slots=True)
class AclState:
    """aclInit / aclFinalize bookkeeping."""

    ref_count: int = 0
    finalized: bool = False
    first_config_hash: str | None = None
    first_config_path: str | None = None
    config: AclConfig | None = None


class EmulatedProcess:
    """Everything process-wide, wired together once."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings if settings is not None else Settings.from_env()
        # OPBASE_EMU_FAULTS: checked first, so a bad rule stops the start before anything is opened
        self.faults = FaultPlan.from_specs(self.settings.faults)
        self.faults.on_change = _refresh  # arming or disarming a rule switches the boundary's path
        self.registry = Registry(enabled=self.settings.tracking)
        self.errors = ErrorManager()
        self.acl = AclState()
        self.diagnostics = Diagnostics(strict=self.settings.strict, echo=self.settings.reports)
        self.runtime = Runtime(self.settings, self.registry, self.diagnostics)
        self.lock = threading.RLock()
        self._tracer: Any = None  # an emulator.trace.Tracer while a trace is being taken
        self.c_handles = HandleTable()  # the addresses the C layer hands out for Python objects
        self.acl_objects = AclObjectTable()  # aclDataBuffer / aclTensorDesc by their integer handles
        self.threads: dict[int, threading.Thread] = {}  # acl.util.start_thread's threads by id
        self.exit_status: int | None = None  # the code the program is exiting with, once it is ending
        # The op provider seam: None runs ops on the emulated engine; the ascend backend calls the real
        # libopapi / libnnopbase through ctypes (emulator.provider), opened on its first call.
        self._op_provider: NativeOps | None = None
        if self.settings.backend == "ascend":
            from emulator.provider import NativeOps  # ctypes and the real libraries only on that backend

            self._op_provider = NativeOps(self.settings)
        self.aclnn = AclnnState(
            self.settings,
            registry=self.registry,
            diagnostics=self.diagnostics,
            soc_version=self.runtime.soc.soc_version,
        )
        # what the op engine is handed instead of asking for the process
        self.op_context = OpContext(self.settings, self.registry, self.diagnostics, self.aclnn, self.runtime)
        # what a successful aclFinalize runs first: aclnnFinalize's steps, as the aclnn documentation says
        self.finalize_hooks: list[Callable[[], None]] = [self.aclnn.finalize]
        # The log variables are read when a process starts, as the real libraries read them. Last, so
        # a process that fails to start leaves the setup as it was; fresh() puts the outer one back.
        from emulator import plog  # structlog comes with the first process, not with the faces' import

        self.replaced_logging = plog.install(self.settings)

    @property
    def tracer(self) -> Any:
        """The emulator.trace.Tracer recording this process's calls, or None."""
        return self._tracer

    @tracer.setter
    def tracer(self, value: Any) -> None:
        self._tracer = value
        _refresh()

    @property
    def op_provider(self) -> NativeOps | None:
        """The real libraries the aclnn calls go to (the ascend backend), or None for the emulated engine."""
        return self._op_provider

    @op_provider.setter
    def op_provider(self, value: NativeOps | None) -> None:
        self._op_provider = value
        _refresh()

    @property
    def needs_full_path(self) -> bool:
        """Whether the boundary must take its full path for this process's calls (see ``fast``)."""
        return self._op_provider is not None or self._tracer is not None or self.faults.armed

    @property
    def strict(self) -> bool:
        """Undefined uses raise ``UndefinedBehaviour`` instead of being reported (tests switch it)."""
        return self.diagnostics.strict

    @strict.setter
    def strict(self, value: bool) -> None:
        self.diagnostics.strict = value

    def close(self) -> None:
        """Release the devices (what the OS does to a real process's device handles at exit)."""
        self.runtime.close()


_current: EmulatedProcess | None = None
_current_lock = threading.Lock()
# A thread acting for another process object (``acting_as``): the stand-in for a card in tests of
# the ascend backend runs its own emulated process beside the one under test, in the same Python.
_acting = threading.local()
_any_acting = 0  # threads acting now: current() looks at _acting only while one is
serving: EmulatedProcess | None = None  # the process the C layer serves, when not current() (the bridge reads it)
# The current process while the boundary's fast path serves it: no thread acting for another process,
# and the process has no op provider, tracer or armed fault rule. None otherwise (and before the
# first process), which sends every call down the full path. Kept right by _refresh, which each
# change of those calls; the boundary reads it once per call instead of asking current() and each
# of the four questions.
fast: EmulatedProcess | None = None


def _refresh() -> None:
    """Work ``fast`` out again after the current process, the acting threads or a process's seams changed."""
    global fast
    process = _current
    fast = process if process is not None and not _any_acting and not process.needs_full_path else None


def current() -> EmulatedProcess:
    global _current
    process = fast  # the current process, when no thread acts for another one (see ``fast``)
    if process is not None:
        return process
    if _any_acting:
        bound: EmulatedProcess | None = getattr(_acting, "process", None)
        if bound is not None:
            return bound
    process = _current
    if process is None:
        with _current_lock:
            if _current is None:
                _current = EmulatedProcess()
                if _current.settings.leak_check_at_exit:
                    from emulator.leaks import install_exit_check  # leaks reads the process: imported when asked

                    install_exit_check(_current)
                if _current.settings.trace_path is not None:
                    import atexit

                    from emulator.trace import exit_write, start_trace

                    start_trace(_current)
                    atexit.register(exit_write, _current)  # after exit_check: runs first, before a leak exit
                if _current.settings.reports:
                    import atexit

                    from emulator.diagnostics import exit_summary

                    atexit.register(exit_summary, _current.diagnostics)  # registered last: printed first
                _refresh()
            process = _current
    return process


@contextmanager
def fresh(settings: Settings | None = None) -> Iterator[EmulatedProcess]:
    """A brand-new emulated process for the duration of the block (tests, demos).

    Its Settings (``settings``, or the environment as it is now) decide its logging too; when the
    block ends the previous process and the logging setup it had come back.
    """
    global _current
    previous = _current
    process = EmulatedProcess(settings)
    _current = process
    _refresh()
    try:
        yield process
    finally:
        _current = previous
        _refresh()
        try:
            process.close()
        finally:
            from emulator import plog

            plog.restore(process.replaced_logging)


@contextmanager
def acting_as(other: EmulatedProcess) -> Iterator[EmulatedProcess]:
    """On this thread, for the block, ``current()`` is ``other`` (blocks nest)."""
    global _any_acting
    outer: EmulatedProcess | None = getattr(_acting, "process", None)
    with _current_lock:
        _any_acting += 1
        _refresh()
    _acting.process = other
    try:
        yield other
    finally:
        _acting.process = outer
        with _current_lock:
            _any_acting -= 1
            _refresh()


def c_layer() -> EmulatedProcess | None:
    """The process the C layer's calls act on, if it is not ``current()`` (see ``serving_c_layer``)."""
    return serving


@contextmanager
def serving_c_layer(other: EmulatedProcess) -> Iterator[EmulatedProcess]:
    """For the block, every call into the SDK's libraries acts on ``other``.

    This is how the SDK's libraries stand in for a card's: the ascend backend's op provider calls
    them through ctypes from the process under test, and they must act on a process of their own,
    as a card's libraries act on the card, never call back into the caller's.
    """
    global serving
    outer = serving
    serving = other
    try:
        yield other
    finally:
        serving = outer
