"""``opbase-emu demo``: the lifecycle on the simulated NPU, one annotated step at a time.

Each step is a real call through the pyACL face; what it allocated and freed is not scripted
text but the difference in the emulated process's live-resource registry and in the device's
memory accounting before and after the call. That is the point for a learner: the numbers are
the emulator's own bookkeeping, the same that leak reports use.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np

from emulator import acl, aclnn, process
from emulator.acl import constants as c
from emulator.process import EmulatedProcess
from emulator.status import describe
from emulator.tracking import Resource


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
    if res.kind in ("device_memory", "host_memory"):
        parts.append(f"{res.key:#x}")
        parts.append(f"{res.size} B")
        if "charged" in res.detail:
            parts.append(f"(charged {human(int(res.detail['charged']))}: rounded, padded, whole pages)")
    elif res.kind == "device":
        parts.append(f"{res.key} ({res.tag})")
    elif res.kind == "tensor":
        parts.append(f"at {res.key:#x} (descriptor only: no device memory of its own)")
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

    def _snapshot(self) -> tuple[dict[tuple[str, int], Resource], int]:
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


def run_demo(out: TextIO) -> list[Step]:
    """init -> set device -> stream -> aclnnInit -> malloc -> tensor -> copies -> destroy -> free -> finalize."""
    with process.fresh() as proc:
        soc = proc.runtime.soc
        print(f"opbase-emu demo: the lifecycle on a simulated {soc.soc_version} (device 0)\n", file=out)
        step = StepRecorder(proc, out)
        step("Initialise the ACL runtime", "acl.init()", acl.init)
        step("Open device 0 (primary context, default stream)", "acl.rt.set_device(0)", lambda: acl.rt.set_device(0))
        stream, _ = step("Create a stream", "acl.rt.create_stream()", acl.rt.create_stream)
        step("Initialise aclnn (loads the op packages)", "aclnn.aclnnInit(None)", lambda: aclnn.aclnnInit(None))
        packages = proc.aclnn.packages
        if packages is not None:
            names = ", ".join(f"{p.family}:{p.name}" for p in packages.packages)
            print(f"      op packages ({packages.socdir}): {names}; {len(packages.ops_info)} ops described", file=out)

        host = np.arange(1024, dtype=np.float32)
        nbytes = host.nbytes
        dev, _ = step(
            f"Allocate {nbytes} bytes of device memory",
            f"acl.rt.malloc({nbytes}, ACL_MEM_MALLOC_HUGE_FIRST)",
            lambda: acl.rt.malloc(nbytes, c.ACL_MEM_MALLOC_HUGE_FIRST),
        )
        tensor = step(
            "Describe the device memory as a 1024-element fp32 tensor",
            "aclnn.aclCreateTensor([1024], 1, ACL_FLOAT, None, 0, ACL_FORMAT_ND, [1024], 1, dev)",
            lambda: _status_of(
                aclnn.aclCreateTensor([1024], 1, aclnn.ACL_FLOAT, None, 0, aclnn.ACL_FORMAT_ND, [1024], 1, dev)
            ),
        )[0]
        pinned, _ = step(
            "Allocate pinned host memory for the result",
            f"acl.rt.malloc_host({nbytes})",
            lambda: acl.rt.malloc_host(nbytes),
        )
        step(
            "Copy the input to the device (synchronous)",
            f"acl.rt.memcpy(dev, {nbytes}, host, {nbytes}, ACL_MEMCPY_HOST_TO_DEVICE)",
            lambda: acl.rt.memcpy(dev, nbytes, host.ctypes.data, nbytes, c.ACL_MEMCPY_HOST_TO_DEVICE),
        )
        step(
            "Queue the copy back on the stream (asynchronous)",
            f"acl.rt.memcpy_async(pinned, {nbytes}, dev, {nbytes}, ACL_MEMCPY_DEVICE_TO_HOST, stream)",
            lambda: acl.rt.memcpy_async(pinned, nbytes, dev, nbytes, c.ACL_MEMCPY_DEVICE_TO_HOST, stream),
        )
        step("Wait for the stream", "acl.rt.synchronize_stream(stream)", lambda: acl.rt.synchronize_stream(stream))
        result = np.ctypeslib.as_array((ctypes.c_float * host.size).from_address(pinned)).copy()
        match = "matches" if np.array_equal(result, host) else "DOES NOT match"
        print(f"    -> the {host.size} floats read back {match} the input\n", file=out)
        step(
            "Destroy the tensor (the memory stays)",
            "aclnn.aclDestroyTensor(tensor)",
            lambda: aclnn.aclDestroyTensor(tensor),
        )
        step("Free the device memory", "acl.rt.free(dev)", lambda: acl.rt.free(dev))
        step("Free the pinned host memory", "acl.rt.free_host(pinned)", lambda: acl.rt.free_host(pinned))
        step("Destroy the stream", "acl.rt.destroy_stream(stream)", lambda: acl.rt.destroy_stream(stream))
        step("Close device 0", "acl.rt.reset_device(0)", lambda: acl.rt.reset_device(0))
        step("Finalise aclnn", "aclnn.aclnnFinalize()", aclnn.aclnnFinalize)
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
