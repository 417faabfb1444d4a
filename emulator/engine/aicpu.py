"""AI CPU task spaces: the reusable AI CPU tasks of each AI CPU op.

One ``AicpuTaskSpace`` per AI CPU op type lives for the process; it caches ``AicpuTask`` objects by
a key of (thread, input dtypes and formats, attributes), so a task is reused by later calls with
the same characteristics once it is no longer in use. When a space creates its first task it is
saved in the process's set of spaces under a lock (SaveAicpuTaskSpace); ``aclnnAicpuFinalize`` —
run by aclnnFinalize — clears every space and empties the set. A task's argument block is a host
buffer it owns (tracked for leak reports, never charged to device memory). Past
``ACLNN_AICPU_CACHE_LIMIT`` tasks per space a new task is a one-shot overflow task that is not
cached and makes its executor unrepeatable.
"""

from __future__ import annotations

import struct
import threading
from dataclasses import dataclass, field
from typing import Any

from emulator.lazylog import lazy_logger
from emulator.meta.objects import aclTensor, aclTensorList
from emulator.tracking import Registry, ResourceKind

log = lazy_logger(__name__, logger_name="emulator.engine.aicpu")

ATTR_KEY_LIMIT = 1024
ARGS_BYTES = 256  # the host argument block of one task (addresses, sizes, ext info)


@dataclass(eq=False)
class AicpuTask:
    op_type: str
    key: bytes
    attr_names: tuple[str, ...]
    args: bytearray = field(default_factory=lambda: bytearray(ARGS_BYTES))
    in_use: bool = True
    one_shot: bool = False


def task_key(inputs: list[Any], attrs: list[Any]) -> bytes:
    """Thread id, then per non-null input dtype and view format (1 byte each), '/', then attributes."""
    out = bytearray(struct.pack("<Q", threading.get_ident() & 0xFFFFFFFFFFFFFFFF))
    for tensor in inputs:
        members = tensor.values if isinstance(tensor, aclTensorList) else [tensor]
        for member in members:
            if isinstance(member, aclTensor):
                out += bytes([member.dtype & 0xFF, member.view_format & 0xFF])
    out += b"/"
    attr_bytes = bytearray()
    for value in attrs:
        if isinstance(value, bool):
            attr_bytes += bytes([value])
        elif isinstance(value, int):
            attr_bytes += struct.pack("<q", value)
        elif isinstance(value, float):
            attr_bytes += struct.pack("<f", value)
        elif isinstance(value, str):
            attr_bytes += value.encode()
        elif isinstance(value, list | tuple):
            attr_bytes += b"".join(struct.pack("<d", float(v)) for v in value)
    out += attr_bytes[:ATTR_KEY_LIMIT]
    return bytes(out)


class AicpuTaskSpace:
    """The task cache of one AI CPU op type."""

    def __init__(self, op_type: str, limit: int) -> None:
        self.op_type = op_type
        self.limit = limit
        self.tasks: dict[bytes, list[AicpuTask]] = {}
        self.lock = threading.Lock()

    def __len__(self) -> int:
        return sum(len(tasks) for tasks in self.tasks.values())

    def get_or_create(self, key: bytes, attr_names: tuple[str, ...], registry: Registry) -> AicpuTask:
        """FindTask, else a new task: cached, or one-shot when the space is full."""
        with self.lock:
            for task in self.tasks.get(key, []):
                if not task.in_use:
                    task.in_use = True
                    return task
            task = AicpuTask(self.op_type, key, attr_names)
            if len(self) >= self.limit:
                task.one_shot = True
                log.warning("aicpu.cache_full", op_type=self.op_type, limit=self.limit)
            else:
                self.tasks.setdefault(key, []).append(task)
            registry.add(ResourceKind.AICPU_TASK, id(task), size=len(task.args), tag=self.op_type)
            return task

    def clear(self, registry: Registry) -> int:
        """Clear(): destroy every cached task (their host argument buffers go with them)."""
        cleared = 0
        for tasks in self.tasks.values():
            for task in tasks:
                registry.remove(ResourceKind.AICPU_TASK, id(task))
                cleared += 1
        self.tasks.clear()
        return cleared


class AicpuTaskSpaces:
    """The process's spaces by op type, and the global set of spaces that hold tasks."""

    def __init__(self, limit: int, registry: Registry) -> None:
        self.limit = limit
        self.registry = registry
        self._spaces: dict[str, AicpuTaskSpace] = {}
        self.saved: set[AicpuTaskSpace] = set()
        self.lock = threading.Lock()

    def space(self, op_type: str) -> AicpuTaskSpace:
        with self.lock:
            space = self._spaces.get(op_type)
            if space is None:
                space = self._spaces[op_type] = AicpuTaskSpace(op_type, self.limit)
            return space

    def task(self, op_type: str, inputs: list[Any], attrs: list[Any], attr_names: tuple[str, ...]) -> AicpuTask:
        space = self.space(op_type)
        task = space.get_or_create(task_key(inputs, attrs), attr_names, self.registry)
        with self.lock:  # SaveAicpuTaskSpace: inserting twice is harmless
            if not task.one_shot:
                if space not in self.saved:
                    self.registry.add(ResourceKind.AICPU_TASK_SPACE, id(space), tag=op_type)
                self.saved.add(space)
        return task

    def finalize(self) -> int:
        """aclnnAicpuFinalize: clear every saved space, empty the set."""
        with self.lock:
            size = len(self.saved)
            for space in self.saved:
                space.clear(self.registry)
                self.registry.remove(ResourceKind.AICPU_TASK_SPACE, id(space))
            self.saved.clear()
        log.debug("aclnnAicpuFinalize", task_space_set_size=size)
        return size
