"""Finding the op packages on disk: the OPP root, custom packages, vendor packages, the built-in one.

Emulates opbase's path resolution (``GetOppKernelPath`` and the package list of
``OpKernelLib::Initialize``).

Fidelity notes:
- Root: ``$ASCEND_HOME_PATH/opp_latest`` if it exists, else ``ASCEND_OPP_PATH``; when neither is
  set the emulator uses the package shipped in ``kernels/opp`` (the stand-in for an installed CANN).
- Vendors are read under the raw ``ASCEND_OPP_PATH`` (or the shipped package), never under
  ``opp_latest``, as in the real code.
- Project requirement beyond the real code: a vendor entry whose realpath leaves ``<opp>/vendors``
  (``priority=../../etc``, or a symlink pointing elsewhere) is refused with ``opp.vendor_refused``.
  Vendor and custom directories that do not exist are skipped silently, as in the real code.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from emulator.config import Settings
from emulator.engine.opp.jsonio import Refusal, refuse
from emulator.engine.opp.vendors import parse_vendors_config
from emulator.lazylog import lazy_logger

log = lazy_logger(__name__, logger_name="emulator.engine.opp")

IMPL_SUBDIR = Path("op_impl") / "ai_core" / "tbe"
Family = Literal["custom", "vendor", "built-in"]


@dataclass(frozen=True, slots=True)
class PackageRecord:
    """One loaded op package: its family, its name and its AI-core impl directory.

    The two directories every op look-up joins paths onto are made once, with the record (a pathlib
    join is a few µs, and an op's first call made six of them)."""

    family: Family
    name: str
    impl_dir: Path
    socdir: str
    kernel_dir: Path = field(init=False, repr=False, compare=False)
    bin_config_dir: Path = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        kernel_dir = self.impl_dir / "kernel"
        object.__setattr__(self, "kernel_dir", kernel_dir)
        object.__setattr__(self, "bin_config_dir", kernel_dir / "config" / self.socdir)

    @property
    def ops_info_dir(self) -> Path:
        return self.impl_dir / "config" / self.socdir


def shipped_opp_path() -> Path:
    """The op package shipped with the project (``kernels/opp``, installed as ``emulator.kernels``).

    Found through the import system's spec (which imports no op module), so it is right in an
    editable install, where the folder sits at the repository top, and in a wheel alike.
    """
    spec = importlib.util.find_spec("emulator.kernels")
    assert spec is not None and spec.submodule_search_locations, "emulator.kernels is part of the distribution"
    return Path(next(iter(spec.submodule_search_locations))).resolve() / "opp"


def _realpath(path: Path) -> Path | None:
    try:
        return path.resolve()
    except (OSError, ValueError, RuntimeError):
        return None


def kernel_root(settings: Settings) -> Path | None:
    """The OPP root for kernels, or ``None`` when it does not exist (561107)."""
    if settings.home_path is not None:
        latest = _realpath(settings.home_path / "opp_latest")
        if latest is not None and latest.exists():
            return latest
    base = settings.opp_path if settings.opp_path is not None else shipped_opp_path()
    return base if base.is_dir() else None


def vendor_base(settings: Settings) -> Path:
    """Where ``vendors/`` is read: the raw ``ASCEND_OPP_PATH``, or the shipped package."""
    return settings.opp_path if settings.opp_path is not None else shipped_opp_path()


def custom_packages(settings: Settings, socdir: str) -> list[PackageRecord]:
    """``ASCEND_CUSTOM_OPP_PATH`` entries whose impl dir exists, in env order (first = highest)."""
    records = []
    for entry in settings.custom_opp_paths:
        impl = _realpath(Path(entry) / IMPL_SUBDIR)
        if impl is not None and impl.is_dir():
            records.append(PackageRecord("custom", entry, impl, socdir))
    return records


def vendor_packages(base: Path, socdir: str, refused: list[Refusal]) -> list[PackageRecord]:
    """The vendors named by ``<base>/vendors/config.ini``, in listed order; escapes are refused."""
    vendors_dir = base / "vendors"
    real_vendors = _realpath(vendors_dir)
    records = []
    for name in parse_vendors_config(vendors_dir / "config.ini"):
        impl = _realpath(vendors_dir / name / IMPL_SUBDIR)
        if real_vendors is None or impl is None or not impl.is_relative_to(real_vendors):
            reason = f"vendor {name!r} resolves outside {vendors_dir}"
            refuse(refused, vendors_dir / name, reason, code=None, event="opp.vendor_refused")
        elif impl.is_dir():
            records.append(PackageRecord("vendor", name, impl, socdir))
    return records


def builtin_package(root: Path, socdir: str) -> list[PackageRecord]:
    """The built-in package under the root, if its impl dir exists."""
    impl = root / "built-in" / IMPL_SUBDIR
    return [PackageRecord("built-in", "built-in", impl, socdir)] if impl.is_dir() else []


def discover_packages(settings: Settings, root: Path, socdir: str, refused: list[Refusal]) -> list[PackageRecord]:
    """All packages in priority order: custom (env order), vendors (config.ini order), built-in."""
    return [
        *custom_packages(settings, socdir),
        *vendor_packages(vendor_base(settings), socdir, refused),
        *builtin_package(root, socdir),
    ]
