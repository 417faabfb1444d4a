"""The op cache: a second identical L2 call on the same thread skips phase 1 and replays.

Emulates opbase's per-thread executor cache: the key is a byte string
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

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from emulator.diagnostics import ReportKind
from emulator.engine.executor import OpConfig, RepeatMode, aclOpExecutor, common_op_executor_run
from emulator.engine.replay import CompiledReplay, compile_replay
from emulator.errors import AclnnError, AclnnParamNullptr
from emulator.lazylog import lazy_logger
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
from emulator.tracking import ResourceKind, Site, capture_site

log = lazy_logger(__name__, logger_name="emulator.engine.cache")

KEY_LIMIT = 8192
SHRINK = 30
MAX_LIMIT = 10_000_000
OK = AclnnStatus.ACLNN_SUCCESS


# A tensor's share of the key: view shape, strides, storage shape, dtype, offset, view format.
TensorPart = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int, int]


def _tensor_part(t: aclTensor) -> TensorPart:
    return (t.view_shape, t.strides, t.storage_shape, t.dtype, t.offset, t.view_format)


def _key_bytes(part: TensorPart) -> int:
    """How many bytes the real key buffer would need for a tensor part (8 per dim/stride, 4+8+4 fields, commas)."""
    return 8 * (len(part[0]) + len(part[1]) + len(part[2])) + 21


def _arg_part(arg: Any, tensors: list[aclTensor]) -> tuple[object, int]:
    """One argument's share of the key, and the bytes it takes in the real 8192-byte key buffer."""
    if arg is None:
        return None, 1
    if isinstance(arg, aclTensor):
        tensors.append(arg)
        part = _tensor_part(arg)
        return part, _key_bytes(part)
    if isinstance(arg, aclScalar):
        return ("scalar", arg.data, arg.dtype), len(arg.data) + 6
    if isinstance(arg, aclIntArray | aclFloatArray | aclBoolArray):
        return (arg.kind, arg.values), 8 * len(arg.values) + 8
    if isinstance(arg, aclTensorList | aclScalarList):
        parts = [_arg_part(m, tensors) for m in arg.values]
        return (arg.kind, tuple(p for p, _ in parts)), sum(n for _, n in parts) + 8
    if isinstance(arg, bool | int | float | str):
        return (type(arg).__name__, arg), 8 + (len(arg) if isinstance(arg, str) else 0)
    return repr(arg), 8


def cache_key(api: str, config: OpConfig, args: tuple[Any, ...]) -> CacheKey | None:
    """The key: API name, op config, every argument's description and the aliasing pattern of the tensors.

    The real key is a byte string in an 8192-byte per-thread buffer; here it is
    a tuple with the same content (cheaper to build and hash), refused when the bytes would not fit.
    """
    tensors: list[aclTensor] = []
    parts = [_arg_part(arg, tensors) for arg in args]
    size = len(api) + 8 + 9 + sum(n for _, n in parts) + 8 * len(tensors)
    if size > KEY_LIMIT:
        return None
    first: dict[int, int] = {}
    labels = tuple(first.setdefault(id(t), len(first)) for t in tensors)
    described = tuple(p for p, _ in parts)
    return CacheKey((api, config.aic_num, config.aiv_num, config.deterministic, described, labels), described)


class CacheKey:
    """A key with its hash worked out once: the entry's own key object is looked up again on each hit
    (``move_to_end``), and hashing the nested tuple every time would cost more than the guard saves."""

    __slots__ = ("hash", "parts", "value")

    def __init__(self, value: tuple[object, ...], parts: tuple[object, ...]) -> None:
        self.value = value
        self.parts = parts  # each argument's share, which a guard compares
        self.hash = hash(value)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CacheKey) and self.hash == other.hash and self.value == other.value


_PLAIN = (bool, int, float, str)  # immutable: the same object, or an equal one, is the same key part


def _guardable(args: tuple[Any, ...]) -> bool:
    """Whether a guard can stand for the key of ``args``: no lists (their members' aliasing is in the key)."""
    return not any(isinstance(arg, aclTensorList | aclScalarList) for arg in args)


def _guard_holds(args: tuple[Any, ...], recorded: tuple[Any, ...], parts: tuple[object, ...]) -> bool:
    """Whether ``args`` are the very objects of the recorded call, each still described as it was then.

    Equal then means the same key: the same objects in the same positions alias alike, and every
    field the key reads is compared again (a setter such as aclSetViewShape, or a kernel that gave an
    output its data-dependent shape, changes a tensor in place). The recorded objects are held, so
    no new object can take one's id while the guard stands.
    """
    if len(args) != len(recorded):
        return False
    for arg, old, part in zip(args, recorded, parts, strict=True):
        kind = type(arg)
        if arg is not old:  # a plain value equal to the recorded one is the same key part
            if kind is not type(old) or kind not in _PLAIN or arg != old:
                return False
        elif kind is aclTensor:
            if (arg.view_shape, arg.strides, arg.storage_shape, arg.dtype, arg.offset, arg.view_format) != part:
                return False
        elif kind is aclScalar:
            if ("scalar", arg.data, arg.dtype) != part:
                return False
        elif arg is not None and kind not in _PLAIN and _arg_part(arg, [])[0] != part:
            return False
    return True


@dataclass(eq=False)
class CacheEntry:
    api: str
    key: CacheKey
    template: aclOpExecutor
    workspace_size: int
    config: OpConfig
    usable: bool = False
    cached: bool = True  # False once it has left its thread's cache (evicted, replaced, made private)
    guard: tuple[Any, ...] = ()  # the last call served from it: its arguments, compared again by the next
    compiled: CompiledReplay | None = None  # phase 2 of a replay, compiled at the first one (None: not yet)
    compile_tried: bool = False
    tag: str = field(init=False)  # the replay objects' tag in the registry

    def __post_init__(self) -> None:
        self.tag = f"{self.api} (op-cache replay)"


class OpExecCacheWrap(Handle):
    """The replay object phase 1 hands out on a cache hit."""

    kind = ResourceKind.EXECUTOR
    __slots__ = ("args", "ctx", "entry")

    def __init__(self, entry: CacheEntry, args: tuple[Any, ...]) -> None:
        self.alive = True  # Handle's fields, set here: one replay object per cached call
        self.owner = None
        self.entry = entry
        self.args = args
        self.ctx = entry.template.ctx
        self.ctx.registry.add_fast(ResourceKind.EXECUTOR, id(self), self, None, None, entry.tag)

    @property
    def api(self) -> str:
        return self.entry.api

    def set_repeatable(self) -> None:
        raise AclnnError(f"{self.api}: a cache replay object cannot be made repeatable", msg_id="EZ9999")

    def destroy(self, site: Site | None = None) -> None:
        if self.alive:
            self.alive = False
            self.ctx.registry.remove(self.kind, self.key, site=site)


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
        self.entries: OrderedDict[CacheKey, CacheEntry] = OrderedDict()
        self.recent: dict[str, CacheEntry] = {}  # per API, the entry its last call was served from
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
        cache = self.thread()
        entry = cache.recent.get(api)
        if (
            entry is not None
            and entry.cached
            and entry.usable
            and (entry.config is config or entry.config == config)
            and _guard_holds(args, entry.guard, entry.key.parts)
        ):
            return self._hit(cache, entry, args)
        key = cache_key(api, config, args)
        if key is None:
            return None
        entry = cache.entries.get(key)
        if entry is None or not entry.usable or entry.api != api:
            return None
        if _guardable(args):
            entry.guard = args
            cache.recent[api] = entry
        return self._hit(cache, entry, args)

    @staticmethod
    def _hit(cache: ThreadCache, entry: CacheEntry, args: tuple[Any, ...]) -> tuple[int, OpExecCacheWrap, int]:
        cache.entries.move_to_end(entry.key)
        cache.hits += 1
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
                cache.entries.popitem(last=False)[1].cached = False
        replaced = cache.entries.get(key)
        if replaced is not None:
            replaced.cached = False
        entry = CacheEntry(executor.api, key, executor, executor.workspace_size or 0, config)
        if _guardable(args):
            entry.guard = args
            cache.recent[executor.api] = entry
        cache.entries[key] = entry
        executor.cache = entry

    def forget(self, executor: aclOpExecutor) -> None:
        """aclSetAclOpExecutorRepeatable: the entry leaves the shared cache and becomes private."""
        entry = executor.cache
        if isinstance(entry, CacheEntry):
            entry.cached = False
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
            wrap.ctx.diagnostics.report_released(
                wrap.ctx.registry,
                wrap.kind,
                wrap.key,
                wrap.api,
                "phase 2 on a cache replay object that was already freed",
                report_kind=ReportKind.EXECUTOR_REUSE,
            )
            raise AclnnError(f"{wrap.api}: the executor was already freed", msg_id=None)
        # one capture of the user's phase-2 call for the launch, initcheck and the replay object's release
        settings = wrap.ctx.settings
        site = capture_site() if settings.initcheck or wrap.ctx.registry.enabled else None
        try:
            if workspace_size > 0 and not workspace:
                raise AclnnParamNullptr(f"workspace is null but workspaceSize is {workspace_size}", msg_id=None)
            entry = wrap.entry
            compiled = entry.compiled
            if compiled is None and not entry.compile_tried:
                entry.compile_tried = True
                compiled = entry.compiled = compile_replay(entry.template)
            if compiled is not None and compiled.current():
                return compiled.run(workspace, stream, wrap.args, site)
            subst = substitutions(entry.template.l2_inputs, wrap.args)
            return entry.template.replay(workspace, workspace_size, stream, subst, site)
        finally:
            wrap.destroy(site)
