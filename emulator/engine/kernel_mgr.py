"""KernelMgr -> OpKernel -> OpKernelBin -> TilingParseCtxHolder: finding and preparing binaries.

Emulates opbase's kernel manager:
- one ``OpKernel`` per op type, built lazily on the first call that touches the op, from the op's
  binary-config file in the loaded packages (once per process: fixing a file on disk afterwards
  has no effect, as in the real code);
- the debug-kernel switch is read when that happens, as the real ParseDynamicKernels reads it:
  the op's bins are debug binaries for the rest of the process if it was on then, and a later
  aclnnInit that turns it on or off does not change an op already registered;
- one ``OpKernelBin`` per ``binList`` entry, keyed by its match key; its kernel JSON is read on first
  selection; a bin whose kernel JSON is missing cannot be launched;
- one ``TilingParseCtxHolder`` per (bin, aic, aiv): TilingParse runs once for the process; a failure
  is reported as 361001 and, as in the real code, the once-flag is spent (later calls run without a
  holder); ``ReleaseTilingParse`` (aclnnFinalize) drops the compile info but never re-arms the flag,
  so a later tiling uses released state — reported as a use after finalize.
The "binaries" are the Python kernels of ``OpImpl``; no ``.o`` file is read.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from emulator.diagnostics import Diagnostics, ReportKind
from emulator.engine.keys import KeySchema
from emulator.engine.opp import OppPackages, shipped
from emulator.engine.opp.binconfig import BinEntry
from emulator.engine.opp.discovery import PackageRecord
from emulator.engine.tiling import OpImpl, PlatformInfo
from emulator.errors import AclnnError, AclnnRuntimeError
from emulator.lazylog import lazy_logger
from emulator.status import AclnnStatus
from emulator.tracking import Registry, ResourceKind

log = lazy_logger(__name__, logger_name="emulator.engine.kernel")

MIX_CORE_TYPES = ("MIX_AIV", "MIX_VECTOR_CORE")


@dataclass
class TilingParseCtxHolder:
    """The parsed compile info of one bin for one (aic, aiv) core configuration."""

    core_num: int
    compile_info_json: str
    compile_info: Any = None
    released: bool = False


@dataclass
class OpKernelBin:
    op_type: str
    entry: BinEntry
    package: PackageRecord
    keys: list[bytes]
    registry: Registry = field(repr=False)
    diagnostics: Diagnostics = field(repr=False)
    debug: bool = False  # a debug binary: registered while the debug-kernel switch was on
    kernel_json: dict[str, Any] | None = None
    holders: dict[tuple[int, int], TilingParseCtxHolder | None] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def json_file_path(self) -> str:
        return self.entry.bin_info.json_file_path or ""

    def json_load(self, packages: OppPackages) -> dict[str, Any]:
        if self.kernel_json is None:
            loaded = packages.kernel_json(self.package, self.json_file_path)
            if loaded is None:
                raise AclnnError(
                    f"{self.op_type}: kernel json {self.json_file_path} is missing or unreadable",
                    msg_id="EZ9999",
                    op_type=self.op_type,
                )
            self.kernel_json = loaded
        return self.kernel_json

    @property
    def has_workspace(self) -> bool:
        data = self.kernel_json or {}
        mix = any(isinstance(k, dict) and k.get("coreType") == "MIX" for k in data.get("kernelList", []) or [])
        return "workspace" in data or mix

    @property
    def core_type(self) -> str | None:
        return (self.kernel_json or {}).get("coreType")

    def core_num(self, aic: int, aiv: int, npu_arch: int) -> int:
        """SetCoreNum (9.2): which core count tiling is told, by the bin's coreType."""
        core_type = self.core_type
        if core_type == "VectorCore":
            return aiv
        if core_type == "MIX":
            return _mix_cores(str((self.kernel_json or {}).get("taskRation", "")), aic, aiv)
        if core_type in MIX_CORE_TYPES and npu_arch == 2002:
            return aic + aiv
        return aic

    def holder(self, impl: OpImpl, platform: PlatformInfo) -> TilingParseCtxHolder | None:
        """InitTilingParseCtx: once per (aic, aiv) for the process, failures included."""
        key = (platform.aic_num, platform.aiv_num)
        with self.lock:
            if key in self.holders:
                holder = self.holders[key]
                if holder is not None and holder.released:
                    self.diagnostics.report(
                        f"{self.op_type} tiling",
                        f"the tiling-parse context of {self.json_file_path} was released by aclnnFinalize "
                        "and is never parsed again (its compile info is gone)",
                        kind=ReportKind.USE_AFTER_DESTROY,
                    )
                return holder
            self.holders[key] = None  # the once-flag is spent even if the build fails
            compile_info_json = json.dumps((self.kernel_json or {}).get("compileInfo"))
            if impl.tiling is None:
                raise AclnnRuntimeError(f"{self.op_type}: the op has no tiling function", msg_id="EZ9999")
            parsed = None
            if impl.tiling_parse is not None:
                parsed = impl.tiling_parse((self.kernel_json or {}).get("compileInfo"), platform)
                if parsed is None:
                    raise AclnnRuntimeError(f"{self.op_type}: TilingParse failed", msg_id="EZ9999")
            holder = TilingParseCtxHolder(platform.core_num, compile_info_json, parsed)
            self.holders[key] = holder
            self.registry.add(ResourceKind.TILING_PARSE, id(holder), tag=self.json_file_path)
            log.debug("kernel.tiling_parse", op_type=self.op_type, bin=self.json_file_path, cores=key)
            return holder

    def release_tiling_parse(self) -> int:
        released = 0
        with self.lock:
            for holder in self.holders.values():
                if holder is not None and not holder.released:
                    holder.compile_info = None
                    holder.released = True
                    released += 1
                    self.registry.remove(ResourceKind.TILING_PARSE, id(holder))
        return released


def _mix_cores(ratio: str, aic: int, aiv: int) -> int:
    """The MIX rule: min(aic // a, aiv // b) with a 0 divisor ignored; 0 -> 1; unusable ratio -> aiv."""
    try:
        a, b = (int(part) for part in ratio.split(":"))
    except ValueError:
        return aiv
    if a == 0 and b == 0:
        return aiv
    terms = [aic // a if a else None, aiv // b if b else None]
    value = min(t for t in terms if t is not None)
    return max(value, 1)


@dataclass(frozen=True, slots=True)
class KeyTable:
    """An op's selection table over its usable bins: the schema, each bin's keys, and which bin serves
    each key (the first one that has it; ``duplicates`` lists the later bin of each key already taken).
    Nothing here belongs to an emulated process, so a shipped config's table is kept for the OS process."""

    schema: KeySchema
    keys: list[list[bytes]]
    index: dict[bytes, int]
    duplicates: list[int]


def _key_table(entries: list[BinEntry]) -> KeyTable:
    """The key table of an op's usable bins (the schema is only read after this)."""
    schema = KeySchema.from_bins(entries)
    keys = schema.build_all_keys(entries)
    index: dict[bytes, int] = {}
    duplicates: list[int] = []
    for i, entry_keys in enumerate(keys):
        for key in entry_keys:
            if key in index:
                duplicates.append(i)
            else:
                index[key] = i
    return KeyTable(schema, keys, index, duplicates)


@dataclass
class OpKernel:
    """One op type's binaries in an emulated process.

    An ``OpKernelBin`` (its kernel JSON, its TilingParse holders) is made when a call first selects
    it: a first call of Add needs one of its 13, and building the others was a tenth of that call.
    ``bins`` and ``all_bins`` make every one, for readers that want them all.
    """

    op_type: str
    table: KeyTable
    entries: list[BinEntry]
    package: PackageRecord | None
    registry: Registry = field(repr=False)
    diagnostics: Diagnostics = field(repr=False)
    debug: bool = False  # the debug-kernel switch as it was when the op was registered
    _made: dict[int, OpKernelBin] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def schema(self) -> KeySchema:
        return self.table.schema

    @property
    def all_bins(self) -> list[OpKernelBin]:
        """Every bin, in ``binList`` order."""
        return [self.bin_at(i) for i in range(len(self.entries))]

    @property
    def bins(self) -> dict[bytes, OpKernelBin]:
        """Each key and the bin that serves it."""
        return {key: self.bin_at(i) for key, i in self.table.index.items()}

    def made_bins(self) -> list[OpKernelBin]:
        """The bins a call has selected so far (the only ones with TilingParse state)."""
        with self._lock:
            return list(self._made.values())

    def bin_at(self, i: int) -> OpKernelBin:
        with self._lock:
            found = self._made.get(i)
            if found is None:
                assert self.package is not None  # entries come from a package's config
                found = self._made[i] = OpKernelBin(
                    self.op_type,
                    self.entries[i],
                    self.package,
                    self.table.keys[i],
                    self.registry,
                    self.diagnostics,
                    self.debug,
                )
            return found

    def select(self, inputs: list[Any], outputs: list[Any], attrs: list[Any], impl_mode: int, det: bool) -> OpKernelBin:
        if not self.entries:
            log.error(
                "kernel.no_bins", op_type=self.op_type, code=int(AclnnStatus.ACLNN_ERR_INNER_OPP_KERNEL_PKG_NOT_FOUND)
            )
            raise AclnnError(f"{self.op_type} does not have any binary", msg_id="EZ9999", op_type=self.op_type)
        mode = self.schema.current_impl_mode(impl_mode)
        key = self.schema.runtime_key(inputs, outputs, attrs, mode, det)
        found = self.table.index.get(key) if key is not None else None
        if found is None:
            raise AclnnError(
                f"{self.op_type}: the dtype or format of the actual input or output parameter of the operator is "
                "inconsistent with that defined in the operator prototype OpDef",
                msg_id="EZ9999",
                op_type=self.op_type,
                key=key,
            )
        return self.bin_at(found)


class KernelMgr:
    """The process's kernel manager: op kernels by type, built lazily from the loaded packages."""

    def __init__(
        self,
        packages_source: Callable[[], OppPackages],
        registry: Registry,
        diagnostics: Diagnostics,
        debug_flag: Callable[[], bool] = lambda: False,
    ) -> None:
        self._packages_source = packages_source  # loads the packages once per process, on first use
        self._debug_flag = debug_flag  # GetEnableDebugKernelFlag: read once per op type, at registration
        self._registry = registry
        self._diagnostics = diagnostics
        self._kernels: dict[str, OpKernel] = {}
        self._lock = threading.Lock()

    @property
    def packages(self) -> OppPackages:
        packages: OppPackages = self._packages_source()
        return packages

    def op_kernel(self, op_type: str) -> OpKernel:
        with self._lock:
            kernel = self._kernels.get(op_type)
            if kernel is None:
                kernel = self._kernels[op_type] = self._build(op_type)
            return kernel

    def _build(self, op_type: str) -> OpKernel:
        hit = self.packages.binary_config(op_type)
        entries = [e for e in hit.config.bin_list if e.usable] if hit is not None else []
        if hit is None:
            table = _key_table(entries)
        else:
            paths = tuple(entry.bin_info.json_file_path for entry in entries)  # the repo folder is in them
            table = shipped.read_kept("kernel-keys", hit.path, partial(_key_table, entries), paths)
        debug = self._debug_flag()
        for i in table.duplicates:
            log.warning("kernel.duplicate_key", op_type=op_type, bin=entries[i].bin_info.json_file_path or "")
        log.info("kernel.op_initialised", op_type=op_type, bins=len(entries), keys=len(table.index), debug_kernel=debug)
        package = hit.package if hit is not None else None
        return OpKernel(op_type, table, entries, package, self._registry, self._diagnostics, debug)

    def loaded(self) -> list[OpKernel]:
        return list(self._kernels.values())

    def release_tiling_parse(self) -> int:
        """ReleaseTilingParse (aclnnFinalize): forget the compile info of every holder; never re-parse."""
        released = sum(b.release_tiling_parse() for k in self._kernels.values() for b in k.made_bins())
        log.debug("kernel.release_tiling_parse", holders=released)
        return released
