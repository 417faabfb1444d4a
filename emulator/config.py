"""Configuration: the environment variables and the acl.json file, read here and nowhere else.

``Settings.from_env()`` is the one reader of ``os.environ``. ``AclConfig`` is the pydantic model
of what ``aclInit`` reads from its JSON file; unknown keys are kept and ignored, as the real
parser ignores them. The log variables end up in ``Settings`` too; ``emulator.plog`` turns
the Settings of each emulated process into its structlog setup.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from emulator.device.soc import DEFAULT_SOC

DEFAULT_LOG_LEVEL = 3


def _home_log_dir() -> Path:
    """$HOME/ascend/log, looked up when a Settings is made (not once at import: HOME may change)."""
    return Path.home() / "ascend" / "log"


def _int_or(value: str | None, default: int, lo: int, hi: int) -> int:
    try:
        number = int(value) if value not in (None, "") else default
    except ValueError:
        return default
    return number if lo <= number <= hi else default


def _module_levels(value: str | None) -> dict[str, int]:
    """ASCEND_MODULE_LOG_LEVEL=MOD=lvl[:MOD=lvl]; any syntax error voids the whole value."""
    if not value:
        return {}
    levels: dict[str, int] = {}
    for item in value.split(":"):
        name, sep, level = item.partition("=")
        if not sep or not name or level not in {"0", "1", "2", "3", "4"}:
            return {}
        levels[name.strip().upper()] = int(level)
    return levels


class SettingsError(ValueError):
    """An environment variable the emulator cannot act on: refused once, when the process starts.

    Most variables fall back to their default on a bad value, as the real libraries do; the two
    test switches below do not, because a fault or a memory cap silently dropped would let a test
    of an error path pass without ever taking that path.
    """


class FaultSpec(BaseModel):
    """One ``NAME[@N][=STATUS]`` entry of OPBASE_EMU_FAULTS, as written (the name is checked later,
    against the prototype table, by ``emulator.faults``).

    ``nth`` is 1-based; None fails every call. ``status`` None is the function's natural failure.
    """

    model_config = ConfigDict(frozen=True)

    name: str
    nth: int | None = 1
    status: int | None = None

    def __str__(self) -> str:
        at = "@*" if self.nth is None else f"@{self.nth}"
        return f"{self.name}{at}" + ("" if self.status is None else f"={self.status}")


_FAULT = re.compile(r"^(?P<name>[A-Za-z_]\w*)(?:@(?P<nth>\*|\d+))?(?:=(?P<status>\d+))?$")


def fault_specs(value: str | None, *, source: str = "OPBASE_EMU_FAULTS") -> tuple[FaultSpec, ...]:
    """Parse ``NAME[@N][=STATUS],...``; empty items are skipped, anything else malformed is refused."""
    specs: list[FaultSpec] = []
    for item in (value or "").split(","):
        item = item.strip()
        if not item:
            continue
        match = _FAULT.match(item)
        if match is None:
            raise SettingsError(f"{source}: cannot read {item!r}; each entry is NAME[@N][=STATUS] (N >= 1 or *)")
        nth = None if match["nth"] == "*" else int(match["nth"] or 1)
        if nth == 0:
            raise SettingsError(f"{source}: {item!r}: calls are counted from 1 (@1 is the first call)")
        status = int(match["status"]) if match["status"] is not None else None
        if status == 0:
            raise SettingsError(f"{source}: {item!r}: status 0 is success, not a fault")
        specs.append(FaultSpec(name=match["name"], nth=nth, status=status))
    return tuple(specs)


def _byte_limit(value: str | None, source: str) -> int | None:
    """A positive byte count — digits (``_`` separators allowed), optionally K, M or G (binary units,
    ``64M`` = ``64MiB``) — or None when the variable is unset or empty.

    The emulator's own limits refuse a value they cannot read instead of ignoring it: a misspelt
    budget or cap that silently fell back to the default would make a test pass for the wrong reason.
    """
    if value is None or not value.strip():
        return None
    text = value.strip().upper().replace("_", "").removesuffix("IB").removesuffix("B")
    shift = {"K": 10, "M": 20, "G": 30}.get(text[-1:], 0)
    digits = text[:-1] if shift else text
    if not digits.isdigit() or int(digits) <= 0:
        raise SettingsError(f"{source}={value!r}: expected a positive number of bytes (digits, optionally K, M or G)")
    return int(digits) << shift


def _visible_devices(value: str | None, count: int) -> tuple[int, ...] | None:
    """ASCEND_RT_VISIBLE_DEVICES: ascending physical ids; parsing stops at the first bad entry."""
    if value is None:
        return None
    ids: list[int] = []
    for item in value.split(","):
        item = item.strip()
        if not item.isdigit() or int(item) >= count or (ids and int(item) <= ids[-1]):
            break
        ids.append(int(item))
    return tuple(ids)


class Settings(BaseModel):
    """Everything the environment decides, parsed once when an emulated process starts."""

    model_config = ConfigDict(frozen=True)

    log_level: int = DEFAULT_LOG_LEVEL
    module_log_levels: dict[str, int] = Field(default_factory=dict)
    log_to_stdout: bool = False
    log_dir: Path = Field(default_factory=_home_log_dir)
    backend: str = "simulated"
    soc: str = DEFAULT_SOC
    device_count: int = 8
    visible_devices: tuple[int, ...] | None = None
    eager: bool = False
    strict: bool = False  # undefined uses raise instead of being reported
    reports: bool = True  # OPBASE_EMU_REPORTS=0: sanitizer reports go to the plog only, not to stderr
    block_workers: int = 1  # host threads that run the SPMD blocks of one large kernel
    shape_only: bool = False  # phase 1 only: phase 2 launches nothing (fast dry runs of big programs)
    initcheck: bool = True  # OPBASE_EMU_INITCHECK=0: kernels reading never-written device bytes are not reported
    tracking: bool = True  # the live-resource registry (creation sites, leak reports)
    leak_check_at_exit: bool = False  # OPBASE_EMU_LEAK_CHECK=1: report leaks when the process exits
    suppressions: Path | None = None  # OPBASE_EMU_LEAK_SUPPRESSIONS: a file of leak patterns
    # OPBASE_EMU_TRACE=path: trace the process from its start and write the Chrome JSON there at exit
    # (OPBASE_EMU_TRACE_TEXT / OPBASE_EMU_TRACE_SVG: the text timeline and the SVG picture too)
    trace_path: Path | None = None
    trace_text: Path | None = None
    trace_svg: Path | None = None
    # op packages: None = the package shipped in kernels/opp
    opp_path: Path | None = None
    custom_opp_paths: tuple[str, ...] = ()
    home_path: Path | None = None
    # the ascend backend's op libraries (OPBASE_EMU_OPAPI_LIBS: files or folders); empty = ASCEND_HOME_PATH/lib64
    opapi_libs: tuple[Path, ...] = ()
    # aclnn: the environment variables opbase reads
    npu_collect_path: str | None = None
    cache_limit: int = 10000
    disable_l2_cache: bool = False
    aicpu_cache_limit: int = 32768
    # OPBASE_EMU_HOST_BUDGET: host RAM the simulated devices' touched memory and pinned host buffers
    # may use, in bytes; None = half of MemAvailable when the process starts
    host_budget: int | None = None
    # test switches: OPBASE_EMU_FAULTS (emulator.faults) and OPBASE_EMU_HBM_LIMIT (bytes per simulated device)
    faults: tuple[FaultSpec, ...] = ()
    hbm_limit: int | None = None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        stdout = env.get("ASCEND_LOG_PRINT_TO_STDOUT", env.get("ASCEND_SLOG_PRINT_TO_STDOUT", "0"))
        if env.get("ASCEND_PROCESS_LOG_PATH"):
            log_dir = Path(env["ASCEND_PROCESS_LOG_PATH"])
        elif env.get("ASCEND_WORK_PATH"):
            log_dir = Path(env["ASCEND_WORK_PATH"]) / "log"
        else:
            log_dir = Path(env.get("HOME", str(Path.home()))) / "ascend" / "log"
        count = _int_or(env.get("OPBASE_EMU_DEVICES"), 8, 1, 64)
        return cls(
            log_level=_int_or(env.get("ASCEND_GLOBAL_LOG_LEVEL"), DEFAULT_LOG_LEVEL, 0, 4),
            module_log_levels=_module_levels(env.get("ASCEND_MODULE_LOG_LEVEL")),
            log_to_stdout=stdout.strip() == "1",
            log_dir=log_dir,
            backend=env.get("OPBASE_EMU_BACKEND", "simulated"),
            soc=env.get("OPBASE_EMU_SOC", DEFAULT_SOC),
            device_count=count,
            visible_devices=_visible_devices(env.get("ASCEND_RT_VISIBLE_DEVICES"), count),
            eager=env.get("OPBASE_EMU_EAGER", "0") == "1",
            strict=env.get("OPBASE_EMU_STRICT", "0") == "1",
            reports=env.get("OPBASE_EMU_REPORTS", "1") != "0",
            shape_only=env.get("OPBASE_EMU_SHAPE_ONLY", "0") == "1",
            initcheck=env.get("OPBASE_EMU_INITCHECK", "1") != "0",
            tracking=env.get("OPBASE_EMU_TRACKING", "1") != "0",
            leak_check_at_exit=env.get("OPBASE_EMU_LEAK_CHECK", "0") == "1",
            suppressions=Path(env["OPBASE_EMU_LEAK_SUPPRESSIONS"]) if env.get("OPBASE_EMU_LEAK_SUPPRESSIONS") else None,
            trace_path=Path(env["OPBASE_EMU_TRACE"]) if env.get("OPBASE_EMU_TRACE") else None,
            trace_text=Path(env["OPBASE_EMU_TRACE_TEXT"]) if env.get("OPBASE_EMU_TRACE_TEXT") else None,
            trace_svg=Path(env["OPBASE_EMU_TRACE_SVG"]) if env.get("OPBASE_EMU_TRACE_SVG") else None,
            block_workers=_int_or(env.get("OPBASE_EMU_BLOCK_THREADS"), os.cpu_count() or 1, 1, 256),
            opp_path=Path(env["ASCEND_OPP_PATH"]) if env.get("ASCEND_OPP_PATH") else None,
            custom_opp_paths=tuple(p for p in env.get("ASCEND_CUSTOM_OPP_PATH", "").split(":") if p),
            home_path=Path(env["ASCEND_HOME_PATH"]) if env.get("ASCEND_HOME_PATH") else None,
            opapi_libs=tuple(Path(p) for p in env.get("OPBASE_EMU_OPAPI_LIBS", "").split(os.pathsep) if p),
            npu_collect_path=env.get("NPU_COLLECT_PATH"),
            cache_limit=_int_or(env.get("ACLNN_CACHE_LIMIT"), 10000, 1, 1 << 63),
            disable_l2_cache="DISABLE_L2_CACHE" in env,
            aicpu_cache_limit=_int_or(env.get("ACLNN_AICPU_CACHE_LIMIT"), 32768, 1, 1 << 31),
            host_budget=_byte_limit(env.get("OPBASE_EMU_HOST_BUDGET"), "OPBASE_EMU_HOST_BUDGET"),
            faults=fault_specs(env.get("OPBASE_EMU_FAULTS")),
            hbm_limit=_byte_limit(env.get("OPBASE_EMU_HBM_LIMIT"), "OPBASE_EMU_HBM_LIMIT"),
        )


# -- acl.json (aclInit) ----------------------------------------------------------------------
class DefaultDevice(BaseModel):
    model_config = ConfigDict(extra="allow")
    default_device: str | None = None


class AclConfig(BaseModel):
    """The keys of acl.json that aclInit itself acts on; the rest (dump, profiler …) are kept as given."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    err_msg_mode: Literal["0", "1"] = "0"
    default_device: DefaultDevice | None = Field(default=None, alias="defaultDevice")
