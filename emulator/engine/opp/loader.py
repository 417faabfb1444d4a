"""``LoadAllOppPackage``: the op packages of one process, merged and queryable.

Emulates opbase's package loading (``OpKernelLib::Initialize`` for ops-info, ``KernelMgr::
ParseDynamicKernelConfig`` for binary-config files, the lazy kernel-JSON read of ``OpKernelBin``).
The real library does this once per process (at aclnnInit or the first lookup);
the emulated process keeps the returned ``OppPackages``.

Fidelity notes:
- Directory listings are sorted; the real code uses ``readdir`` order, which the filesystem decides.
- Project requirement beyond the real code: a malformed ops-info, binary-config or kernel JSON file
  is refused (``refused`` + an ``opp.file_refused`` warning with ``code=561108``) and the rest loads;
  the real ops-info loader would fail the whole load with 561108. A missing root gives ``status``
  561107 and no packages instead of an exception.
- Binary-config and kernel-JSON files are read lazily, once per op / per bin, as in the real code;
  refusals found then are appended to ``refused``. The checked result of a shipped file is kept for
  the OS process (``shipped``); a refused one is read, and refused, again.
- A candidate config name with a path separator (from a hostile ``opFile.value``) is refused rather
  than followed out of the config directory.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

from emulator.config import Settings
from emulator.engine.opp import shipped
from emulator.engine.opp.binconfig import BinaryConfig, candidate_config_names, read_binary_config, with_repo_folder
from emulator.engine.opp.discovery import PackageRecord, discover_packages, kernel_root
from emulator.engine.opp.jsonio import JsonRefused, Refusal, merge_patch, read_json_object, refuse
from emulator.engine.opp.kernel_schema import kernel_json_problem
from emulator.engine.opp.ops_info_schema import ops_info_problem
from emulator.engine.opp.socdir import soc_directory
from emulator.lazylog import lazy_logger
from emulator.status import AclnnStatus

log = lazy_logger(__name__, logger_name="emulator.engine.opp")

OPS_LEGACY = "ops_legacy"
LEGACY_MARK = "ops-info-legacy"


class BinaryConfigHit(NamedTuple):
    """The binary-config file found for an op, its parsed content and the package it came from."""

    path: Path
    config: BinaryConfig
    package: PackageRecord


@dataclass
class OppPackages:
    """What ``LoadAllOppPackage`` found: packages in priority order, merged ops-info, refusals."""

    root: Path | None
    socdir: str
    packages: list[PackageRecord]
    ops_info: dict[str, Any]
    refused: list[Refusal]
    status: int = int(AclnnStatus.ACLNN_SUCCESS)
    _bin_configs: dict[str, BinaryConfigHit | None] = field(default_factory=dict, repr=False, compare=False)
    _kernel_jsons: dict[Path, dict[str, Any] | None] = field(default_factory=dict, repr=False, compare=False)
    _ops_folders: list[str] | None = field(default=None, repr=False, compare=False)
    _kernel_dirs: dict[PackageRecord, str] = field(default_factory=dict, repr=False, compare=False)
    _lock: threading.RLock = field(default_factory=threading.RLock, repr=False, compare=False)

    @property
    def builtin(self) -> PackageRecord | None:
        return next((p for p in self.packages if p.family == "built-in"), None)

    def package(self, name: str) -> PackageRecord | None:
        """The first package (highest priority) with this name."""
        return next((p for p in self.packages if p.name == name), None)

    def op_file(self, op_type: str) -> str | None:
        """``ops_info[op].opFile.value`` when it is a non-empty string."""
        entry = self.ops_info.get(op_type)
        op_file = entry.get("opFile") if isinstance(entry, dict) else None
        value = op_file.get("value") if isinstance(op_file, dict) else None
        return value if isinstance(value, str) and value else None

    def candidate_names(self, op_type: str) -> list[str]:
        """The binary-config file names searched for an op (new rule, old rule, then ``<opFile>.json``)."""
        return candidate_config_names(op_type, self.op_file(op_type))

    def binary_config(self, op_type: str) -> BinaryConfigHit | None:
        """The op's binary-config file, searched once per op in the real search order."""
        with self._lock:
            if op_type not in self._bin_configs:
                self._bin_configs[op_type] = self._search_binary_config(op_type)
            return self._bin_configs[op_type]

    def kernel_json_path(self, package: PackageRecord, json_file_path: str) -> Path | None:
        """``<package kernel dir>/<jsonFilePath>``, or ``None`` (refused) when it leaves that dir."""
        path = package.kernel_dir / json_file_path
        try:
            resolved = shipped.resolved_path(path) or str(path.resolve())  # a shipped file: one stat
            inside = shipped.is_within(resolved, self._resolved_kernel_dir(package))
        except (OSError, ValueError, RuntimeError):
            inside = False
        if not inside:
            with self._lock:
                refuse(self.refused, path, "jsonFilePath leaves the package kernel dir", code=None)
            return None
        return path

    def kernel_json(self, package: PackageRecord, json_file_path: str) -> dict[str, Any] | None:
        """The kernel JSON of one bin, read once; ``None`` when missing (not a refusal) or refused."""
        path = self.kernel_json_path(package, json_file_path)
        if path is None:
            return None
        with self._lock:
            if path not in self._kernel_jsons:
                self._kernel_jsons[path] = shipped.read_kept("kernel-json", path, partial(self._read_or_refuse, path))
            return self._kernel_jsons[path]

    def _resolved_kernel_dir(self, package: PackageRecord) -> str:
        """The package's kernel dir, resolved once for this process (the package list is fixed at load)."""
        found = self._kernel_dirs.get(package)
        if found is None:
            resolved = shipped.resolved_path(package.kernel_dir)  # shipped: one stat
            found = self._kernel_dirs[package] = resolved or str(package.kernel_dir.resolve())
        return found

    def _read_or_refuse(self, path: Path) -> dict[str, Any] | None:
        if not path.exists():
            log.debug("opp.kernel_json_missing", path=str(path))
            return None
        try:
            data = read_json_object(path)
        except JsonRefused as exc:
            refuse(self.refused, exc.path, exc.reason)
            return None
        problem = kernel_json_problem(data)
        if problem is not None:
            refuse(self.refused, path, problem)
            return None
        return data

    def _search_binary_config(self, op_type: str) -> BinaryConfigHit | None:
        names = self._safe_names(op_type)
        for package in self.packages:
            if package.family != "built-in" and (hit := self._try_dir(package, "", names)):
                return hit
        builtin = self.builtin
        if builtin is None:
            return None
        if hit := self._try_dir(builtin, "", names):  # most ops: listing the sub-folders is not needed
            return hit
        for folder in self._builtin_ops_folders(builtin)[1:]:
            if hit := self._try_dir(builtin, folder, names):
                return hit
        return None

    def _safe_names(self, op_type: str) -> list[str]:
        names = []
        for name in self.candidate_names(op_type):
            if "/" in name or "\\" in name or name.startswith(".."):
                refuse(self.refused, Path(name), f"config name for {op_type} is not a plain file name", code=None)
            else:
                names.append(name)
        return names

    def _try_dir(self, package: PackageRecord, folder: str, names: list[str]) -> BinaryConfigHit | None:
        directory = package.bin_config_dir / folder if folder else package.bin_config_dir
        for name in names:
            path = directory / name
            if not path.exists():
                continue
            try:
                config = read_config_kept(path, package.impl_dir)
            except JsonRefused as exc:
                refuse(self.refused, exc.path, exc.reason)
                continue
            return BinaryConfigHit(path, with_repo_folder(config, folder) if folder else config, package)
        return None

    def _builtin_ops_folders(self, builtin: PackageRecord) -> list[str]:
        """``""``, then every sub-folder of the built-in config dir, with ``ops_legacy`` last (computed once)."""
        if self._ops_folders is None:
            try:
                with os.scandir(builtin.bin_config_dir) as entries:  # dirent types: no stat per folder
                    found = sorted(entry.name for entry in entries if entry.is_dir())
            except OSError:
                found = []
            legacy = [OPS_LEGACY] if OPS_LEGACY in found else []
            self._ops_folders = ["", *(name for name in found if name != OPS_LEGACY), *legacy]
        return self._ops_folders


def read_config_kept(path: Path, root: Path) -> BinaryConfig:
    """One binary config, parsed once per OS process for each package root it is read under.

    The root is in the key because the "resolves outside its package" check depends on it: a custom
    package whose config is a link into the shipped package must be refused even after the shipped
    package's own read of the same file was kept.
    """
    return shipped.read_kept("binary-config", path, partial(read_binary_config, path, root=root), (str(root),))


def _json_files(directory: Path) -> list[Path]:
    try:
        return sorted(entry for entry in directory.iterdir() if entry.name.endswith(".json"))
    except OSError:
        return []


def ops_info_files(package: PackageRecord) -> list[Path]:
    """A package's ops-info files in load order; the built-in legacy file goes last."""
    files = _json_files(package.ops_info_dir)
    if package.family != "built-in":
        return files
    legacy = [path for path in files if LEGACY_MARK in path.name]
    return [path for path in files if path not in legacy] + legacy


def merge_ops_info(packages: list[PackageRecord], refused: list[Refusal]) -> dict[str, Any]:
    """Merge every ops-info file, lowest priority first, with RFC 7386 merge patch.

    The result of the shipped files alone is merged once per OS process (``shipped``); callers
    only read it.
    """
    files = [(path, package.impl_dir) for package in packages for path in ops_info_files(package)]
    # the roots are part of the key: a file reached through another package (a link into the shipped
    # one) is checked against that package's root, not served from the shipped package's parse
    key = shipped.key_of("ops-info", [path for path, _ in files], tuple(str(root) for _, root in files))
    if (found := shipped.kept(key)) is not None:
        return found
    refusals_before = len(refused)
    merged: dict[str, Any] = {}
    for path, root in reversed(files):
        try:
            data = read_json_object(path, root=root)
            problem = ops_info_problem(data)
            if problem is not None:
                raise JsonRefused(path, problem)
            merged = merge_patch(merged, data)
        except JsonRefused as exc:
            refuse(refused, exc.path, exc.reason)
        except RecursionError:
            refuse(refused, path, "JSON nested too deeply to merge")
    return shipped.keep(key, merged) if len(refused) == refusals_before else merged


def LoadAllOppPackage(settings: Settings, soc_version: str) -> OppPackages:  # noqa: N802 (the CANN name)
    """Find and merge the op packages for a SoC; bad files are refused, nothing is raised."""
    socdir = soc_directory(soc_version)
    root = kernel_root(settings)
    refused: list[Refusal] = []
    if root is None:
        status = int(AclnnStatus.ACLNN_ERR_INNER_OPP_PATH_NOT_FOUND)
        log.warning("opp.root_not_found", opp_path=str(settings.opp_path), code=status)
        return OppPackages(None, socdir, [], {}, refused, status)
    packages = discover_packages(settings, root, socdir, refused)
    for package in packages:
        log.info("opp.package_loaded", family=package.family, name=package.name, impl_dir=str(package.impl_dir))
    ops_info = merge_ops_info(packages, refused)
    log.info("opp.loaded", root=str(root), socdir=socdir, ops=len(ops_info), refused=len(refused))
    return OppPackages(root, socdir, packages, ops_info, refused)
