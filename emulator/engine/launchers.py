"""Launchers: what phase 1 records and phase 2 enqueues, one per kernel or copy.

``AiCoreLauncher`` keeps the binary chosen in phase 1 and, when the binary has a workspace, the
tiling result computed then (phase 2 reuses it); otherwise tiling runs at launch. The launch is an
SPMD ``KernelLaunch`` on the device: the op's Python kernel runs once per block over views of its
buffers, with the tiling data as the bytes of its ctypes struct. A debug binary (one registered while
the debug-kernel switch was on) sends the kernel's prints to the log, bounds-checks its buffer
views and, after the blocks ran, reports float outputs left holding the device's poison (AI CPU
kernels have no debug binaries). ``AicpuLauncher`` runs an AI CPU op's kernel once on the device's
AI CPU; ``CopyLauncher`` is CopyToNpu / CopyNpuToNpu.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from emulator.device.interface import Access, BufferArg, Direction, Engine, InitRole, KernelAttrs, KernelLaunch
from emulator.device.soc import SocProfile
from emulator.diagnostics import Diagnostics
from emulator.engine.args import ArgPack, flatten
from emulator.engine.executor import RepeatMode
from emulator.engine.initcheck import ArgInfo, input_name, input_role, reporter
from emulator.engine.kernel_mgr import OpKernelBin
from emulator.engine.plan import LaunchPlan
from emulator.engine.tensors import ExecTensor, host_array, nbytes, span_bytes
from emulator.engine.tiling import KernelSignature, OpImpl, PlatformInfo, TensorDesc, TilingContext, TilingResult
from emulator.errors import AclnnError
from emulator.lazylog import lazy_logger
from emulator.meta.describe import contents
from emulator.meta.dtypes import SUB_BYTE_OFFSET, numpy_dtype, type_size
from emulator.meta.objects import aclTensor, contiguous_strides
from emulator.tracking import ResourceKind

if TYPE_CHECKING:
    from emulator.engine.aicpu import AicpuTask
    from emulator.engine.executor import RunContext, aclOpExecutor

log = lazy_logger(__name__, logger_name="emulator.engine.launch")

POISON_BYTE = 0xFF  # what the simulated device fills new memory with (aclrtMalloc does not clear)


def describe(tensor: aclTensor | None) -> TensorDesc | None:
    if tensor is None:
        return None
    return TensorDesc(tensor.view_shape, tensor.storage_shape, tensor.dtype, tensor.storage_format)


def platform_info(soc: SocProfile, bin_: OpKernelBin | None, aic: int, aiv: int) -> PlatformInfo:
    core_num = bin_.core_num(aic, aiv, soc.npu_arch) if bin_ is not None else aic
    return PlatformInfo(soc, aic, aiv, core_num)


def run_tiling(impl: OpImpl, bin_: OpKernelBin, pack: ArgPack, executor: aclOpExecutor) -> TilingResult:
    platform = platform_info(executor.ctx.soc, bin_, executor.config.aic_num, executor.config.aiv_num)
    holder = bin_.holder(impl, platform)
    assert impl.tiling is not None
    ctx = TilingContext(
        impl.op_type,
        tuple(describe(t) for t in flatten(pack.inputs)),
        tuple(describe(t) for t in flatten(pack.outputs)),
        tuple(pack.attr_values),
        holder.compile_info if holder is not None else None,
        platform,
        executor.config.deterministic,
    )
    result = impl.tiling(ctx)
    if result.block_dim < 1:
        raise AclnnError(f"{impl.op_type}: tiling returned block dim {result.block_dim}", msg_id="EZ9999")
    return result


class Launcher:
    @property
    def name(self) -> str:
        """What reports call the launcher (the op type for kernels)."""
        return "launcher"

    def launch(self, ctx: RunContext) -> None:
        raise NotImplementedError

    def repeatable(self, executor: aclOpExecutor) -> bool:
        return True

    def release(self, executor: aclOpExecutor) -> None:
        """Give back what the launcher holds when its executor is deleted."""


def kernel_buffers(
    ctx: RunContext, impl: OpImpl, pack: ArgPack, workspace: list[aclTensor]
) -> tuple[tuple[BufferArg, ...], tuple[tuple[int, bytes], ...], list[ArgInfo]]:
    """Device buffers in launch order (inputs, outputs, outshape, workspace), the host inputs, whose
    bytes travel in the argument block (``(position, bytes)``; null inputs take no position), and
    what each buffer is (its tensor, its name in a report, its initcheck role)."""
    buffers: list[BufferArg] = []
    infos: list[ArgInfo] = []
    inline: list[tuple[int, bytes]] = []
    position = 0
    for index, arg in enumerate(pack.inputs):
        name = input_name(impl, index)
        for tensor in flatten([arg]):
            if tensor is None:
                continue
            if isinstance(tensor, ExecTensor) and tensor.on_host:
                inline.append((position, host_array(tensor).tobytes()))
            else:
                buffers.append(BufferArg(ctx.address_of(tensor), span_bytes(tensor), Access.READ))
                infos.append(ArgInfo(tensor, f"input {index} ({name})", input_role(impl, name)))
            position += 1
    outputs = [t for t in flatten(pack.outputs) if t is not None] + [t for t, _ in pack.outshape]
    for index, tensor in enumerate(outputs):
        buffers.append(BufferArg(ctx.address_of(tensor), span_bytes(tensor), Access.WRITE))
        infos.append(ArgInfo(tensor, f"output {index}", InitRole.SCATTERS if impl.scatters else InitRole.WRITES))
    for index, tensor in enumerate(workspace):
        buffers.append(BufferArg(ctx.address_of(tensor), span_bytes(tensor), Access.READ_WRITE))
        infos.append(ArgInfo(tensor, f"workspace {index}", InitRole.UNREAD))
    return tuple(buffers), tuple(inline), infos


def _freeze_host_inputs(pack: ArgPack) -> None:
    """Make the host inputs' bytes read-only once a plan has recorded them.

    A host input is the executor's own tensor (ConvertToTensor copies the values, AllocHostTensor
    is filled by the op body), written only in phase 1, whose values the op-cache key holds (the
    arrays, scalars and attributes they came from): so every replay of the entry carries the same
    bytes, and the plan keeps them instead of copying them out again per launch. Read-only, a
    later write cannot make the recorded copy stale without failing where it is made.
    """
    for tensor in flatten(pack.inputs):
        if isinstance(tensor, ExecTensor) and tensor.storage.host is not None:
            tensor.storage.host.flags.writeable = False


def initcheck_fields(ctx: RunContext, infos: list[ArgInfo]) -> dict[str, Any]:
    """The KernelLaunch fields of initcheck (none when it is off: the launch then only marks writes)."""
    if not ctx.initcheck:
        return {}
    op = ctx.executor.ctx
    report = reporter(ctx.executor.api, infos, ctx.site, op.diagnostics, op.registry)
    return {"init_roles": tuple(info.role for info in infos), "on_uninit": report}


INT4_SIZE = SUB_BYTE_OFFSET + 4  # TypeSize of DT_INT4 / DT_UINT4: 4 bits


def kernel_signature(impl: OpImpl, pack: ArgPack) -> KernelSignature:
    """What the compiled binary knows: dtypes and shapes of its (non-null) tensors, and the attributes."""
    tensors = [t for t in flatten(pack.inputs) + flatten(pack.outputs) if t is not None]
    dtypes: list[np.dtype] = []
    for tensor in tensors:
        dtype = numpy_dtype(tensor.dtype)
        if dtype is None and type_size(tensor.dtype) == INT4_SIZE:
            dtype = np.dtype(np.uint8)  # int4 reaches a kernel as its packed bytes, two elements each
        if dtype is None:  # no binary serves such a dtype: selection and the L2 checks keep it from here
            raise AclnnError(f"{impl.op_type}: a kernel cannot hold dtype {tensor.dtype}", msg_id="EZ9999")
        dtypes.append(dtype)
    return KernelSignature(tuple(dtypes), tuple(tuple(t.view_shape) for t in tensors), tuple(pack.attr_values))


def kernel_attrs(impl: OpImpl, pack: ArgPack) -> KernelAttrs:
    """What the binary has baked in, as the op's own ``KernelAttrs`` dataclass."""
    return impl.kernel_attrs(kernel_signature(impl, pack))


def _debug_hooks(name: str, pack: ArgPack, debug: bool, diagnostics: Diagnostics) -> tuple[Any, Any]:
    """The kernel-print sink and the output check of a debug binary (None, None for a normal one).

    The check never fails the task: NaN and Inf are legitimate IEEE results (sqrt(-1), 0/0, an
    exp that overflows) and the real debug kernels check addresses, not values, so non-finite
    elements are only counted in an info line. What it reports is a float output element that
    still holds the device's poison pattern (every byte 0xFF, a NaN no arithmetic produces): a
    kernel that left part of its output unwritten.
    """
    if not debug:
        return None, None
    outputs = [t for t in flatten(pack.outputs) if t is not None]
    n_inputs = sum(1 for t in flatten(pack.inputs) if t is not None)

    def printf(text: str) -> None:
        log.info("kernel.printf", kernel=name, text=text)

    def check(views: list[np.ndarray]) -> None:
        for index, (tensor, view) in enumerate(zip(outputs, views[n_inputs : n_inputs + len(outputs)], strict=False)):
            np_dtype = numpy_dtype(tensor.dtype)
            if np_dtype is None or (np_dtype.kind not in "fc" and np_dtype.name != "bfloat16"):
                continue
            raw = view[: nbytes(tensor)]
            values = raw.view(np_dtype)
            non_finite = int(np.count_nonzero(~np.isfinite(values.astype(np.float64))))
            if non_finite:
                log.info("kernel.non_finite", kernel=name, elements=non_finite, shape=tensor.view_shape)
            poisoned = int(np.count_nonzero((raw.reshape(-1, np_dtype.itemsize) == POISON_BYTE).all(axis=1)))
            if poisoned:
                diagnostics.report(
                    f"kernel {name}",
                    f"debug kernel: {poisoned} of {values.size} elements of output {index} "
                    f"({contents(tensor)}) still hold the device's poison (every byte 0xFF): the kernel "
                    "left them unwritten, or computed them from memory no one wrote; on a card they hold "
                    "whatever the memory held before",
                )

    return printf, check


@dataclass
class AiCoreLauncher(Launcher):
    impl: OpImpl
    pack: ArgPack
    bin: OpKernelBin | None
    tiling: TilingResult | None = None
    workspace: list[aclTensor] = field(default_factory=list)
    recorded: TilingResult | None = None
    attrs: KernelAttrs | None = None  # built at the first launch: the pack's dtypes, shapes and attributes are fixed
    plan: LaunchPlan | None = None  # the first plain launch's record, which op-cache replays launch

    @property
    def name(self) -> str:
        return self.impl.op_type

    def launch(self, ctx: RunContext) -> None:
        plan = self.plan
        if plan is not None and ctx.replay:
            self._launch_plan(ctx, plan)
            return
        executor = ctx.executor
        kernel_mgr = executor.ctx.aclnn.kernel_mgr
        packages = kernel_mgr.packages
        if self.bin is None:  # phase 1 found none: select again, and fail again the same way
            kernel = kernel_mgr.op_kernel(self.impl.op_type)
            self.bin = kernel.select(
                flatten(self.pack.inputs), flatten(self.pack.outputs), self.pack.attr_values,
                self.pack.impl_mode, executor.config.deterministic,
            )  # fmt: skip
        self.bin.json_load(packages)
        if self.tiling is not None:
            result = self.tiling
        elif ctx.replay and self.recorded is not None:
            result = self.recorded  # a cache replay launches what was recorded: no tiling
        else:
            result = run_tiling(self.impl, self.bin, self.pack, executor)
        self.recorded = result
        if executor.repeat_mode is RepeatMode.REPEAT:
            self.tiling = result  # repeatable executors keep the tiling result for later runs
        buffers, inline, infos = kernel_buffers(ctx, self.impl, self.pack, self.workspace)
        debug = self.bin.debug  # decided when the op was registered, not now
        printf, check = _debug_hooks(self.impl.op_type, self.pack, debug, executor.ctx.diagnostics)
        cleans = self._atomic_clean(ctx)
        if self.attrs is None:
            self.attrs = kernel_attrs(self.impl, self.pack)  # what the binary has baked in
        ub_use = result.ub_use(self._itemsizes())
        plain = not (debug or cleans or self.pack.outshape)
        if plain and (self.plan is None or self.plan.tiling is not result):
            # the first launch of this signature: what a replay needs besides the addresses
            self.plan = LaunchPlan(
                result, ub_use, self.attrs, tuple(info.tensor for info in infos),
                tuple(b.nbytes for b in buffers), tuple(b.access for b in buffers), infos,
                tuple(info.role for info in infos), inline,
            )  # fmt: skip
            if inline:
                _freeze_host_inputs(self.pack)
        ctx.device.launch(
            KernelLaunch(
                self.impl.op_type,
                self.impl.kernel,
                result.block_dim,
                buffers,
                result.tiling_bytes,
                ub_use,
                Engine.AICORE,
                attrs=self.attrs,
                printf=printf,
                check=check,
                bounds_checked=debug,
                inline_args=inline,
                memo=self.plan.memo if plain and self.plan is not None else None,
                **initcheck_fields(ctx, infos),
            ),
            ctx.stream,
            ctx.host_site,
        )
        apply_out_shapes(ctx, self.pack)

    def _launch_plan(self, ctx: RunContext, plan: LaunchPlan) -> None:
        """A cache replay of a plain launch: the recorded launch at this call's addresses.

        Everything else was fixed by the first launch of this key (see ``emulator.engine.plan``);
        the device checks the addresses against live allocations as every launch's are.
        """
        initcheck: dict[str, Any] = {}
        if ctx.initcheck:
            op = ctx.executor.ctx
            report = reporter(ctx.executor.api, plan.infos, ctx.site, op.diagnostics, op.registry)
            initcheck = {"init_roles": plan.roles, "on_uninit": report}
        ctx.device.launch(
            KernelLaunch(
                self.impl.op_type,
                self.impl.kernel,
                plan.tiling.block_dim,
                plan.buffers(ctx.address_of),
                plan.tiling.tiling_bytes,
                plan.ub_use,
                Engine.AICORE,
                attrs=plan.attrs,
                inline_args=plan.inline,
                memo=plan.memo,
                **initcheck,
            ),
            ctx.stream,
            ctx.host_site,
        )

    def _itemsizes(self) -> list[int]:
        sizes = []
        for tensor in flatten(self.pack.inputs) + flatten(self.pack.outputs):
            np_dtype = numpy_dtype(tensor.dtype) if tensor is not None else None
            if np_dtype is not None:
                sizes.append(np_dtype.itemsize)
        return sizes

    def _atomic_clean(self, ctx: RunContext) -> bool:
        """Buffers the kernel JSON's ``parameters`` ask to be pre-filled get a MemSet first (True if any may)."""
        params = (self.bin.kernel_json or {}).get("parameters") if self.bin is not None else None
        if not params:
            return False
        flat = [t for t in flatten(self.pack.inputs) + flatten(self.pack.outputs) + self.workspace if t is not None]
        for tensor, param in zip(flat, params, strict=False):
            if isinstance(param, dict):
                _memset_tensor(ctx, tensor, param)
        return True

    def repeatable(self, executor: aclOpExecutor) -> bool:
        return not self.pack.outshape


SHAPE_BLOCK = 9  # [rank, d0, ..., d7] per updated output
RANK_MASK = 0xFFFFFFFF7FFFFFFF


def apply_out_shapes(ctx: RunContext, pack: ArgPack) -> None:
    """OP_OUTSHAPE: after the kernel, sync the stream, read the shape tensor back and give output ``i``
    of each pair the decoded dims as its view, storage and origin shape (a data-dependent output).
    The emulator uses the same record for the AI CPU kernels whose output shape depends on their data
    (the real ones report it through the task's extended info)."""
    if not pack.outshape:
        return
    outputs = flatten(pack.outputs)
    ctx.device.synchronize_stream(ctx.stream)
    for j, (shape_tensor, index) in enumerate(pack.outshape):
        np_dtype = numpy_dtype(shape_tensor.dtype) or np.dtype(np.int64)
        count = min(shape_tensor.numel, SHAPE_BLOCK * (j + 1))  # A2 kernels get rank + 1 elements, not 9
        block = np.zeros(max(count, 1), dtype=np_dtype)
        ctx.device.copy(block.ctypes.data, ctx.address_of(shape_tensor), block.nbytes, Direction.D2H, None)
        record = block[SHAPE_BLOCK * j :].astype(np.int64)
        if not record.size:
            continue
        rank = int(record[0])
        if np_dtype == np.int64 and rank > 0:
            rank &= RANK_MASK
        target = outputs[index] if index < len(outputs) else None
        if rank <= 0 or rank >= record.size or target is None:
            log.warning("engine.outshape_ignored", rank=rank, index=index)
            continue
        shape = tuple(int(d) for d in record[1 : rank + 1])
        target.view_shape = target.storage_shape = target.origin_shape = shape
        target.strides = contiguous_strides(shape)


def _memset_tensor(ctx: RunContext, tensor: aclTensor, param: dict[str, Any]) -> None:
    """Atomic clean: fill with ``init_value`` of ``dtype`` (missing fields: float32 0)."""
    name = str(param.get("dtype") or "float32")
    np_dtype = np.dtype("float32" if name == "float" else name)
    value = np.array(param.get("init_value", 0)).astype(np_dtype)

    def fill(block: Any, view: np.ndarray) -> None:
        view.view(np_dtype)[:] = value

    buffer = BufferArg(ctx.address_of(tensor), span_bytes(tensor), Access.WRITE)
    ctx.device.launch(KernelLaunch("MemSet", fill, 1, (buffer,), b"", 0, Engine.AICORE), ctx.stream)


@dataclass
class AicpuLauncher(Launcher):
    impl: OpImpl
    pack: ArgPack
    task: AicpuTask
    one_shot: bool = False

    @property
    def name(self) -> str:
        return f"{self.impl.op_type}(AI CPU)"

    def launch(self, ctx: RunContext) -> None:
        buffers, inline, infos = kernel_buffers(ctx, self.impl, self.pack, [])
        tiling = b""
        if self.impl.tiling is not None:  # an AI CPU kernel is one block on one core
            platform = PlatformInfo(ctx.executor.ctx.soc, 1, 1, 1)
            ctx_tiling = TilingContext(
                self.impl.op_type,
                tuple(describe(t) for t in flatten(self.pack.inputs)),
                tuple(describe(t) for t in flatten(self.pack.outputs)),
                tuple(self.pack.attr_values),
                None,
                platform,
            )
            tiling = self.impl.tiling(ctx_tiling).tiling_bytes
        ctx.device.launch(
            KernelLaunch(
                self.name,
                self.impl.kernel,
                1,
                buffers,
                tiling,
                0,
                Engine.AICPU,
                attrs=kernel_attrs(self.impl, self.pack),
                inline_args=inline,
                **initcheck_fields(ctx, infos),
            ),
            ctx.stream,
        )
        apply_out_shapes(ctx, self.pack)
        if ctx.executor.repeat_mode is not RepeatMode.REPEAT:
            self.task.in_use = False

    def repeatable(self, executor: aclOpExecutor) -> bool:
        return not self.one_shot

    def release(self, executor: aclOpExecutor) -> None:
        self.task.in_use = False
        if self.one_shot:  # the overflow task belongs to this launcher alone and goes with it
            executor.ctx.registry.remove(ResourceKind.AICPU_TASK, id(self.task))


@dataclass
class CopyLauncher(Launcher):
    """CopyToNpu (host tensor -> device) and CopyNpuToNpu; never repeatable."""

    src: aclTensor
    dst: aclTensor
    name: str = "CopyToNpu"

    def launch(self, ctx: RunContext) -> None:
        size = nbytes(self.src)
        if nbytes(self.dst) < size:
            raise AclnnError(f"{self.name}: destination holds {nbytes(self.dst)} bytes, source {size}", msg_id=None)
        if isinstance(self.src, ExecTensor) and self.src.on_host and self.src.storage.host is not None:
            data = self.src.storage.host[:size].tobytes()  # the task keeps its own copy of the bytes

            def upload(block: Any, view: np.ndarray) -> None:
                view[:size] = np.frombuffer(data, dtype=np.uint8)

            buffer = BufferArg(ctx.address_of(self.dst), size, Access.WRITE)
            ctx.device.launch(KernelLaunch(self.name, upload, 1, (buffer,), b"", 0, Engine.AICORE), ctx.stream)
        else:
            ctx.device.copy(ctx.address_of(self.dst), ctx.address_of(self.src), size, Direction.D2D, ctx.stream)

    def repeatable(self, executor: aclOpExecutor) -> bool:
        return False
