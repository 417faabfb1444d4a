"""SoC profiles: the numbers the real stack reads from the platform ``.ini`` files.

A profile is what ``aclrtGetSocName``, ``aclGetDeviceCapability``, the memory accounting
(HBM size, malloc padding) and tiling (core counts, UB size) need to know about one part.
Profiles live as JSON in ``configs/socs/<profile>.json`` (facts from the real platform_config .ini files);
``memory_reserved`` and the two bandwidths are not in any source and are the emulator's
estimates (docs/device.md says which). A malformed profile file is a ``ValidationError``:
profiles ship with the project, so a broken one is a bug, not user input.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

DEFAULT_SOC = "Ascend910B2"


class SocProfile(BaseModel):
    """One SoC part. Field names follow the platform ini keys (``ai_core_cnt``, ``ub_size`` …)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    profile: str
    soc_version: str
    short_soc_version: str
    npu_arch: int
    aic_version: str
    ai_core_cnt: int = Field(gt=0)
    cube_core_cnt: int = Field(gt=0)
    vector_core_cnt: int = Field(gt=0)
    ai_cpu_cnt: int = Field(gt=0)
    memory_size: int = Field(gt=0)
    memory_kind: Literal["HBM", "DDR"]
    memory_reserved: int = Field(ge=0)
    l2_size: int
    ub_size: int = Field(gt=0)
    l1_size: int
    l0a_size: int
    l0b_size: int
    l0c_size: int
    ubblock_size: int = 32
    cube_freq_mhz: int
    padding_size: int = Field(ge=0)
    split_core: bool
    ffts_mode: str
    intrinsic_mmad: tuple[str, ...]
    max_streams: int = Field(gt=0)
    max_events: int = Field(gt=0)
    huge1g_pages: bool
    huge_streams: bool
    aicore_timeout_s: int
    aicpu_timeout_s: int
    hbm_bandwidth_gbps: float = Field(gt=0)
    host_link_gbps: float = Field(gt=0)
    lib_api_workspace_size: int
    # virtual memory (aclrtMemGetAllocationGranularity) and peer access (aclrtDeviceCanAccessPeer)
    vmm_granularity: int = Field(gt=0)
    peer_access: bool

    @property
    def hbm_total(self) -> int:
        """What aclrtGetMemInfo reports as total: the ini memory size less the system-reserved part."""
        return self.memory_size - self.memory_reserved


def _socs_dir() -> Path:
    return Path(str(resources.files("emulator.configs") / "socs"))


def available_socs() -> list[str]:
    return sorted(p.stem for p in _socs_dir().glob("*.json"))


def load_soc(name: str = DEFAULT_SOC) -> SocProfile:
    """Read one shipped profile; KeyError names the profiles that exist."""
    path = _socs_dir() / f"{name}.json"
    if not path.is_file():
        raise KeyError(f"no SoC profile {name!r}; available: {', '.join(available_socs())}")
    return SocProfile.model_validate(json.loads(path.read_text()))
