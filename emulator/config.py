"""Configuration: the environment variables and the acl.json file, read here and nowhere else.

``Settings.from_env()`` is the one reader of ``os.environ``. ``AclConfig`` is the pydantic model
of what ``aclInit`` reads from its JSON file; unknown keys are kept and ignored, as the real
parser ignores them. ``configure_logging`` turns the ASCEND log variables into a structlog
setup whose lines look like the real plog lines (spec/runtime.md section 10.4).
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Mapping, MutableMapping
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, TextIO

import structlog
from pydantic import BaseModel, ConfigDict, Field

from emulator.device.soc import DEFAULT_SOC
from emulator.dfx import add_dfx
from emulator.error_manager import timestamp

LOG_LEVELS = {0: logging.DEBUG, 1: logging.INFO, 2: logging.WARNING, 3: logging.ERROR, 4: logging.CRITICAL + 10}
LEVEL_NAMES = {"debug": "DEBUG", "info": "INFO", "warning": "WARNING", "error": "ERROR", "critical": "ERROR"}
DEFAULT_LOG_LEVEL = 3


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
    log_dir: Path = Path.home() / "ascend" / "log"
    backend: str = "simulated"
    soc: str = DEFAULT_SOC
    device_count: int = 8
    visible_devices: tuple[int, ...] | None = None
    eager: bool = False
    strict: bool = False  # undefined uses raise instead of being reported
    block_workers: int = 1  # host threads that run the SPMD blocks of one large kernel
    shape_only: bool = False  # phase 1 only: phase 2 launches nothing (fast dry runs of big programs)
    tracking: bool = True  # the live-resource registry (creation sites, leak reports)
    leak_check_at_exit: bool = False  # OPBASE_EMU_LEAK_CHECK=1: report leaks when the process exits
    suppressions: Path | None = None  # OPBASE_EMU_LEAK_SUPPRESSIONS: a file of leak patterns
    # op packages (spec/kernels-and-packages.md section 2): None = the package shipped in kernels/opp
    opp_path: Path | None = None
    custom_opp_paths: tuple[str, ...] = ()
    home_path: Path | None = None
    # aclnn (spec/lifecycle.md section 12)
    npu_collect_path: str | None = None
    cache_limit: int = 10000
    disable_l2_cache: bool = False
    aicpu_cache_limit: int = 32768

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
            shape_only=env.get("OPBASE_EMU_SHAPE_ONLY", "0") == "1",
            tracking=env.get("OPBASE_EMU_TRACKING", "1") != "0",
            leak_check_at_exit=env.get("OPBASE_EMU_LEAK_CHECK", "0") == "1",
            suppressions=Path(env["OPBASE_EMU_LEAK_SUPPRESSIONS"]) if env.get("OPBASE_EMU_LEAK_SUPPRESSIONS") else None,
            block_workers=_int_or(env.get("OPBASE_EMU_BLOCK_THREADS"), os.cpu_count() or 1, 1, 256),
            opp_path=Path(env["ASCEND_OPP_PATH"]) if env.get("ASCEND_OPP_PATH") else None,
            custom_opp_paths=tuple(p for p in env.get("ASCEND_CUSTOM_OPP_PATH", "").split(":") if p),
            home_path=Path(env["ASCEND_HOME_PATH"]) if env.get("ASCEND_HOME_PATH") else None,
            npu_collect_path=env.get("NPU_COLLECT_PATH"),
            cache_limit=_int_or(env.get("ACLNN_CACHE_LIMIT"), 10000, 1, 1 << 63),
            disable_l2_cache="DISABLE_L2_CACHE" in env,
            aicpu_cache_limit=_int_or(env.get("ACLNN_AICPU_CACHE_LIMIT"), 32768, 1, 1 << 31),
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


# -- logging --------------------------------------------------------------------------------
MODULES = (("device", "RUNTIME"), ("emulator.acl", "ASCENDCL"), ("emulator.rt", "RUNTIME"))


def module_of(logger_name: str | None) -> str:
    for prefix, module in MODULES:
        if logger_name and logger_name.startswith(prefix):
            return module
    return "OP"


class _LazyFile:
    """The plog file, created on the first line written (a quiet process leaves no file behind)."""

    def __init__(self, directory: Path) -> None:
        self._directory = directory
        self._file: TextIO | None = None
        self._lock = threading.Lock()

    def write(self, text: str) -> int:
        with self._lock:
            if self._file is None:
                plog = self._directory / "debug" / "plog"
                plog.mkdir(parents=True, exist_ok=True)
                stamp = datetime.now().strftime("%Y%m%d%H%M%S%f")[:-3]
                self._file = (plog / f"plog-{os.getpid()}_{stamp}.log").open("a", encoding="utf-8")
            return self._file.write(text)

    def flush(self) -> None:
        if self._file is not None:
            self._file.flush()

    def __del__(self) -> None:  # the sink lives as long as the logging setup that holds it
        if self._file is not None:
            self._file.close()


def plog_renderer(settings: Settings) -> structlog.types.Processor:
    """Render and filter one event as a plog line: [LEVEL] MODULE(pid,name):time [file:line]tid event: k=v."""
    process_name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "python"

    def render(logger: Any, method: str, event: MutableMapping[str, Any]) -> str:
        module = module_of(event.pop("logger_name", None))
        level = LEVEL_NAMES.get(method, method.upper())
        threshold = settings.module_log_levels.get(module, settings.log_level)
        if LOG_LEVELS[threshold] > getattr(logging, level, logging.ERROR):
            raise structlog.DropEvent
        where = event.pop("where", "")
        text = event.pop("event", "")
        fields = " ".join(f"{k}={v}" for k, v in event.items())
        return (
            f"[{level}] {module}({os.getpid()},{process_name}):{timestamp()} [{where}]"
            f"{threading.get_native_id()} {text}: {fields}".rstrip()
        )

    return render


def configure_logging(
    settings: Settings, *, stream: TextIO | None = None, force: bool = False, all_levels: bool = False
) -> None:
    """Set up structlog from the ASCEND log variables, unless the application already did.

    Called when an emulated process starts, which is where the real libraries read these
    variables; an application (or a test) that configured structlog itself keeps its setup.
    ``all_levels`` lets every event reach the processors (so ``structlog.testing.capture_logs``
    sees warnings and debug events) while the plog output still honours the levels.
    """
    if structlog.is_configured() and not force:
        return
    lowest = 0 if all_levels else min([settings.log_level, *settings.module_log_levels.values()])
    sink: Any = stream or (sys.stdout if settings.log_to_stdout else _LazyFile(settings.log_dir))
    structlog.configure(
        processors=[structlog.contextvars.merge_contextvars, add_dfx, plog_renderer(settings)],
        wrapper_class=structlog.make_filtering_bound_logger(min(LOG_LEVELS[lowest], logging.CRITICAL)),
        logger_factory=structlog.WriteLoggerFactory(file=sink),
        cache_logger_on_first_use=False,
    )
