"""aclOpExecutor: one L2 call's recorded work, from phase 1 to the end of phase 2.

Emulates opbase's composite executor:
it owns every tensor, array and scalar allocated for the call, the ordered launchers and the kernel
graph the workspace planner reads. Phase 2 (``run``) binds the workspace and the stream, patches the
addresses of workspace-backed tensors and enqueues the launchers in order. A non-repeatable executor
is deleted by phase 2 (whatever the status); a repeatable one is kept until
``aclDestroyAclOpExecutor``. A second phase 2 on a deleted executor is a use after free in C; here
it is reported with the sites that created and deleted it.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

import numpy as np

from emulator.device.errors import DeviceError
from emulator.diagnostics import ReportKind
from emulator.engine.tensors import ExecTensor, Storage, nbytes, storage_key
from emulator.engine.workspace import PlannedBuffer, max_allocate
from emulator.errors import AclnnError, AclnnParamNullptr, AclnnRuntimeError
from emulator.lazylog import lazy_logger
from emulator.meta.dtypes import numpy_dtype
from emulator.meta.objects import (
    Handle,
    aclBoolArray,
    aclFloatArray,
    aclIntArray,
    aclScalar,
    aclScalarList,
    aclTensor,
    aclTensorList,
    numel,
)
from emulator.status import AclnnStatus
from emulator.tracking import ResourceKind, Site, capture_site

if TYPE_CHECKING:
    from emulator.engine.context import OpContext
    from emulator.engine.launchers import Launcher

log = lazy_logger(__name__, logger_name="emulator.engine.executor")

OK = AclnnStatus.ACLNN_SUCCESS


class RepeatMode(Enum):
    DEFAULT = "default"
    UNREPEATABLE = "unrepeatable"
    REPEAT = "repeat"


@dataclass
class Node:
    """One launcher in the kernel graph: what it reads, writes and needs as scratch."""

    name: str
    inputs: list[aclTensor]
    outputs: list[aclTensor]
    workspace: list[aclTensor]


@dataclass(frozen=True)
class OpConfig:
    """The thread's op config copied into the executor (OpConfigInfo)."""

    aic_num: int
    aiv_num: int
    deterministic: bool = False


@dataclass
class RunContext:
    """What a launcher needs in phase 2; ``subst`` maps a recorded call's tensors to a replaying call's."""

    executor: aclOpExecutor
    device: Any
    stream: int
    workspace: int
    workspace_size: int
    subst: dict[int, aclTensor] = field(default_factory=dict)
    initcheck: bool = False  # launches carry initcheck roles and a reporter
    site: Site | None = None  # the user's phase-2 call, which initcheck reports name
    host_site: Site | None = None  # the same call for the device's tasks, if captured already (else the device does)

    @property
    def replay(self) -> bool:
        return bool(self.subst)

    def address_of(self, tensor: aclTensor) -> int:
        """The tensor's data address in this run (a replay reads the new call's tensors)."""
        if self.subst:
            new = self.subst.get(id(tensor))
            if new is not None:
                return new.data_addr
            if isinstance(tensor, ExecTensor) and tensor.storage.base is not None:
                base = self.subst.get(id(tensor.storage.base))
                if base is not None:
                    return base.raw_addr + (tensor.data_addr - tensor.raw_addr)
        return tensor.data_addr


class aclOpExecutor(Handle):  # noqa: N801 - the C type's name
    kind = ResourceKind.EXECUTOR
    __slots__ = (
        "aicpu_device_mem",
        "api",
        "cache",
        "cache_valid",
        "config",
        "ctx",
        "l2_inputs",
        "l2_outputs",
        "launchers",
        "lock",
        "nodes",
        "owned",
        "relations",
        "repeat_mode",
        "runs",
        "workspace_size",
    )

    def __init__(self, api: str, config: OpConfig, ctx: OpContext) -> None:
        super().__init__()
        self.api = api
        self.config = config
        self.ctx = ctx
        self.launchers: list[Launcher] = []
        self.nodes: list[Node] = []
        self.owned: list[Handle] = []
        self.relations: list[tuple[aclTensor, aclTensor]] = []
        self.repeat_mode = RepeatMode.DEFAULT
        self.cache_valid = True
        self.cache: Any = None
        self.workspace_size: int | None = None
        self.aicpu_device_mem = 0
        self.l2_inputs: tuple[Any, ...] = ()
        self.l2_outputs: tuple[Any, ...] = ()
        self.runs = 0
        self.lock = threading.Lock()
        ctx.registry.add_fast(ResourceKind.EXECUTOR, self.key, self, None, None, api)

    def __repr__(self) -> str:
        state = "" if self.alive else " DESTROYED"
        return f"<aclOpExecutor{state} {self.api} launchers={len(self.launchers)} mode={self.repeat_mode.value}>"

    # -- allocation API (what an L2 op allocates through its executor) ----------------------------
    def _own(self, obj: Handle) -> Any:
        self.owned.append(obj)
        return obj

    def alloc_tensor(self, shape: Sequence[int], dtype: int, fmt: int = 2) -> ExecTensor:
        """AllocTensor: a device tensor that lives in the workspace; its address is known in phase 2."""
        return self._own(ExecTensor(tuple(shape), dtype, Storage(from_workspace=True), fmt=fmt))

    def alloc_tensor_ex(
        self, storage_shape: Sequence[int], origin_shape: Sequence[int], dtype: int, storage_fmt: int, origin_fmt: int
    ) -> ExecTensor:
        tensor = ExecTensor(
            tuple(origin_shape), dtype, Storage(from_workspace=True), fmt=origin_fmt, storage_shape=tuple(storage_shape)
        )
        tensor.storage_format = storage_fmt
        return self._own(tensor)

    def alloc_host_tensor(self, shape: Sequence[int], dtype: int, fmt: int = 2) -> ExecTensor:
        """AllocHostTensor: uninitialised host memory, never in the workspace."""
        np_dtype = numpy_dtype(dtype)
        count = numel(tuple(shape))
        host = np.empty(count * (np_dtype.itemsize if np_dtype is not None else 1), dtype=np.uint8)
        return self._own(ExecTensor(tuple(shape), dtype, Storage(host=host), fmt=fmt))

    def convert_to_tensor(self, values: Any, dtype: int) -> ExecTensor | None:
        """ConvertToTensor: an array becomes a 1-D host tensor, a scalar a 0-d one (C-style casts)."""
        np_dtype = numpy_dtype(dtype)
        if np_dtype is None:
            return None
        if isinstance(values, aclScalar):
            data = _c_cast(np.array([values.value()]), np_dtype)
            shape: tuple[int, ...] = ()
        else:
            raw = values.values if isinstance(values, aclIntArray | aclFloatArray | aclBoolArray) else values
            data = _c_cast(np.array(list(raw)), np_dtype)
            shape = (len(data),)
        tensor = ExecTensor(shape, dtype, Storage(host=data.view(np.uint8).copy()))
        return self._own(tensor)

    def alloc_scalar(self, value: Any, dtype: int) -> aclScalar | None:
        np_dtype = numpy_dtype(dtype)
        if np_dtype is None:
            return None
        return self._own(aclScalar(dtype, _c_cast(np.array(value), np_dtype).tobytes()))

    def alloc_int_array(self, values: Sequence[int]) -> aclIntArray:
        return self._own(aclIntArray(tuple(int(v) for v in values)))

    def alloc_tensor_list(self, tensors: Sequence[aclTensor | None]) -> aclTensorList:
        return self._own(aclTensorList(tuple(tensors)))

    def alloc_scalar_list(self, scalars: Sequence[aclScalar | None]) -> aclScalarList:
        return self._own(aclScalarList(tuple(scalars)))

    def create_view(self, tensor: aclTensor, shape: Sequence[int], offset: int) -> ExecTensor:
        """CreateView: shares ``tensor``'s storage with a new contiguous view shape and offset."""
        view = ExecTensor(tuple(shape), tensor.dtype, _shared_storage(tensor), fmt=tensor.view_format, offset=offset)
        view.storage_format = tensor.storage_format
        return self._own(view)

    # -- recording ------------------------------------------------------------------------------
    def add_node(self, name: str, inputs: list[Any], outputs: list[Any], workspace: list[Any]) -> None:
        self.nodes.append(Node(name, _real(inputs), _real(outputs), _real(workspace)))

    def add_launcher(self, launcher: Launcher) -> None:
        self.launchers.append(launcher)

    def abandon_cache(self, disable_repeat: bool = False) -> None:
        """AbandonCache: this call will not be served from the op cache; ``True`` also forbids repeat mode."""
        self.cache_valid = False
        if disable_repeat:
            self.repeat_mode = RepeatMode.UNREPEATABLE

    def add_tensor_relation(self, out: aclTensor, middle: aclTensor) -> None:
        self.relations.append((out, middle))

    # -- workspace ------------------------------------------------------------------------------
    def get_workspace_size(self) -> int:
        """GetWorkspaceSize: plans every workspace-backed buffer and assigns its offset."""
        buffers: list[PlannedBuffer] = []
        consumers: dict[int, int] = {}
        for index, node in enumerate(self.nodes):
            for tensor in node.inputs:
                consumers[id(storage_key(tensor))] = index
        for index, node in enumerate(self.nodes):
            reads = frozenset(id(storage_key(t)) for t in node.inputs)
            for tensor in node.workspace:
                buffers.append(PlannedBuffer(storage_key(tensor), nbytes(tensor), index, index, reads))
            for tensor in node.outputs:
                if not (isinstance(tensor, ExecTensor) and tensor.from_workspace):
                    continue
                key = storage_key(tensor)
                end = max(index, consumers.get(id(key), index))
                buffers.append(PlannedBuffer(key, nbytes(tensor), index, end, reads))
        planned, offsets = max_allocate(buffers)
        for obj in self.owned:
            if isinstance(obj, ExecTensor) and obj.from_workspace and id(obj.storage) in offsets:
                obj.storage.offset = offsets[id(obj.storage)]
        self.workspace_size = planned + self.aicpu_device_mem
        return self.workspace_size

    # -- repeat mode and destruction ----------------------------------------------------------
    def set_repeatable(self) -> None:
        """aclSetAclOpExecutorRepeatable on a composite executor."""
        if self.repeat_mode is RepeatMode.UNREPEATABLE:
            raise AclnnError(f"{self.api}: this executor was marked unrepeatable", msg_id="EZ9999")
        # (The real check that the flat relation list has even length cannot fail here: relations are pairs.)
        refused = [launcher.name for launcher in self.launchers if not launcher.repeatable(self)]
        if refused:
            raise AclnnError(f"{self.api}: launchers {refused} cannot be replayed", msg_id="EZ9999")
        self.repeat_mode = RepeatMode.REPEAT
        self.ctx.aclnn.op_cache.forget(self)

    def destroy(self) -> None:
        """Delete the executor: launchers release their AI CPU tasks, owned objects go with it."""
        if not self.alive:
            self.ctx.diagnostics.report_released(
                self.ctx.registry, self.kind, self.key, "aclDestroyAclOpExecutor",
                f"the executor of {self.api} was already freed", report_kind=ReportKind.DOUBLE_DESTROY,
            )  # fmt: skip
            return
        for launcher in self.launchers:
            launcher.release(self)
        self.alive = False
        for obj in self.owned:
            obj.alive = False
        self.ctx.registry.remove(self.kind, self.key)

    # -- phase 2 --------------------------------------------------------------------------------
    def run(self, workspace: int, workspace_size: int, stream: int) -> int:
        """CommonOpExecutorRun after its null checks: full run of the launchers, then release."""
        needed = self.workspace_size or 0
        if workspace_size < needed:
            self.ctx.diagnostics.report(
                self.api,
                f"workspaceSize {workspace_size} is below the {needed} bytes phase 1 asked for: kernels overrun it",
                kind=ReportKind.OUT_OF_BOUNDS,
            )
        try:
            self._launch_all(workspace, workspace_size, stream, {})
        finally:
            self.runs += 1
            if self.repeat_mode is not RepeatMode.REPEAT:
                self.destroy()
        return OK

    def replay(
        self, workspace: int, workspace_size: int, stream: int, subst: dict[int, aclTensor], site: Site | None = None
    ) -> int:
        """An op-cache hit: the recorded launches again, with the new call's tensors and workspace.

        ``site``: the user's phase-2 call, when the caller has captured it already.
        """
        self._launch_all(workspace, workspace_size, stream, subst, site)
        return OK

    def _launch_all(
        self, workspace: int, workspace_size: int, stream: int, subst: dict[int, aclTensor], site: Site | None = None
    ) -> None:
        op = self.ctx
        try:
            device, sid = op.runtime.resolve_stream(stream, submit=True)
            self._bind_workspace(workspace)
            initcheck = op.settings.initcheck
            if initcheck and site is None:
                site = capture_site()
            ctx = RunContext(
                self, device, sid, workspace, workspace_size, subst, initcheck, site if initcheck else None, site
            )
            if op.settings.shape_only:  # a dry run: everything phase 1 decided, no kernel
                op.aclnn.skipped_launches += len(self.launchers)
                log.debug("executor.shape_only", api=self.api, skipped=len(self.launchers))
                return
            for launcher in self.launchers:
                launcher.launch(ctx)
        except DeviceError as exc:
            raise self.launch_failed(exc) from exc
        except AclnnError:
            self.cache_valid = False
            raise

    def launch_failed(self, exc: DeviceError) -> AclnnRuntimeError:
        """A runtime call of a launch failed (this one or a replay's): the entry is not served again,
        and phase 2 fails with the runtime's message."""
        self.cache_valid = False
        return AclnnRuntimeError(f"{self.api}: a runtime call failed: {exc.message}", msg_id="EZ9903")

    def _bind_workspace(self, workspace: int) -> None:
        for obj in self.owned:
            if isinstance(obj, ExecTensor) and obj.from_workspace:
                obj.storage.addr = workspace + obj.storage.offset
        for out, middle in self.relations:
            if isinstance(middle, ExecTensor) and middle.storage.base is None:
                middle.storage.addr = out.raw_addr


def _shared_storage(tensor: aclTensor) -> Storage:
    if isinstance(tensor, ExecTensor):
        return tensor.storage
    return Storage(base=tensor)


def _real(tensors: list[Any]) -> list[aclTensor]:
    flat: list[aclTensor] = []
    for t in tensors:
        if isinstance(t, aclTensorList):
            flat.extend(m for m in t.values if isinstance(m, aclTensor))
        elif isinstance(t, aclTensor):
            flat.append(t)
    return flat


def common_op_executor_run(workspace: int | None, workspace_size: int, executor: Any, stream: int | None) -> int:
    """CommonOpExecutorRun (the fixed phase-2 function): the null checks, then the run."""
    if executor is None:
        raise AclnnParamNullptr("executor is null", msg_id=None)
    if not isinstance(executor, aclOpExecutor):
        raise AclnnError(f"{type(executor).__name__} is not an aclOpExecutor", msg_id=None)
    if not executor.alive:
        executor.ctx.diagnostics.report_released(
            executor.ctx.registry, executor.kind, executor.key, executor.api,
            "phase 2 on an executor that was already freed (a non-repeatable executor runs once)",
            report_kind=ReportKind.EXECUTOR_REUSE,
        )  # fmt: skip
        raise AclnnError(f"{executor.api}: the executor was already freed", msg_id=None)
    if workspace_size > 0 and not workspace:
        executor.cache_valid = False
        executor.destroy()  # even a repeatable one
        raise AclnnParamNullptr(f"workspace is null but workspaceSize is {workspace_size}", msg_id=None)
    return executor.run(int(workspace or 0), workspace_size, int(stream or 0))


def _c_cast(data: np.ndarray[Any, Any], np_dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    """A C-style conversion: a complex value given to a real dtype keeps its real part.

    numpy does the same under ``casting="unsafe"`` but warns (ComplexWarning) each time; the
    conversion is the documented behaviour here, not an accident worth a warning.
    """
    if np.iscomplexobj(data) and np_dtype.kind != "c":
        data = data.real
    return data.astype(np_dtype, casting="unsafe")
