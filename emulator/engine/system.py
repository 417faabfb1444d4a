"""opbase's process state outside the op engine proper: the system config and the init bookkeeping.

``InitSystemConfig`` is the real decision table on aclnnInit's config: every row returns
0 and only decides the debug-kernel flag. ``AclnnState`` holds that flag, the loaded op packages
(loaded once per process) and the steps ``aclnnFinalize`` runs; the op engine adds its own steps
(releasing AI CPU task spaces and tiling-parse contexts) when it is built.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, StrictStr, ValidationError

from emulator.config import Settings
from emulator.config_files import JSON_NESTING_LIMIT, ConfigFileRefused, json_depth, read_config_text
from emulator.device.soc import SocProfile
from emulator.diagnostics import Diagnostics
from emulator.engine.aicpu import AicpuTaskSpaces
from emulator.engine.executor import OpConfig
from emulator.engine.kernel_mgr import KernelMgr
from emulator.engine.op_cache import OpCache
from emulator.engine.opp import LoadAllOppPackage, OppPackages
from emulator.lazylog import lazy_logger
from emulator.tracking import Registry

log = lazy_logger(__name__, logger_name="emulator.engine")

USE_BEFORE_INIT_RULE = (
    "the aclnn documentation asks for aclnnInit (or aclInit) before any aclnn API; the real library still "
    "runs the op, loading the op packages on first use"
)
USE_AFTER_FINALIZE_RULE = (
    "the aclnn documentation says aclnn APIs are not to be called after aclnnFinalize; the real library still "
    "runs the op, with the tiling compile info that aclnnFinalize released"
)


class OpDebugConfig(BaseModel):
    model_config = ConfigDict(extra="ignore")
    enable_debug_kernel: StrictStr  # `true` or `1` is a type error, which the real parser treats as a parse failure


class AclnnConfigFile(BaseModel):
    """The part of aclnnInit's JSON that opbase reads; everything else (dump …) is aclInit's."""

    model_config = ConfigDict(extra="ignore")
    op_debug_config: OpDebugConfig


def init_system_config(config_path: str | None, npu_collect_path: str | None) -> tuple[bool, str]:
    """InitSystemConfig: (debug flag, which row of the decision table decided it)."""
    if npu_collect_path:
        return True, "NPU_COLLECT_PATH is set"
    if not config_path:
        return False, "no config path"
    try:
        text = read_config_text(config_path)  # never a FIFO, a device, a loop or an endless file
    except ConfigFileRefused as exc:
        if exc.unreadable:
            return False, "config path does not resolve"
        log.warning("aclnn.config", problem="json parse failed", path=config_path, reason=exc.reason)
        return False, "json parse failed"
    if max(text.count("{"), text.count("[")) > JSON_NESTING_LIMIT and json_depth(text) > JSON_NESTING_LIMIT:
        log.warning("aclnn.config", problem="json parse failed", path=config_path, reason="nesting too deep")
        return False, "json parse failed"
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        log.warning("aclnn.config", problem="json parse failed", path=config_path, reason=str(exc))
        return False, "json parse failed"
    if not isinstance(data, dict) or "op_debug_config" not in data:
        return False, "no op_debug_config"
    section = data["op_debug_config"]
    if not isinstance(section, dict) or "enable_debug_kernel" not in section:
        return False, "no enable_debug_kernel"
    try:
        config = AclnnConfigFile.model_validate(data)
    except ValidationError:
        return False, "enable_debug_kernel is not a string"
    enabled = config.op_debug_config.enable_debug_kernel == "on"
    return enabled, f'enable_debug_kernel is "{config.op_debug_config.enable_debug_kernel}"'


@dataclass
class AclnnState:
    """aclnnInit / aclnnFinalize bookkeeping and what they act on."""

    settings: Settings
    debug_kernel: bool = False
    packages: OppPackages | None = None
    init_calls: int = 0
    finalize_calls: int = 0
    skipped_launches: int = 0  # shape-only mode
    registry: Registry = field(default_factory=Registry)
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    soc_version: str = ""
    initialised: bool = False  # aclnnInit or aclInit ran (either initialises aclnn, the documentation says)
    finalized: bool = False  # aclnnFinalize's steps ran and no init came after them
    use_warned: bool = False  # the op call that broke the documented order has been warned about
    finalize_steps: list[Callable[[], object]] = field(default_factory=list)
    kernel_mgr: KernelMgr = field(init=False)
    aicpu: AicpuTaskSpaces = field(init=False)
    op_cache: OpCache = field(init=False)
    _config: OpConfig | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        # The static initial value: on iff NPU_COLLECT_PATH is set at all, even to "".
        self.debug_kernel = self.settings.npu_collect_path is not None
        self.kernel_mgr = KernelMgr(
            lambda: self.load_packages(self.soc_version), self.registry, self.diagnostics, lambda: self.debug_kernel
        )
        self.aicpu = AicpuTaskSpaces(self.settings.aicpu_cache_limit, self.registry)
        self.op_cache = OpCache(self.settings.cache_limit, disabled=self.settings.disable_l2_cache)
        # aclnnFinalize: aclnnAicpuFinalize, then KernelMgr.ReleaseTilingParse, the real order
        self.finalize_steps = [self.aicpu.finalize, self.kernel_mgr.release_tiling_parse]  # each returns a count

    def thread_config(self, soc: SocProfile) -> OpConfig:
        """The thread's op config (InitL2Phase1Context): the platform's cube / vector core counts.

        There is no per-thread resource limit or deterministic option in the emulator yet, so every
        thread gets the same (immutable) config object.
        """
        config = self._config
        if config is None or config.aic_num != soc.cube_core_cnt:
            config = self._config = OpConfig(aic_num=soc.cube_core_cnt, aiv_num=soc.vector_core_cnt)
        return config

    def load_packages(self, soc_version: str) -> OppPackages:
        """LoadAllOppPackage, once per process: later calls return what the first one loaded."""
        if self.packages is None:
            self.packages = LoadAllOppPackage(self.settings, soc_version)
        return self.packages

    def finalize(self) -> None:
        """aclnnFinalize's steps; harmless when repeated (the second time there is nothing left)."""
        for step in self.finalize_steps:
            step()
        self.finalize_calls += 1
        self.finalized, self.use_warned = True, False

    def mark_initialised(self) -> None:
        """aclnnInit (or aclInit) ran: ops are called in the documented order again."""
        self.initialised, self.finalized, self.use_warned = True, False, False

    def check_use(self, api: str, suffix: str = "") -> None:
        """An op called before aclnnInit or after aclnnFinalize: one lifecycle warning, the call goes on.

        The documentation forbids both; the real library runs the op anyway (packages load lazily on
        the first lookup; after finalize only the released tiling compile info is stale), so only the
        first such call after each change of state is logged, not every call of a loop. The C name
        is ``api + suffix``, joined only for the warning (every phase 1 of a loop asks).
        """
        if self.use_warned or (self.initialised and not self.finalized):
            return
        self.use_warned = True
        if self.finalized:
            problem, rule = "called after aclnnFinalize", USE_AFTER_FINALIZE_RULE
        else:
            problem, rule = "called before aclnnInit", USE_BEFORE_INIT_RULE
        log.warning("aclnn.lifecycle", api=api + suffix, problem=problem, rule=rule)
