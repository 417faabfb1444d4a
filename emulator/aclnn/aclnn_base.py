"""aclnn_base.h: aclnnInit and aclnnFinalize.

Both always return 0, as the real implementation does; what the documentation forbids but the
code tolerates (a second aclnnInit, a second aclnnFinalize, finalize without init, an op called
before init or after finalize) is logged as a lifecycle warning that cites the documented rule,
so learners and leak tests see it.
"""

from __future__ import annotations

from emulator import process
from emulator.cface import aclnn_api
from emulator.engine.system import init_system_config
from emulator.lazylog import lazy_logger
from emulator.leaks import warn_at
from emulator.status import AclnnStatus

log = lazy_logger(__name__, logger_name="emulator.aclnn")

ONCE_RULE = "the aclnnInit/aclnnFinalize documentation allows one call per process"


@aclnn_api("aclnnInit")
def aclnnInit(configPath: str | None) -> int:
    """aclnnStatus aclnnInit(const char* configPath)

    Loads every op package (once per process), then lets InitSystemConfig decide the
    debug-kernel flag; the last call wins. Always 0.
    """
    proc = process.current()
    state = proc.aclnn
    if state.init_calls:
        log.warning("aclnn.lifecycle", api="aclnnInit", problem="called again", rule=ONCE_RULE)
    state.init_calls += 1
    state.mark_initialised()
    packages = state.load_packages(proc.runtime.soc.soc_version)
    state.debug_kernel, reason = init_system_config(configPath, proc.settings.npu_collect_path)
    log.info(
        "aclnn.init",
        config=configPath,
        debug_kernel=state.debug_kernel,
        decided_by=reason,
        packages=len(packages.packages),
    )
    return AclnnStatus.ACLNN_SUCCESS


@aclnn_api("aclnnFinalize")
def aclnnFinalize() -> int:
    """aclnnStatus aclnnFinalize(void): clears AI CPU task spaces and tiling-parse compile info. Always 0."""
    state = process.current().aclnn
    if state.finalize_calls:
        log.warning("aclnn.lifecycle", api="aclnnFinalize", problem="called again", rule=ONCE_RULE)
    elif not state.init_calls:
        log.warning("aclnn.lifecycle", api="aclnnFinalize", problem="called without aclnnInit", rule=ONCE_RULE)
    warn_at("aclnnFinalize")
    state.finalize()
    return AclnnStatus.ACLNN_SUCCESS
