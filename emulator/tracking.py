"""The live-resource registry: every handle and allocation, with where the user created it.

The real stack keeps no such list; it is what lets the emulator say where a leaked tensor,
stream or device buffer came from. A creation *site* is the first stack frame outside the
emulator's own packages (``emulator``, ``device``, ``kernels``) plus a few frames above it,
cut where the user's code was entered from a runner (pytest and pluggy, pytest-xdist, hypothesis,
a thread's bootstrap, runpy): those frames are the same for every resource and only bury the lines
that differ.
Capturing it walks raw frames (no ``inspect``, no source lines) and keeps (code object,
instruction offset) pairs, never a frame (which would keep the caller's locals alive); file names
and line numbers are worked out only when a report reads the site. Released resources are
remembered for a while with the site that released them, so a use-after-destroy can name both
sites.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import sys
import threading
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from types import CodeType, FrameType, MappingProxyType


class ResourceKind(StrEnum):
    """What the registry tracks. String-valued: reports, JSON traces and suppression files show the value."""

    # the runtime (acl.rt)
    DEVICE = "device"
    CONTEXT = "context"
    STREAM = "stream"
    EVENT = "event"
    DEVICE_MEMORY = "device_memory"
    HOST_MEMORY = "host_memory"
    # acl objects (acl_base.h)
    DATA_BUFFER = "data_buffer"
    TENSOR_DESC = "tensor_desc"
    VIRTUAL_RANGE = "virtual_range"  # aclrtReserveMemAddress
    PHYSICAL_MEMORY = "physical_memory"  # aclrtMallocPhysical
    MODEL_RI = "model_ri"  # aclmdlRICaptureEnd
    # aclnn objects
    TENSOR = "tensor"
    SCALAR = "scalar"
    INT_ARRAY = "int_array"
    FLOAT_ARRAY = "float_array"
    BOOL_ARRAY = "bool_array"
    TENSOR_LIST = "tensor_list"
    SCALAR_LIST = "scalar_list"
    # the op engine
    EXECUTOR = "executor"
    AICPU_TASK_SPACE = "aicpu_task_space"
    AICPU_TASK = "aicpu_task"
    TILING_PARSE = "tiling_parse"
    # a handle kind that is never registered: an executor-owned tensor goes with its executor
    EXEC_TENSOR = "exec_tensor"


# Caches, not leaks: the library's own process caches, which the user cannot free one by one and
# the real stack frees itself at aclnnFinalize (and at aclFinalize, which runs aclnnFinalize's
# steps): aclnnAicpuFinalize clears every AI CPU task space (its
# tasks and their host argument buffers) and empties the set of spaces, and
# KernelMgr.ReleaseTilingParse releases the tiling-parse compile info. Executors are not here: the
# user destroys them (or phase 2 releases them), and aclnnFinalize leaves a live one alive. The op
# cache is per thread and not registered. A leak report counts these apart while the program can
# still call aclnnFinalize (once per process, so a test never should); a report at program end
# counts them as leaks, since then aclnnFinalize never ran.
CACHE_KINDS = frozenset({ResourceKind.TILING_PARSE, ResourceKind.AICPU_TASK_SPACE, ResourceKind.AICPU_TASK})


def _package_dir(name: str) -> str:
    """A subpackage's folder, found without importing it (device/ and kernels/ sit at the repo top)."""
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.submodule_search_locations, f"{name} is part of the distribution"
    return str(Path(next(iter(spec.submodule_search_locations))).resolve())


LIBRARY_DIRS = (str(Path(__file__).resolve().parent), _package_dir("emulator.device"), _package_dir("emulator.kernels"))
# What runs the user's code rather than being it: a stack is cut at the first of these frames.
RUNNER_MODULES = ("pytest", "_pytest", "pluggy", "xdist", "execnet", "hypothesis", "py", "runpy", "threading")


def _runner_prefixes(names: tuple[str, ...]) -> tuple[str, ...]:
    """The folders (packages) or files (modules) of the runner modules that are installed, found without importing.

    Both the path as spelled and the resolved one: a code object's file name keeps the sys.path
    spelling it was imported under, which may go through a symlink.
    """
    prefixes: list[str] = []
    for name in names:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        if spec is None:
            continue
        if spec.submodule_search_locations:
            places = [Path(folder) for folder in spec.submodule_search_locations]
            suffix = os.sep
        elif spec.origin and os.path.isabs(spec.origin):
            places, suffix = [Path(spec.origin)], ""
        else:
            continue  # a frozen module: its frames are "<frozen ...>", recognised by name
        for place in places:
            prefixes.extend({str(place) + suffix, str(place.resolve()) + suffix})
    return tuple(prefixes)


RUNNER_PREFIXES = _runner_prefixes(RUNNER_MODULES)
STACK_DEPTH = 4
GRAVEYARD_SIZE = 4096
get_ident = threading.get_ident  # read once: Registry.add stamps every resource with it
_getframe = sys._getframe


@dataclass(frozen=True, slots=True)
class Frame:
    file: str
    line: int
    func: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line} in {self.func}"


def line_of(code: CodeType, lasti: int) -> int:
    """The source line of the instruction at byte offset ``lasti``: what ``frame.f_lineno`` says.

    Worked out from the code object's line table only when a report reads the site, so a capture
    stores the offset (one attribute read) instead of decoding the table for every frame.
    """
    if lasti < 0:
        return code.co_firstlineno  # a frame that has not started yet
    for start, end, line in code.co_lines():
        if start <= lasti < end:
            return line if line is not None else code.co_firstlineno
    return code.co_firstlineno


class Site:
    """Where a user call happened: the first frame outside the library and the frames above it.

    It keeps raw (code object, instruction offset) pairs — never the frames, which would keep the
    caller's locals alive — and makes ``Frame`` objects (file, line, function) only when a report
    reads them, because most sites are never looked at.
    """

    __slots__ = ("_raw",)

    def __init__(self, raw: tuple[tuple[CodeType, int], ...]) -> None:
        self._raw = raw

    @property
    def stack(self) -> tuple[Frame, ...]:
        return tuple(Frame(code.co_filename, line_of(code, lasti), code.co_name) for code, lasti in self._raw)

    @property
    def top(self) -> Frame | None:
        return self.stack[0] if self._raw else None

    def __str__(self) -> str:
        if not self._raw:
            return "<unknown>"
        code, lasti = self._raw[0]
        return f"{code.co_filename}:{line_of(code, lasti)}"

    def __repr__(self) -> str:
        return f"Site({self})"


# A memo of what each source file is (True: the library's, False: user code, None: a runner's —
# frozen modules such as runpy's, pytest's, a thread's bootstrap). Keyed by the file name, which is
# all the kind depends on: a str caches its hash, where a code object's hash is worked out anew on
# every lookup (its bytecode, constants and names: ~0.4 µs a frame). Not process state: the same in
# every emulated process, so it outlives fresh().
class _FileKinds(dict[str, bool | None]):
    """The memo: a miss works the kind out once from the file name, a hit is one dict lookup."""

    def __missing__(self, name: str) -> bool | None:
        kind: bool | None
        if name.startswith(LIBRARY_DIRS):
            kind = True
        elif name.startswith("<frozen") or name.startswith(RUNNER_PREFIXES):
            kind = None
        else:
            kind = False
        self[name] = kind
        return kind


_FILE_KIND = _FileKinds()


# Set by the C SDK's bridge when its core starts: the site of the C call this thread is running, if
# any. Read only when no Python frame is above the library's (the call came from C).
NATIVE_SITE: Callable[[], Site | None] | None = None


def capture_site(skip: int = 1) -> Site:
    """The caller's site: skip the library's frames, keep the next STACK_DEPTH (code, offset) pairs.

    When there is no Python frame above the library's, the call came from C (the SDK's
    libraries): the site is that C caller's, read from the C core, and the program's own code
    is the user code then.

    Every resource event captures one, so the walk above the first user frame is written out for
    STACK_DEPTH = 4 (a loop with its list and length test costs a quarter more); ``walk_site`` is
    the same walk as a loop, for any depth (the tests hold the two equal).
    """
    kinds = _FILE_KIND
    frame: FrameType | None = _getframe(skip)
    while frame is not None:
        code = frame.f_code
        if kinds[code.co_filename] is not True:
            break
        frame = frame.f_back
    else:
        return _native_site()
    # the first frame outside the library, whatever it is; above it only the user's own frames
    # (the runner — runpy, the CLI, pytest, a thread's bootstrap — is not part of the user's stack)
    f1 = frame.f_back
    if f1 is None or kinds[(c1 := f1.f_code).co_filename] is not False:
        return Site(((code, frame.f_lasti),))
    f2 = f1.f_back
    if f2 is None or kinds[(c2 := f2.f_code).co_filename] is not False:
        return Site(((code, frame.f_lasti), (c1, f1.f_lasti)))
    f3 = f2.f_back
    if f3 is None or kinds[(c3 := f3.f_code).co_filename] is not False:
        return Site(((code, frame.f_lasti), (c1, f1.f_lasti), (c2, f2.f_lasti)))
    return Site(((code, frame.f_lasti), (c1, f1.f_lasti), (c2, f2.f_lasti), (c3, f3.f_lasti)))


def walk_site(skip: int = 1, depth: int = STACK_DEPTH) -> Site:
    """``capture_site`` as a plain loop over ``depth`` frames: the reference the written-out walk is tested against."""
    kinds = _FILE_KIND
    frame: FrameType | None = sys._getframe(skip)
    while frame is not None:
        if kinds[frame.f_code.co_filename] is not True:
            break
        frame = frame.f_back
    if frame is None:
        return _native_site()
    raw = [(frame.f_code, frame.f_lasti)]
    while len(raw) < depth:
        frame = frame.f_back
        if frame is None:
            break
        code = frame.f_code
        if kinds[code.co_filename] is not False:
            break
        raw.append((code, frame.f_lasti))
    return Site(tuple(raw))


def _native_site() -> Site:
    """No Python frame above the library's: the C caller's site when the SDK knows it, else an unknown one."""
    if NATIVE_SITE is not None:
        native = NATIVE_SITE()
        if native is not None:
            return native
    return Site(())


assert STACK_DEPTH == 4, "capture_site's walk is written out for four frames"


class Resource:
    """One registered handle or allocation: what a leak or use-after-free report says about it.

    A plain class with slots rather than a dataclass: one is made per resource event, and the
    dataclass's eleven-field ``__init__`` with a ``dict`` factory was a third of a handle's add.
    The ``detail`` dict (the extra fields a few kinds carry) is made on first read, as most
    resources have none; equality and repr are the dataclass's (every field, in order).
    """

    __slots__ = ("_detail", "device", "key", "kind", "owner", "ref", "released_at", "site", "size", "tag", "thread")
    FIELDS = ("kind", "key", "site", "thread", "size", "device", "tag", "owner", "detail", "released_at", "ref")
    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value: unhashable, as the dataclass was

    def __init__(
        self,
        kind: ResourceKind,
        key: int,
        site: Site,
        thread: int,
        size: int | None = None,
        device: int | None = None,
        tag: str | None = None,
        owner: tuple[ResourceKind, int] | None = None,  # the resource this one belongs to (a list's member …)
        detail: dict[str, object] | None = None,
        released_at: Site | None = None,
        ref: object = None,  # the handle object itself: a leaked handle stays alive, so its key (id) is never reused
    ) -> None:
        self.kind = kind
        self.key = key
        self.site = site
        self.thread = thread
        self.size = size
        self.device = device
        self.tag = tag
        self.owner = owner
        self._detail = detail
        self.released_at = released_at
        self.ref = ref

    @property
    def detail(self) -> dict[str, object]:
        detail = self._detail
        if detail is None:
            detail = self._detail = {}
        return detail

    @detail.setter
    def detail(self, value: dict[str, object]) -> None:
        self._detail = value

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Resource)
        return self._fields() == other._fields()

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{type(self).__name__}({fields})"


class Registry:
    """Live resources by (kind, key); counts of everything created and released.

    Every add and remove of a handle or an allocation passes here, so each does a few dict
    operations under the lock and nothing else: the per-kind counts are plain ints (``created``
    and ``released`` build their Counters when read), the listeners' loop runs only when a trace
    listens, and the graveyard is a plain dict trimmed in batches (it remembers at least the newest
    GRAVEYARD_SIZE releases, at most twice as many).
    """

    def __init__(self, *, enabled: bool = True) -> None:
        self.enabled = enabled  # OPBASE_EMU_TRACKING=0 turns registration (and site capture) off
        self.listeners: list[Callable[[str, Resource], None]] = []  # the trace hooks in here
        self._live: dict[tuple[ResourceKind, int], Resource] = {}
        # read-only, for the hot paths that ask about several handles per call (one lookup each, no call)
        self.entries: Mapping[tuple[ResourceKind, int], Resource] = MappingProxyType(self._live)
        self._graveyard: dict[tuple[ResourceKind, int], Resource] = {}
        self._created: dict[ResourceKind, int] = dict.fromkeys(ResourceKind, 0)
        self._released: dict[ResourceKind, int] = dict.fromkeys(ResourceKind, 0)
        self._lock = threading.Lock()

    @property
    def created(self) -> Counter[ResourceKind]:
        """How many of each kind were registered (kinds never made are absent, as in a Counter)."""
        return Counter({kind: n for kind, n in self._created.items() if n})

    @property
    def released(self) -> Counter[ResourceKind]:
        """How many of each kind were released."""
        return Counter({kind: n for kind, n in self._released.items() if n})

    def add(
        self,
        kind: ResourceKind,
        key: int,
        *,
        size: int | None = None,
        device: int | None = None,
        tag: str | None = None,
        owner: tuple[ResourceKind, int] | None = None,
        ref: object = None,
        **detail: object,
    ) -> Resource | None:
        if not self.enabled:
            return None
        res = Resource(kind, key, capture_site(2), get_ident(), size, device, tag, owner, detail or None, None, ref)
        self._enter(kind, key, res)
        return res

    def add_fast(
        self,
        kind: ResourceKind,
        key: int,
        ref: object = None,
        size: int | None = None,
        device: int | None = None,
        tag: str | None = None,
        detail: dict[str, object] | None = None,
    ) -> Resource | None:
        """``add`` for the hot callers (tensors, scalars, arrays, executors, device buffers): positional, no owner.

        The same resource, site and events as ``add``; only the keyword parsing and the ``**detail``
        dict are left out, and the bookkeeping is written out here instead of called.
        """
        if not self.enabled:
            return None
        res = Resource(kind, key, capture_site(2), get_ident(), size, device, tag, None, detail, None, ref)
        ident = (kind, key)
        lock = self._lock
        lock.acquire()  # acquire/release: a third of what a with-block costs here, on every add and remove
        try:
            self._live[ident] = res
            self._graveyard.pop(ident, None)
            try:
                self._created[kind] += 1
            except KeyError:  # a kind outside ResourceKind (only a test passes one) gets its own count
                self._created[kind] = 1
        finally:
            lock.release()
        if self.listeners:
            for listener in self.listeners:
                listener("created", res)
        return res

    def _enter(self, kind: ResourceKind, key: int, res: Resource) -> None:
        """Make ``res`` live (a re-used key leaves the graveyard) and tell the listeners."""
        ident = (kind, key)
        lock = self._lock
        lock.acquire()
        try:
            self._live[ident] = res
            self._graveyard.pop(ident, None)
            try:
                self._created[kind] += 1
            except KeyError:
                self._created[kind] = 1
        finally:
            lock.release()
        if self.listeners:
            for listener in self.listeners:
                listener("created", res)

    def remove(self, kind: ResourceKind, key: int, *, site: Site | None = None) -> Resource | None:
        """``site``: where it was released when the caller has captured that already (else captured here)."""
        if not self.enabled:
            return None
        ident = (kind, key)
        lock = self._lock
        lock.acquire()
        try:
            res = self._live.pop(ident, None)
            if res is None:
                return None
            try:
                self._released[kind] += 1
            except KeyError:
                self._released[kind] = 1
            res.released_at = capture_site(2) if site is None else site
            res.ref = None
            graveyard = self._graveyard
            graveyard[ident] = res
            if len(graveyard) > 2 * GRAVEYARD_SIZE:
                # forget all but the newest GRAVEYARD_SIZE (a dict keeps insertion order) in one go:
                # dropping the oldest one at a time would walk the dict's emptied front every time
                for old in list(itertools.islice(graveyard, len(graveyard) - GRAVEYARD_SIZE)):
                    del graveyard[old]
        finally:
            lock.release()
        if self.listeners:
            for listener in self.listeners:
                listener("released", res)
        return res

    def get(self, kind: ResourceKind, key: int) -> Resource | None:
        return self._live.get((kind, key))

    def released_resource(self, kind: ResourceKind, key: int) -> Resource | None:
        """A resource that was live once and has been released (for use-after-free reports)."""
        return self._graveyard.get((kind, key))

    def live(self, kind: ResourceKind | None = None) -> list[Resource]:
        with self._lock:
            return [r for r in self._live.values() if kind is None or r.kind == kind]

    def count(self, kind: ResourceKind | None = None) -> int:
        if kind is None:
            return len(self._live)
        return sum(1 for (k, _) in self._live if k == kind)
