"""``opbase-emu demo``: the lifecycle on the simulated NPU, one annotated step at a time.

Each step is a real call through the pyACL face; what it allocated and freed is not scripted
text but the difference in the emulated process's live-resource registry and in the device's
memory accounting before and after the call. That is the point for a learner: the numbers are
the emulator's own bookkeeping, the same that leak reports use.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np

from emulator import acl, aclnn, process
from emulator.acl import constants as c
from emulator.process import EmulatedProcess
from emulator.status import describe
from emulator.tracking import Resource, ResourceKind


def _status_of(handle: object) -> tuple[object, int]:
    """A creator returns a handle or nullptr; as a step it succeeds when the handle is not None."""
    return handle, (0 if handle is not None else 561000)


def human(nbytes: int) -> str:
    size = float(nbytes)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(size) < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{nbytes} B"


def describe_resource(res: Resource) -> str:
    parts = [res.kind.replace("_", " ")]
    if res.kind in (ResourceKind.DEVICE_MEMORY, ResourceKind.HOST_MEMORY):
        parts.append(f"{res.key:#x}")
        parts.append(f"{res.size} B")
        charged = res.detail.get("charged")
        if isinstance(charged, int):
            parts.append(f"(charged {human(charged)}: rounded, padded, whole pages)")
    elif res.kind is ResourceKind.DEVICE:
        parts.append(f"{res.key} ({res.tag})")
    elif res.kind in (ResourceKind.TENSOR, ResourceKind.SCALAR):
        parts.append(f"at {res.key:#x} (a host descriptor: no device memory of its own)")
    elif res.kind is ResourceKind.EXECUTOR:
        parts.append(f"{res.key:#x} for {res.tag}")
    elif res.kind is ResourceKind.TILING_PARSE:
        return f"tiling-parse context of {str(res.tag).rsplit('/', 1)[-1]} (a cache kept until aclnnFinalize)"
    elif res.kind in (ResourceKind.AICPU_TASK, ResourceKind.AICPU_TASK_SPACE):
        parts.append(f"{res.key:#x} of {res.tag}")
    else:
        parts.append(f"{res.key:#x}")
    return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Step:
    number: int
    title: str
    call: str
    status: int
    added: tuple[Resource, ...]
    removed: tuple[Resource, ...]
    device_used: int


class StepRecorder:
    """Runs calls and records what each one changed in the registry and in device memory."""

    def __init__(self, proc: EmulatedProcess, out: TextIO) -> None:
        self.proc = proc
        self.out = out
        self.steps: list[Step] = []

    def _snapshot(self) -> tuple[dict[tuple[ResourceKind, int], Resource], int]:
        live = {(r.kind, r.key): r for r in self.proc.registry.live()}
        used = sum(d.mem_info().total - d.mem_info().free for d in self.proc.runtime.opened_devices())
        return live, used

    def __call__(self, title: str, call: str, fn: Callable[[], Any]) -> Any:
        before, _ = self._snapshot()
        result = fn()
        after, used = self._snapshot()
        status = int(result[-1] if isinstance(result, tuple) else result)
        added = tuple(r for k, r in after.items() if k not in before)
        removed = tuple(r for k, r in before.items() if k not in after)
        step = Step(len(self.steps) + 1, title, call, status, added, removed, used)
        self.steps.append(step)
        self._print(step)
        if status != 0:
            raise SystemExit(f"{call} failed: {describe(status)} ({status})\n{acl.get_recent_err_msg()}")
        return result

    def _print(self, step: Step) -> None:
        changes = [f"+ {describe_resource(r)}" for r in step.added] + [
            f"- {describe_resource(r)}" for r in step.removed
        ]
        print(f"{step.number:>2}. {step.title}", file=self.out)
        print(f"      {step.call}  ->  {describe(step.status, aclnn=step.call.startswith('aclnn.'))}", file=self.out)
        for change in changes:
            print(f"      {change}", file=self.out)
        print(f"      device memory in use: {human(step.device_used)}", file=self.out)


def _device_tensor(host: np.ndarray, dtype: int) -> tuple[object, int, int]:
    """malloc + copy in + aclCreateTensor: (tensor, device address, status)."""
    ptr, ret = acl.rt.malloc(host.nbytes, c.ACL_MEM_MALLOC_HUGE_FIRST)
    if ret:
        return None, 0, ret
    ret = acl.rt.memcpy(ptr, host.nbytes, host.ctypes.data, host.nbytes, c.ACL_MEMCPY_HOST_TO_DEVICE)
    shape = list(host.shape)
    tensor = aclnn.aclCreateTensor(shape, len(shape), dtype, None, 0, aclnn.ACL_FORMAT_ND, shape, len(shape), ptr)
    return tensor, ptr, ret if tensor is not None else 561000


def _read(ptr: int, like: np.ndarray) -> np.ndarray:
    out = np.empty_like(like)
    acl.rt.memcpy(out.ctypes.data, out.nbytes, ptr, out.nbytes, c.ACL_MEMCPY_DEVICE_TO_HOST)
    return out


def run_demo(out: TextIO) -> list[Step]:
    """The canonical lifecycle: init -> device -> tensors -> two-phase AI Core and AI CPU ops -> teardown."""
    with process.fresh() as proc:
        soc = proc.runtime.soc
        print(f"opbase-emu demo: the aclnn lifecycle on a simulated {soc.soc_version} (device 0)\n", file=out)
        step = StepRecorder(proc, out)
        step("Initialise the ACL runtime", "acl.init()", acl.init)
        step("Open device 0 (primary context, default stream)", "acl.rt.set_device(0)", lambda: acl.rt.set_device(0))
        stream, _ = step("Create a stream", "acl.rt.create_stream()", acl.rt.create_stream)
        step("Initialise aclnn (loads the op packages)", "aclnn.aclnnInit(None)", lambda: aclnn.aclnnInit(None))
        packages = proc.aclnn.packages
        if packages is not None:
            names = ", ".join(f"{p.family}:{p.name}" for p in packages.packages)
            print(f"      op packages ({packages.socdir}): {names}; {len(packages.ops_info)} ops described", file=out)

        x_host = np.arange(8, dtype=np.float16).reshape(2, 4)
        y_host = np.full((2, 4), 0.5, dtype=np.float32)
        out_host = np.zeros((2, 4), dtype=np.float32)
        x, x_ptr, _ = step("Put x (2x4 float16) on the device", "malloc + memcpy + aclCreateTensor",
                           lambda: _device_tensor(x_host, aclnn.ACL_FLOAT16))  # fmt: skip
        y, y_ptr, _ = step("Put y (2x4 float32) on the device", "malloc + memcpy + aclCreateTensor",
                           lambda: _device_tensor(y_host, aclnn.ACL_FLOAT))  # fmt: skip
        z, z_ptr, _ = step("Make out (2x4 float32) on the device", "malloc + memcpy + aclCreateTensor",
                           lambda: _device_tensor(out_host, aclnn.ACL_FLOAT))  # fmt: skip
        alpha = step("Make the scalar alpha = 2", "aclnn.aclCreateScalar(2.0, ACL_FLOAT)",
                     lambda: _status_of(aclnn.aclCreateScalar(2.0, aclnn.ACL_FLOAT)))[0]  # fmt: skip

        ws, executor, _ = step("Phase 1: plan out = x + alpha * y (mixed dtypes: Cast, then Axpy)",
                               "aclnn.aclnnAddGetWorkspaceSize(x, y, alpha, out)",
                               lambda: aclnn.aclnnAddGetWorkspaceSize(x, y, alpha, z))  # fmt: skip
        kernels = ", ".join(launcher.name for launcher in executor.launchers)
        print(f"      workspace {ws} B; recorded launches: {kernels}", file=out)
        workspace = 0
        if ws:
            workspace, _ = step("Allocate the workspace", f"acl.rt.malloc({ws}, ACL_MEM_MALLOC_HUGE_FIRST)",
                                lambda: acl.rt.malloc(ws, c.ACL_MEM_MALLOC_HUGE_FIRST))  # fmt: skip
        step("Phase 2: enqueue the kernels (the executor is released)",
             "aclnn.aclnnAdd(workspace, ws, executor, stream)",
             lambda: aclnn.aclnnAdd(workspace, ws, executor, stream))  # fmt: skip
        step("Wait for the stream (the kernels run now)", "acl.rt.synchronize_stream(stream)",
             lambda: acl.rt.synchronize_stream(stream))  # fmt: skip
        result = _read(z_ptr, out_host)
        expected = x_host.astype(np.float32) + 2 * y_host
        match = "matches" if np.allclose(result, expected) else "DOES NOT match"
        print(f"    -> out = {result.ravel().tolist()} ({match} numpy)\n", file=out)

        seq_host = np.array([0.0, 2.0, 4.0, 6.0], dtype=np.float32)
        idx_host = np.zeros((2, 4), dtype=np.int64)
        seq, seq_ptr, _ = step("Put a sorted sequence on the device", "malloc + memcpy + aclCreateTensor",
                               lambda: _device_tensor(seq_host, aclnn.ACL_FLOAT))  # fmt: skip
        idx, idx_ptr, _ = step("Make the int64 index output", "malloc + memcpy + aclCreateTensor",
                               lambda: _device_tensor(idx_host, aclnn.ACL_INT64))  # fmt: skip
        ws2, executor2, _ = step("Phase 1 of an AI CPU op: SearchSorted(seq, out)",
                                 "aclnn.aclnnSearchSortedGetWorkspaceSize(seq, out, False, False, None, idx)",
                                 lambda: aclnn.aclnnSearchSortedGetWorkspaceSize(
                                     seq, z, False, False, None, idx))  # fmt: skip
        step("Phase 2 of the AI CPU op", "aclnn.aclnnSearchSorted(0, 0, executor, stream)",
             lambda: aclnn.aclnnSearchSorted(0, ws2, executor2, stream))  # fmt: skip
        step("Wait for the stream", "acl.rt.synchronize_stream(stream)", lambda: acl.rt.synchronize_stream(stream))
        print(f"    -> indices = {_read(idx_ptr, idx_host).ravel().tolist()}\n", file=out)

        for name, handle in (("x", x), ("y", y), ("out", z), ("seq", seq), ("idx", idx)):
            step(f"Destroy tensor {name} (its memory stays)", f"aclnn.aclDestroyTensor({name})",
                 functools.partial(aclnn.aclDestroyTensor, handle))  # fmt: skip
        step("Destroy alpha", "aclnn.aclDestroyScalar(alpha)", lambda: aclnn.aclDestroyScalar(alpha))
        for name, ptr in (("x", x_ptr), ("y", y_ptr), ("out", z_ptr), ("seq", seq_ptr), ("idx", idx_ptr),
                          ("workspace", workspace)):  # fmt: skip
            if ptr:
                step(f"Free the device memory of {name}", f"acl.rt.free({name})", functools.partial(acl.rt.free, ptr))
        step("Destroy the stream", "acl.rt.destroy_stream(stream)", lambda: acl.rt.destroy_stream(stream))
        step("Close device 0", "acl.rt.reset_device(0)", lambda: acl.rt.reset_device(0))
        step("Finalise aclnn (frees the AI CPU task spaces)", "aclnn.aclnnFinalize()", aclnn.aclnnFinalize)
        step("Finalise the ACL runtime", "acl.finalize()", acl.finalize)

        live = proc.registry.live()
        print("", file=out)
        if live:
            print(f"Leak check: {len(live)} resource(s) still alive:", file=out)
            for res in live:
                print(f"  {describe_resource(res)} created at {res.site}", file=out)
        else:
            created = sum(proc.registry.created.values())
            print(f"Leak check: clean: {created} resources created, all {created} released.", file=out)
        return step.steps
