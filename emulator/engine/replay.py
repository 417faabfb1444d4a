"""The compiled replay of an op-cache entry: phase 2 of a hit as one pass over its launch plans.

A replay's key is equal to the recorded call's, so everything a launch builds except the
addresses is fixed (``emulator.engine.plan``). What is left to do per call is also fixed in
shape: which of the new call's arguments each buffer follows (a tensor argument, a list member,
an executor view of one, or the executor's own workspace-backed storage). That is worked out
once, at the first replay of the entry (``compile_replay``); each later replay binds the
workspace, reads the addresses in that order, and launches. The launch itself (``KernelLaunch``)
is built again only when an address differs from the last call's, or initcheck was switched; the
device still proves every launch's buffers live and in bounds (``SpanMemo``) at enqueue and again
when the task runs, and initcheck's reporter is made per call, with the call's own site.

Only entries whose every launcher has a plan are compiled; any other entry replays through
``aclOpExecutor.replay`` (the launchers' own ``launch``) as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from emulator.device.errors import DeviceError
from emulator.device.interface import BufferArg, Engine, KernelLaunch
from emulator.engine.initcheck import reporter
from emulator.engine.launchers import AiCoreLauncher
from emulator.engine.plan import LaunchPlan
from emulator.engine.tensors import ExecTensor, Storage
from emulator.errors import AclnnError
from emulator.lazylog import lazy_logger
from emulator.meta.objects import aclTensor, aclTensorList
from emulator.status import AclnnStatus
from emulator.tracking import Site, capture_site

if TYPE_CHECKING:
    from emulator.engine.executor import aclOpExecutor

log = lazy_logger(__name__, logger_name="emulator.engine.executor")

OK = AclnnStatus.ACLNN_SUCCESS

# How a buffer finds its address in a replaying call: (mode, argument position, list member or -1,
# the recorded tensor, a byte offset).
ARG = 0  # the call's tensor at that position (or that member of its list): its data address
BASE = 1  # an executor view of that tensor: the tensor's raw address plus the view's own offset (fixed in phase 1)
FIXED = 2  # the executor's own tensor (workspace-backed, after the workspace is bound)
Binder = tuple[int, int, int, aclTensor, int]


def _binders(tensors: tuple[aclTensor, ...], recorded: tuple[Any, ...]) -> tuple[Binder, ...]:
    """Per buffer, where a replay reads its address: what ``RunContext.address_of`` resolves, decided once."""
    positions: dict[int, tuple[int, int]] = {}  # a recorded tensor's id -> (position, member)
    for position, arg in enumerate(recorded):
        if isinstance(arg, aclTensor):
            positions[id(arg)] = (position, -1)
        elif isinstance(arg, aclTensorList):
            for member, tensor in enumerate(arg.values):
                if isinstance(tensor, aclTensor):
                    positions[id(tensor)] = (position, member)
    binders: list[Binder] = []
    for tensor in tensors:
        found = positions.get(id(tensor))
        if found is not None:
            binders.append((ARG, *found, tensor, 0))
            continue
        base = tensor.storage.base if isinstance(tensor, ExecTensor) else None
        found = positions.get(id(base)) if base is not None else None
        if found is not None:
            binders.append((BASE, *found, tensor, tensor.data_addr - tensor.raw_addr))
        else:
            binders.append((FIXED, -1, -1, tensor, 0))
    return tuple(binders)


def _tensors(arg: Any) -> bool:
    if isinstance(arg, aclTensorList):
        return any(isinstance(member, aclTensor) for member in arg.values)
    return isinstance(arg, aclTensor)


def _addresses(binders: tuple[Binder, ...], args: tuple[Any, ...]) -> tuple[int, ...]:
    """The buffers' addresses in this call, as ``RunContext.address_of`` gives them."""
    addrs = []
    for mode, position, member, tensor, offset in binders:
        if mode == FIXED:
            addrs.append(tensor.data_addr)
            continue
        new = args[position] if member < 0 else args[position].values[member]
        addrs.append(new.data_addr if mode == ARG else new.raw_addr + offset)
    return tuple(addrs)


@dataclass(slots=True)
class PlanLaunch:
    """One launcher's plan with its binders and the launch it built last (for those addresses)."""

    launcher: AiCoreLauncher
    plan: LaunchPlan
    binders: tuple[Binder, ...]
    addrs: tuple[int, ...] = ()
    initcheck: bool = False
    kernel: KernelLaunch | None = None

    def launch(self, executor: aclOpExecutor, device: Any, stream: int, args: tuple[Any, ...], site: Site | None,
               initcheck: bool) -> None:  # fmt: skip
        plan = self.plan
        addrs = _addresses(self.binders, args)
        kernel = self.kernel
        if kernel is None or addrs != self.addrs or initcheck is not self.initcheck:
            impl = self.launcher.impl
            buffers = tuple(
                BufferArg(addr, span, access) for addr, span, access in zip(addrs, plan.spans, plan.access, strict=True)
            )
            kernel = KernelLaunch(
                impl.op_type, impl.kernel, plan.tiling.block_dim, buffers, plan.tiling.tiling_bytes, plan.ub_use,
                Engine.AICORE, attrs=plan.attrs, inline_args=plan.inline, memo=plan.memo,
                init_roles=plan.roles if initcheck else (),
            )  # fmt: skip
            self.kernel, self.addrs, self.initcheck = kernel, addrs, initcheck
        report = None
        if initcheck:
            op = executor.ctx
            report = reporter(executor.api, plan.infos, site, op.diagnostics, op.registry)
        device.launch(kernel, stream, site, on_uninit=report)


@dataclass(slots=True)
class CompiledReplay:
    """What ``aclOpExecutor.replay`` does for an entry whose launchers all have plans, in one pass."""

    executor: aclOpExecutor
    launches: tuple[PlanLaunch, ...]
    storages: tuple[Storage, ...]  # the workspace-backed storages, bound to each call's workspace
    relations: tuple[tuple[aclTensor, ExecTensor], ...]

    def current(self) -> bool:
        """Whether every launcher still has the plan this was compiled from."""
        return all(launch.launcher.plan is launch.plan for launch in self.launches)

    def run(self, workspace: int, stream: int, args: tuple[Any, ...], site: Site | None) -> int:
        """The recorded launches at the new call's addresses (``site``: the phase-2 call's, if captured)."""
        executor = self.executor
        op = executor.ctx
        try:
            device, sid = op.runtime.resolve_stream(stream, submit=True)
            for storage in self.storages:
                storage.addr = workspace + storage.offset
            for out, middle in self.relations:
                middle.storage.addr = out.raw_addr
            settings = op.settings
            initcheck = settings.initcheck
            if initcheck and site is None:
                site = capture_site()
            if settings.shape_only:  # a dry run: everything phase 1 decided, no kernel
                op.aclnn.skipped_launches += len(self.launches)
                log.debug("executor.shape_only", api=executor.api, skipped=len(self.launches))
                return OK
            for launch in self.launches:
                launch.launch(executor, device, sid, args, site, initcheck)
        except DeviceError as exc:
            raise executor.launch_failed(exc) from exc
        except AclnnError:
            executor.cache_valid = False
            raise
        return OK


def compile_replay(executor: aclOpExecutor) -> CompiledReplay | None:
    """The compiled replay of a cache entry's executor, or None when a launcher has no plan (or no
    argument is a tensor, when a replay takes the full launch)."""
    launchers = executor.launchers
    if not launchers or not all(isinstance(launcher, AiCoreLauncher) for launcher in launchers):
        return None
    recorded = executor.l2_inputs
    if not any(_tensors(arg) for arg in recorded):  # nothing to substitute: a replay takes the full launch
        return None
    launches = []
    for launcher in launchers:
        assert isinstance(launcher, AiCoreLauncher)
        plan = launcher.plan
        if plan is None:
            return None
        launches.append(PlanLaunch(launcher, plan, _binders(plan.tensors, recorded)))
    storages = tuple(obj.storage for obj in executor.owned if isinstance(obj, ExecTensor) and obj.from_workspace)
    relations = tuple(
        (out, middle)
        for out, middle in executor.relations
        if isinstance(middle, ExecTensor) and middle.storage.base is None
    )
    return CompiledReplay(executor, tuple(launches), storages, relations)
