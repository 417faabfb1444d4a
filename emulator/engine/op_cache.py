"""The op cache: a second identical L2 call on the same thread skips phase 1 and replays.

Emulates opbase's per-thread executor cache (spec/lifecycle.md section 8): the key is a byte string
of the API name, the thread's op config and every input and output argument (shapes, strides,
dtypes, offsets, formats, scalar values, array contents) plus which argument positions are the
same tensor object. After a successful phase 2 of a non-repeatable executor its entry becomes
usable; the next phase 1 with the same key on the same thread returns a replay object and the
cached workspace size without running the op body (no checks, no shape inference, no kernel
selection, no tiling). Phase 2 of the replay object launches the recorded kernels again with the
new call's tensor addresses and workspace, then deletes the replay object. ``ACLNN_CACHE_LIMIT``
entries per thread; when full, the 30 least recently used entries go. Anything that called
``AbandonCache`` (AI CPU tasks, copies, data-dependent shapes) is never cached.
"""

from __future__ import annotations

import struct
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import structlog

from emulator import process
from emulator.diagnostics import report_undefined
from emulator.engine.executor import OpConfig, RepeatMode, aclOpExecutor, common_op_executor_run
from emulator.errors import AclnnError, AclnnParamNullptr
from emulator.meta.objects import (
    Handle,
    aclBoolArray,
    aclFloatArray,
    aclIntArray,
    aclScalar,
    aclScalarList,
    aclTensor,
    aclTensorList,
)
from emulator.status import AclnnStatus

log = structlog.get_logger(logger_name="emulator.engine.cache")

KEY_LIMIT = 8192
SHRINK = 30
MAX_LIMIT = 10_000_000
COMMA = b","
OK = AclnnStatus.ACLNN_SUCCESS


def _tensor_bytes(t: aclTensor) -> bytes:
    return b"".join(
        (
            struct.pack(f"<{len(t.view_shape)}q", *t.view_shape) + COMMA,
            struct.pack(f"<{len(t.strides)}q", *t.strides) + COMMA,
            struct.pack(f"<{len(t.storage_shape)}q", *t.storage_shape) + COMMA,
            struct.pack("<I", t.dtype & 0xFFFFFFFF) + COMMA,
            struct.pack("<q", t.offset) + COMMA,
            struct.pack("<I", t.view_format & 0xFFFFFFFF),
        )
    )


def _arg_bytes(arg: Any, tensors: list[aclTensor]) -> bytes:
    if arg is None:
        return COMMA
    if isinstance(arg, aclTensor):
        tensors.append(arg)
        return _tensor_bytes(arg)
    if isinstance(arg, aclScalar):
        return arg.data + COMMA + struct.pack("<I", arg.dtype & 0xFFFFFFFF) + COMMA
    if isinstance(arg, aclIntArray):
        return struct.pack(f"<{len(arg.values)}q", *arg.values) + struct.pack("<Q", len(arg.values))
    if isinstance(arg, aclFloatArray):
        return struct.pack(f"<{len(arg.values)}f", *arg.values) + struct.pack("<Q", len(arg.values))
    if isinstance(arg, aclBoolArray):
        return bytes(bool(v) for v in arg.values) + struct.pack("<Q", len(arg.values))
    if isinstance(arg, aclTensorList | aclScalarList):
        inner = b"".join(_arg_bytes(m, tensors) for m in arg.values)
        return inner + struct.pack("<Q", len(arg.values))
    if isinstance(arg, bool):
        return bytes([arg])
    if isinstance(arg, int):
        return struct.pack("<q", arg)
    if isinstance(arg, float):
        return struct.pack("<d", arg)
    if isinstance(arg, str):
        return arg.encode() + struct.pack("<Q", len(arg))
    return repr(arg).encode()


def cache_key(api: str, config: OpConfig, args: tuple[Any, ...]) -> bytes | None:
    """The key bytes; None when they would not fit the 8192-byte per-thread buffer."""
    name = api.encode()
    tensors: list[aclTensor] = []
    parts = [
        name,
        struct.pack("<Q", len(name)),
        struct.pack("<IIB", config.aic_num, config.aiv_num, config.deterministic),
    ]
    parts.extend(_arg_bytes(arg, tensors) for arg in args)
    first: dict[int, int] = {}
    labels = [first.setdefault(id(t), len(first)) for t in tensors]
    parts.append(struct.pack(f"<{len(labels)}Q", *labels))
    key = b"".join(parts)
    return key if len(key) <= KEY_LIMIT else None


@dataclass(eq=False)
class CacheEntry:
    api: str
    key: bytes
    template: aclOpExecutor
    workspace_size: int
    usable: bool = False


class OpExecCacheWrap(Handle):
    """The replay object phase 1 hands out on a cache hit."""

    kind = "executor"
    __slots__ = ("args", "entry")

    def __init__(self, entry: CacheEntry, args: tuple[Any, ...]) -> None:
        super().__init__()
        self.entry = entry
        self.args = args
        process.current().registry.add("executor", self.key, tag=f"{entry.api} (op-cache replay)")

    @property
    def api(self) -> str:
        return self.entry.api

    def set_repeatable(self) -> None:
        raise AclnnError(f"{self.api}: a cache replay object cannot be made repeatable", msg_id="EZ9999")

    def destroy(self) -> None:
        if self.alive:
            self.alive = False
            process.current().registry.remove(self.kind, self.key)


def substitutions(original: tuple[Any, ...], current: tuple[Any, ...]) -> dict[int, aclTensor]:
    """Which of the recorded call's tensors stand for which of this call's (same positions)."""
    subst: dict[int, aclTensor] = {}
    for old, new in zip(original, current, strict=False):
        if isinstance(old, aclTensor) and isinstance(new, aclTensor):
            subst[id(old)] = new
        elif isinstance(old, aclTensorList) and isinstance(new, aclTensorList):
            for a, b in zip(old.values, new.values, strict=False):
                if isinstance(a, aclTensor) and isinstance(b, aclTensor):
                    subst[id(a)] = b
    return subst


class ThreadCache:
    def __init__(self, limit: int) -> None:
        self.limit = min(limit, MAX_LIMIT)
        self.entries: OrderedDict[bytes, CacheEntry] = OrderedDict()
        self.hits = 0


class OpCache:
    """The per-thread op caches of the process, and phase 2's dispatch between run and replay."""

    def __init__(self, limit: int, disabled: bool = False) -> None:
        self.limit = limit
        self.disabled = disabled
        self._local = threading.local()

    def thread(self) -> ThreadCache:
        cache = getattr(self._local, "cache", None)
        if cache is None:
            cache = self._local.cache = ThreadCache(self.limit)
        return cache

    def lookup(self, api: str, config: OpConfig, args: tuple[Any, ...]) -> tuple[int, OpExecCacheWrap, int] | None:
        if self.disabled:
            return None
        key = cache_key(api, config, args)
        cache = self.thread()
        entry = cache.entries.get(key) if key is not None else None
        if entry is None or not entry.usable or entry.api != api:
            return None
        cache.entries.move_to_end(key)  # type: ignore[arg-type]
        cache.hits += 1
        log.debug("cache.hit", api=api, workspace_size=entry.workspace_size)
        return entry.workspace_size, OpExecCacheWrap(entry, args), OK

    def publish(self, executor: aclOpExecutor, config: OpConfig, args: tuple[Any, ...]) -> None:
        """ReleaseTo: the executor's entry joins the thread's cache (usable only after a clean run)."""
        if self.disabled or not executor.cache_valid:
            return
        key = cache_key(executor.api, config, args)
        if key is None:
            return
        cache = self.thread()
        if key not in cache.entries and len(cache.entries) >= cache.limit:
            for _ in range(min(SHRINK, len(cache.entries))):
                cache.entries.popitem(last=False)
        entry = CacheEntry(executor.api, key, executor, executor.workspace_size or 0)
        cache.entries[key] = entry
        executor.cache = entry

    def forget(self, executor: aclOpExecutor) -> None:
        """aclSetAclOpExecutorRepeatable: the entry leaves the shared cache and becomes private."""
        entry = executor.cache
        if isinstance(entry, CacheEntry):
            self.thread().entries.pop(entry.key, None)

    def run(self, workspace: int, workspace_size: int, executor: object, stream: int) -> int:
        """Phase 2: replay a cache hit, else CommonOpExecutorRun; a clean run makes its entry usable."""
        if isinstance(executor, OpExecCacheWrap):
            return self._replay(workspace, workspace_size, executor, stream)
        status = common_op_executor_run(workspace, workspace_size, executor, stream)
        assert isinstance(executor, aclOpExecutor)
        entry = executor.cache
        if isinstance(entry, CacheEntry) and executor.repeat_mode is not RepeatMode.REPEAT:
            entry.usable = executor.cache_valid
        return status

    def _replay(self, workspace: int, workspace_size: int, wrap: OpExecCacheWrap, stream: int) -> int:
        if not wrap.alive:
            gone = process.current().registry.released_resource(wrap.kind, wrap.key)
            report_undefined(
                wrap.api,
                "phase 2 on a cache replay object that was already freed",
                created=gone.site if gone else None,
                destroyed=gone.released_at if gone else None,
            )
            raise AclnnError(f"{wrap.api}: the executor was already freed", msg_id=None)
        try:
            if workspace_size > 0 and not workspace:
                raise AclnnParamNullptr(f"workspace is null but workspaceSize is {workspace_size}", msg_id=None)
            subst = substitutions(wrap.entry.template.l2_inputs, wrap.args)
            return wrap.entry.template.replay(workspace, workspace_size, stream, subst)
        finally:
            wrap.destroy()
